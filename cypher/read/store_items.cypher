// The LangGraph store's current items in one namespace: active claims of its predicate, valid at
// $now, with when the item was first stored (the oldest claim of its slot that was not withdrawn).
// Params: $namespace, $predicate, $now   Returns: claim, created_at (by subject_key)
//@include read/hidden
// c unlabelled: only claims are IN_SLOT, and with no label to scan the planner can only reach
// them from the namespace's slots (with read/hidden before it, it once scanned every claim).
MATCH (s:Slot {namespace: $namespace, predicate: $predicate})
      <-[:IN_SLOT]-(c {status: 'active'})
USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
WHERE s.subject_key IS NOT NULL
  AND c.valid_from <= $now AND (c.valid_to IS NULL OR c.valid_to > $now)
  AND NOT (c.namespace IN hidden.whole
       OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
       OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
       OR c.id IN hidden.ids)
CALL (s) {
  MATCH (s)<-[:IN_SLOT]-(f:Claim)
  WHERE f.status IN ['active', 'superseded']
  RETURN min(f.recorded_at) AS created_at
}
RETURN c {.*, embedding: null} AS claim, created_at
ORDER BY c.subject_key
