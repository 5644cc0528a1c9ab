"""The schema and every shipped Cypher statement, against the real server."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from belief_graph import BeliefGraph, ClaimDraft, cypher
from belief_graph.detect import Detector
from belief_graph.server.provide import ConnectionInfo
from belief_graph.settings import ServerSettings
from belief_graph.store import Store

QUERIES = [n for n in cypher.names() if not n.startswith(("schema/", f"{cypher.CYPHER25}/"))]


@pytest.mark.parametrize("name", QUERIES)
@pytest.mark.slow
def test_every_statement_plans_on_the_server(store: Store, name: str) -> None:
    # In the variant this server runs: the cypher25/ one where it has in-index filtering.
    store.explain(cypher.variant(name, store.features().vector_filters))


def test_every_cypher25_statement_replaces_a_shipped_one() -> None:
    for name in cypher.names(cypher.CYPHER25):
        base = name.removeprefix(f"{cypher.CYPHER25}/")
        assert base in cypher.names(), f"{name} replaces no statement"
        assert "\nCYPHER 25\n" in cypher.load(name)


def test_the_server_decides_the_vector_index_and_the_search(
    bg: BeliefGraph, neo4j_info: ConnectionInfo
) -> None:
    features = bg.store.features()
    if neo4j_info.source != "env":  # a private server runs the configured version
        assert features.version == ServerSettings().neo4j_version
    assert features.vector_filters == (int(features.version.split(".")[0]) >= 2026)
    bg.init_schema()
    indexes = {r["name"]: r for r in bg.store.read("admin/doctor_indexes")}
    vector = indexes["claim_embedding"]
    if features.vector_filters:
        # 2026: filterable by namespace and status, full-precision vectors, SEARCH ... WHERE.
        assert set(vector["properties"]) == {"embedding", "namespace", "status"}
        assert vector["quantization"] == "NONE"
        assert bg.store.filters_in_vector_index()
    else:
        assert vector["properties"] == ["embedding"]
        assert not bg.store.filters_in_vector_index()


def test_init_schema_is_idempotent_and_online(bg: BeliefGraph) -> None:
    first = bg.init_schema()
    assert bg.init_schema() == first
    states = {r["name"]: r["state"] for r in bg.store.read("admin/doctor_indexes")}
    for name in ("claim_id_unique", "slot_key_unique", "revision_key_unique", "claim_embedding"):
        assert states[name] == "ONLINE"


class AxisEmbedder:
    """Puts each known sentence on its own axis of a 384-d space (no model needed)."""

    dim = 384

    def __init__(self, texts: Sequence[str]) -> None:
        self.axis = {t: i for i, t in enumerate(texts)}

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> list[list[float]]:
        vectors = []
        for text in texts:
            v = [0.0] * self.dim
            for word in text.split():
                v[self.axis.get(word, self.dim - 1)] += 1.0
            norm = sum(x * x for x in v) ** 0.5
            vectors.append([x / norm for x in v])
        return vectors


def test_the_vector_index_returns_the_nearest_claim(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    embedder = AxisEmbedder(["alpha", "beta", "gamma"])
    bg = make_bg(detector=Detector(embedder))  # type: ignore[arg-type]
    for i, word in enumerate(["alpha", "beta", "gamma"]):
        bg.remember(
            ClaimDraft(
                namespace="vec:test",
                subject=f"s{i}",
                predicate="p",
                object=word,
                text=f"{word} {word}",
            )
        )
    hits = bg.search("beta", "vec:test", k=3)
    assert hits[0].claim.object == "beta"
    assert hits[0].score == pytest.approx(1.0, abs=1e-3)


def test_the_wheel_ships_statements_vocabulary_and_launcher(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(root),
        ],
        check=True,
    )
    [wheel] = tmp_path.glob("belief_graph-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in QUERIES + cypher.names(cypher.CYPHER25):
        assert f"belief_graph/_resources/cypher/{name}.cypher" in names
    assert "belief_graph/data/vocabulary.toml" in names
    assert "belief_graph/_resources/docker/launcher/pom.xml" in names
    assert "belief_graph/py.typed" in names
