// Apply in one statement, its own auto-commit transaction (one round trip): lock every slot of
// the batch, check that none changed since the read and that no revision of the batch ran
// meanwhile; only then bump the slots' seq, write the changes, flag the direct dependents of
// retired claims, set the slot heads and write one Revision per ChangeSet. When a check fails
// the statement changes nothing (a slot it created for the batch goes again: nobody saw it) and
// returns the slots' state as it found them under their locks (write/slot_states): the caller
// decides again on that, as on a read, with no read of its own.
// The same steps as write/lock, write/changes, write/flags and write/finish (the general path,
// which an erase takes); tests/integration/test_onetrip.py checks both leave the same graph.
// Params: $batch, one map (docs/engine.md#plans) of: slots (sorted list of {namespace,
//         subject_key, predicate, id, subject, cardinality, new, seq: as read, since: as
//         write/slot_states, versions, head, last_recorded_at, last_revision: as planned}),
//         revisions (list of {props, at, added, retired, reinforced, flagged, restored, result_head,
//         result_sep, result_tail}: as write/finish, the stored result without the dependents
//         this statement flags, which go between result_head and result_tail),
//         retired (as write/flags), and every list of write/changes
// Returns: ok (whether it applied), dependents (list of {revision_id, flagged}; null when not
//          applied), found (null when applied; else write/slot_states' slots: each slot of the
//          batch by key, as it stood under the locks), erasing (ids of the erases running over a
//          slot of the batch, which refuse it: a whole namespace's, or a subject's)
// Planned once: every node is found by a unique key or from a node in hand, so the plan
// does not depend on the statistics; and the lists come in one map, so no list's length
// makes Neo4j plan it again (docs/engine.md#plans).
CYPHER replan=skip
UNWIND $batch.slots AS k
CALL (k) {
  WITH k WHERE k.new
  MERGE (s:Slot {namespace: k.namespace, subject_key: k.subject_key, predicate: k.predicate})
    ON CREATE SET s.id = k.id, s.subject = k.subject, s.cardinality = k.cardinality, s.seq = 0,
                  s.versions = 0
  RETURN s
  UNION
  WITH k WHERE NOT k.new
  MATCH (s:Slot {id: k.id, namespace: k.namespace})
  USING INDEX SEEK s:Slot(id)
  RETURN s
}
// Every slot found or created before any is locked, then locked in key order (see write/lock).
WITH collect({k: k, s: s}) AS found
UNWIND found AS f
WITH f.k AS k, f.s AS s ORDER BY s.namespace, s.subject_key, s.predicate
// Writing a property takes the slot's write lock (held to the commit, whatever the property
// holds by then); only then is seq read (see write/lock).
SET s.locked = true
WITH k, s
REMOVE s.locked
WITH collect({slot: s, ours: k.new AND s.id = k.id,
              ok: s.seq = k.seq AND s.id = k.id AND s.subject_key = k.subject_key}) AS locked
CALL () {
  UNWIND $batch.revisions AS rv
  MATCH (r:Revision {namespace: rv.props.namespace, id: rv.props.id})
  USING INDEX SEEK r:Revision(namespace, id)
  RETURN count(r) AS replayed
}
// An erase running over a slot of the batch (docs/engine.md, "Erase") refuses it: what it covers
// takes no writes until it has finished.
CALL (locked) {
  UNWIND locked AS x
  WITH x.slot AS s
  MATCH (e:Erasing)
  WHERE e.namespace = s.namespace
    AND (e.erasing_scope = 'namespace' OR (e.erasing_scope = 'subject' AND e.erasing_key = s.subject_key))
  RETURN collect(DISTINCT e.id) AS erasing
}
WITH locked, erasing,
     size(locked) = size($batch.slots) AND all(x IN locked WHERE x.ok) AND replayed = 0
     AND size(erasing) = 0 AS ok
CALL (locked, ok) {
  UNWIND locked AS x
  WITH x.slot AS s, x.ours AS ours
  WHERE NOT ok AND ours
  DELETE s
}
// The state the check refused, read under the locks (a slot created for the batch is gone).
OPTIONAL CALL (ok) {
  WITH $batch.slots AS keys WHERE NOT ok
//@include write/slot_states
  RETURN slots AS found
}
OPTIONAL CALL (locked, ok) {
  WITH locked WHERE ok
  CALL (locked) {
    UNWIND locked AS x
    WITH x.slot AS s
    SET s.seq = s.seq + 1
  }
//@include write/changes
  // the direct dependents of retired premises (write/flags)
  CALL () {
    UNWIND $batch.retired AS x
    MATCH (p:Claim {id: x.id, namespace: x.namespace})
    USING INDEX SEEK p:Claim(id)
    CALL (p) {
      MATCH (d:Claim)-[:DEPENDS_ON]->(p) RETURN d, 'depends on' AS link
      UNION
      MATCH (p)-[:SUPPORTS]->(d:Claim) RETURN d, 'is supported by' AS link
    }
    WITH x, p, d, link
    WHERE d.namespace = p.namespace AND d.status IN ['active', 'pending']
    SET d.needs_review = true, d.review_revision = x.revision_id,
        d.review_reason = 'it ' + link + ' claim ' + p.id + ', which was ' + x.why + ' by revision '
                          + x.revision_id
    WITH x.revision_id AS revision_id, collect(DISTINCT d.id) AS flagged
    RETURN collect({revision_id: revision_id, flagged: flagged}) AS dependents
  }
  // slot heads and the Revisions (write/finish)
  CALL () {
    UNWIND $batch.slots AS x
    MATCH (s:Slot {id: x.id, namespace: x.namespace})
    USING INDEX SEEK s:Slot(id)
    SET s.versions = x.versions, s.head = x.head, s.last_recorded_at = datetime(x.last_recorded_at),
        s.last_revision = x.last_revision
  }
  CALL (dependents) {
    UNWIND $batch.revisions AS rv
    WITH rv, coalesce([x IN dependents WHERE x.revision_id = rv.props.id | x.flagged][0], [])
             AS flagged
    CREATE (r:Revision)
    SET r = rv.props, r.at = datetime(rv.at),
        r.result = rv.result_head
                   + CASE WHEN size(flagged) = 0 THEN ''
                     ELSE rv.result_sep
                          + reduce(text = '', i IN flagged |
                                   text + CASE text WHEN '' THEN '' ELSE ',' END + '"'
                                   + replace(replace(i, '\\', '\\\\'), '"', '\\"') + '"')
                     END
                   + rv.result_tail
    WITH r, rv, flagged
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
    CALL (r, rv, flagged) {
      UNWIND rv.flagged + [i IN flagged | {id: i, flag: 'needs_review'}] AS item
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
  }
  RETURN dependents
}
RETURN ok, dependents, found, erasing
