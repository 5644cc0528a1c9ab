// Claim ids are unique across the database (client-generated ULID/UUID strings).
CREATE CONSTRAINT claim_id_unique IF NOT EXISTS FOR (c:Claim) REQUIRE c.id IS UNIQUE
