"""The shipped setups are safe by default: the launcher binds 127.0.0.1 only, docker/compose.yaml
has auth on with the password from the environment and publishes on 127.0.0.1, and no
credentials are committed. Every setup runs the one Neo4j version of ``settings.py``."""

from __future__ import annotations

import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml

from belief_graph.server.compose import ComposeNeo4j
from belief_graph.server.launcher import LocalNeo4j
from belief_graph.server.provide import docker_image
from belief_graph.settings import (
    NEO4J_BROWSER_VERSION,
    NEO4J_VERSION,
    NEO4J_VERSIONS,
    ServerSettings,
)

ROOT = Path(__file__).resolve().parents[2]


def test_launcher_conf_binds_loopback_only(tmp_path: Path) -> None:
    local = LocalNeo4j(ServerSettings(cache_dir=tmp_path, bolt_port=17687, http_port=17474))
    local._write_conf()  # what start() writes, without starting a server
    conf = dict(
        line.split("=", 1)
        for line in (local.conf_dir / "neo4j.conf").read_text().splitlines()
        if "=" in line and not line.startswith("#")
    )
    assert conf["server.default_listen_address"] == "127.0.0.1"
    assert conf["server.bolt.listen_address"] == "127.0.0.1:17687"
    assert conf["server.http.listen_address"] == "127.0.0.1:17474"
    assert conf.get("server.https.enabled") == "false"
    listens = {k: v for k, v in conf.items() if "listen_address" in k or "advertised" in k}
    assert all(v.startswith("127.0.0.1") for v in listens.values()), listens


def test_compose_has_auth_from_env_and_loopback_ports() -> None:
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    service = compose["services"]["neo4j"]
    auth = service["environment"]["NEO4J_AUTH"]
    assert auth != "none"
    assert re.fullmatch(r"neo4j/\$\{NEO4J_PASSWORD:\?[^}]*\}", auth), auth
    assert service["ports"]
    for port in service["ports"]:
        assert str(port).startswith("127.0.0.1:"), port


def test_one_neo4j_version_everywhere() -> None:
    pom = ET.parse(ROOT / "docker" / "launcher" / "pom.xml").getroot()
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    assert pom.findtext("m:properties/m:neo4j.version", namespaces=ns) == NEO4J_VERSION
    browser = pom.findtext("m:properties/m:neo4j.browser.version", namespaces=ns)
    assert browser == NEO4J_BROWSER_VERSION
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    image = compose["services"]["neo4j"]["image"]
    # compose follows BELIEF_GRAPH_NEO4J_VERSION (passed on by ComposeNeo4j), else the default.
    assert image == f"neo4j:${{BELIEF_GRAPH_NEO4J_VERSION:-{NEO4J_VERSION}}}-community"
    assert docker_image(NEO4J_VERSION) == f"neo4j:{NEO4J_VERSION}-community"
    assert NEO4J_VERSIONS[0] == NEO4J_VERSION
    defaults = ServerSettings.model_fields
    assert defaults["neo4j_version"].default == NEO4J_VERSION
    assert defaults["neo4j_browser_version"].default == NEO4J_BROWSER_VERSION


def test_compose_runs_the_configured_version(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELIEF_GRAPH_NEO4J_VERSION", "2026.08.1")
    seen: dict[str, str] = {}

    def fake_run(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        seen.update(kwargs["env"])
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr("belief_graph.server.compose.require_tool", lambda *a: "docker")
    monkeypatch.setattr(subprocess, "run", fake_run)
    ComposeNeo4j()._run("config")
    assert seen["BELIEF_GRAPH_NEO4J_VERSION"] == "2026.08.1"


PASSWORDY = re.compile(
    r"""(?ix)
    (password|passwd|pwd|secret|api[_-]?key|token|neo4j_auth)\s*[:=]\s*
    ["']?(?P<value>[^\s"',)]+)
    """
)
ALLOWED_VALUES = re.compile(
    r"""(?x)^(
      \$\{?[A-Z_]+.*        # a reference to an environment variable
    | neo4j/\$\{.*          # compose's NEO4J_AUTH from the env
    | None | none | null | "" | SecretStr\(.* | os\.environ.* | info\..* | neo.*\.password.*
    | str | SecretStr | Field\(.* | self\..* | \w+\.password
    )$"""
)


def test_no_credentials_are_committed() -> None:
    files = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    found = []
    for name in files:
        if name == "docker/.env.example" or Path(name).suffix in {".jsonl", ".onnx", ".png"}:
            continue
        path = ROOT / name
        if not path.is_file():
            continue
        text = path.read_text(errors="ignore")
        for match in PASSWORDY.finditer(text):
            value = match.group("value")
            # A literal that looks like a real secret: quoted, 8+ chars, not a reference.
            quoted = match.group(0).rstrip()[-len(value) - 1 :].startswith(("'", '"'))
            if quoted and len(value) >= 8 and not ALLOWED_VALUES.match(value):
                found.append(f"{name}: {match.group(0)[:60]}")
    assert not found, found
    assert not [f for f in files if Path(f).name in {".env", "id_rsa", "credentials.json"}]
    example = (ROOT / "docker" / ".env.example").read_text()
    assert "NEO4J_PASSWORD=change-me" in example  # a placeholder, documented as such
