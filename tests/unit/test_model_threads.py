"""The models' CPU threads: one by default (a model on every core fights Neo4j and the caller
for them), the libraries' own default on request, a bad value refused naming the setting."""

from __future__ import annotations

import pytest
import torch
from pydantic import ValidationError

from belief_graph.settings import EngineSettings
from belief_graph.testing.offline import offline_embedder, offline_scorer


def test_one_thread_by_default_and_zero_means_the_libraries_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("BELIEF_GRAPH_MODEL_THREADS", raising=False)
    assert EngineSettings().inference_threads == 1
    monkeypatch.setenv("BELIEF_GRAPH_MODEL_THREADS", "0")
    assert EngineSettings().inference_threads is None
    monkeypatch.setenv("BELIEF_GRAPH_MODEL_THREADS", "-1")
    with pytest.raises(ValidationError, match="model_threads"):
        EngineSettings()


def test_loading_a_model_applies_the_setting_in_every_runtime(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        monkeypatch.setenv("BELIEF_GRAPH_MODEL_THREADS", "1")
        embedder = offline_embedder()
        assert len(embedder.embed(["Priya lives in Lisbon."])[0]) == embedder.dim
        assert embedder.runtime == "onnx"
        assert embedder._model._session.get_session_options().intra_op_num_threads == 1
        monkeypatch.setenv("BELIEF_GRAPH_EMBEDDING_RUNTIME", "torch")
        embedder = offline_embedder()
        assert len(embedder.embed(["Priya lives in Lisbon."])[0]) == embedder.dim
        assert torch.get_num_threads() == 1
        scorer = offline_scorer()
        assert scorer.score([("Priya lives in Lisbon.", "Priya lives in Porto.")])
        session, _ = scorer._load()
        assert session.get_session_options().intra_op_num_threads == 1
    finally:
        torch.set_num_threads(before)
