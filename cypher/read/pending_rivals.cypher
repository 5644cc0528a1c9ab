// The pending claims of a claim's fact, its rivals (read/search_hits, read/scope_search and
// read/scope_facts carry it): found by the fact's id in the index of a fact's claims by status,
// not by walking the fact, whose history may be long.
// Params, alone: $id (a claim)
// Carried, from its //@shared line on: c (a claim)
// Returns: waiting (list of claim maps, embeddings left out); every variable bound before kept
MATCH (c:Claim {id: $id})
//@include read/hidden
//@shared
CALL (c, hidden) {
  OPTIONAL MATCH (p:Claim {slot_id: c.slot_id, status: 'pending'})
  USING INDEX SEEK p:Claim(slot_id, status)
  WHERE p <> c AND p.namespace = c.namespace AND NOT (p.namespace IN hidden.whole
       OR [p.namespace, coalesce(p.subject_key, '')] IN hidden.keys
       OR (p.namespace IN hidden.text AND coalesce(p.subject_key, 'text:') STARTS WITH 'text:')
       OR p.id IN hidden.ids)
  RETURN collect(p {.*, embedding: null}) AS waiting
}
RETURN waiting
