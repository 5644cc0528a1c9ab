// Version-chain edges: each new version SUPERSEDES its slot's previous version.
// Params: $edges (list of {from, to, revision_id, verdict})   Returns: linked (count)
UNWIND $edges AS x
MATCH (a:Claim {id: x.from, namespace: x.namespace}), (b:Claim {id: x.to, namespace: x.namespace})
CREATE (a)-[:SUPERSEDES {revision_id: x.revision_id, verdict: x.verdict}]->(b)
RETURN count(*) AS linked
