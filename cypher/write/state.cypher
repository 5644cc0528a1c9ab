// Detect (read) for a batch of drafts: each slot's state, revisions that already ran, and which
// referenced or client-chosen claim ids exist.
// Params: $slots (list of {namespace, subject_key, predicate}), $near (list of {namespace, id}: slots
//         found by the vector index), $revisions (list of {namespace, id}), $claim_ids (list of
//         {namespace, id})
// Returns: slots, near (state per slot, active claims with embeddings), replays, existing.
// Moments come back as ISO-8601 text: the driver hydrates native datetimes slowly.
CALL () {
  UNWIND $slots AS k
  OPTIONAL MATCH (s:Slot {namespace: k.namespace, subject_key: k.subject_key, predicate: k.predicate})
  // seq is read before anything else of the slot: if a writer commits in between, the seq the
  // apply step checks no longer matches and the batch is planned again (a seqlock).
  WITH k, s, s.seq AS seq
  WITH k, s, seq, s.versions AS versions, s.head AS head,
       toString(s.last_recorded_at) AS last_recorded_at
  OPTIONAL MATCH (s)<-[:IN_SLOT]-(c:Claim {status: 'active'})
  WITH k, s, seq, versions, head, last_recorded_at, collect(c {.*,
    valid_from: toString(c.valid_from), valid_to: toString(c.valid_to),
    recorded_at: toString(c.recorded_at), accepted_at: toString(c.accepted_at),
    reinforced_at: toString(c.reinforced_at)}) AS claims
  RETURN collect(k {.*, slot_id: s.id, seq: seq, versions: versions, head: head,
                    last_recorded_at: last_recorded_at, claims: claims}) AS slots
}
CALL () {
  UNWIND $near AS ref
  MATCH (s:Slot {id: ref.id, namespace: ref.namespace})
  WITH s, s.seq AS seq
  WITH s, seq, s {.namespace, .subject_key, .predicate, .subject, .cardinality, slot_id: s.id,
                  .versions, .head, last_recorded_at: toString(s.last_recorded_at)} AS state
  OPTIONAL MATCH (s)<-[:IN_SLOT]-(c:Claim {status: 'active'})
  WITH state, seq, collect(c {.*,
    valid_from: toString(c.valid_from), valid_to: toString(c.valid_to),
    recorded_at: toString(c.recorded_at), accepted_at: toString(c.accepted_at),
    reinforced_at: toString(c.reinforced_at)}) AS claims
  RETURN collect(state {.*, seq: seq, claims: claims}) AS near
}
CALL () {
  UNWIND $revisions AS rv
  MATCH (r:Revision {namespace: rv.namespace, id: rv.id})
  RETURN collect({namespace: r.namespace, id: r.id, result: r.result}) AS replays
}
CALL () {
  UNWIND $claim_ids AS ref
  MATCH (c:Claim {id: ref.id})
  RETURN collect({id: c.id, namespace: c.namespace}) AS existing
}
RETURN slots, near, replays, existing
