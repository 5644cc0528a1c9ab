// Every active or pending claim of a slot (inside a write transaction, after the slot lock).
// Params: $namespace, $slot_id   Returns: claim
MATCH (:Slot {id: $slot_id, namespace: $namespace})<-[:IN_SLOT]-(c:Claim)
WHERE c.status IN ['active', 'pending']
RETURN c {.*, embedding: null} AS claim
