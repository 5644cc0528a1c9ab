// Embed (read): one page of a namespace's claims that should carry a vector and have none (not
// erased, with a sentence, not covered by an erase running now: read/hidden), in id order after
// the last page's last id.
// Params: $namespace, $after (a claim id; '' for the first page), $limit
// Returns: id, text (one row per claim)
//@include read/hidden
MATCH (c:Claim {namespace: $namespace})
WHERE c.embedding IS NULL AND c.text IS NOT NULL AND c.status <> 'erased' AND c.id > $after
  AND NOT (c.namespace IN hidden.whole
       OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
       OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
       OR c.id IN hidden.ids)
RETURN c.id AS id, c.text AS text
ORDER BY id
LIMIT $limit
