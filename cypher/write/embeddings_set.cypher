// Embed (write): the vectors of claims that had none. A claim takes its vector only if it still
// has none and still holds the sentence the vector was computed from: an erase meanwhile took
// the sentence, and no vector of it may come back.
// Params: $namespace, $rows (list of {id, text, embedding})
// Returns: written (how many claims took their vector)
UNWIND $rows AS row
MATCH (c:Claim {namespace: $namespace, id: row.id})
WHERE c.embedding IS NULL AND c.text = row.text AND c.status <> 'erased'
SET c.embedding = row.embedding
RETURN count(c) AS written
