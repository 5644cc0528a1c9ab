// What one revision did, edge by edge (the input of a rollback).
// Params: $namespace, $revision_id   Returns: op, slot_ids, changes, undo (a consolidation's
// record of what it changed in place, JSON)
MATCH (r:Revision {namespace: $namespace, id: $revision_id})
OPTIONAL MATCH (r)-[e]->(c:Claim)
RETURN r.op AS op, r.slot_ids AS slot_ids, r.undo AS undo,
       collect(CASE WHEN c IS NOT NULL THEN {kind: type(e), id: c.id,
               previous_valid_to: e.previous_valid_to,
               previous_status: e.previous_status, flag: e.flag,
               previous_confidence: e.previous_confidence,
               previous_at: toString(e.previous_at),
               previous_evidence_episodes: e.previous_evidence_episodes,
               previous_evidence_types: e.previous_evidence_types,
               previous_evidence_sources: e.previous_evidence_sources,
               previous_source_type: e.previous_source_type} END) AS changes
