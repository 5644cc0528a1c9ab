// Before a compaction: every namespace that holds a node, and how many nodes hold none (data
// that is not belief-graph's, which a compaction would not carry over).
// Returns: namespaces (sorted list), foreign (count)
CALL () {
  MATCH (n) WHERE n.namespace IS NOT NULL
  RETURN collect(DISTINCT n.namespace) AS namespaces
}
CALL () {
  MATCH (n) WHERE n.namespace IS NULL
  RETURN count(n) AS foreign
}
RETURN [x IN namespaces | x] AS namespaces, foreign
