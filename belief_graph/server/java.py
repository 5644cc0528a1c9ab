"""Which Java runs which Neo4j: the minimum Java of a Neo4j version, and a JDK on this machine
that meets it.

Neo4j 5 runs on Java 17 or 21; the calendar-versioned releases (2025.01 on) need Java 21 or
newer. A machine often has more than one JDK (the system's 17 beside a newer one), so the
launcher picks per version, in this order:

1. ``BELIEF_GRAPH_JAVA_HOME__<line>`` (``ServerSettings.java_home``), the line being the
   version's first number (``5``, ``2025``, ``2026``): that JDK, or a clear error.
2. ``JAVA_HOME``, then ``java`` on ``PATH``, when they meet the minimum.
3. The JDKs installed where JDK packages put them (the conventional per-OS locations below):
   the oldest one that meets the minimum, the one closest to what the version was built for.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from belief_graph.errors import ConfigError
from belief_graph.settings import ServerSettings

# Where OS packages and JDK installers put JDKs (Debian/Ubuntu, Fedora/RHEL, macOS, /opt
# tarballs, SDKMAN, IntelliJ): conventions, not one machine's layout.
_JDK_PARENTS = (
    "/usr/lib/jvm",
    "/usr/java",
    "/opt",
    "/opt/java",
    "/Library/Java/JavaVirtualMachines",
    "~/.sdkman/candidates/java",
    "~/.jdks",
)


@dataclass(frozen=True)
class Java:
    """A ``java`` executable and its major version."""

    path: str
    major: int


def neo4j_line(version: str) -> str:
    """The release line of a Neo4j version: its first number (``5``, ``2026``)."""
    return version.split(".", 1)[0]


def required_java(version: str) -> int:
    """The oldest Java a Neo4j version runs on: 17 for Neo4j 5, 21 for the calendar versions."""
    line = neo4j_line(version)
    if not line.isdigit():
        raise ConfigError(f"BELIEF_GRAPH_NEO4J_VERSION={version!r} is not a Neo4j version")
    return 17 if int(line) < 2025 else 21


@cache
def java_major(java: str) -> int | None:
    """The major version ``java -version`` reports, or None if it does not run."""
    try:
        out = subprocess.run(
            [java, "-version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r'version "(\d+)(?:\.(\d+))?', out.stderr + out.stdout)
    if match is None:
        return None
    major = int(match.group(1))
    # Java 8 and older report "1.8".
    return int(match.group(2) or 0) if major == 1 else major


def _in_home(home: Path) -> str | None:
    for candidate in (home / "bin" / "java", home / "Contents" / "Home" / "bin" / "java"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def _installed() -> list[str]:
    found: list[str] = []
    for parent in _JDK_PARENTS:
        base = Path(parent).expanduser()
        if not base.is_dir():
            continue
        for home in sorted(base.iterdir()):
            java = _in_home(home)
            if java is not None and os.path.realpath(java) not in map(os.path.realpath, found):
                found.append(java)
    return found


def find_java(version: str, settings: ServerSettings | None = None) -> Java:
    """A Java that runs Neo4j ``version``, in the order of this module's docstring.

    Raises ``ConfigError`` naming the version, the Java it needs, what was found instead and the
    setting that points the launcher at the right JDK.
    """
    settings = settings or ServerSettings()
    need = required_java(version)
    line = neo4j_line(version)
    variable = f"BELIEF_GRAPH_JAVA_HOME__{line}"
    chosen = settings.java_home.get(line)
    if chosen is not None:
        java = _in_home(chosen.expanduser())
        major = java_major(java) if java else None
        if java is None or major is None:
            raise ConfigError(f"{variable}={chosen} is not a JDK home (no runnable bin/java)")
        if major < need:
            raise ConfigError(
                f"Neo4j {version} needs Java {need} or newer; {variable}={chosen} is Java {major}"
            )
        return Java(java, major)
    seen: dict[str, str] = {}
    candidates = []
    if os.environ.get("JAVA_HOME"):
        candidates.append(_in_home(Path(os.environ["JAVA_HOME"])))
    candidates.append(shutil.which("java"))
    for java in candidates:
        if java is None:
            continue
        major = java_major(java)
        if major is not None and major >= need:
            return Java(java, major)
        seen.setdefault(os.path.realpath(java), f"{java} (Java {major or '?'})")
    usable = []
    for java in _installed():
        major = java_major(java)
        if major is not None and major >= need:
            usable.append(Java(java, major))
        else:
            seen.setdefault(os.path.realpath(java), f"{java} (Java {major or '?'})")
    if usable:
        return min(usable, key=lambda j: j.major)
    found = "; found " + ", ".join(seen.values()) if seen else "; no Java found"
    raise ConfigError(
        f"Neo4j {version} needs Java {need} or newer{found}. Install a JDK {need}+ and set "
        f"{variable} (or JAVA_HOME) to its home"
    )
