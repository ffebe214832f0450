"""What an index knows on its own: the paper records it was built from, and who may write it.

Reading commands (``rag ask``, ``chat``, ``papers``, ``ui``) used to re-read the
original corpus files and re-sync the store from them: moving a file broke them,
and editing one made a plain question silently delete papers from the index.
Now ``rag ingest`` saves the paper records next to the store, with a fingerprint
of the corpus files it read; readers use those records, never write, and only
warn when the files have changed since. Writers take one lock per data dir, so a
second ``rag ingest`` (or a first-run build racing it) gets a clear message
instead of interleaving its writes with the first.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

from filelock import FileLock, Timeout

from .corpus import Paper
from .store import StoreError

PAPERS_FILE = "papers.jsonl"  # one paper record per line, written atomically at the end of an ingest
STATE_FILE = "index.json"  # the corpus fingerprint of that ingest
LOCK_FILE = "ingest.lock"
# A writer that finds the lock taken gives up at once: ingest can take many minutes,
# and a user is better told so now than left waiting on a silent prompt.
WRITER_LOCK_WAIT = 0.0
CORPUS_CHANGED = "The corpus files changed since the last ingest; run `rag ingest` to update."


class IndexBusyError(StoreError):
    """Another process is writing this index."""


@contextmanager
def writer_lock(data_dir: Path) -> Iterator[None]:
    """Hold the single-writer lock of ``data_dir`` for the block, or raise IndexBusyError."""
    Path(data_dir).mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(Path(data_dir) / LOCK_FILE), timeout=WRITER_LOCK_WAIT)
    try:
        lock.acquire()
    except Timeout:
        raise IndexBusyError(f"Another `rag ingest` is writing to {data_dir}; wait for it to finish.") from None
    try:
        yield
    finally:
        lock.release()


def corpus_fingerprint(paths: Sequence[Path]) -> str:
    """Changes when any corpus file is added, removed, moved, resized or touched.

    File metadata rather than content: reading a large corpus on every question
    would cost what this module saves. A touched but unchanged file only costs a
    needless "run rag ingest" warning.
    """
    digest = hashlib.sha256()
    for root in paths:
        root = Path(root).resolve()
        files = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else [root]
        for file in files:
            try:
                stat = file.stat()
                digest.update(f"{file}\t{stat.st_size}\t{stat.st_mtime_ns}\n".encode())
            except OSError:
                digest.update(f"{file}\tmissing\n".encode())
    return digest.hexdigest()[:16]


def save_papers(data_dir: Path, papers: Sequence[Paper], corpus: Sequence[Path]) -> None:
    """Store the records an ingest indexed, then its fingerprint (each file replaced atomically)."""
    folder = Path(data_dir)
    _replace(folder / PAPERS_FILE, "".join(json.dumps(_record(p), ensure_ascii=False) + "\n" for p in papers))
    _replace(folder / STATE_FILE, json.dumps({"fingerprint": corpus_fingerprint(corpus), "papers": len(papers)}))


def stored_papers(data_dir: Path) -> list[Paper] | None:
    """The papers of the last complete ingest, or None if there is none (or the file is damaged)."""
    path = Path(data_dir) / PAPERS_FILE
    if not path.is_file():
        return None
    try:
        return [_paper(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line]
    except (ValueError, KeyError, TypeError):
        return None  # rebuilt by the next writer, like a missing file


def corpus_changed(data_dir: Path, corpus: Sequence[Path]) -> bool:
    """Whether the corpus files differ from those the stored records came from."""
    try:
        saved = json.loads((Path(data_dir) / STATE_FILE).read_text(encoding="utf-8"))["fingerprint"]
    except (OSError, ValueError, KeyError, TypeError):
        return True
    return saved != corpus_fingerprint(corpus)


def _record(paper: Paper) -> dict:
    record = asdict(paper)
    record["links"] = list(paper.links)
    return record


def _paper(record: dict) -> Paper:
    return Paper(**{**record, "links": tuple(record.get("links") or ())})


def _replace(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
