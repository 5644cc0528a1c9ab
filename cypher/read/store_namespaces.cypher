// The namespaces under $prefix (itself included) that hold a current LangGraph store item.
// Params: $prefix (a namespace, or '' for every one), $predicate, $now   Returns: namespace
//@include read/hidden
MATCH (s:Slot {predicate: $predicate})<-[:IN_SLOT]-(c:Claim {status: 'active'})
WHERE (s.namespace = $prefix OR s.namespace STARTS WITH $prefix + '.' OR $prefix = '')
  AND c.valid_from <= $now AND (c.valid_to IS NULL OR c.valid_to > $now)
  AND NOT (c.namespace IN hidden.whole
       OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
       OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
       OR c.id IN hidden.ids)
RETURN DISTINCT s.namespace AS namespace
ORDER BY namespace
