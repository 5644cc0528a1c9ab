// Retired 2026-12-05: a namespace's claims by subject. No statement reads it (an erase by subject
// reads the namespace's claims by status and its slots by key), and every claim written paid an
// entry in it. Dropped where an earlier version created it.
DROP INDEX claim_namespace_subject IF EXISTS
