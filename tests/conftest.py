"""Shared pytest fixtures: real test servers on 127.0.0.1, no network access.

* ``openai_server``: the stdlib fake OpenAI-compatible server
  (``tests/servers/openai_compatible.py``); see that file for the models
  (``echo-cite``, ``refuse``, ``rewrite``, ``error-500``, ``error-429``,
  ``flaky``, ``slow``).
* ``chroma_server``: a real ``chroma run`` server, yields ``(host, port)``.

Both are session-scoped, so tests that read ``openai_server.requests()``
should pick out their own requests (by model or by a unique prompt).
"""

from __future__ import annotations

import json
import os

# Set before anything imports huggingface / transformers / chromadb.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ["ANONYMIZED_TELEMETRY"] = "False"
# Never send loopback traffic through a proxy that might be configured.
for _var in ("NO_PROXY", "no_proxy"):
    os.environ[_var] = ",".join(filter(None, [os.environ.get(_var, ""), "127.0.0.1", "localhost"]))

from collections.abc import Iterator  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pytest  # noqa: E402

try:  # works whether or not tests/ is a package (rootdir vs. tests/ on sys.path)
    from tests.servers.procs import start_chroma_server, start_openai_server, stop
except ImportError:  # pragma: no cover - depends on how pytest was invoked
    from servers.procs import start_chroma_server, start_openai_server, stop  # type: ignore[no-redef]

SLOW_SECONDS = 5.0


@dataclass(frozen=True)
class OpenAIServer:
    """Handle on the running fake OpenAI-compatible server."""

    base_url: str
    log_path: Path
    slow_seconds: float = SLOW_SECONDS

    def requests(self, model: str | None = None) -> list[dict[str, Any]]:
        """Return the logged request bodies, oldest first (optionally one model's).

        Each body carries the server-added fields ``_path``, ``_status`` and
        ``_auth_present``.
        """
        if not self.log_path.exists():
            return []
        lines = self.log_path.read_text(encoding="utf-8").splitlines()
        records = [json.loads(line) for line in lines if line.strip()]
        return [r for r in records if model is None or r.get("model") == model]


@pytest.fixture(scope="session")
def openai_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OpenAIServer]:
    """Start the fake OpenAI-compatible server for the whole session."""
    log_path = tmp_path_factory.mktemp("openai_server") / "requests.jsonl"
    base_url, proc = start_openai_server(log_path, slow_seconds=SLOW_SECONDS)
    try:
        yield OpenAIServer(base_url=base_url, log_path=log_path)
    finally:
        stop(proc)


@pytest.fixture(scope="session")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """Start a real ``chroma run`` server for the whole session; yield ``(host, port)``."""
    data_dir = tmp_path_factory.mktemp("chroma_server") / "data"
    host, port, proc = start_chroma_server(data_dir)
    try:
        yield host, port
    finally:
        stop(proc)


# --------------------------------------------------------------------------
# Pipeline fixtures (test_store_indexing, test_retrieval, test_answers,
# test_llm_backend, test_cli). Added at the end; nothing above is changed.
# --------------------------------------------------------------------------

import subprocess  # noqa: E402
import sys  # noqa: E402
from collections.abc import Callable  # noqa: E402

# One intra-op thread for torch (here and in subprocesses, unless the caller chose):
# on a busy machine the default thread pool spins and one query embedding takes ~1 s
# instead of ~20 ms. Only speed changes, never results. Set before torch is imported.
os.environ.setdefault("OMP_NUM_THREADS", "1")

DATA_DIR = Path(__file__).resolve().parent / "data"
RAG_SCRIPT = Path(sys.executable).with_name("rag")  # the console script of this venv
CLI_TIMEOUT = 300.0


