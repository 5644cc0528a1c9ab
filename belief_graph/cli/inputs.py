"""The command line in the engine's terms: the namespace (new form or old), a scope chain, the
zone times are shown in, a moment; bad input exits naming the option it came from."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import typer

from belief_graph.cli.command import fail

if TYPE_CHECKING:
    from belief_graph.cli.render import Times


def namespace_of(
    command: str,
    option: str | None,
    legacy: str | None = None,
    positionals: Sequence[str] = (),
    *,
    explicit: bool = False,
) -> tuple[str, list[str]]:
    """The namespace and the positional arguments, new form or old.

    The old form names the namespace as the first positional argument, so a command given one
    argument more than it takes is read that way (``legacy`` is the extra last one), with a
    deprecation line on stderr. ``explicit``: the namespace must be on the command line.
    """
    from belief_graph.cli.config import NAMESPACE_ENV, ConfigError, config_path, resolve

    args = list(positionals)
    if legacy is not None:
        if option is not None:
            fail(f"-n/--namespace: given twice ({option!r} and the first argument {args[0]!r})")
        args.append(legacy)
        namespace, args = args[0], args[1:]
        from belief_graph.cli.render import clean

        shown = clean(shlex.join(["belief-graph", command, "-n", namespace, *args]))
        typer.echo(
            f"warning: the namespace as first argument is deprecated and goes in the next "
            f"release; write: {shown}",
            err=True,
        )
        return namespace, args
    if explicit:
        if option is None:
            fail(f"-n/--namespace: {command} needs the namespace on the command line")
        return option, args
    try:
        setting = resolve("namespace", option, NAMESPACE_ENV)
    except ConfigError as exc:
        fail(str(exc))
    if setting.value is None:
        fail(
            f"-n/--namespace: no namespace given; pass -n NS, or set {NAMESPACE_ENV} or "
            f"'namespace' in {config_path()}"
        )
    return setting.value, args


def scope_of(scope: str, namespace: str | None, legacy: str | None = None) -> list[str]:
    """The chain ``--scope`` names, nearest first; refused by name when -n is given too or the
    chain is malformed."""
    from pydantic import TypeAdapter, ValidationError

    from belief_graph.models import ScopeChain

    if namespace is not None or legacy is not None:
        fail("--scope: give -n/--namespace or --scope, not both (the chain names its namespaces)")
    try:
        return list(TypeAdapter(ScopeChain).validate_python(scope))
    except ValidationError as exc:
        error = exc.errors()[0]
        where = "".join(f"[{p}]" for p in error["loc"])
        fail(f"--scope{where}: {error['msg']}")


def times_of(option: str | None) -> Times:
    """How to show times: ``--tz`` (``local``, ``UTC`` or an IANA zone), else the default."""
    from belief_graph.cli.config import TZ_ENV, ConfigError, resolve
    from belief_graph.cli.render import Times

    try:
        setting = resolve("tz", option, TZ_ENV)
    except ConfigError as exc:
        fail(str(exc))
    name = setting.value or "local"
    where = "--tz" if setting.source == "option" else setting.source
    if name.lower() == "local":
        zone = datetime.now().astimezone().tzinfo or UTC
        return Times(zone, f"local time ({datetime.now(zone).strftime('%Z')})")
    if name.upper() in ("UTC", "Z"):
        return Times(UTC, "UTC")
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return Times(ZoneInfo(name), name)
    except (ZoneInfoNotFoundError, ValueError):
        fail(f"{where}: {name!r} is not 'local', 'UTC' or a time zone such as Europe/Lisbon")


def parse_when(option: str, value: str | None) -> datetime | None:
    """An ISO-8601 date or date-time; without an offset it is UTC. Bad input exits naming
    ``option``."""
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        fail(f"{option}: {value!r} is not an ISO-8601 date or date-time (e.g. 2026-03-01T09:00Z)")
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
