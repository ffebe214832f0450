"""Ingest: bring the vector store in line with the corpus, embedding only what changed.

Papers are written in small groups, each paper's chunks tagged with its content
hash and chunk count. If ingest is interrupted, every group already written stays
usable, and the next run finds the half-written paper (wrong count or mixed
hashes) and redoes just that one. Re-running on an unchanged corpus embeds nothing.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from tqdm import tqdm

from .chunking import Chunk, chunk_paper
from .corpus import Paper, content_hash

if TYPE_CHECKING:  # annotations only: `rag papers` resolves the corpus without loading chromadb or torch
    from .embedding import Embedder
    from .store import VectorStore
from .filters import chunk_metadata
from .sentence_index import ingest_sentences
from .word_vectors import ingest_words

PAPERS_PER_WRITE = 64


@dataclass
class IngestReport:
    """What one ingest did, for the CLI and the tests."""

    papers: int = 0
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    chunks_embedded: int = 0
    sentences_embedded: int = 0
    words_embedded: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        return (
            f"{self.papers} papers: {self.added} added, {self.updated} updated, {self.removed} removed, "
            f"{self.unchanged} unchanged; {self.chunks_embedded} chunks embedded"
            f"{f', {self.sentences_embedded} sentences' if self.sentences_embedded else ''}"
            f"{f', {self.words_embedded} word forms' if self.words_embedded else ''} in {self.seconds:.1f}s"
        )


def stored_hash(paper: Paper, signature: str) -> str:
    """What a paper's chunks are tagged with: its content and how it was chunked and embedded.

    Changing the model or the chunk size changes every tag, so the whole corpus is
    re-embedded instead of mixing two kinds of vectors in one collection.
    """
    return f"{paper.content_hash}:{signature}{filter_tag(paper)}"


def filter_tag(paper: Paper) -> str:
    """Venue and year as part of the stored hash: a paper whose venue or year changed is
    rewritten, so its chunks' filter metadata in Chroma never goes stale."""
    meta = chunk_metadata(paper)
    return f"|{meta.get('venue', '')}|{meta.get('year', '')}" if meta else ""


def index_signature(embedder: Embedder, max_tokens: int, overlap_sentences: int) -> str:
    digest = hashlib.sha256(f"{embedder.model_path}|{max_tokens}|{overlap_sentences}".encode()).hexdigest()
    return digest[:8]


def plan(papers: Sequence[Paper], store: VectorStore, signature: str) -> tuple[list[Paper], list[str], IngestReport]:
    """Decide which papers to (re)embed and which papers' stored chunks to delete."""
    states = store.paper_states()
    wanted = {p.id for p in papers}
    report = IngestReport(papers=len(papers))
    todo: list[Paper] = []
    drop: list[str] = []
    for paper in papers:
        state = states.get(paper.id)
        if state is None:
            report.added += 1
            todo.append(paper)
        elif state.content_hash != stored_hash(paper, signature) or not state.complete:
            report.updated += 1
            todo.append(paper)
            drop.append(paper.id)  # old chunks go first: a shorter new version leaves no orphans
        else:
            report.unchanged += 1
    stale = [pid for pid in states if pid not in wanted]
    report.removed = len(stale)
    return todo, drop + stale, report


def ingest(papers: Sequence[Paper], store: VectorStore, embedder: Embedder, max_tokens: int,
           overlap_sentences: int, progress: bool = True, data_dir: Path | None = None) -> IngestReport:
    """Make the store hold exactly ``papers``; returns what changed.

    Chunks never exceed the model's own window, whatever ``max_tokens`` says:
    the model would silently drop the rest. With ``data_dir``, every paper's
    sentence vectors are stored there too (``sentence_index``), so answering
    never encodes abstract sentences, and so are its word forms' (``word_vectors``).
    """
    started = time.perf_counter()
    max_tokens = min(max_tokens, embedder.max_tokens)
    signature = index_signature(embedder, max_tokens, overlap_sentences)
    todo, drop, report = plan(papers, store, signature)
    if drop:
        store.delete_papers(drop)
    bar = tqdm(total=len(todo), desc="Embedding papers", unit="paper", disable=not progress or not todo)
    for lo in range(0, len(todo), PAPERS_PER_WRITE):
        group = todo[lo : lo + PAPERS_PER_WRITE]
        report.chunks_embedded += _write_group(group, store, embedder, max_tokens, overlap_sentences, signature)
        bar.update(len(group))
    bar.close()
    if data_dir is not None:
        report.sentences_embedded = ingest_sentences(papers, data_dir, embedder, progress)
        report.words_embedded = ingest_words(papers, data_dir, embedder, progress)
    report.seconds = time.perf_counter() - started
    return report


def _write_group(group: Sequence[Paper], store: VectorStore, embedder: Embedder, max_tokens: int,
                 overlap_sentences: int, signature: str) -> int:
    chunks: list[Chunk] = []
    counts: dict[str, int] = {}
    for paper in group:
        paper_chunks = chunk_paper(paper, embedder.count_tokens, max_tokens, overlap_sentences)
        counts[paper.id] = len(paper_chunks)
        chunks.extend(paper_chunks)
    vectors = embedder.embed([c.text for c in chunks])
    store.add_paper_chunks(chunks, vectors, {p.id: stored_hash(p, signature) for p in group}, counts,
                           {p.id: chunk_metadata(p) for p in group})
    return len(chunks)


def cap_abstracts(papers: Sequence[Paper], max_chars: int) -> tuple[list[Paper], list[str]]:
    """Cut abstracts longer than ``max_chars`` (at a word boundary); one warning per cut paper.

    One 1 MB "abstract" made 1,300 chunks and slowed every later question to
    minutes; real abstracts are a few thousand characters. The hash is of the
    kept text, so changing the limit re-indexes exactly the papers it affects.
    """
    kept: list[Paper] = []
    warnings: list[str] = []
    for paper in papers:
        if len(paper.text) <= max_chars:
            kept.append(paper)
            continue
        cut = paper.text[:max_chars].rsplit(None, 1)[0] if " " in paper.text[:max_chars] else paper.text[:max_chars]
        kept.append(replace(paper, text=cut, content_hash=content_hash(cut, paper.title)))
        warnings.append(f"Paper {paper.id}'s abstract is {len(paper.text):,} characters long; only the first "
                        f"{len(cut):,} are indexed (max_abstract_chars = {max_chars:,}).")
    return kept, warnings


MANIFEST = "corpus.json"


def remembered_corpus(data_dir: Path) -> list[Path] | None:
    """The corpus paths last ingested into this data dir, if any."""
    path = Path(data_dir) / MANIFEST
    if not path.is_file():
        return None
    try:
        return [Path(p) for p in json.loads(path.read_text())["corpus"]]
    except (ValueError, KeyError, TypeError):
        return None


def remember_corpus(data_dir: Path, paths: Sequence[Path]) -> None:
    """Record which files this index holds, so later commands don't need them again."""
    Path(data_dir).mkdir(parents=True, exist_ok=True)
    tmp = Path(data_dir) / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps({"corpus": [str(Path(p).resolve()) for p in paths]}, indent=1))
    tmp.replace(Path(data_dir) / MANIFEST)


def resolve_corpus(explicit: Sequence[Path] | None, data_dir: Path, default: Path) -> list[Path]:
    """Explicit paths win; else what this index was built from; else the shipped seeds."""
    if explicit:
        return list(explicit)
    return remembered_corpus(data_dir) or [default]
