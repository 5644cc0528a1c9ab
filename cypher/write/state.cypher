// Read step of every write operation: the state of the slots it may touch, revisions that
// already ran (replays), claims it names, and which referenced claim ids exist.
// Params: $batch, one map (docs/engine.md#plans) of: slots (list of {namespace, subject_key,
//         predicate, since}: slots by key, maybe not created yet; since: as write/slot_states),
//         slot_refs (list of {namespace, id}: slots by id), near (list of {draft, namespace,
//         embedding, fetch, wider, k, rank, extent}: the slots of the claims nearest to these
//         embeddings, as write/neighbours finds them: a single draft's look-up rides with its
//         read),
//         claim_refs (list of {namespace, id}: claims an operation acts on; their slots are
//         read too), revisions (list of {namespace, id}), claim_ids (list of {namespace, id}),
//         walk_up_to (write/slot_states), by_id_whole (a boolean: the slots by id with every
//         past version); $fetch (write/neighbours')
// Returns: held (the ids of the slots locked), slots (by key: a slot not held reads as not there
// yet), by_id (slots by id, held ones, but for those read by key: a draft's own slot, often
// among its nearest, is read once, its past cut), claims, replays, existing, ranked (the
// look-ups', write/neighbours'). A slot's state holds
// its active and pending claims, and the windows of its earlier versions still believed for
// them (past: superseded, not retracted; by key, from since on; by id, from the start of its
// newest window on, or all of it with by_id_whole: write/slot_states). Moments come back as ISO-8601
// text: the driver hydrates native datetimes slowly.
// Every stored slot the read covers is locked first, in the apply step's order (namespace,
// subject key, predicate), and read only then: Neo4j makes a commit visible one record at a
// time (read-committed: no atomic view of another transaction's writes), so a read beside a
// commit could see a slot's new seq with its old versions or claims, and the apply step's seq
// check would pass a plan made on a state that never was. A writer holds its slots' locks until
// its commit is applied, so under the locks each slot reads whole. A slot created after the
// locks were taken is not held: the caller takes it as not there yet (the apply step then
// finds it and plans again). Looking a key up in a statement that writes locks the key's index
// entry (exclusively when the key is not there yet): the keys come sorted and are all looked up
// before any slot is locked, the order write/apply and write/lock take them in, so a read beside
// a write cannot deadlock with it.
// Planned once: every node is found by a unique key or from a node in hand, so the plan
// does not depend on the statistics; and the lists come in one map, so no list's length
// makes Neo4j plan it again (docs/engine.md#plans).
// On a server that filters inside the vector index it runs as cypher25/write/state
// (cypher.variant), carrying cypher25/write/neighbours.
CYPHER replan=skip
//@include write/neighbours
CALL (near) {
  CALL (near) {
    UNWIND $batch.slots AS k
    MATCH (s:Slot {namespace: k.namespace, subject_key: k.subject_key, predicate: k.predicate})
    USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
    RETURN s
    UNION
    UNWIND $batch.slot_refs + near AS ref
    MATCH (s:Slot {id: ref.id, namespace: ref.namespace})
    USING INDEX SEEK s:Slot(id)
    RETURN s
    UNION
    UNWIND $batch.claim_refs AS ref
    MATCH (c:Claim {id: ref.id, namespace: ref.namespace})
    USING INDEX SEEK c:Claim(id)
    MATCH (s:Slot {id: c.slot_id, namespace: c.namespace})
    USING INDEX SEEK s:Slot(id)
    RETURN s
  }
  WITH s ORDER BY s.namespace, s.subject_key, s.predicate
  SET s.locked = true
  REMOVE s.locked
  RETURN collect(s.id) AS held
}
WITH near, ranked, held, $batch.slots AS keys
//@include write/slot_states
CALL () {
  UNWIND $batch.claim_refs AS ref
  MATCH (c:Claim {id: ref.id, namespace: ref.namespace})
  USING INDEX SEEK c:Claim(id)
  RETURN collect(c {.*, embedding: null,
    valid_from: toString(c.valid_from), valid_to: toString(c.valid_to),
    recorded_at: toString(c.recorded_at), accepted_at: toString(c.accepted_at),
    reinforced_at: toString(c.reinforced_at), superseded_at: toString(c.superseded_at),
    retracted_at: toString(c.retracted_at), erased_at: toString(c.erased_at)}) AS claims
}
CALL (claims, held, near) {
  UNWIND $batch.slot_refs + near + [c IN claims WHERE c.slot_id IS NOT NULL |
                       {namespace: c.namespace, id: c.slot_id}] AS ref
  WITH DISTINCT ref WHERE ref.id IN held
  MATCH (s:Slot {id: ref.id, namespace: ref.namespace})
  USING INDEX SEEK s:Slot(id)
  WITH s WHERE NOT any(k IN $batch.slots WHERE k.namespace = s.namespace
                       AND k.subject_key = s.subject_key AND k.predicate = s.predicate)
  // Cut as a slot named by key is (since its newest window's start) unless $batch.by_id_whole:
  // a draft decided into one of them that needs older versions has the batch read again whole.
  WITH collect(s {.namespace, .subject_key, .predicate, .subject, .cardinality, since: null,
                  whole_past: $batch.by_id_whole}) AS keys
//@include write/slot_states
  RETURN slots AS by_id
}
CALL () {
  UNWIND $batch.revisions AS rv
  MATCH (r:Revision {namespace: rv.namespace, id: rv.id})
  USING INDEX SEEK r:Revision(namespace, id)
  RETURN collect({namespace: r.namespace, id: r.id, result: r.result}) AS replays
}
CALL () {
  UNWIND $batch.claim_ids AS ref
  MATCH (c:Claim {id: ref.id})
  USING INDEX SEEK c:Claim(id)
  RETURN collect({id: c.id, namespace: c.namespace}) AS existing
}
RETURN held, slots, by_id, claims, replays, existing, ranked
