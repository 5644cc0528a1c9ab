"""Model loading without the model hub: local copies first, then one quick, clear failure."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from belief_graph.errors import ModelError
from belief_graph.semantic.embeddings import DEFAULT_EMBEDDING_MODEL, locate_model

SETTING = "BELIEF_GRAPH_EMBEDDING_MODEL"


@pytest.fixture
def silent_hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A hub that accepts connections and never answers (a black-holing firewall, a dead proxy)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    endpoint = f"http://127.0.0.1:{server.getsockname()[1]}"
    monkeypatch.setattr("huggingface_hub.constants.ENDPOINT", endpoint)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    yield endpoint
    server.close()


def test_a_silent_hub_fails_after_the_timeout_naming_the_setting(silent_hub: str) -> None:
    started = time.monotonic()
    with pytest.raises(ModelError) as caught:
        locate_model("nobody-here/no-such-model", SETTING, timeout=1.0)
    elapsed = time.monotonic() - started
    assert elapsed < 3, elapsed
    message = str(caught.value)
    assert message.startswith(f"{SETTING}: model 'nobody-here/no-such-model'")
    assert "unreachable" in message and "BELIEF_GRAPH_MODELS=false" in message
    assert "\n" not in message


def test_hub_switched_off_fails_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    started = time.monotonic()
    with pytest.raises(ModelError, match=f"^{SETTING}: .*switched off"):
        locate_model("nobody-here/no-such-model", SETTING)
    assert time.monotonic() - started < 1


def test_local_copies_need_no_hub(silent_hub: str, tmp_path: Path) -> None:
    # The default model's weights ship in an installed package: no probe, no wait.
    started = time.monotonic()
    path, local = locate_model(DEFAULT_EMBEDDING_MODEL, SETTING, timeout=30)
    assert local and Path(path).is_dir()
    assert locate_model(str(tmp_path), SETTING, timeout=30) == (str(tmp_path.resolve()), True)
    assert time.monotonic() - started < 1
