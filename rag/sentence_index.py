"""Sentence vectors computed at ingest and read back at question time.

Profiling a warm extractive answer on the 19 seeds showed 87% of its time spent
embedding abstract sentences (issue 10). So ingest encodes every sentence of every
paper once and appends the vectors to a flat file in the data dir; answering only
reads them (a memory map: no encoder, no Chroma round trip).

Why sentences are encoded on their own rather than pooled from the chunk pass
(``benchmarks/README.md``, probe on 600 random ML abstracts): vectors pooled from a
sentence's tokens inside its chunk agree with the standalone vectors at mean cosine
0.75 only (5th percentile 0.52), and for 29% of papers they pick a different best
sentence for the paper's own title. They carry the whole chunk's context, so every
sentence of a paper looks alike: good for finding the paper, bad for choosing which
sentence to quote. The answer engine's thresholds (``min_relevance``, support
scores) and the on-the-fly fallback use standalone vectors, so stored vectors must be
the same kind. The price is a second encoder pass over short texts at ingest.

Layout of ``data_dir/sentences``:

* ``vectors-<dim>.f16`` -- float16 rows, appended group by group (half the disk
  and page cache of float32; similarities move by < 1e-3).
* ``offsets.tsv`` -- one line per paper, ``key<TAB>first row<TAB>rows``, appended
  only after that paper's rows are flushed to disk. A crash leaves at most rows
  beyond the last logged one (cut off by the next append) or a torn last line
  (ignored), never a logged paper without its vectors.

A paper's key is its content hash plus a signature of the model and the sentence
splitter, so vectors from another model never mix in, and an edited paper gets new
rows (the old ones become garbage, reclaimed by :func:`compact` when they outweigh
the live rows).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
from tqdm import tqdm

from .chunking import Sentence, split_sentences
from .corpus import Paper
from .embedding import Embedder
from .paper_cache import PaperCache

FOLDER = "sentences"
OFFSETS = "offsets.tsv"
STORED_DTYPE = np.float16
SPLITTER_VERSION = 1  # bump when split_sentences changes: stored rows no longer line up with sentences
PAPERS_PER_APPEND = 256  # papers encoded and appended per group: bounds work lost to a crash
FALLBACK_CAPACITY = 2000  # papers missing from the stored index kept encoded (LRU), like the old SentenceBank

SentenceVectors = tuple[list[Sentence], np.ndarray]


def sentence_signature(embedder: Embedder) -> str:
    """Which model (and backend) and splitter made the vectors: part of every key."""
    backend = getattr(embedder, "backend", "torch")
    payload = f"{embedder.model_path}|{backend}|{SPLITTER_VERSION}"
    return hashlib.sha256(payload.encode()).hexdigest()[:8]


def sentence_key(paper: Paper, signature: str) -> str:
    return f"{paper.content_hash}:{signature}"


class SentenceFile:
    """An append-only vector file and its offsets log, rows by key (one writer; any number of readers).

    Sentence vectors live in ``FOLDER``; ``word_vectors`` keeps word forms in a folder of its own.
    """

    def __init__(self, data_dir: Path, dimension: int, folder: str = FOLDER) -> None:
        self.folder = Path(data_dir) / folder
        self.dimension = dimension
        self.vectors_path = self.folder / f"vectors-{dimension}.f16"
        self.offsets_path = self.folder / OFFSETS
        self.offsets: dict[str, tuple[int, int]] = {}
        self._offsets_size = -1
        self._rows: np.ndarray | None = None

    @property
    def logged_rows(self) -> int:
        """Rows covered by the log: everything after them is an interrupted append."""
        return max((start + count for start, count in self.offsets.values()), default=0)

    def refresh(self) -> None:
        """Re-read the log and re-map the vectors if another process appended since."""
        size = self.offsets_path.stat().st_size if self.offsets_path.is_file() else 0
        if size == self._offsets_size:
            return
        self.offsets = _read_offsets(self.offsets_path)
        self._offsets_size = size
        self._rows = None

    def rows(self) -> np.ndarray:
        """All logged rows as a read-only (rows, dimension) float16 memory map."""
        if self._rows is None:
            count = self.logged_rows
            if count == 0:
                self._rows = np.zeros((0, self.dimension), dtype=STORED_DTYPE)
            else:
                self._rows = np.memmap(self.vectors_path, dtype=STORED_DTYPE, mode="r",
                                       shape=(count, self.dimension))
        return self._rows

    def append(self, entries: Sequence[tuple[str, np.ndarray]]) -> None:
        """Append papers' vectors, then log them; the log line is the commit."""
        self.refresh()
        self.folder.mkdir(parents=True, exist_ok=True)
        start = self.logged_rows
        lines = []
        with open(self.vectors_path, "ab") as out:
            out.truncate(start * self.dimension * np.dtype(STORED_DTYPE).itemsize)  # drop a torn append
            for key, vectors in entries:
                out.write(np.ascontiguousarray(vectors, dtype=STORED_DTYPE).tobytes())
                lines.append(f"{key}\t{start}\t{len(vectors)}\n")
                start += len(vectors)
            out.flush()
            os.fsync(out.fileno())
        _cut_torn_line(self.offsets_path)
        with open(self.offsets_path, "a", encoding="utf-8") as log:
            log.write("".join(lines))
            log.flush()
            os.fsync(log.fileno())
        self.refresh()


