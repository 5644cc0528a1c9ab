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
from belief_graph.store import Store

QUERIES = [n for n in cypher.names() if not n.startswith("schema/")]


@pytest.mark.parametrize("name", QUERIES)
def test_every_statement_plans_on_the_server(store: Store, name: str) -> None:
    store.explain(name)


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
    for name in QUERIES:
        assert f"belief_graph/_resources/cypher/{name}.cypher" in names
    assert "belief_graph/data/vocabulary.toml" in names
    assert "belief_graph/_resources/docker/launcher/pom.xml" in names
    assert "belief_graph/py.typed" in names
