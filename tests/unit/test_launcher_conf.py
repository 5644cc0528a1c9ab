"""The launcher's neo4j.conf: the user's override file is merged over the generated settings,
and a line that is not `setting.name=value` is refused naming the file and line."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from belief_graph.errors import ConfigError
from belief_graph.server.java import Java
from belief_graph.server.launcher import (
    _ENTRY_POINTS,
    LocalNeo4j,
    jvm_options,
    merge_conf,
    read_conf,
)
from belief_graph.settings import ServerSettings


def test_the_override_replaces_and_adds_settings(tmp_path: Path) -> None:
    override = tmp_path / "mine.conf"
    override.write_text(
        "# comments and blank lines are skipped\n\n"
        "db.tx_log.rotation.retention_policy = 3 files\n"
        "server.memory.heap.max_size=4g\n"
        "db.logs.query.enabled=OFF\n"
    )
    merged = merge_conf(
        ["server.memory.heap.max_size=2g", "db.tx_log.rotation.retention_policy=1 files"],
        override,
    )
    assert merged == [
        "server.memory.heap.max_size=4g",
        "db.tx_log.rotation.retention_policy=3 files",
        "db.logs.query.enabled=OFF",
    ]
    assert merge_conf(["a.b=c"], None) == ["a.b=c"]


@pytest.mark.parametrize(
    "line",
    ["retention keep nothing", "=1 files", "db.tx_log.rotation.size=", "Heap=2g", "nodot=1"],
)
def test_a_line_that_is_not_a_setting_is_refused_naming_it(tmp_path: Path, line: str) -> None:
    override = tmp_path / "mine.conf"
    override.write_text(f"db.tx_log.rotation.size=16M\n{line}\n")
    with pytest.raises(ConfigError, match=r"BELIEF_GRAPH_NEO4J_CONF: .*mine.conf, line 2"):
        read_conf(override)


def test_a_missing_override_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        read_conf(tmp_path / "absent.conf")


def test_the_generated_conf_ships_erasure_aware_log_retention(tmp_path: Path) -> None:
    override = tmp_path / "mine.conf"
    override.write_text("db.tx_log.rotation.retention_policy=2 files\n")
    settings = ServerSettings(cache_dir=tmp_path / "cache", neo4j_conf=override)
    server = LocalNeo4j(settings)
    server._write_conf()
    lines = (server.conf_dir / "neo4j.conf").read_text().splitlines()
    assert "db.tx_log.rotation.retention_policy=2 files" in lines
    assert "db.tx_log.rotation.size=16M" in lines
    assert sum(line.startswith("db.tx_log.rotation.retention_policy") for line in lines) == 1
    plain = LocalNeo4j(ServerSettings(cache_dir=tmp_path / "plain"))
    plain._write_conf()
    assert (
        "db.tx_log.rotation.retention_policy=1 files"
        in (plain.conf_dir / "neo4j.conf").read_text().splitlines()
    )


def test_an_override_cannot_expose_the_unauthenticated_server(tmp_path: Path) -> None:
    override = tmp_path / "mine.conf"
    override.write_text("server.bolt.listen_address=0.0.0.0:7687\n")
    generated = ["server.default_listen_address=127.0.0.1", "dbms.security.auth_enabled=false"]
    with pytest.raises(ConfigError, match="auth off"):
        merge_conf(generated, override)
    override.write_text(
        "server.bolt.listen_address=0.0.0.0:7687\ndbms.security.auth_enabled=true\n"
    )
    assert "server.bolt.listen_address=0.0.0.0:7687" in merge_conf(generated, override)


def test_jvm_options_of_the_override_reach_the_java_command(tmp_path: Path) -> None:
    """``server.jvm.additional`` lines (the key repeatable, one option a line, as Neo4j's own
    scripts read them) go to the JVM the launcher starts, in their order, before the classpath."""
    override = tmp_path / "mine.conf"
    override.write_text(
        "server.jvm.additional=-XX:TieredStopAtLevel=1\n# a comment\n"
        "db.logs.query.enabled=OFF\nserver.jvm.additional=-Dmine=yes\n"
    )
    assert jvm_options(override) == ["-XX:TieredStopAtLevel=1", "-Dmine=yes"]
    assert jvm_options(None) == []

    settings = ServerSettings(cache_dir=tmp_path / "cache", neo4j_conf=override)
    server = LocalNeo4j(settings)
    server.lib_dir.mkdir(parents=True)
    entry = _ENTRY_POINTS[0]
    with zipfile.ZipFile(server.lib_dir / f"neo4j-{settings.neo4j_version}.jar", "w") as jar:
        jar.writestr(entry.replace(".", "/") + ".class", b"")
    command = server._command(Java("java", 17))
    classpath = command.index("-cp")
    assert command[classpath - 2 : classpath] == ["-XX:TieredStopAtLevel=1", "-Dmine=yes"]
    assert "-Dmine=yes" not in LocalNeo4j(ServerSettings(cache_dir=settings.cache_dir))._command(
        Java("java", 17)
    )

    assert "-Xmx2g" in command  # the launcher's heap, unless the override sets one
    override.write_text("server.memory.heap.max_size=4g\nserver.memory.heap.initial_size=512m\n")
    sized = server._command(Java("java", 17))
    assert "-Xmx4g" in sized and "-Xms512m" in sized and "-Xmx2g" not in sized

    override.write_text("server.jvm.additional=-Dok=1\nnot a setting\n")
    with pytest.raises(ConfigError, match="line 2"):
        jvm_options(override)