def _cut_torn_line(path: Path) -> None:
    """Drop a last line without its newline (a crash mid-write), so the next line starts clean."""
    if not path.is_file():
        return
    with open(path, "rb+") as log:
        data = log.read()
        if data and not data.endswith(b"\n"):
            log.truncate(data.rfind(b"\n") + 1)


def _read_offsets(path: Path) -> dict[str, tuple[int, int]]:
    """The log as key -> (first row, rows); a torn or garbled line is skipped (its paper is redone)."""
    offsets: dict[str, tuple[int, int]] = {}
    if not path.is_file():
        return offsets
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        parts = line.rstrip("\n").split("\t")
        if not line.endswith("\n") or len(parts) != 3 or not (parts[1].isdigit() and parts[2].isdigit()):
            continue
        offsets[parts[0]] = (int(parts[1]), int(parts[2]))
    return offsets


def ingest_sentences(papers: Sequence[Paper], data_dir: Path, embedder: Embedder, progress: bool = True) -> int:
    """Encode and store the sentences of every paper not stored yet; returns sentences encoded.

    Independent of the chunk write: whatever order a crash interrupts the two in,
    the next run finds exactly the papers whose sentences are missing.
    """
    file = SentenceFile(data_dir, embedder.dimension)
    file.refresh()
    signature = sentence_signature(embedder)
    todo = list({sentence_key(p, signature): p for p in papers
                 if sentence_key(p, signature) not in file.offsets}.items())
    encoded = 0
    bar = tqdm(total=len(todo), desc="Embedding sentences", unit="paper", disable=not progress or not todo)
    for lo in range(0, len(todo), PAPERS_PER_APPEND):
        group = todo[lo : lo + PAPERS_PER_APPEND]
        split = [split_sentences(paper.text) for _, paper in group]
        vectors = embedder.embed([s.text for sentences in split for s in sentences])
        file.append([(key, part) for (key, _), part in zip(group, _split_rows(vectors, split), strict=True)])
        encoded += len(vectors)
        bar.update(len(group))
    bar.close()
    compact_if_wasteful(file, {sentence_key(p, signature) for p in papers})
    return encoded


def _split_rows(vectors: np.ndarray, split: Sequence[Sequence[Sentence]]) -> Iterable[np.ndarray]:
    row = 0
    for sentences in split:
        yield vectors[row : row + len(sentences)]
        row += len(sentences)


def compact_if_wasteful(file: SentenceFile, live: set[str]) -> bool:
    """Rewrite the file with only ``live`` papers once dead rows outnumber live ones.

    Edited and removed papers leave their old rows behind; without this a corpus
    re-ingested many times would grow without bound. Written to temporary files
    and renamed, vectors first: a crash leaves either the old or the new pair.
    """
    file.refresh()
    live_rows = sum(count for key, (_, count) in file.offsets.items() if key in live)
    if file.logged_rows - live_rows <= live_rows:
        return False
    rows = file.rows()
    kept = [(key, np.asarray(rows[start : start + count])) for key, (start, count) in file.offsets.items()
            if key in live]
    fresh = SentenceFile(file.folder.parent, file.dimension, file.folder.name + ".compact")
    for path in (fresh.vectors_path, fresh.offsets_path):
        path.unlink(missing_ok=True)
    fresh.append(kept)
    os.replace(fresh.vectors_path, file.vectors_path)
    os.replace(fresh.offsets_path, file.offsets_path)
    fresh.folder.rmdir()
    file._offsets_size = -1
    file.refresh()
    return True


