// Retired 2026-12-05: a namespace's claims by recorded_at. No statement reads it (transaction-time
// audits read a namespace's slots by key, an export its claims by id), and every claim written
// paid an entry in it. Dropped where an earlier version created it.
DROP INDEX claim_recorded_at IF EXISTS
