// A stored revision's result (replays return it unchanged).
// Params: $namespace, $revision_id   Returns: result (JSON text) or no row
MATCH (r:Revision {namespace: $namespace, id: $revision_id})
RETURN r.result AS result, r.op AS op, r.slot_ids AS slot_ids
