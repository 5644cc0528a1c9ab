// Which search hits pass what $mode asks for (read/search_hits and read/scope_search carry it):
// in history mode every claim not erased; else what held at t as known at known (as_of's test:
// current is as_of(now, now)) and, of a single-valued fact, only if no claim of its fact accepted
// later holds too, as read/as_of_claims orders them. The claims of a hit's fact that hold are
// found as as_of finds them (read/held_claims: a long fact's by index, not walked).
// Params, alone: $id (a claim, taken as a hit), $mode ('current' | 'history' | 'as_of'), $now,
//         $valid_at, $known_at (datetimes), $walk_up_to
// Carried, from its //@shared line on: c (a hit), score, hidden (read/hidden, kept), and the
// same parameters but $id
// Returns: c, score: the hits that pass
MATCH (c:Claim {id: $id})
WITH c, 1.0 AS score
//@include read/hidden
//@shared
WITH c, score, hidden, CASE $mode WHEN 'current' THEN $now ELSE $valid_at END AS t,
     CASE $mode WHEN 'current' THEN $now ELSE $known_at END AS known
WHERE CASE $mode
  WHEN 'history' THEN c.status <> 'erased'
  ELSE c.status IN ['active', 'superseded', 'retracted']
       AND c.accepted_at <= known
       AND (c.retracted_at IS NULL OR c.retracted_at > known)
       AND c.valid_from <= t
       AND (c.valid_to IS NULL OR (c.superseded_at IS NOT NULL AND c.superseded_at > known)
            OR t < c.valid_to)
END
// (The hit is named apart: its fact's claims are c in read/held_claims.)
WITH c AS hit, score, hidden, t, known
CALL (hit, t, known) {
  MATCH (hit)-[:IN_SLOT]->(s:Slot {cardinality: 'single'})
  WITH hit, s, t AS valid_at, known AS known_at WHERE $mode <> 'history'
//@include read/held_claims
  WITH hit, c
  WHERE c <> hit AND (c.accepted_at > hit.accepted_at
                      OR (c.accepted_at = hit.accepted_at AND c.version > hit.version))
  RETURN count(c) AS later
}
WITH hit AS c, score, hidden WHERE later = 0
RETURN c, score
