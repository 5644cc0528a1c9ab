// What held at world time $valid_at according to what was known at transaction time $known_at
// (read/held_claims). When several match, the latest accepted wins (a later restore or
// correction).
// Params: $namespace, $subject_key, $predicate, $valid_at, $known_at (ISO-8601 text),
//         $walk_up_to (read/held_claims)
// Returns: claim (best first, with what it contradicts: read/claim_overruled), its moments as
// ISO-8601 text: the driver packs and hydrates
// native datetimes slowly, and a read like this one is little more than its round trip.
// Planned once: the slot is found by its unique key, its claims by the slot's id with the index
// each branch names, so the plan does not depend on the statistics (docs/engine.md#plans).
CYPHER replan=skip
//@include read/hidden
WITH hidden, datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
MATCH (s:Slot {namespace: $namespace, subject_key: $subject_key, predicate: $predicate})
USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
//@include read/held_claims
WITH * WHERE NOT (c.namespace IN hidden.whole
     OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
     OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
     OR c.id IN hidden.ids)
//@include read/claim_overruled
RETURN c {.*, embedding: null, contradicts: overruled,
          valid_from: toString(c.valid_from), valid_to: toString(c.valid_to),
          recorded_at: toString(c.recorded_at), accepted_at: toString(c.accepted_at),
          reinforced_at: toString(c.reinforced_at), superseded_at: toString(c.superseded_at),
          retracted_at: toString(c.retracted_at), erased_at: toString(c.erased_at)} AS claim
ORDER BY c.accepted_at DESC, c.version DESC
