// The claims of a fact believed at world time valid_at according to what was known at
// transaction time known_at (as_of's test; read/as_of_claims, read/beliefs_subject and
// read/scope_facts carry it). Known at T: accepted by T and not retracted by T. Its end counts
// only if the change that set it was recorded by T (superseded_at <= T); a valid_to given with
// the claim itself counts from the start.
// A fact of more than $walk_up_to claims is not walked: its claims that can hold are found by
// the slot's id in the indexes of a fact's claims (docs/engine.md#reads): a window believed at
// T either has no end (an active claim, or a retracted one: a superseded claim always has an
// end), or ends after valid_at, or was superseded after T. So a fact of thousands of versions
// reads its few; a fact of a few claims is walked, one edge each being cheaper than three index
// reads.
// Params, alone: $namespace, $slot_id, $valid_at, $known_at (ISO-8601 text), $walk_up_to.
// Carried (//@include), from its //@shared line on: s (the slot), valid_at and known_at
// (datetimes) bound by the carrier, and $walk_up_to.
// Returns: c, each claim believed (every variable bound before is kept: WITH *)
MATCH (s:Slot {id: $slot_id, namespace: $namespace})
WITH s, datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
//@shared
CALL (s, valid_at, known_at) {
  WITH s WHERE COUNT { (s)<-[:IN_SLOT]-() } <= $walk_up_to
  MATCH (s)<-[:IN_SLOT]-(c:Claim)
  RETURN c
  UNION ALL
  WITH s, valid_at, known_at WHERE COUNT { (s)<-[:IN_SLOT]-() } > $walk_up_to
  CALL (s, valid_at, known_at) {
    MATCH (c:Claim {slot_id: s.id})
    USING INDEX SEEK c:Claim(slot_id, status)
    WHERE c.status IN ['active', 'retracted']
    RETURN c
    UNION
    MATCH (c:Claim {slot_id: s.id})
    USING INDEX SEEK c:Claim(slot_id, valid_to)
    WHERE c.valid_to > valid_at
    RETURN c
    UNION
    MATCH (c:Claim {slot_id: s.id})
    USING INDEX SEEK c:Claim(slot_id, superseded_at)
    WHERE c.superseded_at > known_at
    RETURN c
  }
  RETURN c
}
WITH *
WHERE c.namespace = s.namespace AND c.status IN ['active', 'superseded', 'retracted']
  AND c.accepted_at <= known_at
  AND (c.retracted_at IS NULL OR c.retracted_at > known_at)
  AND c.valid_from <= valid_at
  AND (c.valid_to IS NULL OR (c.superseded_at IS NOT NULL AND c.superseded_at > known_at)
       OR valid_at < c.valid_to)
RETURN c
