"""DeBERTa's relative-position attention over the positions a batch uses (``relative_window``):
the same logits to the bit as the graph that scores every position, on a classifier exported
from torch (a user's contradiction model) and on the offline classifier the tests and benchmarks
use, for short pairs and for pairs long enough that DeBERTa's log buckets come into play."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from belief_graph.semantic import onnx_cross_encoder
from belief_graph.semantic.onnx_encoder import session
from belief_graph.semantic.relative_window import window
from belief_graph.testing import offline
from belief_graph.testing.offline import random_deberta_classifier

PAIRS = [
    ("Priya lives in Lisbon.", "Priya lives in Berlin."),
    ("We switched from Express.js to Go.", "The team uses Express.js."),
    ("she", "he"),
    ("Mom no longer likes gardening; she paints.", "Mom likes gardening."),
    (" ".join(["the deploy pipeline takes twelve minutes"] * 20), "It takes minutes."),
    ("The user got married in June.", " ".join(["the user is single and never married"] * 20)),
]
"""Pairs of different lengths, so a batch pads, and past 128 tokens for the offline model."""


def _logits(model: bytes, tokenizer: Any, pairs: list[tuple[str, str]], size: int) -> Any:
    run = session(model, 1)
    names = {i.name for i in run.get_inputs()}
    out = []
    for start in range(0, len(pairs), size):
        encodings = [tokenizer.encode(a, b) for a, b in pairs[start : start + size]]
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask, types = np.zeros_like(ids), np.zeros_like(ids)
        for row, e in enumerate(encodings):
            ids[row, : len(e.ids)] = e.ids
            mask[row, : len(e.ids)] = e.attention_mask
            types[row, : len(e.ids)] = e.type_ids
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        out.append(run.run(None, {k: v for k, v in feed.items() if k in names})[0])
    return np.concatenate(out)


def _windowed(model: onnx.ModelProto) -> tuple[bytes, int]:
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    rewritten = window(copy.graph)  # before the copy is serialized
    return copy.SerializeToString(), rewritten


def test_a_classifier_exported_from_torch_gives_the_same_logits_over_its_window(
    tmp_path: Path,
) -> None:
    from sentence_transformers import CrossEncoder
    from tokenizers import Tokenizer

    path = random_deberta_classifier(tmp_path / "deberta", layers=3)
    model = CrossEncoder(str(path), device="cpu")
    sample = model.tokenizer(["A premise."], ["A hypothesis."], return_tensors="pt")
    exported = tmp_path / "raw.onnx"
    onnx_cross_encoder.trace(model.model, "logits", sample, exported, {0: "batch"})
    raw = onnx.load(str(exported))
    windowed, rewritten = _windowed(raw)
    assert rewritten == 6  # c2p and p2c in each of the three layers
    assert windowed != raw.SerializeToString()
    tokenizer = Tokenizer.from_str(model.tokenizer.backend_tokenizer.to_str())
    tokenizer.enable_truncation(max_length=48, strategy="longest_first")
    for size in (1, 4):
        expected = _logits(raw.SerializeToString(), tokenizer, PAIRS, size)
        assert np.array_equal(_logits(windowed, tokenizer, PAIRS, size), expected)
    # The scorer's own export is windowed too (a user's DeBERTa-v3 contradiction model).
    onnx_cross_encoder.export(model, tmp_path / "export.onnx")
    names = [n.name for n in onnx.load(str(tmp_path / "export.onnx")).graph.node]
    assert any(n.startswith("relative_window/") for n in names)


@pytest.mark.slow
def test_the_offline_classifier_gives_the_same_logits_over_its_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tokenizers import Tokenizer

    source, tokenizer_file, _ = offline._aegis_files()
    monkeypatch.setattr(offline, "window", lambda graph: 0)
    every_position = offline.dynamic_length_model(source, None)
    monkeypatch.undo()
    windowed = offline.dynamic_length_model(source, None)
    assert isinstance(every_position, bytes) and isinstance(windowed, bytes)
    assert windowed != every_position
    tokenizer = Tokenizer.from_file(str(tokenizer_file))
    tokenizer.enable_truncation(max_length=160)
    assert max(len(tokenizer.encode(a, b).ids) for a, b in PAIRS) > 128  # log buckets
    for size in (1, 4):
        expected = _logits(every_position, tokenizer, PAIRS, size)
        assert np.array_equal(_logits(windowed, tokenizer, PAIRS, size), expected)


def test_a_graph_without_relative_attention_is_left_as_it_was() -> None:
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])],
        "plain",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2])],
        [helper.make_tensor("w", TensorProto.FLOAT, [2, 2], [1.0, 0.0, 0.0, 1.0])],
    )
    before = graph.SerializeToString()
    assert window(graph) == 0
    assert graph.SerializeToString() == before
