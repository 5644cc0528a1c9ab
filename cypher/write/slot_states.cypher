// The state of slots by key, as the write path's read step sees it (write/state includes it) and
// as write/apply reads it back after a small batch, so the next write of those facts from this
// client needs no read of its own.
// Params: $batch.slots (list of {namespace, subject_key, predicate, ...}; it is included in
//         statements that take their lists in one map, docs/engine.md#plans)
// Returns: slots (each key's map with slot_id, seq, versions, head, last_revision,
//          last_recorded_at, stored_cardinality, claims: active and pending, past: superseded)
CALL () {
  UNWIND $batch.slots AS k
  OPTIONAL MATCH (s:Slot {namespace: k.namespace, subject_key: k.subject_key, predicate: k.predicate})
  USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
  WITH k, s, s.seq AS seq
  WITH k, s, seq, s.versions AS versions, s.head AS head, s.last_revision AS last_revision,
       toString(s.last_recorded_at) AS last_recorded_at
  OPTIONAL MATCH (s)<-[:IN_SLOT]-(c:Claim) WHERE c.status IN ['active', 'pending']
  WITH k, s, seq, versions, head, last_revision, last_recorded_at, collect(c {.*,
    valid_from: toString(c.valid_from), valid_to: toString(c.valid_to),
    recorded_at: toString(c.recorded_at), accepted_at: toString(c.accepted_at),
    reinforced_at: toString(c.reinforced_at)}) AS claims
  CALL (s) {
    OPTIONAL MATCH (s)<-[:IN_SLOT]-(v:Claim {status: 'superseded'})
    RETURN collect(v {.*, embedding: null, valid_from: toString(v.valid_from),
      valid_to: toString(v.valid_to), recorded_at: toString(v.recorded_at),
      accepted_at: toString(v.accepted_at), reinforced_at: toString(v.reinforced_at),
      superseded_at: toString(v.superseded_at)}) AS past
  }
  RETURN collect(k {.*, slot_id: s.id, seq: seq, versions: versions, head: head,
                    last_revision: last_revision, last_recorded_at: last_recorded_at,
                    stored_cardinality: s.cardinality, claims: claims, past: past}) AS slots
}
RETURN slots
