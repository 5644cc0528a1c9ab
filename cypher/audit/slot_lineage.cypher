// Audit: slot_lineage. Every version of a claim's slot, oldest first, as a graph: the versions
// IN_SLOT, the SUPERSEDES chain (edges carry verdict and revision_id) and each version's
// provenance episodes (DERIVED_FROM). The table view lists status and validity per version.
// Params: $namespace (string), $claim_id (string): any claim of the slot
// Returns: version, status, id, text, valid_from, valid_to, recorded_at, in_slot (path),
//          chain (paths), provenance (paths)
MATCH (:Claim {namespace: $namespace, id: $claim_id})-[:IN_SLOT]->(s:Slot {namespace: $namespace})
MATCH in_slot = (s)<-[:IN_SLOT]-(v:Claim {namespace: $namespace})
CALL (v) {
  OPTIONAL MATCH step = (v)-[:SUPERSEDES]->(:Claim)
  RETURN collect(step) AS chain
}
CALL (v) {
  OPTIONAL MATCH source = (v)-[:DERIVED_FROM]->(:Episode)
  RETURN collect(source) AS provenance
}
RETURN v.version AS version, v.status AS status, v.id AS id, v.text AS text,
       v.valid_from AS valid_from, v.valid_to AS valid_to, v.recorded_at AS recorded_at,
       in_slot, chain, provenance
ORDER BY v.recorded_at, v.version
