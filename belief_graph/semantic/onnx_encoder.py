"""A sentence-transformers bi-encoder run by onnxruntime: the same vectors, a third of the time.

One short sentence on one CPU thread took 10–15 ms through torch and 3–4 ms through
onnxruntime on the project's machines (docs/models.md, "Embedding runtime"); the vectors agree
to 1e-7. The model is exported once from its torch weights into the cache directory, keyed by
a hash of the model's files, and checked against torch on probe sentences before it is kept;
later loads need neither torch nor the export.

Only the shape the default model has is exported: a transformer whose token states are
mean-pooled (``modules.json``: Transformer, Pooling with mean tokens only, optional Normalize)
with a ``tokenizer.json``. ``supported`` says why another model is not; the embedder then runs
it through torch.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
import warnings
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from belief_graph.errors import ModelError

__all__ = [
    "OnnxSentenceEncoder",
    "cached",
    "fingerprint",
    "int8_exact",
    "onnx_or_why",
    "read_json",
    "session",
    "supported",
    "trace",
]

T = TypeVar("T")

_FORMAT = "1"
"""Changes when the export changes: old copies in the cache are then not used."""

_INPUTS = ("input_ids", "attention_mask", "token_type_ids")

_PROBES = (
    "Priya lives in Lisbon.",
    "  The team switched from Express.js to Go last spring, and nobody misses the old stack.  ",
    "Café crème, naïve résumé: 東京 is far.",
    " ".join(["A very long sentence that goes on"] * 80),
)
"""Sentences the export is checked on: short, padded with spaces, not ASCII, and past the
model's maximum length (truncated)."""

_EXPORTING = threading.Lock()
"""One export at a time in a process (torch's exporter is not safe to run twice at once); the
cache then serves the other loaders."""

_TOLERANCE = 1e-4
"""Largest difference allowed between a coordinate of the two runtimes' unit vectors."""


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def session(model: str | bytes, threads: int | None) -> Any:
    """An onnxruntime session of ``model`` (a file or the model's bytes) on the CPU, running
    its operators on ``threads`` threads (``None``: onnxruntime's default)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.inter_op_num_threads = 1
    # An int8 model (the offline contradiction classifier) on a CPU with AVX2 but no VNNI runs
    # u8s8 products that saturate: seen on an AMD EPYC, the score of a plain contradiction fell
    # from 0.99 to 0.78, under the threshold. The precise kernels give every CPU the same
    # scores; a CPU with VNNI gives them without, 30 % sooner (docs/models.md).
    if not int8_exact():
        options.add_session_config_entry("session.x64quantprecision", "1")
    if threads is not None:
        options.intra_op_num_threads = threads
    return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])


_EXACT_INT8_FLAGS = ("avx512_vnni", "avx_vnni")
"""CPU flags (Linux's names) with which onnxruntime's fast int8 kernels multiply u8 by s8
without saturating: VNNI's products add into 32 bits."""


@cache
def int8_exact(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """Whether onnxruntime's fast int8 kernels compute exactly on this CPU, so that the precise
    ones (``session.x64quantprecision``) are not needed: only where the CPU's flags, as Linux
    lists them, show VNNI. Elsewhere, and where they cannot be read, the precise ones."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return False
    flags = next((line for line in text.splitlines() if line.startswith("flags")), "")
    return any(flag in flags.split() for flag in _EXACT_INT8_FLAGS)


def supported(path: Path) -> str | None:
    """``None`` when the model directory ``path`` can run through onnxruntime, else why not."""
    modules = read_json(path / "modules.json")
    if not isinstance(modules, list) or not modules:
        return "it has no modules.json"
    kinds = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in modules]
    if kinds[:2] != ["Transformer", "Pooling"] or kinds[2:] not in ([], ["Normalize"]):
        return f"its modules are {kinds}, not Transformer, Pooling (and Normalize)"
    pooling = read_json(path / modules[1].get("path", "") / "config.json") or {}
    modes = sorted(k for k, v in pooling.items() if k.startswith("pooling_mode") and v)
    if modes != ["pooling_mode_mean_tokens"]:
        return f"it pools by {modes}, not by the mean of the tokens"
    if not (path / "tokenizer.json").is_file():
        return "it has no tokenizer.json"
    return None


def fingerprint(path: Path) -> str:
    """A hash of the model's files: those at the top of its directory (weights, tokenizer,
    configuration) and those of its modules' folders, not whatever else a download holds."""
    modules = read_json(path / "modules.json") or []
    folders = [path / m["path"] for m in modules if m.get("path")]
    files = [p for p in path.iterdir() if p.is_file()]
    files += [p for folder in folders if folder.is_dir() for p in folder.rglob("*") if p.is_file()]
    digest = hashlib.sha256(_FORMAT.encode())
    for file in sorted(files):
        digest.update(str(file.relative_to(path)).encode())
        with file.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    return digest.hexdigest()[:20]


def cached(target: Path, open_copy: Callable[[Path], T], made: Callable[[Path], T]) -> T:
    """The export kept at ``target``, opened by ``open_copy``; else ``made(temporary)``, which
    exports the model to that file and checks it (raising when the copy is wrong), and the file
    is then kept at ``target``. A copy that no longer opens (a partial write, another
    onnxruntime) is made again."""
    with _EXPORTING:
        if target.is_file():
            try:
                return open_copy(target)
            except Exception:
                pass
        target.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=".export-", suffix=".onnx"
        )
        os.close(descriptor)
        try:
            loaded = made(Path(temporary))
            # Another process may export the same model: whichever lands last is the same.
            os.replace(temporary, target)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
    return loaded


