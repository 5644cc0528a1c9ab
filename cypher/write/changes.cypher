// Apply, second statement: every change of the batch (one or more ChangeSets), in dependency
// order (claims exist before the edges that point at them). Each part is a unit subquery over its
// own list; an empty list is a no-op. One statement saves a round trip per kind of change.
// Moments arrive as ISO-8601 text and become DateTime here: the server parses them far faster
// than the driver packs native datetimes.
// Params: $claims (list of {slot_id, props, episode_id, episode_content}),
//         $restores (list of {namespace, id, new_id, valid_to, version, at}),
//         $retires (list of {namespace, id, status, valid_to, at}),
//         $reopens (list of {namespace, id, status}),
//         $activations (list of {namespace, id, contradiction, version, at}),
//         $edges (list of {namespace, from, to, revision_id, verdict}),
//         $reinforcements (list of {namespace, id, delta, at, confidence, episode_id,
//         episode_content, origin}), $contradictions (list of {namespace, from, to, score,
//         revision_id, dispute, resolution}), $settles (list of {namespace, id, resolution}),
//         $references (list of {namespace, from, to, kind}), $clears (list of {namespace, id,
//         revision_id}), $erase_claims (list of {namespace, id, at}), $erase_slots (list of
//         {namespace, id})
// Returns: applied (always true)
// new claims in their slots, each with its provenance episode
CALL () {
  UNWIND $claims AS row
  MATCH (s:Slot {id: row.slot_id, namespace: row.props.namespace})
  CREATE (c:Claim)-[:IN_SLOT]->(s)
  SET c = row.props, c.slot_id = s.id, c.valid_from = datetime(row.props.valid_from),
      c.valid_to = datetime(row.props.valid_to), c.recorded_at = datetime(row.props.recorded_at),
      c.accepted_at = datetime(row.props.accepted_at)
  WITH c, row
  CALL (c, row) {
    WITH c, row WHERE row.episode_id IS NOT NULL
    MERGE (e:Episode {namespace: c.namespace, id: row.episode_id})
      ON CREATE SET e.occurred_at = c.recorded_at, e.content = row.episode_content, e.source = c.origin
    CREATE (c)-[:DERIVED_FROM]->(e)
  }
}
// rollback of a retirement: the retired claim comes back as a new claim with the same content,
// provenance and premises (history is never rewritten)
CALL () {
  UNWIND $restores AS x
  MATCH (o:Claim {id: x.id, namespace: x.namespace})-[:IN_SLOT]->(s:Slot)
  CREATE (c:Claim)-[:IN_SLOT]->(s)
  SET c = o {.*, id: x.new_id, status: 'active', valid_to: null, superseded_at: null,
             retracted_at: null, disputed: false, needs_review: false, review_reason: null,
             review_revision: null, restored_from: o.id, version: x.version}
  SET c.valid_to = datetime(x.valid_to), c.recorded_at = datetime(x.at),
      c.accepted_at = datetime(x.at)
  WITH c, o
  CALL (c, o) {
    MATCH (o)-[:DERIVED_FROM]->(e:Episode)
    CREATE (c)-[:DERIVED_FROM]->(e)
  }
  CALL (c, o) {
    MATCH (o)-[:DEPENDS_ON]->(p:Claim)
    CREATE (c)-[:DEPENDS_ON]->(p)
  }
}
// retired claims: superseded (validity closed), retracted (never true) or rejected; none deleted
CALL () {
  UNWIND $retires AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
  SET c.status = x.status, c.disputed = false,
      c.valid_to = CASE x.status WHEN 'superseded' THEN datetime(x.valid_to) ELSE c.valid_to END,
      c.superseded_at = CASE x.status WHEN 'superseded' THEN datetime(x.at) ELSE c.superseded_at END,
      c.retracted_at = CASE x.status WHEN 'retracted' THEN datetime(x.at) ELSE c.retracted_at END
}
// claims that were never the belief go back to pending (their conflicts reopen) or rejected
CALL () {
  UNWIND $reopens AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
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
  UNWIND $activations AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
  SET c.status = 'active', c.accepted_at = datetime(x.at), c.disputed = false,
      c.contradiction = x.contradiction, c.version = coalesce(x.version, c.version)
}
// version-chain edges: each new version SUPERSEDES the previous one
CALL () {
  UNWIND $edges AS x
  MATCH (a:Claim {id: x.from, namespace: x.namespace}), (b:Claim {id: x.to, namespace: x.namespace})
  CREATE (a)-[:SUPERSEDES {revision_id: x.revision_id, verdict: x.verdict}]->(b)
}
// SAME verdicts: one more mention each (rows apply in order, so repeats add up); a rollback
// takes one away
CALL () {
  UNWIND $reinforcements AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
  SET c.frequency = CASE WHEN c.frequency + x.delta >= 1 THEN c.frequency + x.delta ELSE 1 END,
      c.reinforced_at = coalesce(datetime(x.at), c.reinforced_at),
      c.confidence = CASE WHEN x.confidence > c.confidence THEN x.confidence ELSE c.confidence END
  WITH c, x
  CALL (c, x) {
    WITH c, x WHERE x.episode_id IS NOT NULL
    MERGE (e:Episode {namespace: x.namespace, id: x.episode_id})
      ON CREATE SET e.occurred_at = datetime(x.at), e.content = x.episode_content,
                    e.source = x.origin
    MERGE (c)-[:DERIVED_FROM]->(e)
  }
}
// contradictions recorded rather than resolved by supersession
CALL () {
  UNWIND $contradictions AS x
  MATCH (a:Claim {id: x.from, namespace: x.namespace}), (b:Claim {id: x.to, namespace: x.namespace})
  CREATE (a)-[:CONTRADICTS {score: x.score, revision_id: x.revision_id, resolution: x.resolution}]->(b)
  SET b.disputed = b.disputed OR x.dispute, a.disputed = x.dispute
}
// open conflicts around a claim settled; a rival stays disputed while it has another open one
CALL () {
  UNWIND $settles AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})-[e:CONTRADICTS]-(r:Claim)
  WHERE e.resolution IS NULL
  SET e.resolution = x.resolution
  WITH DISTINCT r
  OPTIONAL MATCH (r)-[open:CONTRADICTS]-(:Claim) WHERE open.resolution IS NULL
  WITH r, count(open) AS still_open
  SET r.disputed = still_open > 0
}
// DEPENDS_ON and SUPPORTS edges (the type is picked from two fixed branches)
CALL () {
  UNWIND $references AS x
  MATCH (a:Claim {id: x.from, namespace: x.namespace}), (b:Claim {id: x.to, namespace: x.namespace})
  FOREACH (_ IN CASE WHEN x.kind = 'DEPENDS_ON' THEN [1] ELSE [] END | CREATE (a)-[:DEPENDS_ON]->(b))
  FOREACH (_ IN CASE WHEN x.kind = 'SUPPORTS' THEN [1] ELSE [] END | CREATE (a)-[:SUPPORTS]->(b))
}
// review flags lifted (rollback of the revision that raised them)
CALL () {
  UNWIND $clears AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
  WHERE c.review_revision = x.revision_id
  SET c.needs_review = false, c.review_reason = null, c.review_revision = null
}
// erasure (GDPR Art. 17): claims keep id, slot, status 'erased', times and edges; their text,
// triple, embedding, author, origin and review notes go, and so does the content of every
// episode they were derived from; an erased subject leaves its slots under a tombstone key
CALL () {
  UNWIND $erase_claims AS x
  MATCH (c:Claim {id: x.id, namespace: x.namespace})
  CALL (c, x) {
    OPTIONAL MATCH (c)-[:DERIVED_FROM]->(e:Episode)
    SET e.content = null, e.source = null, e.erased_at = datetime(x.at)
  }
  SET c.status = 'erased', c.erased_at = datetime(x.at)
  REMOVE c.text, c.subject, c.object, c.subject_key, c.object_key, c.embedding, c.author,
         c.origin, c.review_reason
}
CALL () {
  UNWIND $erase_slots AS x
  MATCH (s:Slot {id: x.id, namespace: x.namespace})
  SET s.subject = null, s.subject_key = 'erased:' + s.id
}
RETURN true AS applied
