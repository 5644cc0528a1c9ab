// The claims an erase covers and the slots it leaves as tombstones: a whole namespace, one subject,
// or listed ids. A subject covers the claims in its facts and the text-only claims of their own
// that mention it by name ($mention: a case-insensitive whole-word pattern of the subject, matched
// on lower-cased text). A slot loses its subject when the erase covers it: every slot of the
// namespace, every slot of the subject (also one whose claims an earlier erase took already), and
// a slot all of whose claims are erased once the listed ones are. Read once to plan, and again
// inside the erase's own transaction under the slot locks (a write committed in between makes
// the two differ: the erase plans again).
// Params: $namespace, $subject_key (or null), $mention (or null), $ids (or null)
// Returns: claims (list of {id, slot_id}), slots (list of slot ids)
CALL () {
  MATCH (c:Claim {namespace: $namespace})
  USING INDEX SEEK c:Claim(namespace, status)
  WHERE c.status IS NOT NULL
    AND ($subject_key IS NULL OR c.subject_key = $subject_key
         OR (c.subject_key STARTS WITH 'text:' AND toLower(c.text) =~ $mention))
    AND ($ids IS NULL OR c.id IN $ids)
    AND c.status <> 'erased'
  RETURN collect({id: c.id, slot_id: c.slot_id}) AS claims
}
CALL (claims) {
  MATCH (s:Slot {namespace: $namespace})
  USING INDEX SEEK s:Slot(namespace, subject_key, predicate)
  WHERE s.subject_key IS NOT NULL AND s.predicate IS NOT NULL
    AND (s.subject IS NOT NULL
         OR NOT (s.subject_key STARTS WITH 'erased:' OR s.subject_key STARTS WITH 'text:'))
    AND ($subject_key IS NULL OR s.subject_key = $subject_key)
    AND ($ids IS NULL OR s.id IN [c IN claims | c.slot_id])
    AND ($ids IS NULL OR NOT EXISTS {
      MATCH (s)<-[:IN_SLOT]-(o:Claim) WHERE o.status <> 'erased' AND NOT o.id IN $ids
    })
  RETURN collect(s.id) AS slots
}
RETURN claims, slots
