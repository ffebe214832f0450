#!/usr/bin/env python3
"""A minimal, deterministic OpenAI-compatible chat server for tests (stdlib only).

Run::

    python openai_compatible.py --port 0 --log requests.jsonl [--slow-seconds 5]

Once listening it prints exactly one line, ``READY http://127.0.0.1:PORT/v1``,
to stdout.  Every POST body is appended to the log file as one JSON line, with
extra underscore-prefixed fields added by the server:

* ``_path``: request path, ``_status``: the HTTP status the server answers with,
* ``_auth_present``: whether an ``Authorization`` header was sent (the key
  itself is never recorded).

Endpoints: ``POST /v1/chat/completions`` (``stream`` false or true) and
``GET /v1/models``.  The behaviour is chosen by the request's ``model``:

``echo-cite`` (and any unknown model)
    Quotes the first sentence of the first (up to) two ``<source id="N" ...>``
    blocks of the last user message, each followed by `` [N]``, then adds
    ``This claim cites a source that does not exist [99].``  Without sources:
    ``I cannot answer from the provided abstracts.``
``refuse``
    ``The provided abstracts do not answer this question.``
``rewrite``
    ``REWRITTEN: `` + the last user message's content.
``error-500`` / ``error-429``
    Always HTTP 500 / HTTP 429 (with ``retry-after: 0``), OpenAI error JSON.
``flaky``
    The first request with a given body gets HTTP 500; a retry of the same
    body (what the ``openai`` client sends) behaves like ``echo-cite``.
    Keying on the body rather than on "first request of the process" keeps
    this repeatable across tests sharing one server.
``slow``
    Sleeps ``--slow-seconds`` before answering like ``echo-cite``; other
    requests are served meanwhile (threading server).

Fault modes (for the fault-injection tests); streamed requests send the first
half of the ``echo-cite`` reply normally, then:

``malformed-json``
    a chunk whose JSON is cut off, then ``[DONE]``.
``no-finish``
    the rest of the reply, but no chunk with a ``finish_reason``, then ``[DONE]``.
``length``
    the rest of the reply with ``finish_reason: "length"``.
``drop-mid-stream``
    nothing more: the connection is closed without ending the chunked body.
``echo-key``
    (streamed or not) HTTP 401 whose message echoes the request's bearer
    token, as OpenAI's "Incorrect API key provided" error does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

NO_SOURCES_REPLY = "I cannot answer from the provided abstracts."
REFUSE_REPLY = "The provided abstracts do not answer this question."
INVALID_CITATION_SENTENCE = "This claim cites a source that does not exist [99]."
STREAM_FAULTS = ("malformed-json", "no-finish", "length", "drop-mid-stream")
MODELS = ("echo-cite", "refuse", "rewrite", "error-500", "error-429", "flaky", "slow", "echo-key", *STREAM_FAULTS)

SOURCE_RE = re.compile(r'<source\s+id="([^"]*)"[^>]*>(.*?)</source>', re.DOTALL)
SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+")
STREAM_PIECE_RE = re.compile(r"\s*\S+")


# --------------------------------------------------------------------------
# Pure reply logic
# --------------------------------------------------------------------------


def message_text(message: dict[str, Any]) -> str:
    """Return a chat message's text, whether ``content`` is a string or parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part.get("text", "")
            for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        )
    return ""


def last_user_text(messages: list[dict[str, Any]]) -> str:
    """Return the text of the last ``user`` message ('' if there is none)."""
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "user":
            return message_text(message)
    return ""


def first_sentence(text: str) -> str:
    """Return the first sentence of ``text`` with whitespace collapsed."""
    flat = " ".join(text.split())
    return SENTENCE_END_RE.split(flat, maxsplit=1)[0]


def echo_cite_reply(prompt: str) -> str:
    """Cite up to two fenced sources of ``prompt`` plus one invalid citation."""
    sources = SOURCE_RE.findall(prompt)
    if not sources:
        return NO_SOURCES_REPLY
    sentences = [f"{first_sentence(text)} [{sid}]" for sid, text in sources[:2]]
    sentences.append(INVALID_CITATION_SENTENCE)
    return " ".join(sentences)


def reply_text(model: str, messages: list[dict[str, Any]]) -> str:
    """Return the assistant reply for a successful request to ``model``."""
    prompt = last_user_text(messages)
    if model == "refuse":
        return REFUSE_REPLY
    if model == "rewrite":
        return f"REWRITTEN: {prompt}"
    return echo_cite_reply(prompt)


def count_tokens(text: str) -> int:
    """A crude, deterministic token count (whitespace-separated words)."""
    return len(text.split())


