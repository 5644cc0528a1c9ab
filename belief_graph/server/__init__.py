"""Find or start the Neo4j belief-graph talks to: one order for the library, the CLI, the tests."""
