"""The vector store: Chroma, embedded (PersistentClient) or a server (HttpClient).

We always hand Chroma our own vectors (``embedding_function=None``): its default
embedding function downloads an ONNX model, which this product must never do.
Every chunk carries its paper's content hash and chunk count in its metadata, so
the indexer can tell complete, stale and half-written papers apart after a crash.
"""

from __future__ import annotations

import functools
import json
import os
import warnings
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import numpy as np

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import chromadb  # noqa: E402  (telemetry must be off before import)
from chromadb.config import Settings as ChromaSettings  # noqa: E402
from chromadb.errors import ChromaError  # noqa: E402

from .chunking import Chunk, chunk_id, paper_of  # noqa: E402
from .config import SEARCH_EF  # noqa: E402
from .safety import strip_control  # noqa: E402


class StoreError(RuntimeError):
    """The store could not be opened or reached; the message says where and why, in one line."""


@dataclass(frozen=True)
class ChunkHit:
    """One nearest-neighbour result: a chunk id, its paper and cosine similarity."""

    chunk_id: str
    paper_id: str
    similarity: float


@dataclass(frozen=True)
class PaperState:
    """What the store holds for one paper: its hash and how many chunks are present."""

    content_hash: str
    expected_chunks: int
    present_chunks: int

    @property
    def complete(self) -> bool:
        return self.present_chunks == self.expected_chunks


# chromadb's HttpClient sends requests with no timeout at all, so a stalled server hung
# `rag ask` for minutes and `rag chat` forever. Connecting to a live local server takes
# milliseconds; 5 s covers a loaded machine. The slowest healthy call is a batch upsert
# of a few thousand chunks, a few seconds; 30 s leaves ample headroom yet bounds a stall.
CONNECT_TIMEOUT = 5.0
REQUEST_TIMEOUT = 30.0
# Chunk ids asked per paper in one call when scoring named papers: 99.6% of 14,214 papers sampled at
# 30,019 have at most 3 chunks (all-MiniLM-L6-v2's 256-token window); longer ones take another call.
CHUNKS_PER_ASK = 3
MAX_REASON_CHARS = 200  # the cause shown in a StoreError; chromadb errors can carry whole payloads
# What a store call raises when the server or the files fail (as opposed to our own bugs):
# httpx transport/status errors, chromadb's own errors, OS errors, and undecodable replies.
STORE_FAULTS: tuple[type[BaseException], ...] = (httpx.HTTPError, ChromaError, OSError, json.JSONDecodeError)


def _reason(exc: BaseException) -> str:
    """``ReadTimeout: timed out`` on one short line, fit for a one-line message."""
    text = " ".join(strip_control(str(exc)).split()) or "no details"
    if len(text) > MAX_REASON_CHARS:
        text = text[:MAX_REASON_CHARS] + "…"
    return f"{type(exc).__name__}: {text}"


class _Where:
    """Names the store in messages: a server by host:port, an embedded store by folder."""

    def __init__(self, data_dir: Path, host: str | None, port: int) -> None:
        self.host, self.port, self.data_dir = host, port, data_dir

    def failed(self, exc: BaseException) -> StoreError:
        if self.host:
            return StoreError(f"The Chroma server at {self.host}:{self.port} stopped answering ({_reason(exc)}). "
                              "Is `chroma run` still running?")
        return StoreError(f"The Chroma store in {self.data_dir} failed ({_reason(exc)}).")


class _Guarded:
    """A Chroma client or collection whose every method call turns store faults into StoreError.

    A proxy rather than a try/except per call site, so a store call added later
    (by any module) is guarded without anyone remembering to.
    """

    def __init__(self, target: object, where: _Where) -> None:
        self._target = target
        self._where = where

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._target, name)
        if not callable(attr):
            return attr

        @functools.wraps(attr)
        def call(*args: object, **kwargs: object) -> object:
            try:
                return attr(*args, **kwargs)
            except STORE_FAULTS as exc:
                raise self._where.failed(exc) from exc

        return call


def _all_of(conditions: Sequence[dict | None]) -> dict | None:
    """Chroma ``where`` requiring every given condition (Chroma rejects a one-clause ``$and``)."""
    present = [c for c in conditions if c]
    return None if not present else present[0] if len(present) == 1 else {"$and": present}


def _reachable(host: str, port: int) -> None:
    """Fail fast on a dead or stuck server before chromadb's client tries it."""
    try:
        httpx.get(f"http://{host}:{port}/api/v2/heartbeat", timeout=_timeout()).raise_for_status()
    except httpx.HTTPError as exc:
        raise StoreError(f"The Chroma server at {host}:{port} did not answer ({_reason(exc)}). "
                         "Is `chroma run` running there?") from exc


def _timeout() -> httpx.Timeout:
    return httpx.Timeout(REQUEST_TIMEOUT, connect=CONNECT_TIMEOUT)