def usage_for(messages: list[dict[str, Any]], reply: str) -> dict[str, int]:
    """Build an OpenAI ``usage`` object for a request/reply pair."""
    prompt_tokens = sum(count_tokens(message_text(m)) for m in messages if isinstance(m, dict))
    completion_tokens = count_tokens(reply)
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


def error_body(message: str, err_type: str, code: str | None = None) -> dict[str, Any]:
    """Build an OpenAI-style error JSON body."""
    return {"error": {"message": message, "type": err_type, "param": None, "code": code}}


def completion_body(completion_id: str, model: str, reply: str, usage: dict[str, int]) -> dict[str, Any]:
    """Build a non-streamed ``chat.completion`` object."""
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply},
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
        "usage": usage,
    }


def chunk_body(
    completion_id: str,
    model: str,
    delta: dict[str, Any],
    finish_reason: str | None = None,
    usage: dict[str, int] | None = None,
    with_choice: bool = True,
) -> dict[str, Any]:
    """Build one ``chat.completion.chunk`` object."""
    choices = [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]
    body: dict[str, Any] = {
        "id": completion_id,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
        "choices": choices if with_choice else [],
    }
    if usage is not None:
        body["usage"] = usage
    return body


def stream_chunks(
    completion_id: str, model: str, reply: str, usage: dict[str, int] | None
) -> Iterator[dict[str, Any]]:
    """Yield the chunks of a streamed reply: role, one per word, stop, usage."""
    yield chunk_body(completion_id, model, {"role": "assistant", "content": ""})
    for piece in STREAM_PIECE_RE.findall(reply):
        yield chunk_body(completion_id, model, {"content": piece})
    yield chunk_body(completion_id, model, {}, finish_reason="stop")
    if usage is not None:
        yield chunk_body(completion_id, model, {}, usage=usage, with_choice=False)


# --------------------------------------------------------------------------
# HTTP layer
# --------------------------------------------------------------------------


class RequestLog:
    """Thread-safe JSON-lines log of received request bodies."""

    def __init__(self, path: str | None) -> None:
        self._path = path
        self._lock = threading.Lock()

    def append(self, record: dict[str, Any]) -> None:
        """Append one record as a JSON line (no-op without a log path)."""
        if not self._path:
            return
        line = json.dumps(record, ensure_ascii=False) + "\n"
        with self._lock, open(self._path, "a", encoding="utf-8") as handle:
            handle.write(line)


class FlakyTracker:
    """Remembers which request bodies have already failed once."""

    def __init__(self) -> None:
        self._seen: set[str] = set()
        self._lock = threading.Lock()

    def should_fail(self, raw_body: bytes) -> bool:
        """Return True the first time ``raw_body`` is seen, False afterwards."""
        key = hashlib.sha256(raw_body).hexdigest()
        with self._lock:
            if key in self._seen:
                return False
            self._seen.add(key)
            return True


