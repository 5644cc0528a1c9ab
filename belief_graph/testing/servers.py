"""The Neo4j servers a test run starts besides its own database: a user's machine in miniature."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from belief_graph.server.launcher import LocalNeo4j

USER_ENV = ("NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "NEO4J_DATABASE")


class Environment(Protocol):
    """What ``apply`` needs of pytest's ``MonkeyPatch``."""

    def setenv(self, name: str, value: str) -> None: ...

    def delenv(self, name: str, raising: bool = ...) -> None: ...


@dataclass(frozen=True)
class UserSandbox:
    """A user's machine in miniature: a cache directory of its own (sharing the Neo4j jars), and
    the user's launcher server running from it on ports of its own. ``env`` makes it the
    default database (no ``NEO4J_URI``), as on a machine where someone ran ``make demo``."""

    env: dict[str, str]
    server: LocalNeo4j

    def apply(self, environment: Environment) -> None:
        """Make this sandbox the user's default database in ``environment``."""
        for name in USER_ENV:
            environment.delenv(name, raising=False)
        for name, value in self.env.items():
            environment.setenv(name, value)
