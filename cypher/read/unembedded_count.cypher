// Embed (read): how many of a namespace's claims should carry a vector and have none (not
// erased, with a sentence, not covered by an erase running now: read/hidden).
// Params: $namespace   Returns: claims
//@include read/hidden
MATCH (c:Claim {namespace: $namespace})
WHERE c.embedding IS NULL AND c.text IS NOT NULL AND c.status <> 'erased'
  AND NOT (c.namespace IN hidden.whole
       OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
       OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
       OR c.id IN hidden.ids)
RETURN count(c) AS claims
