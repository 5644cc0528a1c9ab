// The state of slots by key, as the write path's read step sees it (write/state includes it, for
// the slots named by key and again for those found by id) and as write/apply reads it back when
// it refuses a batch, so the write decided again needs no read of its own.
// Params, alone: $batch.slots (the keys), $batch.walk_up_to (a fact of up to this many claims is
//         walked, a longer one read by index: below); it is included in statements that take
//         their lists in one map, docs/engine.md#plans
// Carried, from its //@shared line on: keys (list of {namespace, subject_key, predicate, since,
//         whole_past, ...}: since, ISO-8601 text or null, whole_past, a boolean, as below; every
//         other key comes back as given) and $batch.walk_up_to
// Returns: slots (each key's map with slot_id, seq, versions, head, last_revision,
//          last_recorded_at, stored_cardinality, claims: active and pending, past: superseded
//          from a moment on, since: the latest end among those left out, null when none was)
WITH $batch.slots AS keys
//@shared
CALL (keys) {
  UNWIND keys AS k
  OPTIONAL MATCH (s:Slot {namespace: k.namespace, subject_key: k.subject_key, predicate: k.predicate})
  USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
  WITH k, s, s.seq AS seq
  WITH k, s, seq, s.versions AS versions, s.head AS head, s.last_revision AS last_revision,
       toString(s.last_recorded_at) AS last_recorded_at
  // The past from a moment on, unless k.whole_past: the versions whose window ends or starts
  // then or later, and the newest; a draft placed from then on is decided on no older ones.
  // The moment: the start of the newest window (active or past), or k.since if earlier (a
  // draft of the batch that starts before it).
  // A long fact's newest past version, by index: a fact read whole, one of a few claims, or
  // one whose past has no numbered version (a multi-valued fact: every version is kept) is
  // walked.
  CALL (k, s) {
    WITH k, s WHERE s IS NOT NULL AND NOT k.whole_past
                AND COUNT { (s)<-[:IN_SLOT]-() } > $batch.walk_up_to
    MATCH (c:Claim {slot_id: s.id})
    USING INDEX SEEK c:Claim(slot_id, version)
    WHERE c.version IS NOT NULL AND c.status = 'superseded' AND c.namespace = s.namespace
    // Ordered by the index's keys (the first is the slot's id throughout): the index gives
    // the order and the seek stops at the first superseded (ordered by version alone, Neo4j
    // sorts every version).
    WITH c ORDER BY c.slot_id DESC, c.version DESC LIMIT 1
    RETURN collect(c) AS tops
  }
  CALL (k, s, tops) {
    // Walked: every claim of the slot in one pass, each property it is sorted by read once.
    WITH k, s WHERE tops = []
    OPTIONAL MATCH (s)<-[:IN_SLOT]-(c:Claim)
    WITH k, c, c.status AS status, c.valid_from AS start
    WITH k,
         collect(CASE WHEN status IN ['active', 'pending'] THEN c END) AS current,
         collect(CASE WHEN status = 'superseded'
                      THEN {claim: c, start: start, end: c.valid_to,
                            version: coalesce(c.version, 0)} END) AS superseded,
         max(CASE WHEN status = 'superseded' THEN coalesce(c.version, 0) END) AS top,
         max(CASE WHEN status IN ['active', 'superseded'] THEN start END) AS newest
    WITH k, current, superseded, top,
         CASE WHEN k.whole_past THEN null
              WHEN k.since IS NULL OR newest < datetime(k.since) THEN newest
              ELSE datetime(k.since) END AS since
    WITH current,
         [x IN superseded | {claim: x.claim, end: x.end,
                             kept: since IS NULL OR x.end IS NULL OR x.end >= since
                                   OR x.start >= since OR x.version = top}] AS sorted
    RETURN current, [x IN sorted WHERE x.kept | x.claim] AS kept,
           reduce(latest = null, x IN sorted |
                  CASE WHEN NOT x.kept AND (latest IS NULL OR x.end > latest) THEN x.end
                       ELSE latest END) AS left_out
    UNION ALL
    // By index: the same cut, from the claims that can be in it (a superseded version always
    // has an end), so a fact of thousands of versions reads its few.
    WITH k, s, tops[0] AS top WHERE top IS NOT NULL
    CALL (s) {
      MATCH (c:Claim {slot_id: s.id})
      USING INDEX SEEK c:Claim(slot_id, status)
      WHERE c.status IN ['active', 'pending'] AND c.namespace = s.namespace
      RETURN collect(c) AS current
    }
    CALL (s) {
      MATCH (c:Claim {slot_id: s.id})
      USING INDEX SEEK c:Claim(slot_id, valid_from)
      WHERE c.valid_from IS NOT NULL AND c.status = 'superseded' AND c.namespace = s.namespace
      WITH c ORDER BY c.slot_id DESC, c.valid_from DESC LIMIT 1
      RETURN collect(c.valid_from) AS starts
    }
    WITH k, s, top, current,
         reduce(newest = starts[0], c IN current |
                CASE WHEN c.status = 'active' AND (newest IS NULL OR c.valid_from > newest)
                     THEN c.valid_from ELSE newest END) AS newest
    WITH s, top, current,
         CASE WHEN k.since IS NULL OR newest < datetime(k.since) THEN newest
              ELSE datetime(k.since) END AS since
    CALL (s, top, since) {
      MATCH (c:Claim {slot_id: s.id})
      USING INDEX SEEK c:Claim(slot_id, valid_to)
      WHERE c.valid_to >= since
      RETURN c
      UNION
      MATCH (c:Claim {slot_id: s.id})
      USING INDEX SEEK c:Claim(slot_id, valid_from)
      WHERE c.valid_from >= since
      RETURN c
      UNION
      RETURN top AS c
    }
    WITH s, top, current, since, c WHERE c.status = 'superseded' AND c.namespace = s.namespace
    WITH s, top, current, since, collect(c) AS kept
    // The latest end among those left out: they end and start before the moment.
    CALL (s, top, since) {
      MATCH (c:Claim {slot_id: s.id})
      USING INDEX SEEK c:Claim(slot_id, valid_to)
      WHERE c.valid_to < since AND c.status = 'superseded' AND c.namespace = s.namespace
        AND c.valid_from < since AND coalesce(c.version, 0) <> top.version
      WITH c ORDER BY c.slot_id DESC, c.valid_to DESC LIMIT 1
      RETURN collect(c.valid_to) AS ends
    }
    RETURN current, kept, ends[0] AS left_out
  }
  WITH k, s, seq, versions, head, last_revision, last_recorded_at,
       toString(left_out) AS since,
       [c IN current | c {.*,
         valid_from: toString(c.valid_from), valid_to: toString(c.valid_to),
         recorded_at: toString(c.recorded_at), accepted_at: toString(c.accepted_at),
         reinforced_at: toString(c.reinforced_at)}] AS claims,
       [v IN kept | v {.*, embedding: null, valid_from: toString(v.valid_from),
         valid_to: toString(v.valid_to), recorded_at: toString(v.recorded_at),
         accepted_at: toString(v.accepted_at), reinforced_at: toString(v.reinforced_at),
         superseded_at: toString(v.superseded_at)}] AS past
  RETURN collect(k {.*, slot_id: s.id, seq: seq, versions: versions, head: head,
                    last_revision: last_revision, last_recorded_at: last_recorded_at,
                    stored_cardinality: s.cardinality, claims: claims, past: past,
                    since: since}) AS slots
}
RETURN slots
