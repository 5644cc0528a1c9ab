// The work queues and current-belief scans filter claims by namespace and status.
CREATE INDEX claim_namespace_status IF NOT EXISTS FOR (c:Claim) ON (c.namespace, c.status)
