"""Which Java the launcher runs each Neo4j version on, and the error when there is none."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from belief_graph.errors import ConfigError
from belief_graph.server import java as javamod
from belief_graph.server.java import find_java, required_java
from belief_graph.server.launcher import LocalNeo4j, _entry_point
from belief_graph.settings import ServerSettings


def fake_jdk(root: Path, name: str, major: int) -> Path:
    """A JDK home whose ``bin/java -version`` reports ``major``, as real JDKs do (on stderr)."""
    home = root / name
    (home / "bin").mkdir(parents=True)
    java = home / "bin" / "java"
    java.write_text(f"#!/bin/sh\necho 'openjdk version \"{major}.0.3\" 2026-04-21' >&2\n")
    java.chmod(0o755)
    return home


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A machine whose only JDKs are the ones a test installs under ``jvm/`` (none on PATH)."""
    jvm = tmp_path / "jvm"
    jvm.mkdir()
    monkeypatch.setattr(javamod, "_JDK_PARENTS", (str(jvm),))
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    monkeypatch.delenv("JAVA_HOME", raising=False)
    for name in list(ServerSettings.model_fields):
        monkeypatch.delenv(f"BELIEF_GRAPH_{name.upper()}", raising=False)
    return jvm


def test_each_neo4j_line_has_its_minimum_java() -> None:
    assert required_java("5.26.30") == 17
    assert required_java("2025.10.1") == 21
    assert required_java("2026.08.1") == 21
    with pytest.raises(ConfigError, match="BELIEF_GRAPH_NEO4J_VERSION='latest'"):
        required_java("latest")


def test_each_version_gets_the_oldest_installed_jdk_it_runs_on(machine: Path) -> None:
    fake_jdk(machine, "java-17-openjdk", 17)
    fake_jdk(machine, "temurin-25-jdk", 25)
    fake_jdk(machine, "jdk-11", 11)
    assert find_java("5.26.30").major == 17
    chosen = find_java("2026.08.1")
    assert chosen.major == 25
    assert chosen.path == str(machine / "temurin-25-jdk" / "bin" / "java")


def test_java_home_is_used_when_it_is_new_enough(
    machine: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_jdk(machine, "jdk-21", 21)
    old = fake_jdk(machine.parent, "elsewhere-17", 17)
    new = fake_jdk(machine.parent, "elsewhere-25", 25)
    monkeypatch.setenv("JAVA_HOME", str(old))
    assert find_java("5.26.30").path == str(old / "bin" / "java")
    assert find_java("2026.08.1").major == 21  # JAVA_HOME is too old: an installed JDK instead
    monkeypatch.setenv("JAVA_HOME", str(new))
    assert find_java("2026.08.1").path == str(new / "bin" / "java")


def test_the_per_version_setting_wins_and_is_checked(
    machine: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_jdk(machine, "jdk-25", 25)
    mine = fake_jdk(machine.parent, "my-jdk-21", 21)
    monkeypatch.setenv("BELIEF_GRAPH_JAVA_HOME__2026", str(mine))
    assert find_java("2026.08.1").path == str(mine / "bin" / "java")
    assert find_java("5.26.30").major == 25  # another line's setting does not apply

    too_old = fake_jdk(machine.parent, "my-jdk-17", 17)
    monkeypatch.setenv("BELIEF_GRAPH_JAVA_HOME__2026", str(too_old))
    with pytest.raises(ConfigError, match=r"2026.08.1 needs Java 21.*JAVA_HOME__2026=.* Java 17"):
        find_java("2026.08.1")
    monkeypatch.setenv("BELIEF_GRAPH_JAVA_HOME__2026", str(machine.parent / "nowhere"))
    with pytest.raises(ConfigError, match=r"BELIEF_GRAPH_JAVA_HOME__2026=.* is not a JDK home"):
        find_java("2026.08.1")


def test_no_new_enough_java_names_what_is_missing_and_what_was_found(machine: Path) -> None:
    fake_jdk(machine, "java-17-openjdk", 17)
    with pytest.raises(ConfigError) as caught:
        find_java("2026.08.1")
    message = str(caught.value)
    assert "Neo4j 2026.08.1 needs Java 21 or newer" in message
    assert "java-17-openjdk/bin/java (Java 17)" in message
    assert "BELIEF_GRAPH_JAVA_HOME__2026" in message
    assert LocalNeo4j(
        ServerSettings(neo4j_version="2026.08.1", cache_dir=machine.parent)
    ).missing_tools()[0] == ("java 21+")


def test_the_entry_point_is_the_one_the_jar_holds(tmp_path: Path) -> None:
    for version, entry in (
        ("5.26.30", "org/neo4j/server/CommunityEntryPoint.class"),
        ("2026.08.1", "org/neo4j/server/Neo4jCommunity.class"),
    ):
        with zipfile.ZipFile(tmp_path / f"neo4j-{version}.jar", "w") as jar:
            jar.writestr(entry, b"")
        assert _entry_point(tmp_path, version) == entry.removesuffix(".class").replace("/", ".")
    with zipfile.ZipFile(tmp_path / "neo4j-9.9.9.jar", "w") as jar:
        jar.writestr("org/neo4j/Other.class", b"")
    with pytest.raises(ConfigError, match="none of the Neo4j entry points"):
        _entry_point(tmp_path, "9.9.9")