class SentenceIndex:
    """Sentences of papers and their unit vectors, read from ingest's file; encoded only when missing.

    ``get`` has the contract of ``extractive.SentenceBank.get``. Papers not in the
    stored index (ingest skipped, or another model) are encoded on the fly and kept
    in a small LRU, so answers still work, just slower.
    """

    def __init__(self, data_dir: Path, embedder: Embedder, papers: Sequence[Paper] | Mapping[str, Paper],
                 fallback_capacity: int = FALLBACK_CAPACITY) -> None:
        self.embedder = embedder
        self.papers = dict(papers) if isinstance(papers, Mapping) else {p.id: p for p in papers}
        self.signature = sentence_signature(embedder)
        self._file = SentenceFile(data_dir, embedder.dimension)
        self._lock = threading.Lock()  # one assistant serves every UI session, each in its own thread
        self._fallback: PaperCache[SentenceVectors] = PaperCache(fallback_capacity)

    def load(self) -> None:
        """Read the log and map the rows now rather than on the first answer."""
        with self._lock:
            self._file.refresh()
            self._file.rows()

    def stored(self, paper: Paper) -> bool:
        """Whether the paper's sentence vectors come from the stored index (no encoding)."""
        with self._lock:
            return self._span(paper) is not None

    def get(self, papers: Sequence[Paper]) -> dict[str, SentenceVectors]:
        """Per paper id: its sentences (``split_sentences(paper.text)``) and one unit float32 row each."""
        with self._lock:
            spans = {p.id: self._span(p) for p in papers}
            out = {p.id: self._read(p, span) for p in papers if (span := spans[p.id]) is not None}
            missing = [p for p in papers if p.id not in out]
            out.update(self._encode(missing))
            return {p.id: out[p.id] for p in papers}

    def max_sim(self, query_vector: np.ndarray, paper_ids: Sequence[str]) -> dict[str, float]:
        """Each paper's best sentence similarity to a unit query vector, in one matrix product.

        Papers without sentences are left out; unknown ids raise KeyError.
        """
        papers = [self.papers[pid] for pid in dict.fromkeys(paper_ids)]
        with self._lock:
            spans = {p.id: self._span(p) for p in papers}
            stored = [(p.id, span) for p, span in ((p, spans[p.id]) for p in papers) if span and span[1]]
            rows = self._file.rows()
            index = np.concatenate([np.arange(s, s + n) for _, (s, n) in stored]) if stored else np.zeros(0, int)
            best = _segment_max(_unit(np.asarray(rows[index], dtype=np.float32)) @ query_vector,
                                [n for _, (_, n) in stored])
            out = {pid: float(b) for (pid, _), b in zip(stored, best, strict=True)}
            encoded = self._encode([p for p in papers if spans[p.id] is None])
        out.update({pid: float((vectors @ query_vector).max()) for pid, (_, vectors) in encoded.items()
                    if len(vectors)})
        return out

    def _span(self, paper: Paper) -> tuple[int, int] | None:
        key = sentence_key(paper, self.signature)
        if key not in self._file.offsets:
            self._file.refresh()  # an ingest in this or another process may have added it
        return self._file.offsets.get(key)

    def _read(self, paper: Paper, span: tuple[int, int]) -> SentenceVectors:
        start, count = span
        sentences = split_sentences(paper.text)
        if len(sentences) != count:  # a splitter change without a version bump: never misalign
            return self._encode([paper])[paper.id]
        return sentences, _unit(np.asarray(self._file.rows()[start : start + count], dtype=np.float32))

    def _encode(self, papers: Sequence[Paper]) -> dict[str, SentenceVectors]:
        return self._fallback.get(papers, self._encoded)

    def _encoded(self, papers: Sequence[Paper]) -> dict[str, SentenceVectors]:
        split = [split_sentences(p.text) for p in papers]
        vectors = self.embedder.embed([s.text for sentences in split for s in sentences])
        return {paper.id: (sentences, part)
                for paper, sentences, part in zip(papers, split, _split_rows(vectors, split), strict=True)}


def _unit(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled back to length 1 (float16 storage leaves them off by up to ~1e-3)."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1.0)


def _segment_max(values: np.ndarray, lengths: Sequence[int]) -> np.ndarray:
    """Maximum of each consecutive run of ``lengths`` values (all lengths > 0)."""
    if not lengths:
        return np.zeros(0, dtype=np.float32)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    return np.maximum.reduceat(values, starts)
