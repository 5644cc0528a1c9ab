// Consolidation, read: how much a namespace holds (the progress bar's total), and which of its
// revisions were rolled back.
// Params: $namespace   Returns: slots, claims, undone
CALL () { MATCH (s:Slot {namespace: $namespace}) RETURN count(s) AS slots }
CALL () { MATCH (c:Claim {namespace: $namespace}) RETURN count(c) AS claims }
CALL () {
  MATCH (r:Revision {namespace: $namespace}) WHERE r.undoes IS NOT NULL
  RETURN collect(r.undoes) AS undone
}
RETURN slots, claims, undone
