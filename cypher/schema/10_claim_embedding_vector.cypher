// Semantic retrieval over claim sentences (all-MiniLM-L6-v2: 384 dimensions, cosine).
CREATE VECTOR INDEX claim_embedding IF NOT EXISTS
FOR (c:Claim) ON c.embedding
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}
