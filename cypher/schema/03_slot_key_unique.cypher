// One slot per (namespace, subject, predicate): makes MERGE of a slot safe under concurrency.
CREATE CONSTRAINT slot_key_unique IF NOT EXISTS
FOR (s:Slot) REQUIRE (s.namespace, s.subject_key, s.predicate) IS UNIQUE
