"""A TCP proxy on 127.0.0.1 that passes traffic to a server until told to misbehave.

Used in front of a real ``chroma run`` to play a server that dies, resets or
stalls *after* the client connected. Faults are applied per HTTP request (the
proxy spots a request by its first bytes, ``GET /…``, ``POST /…``), so a
keep-alive connection opened while all was well still meets the fault:

* ``mode``: ``"pass"``, ``"reset"`` (close both sides, like a killed server) or
  ``"stall"`` (read the request, never answer, like a hung server);
* ``trigger``: only requests whose request line contains this text are faulted
  (e.g. ``"/query"``); ``None`` = every request;
* ``after``: that many matching requests pass before the fault applies
  ("drop after N requests").
"""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass

HOST = "127.0.0.1"
BUFFER = 65536
HTTP_METHODS = (b"GET /", b"POST /", b"PUT /", b"PATCH /", b"DELETE /", b"HEAD /", b"OPTIONS /")
STALL_SECONDS = 600.0  # longer than any test: a stalled request is never answered while the test runs


@dataclass
class Fault:
    mode: str = "pass"
    trigger: str | None = None
    after: int = 0


class FaultProxy:
    """Forward ``127.0.0.1:port`` to ``target``; change ``set_fault`` at any time."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self._fault = Fault()
        self._matched = 0
        self._lock = threading.Lock()
        self._listener = socket.create_server((HOST, 0))
        self.port = int(self._listener.getsockname()[1])
        self._closing = threading.Event()
        self._sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def set_fault(self, mode: str = "pass", trigger: str | None = None, after: int = 0) -> None:
        with self._lock:
            self._fault = Fault(mode, trigger, after)
            self._matched = 0

    def close(self) -> None:
        self._closing.set()
        self._listener.close()
        for sock in list(self._sockets):
            _close(sock)

    # -- internals -------------------------------------------------------------
    def _accept(self) -> None:
        while not self._closing.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                _close(client)
                continue
            self._sockets += [client, upstream]
            threading.Thread(target=self._client_to_server, args=(client, upstream), daemon=True).start()
            threading.Thread(target=_pipe, args=(upstream, client), daemon=True).start()

    def _verdict(self, data: bytes) -> str:
        """The fault mode for a chunk of client data (``pass`` unless it starts a faulted request)."""
        if not data.startswith(HTTP_METHODS):
            return "pass"
        line = data.split(b"\r\n", 1)[0].decode("latin-1")
        with self._lock:
            fault = self._fault
            if fault.mode == "pass" or (fault.trigger and fault.trigger not in line):
                return "pass"
            self._matched += 1
            return fault.mode if self._matched > fault.after else "pass"

    def _client_to_server(self, client: socket.socket, upstream: socket.socket) -> None:
        try:
            while data := client.recv(BUFFER):
                verdict = self._verdict(data)
                if verdict == "reset":
                    break
                if verdict == "stall":
                    self._closing.wait(STALL_SECONDS)
                    break
                upstream.sendall(data)
        except OSError:
            pass
        _close(client)
        _close(upstream)


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(BUFFER):
            sink.sendall(data)
    except OSError:
        pass
    _close(source)
    _close(sink)


def _close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
