// The earlier claims a belief contradicted and took the place of, what a reader needs to say
// "earlier you said X": what each said, when, and its source. Only a claim with the
// contradiction flag has any: the CONTRADICTS edges it won, closed as it was written (newest
// wins, a correction; write/changes.py NEWEST_WINS, CORRECTED) or when a human confirmed it.
// What an erase running now covers is left out (read/hidden).
// Params, alone: $namespace, $id
// Carried (//@include), from its //@shared line on: c (a claim), hidden (read/hidden); every
// variable bound before is kept.
// Returns: c, overruled (list of claim maps, moments as ISO-8601 text, with the resolution)
//@include read/hidden
MATCH (c:Claim {id: $id, namespace: $namespace})
//@shared
CALL (c, hidden) {
  WITH c WHERE c.contradiction
  // r unlabelled: only claims are ever at a CONTRADICTS edge's end, and with no label to scan
  // the planner can only reach r from c (on a filled store it once scanned every claim)
  MATCH (c)-[x:CONTRADICTS]->(r)
  WHERE x.resolution IN ['superseded: newest wins', 'retracted: corrected', 'confirmed']
    AND r.status <> 'erased'
    AND NOT (r.namespace IN hidden.whole
         OR [r.namespace, coalesce(r.subject_key, '')] IN hidden.keys
         OR (r.namespace IN hidden.text AND coalesce(r.subject_key, 'text:') STARTS WITH 'text:')
         OR r.id IN hidden.ids)
  WITH r, x ORDER BY r.recorded_at DESC
  RETURN collect(r {.id, .text, .object, .source_type, .author, .origin, .status,
                    negated: coalesce(r.negated, false), valid_from: toString(r.valid_from),
                    recorded_at: toString(r.recorded_at),
                    resolution: x.resolution}) AS overruled
}
RETURN c, overruled
