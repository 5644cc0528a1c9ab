// Consolidation, read: one page of a namespace's claims in id order (no embeddings), each with
// its slot, its version-chain edges, its DEPENDS_ON / SUPPORTS edges (a target outside the
// namespace or not a claim comes back without an id), its open conflicts, when a revision last
// flagged it for review (a revision since rolled back does not count), and (erased claims)
// when they were erased.
// Params: $namespace, $after (last id of the previous page; '' for the first), $limit,
//         $undone (ids of the namespace's revisions that were rolled back)
// Returns: claim (properties, moments as ISO-8601 text, in_slot, supersedes, refs, conflicts,
//          flagged_at)
MATCH (c:Claim {namespace: $namespace})
WHERE c.id > $after
WITH c ORDER BY c.id LIMIT $limit
RETURN c {.*, embedding: null,
  valid_from: toString(c.valid_from), valid_to: toString(c.valid_to),
  recorded_at: toString(c.recorded_at), accepted_at: toString(c.accepted_at),
  reinforced_at: toString(c.reinforced_at), superseded_at: toString(c.superseded_at),
  retracted_at: toString(c.retracted_at), erased_at: toString(c.erased_at),
  in_slot: [(c)-[:IN_SLOT]->(s:Slot) WHERE s.namespace = $namespace | s.id],
  supersedes: [(c)-[:SUPERSEDES]->(p:Claim) |
               CASE WHEN p.namespace = $namespace THEN p.id END],
  refs: [(c)-[r:DEPENDS_ON|SUPPORTS]->(p) |
         {kind: type(r),
          to: CASE WHEN p:Claim AND p.namespace = $namespace THEN p.id END}],
  conflicts: [(c)-[e:CONTRADICTS]->(r:Claim)
              WHERE e.resolution IS NULL AND r.namespace = $namespace |
              {rival: r.id, score: e.score, settled_by: e.settled_by}],
  flagged_at: toString(reduce(last = null, t IN
      [(v:Revision {namespace: $namespace})-[:FLAGGED {flag: 'needs_review'}]->(c)
       WHERE NOT v.id IN $undone | v.at] |
      CASE WHEN last IS NULL OR t > last THEN t ELSE last END))
} AS claim
