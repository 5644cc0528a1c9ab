"""The JVM's class archive for a Neo4j version (class data sharing, AppCDS).

A JVM starting Neo4j loads and verifies some 20,000 classes; mapped from an archive instead,
a server answers Bolt after 4-5 s instead of 6.3, on less CPU (docs/deploy.md). The
first server of a version and Java runs without an archive and has the JVM write one as it
exits (``-XX:ArchiveClassesAtExit``) into its own home; a clean stop moves it next to the jars,
where every later server of that version maps it (``-XX:SharedArchiveFile``). A server killed or
dead on its own leaves no archive (a half-written one is dropped, never kept). An archive older
than the Java or the jars it was made from is made again; the JVM checks the rest and, when an
archive does not fit, starts without one.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from belief_graph.server.java import Java

_PART = ".part"


def archive_for(lib_dir: Path, java: Java) -> Path:
    """Where the archive of these jars on this Java's major version lives."""
    return lib_dir.with_name(f"classes-java{java.major}.jsa")


def _current(archive: Path, lib_dir: Path, java: Java) -> bool:
    try:
        made = archive.stat().st_mtime
        sources = (Path(java.path).resolve().stat().st_mtime, lib_dir.stat().st_mtime)
    except OSError:
        return False
    return made >= max(sources)


def jvm_flags(home: Path, lib_dir: Path, java: Java) -> list[str]:
    """The option that maps the archive, or, where there is none yet, the one that writes it
    at exit into ``home`` (``keep`` moves it into place after a clean stop)."""
    archive = archive_for(lib_dir, java)
    if _current(archive, lib_dir, java):
        return [f"-XX:SharedArchiveFile={archive}"]
    part = home / f"{archive.name}{_PART}"
    part.unlink(missing_ok=True)
    return [f"-XX:ArchiveClassesAtExit={part}"]


def keep(home: Path, lib_dir: Path, *, clean_exit: bool) -> None:
    """After the server in ``home`` exited: move the archive it wrote into place beside
    ``lib_dir`` if it exited cleanly (the JVM writes it last thing), else drop it."""
    for part in home.glob(f"classes-java*.jsa{_PART}"):
        archive = lib_dir.with_name(part.name.removesuffix(_PART))
        staged = archive.with_name(f"{archive.name}.{os.getpid()}.tmp")
        try:
            if clean_exit and part.stat().st_size > 0:
                shutil.move(part, staged)  # the home may sit on another filesystem (RAM)
                os.replace(staged, archive)
        except OSError:
            pass  # a cache the next clean stop fills: never a reason for a stop to fail
        finally:
            staged.unlink(missing_ok=True)
            part.unlink(missing_ok=True)
