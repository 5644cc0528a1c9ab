// The claims an erase covers: a whole namespace, one subject, or listed ids. A subject covers
// the claims in its facts and the text-only claims of their own that mention it by name
// ($mention: a case-insensitive whole-word pattern of the subject, matched on lower-cased text).
// Params: $namespace, $subject_key (or null), $mention (or null), $ids (or null)
// Returns: id, slot_id
MATCH (c:Claim {namespace: $namespace})
WHERE ($subject_key IS NULL OR c.subject_key = $subject_key
       OR (c.subject_key STARTS WITH 'text:' AND toLower(c.text) =~ $mention))
  AND ($ids IS NULL OR c.id IN $ids)
  AND c.status <> 'erased'
RETURN c.id AS id, c.slot_id AS slot_id
