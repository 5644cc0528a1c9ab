// Apply, last statement: each slot's chain head, version count, last recorded change and last
// revision; then one Revision per operation, linked to every claim it touched.
// Params: $batch, one map (docs/engine.md#plans) of: slots (list of {namespace, id, versions,
//         head, last_recorded_at, last_revision}),
//         revisions (list of {props, at, added: [{id, and for a claim that waited before
//         (an activation) previous_status, previous_valid_from, previous_contradiction,
//         previous_kind, previous_disputes_policy}], retired: [{id, previous_valid_to,
//         previous_status}], reinforced: [{id, delta, previous_confidence, previous_at, ...}],
//         flagged: [{id, flag, previous_reason, previous_revision, rival}],
//         restored: [{id, from, previous_status, previous_kind, previous_valid_from}]}): each item is what a
//         rollback of the revision reads back from its edge to do the reverse
// Moments are ISO-8601 text, made DateTime here (see changes.cypher).
// Returns: created (count of revisions)
// Planned once: every node is found by a unique key or from a node in hand, so the plan
// does not depend on the statistics; and the lists come in one map, so no list's length
// makes Neo4j plan it again (docs/engine.md#plans).
CYPHER replan=skip
CALL () {
  UNWIND $batch.slots AS x
  MATCH (s:Slot {id: x.id, namespace: x.namespace})
  USING INDEX SEEK s:Slot(id)
  SET s.versions = x.versions, s.head = x.head, s.last_recorded_at = datetime(x.last_recorded_at),
      s.last_revision = x.last_revision
}
UNWIND $batch.revisions AS rv
CREATE (r:Revision)
SET r = rv.props, r.at = datetime(rv.at)
WITH r, rv
CALL (r, rv) {
  UNWIND rv.added AS item
  MATCH (c:Claim {id: item.id, namespace: r.namespace})
  USING INDEX SEEK c:Claim(id)
  CREATE (r)-[a:ADDED]->(c)
  SET a = item {.previous_status, .previous_valid_from, .previous_contradiction, .previous_kind,
                .previous_disputes_policy}
}
CALL (r, rv) {
  UNWIND rv.retired AS item
  MATCH (c:Claim {id: item.id, namespace: r.namespace})
  USING INDEX SEEK c:Claim(id)
  CREATE (r)-[:RETIRED {previous_valid_to: datetime(item.previous_valid_to),
                         previous_status: item.previous_status}]->(c)
}
CALL (r, rv) {
  UNWIND rv.reinforced AS item
  MATCH (c:Claim {id: item.id, namespace: r.namespace})
  USING INDEX SEEK c:Claim(id)
  CREATE (r)-[:REINFORCED {delta: item.delta, previous_confidence: item.previous_confidence,
                           previous_at: datetime(item.previous_at),
                           previous_evidence_episodes: item.previous_evidence_episodes,
                           previous_evidence_types: item.previous_evidence_types,
                           previous_evidence_sources: item.previous_evidence_sources,
                           previous_source_type: item.previous_source_type}]->(c)
}
CALL (r, rv) {
  UNWIND rv.flagged AS item
  MATCH (c:Claim {id: item.id, namespace: r.namespace})
  USING INDEX SEEK c:Claim(id)
  CREATE (r)-[f:FLAGGED]->(c)
  SET f = item {.flag, .previous_reason, .previous_revision, .rival}
}
CALL (r, rv) {
  UNWIND rv.restored AS item
  MATCH (c:Claim {id: item.id, namespace: r.namespace})
  USING INDEX SEEK c:Claim(id)
  CREATE (r)-[:RESTORED {restored_from: item.from, previous_status: item.previous_status,
                             previous_kind: item.previous_kind,
                             previous_valid_from: datetime(item.previous_valid_from)}]->(c)
}
RETURN count(r) AS created