class FakeOpenAIServer(ThreadingHTTPServer):
    """Threading HTTP server carrying the shared state for the handlers."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], log: RequestLog, slow_seconds: float) -> None:
        super().__init__(address, Handler)
        self.request_log = log
        self.slow_seconds = slow_seconds
        self.flaky = FlakyTracker()


class Handler(BaseHTTPRequestHandler):
    """Serves the chat completions and models endpoints."""

    server: FakeOpenAIServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
        """Silence the default per-request stderr logging."""

    # -- helpers -----------------------------------------------------------

    def _send_json(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        payload = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)

    def _write_chunk(self, data: bytes) -> None:
        """Write one HTTP/1.1 chunk and flush it to the client."""
        self.wfile.write(f"{len(data):x}\r\n".encode("ascii") + data + b"\r\n")
        self.wfile.flush()

    def _send_stream(self, completion_id: str, model: str, reply: str, usage: dict[str, int] | None) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for chunk in stream_chunks(completion_id, model, reply, usage):
            self._write_chunk(f"data: {json.dumps(chunk)}\n\n".encode())
        self._write_chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _send_faulty_stream(self, completion_id: str, model: str, reply: str) -> None:
        """Half the reply, then the fault named by ``model`` (see the module docstring)."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        pieces = STREAM_PIECE_RE.findall(reply)
        half = max(1, len(pieces) // 2)
        self._write_chunk(f"data: {json.dumps(chunk_body(completion_id, model, {'role': 'assistant'}))}\n\n".encode())
        for piece in pieces[:half]:
            self._write_chunk(f"data: {json.dumps(chunk_body(completion_id, model, {'content': piece}))}\n\n".encode())
        if model == "drop-mid-stream":
            self.close_connection = True  # the handler returns and the socket closes mid-body
            return
        if model == "malformed-json":
            self._write_chunk(b'data: {"id": "broken", "choices": [{"delta": {"content": "x\n\n')
        else:
            for piece in pieces[half:]:
                body = json.dumps(chunk_body(completion_id, model, {'content': piece}))
                self._write_chunk(f"data: {body}\n\n".encode())
            if model == "length":
                self._write_chunk(f"data: {json.dumps(chunk_body(completion_id, model, {}, 'length'))}\n\n".encode())
        self._write_chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _read_body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def _status_for(self, model: str, raw_body: bytes) -> int:
        if model == "error-500":
            return HTTPStatus.INTERNAL_SERVER_ERROR
        if model == "error-429":
            return HTTPStatus.TOO_MANY_REQUESTS
        if model == "echo-key":
            return HTTPStatus.UNAUTHORIZED
        if model == "flaky" and self.server.flaky.should_fail(raw_body):
            return HTTPStatus.INTERNAL_SERVER_ERROR
        return HTTPStatus.OK

    def _log(self, body: dict[str, Any], status: int) -> None:
        record = dict(body)
        record["_path"] = self.path
        record["_status"] = int(status)
        record["_auth_present"] = bool(self.headers.get("Authorization"))
        self.server.request_log.append(record)

    # -- endpoints ---------------------------------------------------------

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        """``GET /v1/models``."""
        if self.path.rstrip("/") != "/v1/models":
            self._send_json(HTTPStatus.NOT_FOUND, error_body(f"Unknown path {self.path}", "invalid_request_error"))
            return
        created = int(time.time())
        data = [{"id": m, "object": "model", "created": created, "owned_by": "tests"} for m in MODELS]
        self._send_json(HTTPStatus.OK, {"object": "list", "data": data})

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        """``POST /v1/chat/completions``."""
        raw_body = self._read_body()
        try:
            body = json.loads(raw_body or b"{}")
            if not isinstance(body, dict):
                raise ValueError("body is not a JSON object")
        except ValueError as exc:
            self._log({"_invalid_json": raw_body.decode("utf-8", "replace")}, HTTPStatus.BAD_REQUEST)
            self._send_json(HTTPStatus.BAD_REQUEST, error_body(f"Invalid JSON: {exc}", "invalid_request_error"))
            return
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._log(body, HTTPStatus.NOT_FOUND)
            self._send_json(HTTPStatus.NOT_FOUND, error_body(f"Unknown path {self.path}", "invalid_request_error"))
            return
        model = str(body.get("model") or "echo-cite")
        status = self._status_for(model, raw_body)
        self._log(body, status)
        try:
            self._respond_chat(body, model, status)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (e.g. a timeout test); nothing to do

    def _respond_chat(self, body: dict[str, Any], model: str, status: int) -> None:
        if status == HTTPStatus.INTERNAL_SERVER_ERROR:
            self._send_json(status, error_body("The server had an error processing your request.", "server_error"))
            return
        if status == HTTPStatus.UNAUTHORIZED:
            token = (self.headers.get("Authorization") or "").split(" ", 1)[-1]
            err = error_body(f"Incorrect API key provided: Bearer {token}. You can find your API key in your "
                             "account settings.", "invalid_request_error", "invalid_api_key")
            self._send_json(status, err)
            return
        if status == HTTPStatus.TOO_MANY_REQUESTS:
            err = error_body("Rate limit reached for requests.", "requests", "rate_limit_exceeded")
            self._send_json(status, err, headers={"retry-after": "0"})
            return
        if model == "slow":
            time.sleep(self.server.slow_seconds)
        messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
        reply = reply_text(model, messages)
        usage = usage_for(messages, reply)
        completion_id = f"chatcmpl-{uuid.uuid4().hex[:24]}"
        if body.get("stream") and model in STREAM_FAULTS:
            self._send_faulty_stream(completion_id, model, reply)
        elif body.get("stream"):
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            self._send_stream(completion_id, model, reply, usage if include_usage else None)
        else:
            self._send_json(HTTPStatus.OK, completion_body(completion_id, model, reply, usage))


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the command line."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="port; 0 picks a free one (default)")
    parser.add_argument("--log", default=None, help="append each request body as a JSON line here")
    parser.add_argument("--slow-seconds", type=float, default=5.0, help="delay of the 'slow' model")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Start the server, announce READY, and serve until interrupted."""
    args = parse_args(argv)
    server = FakeOpenAIServer((args.host, args.port), RequestLog(args.log), args.slow_seconds)
    host, port = server.server_address[:2]
    print(f"READY http://{host}:{port}/v1", flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
