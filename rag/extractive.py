"""The offline default answer: the abstracts' own best sentences, each cited.

No instruction-tuned model good enough to write answers ships in a package, so
with no endpoint configured we answer by quotation. Every sentence of the
answer is a sentence of a source abstract, so every citation is supported by
construction; the work is in choosing which sentences, and in refusing when
nothing is close enough.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .chunking import Sentence, split_sentences
from .corpus import Paper
from .embedding import Embedder
from .lexical import content_stems
from .retrieval import Source

SIMILARITY_SHARE = 0.7  # the rest of a sentence's score is lexical overlap with the question
KEEP_WITHIN = 0.8  # further sentences must score at least this share of the best one
REFUSAL = "The abstracts in this corpus don't answer this question."


@dataclass(frozen=True)
class Evidence:
    """A sentence of a source abstract scored against the question."""

    source: int
    paper_id: str
    sentence: Sentence
    similarity: float
    overlap: float

    @property
    def score(self) -> float:
        return SIMILARITY_SHARE * self.similarity + (1 - SIMILARITY_SHARE) * self.overlap


@dataclass
class ExtractiveAnswer:
    text: str
    evidence: list[Evidence]
    refused: bool


class SentenceBank:
    """Sentences of papers and their embeddings, computed once per paper and kept (LRU)."""

    def __init__(self, embedder: Embedder, capacity: int = 2000) -> None:
        self.embedder = embedder
        self.capacity = capacity
        self._cache: OrderedDict[str, tuple[list[Sentence], np.ndarray]] = OrderedDict()

    def get(self, papers: Sequence[Paper]) -> dict[str, tuple[list[Sentence], np.ndarray]]:
        missing = [p for p in papers if p.id not in self._cache]
        if missing:
            split = {p.id: split_sentences(p.text) for p in missing}
            flat = [s.text for p in missing for s in split[p.id]]
            vectors = self.embedder.embed(flat)
            row = 0
            for paper in missing:
                count = len(split[paper.id])
                self._cache[paper.id] = (split[paper.id], vectors[row : row + count])
                row += count
        out = {}
        for paper in papers:
            self._cache.move_to_end(paper.id)
            out[paper.id] = self._cache[paper.id]
        while len(self._cache) > self.capacity:
            self._cache.popitem(last=False)
        return out


def score_evidence(question: str, question_vector: np.ndarray, sources: Sequence[Source],
                   bank: SentenceBank) -> list[Evidence]:
    """Every sentence of every source, best first."""
    wanted = content_stems(question)
    banked = bank.get([s.paper for s in sources])
    evidence: list[Evidence] = []
    for source in sources:
        sentences, vectors = banked[source.paper.id]
        similarities = vectors @ question_vector if len(sentences) else np.zeros(0)
        for sentence, similarity in zip(sentences, similarities):
            overlap = len(wanted & content_stems(sentence.text)) / len(wanted) if wanted else 0.0
            evidence.append(Evidence(source.number, source.paper.id, sentence, float(similarity), overlap))
    return sorted(evidence, key=lambda e: -e.score)


def select(evidence: Sequence[Evidence], limit: int) -> list[Evidence]:
    """The best sentence and any close runners-up, at most ``limit``."""
    if not evidence:
        return []
    best = evidence[0].score
    return [e for e in evidence if e.score >= KEEP_WITHIN * best][:limit]


def cite_sentence(text: str, number: int) -> str:
    """Put the marker inside the sentence's final punctuation: "... 12,326 trajectories [1]."."""
    text = text.rstrip()
    if text and text[-1] in ".!?":
        return f"{text[:-1]} [{number}]{text[-1]}"
    return f"{text} [{number}]"


def render(chosen: Sequence[Evidence], sources: Sequence[Source]) -> str:
    """Group sentences by paper (best paper first), in abstract order within a paper."""
    by_number = {s.number: s for s in sources}
    paragraphs = []
    for number in dict.fromkeys(e.source for e in chosen):
        source = by_number[number]
        sentences = sorted((e.sentence for e in chosen if e.source == number), key=lambda s: s.start)
        body = " ".join(cite_sentence(s.text, number) for s in sentences)
        paragraphs.append(f"**{source.paper.label}** ({source.paper.id}): {body}")
    return "\n\n".join(paragraphs)


def answer(question: str, question_vector: np.ndarray, sources: Sequence[Source], bank: SentenceBank,
           limit: int, min_relevance: float) -> ExtractiveAnswer:
    """Quote the best-matching sentences, or refuse when none is relevant enough."""
    evidence = score_evidence(question, question_vector, sources, bank)
    if not evidence or max(e.similarity for e in evidence) < min_relevance:
        return ExtractiveAnswer(REFUSAL, evidence[:limit], refused=True)
    chosen = select(evidence, limit)
    return ExtractiveAnswer(render(chosen, sources), chosen, refused=False)
