"""Start and stop the real test servers (fake OpenAI endpoint, ``chroma run``).

All processes bind to 127.0.0.1 only.  Their output never goes to an
undrained pipe (which could block them): the OpenAI script's stdout is drained
by a thread, everything else goes to log files next to the given paths.
"""

from __future__ import annotations

import os
import queue
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import IO

HOST = "127.0.0.1"
OPENAI_SCRIPT = Path(__file__).with_name("openai_compatible.py")
OPENAI_READY_TIMEOUT = 15.0
CHROMA_READY_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0


class ServerStartError(RuntimeError):
    """A test server did not come up in time (or exited early)."""


class ServerExitedEarly(ServerStartError):
    """The server process exited before it answered (e.g. its port was taken)."""


def free_port(host: str = HOST) -> int:
    """Return a port that is free on ``host`` right now (small race window)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def tail(path: Path, max_chars: int = 4000) -> str:
    """Return the last ``max_chars`` characters of a text file ('' if missing)."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-max_chars:]
    except OSError:
        return ""


def stop(proc: subprocess.Popen[bytes] | None, timeout: float = STOP_TIMEOUT) -> None:
    """Terminate ``proc``; kill it if it has not exited after ``timeout`` s."""
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=timeout)


# --------------------------------------------------------------------------
# Fake OpenAI-compatible server
# --------------------------------------------------------------------------


def _drain_lines(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """Copy every line of ``stream`` into ``lines``; ``None`` marks EOF."""
    for line in stream:
        lines.put(line)
    lines.put(None)


def _wait_for_ready(proc: subprocess.Popen[str], lines: queue.Queue[str | None], timeout: float) -> str:
    """Return the base URL from the ``READY <url>`` line, or raise."""
    deadline = time.monotonic() + timeout
    seen: list[str] = []
    while (remaining := deadline - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=remaining)
        except queue.Empty:
            break
        if line is None:
            break
        if line.startswith("READY "):
            return line.split(maxsplit=1)[1].strip()
        seen.append(line)
    stop(proc)
    raise ServerStartError(f"fake OpenAI server did not print READY within {timeout:.0f}s; stdout: {''.join(seen)!r}")


def start_openai_server(
    log_path: str | os.PathLike[str],
    slow_seconds: float | None = None,
    timeout: float = OPENAI_READY_TIMEOUT,
) -> tuple[str, subprocess.Popen[str]]:
    """Start ``openai_compatible.py`` on a free port; return ``(base_url, proc)``.

    ``base_url`` ends in ``/v1`` and can be passed to ``openai.OpenAI`` as is.
    The script's stderr goes to ``<log_path>.stderr``.
    """
    log_path = Path(log_path)
    cmd = [sys.executable, str(OPENAI_SCRIPT), "--host", HOST, "--port", "0", "--log", str(log_path)]
    if slow_seconds is not None:
        cmd += ["--slow-seconds", str(slow_seconds)]
    stderr_path = log_path.with_name(log_path.name + ".stderr")
    with open(stderr_path, "w", encoding="utf-8") as stderr:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=stderr, text=True, bufsize=1)
    assert proc.stdout is not None
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_drain_lines, args=(proc.stdout, lines), daemon=True).start()
    try:
        return _wait_for_ready(proc, lines, timeout), proc
    except ServerStartError as exc:
        raise ServerStartError(f"{exc}\nstderr:\n{tail(stderr_path)}") from None


# --------------------------------------------------------------------------
# Chroma server
# --------------------------------------------------------------------------


def chroma_executable() -> str:
    """Return the ``chroma`` CLI installed next to the running interpreter."""
    return str(Path(sys.executable).parent / "chroma")


def _http_ok(url: str, timeout: float) -> bool:
    """Return True if ``GET url`` answers 200 within ``timeout`` seconds."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return bool(response.status == 200)
    except (OSError, ValueError):
        return False


def chroma_heartbeat(host: str, port: int, probe_timeout: float = 2.0) -> bool:
    """Return True if a Chroma server answers a heartbeat at ``host:port``.

    ``chromadb.HttpClient`` uses no request timeout at all, so a port held by a
    process that accepts but never answers would hang it forever; a bounded
    plain-HTTP probe runs first, then the real client confirms.
    """
    import chromadb
    from chromadb.config import Settings

    if not _http_ok(f"http://{host}:{port}/api/v2/heartbeat", probe_timeout):
        return False
    try:
        client = chromadb.HttpClient(host=host, port=port, settings=Settings(anonymized_telemetry=False))
        client.heartbeat()
    except Exception:  # connection refused, not ready yet, ...
        return False
    return True


def _wait_for_chroma(proc: subprocess.Popen[bytes], port: int, output: Path, timeout: float) -> None:
    """Poll the heartbeat until it answers; raise with the server output if not."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ServerExitedEarly(
                f"`chroma run` exited with code {proc.returncode} before answering on port {port}; "
                f"output:\n{tail(output)}"
            )
        if chroma_heartbeat(HOST, port):
            return
        time.sleep(0.2)
    stop(proc)
    raise ServerStartError(f"`chroma run` did not answer a heartbeat within {timeout:.0f}s; output:\n{tail(output)}")


def _launch_chroma(path: Path, port: int, output: Path) -> subprocess.Popen[bytes]:
    """Spawn ``chroma run`` with its output going to ``output``."""
    cmd = [chroma_executable(), "run", "--path", str(path), "--host", HOST, "--port", str(port)]
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False", "NO_COLOR": "1"}
    with open(output, "wb") as out:
        return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)


def start_chroma_server(
    path: str | os.PathLike[str], timeout: float = CHROMA_READY_TIMEOUT, attempts: int = 3
) -> tuple[str, int, subprocess.Popen[bytes]]:
    """Run ``chroma run --path PATH`` on 127.0.0.1 and a free port.

    Returns ``(host, port, proc)`` once ``chromadb.HttpClient(...).heartbeat()``
    succeeds.  Server output goes to ``<PATH>.chroma.log`` (beside the data dir).
    If the server exits early (``chroma run`` exits with code 0 when its port was
    grabbed in the meantime), it is retried on a new port, up to ``attempts``.
    """
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    output = path.with_name(path.name + ".chroma.log")
    for attempt in range(1, attempts + 1):
        port = free_port()
        proc = _launch_chroma(path, port, output)
        try:
            _wait_for_chroma(proc, port, output, timeout)
        except ServerExitedEarly:
            if attempt == attempts:
                raise
            continue
        except BaseException:
            stop(proc)
            raise
        return HOST, port, proc
    raise AssertionError("unreachable")
