// Erase content (GDPR Art. 17): claims keep id, slot, status 'erased', times and edges; their
// text, triple, embedding, author, origin and review notes go, and so does the content of every
// episode they were derived from.
// Params: $namespace, $ids, $at   Returns: erased (count)
UNWIND $ids AS id
MATCH (c:Claim {id: id, namespace: $namespace})
CALL (c) {
  OPTIONAL MATCH (c)-[:DERIVED_FROM]->(e:Episode)
  SET e.content = null, e.source = null, e.erased_at = $at
}
SET c.status = 'erased', c.erased_at = $at
REMOVE c.text, c.subject, c.object, c.subject_key, c.object_key, c.embedding, c.author, c.origin,
       c.review_reason
RETURN count(c) AS erased
