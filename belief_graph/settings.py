"""Settings from the environment (and a ``.env`` file): Neo4j connection, models, policy."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Neo4jSettings(BaseSettings):
    """Where the database is. ``uri`` unset means: find or start one (see ``database.py``)."""

    model_config = SettingsConfigDict(env_prefix="NEO4J_", env_file=".env", extra="ignore")

    uri: str | None = None
    user: str = "neo4j"
    password: SecretStr = SecretStr("")
    database: str = "neo4j"


class EngineSettings(BaseSettings):
    """How the engine behaves. Every field is ``BELIEF_GRAPH_<NAME>`` in the environment."""

    model_config = SettingsConfigDict(env_prefix="BELIEF_GRAPH_", env_file=".env", extra="ignore")

    policy: str = Field(default="recency", description="Resolution preset or path to a TOML file")
    vocabulary: Path | None = Field(default=None, description="Extra vocabulary TOML file")
    embedding_model: str = "sentence-transformers/all-MiniLM-L6-v2"
    contradiction_model: str = "cross-encoder/nli-deberta-v3-xsmall"
    models: bool = Field(default=True, description="Load models; off = structural detection only")
    cache_dir: Path = Field(default=Path.home() / ".cache" / "belief-graph")
    neo4j_version: str = "5.26.30"
    neo4j_browser_version: str = "5.24.0"
    bolt_port: int = 7687
    http_port: int = 7474
