"""The contradiction model through onnxruntime: the scores torch gives, exported once into the
cache and reused without torch; an export that disagrees with torch falls back to torch
(``auto``) or is refused naming the setting (``onnx``).

The user default (``cross-encoder/nli-deberta-v3-xsmall``) comes from the model hub, which
tests never reach: the model here is a small DeBERTa-v2 sequence classifier with random
weights and a word-level tokenizer (``random_deberta_classifier``). DeBERTa is the architecture
that matters (its relative positions are what a traced export could get wrong at other
lengths); the weights do not change what the export has to get right.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pydantic import ValidationError

from belief_graph.errors import ModelError
from belief_graph.semantic import onnx_cross_encoder
from belief_graph.semantic.contradiction import CrossEncoderScorer, make_scorer
from belief_graph.settings import EngineSettings
from belief_graph.testing.offline import random_deberta_classifier

PAIRS = [
    ("Priya lives in Lisbon.", "Priya lives in Berlin."),
    ("We switched from Express.js to Go.", "The team uses Express.js."),
    ("  Priya said she has never owned a car.  ", "Priya drives a red car."),
    ("Mom no longer likes gardening 🌱; she paints.", "Mom likes gardening."),
    ("東京に住んでいます。", "The user is single."),
    (" ".join(["the deploy pipeline takes twelve minutes"] * 20), "It takes minutes."),
    ("The user got married in June.", " ".join(["the user is single and never married"] * 20)),
    ("she", "he"),
]
"""Short and long pairs (past the model's 48 tokens on either side: truncated), not ASCII."""


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return random_deberta_classifier(tmp_path_factory.mktemp("nli") / "deberta")


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


def _contradiction(scorer: CrossEncoderScorer, pairs: list[tuple[str, str]]) -> Any:
    return np.array([s.contradiction for s in scorer.score(pairs)])


@pytest.fixture(scope="module")
def torch_scores(model: Path) -> Any:
    scorer = CrossEncoderScorer(str(model), runtime="torch", threads=1)
    scores = np.array([(s.contradiction, s.entailment) for s in scorer.score(PAIRS)])
    assert scorer.runtime == "torch"
    # The pairs score differently, so a pair tokenized or truncated otherwise would show.
    assert np.ptp(scores[:, 0]) > 0.1
    return scores


def test_onnx_gives_the_scores_torch_gives(model: Path, cache: Path, torch_scores: Any) -> None:
    for batch_size in (1, 3, 32):
        scorer = CrossEncoderScorer(
            str(model), runtime="auto", threads=1, cache_dir=cache, batch_size=batch_size
        )
        got = np.array([(s.contradiction, s.entailment) for s in scorer.score(PAIRS)])
        assert scorer.runtime == "onnx"
        assert np.abs(got - torch_scores).max() < 1e-5
    alone = np.array([_contradiction(scorer, [pair])[0] for pair in PAIRS])
    assert np.abs(alone - torch_scores[:, 0]).max() < 1e-5
    assert scorer.score([]) == []
    assert scorer.label_indices == (0, 1)
    assert repr(scorer) == f"CrossEncoderScorer({str(model)!r}, runtime='onnx')"


def test_the_export_is_made_once_and_then_loads_without_torch(
    model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, torch_scores: Any
) -> None:
    exports: list[Path] = []
    real = onnx_cross_encoder.export

    def counting(loaded: Any, target: Path) -> None:
        exports.append(target)
        real(loaded, target)

    monkeypatch.setattr(onnx_cross_encoder, "export", counting)
    fresh = tmp_path / "cache"
    scorers = [CrossEncoderScorer(str(model), cache_dir=fresh) for _ in range(2)]
    threads = [
        threading.Thread(target=lambda s=s: s.score(PAIRS[:1])) for s in scorers for _ in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [s.runtime for s in scorers] == ["onnx", "onnx"]
    assert len(exports) == 1  # the second scorer found the first one's copy
    third = CrossEncoderScorer(str(model), cache_dir=fresh)
    third.score(PAIRS[:1])
    assert len(exports) == 1
    assert len(list((fresh / "models").glob("*.onnx"))) == 1
    assert not list((fresh / "models").glob(".export-*"))

    # Another process without torch or transformers scores from the cached copy.
    code = (
        "import sys, json\n"
        "sys.modules['torch'] = None; sys.modules['transformers'] = None\n"
        "sys.modules['sentence_transformers'] = None\n"
        "from pathlib import Path\n"
        "from belief_graph.semantic.contradiction import CrossEncoderScorer\n"
        f"s = CrossEncoderScorer({str(model)!r}, cache_dir=Path({str(fresh)!r}))\n"
        f"scores = [x.contradiction for x in s.score({PAIRS!r})]\n"
        "print(json.dumps([s.runtime, scores]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    runtime, scores = json.loads(out.stdout)
    assert runtime == "onnx"
    assert np.abs(np.array(scores) - torch_scores[:, 0]).max() < 1e-5


def test_a_broken_copy_in_the_cache_is_exported_again(
    model: Path, tmp_path: Path, torch_scores: Any
) -> None:
    CrossEncoderScorer(str(model), cache_dir=tmp_path).score(PAIRS[:1])
    (copy,) = (tmp_path / "models").glob("contradiction-*.onnx")
    copy.write_bytes(b"not a model")
    again = CrossEncoderScorer(str(model), cache_dir=tmp_path)
    assert np.abs(_contradiction(again, PAIRS) - torch_scores[:, 0]).max() < 1e-5
    assert again.runtime == "onnx"
    assert copy.stat().st_size > 100_000


def test_the_export_leaves_the_torch_model_as_it_was(model: Path, tmp_path: Path) -> None:
    from sentence_transformers import CrossEncoder

    loaded = CrossEncoder(str(model))
    before = loaded.predict(PAIRS, show_progress_bar=False)
    onnx_cross_encoder.export(loaded, tmp_path / "copy.onnx")
    assert not loaded.model.training  # a model left in training mode would drop out at random
    np.testing.assert_allclose(loaded.predict(PAIRS, show_progress_bar=False), before, atol=1e-6)


@pytest.mark.slow
def test_an_export_that_disagrees_with_torch_is_not_used(
    model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, torch_scores: Any
) -> None:
    monkeypatch.setattr(onnx_cross_encoder, "_TOLERANCE", -1.0)  # every gap is too large
    auto = CrossEncoderScorer(str(model), cache_dir=tmp_path)
    assert np.abs(_contradiction(auto, PAIRS) - torch_scores[:, 0]).max() < 1e-5
    assert auto.runtime == "torch"
    assert "not onnx: ModelError: the ONNX export disagrees with torch" in repr(auto)
    assert not list((tmp_path / "models").glob("*.onnx"))  # nothing kept
    strict = CrossEncoderScorer(str(model), runtime="onnx", cache_dir=tmp_path)
    with pytest.raises(ModelError, match=r"contradiction_runtime: onnx.*disagrees"):
        strict.score(PAIRS[:1])


def test_a_window_that_changes_the_scores_falls_back_to_every_position(
    model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, torch_scores: Any
) -> None:
    """Should the relative-position window ever rewrite a model's graph wrongly, the copy kept
    is the export over every position (still onnxruntime), never wrong scores or torch."""
    import onnx
    from onnx import numpy_helper

    real = onnx_cross_encoder.window

    def wrong_window(graph: Any) -> int:
        rewritten = real(graph)
        bias = next(i for i in graph.initializer if i.name.endswith("classifier.bias"))
        bias.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(bias) + 1.0, bias.name))
        return rewritten

    monkeypatch.setattr(onnx_cross_encoder, "window", wrong_window)
    scorer = CrossEncoderScorer(str(model), cache_dir=tmp_path)
    assert np.abs(_contradiction(scorer, PAIRS) - torch_scores[:, 0]).max() < 1e-5
    assert scorer.runtime == "onnx"
    (copy,) = (tmp_path / "models").glob("contradiction-*.onnx")
    assert not any(n.name.startswith("relative_window/") for n in onnx.load(str(copy)).graph.node)


def test_the_runtime_setting_reaches_the_scorer_and_a_bad_one_names_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BELIEF_GRAPH_CONTRADICTION_RUNTIME", "tensorflow")
    with pytest.raises(ValidationError, match="contradiction_runtime"):
        EngineSettings()
    monkeypatch.setenv("BELIEF_GRAPH_CONTRADICTION_RUNTIME", "torch")
    assert EngineSettings().contradiction_runtime == "torch"
    monkeypatch.delenv("BELIEF_GRAPH_CONTRADICTION_RUNTIME")
    assert EngineSettings().contradiction_runtime == "auto"
    scorer = make_scorer("some/model", runtime="torch")
    assert isinstance(scorer, CrossEncoderScorer) and scorer.runtime == "torch"
    with pytest.raises(ModelError, match="contradiction_runtime"):
        CrossEncoderScorer("some/model", runtime="tensorflow")  # type: ignore[arg-type]
