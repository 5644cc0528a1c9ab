// Rollback of a retirement: the retired claim comes back as a new active claim with the same
// content and validity (history is never rewritten; the copy joins the chain as a new version).
// Params: $namespace, $id, $new_id, $valid_to, $at   Returns: id, cardinality
MATCH (o:Claim {id: $id, namespace: $namespace})-[:IN_SLOT]->(s:Slot)
WHERE o.status IN ['superseded', 'retracted', 'rejected']
CREATE (c:Claim)-[:IN_SLOT]->(s)
SET c = o {.*, id: $new_id, status: 'active', valid_to: $valid_to, recorded_at: $at,
           accepted_at: $at, superseded_at: null, retracted_at: null, disputed: false,
           needs_review: false, review_reason: null, review_revision: null, restored_from: o.id,
           version: CASE s.cardinality WHEN 'multi' THEN 1 ELSE null END}
WITH c, o, s
CALL (c, o) {
  MATCH (o)-[:DERIVED_FROM]->(e:Episode)
  CREATE (c)-[:DERIVED_FROM]->(e)
}
CALL (c, o) {
  MATCH (o)-[:DEPENDS_ON]->(p:Claim)
  CREATE (c)-[:DEPENDS_ON]->(p)
}
RETURN c.id AS id, s.cardinality AS cardinality
