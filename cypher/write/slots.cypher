// Record each slot's chain head, version count, last recorded change and last revision.
// Params: $slots (list of {id, versions, head, last_recorded_at, last_revision})
// Returns: updated (count)
UNWIND $slots AS x
MATCH (s:Slot {id: x.id, namespace: x.namespace})
SET s.versions = x.versions, s.head = x.head, s.last_recorded_at = x.last_recorded_at,
    s.last_revision = x.last_revision
RETURN count(s) AS updated
