"""Saved audit queries (``cypher/audit/*.cypher``) and Neo4j Browser links that open them.

Each audit file is one statement with a header comment; its ``// Params:`` line declares the
parameters as ``$name (type)``, type ``string`` or ``datetime``. ``browser_link`` turns a query
name and ``name=value`` arguments into a Browser URL whose editor is prefilled (Browser's
``?cmd=edit&arg=...`` URL parameters) with the query, and the ``:param`` lines to run in
Browser before it.

Neo4j Browser decodes the whole URL once and then splits it at ``&`` and ``#``, so those two
characters never appear in an audit query (a test checks), and parameter values that hold them
are written with Cypher's ``\\uXXXX`` escapes.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote, urlsplit

from belief_graph import cypher
from belief_graph.errors import ConfigError

FOLDER = "audit"
BROWSER_URL_ENV = "BELIEF_GRAPH_BROWSER_URL"
PARAM_TYPES = ("string", "datetime")
_PARAM = re.compile(r"\$(\w+)(?:\s*\((\w+)\))?")
_UNSAFE_IN_URL = {"&": "\\u0026", "#": "\\u0023"}


@dataclass(frozen=True)
class AuditQuery:
    """One saved audit query: its name, text, query body and declared parameters."""

    name: str
    text: str
    params: dict[str, str] = field(default_factory=dict)

    @property
    def body(self) -> str:
        """The statement without its header comment."""
        lines = self.text.strip().splitlines()
        while lines and lines[0].lstrip().startswith("//"):
            lines.pop(0)
        return "\n".join(lines).strip()


def available() -> list[str]:
    """The audit query names, sorted (``slot_lineage``, ...)."""
    return [name.split("/", 1)[1] for name in cypher.names(FOLDER)]


def parse_params(text: str) -> dict[str, str]:
    """The ``// Params:`` declaration of an audit file as ``{name: type}``, in order."""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("//"):
            break
        head, _, rest = stripped.lstrip("/ ").partition(":")
        if head.strip().lower() == "params":
            found = {name: kind or "string" for name, kind in _PARAM.findall(rest)}
            for name, kind in found.items():
                if kind not in PARAM_TYPES:
                    raise ConfigError(f"audit parameter ${name} has unknown type {kind!r}")
            return found
    return {}


def load(query: str) -> AuditQuery:
    """The audit query ``query`` (``slot-lineage`` or ``slot_lineage``)."""
    name = query.strip().replace("-", "_")
    names = available()
    if name not in names:
        choices = ", ".join(n.replace("_", "-") for n in names)
        raise ConfigError(f"unknown audit query {query!r}; available: {choices}")
    text = cypher.load(f"{FOLDER}/{name}")
    return AuditQuery(name=name, text=text, params=parse_params(text))


def parse_args(audit: AuditQuery, args: list[str]) -> dict[str, Any]:
    """``name=value`` arguments as typed values; every declared parameter is required."""
    given: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"argument {arg!r} is not name=value")
        if key not in audit.params:
            takes = ", ".join(audit.params) or "no parameters"
            raise ConfigError(f"{key}: {audit.name} has no such parameter (it takes {takes})")
        given[key] = value
    values: dict[str, Any] = {}
    for key, kind in audit.params.items():
        if key not in given:
            raise ConfigError(f"missing parameter {key}: give {key}=VALUE")
        values[key] = _typed(key, kind, given[key])
    return values


def _typed(key: str, kind: str, raw: str) -> Any:
    if kind == "datetime":
        try:
            moment = datetime.fromisoformat(raw)
        except ValueError:
            raise ConfigError(
                f"{key}: {raw!r} is not an ISO-8601 date or date-time (e.g. 2026-03-01T09:00Z)"
            ) from None
        return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return raw


def cypher_literal(value: Any) -> str:
    """A Cypher literal for a parameter value (``:param`` lines are Cypher expressions)."""
    if isinstance(value, datetime):
        return f'datetime("{value.isoformat()}")'
    text = json.dumps(str(value), ensure_ascii=False)
    for char, escape in _UNSAFE_IN_URL.items():
        text = text.replace(char, escape)
    return text


