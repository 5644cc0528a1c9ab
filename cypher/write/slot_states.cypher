// The state of slots by key, as the write path's read step sees it (write/state includes it) and
// as write/apply reads it back when it refuses a batch, so the write decided again needs no
// read of its own.
// Params: $batch.slots (list of {namespace, subject_key, predicate, since, whole_past, ...}:
//         since, ISO-8601 text or null, whole_past, a boolean, as below; it is included in
//         statements that take their lists in one map, docs/engine.md#plans)
// Returns: slots (each key's map with slot_id, seq, versions, head, last_revision,
//          last_recorded_at, stored_cardinality, claims: active and pending, past: superseded
//          from a moment on, since: the latest end among those left out, null when none was)
CALL () {
  UNWIND $batch.slots AS k
  OPTIONAL MATCH (s:Slot {namespace: k.namespace, subject_key: k.subject_key, predicate: k.predicate})
  USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
  WITH k, s, s.seq AS seq
  WITH k, s, seq, s.versions AS versions, s.head AS head, s.last_revision AS last_revision,
       toString(s.last_recorded_at) AS last_recorded_at
  // Every claim of the slot in one pass, each property it is sorted by read once.
  OPTIONAL MATCH (s)<-[:IN_SLOT]-(c:Claim)
  WITH k, s, seq, versions, head, last_revision, last_recorded_at, c, c.status AS status,
       c.valid_from AS start
  WITH k, s, seq, versions, head, last_revision, last_recorded_at,
       collect(CASE WHEN status IN ['active', 'pending'] THEN c END) AS current,
       collect(CASE WHEN status = 'superseded'
                    THEN {claim: c, start: start, end: c.valid_to,
                          version: coalesce(c.version, 0)} END) AS superseded,
       max(CASE WHEN status = 'superseded' THEN coalesce(c.version, 0) END) AS top,
       max(CASE WHEN status IN ['active', 'superseded'] THEN start END) AS newest
  // The past from a moment on, unless k.whole_past: the versions whose window ends or starts
  // then or later, and the newest; a draft placed from then on is decided on no older ones.
  // The moment: the start of the newest window (active or past), or k.since if earlier (a
  // draft of the batch that starts before it).
  WITH k, s, seq, versions, head, last_revision, last_recorded_at, current, superseded, top,
       CASE WHEN k.whole_past THEN null
            WHEN k.since IS NULL OR newest < datetime(k.since) THEN newest
            ELSE datetime(k.since) END AS since
  WITH k, s, seq, versions, head, last_revision, last_recorded_at, current,
       [x IN superseded | {claim: x.claim, end: x.end,
                           kept: since IS NULL OR x.end IS NULL OR x.end >= since
                                 OR x.start >= since OR x.version = top}] AS sorted
  // since, as returned: the latest end among the versions left out (null: none left out).
  WITH k, s, seq, versions, head, last_revision, last_recorded_at, current,
       [x IN sorted WHERE x.kept | x.claim] AS kept,
       reduce(latest = null, x IN sorted |
              CASE WHEN NOT x.kept AND (latest IS NULL OR x.end > latest) THEN x.end
                   ELSE latest END) AS left_out
  WITH k, s, seq, versions, head, last_revision, last_recorded_at, toString(left_out) AS since,
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
