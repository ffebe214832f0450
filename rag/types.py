"""The shared vocabulary every layer speaks: conversation messages, sources, evidence.

It sits at the bottom of the package (it imports only the corpus, chunking and
role data types), so planning, retrieval, evidence, composing, the CLI and the UI
can all use these types without importing each other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .chunking import Sentence
from .corpus import Paper
from .roles import Role

# A citation marker, the one definition every layer uses: [3]  [1, 2]  [1][2]  [1-3]  [1–3]
CITATION = re.compile(r"(?P<lead>[ \t]?)\[(?P<nums>\d{1,3}(?:\s*(?:,|;|-|–)\s*\d{1,3})*)\]")


# A bracketed number in an abstract's own text, of any length: "the interval [0, 1]", "Santoro et al. [2017]".
_BRACKETED_NUMBER = re.compile(r"\[\d+(?:\s*(?:,|;|-|–)\s*\d+)*\]")


def escape_brackets(text: str) -> str:
    """Keep quoted text like "the interval [0, 1]" or "Santoro et al. [2017]" from being read as a citation
    (a four-digit year is no marker of ours, but a reader, or a checker, could take it for one)."""
    return _BRACKETED_NUMBER.sub(lambda m: m.group(0).replace("[", "\\[").replace("]", "\\]"), text)


@dataclass(frozen=True)
class Message:
    """One turn of a conversation, as the UI and the CLI keep it."""

    role: str
    content: str


@dataclass
class Source:
    """A retrieved paper as the answer cites it: ``[number]``."""

    number: int
    paper: Paper
    score: float
    dense: float
    lexical: float
    matched_terms: list[str] = field(default_factory=list)

    @property
    def paper_id(self) -> str:
        return self.paper.id


@dataclass(frozen=True)
class Evidence:
    """One abstract sentence scored against what the question asks.

    ``similarity`` is the sentence's embedding similarity to the question (or
    criterion; a sentence setting out a series of domains counts by its closest
    item, see rag.evidence); ``coverage`` the IDF-weighted share of the question's content
    terms the sentence contains. The composer quotes it, the LLM prompt builder
    and the UI highlight it, all from this one object.
    """

    source: int
    paper_id: str
    sentence: Sentence
    similarity: float
    coverage: float
    role: Role = "method"
    bonus: float = 0.0  # the question asks for this sentence's role (its results, its code), or not

    @property
    def score(self) -> float:
        return SIMILARITY_SHARE * self.similarity + (1 - SIMILARITY_SHARE) * self.coverage + self.bonus


# How much of a sentence's relevance is embedding similarity; the rest is term coverage.
# 0.7 is the mix the dev questions were tuned with in the first engine and kept since.
SIMILARITY_SHARE = 0.7