def _bound_requests(client: chromadb.api.ClientAPI) -> None:
    """Give the HttpClient's httpx session our timeouts (chromadb exposes no setting for it).

    Raises rather than running unbounded if a chromadb release moves the session.
    """
    session = getattr(getattr(client, "_server", None), "_session", None)
    if not isinstance(session, httpx.Client):
        raise StoreError("This chromadb version hides its HTTP session, so requests to the server "
                         "could hang without limit; install a chromadb 1.x release.")
    session.timeout = _timeout()


class VectorStore:
    """A Chroma collection in cosine space holding chunk vectors of one corpus."""

    def __init__(self, client: chromadb.api.ClientAPI, collection: str, location: str,
                 where: _Where | None = None, search_ef: int = SEARCH_EF) -> None:
        self.location = location
        where = where or _Where(Path(location), None, 0)
        self._client = _Guarded(client, where)
        self._collection = _Guarded(self._client.get_or_create_collection(
            name=collection,
            embedding_function=None,
            configuration={"hnsw": {"space": "cosine", "ef_search": search_ef}},
        ), where)
        self._set_search_ef(search_ef)
        self._max_batch = max(1, int(self._client.get_max_batch_size()))

    def _set_search_ef(self, search_ef: int) -> None:
        """Give a collection made earlier (or with another setting) this search breadth.

        ``ef_search`` is the one HNSW setting Chroma lets an existing collection change.
        """
        with warnings.catch_warnings():  # chromadb warns that a collection without embedding function is "legacy"
            warnings.simplefilter("ignore", DeprecationWarning)
            hnsw = (self._collection.configuration or {}).get("hnsw") or {}
        if hnsw.get("ef_search") != search_ef:
            self._collection.modify(configuration={"hnsw": {"ef_search": search_ef}})

    @classmethod
    def open(cls, data_dir: Path, collection: str, host: str | None = None, port: int = 8000,
             search_ef: int = SEARCH_EF) -> VectorStore:
        """Embedded store under ``data_dir/chroma`` unless a server host is given."""
        telemetry = ChromaSettings(anonymized_telemetry=False)
        where = _Where(Path(data_dir), host, port)
        try:
            if host:
                _reachable(host, port)
                client = chromadb.HttpClient(host=host, port=port, settings=telemetry)
                _bound_requests(client)
                client.heartbeat()
                return cls(client, collection, f"Chroma server http://{host}:{port}", where, search_ef)
            path = Path(data_dir) / "chroma"
            path.mkdir(parents=True, exist_ok=True)
            return cls(chromadb.PersistentClient(path=str(path), settings=telemetry), collection, str(path), where,
                       search_ef)
        except StoreError:
            raise
        except Exception as exc:  # chromadb raises many types; the user needs one clear message
            place = f"Chroma server at {host}:{port}" if host else f"Chroma store in {data_dir}"
            raise StoreError(f"Could not open the {place}: {_reason(exc)}") from exc

    def count(self) -> int:
        return self._collection.count()

    def paper_states(self) -> dict[str, PaperState]:
        """Per paper: stored hash and chunk completeness, read from chunk metadata only.

        A paper whose chunks disagree on the hash (a crash mid-update) gets an empty
        hash, so it never matches the corpus and is re-indexed.
        """
        hashes: dict[str, set[str]] = defaultdict(set)
        present: Counter[str] = Counter()
        expected: dict[str, int] = {}
        for meta in self._iter_metadatas():
            pid = str(meta["paper_id"])
            hashes[pid].add(str(meta["paper_hash"]))
            present[pid] += 1
            expected[pid] = int(meta["n_chunks"])
        return {
            pid: PaperState(
                content_hash=next(iter(found)) if len(found) == 1 else "",
                expected_chunks=expected[pid],
                present_chunks=present[pid],
            )
            for pid, found in hashes.items()
        }

    def _iter_metadatas(self, page: int = 5000) -> Iterator[dict]:
        offset = 0
        while True:
            batch = self._collection.get(include=["metadatas"], limit=page, offset=offset)
            metas = batch["metadatas"] or []
            yield from metas
            if len(metas) < page:
                return
            offset += page

    def add_paper_chunks(self, chunks: Sequence[Chunk], vectors: np.ndarray, paper_hashes: dict[str, str],
                         chunk_counts: dict[str, int], paper_metadata: Mapping[str, dict] | None = None) -> None:
        """Write chunks in batches no larger than the server accepts.

        ``paper_metadata`` (venue, year) is copied onto each chunk so ``query(where=...)`` can filter on it.
        """
        paper_metadata = paper_metadata or {}
        for lo in range(0, len(chunks), self._max_batch):
            part = chunks[lo : lo + self._max_batch]
            self._collection.upsert(
                ids=[c.id for c in part],
                embeddings=vectors[lo : lo + len(part)],
                documents=[c.text for c in part],
                metadatas=[
                    {
                        "paper_id": c.paper_id,
                        "chunk": c.index,
                        "start": c.start,
                        "end": c.end,
                        "paper_hash": paper_hashes[c.paper_id],
                        "n_chunks": chunk_counts[c.paper_id],
                        **paper_metadata.get(c.paper_id, {}),
                    }
                    for c in part
                ],
            )

    def delete_papers(self, paper_ids: Sequence[str]) -> None:
        for lo in range(0, len(paper_ids), 500):
            self._collection.delete(where={"paper_id": {"$in": list(paper_ids[lo : lo + 500])}})

    def query(self, vector: np.ndarray, n: int, paper_ids: Sequence[str] | None = None,
              where: dict | None = None) -> list[ChunkHit]:
        """Nearest chunks by cosine similarity, optionally only from some papers and matching ``where``.

        Named papers are scored exactly from their stored vectors: at 10,019 papers
        a Chroma query filtered by ``paper_id $in`` (20 papers) took 24 ms, reading
        the same chunks' vectors 6 ms. No ``count()`` first: Chroma returns fewer
        hits when asked for more than it holds, and counting cost 4 ms per search.
        """
        if paper_ids:
            return self._nearest_within(vector, n, paper_ids, where)
        result = self._collection.query(
            query_embeddings=[vector],
            n_results=n,
            where=where,
            include=["distances"],  # metadata rows cost 8 of 11 ms per 100 hits at 10k papers; the id says the paper
        )
        return [
            ChunkHit(chunk_id=cid, paper_id=paper_of(cid), similarity=1.0 - float(dist))
            for cid, dist in zip(result["ids"][0], result["distances"][0], strict=True)
        ]

    def _nearest_within(self, vector: np.ndarray, n: int, paper_ids: Sequence[str],
                        where: dict | None) -> list[ChunkHit]:
        ids, vectors = self._chunks_of(paper_ids) if where is None else self._chunks_where(paper_ids, where)
        if not ids:
            return []
        similarity = vectors @ vector / (np.linalg.norm(vectors, axis=1) * np.linalg.norm(vector) + 1e-12)
        best = np.argsort(-similarity, kind="stable")[:n]
        return [ChunkHit(chunk_id=ids[i], paper_id=paper_of(ids[i]), similarity=float(similarity[i])) for i in best]

    def _chunks_of(self, paper_ids: Sequence[str]) -> tuple[list[str], np.ndarray]:
        """The papers' chunk ids and vectors, asked for by id (``#0``, ``#1``, ...; absent ids are skipped).

        At 30,019 papers, 60 papers' chunks by id took 5 ms and by ``paper_id $in`` 17 ms.
        Papers that returned their last guessed chunk may have more: asked again for the next ones.
        """
        ids: list[str] = []
        rows: list[np.ndarray] = []
        wanted, first = list(dict.fromkeys(paper_ids)), 0
        while wanted:
            last = first + CHUNKS_PER_ASK - 1
            got = self._collection.get(ids=[chunk_id(p, i) for p in wanted for i in range(first, last + 1)],
                                       include=["embeddings"])
            ids += got["ids"]
            rows += [np.asarray(v, dtype=np.float32) for v in got["embeddings"]] if got["ids"] else []
            returned = set(got["ids"])
            wanted, first = [p for p in wanted if chunk_id(p, last) in returned], last + 1
        return ids, np.array(rows, dtype=np.float32)

    def _chunks_where(self, paper_ids: Sequence[str], where: dict) -> tuple[list[str], np.ndarray]:
        """The papers' chunks that match ``where`` (ids with a ``where`` took seconds in Chroma: filtered by paper)."""
        got = self._collection.get(where=_all_of([{"paper_id": {"$in": list(paper_ids)}}, where]),
                                   include=["embeddings"])
        return list(got["ids"]), np.asarray(got["embeddings"] if got["ids"] else [], dtype=np.float32)

    def paper_vectors(self, page: int = 5000) -> dict[str, np.ndarray]:
        """Each paper's mean chunk vector, read from the store.

        Topic maps need one vector per paper, not re-embedding.
        """
        sums: dict[str, np.ndarray] = {}
        counts: Counter[str] = Counter()
        offset = 0
        while True:
            batch = self._collection.get(include=["embeddings", "metadatas"], limit=page, offset=offset)
            metas = batch["metadatas"] or []
            for meta, vector in zip(metas, batch["embeddings"] if metas else [], strict=True):
                pid = str(meta["paper_id"])
                sums[pid] = sums.get(pid, 0.0) + np.asarray(vector, dtype=np.float32)
                counts[pid] += 1
            if len(metas) < page:
                return {pid: total / counts[pid] for pid, total in sums.items()}
            offset += page

    def get_vectors(self, chunk_ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors by chunk id, so follow-up work need not re-embed."""
        if not chunk_ids:
            return {}
        got = self._collection.get(ids=list(chunk_ids), include=["embeddings"])
        return {cid: np.asarray(vec, dtype=np.float32) for cid, vec in zip(got["ids"], got["embeddings"], strict=True)}
