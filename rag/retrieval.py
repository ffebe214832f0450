"""Find the papers that answer a question: dense chunks + BM25 papers, fused by score.

Dense retrieval works on chunks (several per long abstract) and a paper counts as
close as its closest chunk. BM25 works on whole papers. Both candidate pools are
united, every candidate gets *both* scores (a BM25-only candidate's chunks are
looked up in the vector store), and the final score is

    cosine similarity + lexical_weight * normalised BM25

Score fusion rather than rank fusion, because rank fusion lets a lexical rank-1
hit that shares only filler words with a paraphrased question outrank the paper
the dense model found (see ``lexical`` for the normalisation).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from .corpus import Paper
from .embedding import Embedder
from .filters import FilterColumns, Filters
from .lexical import LexicalIndex, matched_terms
from .store import VectorStore
from .types import Source

Mode = Literal["hybrid", "dense", "bm25"]
SentenceSimilarity = Callable[[np.ndarray, Sequence[str]], dict[str, float]]


@dataclass(frozen=True)
class Scored:
    """A candidate paper with its component scores, before numbering."""

    paper_id: str
    score: float
    dense: float
    lexical: float


class Retriever:
    """Hybrid retrieval over one indexed corpus."""

    def __init__(self, papers: Mapping[str, Paper], store: VectorStore, embedder: Embedder,
                 lexical: LexicalIndex, candidates: int = 100, lexical_weight: float = 0.3,
                 rerank: int = 0, sentence_similarity: SentenceSimilarity | None = None,
                 sentence_weight: float = 0.0) -> None:
        self.papers = papers
        self.store = store
        self.embedder = embedder
        self.lexical = lexical
        self.candidates = candidates
        self.lexical_weight = lexical_weight
        self.rerank = rerank if sentence_similarity else 0
        self.sentence_similarity = sentence_similarity
        self.sentence_weight = sentence_weight if sentence_similarity else 0.0
        self._columns = FilterColumns([papers[pid] for pid in lexical.paper_ids])

    def search(self, query: str, k: int, paper_ids: Sequence[str] | None = None,
               mode: Mode = "hybrid", filters: Filters | None = None) -> list[Source]:
        """The k best papers, numbered 1..k, optionally only among ``paper_ids`` and matching ``filters``."""
        ranked = self.rank(query, paper_ids=paper_ids, mode=mode, filters=filters)[:k]
        return [self.to_source(i + 1, s, query) for i, s in enumerate(ranked)]

    def to_source(self, number: int, scored: Scored, query: str) -> Source:
        paper = self.papers[scored.paper_id]
        return Source(number, paper, scored.score, scored.dense, scored.lexical,
                      matched_terms(query, f"{paper.label} {paper.text}"))

    def rank(self, query: str, paper_ids: Sequence[str] | None = None, mode: Mode = "hybrid",
             pool: int | None = None, filters: Filters | None = None, describing: bool = False) -> list[Scored]:
        """Candidate papers, best first, with both component scores filled in.

        ``filters`` (venue, year) apply inside Chroma (``where``) and to the BM25 rows alike. ``describing``: the
        query is a short description of one paper, whose words no abstract has count against a lexical match
        (``LexicalIndex.scores``).
        """
        pool = pool or self.candidates
        filters = filters or Filters()
        allowed = [p for p in paper_ids if p in self.papers and filters.matches(self.papers[p])] \
            if paper_ids else None
        if paper_ids and not allowed:
            return []
        where = None if allowed else filters.chroma_where()  # explicit ids were filtered above
        vector = self.embedder.embed_query(query)
        dense = {} if mode == "bm25" else self._dense(vector, pool, allowed, where)
        lexical_scores = self.lexical.scores(query, unseen_count=describing)
        lexical_top = [] if mode == "dense" else self._lexical_top(lexical_scores, pool, allowed, filters)
        if mode == "hybrid":
            missing = [pid for pid in lexical_top if pid not in dense]
            dense.update(self._dense(vector, 4 * len(missing), missing) if missing else {})
        candidates = set(dense) | set(lexical_top)
        scored = [self._score(pid, dense.get(pid, 0.0), float(lexical_scores[self.lexical.row(pid)]), mode)
                  for pid in candidates]
        if mode == "hybrid" and self.sentence_weight and scored:
            scored = self._add_sentences(vector, scored)
        ranked = sorted(scored, key=lambda s: (-s.score, s.paper_id))
        return self._rerank(vector, ranked) if mode == "hybrid" and self.rerank else ranked

    def _add_sentences(self, vector: np.ndarray, scored: list[Scored]) -> list[Scored]:
        """Add each candidate's best stored sentence similarity, weighted, to its fused score.

        A chunk vector averages several sentences; a query that paraphrases one
        claim matches that sentence better (see the README for the measured effect).
        """
        if self.sentence_similarity is None:  # never: sentence_weight is 0 without it
            return scored
        best = self.sentence_similarity(vector, [s.paper_id for s in scored])
        return [Scored(s.paper_id, s.score + self.sentence_weight * best.get(s.paper_id, s.dense), s.dense, s.lexical)
                for s in scored]

    def _rerank(self, vector: np.ndarray, ranked: list[Scored]) -> list[Scored]:
        """Re-order the top candidates with their best single sentence as well as their best chunk.

        A chunk vector averages a whole abstract; a question about one claim can
        match one sentence far better. The re-ordered head stays above the tail.
        """
        if self.sentence_similarity is None:  # never: rerank is 0 without it
            return ranked
        head, tail = ranked[: self.rerank], ranked[self.rerank :]
        best_sentence = self.sentence_similarity(vector, [s.paper_id for s in head])
        rescored = [Scored(s.paper_id, 0.5 * (s.dense + best_sentence.get(s.paper_id, s.dense))
                           + self.lexical_weight * s.lexical, s.dense, s.lexical) for s in head]
        return sorted(rescored, key=lambda s: (-s.score, s.paper_id)) + tail

    def _score(self, pid: str, dense: float, lexical: float, mode: Mode) -> Scored:
        if mode == "dense":
            total = dense
        elif mode == "bm25":
            total = lexical
        else:
            total = dense + self.lexical_weight * lexical
        return Scored(pid, total, dense, lexical)

    def _dense(self, vector: np.ndarray, pool: int, paper_ids: Sequence[str] | None,
               where: dict | None = None) -> dict[str, float]:
        """Best chunk similarity per paper among the nearest ``pool`` chunks."""
        best: dict[str, float] = {}
        for hit in self.store.query(vector, pool, paper_ids, where):
            if hit.paper_id not in self.papers:  # written by an ingest still running; not ours to show yet
                continue
            if hit.similarity > best.get(hit.paper_id, -1.0):
                best[hit.paper_id] = hit.similarity
        return best

    def _lexical_top(self, scores: np.ndarray, pool: int, allowed: Sequence[str] | None,
                     filters: Filters) -> list[str]:
        ids = self.lexical.paper_ids
        if allowed is not None:
            rows = np.array([self.lexical.row(p) for p in allowed], dtype=np.int64)
        else:
            rows = np.flatnonzero(self._columns.mask(filters)) if filters else np.arange(len(ids))
        rows = rows[scores[rows] > 0]
        top = rows[np.argsort(-scores[rows], kind="stable")[:pool]]
        return [ids[r] for r in top]
