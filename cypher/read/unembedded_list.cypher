// Embed (read): one page of a namespace's claims that should carry a vector and have none (not
// erased, with a sentence), in id order after the last page's last id.
// Params: $namespace, $after (a claim id; '' for the first page), $limit
// Returns: id, text (one row per claim)
MATCH (c:Claim {namespace: $namespace})
WHERE c.embedding IS NULL AND c.text IS NOT NULL AND c.status <> 'erased' AND c.id > $after
RETURN c.id AS id, c.text AS text
ORDER BY id
LIMIT $limit
