// Consolidation, read: how much a namespace holds (the progress bar's total).
// Params: $namespace   Returns: slots, claims
CALL () { MATCH (s:Slot {namespace: $namespace}) RETURN count(s) AS slots }
CALL () { MATCH (c:Claim {namespace: $namespace}) RETURN count(c) AS claims }
RETURN slots, claims
