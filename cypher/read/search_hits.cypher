// The hits of a semantic search in one namespace, from the claims fetched (read/search_claims
// and its Cypher 25 variant carry it; they differ in how they fetch): those of this namespace
// that pass what $mode asks for, best $k kept; each hit with its open rivals (claims it
// contradicts or is contradicted by, and pending claims of its fact) and their validity windows.
// Params, alone: $id (a claim to take as the one fetched), $namespace, $k, $mode ('current' |
//         'history' | 'as_of'), $now, $valid_at, $known_at (datetimes), $walk_up_to
//         (read/search_holds)
// Carried, from its //@shared line on: near (list of {c, score}: the claims fetched), and the
// same parameters but $id.
// Returns: fetched, hits (list of {claim, score, rivals}, best first; a hit's claim names what
// it contradicts, read/claim_overruled; a hit's moments as
// ISO-8601 text: the driver hydrates native datetimes slowly, and a search returns k claims),
// reach (how many claims fetched were as near as the last hit: the fetch that would have held
// the hits)
MATCH (node:Claim {id: $id})
WITH [{c: node, score: 1.0}] AS near
//@include read/hidden
//@shared
CALL (near, hidden) {
  UNWIND near AS found
  // In score order first: the tests below (one subquery a claim) then run only until $k
  // claims pass, the planner keeping the order and the LIMIT stopping the pulls.
  WITH found.c AS c, found.score AS score ORDER BY score DESC
  WHERE c.namespace = $namespace AND NOT (c.namespace IN hidden.whole
       OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
       OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
       OR c.id IN hidden.ids)
//@include read/search_holds
  WITH c, score, hidden ORDER BY score DESC LIMIT $k
//@include read/claim_overruled
  CALL (c, hidden) {
    OPTIONAL MATCH (c)-[x:CONTRADICTS]-(r:Claim)
    WHERE x.resolution IS NULL AND r.status IN ['active', 'pending'] AND NOT (r.namespace IN hidden.whole
         OR [r.namespace, coalesce(r.subject_key, '')] IN hidden.keys
         OR (r.namespace IN hidden.text AND coalesce(r.subject_key, 'text:') STARTS WITH 'text:')
         OR r.id IN hidden.ids)
    RETURN collect(r {.*, embedding: null}) AS contradicting
  }
//@include read/pending_rivals
  WITH c, score, overruled, contradicting + waiting AS rivals ORDER BY score DESC
  RETURN collect({claim: c {.*, embedding: null, contradicts: overruled,
                    valid_from: toString(c.valid_from), valid_to: toString(c.valid_to),
                    recorded_at: toString(c.recorded_at), accepted_at: toString(c.accepted_at),
                    reinforced_at: toString(c.reinforced_at),
                    superseded_at: toString(c.superseded_at),
                    retracted_at: toString(c.retracted_at), erased_at: toString(c.erased_at)},
                   score: score, rivals: rivals}) AS hits
}
WITH near, hits,
     CASE size(hits) WHEN 0 THEN size(near)
     ELSE size([x IN near WHERE x.score >= hits[-1].score]) END AS reach
RETURN size(near) AS fetched, hits, reach
