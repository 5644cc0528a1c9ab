"""The JVM's class archive (belief_graph.server.classes): written by the first server of a
version, kept only after a clean stop, mapped by every later one, made again when the Java or
the jars are newer than it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from belief_graph.server import classes
from belief_graph.server.java import Java


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path, Java]:
    lib_dir = tmp_path / "cache" / "neo4j-5.26.30" / "lib"
    lib_dir.mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    java = tmp_path / "jdk" / "bin" / "java"
    java.parent.mkdir(parents=True)
    java.write_text("")
    old = 1_700_000_000
    for path in (java, lib_dir):
        os.utime(path, (old, old))
    return home, lib_dir, Java(str(java), 17)


def written_at_exit(flags: list[str]) -> Path:
    (flag,) = flags
    assert flag.startswith("-XX:ArchiveClassesAtExit="), flag
    part = Path(flag.split("=", 1)[1])
    part.write_bytes(b"archive")  # what the JVM writes as it exits
    return part


def test_the_first_server_writes_the_archive_and_a_clean_stop_puts_it_beside_the_jars(
    layout: tuple[Path, Path, Java],
) -> None:
    home, lib_dir, java = layout
    part = written_at_exit(classes.jvm_flags(home, lib_dir, java))
    assert part.parent == home

    classes.keep(home, lib_dir, clean_exit=True)

    archive = lib_dir.with_name("classes-java17.jsa")
    assert archive.read_bytes() == b"archive" and not part.exists()
    assert classes.jvm_flags(home, lib_dir, java) == [f"-XX:SharedArchiveFile={archive}"]
    assert sorted(p.name for p in lib_dir.parent.iterdir()) == ["classes-java17.jsa", "lib"]


def test_a_killed_server_leaves_no_archive(layout: tuple[Path, Path, Java]) -> None:
    home, lib_dir, java = layout
    part = written_at_exit(classes.jvm_flags(home, lib_dir, java))

    classes.keep(home, lib_dir, clean_exit=False)

    assert not part.exists() and not classes.archive_for(lib_dir, java).exists()
    assert classes.jvm_flags(home, lib_dir, java)[0].startswith("-XX:ArchiveClassesAtExit=")


def test_an_archive_older_than_its_java_or_jars_is_made_again(
    layout: tuple[Path, Path, Java],
) -> None:
    home, lib_dir, java = layout
    written_at_exit(classes.jvm_flags(home, lib_dir, java))
    classes.keep(home, lib_dir, clean_exit=True)
    assert classes.jvm_flags(home, lib_dir, java)[0].startswith("-XX:SharedArchiveFile=")

    Path(java.path).touch()  # the JDK was upgraded in place
    assert classes.jvm_flags(home, lib_dir, java)[0].startswith("-XX:ArchiveClassesAtExit=")
    assert classes.jvm_flags(home, lib_dir, Java(java.path, 25))[0].startswith(
        "-XX:ArchiveClassesAtExit="
    ), "another Java's archive is its own"


def test_an_empty_archive_is_never_kept(layout: tuple[Path, Path, Java]) -> None:
    home, lib_dir, java = layout
    part = written_at_exit(classes.jvm_flags(home, lib_dir, java))
    part.write_bytes(b"")

    classes.keep(home, lib_dir, clean_exit=True)

    assert not classes.archive_for(lib_dir, java).exists() and not part.exists()
