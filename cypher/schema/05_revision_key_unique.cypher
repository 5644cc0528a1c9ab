// Revision ids are the caller's idempotency keys, unique within a namespace.
CREATE CONSTRAINT revision_key_unique IF NOT EXISTS
FOR (r:Revision) REQUIRE (r.namespace, r.id) IS UNIQUE
