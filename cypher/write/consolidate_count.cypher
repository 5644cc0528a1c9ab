// Consolidation, read: how much a namespace holds (the progress bar's total), and which of its
// revisions were rolled back.
// Params: $namespace   Returns: slots, claims, undone
CALL () {
  MATCH (s:Slot {namespace: $namespace})
  USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
  WHERE s.subject_key IS NOT NULL AND s.predicate IS NOT NULL
  RETURN count(s) AS slots
}
CALL () {
  MATCH (c:Claim {namespace: $namespace})
  USING INDEX SEEK c:Claim(namespace, status)
  WHERE c.status IS NOT NULL
  RETURN count(c) AS claims
}
CALL () {
  MATCH (r:Revision {namespace: $namespace})
  USING INDEX SEEK r:Revision(namespace, id)
  WHERE r.id IS NOT NULL AND r.undoes IS NOT NULL
  RETURN collect(r.undoes) AS undone
}
RETURN slots, claims, undone
