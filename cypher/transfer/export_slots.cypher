// Export, one page of the namespace's :Slot nodes in id order, each with its outgoing
// relationships to nodes of the same namespace (type, end node label and id, properties).
// Params: $namespace, $after (last id of the previous page; '' for the first), $limit
// Returns: props, edges
MATCH (n:Slot {namespace: $namespace})
WHERE n.id > $after
WITH n ORDER BY n.id LIMIT $limit
RETURN properties(n) AS props,
       [(n)-[r]->(m) WHERE m.namespace = $namespace |
        {type: type(r), end_label: head(labels(m)), end_id: m.id, props: properties(r)}] AS edges
