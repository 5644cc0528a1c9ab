// Every current belief about a subject: as_of(now, now) for each of its facts (valid now, as
// known now; in a single-valued fact the claim accepted last wins, exactly as as_of decides).
// Params: $namespace, $subject_key, $now   Returns: claim
MATCH (s:Slot {namespace: $namespace, subject_key: $subject_key})<-[:IN_SLOT]-(c:Claim)
WHERE c.status IN ['active', 'superseded', 'retracted']
  AND c.accepted_at <= $now
  AND (c.retracted_at IS NULL OR c.retracted_at > $now)
  AND c.valid_from <= $now
  AND (c.valid_to IS NULL OR (c.superseded_at IS NOT NULL AND c.superseded_at > $now)
       OR $now < c.valid_to)
WITH s, c ORDER BY c.accepted_at DESC, c.version DESC
WITH s, collect(c) AS held
UNWIND CASE s.cardinality WHEN 'single' THEN held[..1] ELSE held END AS c
RETURN c {.*, embedding: null} AS claim
ORDER BY c.predicate, c.accepted_at
