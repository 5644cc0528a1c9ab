// Slot ids are engine-generated and unique.
CREATE CONSTRAINT slot_id_unique IF NOT EXISTS FOR (s:Slot) REQUIRE s.id IS UNIQUE
