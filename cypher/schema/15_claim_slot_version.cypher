// A fact's versions by number, the newest first: the write path's read of a long fact keeps its
// newest past version (write/slot_states). Only numbered versions (a single-valued fact's) are
// in it.
CREATE INDEX claim_slot_version IF NOT EXISTS FOR (c:Claim) ON (c.slot_id, c.version)
