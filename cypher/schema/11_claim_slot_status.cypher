// A fact's claims by status: its open windows (active) and its corrections (retracted) without
// walking its whole history (read/as_of_claims).
CREATE INDEX claim_slot_status IF NOT EXISTS FOR (c:Claim) ON (c.slot_id, c.status)
