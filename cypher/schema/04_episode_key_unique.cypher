// Episode ids are the caller's (a session or conversation id), unique within a namespace.
CREATE CONSTRAINT episode_key_unique IF NOT EXISTS FOR (e:Episode) REQUIRE (e.namespace, e.id) IS UNIQUE
