"""Settings from the environment (and a ``.env`` file): the Neo4j connection, the engine (models,
policy), and the Neo4j server belief-graph runs itself (ports, versions, cache)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Neo4jSettings(BaseSettings):
    """Where the database is. ``uri`` unset means: find or start one (see ``server/provide.py``)."""

    model_config = SettingsConfigDict(env_prefix="NEO4J_", env_file=".env", extra="ignore")

    uri: str | None = None
    user: str = "neo4j"
    password: SecretStr = SecretStr("")
    database: str = "neo4j"
    databases: dict[str, str] = Field(
        default_factory=dict,
        description="Namespace (or namespace prefix) → Neo4j database; JSON in NEO4J_DATABASES",
    )

    @field_validator("databases")
    @classmethod
    def _databases(cls, value: dict[str, str]) -> dict[str, str]:
        return database_map(value)


# Neo4j's naming rules for a standard database (the 5.26 LTS rules; 2025.01+ also allows a leading
# digit, which an alias can stand in for on older servers): 3 to 63 characters, an ASCII letter
# first, then letters, digits, dots or dashes, not ending in a dot or dash; case-insensitive.
_DATABASE_NAME = re.compile(r"[a-z][a-z0-9.-]{1,61}[a-z0-9]")


def database_map(mapping: Mapping[str, str]) -> dict[str, str]:
    """The namespace → database mapping checked against Neo4j's naming rules, names lowercased
    (as Neo4j stores them). A bad entry is a ``ValueError`` naming the field and the entry."""
    checked: dict[str, str] = {}
    for prefix, database in mapping.items():
        if not isinstance(prefix, str) or not prefix or len(prefix) > 200:
            raise ValueError(f"databases: the key {prefix!r} must be a namespace or prefix")
        if not prefix.isprintable() or any(c.isspace() for c in prefix):
            raise ValueError(f"databases: the key {prefix!r} holds a space or a control character")
        name = database.lower() if isinstance(database, str) else database
        if not isinstance(name, str) or not _DATABASE_NAME.fullmatch(name):
            raise ValueError(
                f"databases[{prefix!r}]: {database!r} is not a Neo4j database name (3 to 63 "
                "characters: an ASCII letter, then letters, digits, dots or dashes, not ending "
                "in a dot or dash; no underscores)"
            )
        if name.startswith("system"):
            raise ValueError(
                f"databases[{prefix!r}]: {database!r} is reserved by Neo4j (names beginning "
                "with 'system' hold the server's own data)"
            )
        checked[prefix] = name
    return checked


def database_for(namespace: str, mapping: Mapping[str, str]) -> str | None:
    """The database ``namespace`` is mapped to: the entry with the longest key that the namespace
    equals or starts with; ``None`` when no key matches (the default database)."""
    best: str | None = None
    for prefix in mapping:
        if namespace.startswith(prefix) and (best is None or len(prefix) > len(best)):
            best = prefix
    return mapping[best] if best is not None else None


class EngineSettings(BaseSettings):
    """How the engine behaves. Every field is ``BELIEF_GRAPH_<NAME>`` in the environment."""

    model_config = SettingsConfigDict(env_prefix="BELIEF_GRAPH_", env_file=".env", extra="ignore")

    policy: str = Field(default="recency", description="Resolution preset or path to a TOML file")
    vocabulary: Path | None = Field(default=None, description="Extra vocabulary TOML file")
    embedding_model: str = "sentence-transformers/all-MiniLM-L6-v2"
    contradiction_model: str = "cross-encoder/nli-deberta-v3-xsmall"
    models: bool = Field(default=True, description="Load models; off = structural detection only")
    embedding_runtime: Literal["auto", "onnx", "torch"] = Field(
        default="auto",
        description="How the embedding model runs: onnx (exported once into cache_dir, then "
        "run by onnxruntime: the same vectors, a third of the time), torch, or auto (onnx "
        "where the model allows it)",
    )
    contradiction_runtime: Literal["auto", "onnx", "torch"] = Field(
        default="auto",
        description="How the contradiction model runs: onnx (exported once into cache_dir, "
        "then run by onnxruntime: the same scores, a third of the time), torch, or auto (onnx "
        "where the model allows it)",
    )
    model_threads: int = Field(
        default=1,
        ge=0,
        description="CPU threads for model inference (torch's setting is process-wide); "
        "0 leaves the libraries' defaults (a thread per core)",
    )

    @property
    def inference_threads(self) -> int | None:
        """``model_threads`` as the model classes take it: ``None`` for the libraries' default."""
        return self.model_threads or None


# The one place the Neo4j version is written: the launcher resolves exactly these jars, and a test
# checks docker/compose.yaml, the launcher's pom and the Docker image against them. The default
# is the 5.26 LTS (the README says why); BELIEF_GRAPH_NEO4J_VERSION picks another.
NEO4J_VERSION = "5.26.30"
NEO4J_BROWSER_VERSION = "5.24.0"
# The versions the suite runs on (`make test-versions`, CI): the LTS and the current release,
# whose vector index filters inside the index.
NEO4J_VERSIONS = (NEO4J_VERSION, "2026.08.1")


class ServerSettings(BaseSettings):
    """The Neo4j that belief-graph starts itself (launcher or compose), and its cache directory.

    Every field is ``BELIEF_GRAPH_<NAME>`` in the environment. ``bolt_port`` and ``http_port``
    are the user's server; a test server picks free ports of its own (``server/launcher.py``).
    """

    model_config = SettingsConfigDict(
        env_prefix="BELIEF_GRAPH_", env_file=".env", extra="ignore", env_nested_delimiter="__"
    )

    cache_dir: Path = Field(
        default=Path.home() / ".cache" / "belief-graph",
        description="Neo4j jars, the local server's home, converted models",
    )
    neo4j_version: str = NEO4J_VERSION
    neo4j_browser_version: str = NEO4J_BROWSER_VERSION
    bolt_port: int = 7687
    http_port: int = 7474
    neo4j_conf: Path | None = Field(
        default=None,
        description="A file of `key=value` lines merged into the launcher's neo4j.conf",
    )
    java_home: dict[str, Path] = Field(
        default_factory=dict,
        description="The JDK per Neo4j line, e.g. BELIEF_GRAPH_JAVA_HOME__2026=/path/to/jdk-21 "
        "(else JAVA_HOME, java on PATH, or an installed JDK new enough; server/java.py)",
    )
