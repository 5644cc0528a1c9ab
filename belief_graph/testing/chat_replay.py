"""A chat-completions server that replays recorded answers: the LLM extractor's tests and the
extraction benchmark run against it, with no network and no model.

``responses`` maps a key to the assistant content to answer with when the key occurs in the last
user message of a request (the first matching key wins); a list gives successive answers to
successive requests that match it (the last one repeats), so a malformed answer then a good one
tests the retry. No key matches: ``{"claims": []}``. Standard library only.

``recorded_answers`` turns a conversation and the recorded answers of a real model
(``bench/extraction/recorded.jsonl``: one line per turn) into such ``responses``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

__all__ = ["ChatReplayServer", "recorded_answers"]

EMPTY = '{"claims": []}'


def recorded_answers(
    conversation: Mapping[str, Any], rows: Iterable[Mapping[str, Any]]
) -> dict[str, str | list[str]]:
    """Each turn's text of ``conversation`` → the answers recorded for that turn. The request
    repeats earlier turns as context, and the first key found wins, so the latest turn's key
    comes first."""
    answers = {(r["id"], r["turn"]): r["content"] for r in rows if r["id"] == conversation["id"]}
    turns = list(enumerate(conversation["turns"]))
    return {
        turn["text"]: answers[(conversation["id"], i)]
        for i, turn in reversed(turns)
        if (conversation["id"], i) in answers
    }


class ChatReplayServer:
    """``with ChatReplayServer({"pescatarian": '{"claims": [...]}'}) as server:`` then point
    the extractor at ``server.base_url``; ``server.requests`` holds every JSON body received."""

    def __init__(self, responses: Mapping[str, str | list[str]]) -> None:
        self.responses = {k: [v] if isinstance(v, str) else list(v) for k, v in responses.items()}
        self.requests: list[dict[str, Any]] = []
        self._served: dict[str, int] = {}
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``."""
        if self._server is None:
            raise RuntimeError("the replay server is not running; use it in a with block")
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def answer(self, body: dict[str, Any]) -> str:
        """The content for one request body (and the record of it)."""
        with self._lock:
            self.requests.append(body)
            users = [m for m in body.get("messages", []) if m.get("role") == "user"]
            last = str(users[-1].get("content", "")) if users else ""
            for key, contents in self.responses.items():
                if key in last:
                    served = self._served.get(key, 0)
                    self._served[key] = served + 1
                    return contents[min(served, len(contents) - 1)]
            return EMPTY

    def __enter__(self) -> ChatReplayServer:
        replay = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except json.JSONDecodeError:
                    self._send(400, {"error": {"message": "the body is not JSON"}})
                    return
                content = replay.answer(body)
                self._send(
                    200,
                    {
                        "id": f"replay-{len(replay.requests)}",
                        "object": "chat.completion",
                        "model": body.get("model", "replay"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": content},
                                "finish_reason": "stop",
                            }
                        ],
                    },
                )

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._server = None
