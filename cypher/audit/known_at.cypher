// Audit: known_at. The claims of a namespace as the engine knew them at transaction time
// $known_at (the rule of as_of): accepted by then and not retracted by then, each with its
// validity as known then (a valid_to counts only if the change that set it was recorded by
// then), whether it was the belief at that moment (where windows of a single-valued fact overlap,
// the claim accepted last, as as_of decides), and the SUPERSEDES edges known by then.
// Pending, rejected and erased claims are left out, as as_of leaves them out.
// Params: $namespace (string), $known_at (datetime)
// Returns: subject, predicate, version, id, text, status_now, believed_then, valid_from,
//          valid_to_then, in_slot (path), chain (paths)
MATCH in_slot = (c:Claim {namespace: $namespace})-[:IN_SLOT]->(s:Slot {namespace: $namespace})
USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
WHERE c.status IN ['active', 'superseded', 'retracted']
  AND s.subject_key IS NOT NULL AND s.predicate IS NOT NULL
  AND c.accepted_at <= $known_at
  AND (c.retracted_at IS NULL OR c.retracted_at > $known_at)
WITH in_slot, s, c,
     CASE WHEN c.superseded_at IS NULL OR c.superseded_at <= $known_at THEN c.valid_to END
       AS valid_to_then
CALL (c) {
  OPTIONAL MATCH step = (c)-[:SUPERSEDES]->(old:Claim)
  WHERE old.accepted_at <= $known_at
    AND (old.retracted_at IS NULL OR old.retracted_at > $known_at)
  RETURN collect(step) AS chain
}
WITH in_slot, s, c, valid_to_then, chain,
     c.valid_from <= $known_at AND (valid_to_then IS NULL OR $known_at < valid_to_then) AS holds
RETURN s.subject AS subject, s.predicate AS predicate, c.version AS version, c.id AS id,
       c.text AS text, c.status AS status_now,
       holds AND NOT (s.cardinality = 'single' AND EXISTS {
         MATCH (s)<-[:IN_SLOT]-(o:Claim)
         WHERE o <> c AND o.status IN ['active', 'superseded', 'retracted']
           AND c.accepted_at < o.accepted_at AND o.accepted_at <= $known_at
           AND (o.retracted_at IS NULL OR o.retracted_at > $known_at)
           AND o.valid_from <= $known_at
           AND (o.valid_to IS NULL OR (o.superseded_at IS NOT NULL AND o.superseded_at > $known_at)
                OR $known_at < o.valid_to)
       }) AS believed_then,
       c.valid_from AS valid_from, valid_to_then, in_slot, chain
ORDER BY subject, predicate, c.accepted_at
