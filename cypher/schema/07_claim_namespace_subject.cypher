// beliefs(subject) and erase by subject.
CREATE INDEX claim_namespace_subject IF NOT EXISTS FOR (c:Claim) ON (c.namespace, c.subject_key)
