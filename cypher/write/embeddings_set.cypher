// Embed (write): the vectors of claims that had none. A claim takes its vector only if it still
// has none and still holds the sentence the vector was computed from: an erase meanwhile took
// the sentence, and no vector of it may come back; nor does a claim an erase running now covers
// (read/hidden) take one.
// Params: $namespace, $rows (list of {id, text, embedding})
// Returns: written (how many claims took their vector)
//@include read/hidden
UNWIND $rows AS row
MATCH (c:Claim {namespace: $namespace, id: row.id})
WHERE c.embedding IS NULL AND c.text = row.text AND c.status <> 'erased'
  AND NOT (c.namespace IN hidden.whole
       OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
       OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
       OR c.id IN hidden.ids)
SET c.embedding = row.embedding
RETURN count(c) AS written