def param_lines(values: dict[str, Any]) -> list[str]:
    """One ``:param name => literal`` line per parameter."""
    return [f":param {key} => {cypher_literal(value)}" for key, value in values.items()]


def params_command(values: dict[str, Any]) -> str:
    """A single ``:params {...}`` command setting every parameter (and only those)."""
    pairs = ", ".join(f"{key}: {cypher_literal(value)}" for key, value in values.items())
    return f":params {{{pairs}}}"


def json_params(values: dict[str, Any]) -> dict[str, Any]:
    """Parameter values ready for JSON (datetimes as ISO-8601)."""
    return {k: v.isoformat() if isinstance(v, datetime) else v for k, v in values.items()}


@dataclass(frozen=True)
class BrowserTarget:
    """Where Neo4j Browser is, and what its connection frame should be filled with."""

    browser_url: str
    connect_url: str | None
    no_auth: bool


def browser_target() -> BrowserTarget:
    """``BELIEF_GRAPH_BROWSER_URL`` if set; else derived from ``NEO4J_URI`` (its host, HTTP port
    7474); else the local launcher's Browser (no authentication)."""
    from belief_graph.settings import Neo4jSettings

    uri = Neo4jSettings().uri
    explicit = os.environ.get(BROWSER_URL_ENV, "").strip()
    if uri:
        parts = urlsplit(uri)
        host = parts.hostname or "127.0.0.1"
        base = explicit or f"http://{_host_for_url(host)}:7474/browser/"
        return BrowserTarget(base, uri, no_auth=False)
    from belief_graph.server.launcher import LocalNeo4j

    local = LocalNeo4j()
    return BrowserTarget(explicit or local.browser_url, local.bolt_uri, no_auth=local.is_running())


def _host_for_url(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def editor_text(audit: AuditQuery, values: dict[str, Any]) -> str:
    """What the Browser editor is prefilled with: the query, after a comment that names the
    ``:params`` command to run first (Browser forgets parameters when a page loads, and runs a
    ``:params`` line and a query in one go as a multi-statement frame that shows no graph)."""
    lines = [f"// belief-graph audit {audit.name}"]
    if values:
        lines.append(f"// set its parameters first: {params_command(values)}")
    lines.append(audit.body)
    return "\n".join(lines)


def browser_url(target: BrowserTarget, editor: str) -> str:
    """A Browser URL that fills the connection frame and prefills the editor with ``editor``."""
    for char in _UNSAFE_IN_URL:
        if char in editor:
            raise ConfigError(
                f"the query holds {char!r}, which Neo4j Browser's URL parameters cannot carry"
            )
    query = []
    if target.connect_url:
        query.append(f"dbms={quote(target.connect_url, safe='')}")
    if target.no_auth:
        query.append("preselectAuthMethod=NO_AUTH")
    query.append("cmd=edit")
    query.append(f"arg={quote(editor, safe='')}")
    sep = "&" if "?" in target.browser_url else "?"
    return f"{target.browser_url}{sep}{'&'.join(query)}"


@dataclass(frozen=True)
class BrowserLink:
    """What ``belief-graph browser`` prints."""

    name: str
    url: str
    query: str
    params: dict[str, Any]
    param_lines: list[str]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: url, query, params (and the name and the ``:param`` lines)."""
        return {
            "url": self.url,
            "query": self.query,
            "params": json_params(self.params),
            "name": self.name,
            "param_lines": self.param_lines,
        }


def browser_link(query: str, args: list[str], target: BrowserTarget | None = None) -> BrowserLink:
    """The Browser link for audit ``query`` with ``name=value`` ``args``."""
    audit = load(query)
    values = parse_args(audit, args)
    where = target or browser_target()
    url = browser_url(where, editor_text(audit, values))
    return BrowserLink(audit.name, url, audit.body, values, param_lines(values))
