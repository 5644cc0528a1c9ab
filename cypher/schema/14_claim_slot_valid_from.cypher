// A fact's windows by their start, the newest first: where the write path's read of a long fact
// cuts its past (write/slot_states), and the versions that start after the cut.
CREATE INDEX claim_slot_valid_from IF NOT EXISTS FOR (c:Claim) ON (c.slot_id, c.valid_from)
