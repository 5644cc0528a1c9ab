// Each namespace's own answer for the named facts, for resolution through a scope chain: what
// held at world time $valid_at as known at $known_at (read/held_claims; as_of_claims'
// tie-break), in each namespace of $namespaces and nowhere else. With $embedding, each claim's
// similarity to it. read/scope_hits carries it for the facts of a search's hits, so a search
// through a chain is one round trip.
// Params, alone: $namespaces (the chain, nearest first), $facts (list of {subject_key,
//         predicate}), $valid_at, $known_at, $embedding (list of floats, or null), $walk_up_to
//         (read/held_claims)
// Carried, from its //@shared line on: facts (as $facts), and the same parameters but $facts.
// Returns: answers (list of {layer (index in $namespaces), subject_key, predicate,
//          cardinality, claim, episodes (distinct episodes it was derived from), score (null
//          without $embedding), rivals (open contradictions and pending claims of its slot, in
//          its namespace)}, by layer, then as accepted)
WITH $facts AS facts
//@include read/hidden
//@shared
CALL (facts, hidden) {
  WITH $valid_at AS valid_at, $known_at AS known_at
  UNWIND range(0, size($namespaces) - 1) AS layer
  UNWIND facts AS fact
  MATCH (s:Slot {namespace: $namespaces[layer], subject_key: fact.subject_key,
                 predicate: fact.predicate})
//@include read/held_claims
  WITH * WHERE NOT (c.namespace IN hidden.whole
       OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
       OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
       OR c.id IN hidden.ids)
  WITH layer, s, c, hidden ORDER BY c.accepted_at DESC, c.version DESC
  WITH layer, s, hidden, collect(c) AS held
  UNWIND CASE s.cardinality WHEN 'single' THEN held[..1] ELSE held END AS c
  CALL (c, hidden) {
    OPTIONAL MATCH (c)-[x:CONTRADICTS]-(r:Claim {namespace: c.namespace})
    WHERE x.resolution IS NULL AND r.status IN ['active', 'pending'] AND NOT (r.namespace IN hidden.whole
         OR [r.namespace, coalesce(r.subject_key, '')] IN hidden.keys
         OR (r.namespace IN hidden.text AND coalesce(r.subject_key, 'text:') STARTS WITH 'text:')
         OR r.id IN hidden.ids)
    RETURN collect(r {.*, embedding: null}) AS contradicting
  }
//@include read/pending_rivals
  WITH layer, s, c, contradicting + waiting AS rivals ORDER BY layer, c.accepted_at
  RETURN collect({layer: layer, subject_key: s.subject_key, predicate: s.predicate,
                  cardinality: s.cardinality, claim: c {.*, embedding: null},
                  episodes: COUNT { (c)-[:DERIVED_FROM]->(:Episode) },
                  score: CASE WHEN $embedding IS NULL OR c.embedding IS NULL THEN null
                              ELSE vector.similarity.cosine(c.embedding, $embedding) END,
                  rivals: rivals}) AS answers
}
RETURN answers
