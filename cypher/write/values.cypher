// A guess for the models, read while a draft is embedded (Remember._score_beside): the claims
// each fact believes now, by key, read without locks or past, so that the pairs the draft's
// decision will likely read are scored while its state read (write/state) looks up its nearest
// claims. Nothing is decided on it: the draft is decided on write/state's read.
// Params: $batch, one map of: slots (list of {namespace, subject_key, predicate})
// Returns: a row per stored slot: namespace, subject_key, predicate, cardinality, and active
// (its active claims: id, object, text, negated, recorded_at as ISO-8601 text)
CYPHER replan=skip
UNWIND $batch.slots AS k
MATCH (s:Slot {namespace: k.namespace, subject_key: k.subject_key, predicate: k.predicate})
USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
CALL (s) {
  MATCH (c:Claim {slot_id: s.id, status: 'active'})
  USING INDEX SEEK c:Claim(slot_id, status)
  WHERE c.namespace = s.namespace
  RETURN collect(c {.id, .object, .text, .negated, recorded_at: toString(c.recorded_at)})
    AS active
}
RETURN s.namespace AS namespace, s.subject_key AS subject_key, s.predicate AS predicate,
       s.cardinality AS cardinality, active
