// The claims an erase covers: a whole namespace, one subject, or listed ids.
// Params: $namespace, $subject_key (or null), $ids (or null)   Returns: id, slot_id
MATCH (c:Claim {namespace: $namespace})
WHERE ($subject_key IS NULL OR c.subject_key = $subject_key)
  AND ($ids IS NULL OR c.id IN $ids)
  AND c.status <> 'erased'
RETURN c.id AS id, c.slot_id AS slot_id
