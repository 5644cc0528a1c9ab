// Semantic retrieval over claim sentences (all-MiniLM-L6-v2: 384 dimensions, cosine), filterable
// inside the index by namespace and status (SEARCH ... WHERE, Neo4j 2026.01+). Quantization is
// chosen, not left to the server's default (BINARY on 2026, which lost recall): see
// docs/benchmarks.md for the recall of each setting.
CYPHER 25
CREATE VECTOR INDEX claim_embedding IF NOT EXISTS
FOR (c:Claim) ON c.embedding
WITH [c.namespace, c.status]
OPTIONS {indexConfig: {
  `vector.dimensions`: 384,
  `vector.similarity_function`: 'cosine',
  `vector.quantization.type`: 'NONE'
}}
