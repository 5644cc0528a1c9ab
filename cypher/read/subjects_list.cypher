// The subjects a namespace holds claims about, most claims first (text-only claims name none,
// and an erased subject is gone): what an extractor matches "Bob" against.
// Params: $namespace, $limit   Returns: subject, claims
//@include read/hidden
MATCH (s:Slot {namespace: $namespace})<-[:IN_SLOT]-(c:Claim)
USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
WHERE s.subject_key IS NOT NULL AND s.predicate IS NOT NULL AND s.subject IS NOT NULL
  AND NOT s.subject_key STARTS WITH 'text:'
  AND NOT s.subject_key STARTS WITH 'erased:' AND c.status <> 'erased'
  AND NOT (c.namespace IN hidden.whole
       OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
       OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
       OR c.id IN hidden.ids)
WITH s.subject_key AS key, min(s.subject) AS subject, count(c) AS claims
RETURN subject, claims
ORDER BY claims DESC, subject
LIMIT $limit
