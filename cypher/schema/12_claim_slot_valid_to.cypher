// A fact's windows that end after a moment (read/as_of_claims): only claims with an end are in it.
CREATE INDEX claim_slot_valid_to IF NOT EXISTS FOR (c:Claim) ON (c.slot_id, c.valid_to)
