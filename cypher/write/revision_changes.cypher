// What one revision did, edge by edge (the input of a rollback): each edge to a claim with
// everything it recorded (previous status, window, confidence, evidence, flags, ...).
// Params: $namespace, $revision_id   Returns: op, at, slot_ids, undo (a consolidation's record of
// what it changed in place, JSON), undoes, undone_op (the op of the revision it rolled back),
// changes (list of {kind, id, and the edge's properties})
MATCH (r:Revision {namespace: $namespace, id: $revision_id})
OPTIONAL MATCH (u:Revision {namespace: $namespace, id: r.undoes})
OPTIONAL MATCH (r)-[e]->(c:Claim)
RETURN r.op AS op, r.at AS at, r.slot_ids AS slot_ids, r.undo AS undo, r.undoes AS undoes,
       u.op AS undone_op,
       collect(CASE WHEN c IS NOT NULL THEN e {.*, kind: type(e), id: c.id} END) AS changes