def _clean_env(**extra: str) -> dict[str, str]:
    """os.environ without any RAG_* / OPENAI_* variable, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAG_", "OPENAI_"))}
    env.update(extra)
    return env


@pytest.fixture(scope="session")
def dev_questions() -> list[dict[str, Any]]:
    """The in-repo copy of the dev question set (tests/data/dev_questions.jsonl)."""
    lines = (DATA_DIR / "dev_questions.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="session")
def make_settings() -> Callable[..., Any]:
    """Build ``rag.config.Settings`` from the class defaults plus overrides only.

    Every field is passed explicitly, so neither RAG_* variables of the machine
    running the tests nor a rag.toml in the working directory can change them.
    """
    from rag.config import Settings

    def build(**overrides: Any) -> Settings:
        values = {name: field.default for name, field in Settings.model_fields.items()}
        values.update(overrides)
        return Settings(**values)

    return build


@pytest.fixture(scope="session")
def seed_assistant(tmp_path_factory: pytest.TempPathFactory, make_settings: Callable[..., Any]) -> Any:
    """ONE Assistant over the shipped seeds (embedded Chroma in a tmp data dir), shared by the session.

    Extractive answers only (no llm_base_url). Tests that need another configuration
    build ``Assistant(settings, a.papers, a.embedder, a.store, a.retriever.lexical)``
    to reuse the loaded model and the index.
    """
    from rag.assistant import Assistant
    from rag.config import SEED_CORPUS

    data_dir = tmp_path_factory.mktemp("seed_assistant") / "data"
    return Assistant.open(make_settings(data_dir=data_dir, corpus=[SEED_CORPUS]), progress=False)


@pytest.fixture(scope="session")
def seed_embedder(seed_assistant: Any) -> Any:
    """The session's one loaded all-MiniLM-L6-v2 Embedder."""
    return seed_assistant.embedder


@pytest.fixture(scope="session")
def rag_cli(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run the ``rag`` console script in a subprocess: ``rag_cli(*args, data_dir=, input=)``.

    The environment has no RAG_*/OPENAI_* variables except RAG_DATA_DIR (when
    ``data_dir`` is given) and ``env`` extras; the working directory is an empty
    tmp folder, so no rag.toml is picked up.
    """
    workdir = tmp_path_factory.mktemp("rag_cli_cwd")

    def run(*args: str, data_dir: Path | None = None, input: str | None = None,
            env: dict[str, str] | None = None, timeout: float = CLI_TIMEOUT) -> subprocess.CompletedProcess[str]:
        extra = dict(env or {})
        if data_dir is not None:
            extra["RAG_DATA_DIR"] = str(data_dir)
        return subprocess.run(
            [str(RAG_SCRIPT), *args], input=input, capture_output=True, text=True, timeout=timeout,
            cwd=workdir, env=_clean_env(**extra), stdin=None if input is not None else subprocess.DEVNULL,
        )

    return run


@pytest.fixture(scope="session")
def cli_data_dir(tmp_path_factory: pytest.TempPathFactory,
                 rag_cli: Callable[..., subprocess.CompletedProcess[str]],
                 ) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """A data dir indexed over the seeds by ``rag -q ingest`` in a subprocess.

    Yields ``(data_dir, completed_process_of_that_first_ingest)``. Tests may run
    read-only commands on it; tests that change an index work on a copy
    (``shutil.copytree``).
    """
    data_dir = tmp_path_factory.mktemp("cli_index") / "data"
    first = rag_cli("-q", "ingest", data_dir=data_dir)
    assert first.returncode == 0, f"rag ingest failed:\n{first.stdout}\n{first.stderr}"
    return data_dir, first


MINI_CORPUS = DATA_DIR / "mini_corpus.jsonl"


@pytest.fixture(scope="session")
def mini_assistant(seed_embedder: Any, make_settings: Callable[..., Any],
                   tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Extractive Assistant over the seven hand-written abstracts of tests/data/mini_corpus.jsonl (m1..m7).

    Real embedded Chroma in a tmp data dir; the embedding model is the session's one.
    """
    from rag.assistant import Assistant
    from rag.corpus import load_corpus
    from rag.indexing import ingest
    from rag.lexical import LexicalIndex
    from rag.store import VectorStore

    data_dir = tmp_path_factory.mktemp("mini_assistant")
    papers = load_corpus(MINI_CORPUS)
    store = VectorStore.open(data_dir, "mini")
    ingest(papers, store, seed_embedder, 200, 1, progress=False)
    return Assistant(make_settings(data_dir=data_dir), papers, seed_embedder, store, LexicalIndex.build(papers))
