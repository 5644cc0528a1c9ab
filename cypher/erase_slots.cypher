// Erase the subject of slots whose subject was erased (a tombstone key keeps them unique).
// Params: $namespace, $slot_ids   Returns: erased (count)
UNWIND $slot_ids AS slot_id
MATCH (s:Slot {id: slot_id, namespace: $namespace})
SET s.subject = null, s.subject_key = 'erased:' + s.id
RETURN count(s) AS erased
