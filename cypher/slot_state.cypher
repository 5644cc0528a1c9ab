// Detect (read): a slot's state before a write.
// Params: $namespace, $subject_key, $predicate, $revision_id
// Returns: slot_id, seq, last_recorded_at, claims (active and pending), replay (a stored result)
OPTIONAL MATCH (s:Slot {namespace: $namespace, subject_key: $subject_key, predicate: $predicate})
OPTIONAL MATCH (s)<-[:IN_SLOT]-(c:Claim)
  WHERE c.status IN ['active', 'pending']
WITH s, collect(c {.*, embedding: null}) AS claims
OPTIONAL MATCH (r:Revision {namespace: $namespace, id: $revision_id})
RETURN s.id AS slot_id, s.seq AS seq, s.last_recorded_at AS last_recorded_at, claims,
       r.result AS replay
