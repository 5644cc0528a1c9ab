// Erase by subject (every claim about it, whatever its fact).
CREATE INDEX claim_namespace_subject IF NOT EXISTS FOR (c:Claim) ON (c.namespace, c.subject_key)
