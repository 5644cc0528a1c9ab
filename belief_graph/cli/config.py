"""The command line's defaults: namespace and time zone, set once by an operator.

Each comes from, first match wins: the command's option, the environment
(``BELIEF_GRAPH_NAMESPACE``, ``BELIEF_GRAPH_TZ``), the config file (``BELIEF_GRAPH_CONFIG``, else
``$XDG_CONFIG_HOME/belief-graph/config.toml``, else ``~/.config/belief-graph/config.toml``)::

    namespace = "user:priya"
    tz = "Europe/Lisbon"
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

NAMESPACE_ENV = "BELIEF_GRAPH_NAMESPACE"
TZ_ENV = "BELIEF_GRAPH_TZ"
CONFIG_ENV = "BELIEF_GRAPH_CONFIG"
KEYS = ("namespace", "tz")


class ConfigError(ValueError):
    """The config file cannot be read or holds something it should not."""


@dataclass(frozen=True)
class Setting:
    """A value and where it came from (``option``, an environment variable, or a file)."""

    value: str | None
    source: str


def config_path() -> Path:
    """Where the config file is (it need not exist)."""
    explicit = os.environ.get(CONFIG_ENV)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "belief-graph" / "config.toml"


def read_config(path: Path | None = None) -> dict[str, str]:
    """The config file's settings; an absent file is empty, a broken one a ``ConfigError``."""
    path = path or config_path()
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"config file {path}: {exc}") from exc
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise ConfigError(f"config file {path}: unknown key {unknown[0]!r} (known: namespace, tz)")
    for key, value in data.items():
        if not isinstance(value, str) or not value:
            raise ConfigError(f"config file {path}: {key} must be a non-empty string")
    return dict(data)


def resolve(key: str, option: str | None, env: str) -> Setting:
    """``option`` if given, else the environment variable ``env``, else the config file."""
    if option is not None:
        return Setting(option, "option")
    if os.environ.get(env):
        return Setting(os.environ[env], env)
    path = config_path()
    value = read_config(path).get(key)
    return Setting(value, str(path) if value is not None else "default")
