// Transaction-time scans (export, audits of what was known at a time).
CREATE INDEX claim_recorded_at IF NOT EXISTS FOR (c:Claim) ON (c.namespace, c.recorded_at)
