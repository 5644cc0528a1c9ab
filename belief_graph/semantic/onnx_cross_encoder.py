"""A sentence-transformers cross-encoder (the contradiction model) run by onnxruntime: the
same logits in a third to a quarter of the time.

One pair through a classifier of DeBERTa-v3-xsmall's shape on one CPU thread took 90–138 ms
through torch and 22–30 ms through onnxruntime here (docs/models.md, "Contradiction model
runtime"). As for the embedding (``onnx_encoder``), the classifier is exported once from its
torch weights into the cache directory, keyed by a hash of the model's files, and its logits
are checked against torch's on probe pairs before the copy is kept. The copy holds its
tokenizer (the fast tokenizer's JSON) and the model's maximum length in its metadata, so later
loads need neither torch nor transformers.

A model whose tokenizer has no fast form, or whose export disagrees with torch, is refused by
the export; the scorer then runs it through torch (``auto``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from belief_graph.errors import ModelError

from .onnx_encoder import cached, fingerprint, session, trace
from .relative_window import window

__all__ = ["OnnxCrossEncoder", "export"]

_FORMAT = "2"
"""Changes when the export changes: old copies in the cache are then not used."""

_PROBES = (
    ("Priya lives in Lisbon.", "Priya lives in Berlin."),
    ("The team switched from Express.js to Go last spring.", "The team uses Express.js."),
    ("Priya said she has never owned a car.", "Priya drives a red car."),
    ("Café crème, naïve résumé: 東京 is far.", "We moved."),
    (" ".join(["A very long premise that goes on"] * 80), "A short hypothesis."),
    ("Mom likes gardening.", " ".join(["and a hypothesis far too long"] * 80)),
)
"""Pairs the export is checked on: short and long (truncated on either side), not ASCII; run
two per batch, so padding too. (No text padded with spaces: older sentence-transformers
stripped a pair's texts and 6 does not; the texts go to the tokenizer as given, as in 6.)"""

_TOLERANCE = 1e-3
"""Largest difference allowed between the two runtimes' logits, relative to the largest
logit (at least 1). Float32 rounding grows with depth (two float32 runs of one deep model
differ by parts in ten thousand), while what the check is for, a length frozen by the tracer or
a pair tokenized otherwise, moves logits by tenths."""


class OnnxCrossEncoder:
    """Tokenizes (premise, hypothesis) pairs as the cross-encoder does (truncated longest first
    to the model's maximum length, padded to the longest pair of each batch) and runs the
    exported classifier: ``logits`` gives what the torch model's logits would be."""

    def __init__(self, session: Any, tokenizer: Any) -> None:
        self._session = session
        self._tokenizer = tokenizer
        self._names = {i.name for i in session.get_inputs()}
        self._lock = threading.Lock()

    @classmethod
    def load(
        cls, path: Path, cache_dir: Path, threads: int | None, torch_model: Callable[[], Any]
    ) -> OnnxCrossEncoder:
        """The classifier of the model at ``path``: the cached export, or a new one exported
        from ``torch_model()`` (the loaded sentence-transformers ``CrossEncoder``) and checked
        against it."""

        def made(temporary: Path) -> OnnxCrossEncoder:
            import torch

            model = torch_model()
            # Before the export: the reference must not depend on what exporting does to it.
            expected = model.predict(
                list(_PROBES),
                batch_size=2,
                activation_fn=torch.nn.Identity(),
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            export(model, temporary)
            encoder = cls._open(temporary, threads)
            try:
                encoder.check(expected)
            except Exception:
                # The window is exact by construction (relative_window.py); were a model's graph
                # to prove otherwise, the export over every position still runs faster than torch.
                export(model, temporary, every_position=True)
                encoder = cls._open(temporary, threads)
                encoder.check(expected)
            return encoder

        target = cache_dir / "models" / f"contradiction-{_FORMAT}-{fingerprint(path)}.onnx"
        return cached(target, lambda copy: cls._open(copy, threads), made)

    @classmethod
    def _open(cls, model: Path, threads: int | None) -> OnnxCrossEncoder:
        from tokenizers import Tokenizer

        run = session(str(model), threads)
        metadata = run.get_modelmeta().custom_metadata_map
        tokenizer = Tokenizer.from_str(metadata["tokenizer"])
        tokenizer.no_padding()
        tokenizer.enable_truncation(
            max_length=int(metadata["max_length"]), strategy="longest_first"
        )
        return cls(run, tokenizer)

    def check(self, expected: Any) -> None:
        """``ModelError`` unless this classifier's logits on the probe pairs are ``expected``
        (the torch model's)."""
        import numpy as np

        expected = np.asarray(expected, dtype=np.float64)
        got = self.logits(_PROBES, batch_size=2)
        if got.shape != expected.shape:
            raise ModelError(
                f"the ONNX export gives logits of shape {got.shape}, torch {expected.shape}"
            )
        gap = float(np.abs(expected - got).max())
        if gap > _TOLERANCE * max(1.0, float(np.abs(expected).max())):
            raise ModelError(f"the ONNX export disagrees with torch by {gap:.2g} on probe pairs")

    def logits(self, pairs: Sequence[tuple[str, str]], batch_size: int = 32) -> Any:
        """The classifier's logits, a float64 array with one row per pair, in input order."""
        import numpy as np

        encodings = self._tokenizer.encode_batch(list(pairs))
        # Pairs of like length batched together, as sentence-transformers does: less padding.
        order = sorted(range(len(encodings)), key=lambda i: -len(encodings[i].ids))
        rows: dict[int, Any] = {}
        for start in range(0, len(order), batch_size):
            chosen = order[start : start + batch_size]
            width = max(len(encodings[i].ids) for i in chosen)
            ids = np.zeros((len(chosen), width), dtype=np.int64)
            mask = np.zeros_like(ids)
            types = np.zeros_like(ids)
            for row, i in enumerate(chosen):
                e = encodings[i]
                ids[row, : len(e.ids)] = e.ids
                mask[row, : len(e.ids)] = 1
                types[row, : len(e.ids)] = e.type_ids
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
            with self._lock:  # one run at a time: the session's threads are the budget
                logits = self._session.run(
                    None, {k: v for k, v in feed.items() if k in self._names}
                )[0]
            rows.update(zip(chosen, logits, strict=True))
        if not rows:
            return np.zeros((0, 0))
        return np.asarray([rows[i] for i in range(len(encodings))], dtype=np.float64)


def export(model: Any, target: Path, every_position: bool = False) -> None:
    """Write the classifier of the loaded sentence-transformers ``CrossEncoder`` ``model`` to
    ``target`` as ONNX, dynamic in batch and length, with its tokenizer and maximum length in
    the file's metadata (``OnnxCrossEncoder.check`` then compares the two runtimes). DeBERTa's
    relative positions are computed over the window a batch uses (``relative_window``) unless
    ``every_position``."""
    import onnx
    from tokenizers import Tokenizer

    backend = getattr(model.tokenizer, "backend_tokenizer", None)
    if backend is None:
        raise ModelError("its tokenizer has no fast (tokenizers) form")
    tokenizer = Tokenizer.from_str(backend.to_str())
    tokenizer.no_padding()
    tokenizer.no_truncation()
    sample = model.tokenizer(
        ["A premise to trace with."], ["And a hypothesis."], return_tensors="pt"
    )
    # model.model: the transformers classifier (sentence-transformers 4 to 6).
    trace(model.model, "logits", sample, target, {0: "batch"})
    graph = onnx.load(str(target))
    if not every_position:
        window(graph.graph)
    onnx.helper.set_model_props(
        graph, {"tokenizer": tokenizer.to_str(), "max_length": str(_max_length(model))}
    )
    onnx.save(graph, str(target))


def _max_length(model: Any) -> int:
    """The length the cross-encoder truncates a pair to (renamed in sentence-transformers 6)."""
    length = getattr(model, "max_seq_length", None) or getattr(model, "max_length", None)
    if not length:
        length = model.tokenizer.model_max_length
    return int(length)