class OnnxSentenceEncoder:
    """Tokenizes, runs the exported transformer, mean-pools and normalizes, as
    sentence-transformers does (inputs stripped, truncated to the model's ``max_seq_length``,
    padded to the longest text of each batch)."""

    def __init__(self, session: Any, tokenizer: Any, dim: int, lower_case: bool) -> None:
        self._session = session
        self._tokenizer = tokenizer
        self._lower_case = lower_case
        self._names = {i.name for i in session.get_inputs()}
        self._lock = threading.Lock()
        self.dim = dim

    @classmethod
    def load(
        cls, path: Path, cache_dir: Path, threads: int | None, torch_model: Callable[[], Any]
    ) -> OnnxSentenceEncoder:
        """The encoder of the model at ``path``: the cached export, or a new one exported from
        ``torch_model()`` (the loaded sentence-transformers model) and checked against it."""

        def made(temporary: Path) -> OnnxSentenceEncoder:
            model = torch_model()
            export(model, temporary)
            encoder = cls._open(path, temporary, threads)
            encoder.check(model)
            return encoder

        target = cache_dir / "models" / f"embedding-{fingerprint(path)}.onnx"
        return cached(target, lambda copy: cls._open(path, copy, threads), made)

    @classmethod
    def _open(cls, path: Path, model: Path, threads: int | None) -> OnnxSentenceEncoder:
        from tokenizers import Tokenizer

        run = session(str(model), threads)
        config = read_json(path / "sentence_bert_config.json") or {}
        tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        tokenizer.no_padding()
        max_length = config.get("max_seq_length") or (
            read_json(path / "tokenizer_config.json") or {}
        ).get("model_max_length", 512)
        tokenizer.enable_truncation(max_length=int(max_length))
        dim = int(run.get_outputs()[0].shape[-1])
        return cls(run, tokenizer, dim, bool(config.get("do_lower_case", False)))

    def check(self, model: Any) -> None:
        """``ModelError`` unless this encoder gives the vectors the sentence-transformers
        ``model`` it was exported from gives, on probe sentences (two per batch: padding too)."""
        import numpy as np

        expected = model.encode(list(_PROBES), normalize_embeddings=True, convert_to_numpy=True)
        gap = float(np.abs(np.asarray(expected) - self.encode(list(_PROBES), batch_size=2)).max())
        if gap > _TOLERANCE:
            raise ModelError(
                f"the ONNX export disagrees with torch by {gap:.2g} on probe sentences"
            )

    def encode(self, texts: Sequence[str], batch_size: int) -> Any:
        """Unit vectors of ``texts`` (a float32 array, one row per text, in input order). The
        texts run in batches of like length (sorted by their tokens), as sentence-transformers
        runs them: a batch is padded to its longest text, and the padding is computed too."""
        import numpy as np

        prepared = [t.strip() for t in texts]
        if self._lower_case:
            prepared = [t.lower() for t in prepared]
        encodings = self._tokenizer.encode_batch(prepared)
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        vectors = np.zeros((len(encodings), self.dim), dtype=np.float32)
        for start in range(0, len(order), batch_size):
            chosen = order[start : start + batch_size]
            vectors[chosen] = self._run([encodings[i] for i in chosen])
        return vectors

    def _run(self, encodings: list[Any]) -> Any:
        """The unit vectors of one batch of tokenized texts."""
        import numpy as np

        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        types = np.zeros_like(ids)
        for i, e in enumerate(encodings):
            ids[i, : len(e.ids)] = e.ids
            mask[i, : len(e.ids)] = 1
            types[i, : len(e.ids)] = e.type_ids
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        with self._lock:  # one run at a time: the session's threads are the budget
            states = self._session.run(None, {k: v for k, v in feed.items() if k in self._names})[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (states * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.clip(norms, 1e-12, None)


def export(model: Any, target: Path) -> None:
    """Write the transformer of the loaded sentence-transformers ``model`` to ``target`` as
    ONNX, dynamic in batch and length (``OnnxSentenceEncoder.check`` then compares the two)."""
    prepare = getattr(model, "preprocess", None) or model.tokenize  # renamed in newer releases
    sample = prepare(["A sentence to trace the model with."])
    trace(model[0].auto_model, "last_hidden_state", sample, target, {0: "batch", 1: "tokens"})


def trace(
    network: Any, output: str, sample: Any, target: Path, output_axes: dict[int, str]
) -> None:
    """Write the transformers model ``network`` to ``target`` as ONNX: its inputs those of
    ``_INPUTS`` that ``sample`` (tokenized text, torch tensors) holds, dynamic in batch and
    length; its one output the attribute ``output`` of what it returns, dynamic in
    ``output_axes``."""
    import torch

    network.eval()
    if hasattr(network, "set_attn_implementation"):
        # The fused attention kernels do not trace with a dynamic length.
        network.set_attn_implementation("eager")
    else:  # pragma: no cover - older transformers
        network.config._attn_implementation = "eager"
    names = [n for n in _INPUTS if n in sample]

    class Output(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.network = network

        def forward(self, *inputs: Any) -> Any:
            return getattr(self.network(**dict(zip(names, inputs, strict=True))), output)

    dynamic = {n: {0: "batch", 1: "tokens"} for n in names} | {output: output_axes}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the tracer's notes on Python control flow
        torch.onnx.export(
            # In eval mode: the exporter puts the module back in the mode it found it in, and a
            # new module is in training mode, which would leave the model's dropout on.
            Output().eval(),
            tuple(sample[n] for n in names),
            str(target),
            input_names=names,
            output_names=[output],
            dynamic_axes=dynamic,
            opset_version=17,
            dynamo=False,
        )


def onnx_or_why(
    wanted: str,
    device: str | None,
    cache_dir: Path | None,
    local: bool,
    why_not: str | None,
    load: Callable[[Path], T],
    setting: str,
    model: str,
) -> tuple[T | None, str | None]:
    """A model's ONNX runner, ``load(cache_dir)``, or why it runs on torch: ``(runner, None)``
    or ``(None, why)``; ``(None, None)`` when torch was asked for or the model runs on a GPU.
    ``why_not`` is a reason known before loading. Under ``wanted == "onnx"`` a model that
    cannot run is a ``ModelError`` naming ``setting``."""
    if wanted == "torch" or device not in (None, "cpu"):
        return None, None
    why = "it is not on this machine yet" if not local else why_not
    if why is None:
        if cache_dir is None:
            from belief_graph.settings import ServerSettings

            cache_dir = ServerSettings().cache_dir.expanduser()
        try:
            return load(cache_dir), None
        except Exception as exc:
            why = f"{type(exc).__name__}: {exc}"
    if wanted == "onnx":
        raise ModelError(
            f"{setting}: onnx, but model {model!r} cannot run through onnxruntime ({why}); "
            f"set BELIEF_GRAPH_{setting.upper()}=torch or auto"
        )
    return None, why
