// A fact's claims superseded after a moment: their end was not yet known then
// (read/as_of_claims). Only superseded claims are in it.
CREATE INDEX claim_slot_superseded_at IF NOT EXISTS FOR (c:Claim) ON (c.slot_id, c.superseded_at)
