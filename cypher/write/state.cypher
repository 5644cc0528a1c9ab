// Detect (read) for a batch of drafts: each slot's state, revisions that already ran, and which
// referenced or client-chosen claim ids exist.
// Params: $slots (list of {namespace, subject_key, predicate}), $revisions (list of {namespace, id}),
//         $claim_ids (list of {namespace, id})
// Returns: slots (state per slot, active claims with embeddings), replays, existing (claim ids)
CALL () {
  UNWIND $slots AS k
  OPTIONAL MATCH (s:Slot {namespace: k.namespace, subject_key: k.subject_key, predicate: k.predicate})
  OPTIONAL MATCH (s)<-[:IN_SLOT]-(c:Claim {status: 'active'})
  WITH k, s, collect(c {.*}) AS claims
  RETURN collect(k {.*, slot_id: s.id, seq: s.seq, versions: s.versions, head: s.head,
                    last_recorded_at: s.last_recorded_at, claims: claims}) AS slots
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
RETURN slots, replays, existing
