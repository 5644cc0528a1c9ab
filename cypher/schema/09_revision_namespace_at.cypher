// The audit log in time order.
CREATE INDEX revision_namespace_at IF NOT EXISTS FOR (r:Revision) ON (r.namespace, r.at)
