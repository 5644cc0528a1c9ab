"""Where agents meet the engine: an MCP server and a LangGraph store (optional extras)."""
