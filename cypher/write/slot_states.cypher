// The state of slots by key, as the write path's read step sees it (write/state includes it) and
// as write/apply reads it back when it refuses a batch, so the write decided again needs no
// read of its own.
// Params: $batch.slots (list of {namespace, subject_key, predicate, since, whole_past, ...}:
//         since, ISO-8601 text or null, whole_past, a boolean, as below; it is included in
//         statements that take their lists in one map, docs/engine.md#plans)
// Returns: slots (each key's map with slot_id, seq, versions, head, last_revision,
//          last_recorded_at, stored_cardinality, claims: active and pending, past: superseded
//          from since on, since: that moment, null when past holds every one)
CALL () {
  UNWIND $batch.slots AS k
  OPTIONAL MATCH (s:Slot {namespace: k.namespace, subject_key: k.subject_key, predicate: k.predicate})
  USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
  WITH k, s, s.seq AS seq
  WITH k, s, seq, s.versions AS versions, s.head AS head, s.last_revision AS last_revision,
       toString(s.last_recorded_at) AS last_recorded_at
  OPTIONAL MATCH (s)<-[:IN_SLOT]-(c:Claim) WHERE c.status IN ['active', 'pending']
  WITH k, s, seq, versions, head, last_revision, last_recorded_at, collect(c) AS current
  // The past from a moment on, unless k.whole_past: the versions whose window ends or starts
  // then or later, and the newest; a draft placed from then on is decided on no older ones.
  // The moment: the start of the newest window (active or past), or k.since if earlier (a
  // draft of the batch that starts before it).
  CALL (s, k, current) {
    OPTIONAL MATCH (s)<-[:IN_SLOT]-(v:Claim {status: 'superseded'})
    WITH k, current, collect(v) AS superseded
    WITH k, superseded,
         reduce(top = 0, v IN superseded | CASE WHEN coalesce(v.version, 0) > top
                                              THEN coalesce(v.version, 0) ELSE top END) AS top,
         reduce(start = null, c IN [c IN current WHERE c.status = 'active']
                                                + superseded |
                CASE WHEN start IS NULL OR c.valid_from > start THEN c.valid_from
                     ELSE start END) AS newest
    WITH superseded, top,
         CASE WHEN k.whole_past THEN null
              WHEN k.since IS NULL OR newest < datetime(k.since) THEN newest
              ELSE datetime(k.since) END AS since
    RETURN toString(since) AS since,
           [v IN superseded
            WHERE since IS NULL OR v.valid_to IS NULL OR v.valid_to >= since
                  OR v.valid_from >= since OR coalesce(v.version, 0) = top
            | v {.*, embedding: null, valid_from: toString(v.valid_from),
                 valid_to: toString(v.valid_to), recorded_at: toString(v.recorded_at),
                 accepted_at: toString(v.accepted_at), reinforced_at: toString(v.reinforced_at),
                 superseded_at: toString(v.superseded_at)}] AS past
  }
  WITH k, s, seq, versions, head, last_revision, last_recorded_at, since, past,
       [c IN current | c {.*,
         valid_from: toString(c.valid_from), valid_to: toString(c.valid_to),
         recorded_at: toString(c.recorded_at), accepted_at: toString(c.accepted_at),
         reinforced_at: toString(c.reinforced_at)}] AS claims
  RETURN collect(k {.*, slot_id: s.id, seq: seq, versions: versions, head: head,
                    last_revision: last_revision, last_recorded_at: last_recorded_at,
                    stored_cardinality: s.cardinality, claims: claims, past: past,
                    since: since}) AS slots
}
RETURN slots
