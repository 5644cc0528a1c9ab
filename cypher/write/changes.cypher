// Apply, second statement: every change of the batch (one or more ChangeSets), in dependency
// order (claims exist before the edges that point at them). Each part is a unit subquery over its
// own list; an empty list is a no-op. One statement saves a round trip per kind of change.
// Moments arrive as ISO-8601 text and become DateTime here: the server parses them far faster
// than the driver packs native datetimes.
// Params: $batch, one map (docs/engine.md#plans) of: claims (list of {slot_id, props, moments:
//         {valid_from, valid_to, recorded_at, accepted_at} as ISO-8601 text, episode_id,
//         episode_content}),
//         restores (list of {namespace, id, new_id, valid_to, version, status, undoes, at}),
//         retires (list of {namespace, id, status, valid_to, at}),
//         reopens (list of {namespace, id, status}),
//         activations (list of {namespace, id, contradiction, version, valid_from, kind, at}),
//         edges (list of {namespace, from, to, revision_id, verdict}),
//         reinforcements (list of {namespace, id, delta, at, confidence, episode_id,
//         episode_content, origin, revision_id, previous_confidence, previous_at, undoes,
//         evidence: {evidence_episodes, evidence_types, evidence_sources} or null, source_type}),
//         contradictions (list of {namespace, from, to, score, revision_id, dispute,
//         resolution}), settles (list of {namespace, id, rival, resolution, revision_id}),
//         references (list of {namespace, from, to, kind}), clears (list of {namespace, id,
//         revision_id}), repoints (list of {namespace, id, old, premise}), erase_claims (list
//         of {namespace, id, at}), erase_slots (list of {namespace, id}), merges (list of
//         {namespace, id, into, revision_id}), disputes (list of {namespace, id, disputed}),
//         raises (list of {namespace, id, reason, revision_id}), unsettles (list of
//         {namespace, from, to, revision, previous}), unlinks (list of {namespace, id,
//         revision_id}), assigns (list of {namespace, id, props, moments}), demotions (list of
//         {namespace, id, reason, undo, revision_id, at}), deactivations (list of {namespace, id,
//         record_id, valid_from, contradiction, kind, disputes_policy, at})
// Returns: applied (always true)
// Planned once: every node is found by a unique key or from a node in hand, so the plan
// does not depend on the statistics; and the lists come in one map, so no list's length
// makes Neo4j plan it again (docs/engine.md#plans).
CYPHER replan=skip
// new claims in their slots, each with its provenance episode
CALL () {
  UNWIND $batch.claims AS row
  MATCH (s:Slot {id: row.slot_id, namespace: row.props.namespace})
  USING INDEX SEEK s:Slot(id)
  CREATE (c:Claim)-[:IN_SLOT]->(s)
  SET c = row.props, c.slot_id = s.id, c.valid_from = datetime(row.moments.valid_from),
      c.valid_to = datetime(row.moments.valid_to), c.recorded_at = datetime(row.moments.recorded_at),
      c.accepted_at = datetime(row.moments.accepted_at)
  WITH c, row
  CALL (c, row) {
    WITH c, row WHERE row.episode_id IS NOT NULL
    MERGE (e:Episode {namespace: c.namespace, id: row.episode_id})
      ON CREATE SET e.occurred_at = c.recorded_at, e.content = row.episode_content, e.source = c.origin
    CREATE (c)-[:DERIVED_FROM]->(e)
  }
}
// rollback of an activation: the claim waits again as it did (pending, its window, flags and
// kind as before; no version), and a copy of it, retracted now, keeps what it was meanwhile:
// believed from its acceptance until now (as_of about that time answers as it did), holding
// its place in the version chain (its SUPERSEDES edge moves to the copy) and its provenance.
// Before the restores: a claim restored here is in conflict with the one that waits again.
CALL () {
  UNWIND $batch.deactivations AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})-[:IN_SLOT]->(s:Slot)
  USING INDEX SEEK c:Claim(id)
  CREATE (k:Claim)-[:IN_SLOT]->(s)
  SET k = c {.*, id: x.record_id, status: 'retracted', disputed: false, needs_review: false,
             review_reason: null, review_revision: null, restored_from: c.id}
  SET k.retracted_at = datetime(x.at)
  WITH c, k, x
  CALL (c, k) {
    MATCH (c)-[e:SUPERSEDES]->(p:Claim)
    CREATE (k)-[:SUPERSEDES {revision_id: e.revision_id, verdict: e.verdict}]->(p)
    DELETE e
  }
  CALL (c, k) {
    MATCH (c)-[:DERIVED_FROM]->(e:Episode)
    CREATE (k)-[:DERIVED_FROM]->(e)
  }
  SET c.status = 'pending', c.accepted_at = null, c.version = null,
      c.valid_from = datetime(x.valid_from), c.contradiction = x.contradiction, c.kind = x.kind,
      c.disputes_policy = x.disputes_policy
}
// rollback of a retirement: the retired claim comes back as a new claim with the same content,
// provenance, review flag and place in the web (history is never rewritten): its premises, its
// dependents, SUPPORTS both ways, and the conflicts the rolled-back revision had settled, open
// again
CALL () {
  UNWIND $batch.restores AS x
  MATCH (o:Claim {id: x.id, namespace: x.namespace})-[:IN_SLOT]->(s:Slot)
  USING INDEX SEEK o:Claim(id)
  CREATE (c:Claim)-[:IN_SLOT]->(s)
  SET c = o {.*, id: x.new_id, status: x.status, valid_to: null, superseded_at: null,
             retracted_at: null, disputed: false, restored_from: o.id, version: x.version}
  SET c.valid_to = datetime(x.valid_to), c.recorded_at = datetime(x.at),
      c.accepted_at = CASE x.status WHEN 'pending' THEN null ELSE datetime(x.at) END
  WITH c, o, x
  CALL (c, o) {
    MATCH (o)-[:DERIVED_FROM]->(e:Episode)
    CREATE (c)-[:DERIVED_FROM]->(e)
  }
  CALL (c, o) {
    MATCH (o)-[:DEPENDS_ON]->(p:Claim)
    CREATE (c)-[:DEPENDS_ON]->(p)
  }
  CALL (c, o) {
    MATCH (d:Claim)-[:DEPENDS_ON]->(o) WHERE d.status IN ['active', 'pending', 'superseded']
    CREATE (d)-[:DEPENDS_ON]->(c)
  }
  CALL (c, o) {
    MATCH (o)-[:SUPPORTS]->(d:Claim)
    CREATE (c)-[:SUPPORTS]->(d)
  }
  CALL (c, o) {
    MATCH (d:Claim)-[:SUPPORTS]->(o)
    CREATE (d)-[:SUPPORTS]->(c)
  }
  CALL (c, o, x) {
    MATCH (o)-[e:CONTRADICTS]-(r:Claim)
    WHERE e.settled_by = x.undoes AND r.status IN ['active', 'pending']
    CREATE (c)-[:CONTRADICTS {score: e.score, revision_id: e.revision_id}]->(r)
    SET r.disputed = true, c.disputed = true
  }
}
// retired claims: superseded (validity closed), retracted (never true) or rejected; none deleted.
// A superseded claim without a new valid_to keeps the end it had (an end is never moved).
CALL () {
  UNWIND $batch.retires AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
  USING INDEX SEEK c:Claim(id)
  WITH c, x, x.status = 'superseded' AND x.valid_to IS NOT NULL AS closes
  SET c.status = x.status, c.disputed = false,
      c.valid_to = CASE WHEN closes THEN datetime(x.valid_to) ELSE c.valid_to END,
      c.superseded_at = CASE WHEN closes THEN datetime(x.at) ELSE c.superseded_at END,
      c.retracted_at = CASE x.status WHEN 'retracted' THEN datetime(x.at) ELSE c.retracted_at END
}
// claims that were never the belief go back to pending (their conflicts reopen) or rejected
CALL () {
  UNWIND $batch.reopens AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
  USING INDEX SEEK c:Claim(id)
  SET c.status = x.status, c.retracted_at = null, c.disputed = x.status = 'pending'
  WITH c, x
  CALL (c, x) {
    MATCH (c)-[e:CONTRADICTS]->(r:Claim)
    WHERE x.status = 'pending' AND r.status = 'active'
    SET e.resolution = null, r.disputed = true
  }
}
// pending claims that become the belief
CALL () {
  UNWIND $batch.activations AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
  USING INDEX SEEK c:Claim(id)
  SET c.status = 'active', c.accepted_at = datetime(x.at), c.disputed = false,
      c.contradiction = x.contradiction, c.version = coalesce(x.version, c.version),
      c.valid_from = coalesce(datetime(x.valid_from), c.valid_from),
      c.kind = coalesce(x.kind, c.kind),
      c.disputes_policy = CASE WHEN x.kind IS NULL THEN c.disputes_policy ELSE false END
}
// version-chain edges: each new version SUPERSEDES the previous one
CALL () {
  UNWIND $batch.edges AS x
  MATCH (a:Claim {id: x.from, namespace: x.namespace}), (b:Claim {id: x.to, namespace: x.namespace})
  USING INDEX SEEK a:Claim(id)
  USING INDEX SEEK b:Claim(id)
  CREATE (a)-[:SUPERSEDES {revision_id: x.revision_id, verdict: x.verdict}]->(b)
}
// SAME verdicts: one more mention each (rows apply in order, so repeats add up), linking the
// episode (the edge remembers the revision that made it); a rollback takes the mention away and
// sets confidence and reinforced_at back, unlinking the episode its revision had linked
CALL () {
  UNWIND $batch.reinforcements AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
  USING INDEX SEEK c:Claim(id)
  SET c.frequency = CASE WHEN c.frequency + x.delta >= 1 THEN c.frequency + x.delta ELSE 1 END,
      c.reinforced_at = CASE WHEN x.delta > 0 THEN datetime(x.at) ELSE datetime(x.previous_at) END,
      c.confidence = CASE
        WHEN x.delta < 0 THEN coalesce(x.previous_confidence, c.confidence)
        WHEN x.confidence > c.confidence THEN x.confidence ELSE c.confidence END,
      c.source_type = coalesce(x.source_type, c.source_type)
  // independent evidence after the mention (a rollback sets back what the edge recorded;
  // null lists leave a claim stored before evidence was recorded as it was)
  SET c.evidence_episodes = CASE WHEN x.evidence IS NULL THEN c.evidence_episodes
                                 ELSE x.evidence.evidence_episodes END,
      c.evidence_types = CASE WHEN x.evidence IS NULL THEN c.evidence_types
                              ELSE x.evidence.evidence_types END,
      c.evidence_sources = CASE WHEN x.evidence IS NULL THEN c.evidence_sources
                                ELSE x.evidence.evidence_sources END
  WITH c, x
  CALL (c, x) {
    WITH c, x WHERE x.episode_id IS NOT NULL AND x.delta > 0
    MERGE (e:Episode {namespace: x.namespace, id: x.episode_id})
      ON CREATE SET e.occurred_at = datetime(x.at), e.content = x.episode_content,
                    e.source = x.origin
    MERGE (c)-[d:DERIVED_FROM]->(e)
      ON CREATE SET d.revision_id = x.revision_id
  }
  CALL (c, x) {
    WITH c, x WHERE x.undoes IS NOT NULL
    MATCH (c)-[d:DERIVED_FROM {revision_id: x.undoes}]->(:Episode)
    DELETE d
  }
}
// contradictions recorded rather than resolved by supersession
CALL () {
  UNWIND $batch.contradictions AS x
  MATCH (a:Claim {id: x.from, namespace: x.namespace}), (b:Claim {id: x.to, namespace: x.namespace})
  USING INDEX SEEK a:Claim(id)
  USING INDEX SEEK b:Claim(id)
  CREATE (a)-[:CONTRADICTS {score: x.score, revision_id: x.revision_id, resolution: x.resolution}]->(b)
  SET b.disputed = b.disputed OR x.dispute, a.disputed = x.dispute
}
// open conflicts around a claim (or with one rival) settled by a revision, row by row (a later
// row never overwrites an earlier one's resolution); a claim left without an open conflict is no
// longer disputed
CALL () {
  UNWIND $batch.settles AS x
  CALL (x) {
    MATCH (c:Claim {id: x.id, namespace: x.namespace})-[e:CONTRADICTS]-(r:Claim)
    USING INDEX SEEK c:Claim(id)
    WHERE e.resolution IS NULL AND (x.rival IS NULL OR r.id = x.rival)
    SET e.resolution = x.resolution, e.settled_by = x.revision_id
    WITH DISTINCT r, c
    UNWIND [r, c] AS side
    WITH DISTINCT side
    OPTIONAL MATCH (side)-[open:CONTRADICTS]-(:Claim) WHERE open.resolution IS NULL
    WITH side, count(open) AS still_open
    SET side.disputed = still_open > 0 AND side.status IN ['active', 'pending']
  }
}
// DEPENDS_ON and SUPPORTS edges (the type is picked from two fixed branches)
CALL () {
  UNWIND $batch.references AS x
  MATCH (a:Claim {id: x.from, namespace: x.namespace}), (b:Claim {id: x.to, namespace: x.namespace})
  USING INDEX SEEK a:Claim(id)
  USING INDEX SEEK b:Claim(id)
  FOREACH (_ IN CASE WHEN x.kind = 'DEPENDS_ON' THEN [1] ELSE [] END | CREATE (a)-[:DEPENDS_ON]->(b))
  FOREACH (_ IN CASE WHEN x.kind = 'SUPPORTS' THEN [1] ELSE [] END | CREATE (a)-[:SUPPORTS]->(b))
}
// review flags lifted (reviewed, or the rollback of the revision that raised them)
CALL () {
  UNWIND $batch.clears AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
  USING INDEX SEEK c:Claim(id)
  WHERE x.revision_id IS NULL OR c.review_revision = x.revision_id
  SET c.needs_review = false, c.review_reason = null, c.review_revision = null
}
// a reviewed dependent re-pointed from a retired premise to the claim that replaced it
CALL () {
  UNWIND $batch.repoints AS x
  MATCH (d:Claim {id: x.id, namespace: x.namespace}), (p:Claim {id: x.premise, namespace: x.namespace})
  USING INDEX SEEK d:Claim(id)
  USING INDEX SEEK p:Claim(id)
  CALL (d, x) {
    MATCH (d)-[old:DEPENDS_ON]->(o:Claim)
    WHERE CASE WHEN x.old IS NULL THEN NOT o.status IN ['active', 'pending'] ELSE o.id = x.old END
    DELETE old
  }
  MERGE (d)-[:DEPENDS_ON]->(p)
}
// erasure (GDPR Art. 17): claims keep id, slot, status 'erased', times and edges; their text
// (and its folded form), triple (and the predicate as the caller wrote it), embedding, author,
// origin and review notes go, and so does the content of every episode they were derived from;
// an erased subject leaves its slots under a tombstone key
CALL () {
  UNWIND $batch.erase_claims AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
  USING INDEX SEEK c:Claim(id)
  CALL (c, x) {
    OPTIONAL MATCH (c)-[:DERIVED_FROM]->(e:Episode)
    SET e.content = null, e.source = null, e.erased_at = datetime(x.at)
  }
  SET c.status = 'erased', c.erased_at = datetime(x.at)
  REMOVE c.text, c.text_key, c.subject, c.object, c.subject_key, c.object_key,
         c.predicate_text, c.embedding, c.author, c.origin, c.review_reason, c.evidence_sources,
         c.refused_reason
  WITH c
  CALL (c) {
    OPTIONAL MATCH (:Revision)-[r:REINFORCED]->(c)
    REMOVE r.previous_evidence_sources
  }
  CALL (c) {
    OPTIONAL MATCH (:Revision)-[f:FLAGGED]->(c)
    REMOVE f.previous_reason
  }
}
CALL () {
  UNWIND $batch.erase_slots AS x
  MATCH (s:Slot {id: x.id, namespace: x.namespace})
  USING INDEX SEEK s:Slot(id)
  SET s.subject = null, s.subject_key = 'erased:' + s.id
}
// consolidation: a duplicate folds into the claim that holds its fact. Nothing is moved or
// deleted: the duplicate SUPPORTS the survivor, and the survivor takes the duplicate's episodes,
// dependents and supported claims; each edge made carries the revision, for its rollback
CALL () {
  UNWIND $batch.merges AS x
  MATCH (d:Claim {id: x.id, namespace: x.namespace}), (s:Claim {id: x.into, namespace: x.namespace})
  USING INDEX SEEK d:Claim(id)
  USING INDEX SEEK s:Claim(id)
  CREATE (d)-[:SUPPORTS {revision_id: x.revision_id}]->(s)
  WITH d, s, x
  CALL (d, s, x) {
    MATCH (d)-[:DERIVED_FROM]->(e:Episode {namespace: x.namespace})
    WHERE NOT exists { (s)-[:DERIVED_FROM]->(e) }
    CREATE (s)-[:DERIVED_FROM {revision_id: x.revision_id}]->(e)
  }
  CALL (d, s, x) {
    MATCH (o:Claim {namespace: x.namespace})-[:DEPENDS_ON]->(d)
    WHERE o <> s AND NOT exists { (o)-[:DEPENDS_ON]->(s) }
    CREATE (o)-[:DEPENDS_ON {revision_id: x.revision_id}]->(s)
  }
  CALL (d, s, x) {
    MATCH (d)-[:SUPPORTS]->(o:Claim {namespace: x.namespace})
    WHERE o <> s AND NOT exists { (s)-[:SUPPORTS]->(o) }
    CREATE (s)-[:SUPPORTS {revision_id: x.revision_id}]->(o)
  }
}
// consolidation: disputed flags set to what the open conflicts say (runs after every settle)
CALL () {
  UNWIND $batch.disputes AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
  USING INDEX SEEK c:Claim(id)
  SET c.disputed = x.disputed
}
// consolidation: a dependent of an erased premise that nobody flagged is flagged now
CALL () {
  UNWIND $batch.raises AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
  USING INDEX SEEK c:Claim(id)
  SET c.needs_review = true, c.review_reason = x.reason, c.review_revision = x.revision_id
}
// rollback of a consolidation: the conflicts it settled open again ...
CALL () {
  UNWIND $batch.unsettles AS x
  MATCH (a:Claim {id: x.from, namespace: x.namespace})-[e:CONTRADICTS]->(b:Claim {id: x.to, namespace: x.namespace})
  USING INDEX SEEK a:Claim(id)
  WHERE e.settled_by = x.revision
  SET e.resolution = null, e.settled_by = x.previous
}
// ... the edges it made go (only those: each carries its revision id) ...
CALL () {
  UNWIND $batch.unlinks AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})-[e]-()
  USING INDEX SEEK c:Claim(id)
  WHERE e.revision_id = x.revision_id
    AND type(e) IN ['SUPPORTS', 'DEPENDS_ON', 'DERIVED_FROM', 'SUPERSEDES', 'CONTRADICTS']
  WITH DISTINCT e
  DELETE e
}
// ... and the properties it changed are set back as they were (null: absent); a consolidation
// itself assigns only a chain's version numbers
CALL () {
  UNWIND $batch.assigns AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
  USING INDEX SEEK c:Claim(id)
  WITH c, x, keys(x.moments) AS moments
  SET c += x.props,
      c.valid_to = CASE WHEN 'valid_to' IN moments THEN datetime(x.moments.valid_to) ELSE c.valid_to END,
      c.superseded_at = CASE WHEN 'superseded_at' IN moments THEN datetime(x.moments.superseded_at)
                        ELSE c.superseded_at END,
      c.reinforced_at = CASE WHEN 'reinforced_at' IN moments THEN datetime(x.moments.reinforced_at)
                        ELSE c.reinforced_at END
}
// policies demoted to disputed (flagged for a human, never deleted), or a demotion undone
CALL () {
  UNWIND $batch.demotions AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
  USING INDEX SEEK c:Claim(id)
  SET c.demoted = NOT x.undo,
      c.demoted_at = CASE WHEN x.undo THEN null ELSE datetime(x.at) END,
      c.needs_review = CASE WHEN x.undo THEN false ELSE true END,
      c.review_reason = CASE WHEN x.undo THEN null ELSE x.reason END,
      c.review_revision = CASE WHEN x.undo THEN null ELSE x.revision_id END
}
RETURN true AS applied
