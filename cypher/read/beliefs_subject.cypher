// Every current belief about a subject: as_of(now, now) for each of its facts (valid now, as
// known now, read/held_claims; in a single-valued fact the claim accepted last wins, exactly as
// as_of decides).
// Params: $namespace, $subject_key, $now (ISO-8601 text), $walk_up_to (read/held_claims)
// Returns: claim (with what it contradicts: read/claim_overruled), its moments as ISO-8601 text
// (read/as_of_claims says why)
//@include read/hidden
WITH hidden, datetime($now) AS valid_at, datetime($now) AS known_at
// The subject's facts, by the first two keys of the slots' unique index.
MATCH (s:Slot {namespace: $namespace, subject_key: $subject_key})
USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
WHERE s.predicate IS NOT NULL
//@include read/held_claims
WITH * WHERE NOT (c.namespace IN hidden.whole
     OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
     OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
     OR c.id IN hidden.ids)
WITH s, c, hidden ORDER BY c.accepted_at DESC, c.version DESC
WITH s, hidden, collect(c) AS held
UNWIND CASE s.cardinality WHEN 'single' THEN held[..1] ELSE held END AS c
//@include read/claim_overruled
RETURN c {.*, embedding: null, contradicts: overruled,
          valid_from: toString(c.valid_from), valid_to: toString(c.valid_to),
          recorded_at: toString(c.recorded_at), accepted_at: toString(c.accepted_at),
          reinforced_at: toString(c.reinforced_at), superseded_at: toString(c.superseded_at),
          retracted_at: toString(c.retracted_at), erased_at: toString(c.erased_at)} AS claim
ORDER BY c.predicate, c.accepted_at
