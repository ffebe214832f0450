"""Sentence-aware chunks that fit the embedder's window.

(Being written: see the brief. Public API below is fixed.)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Sentence:
    """A sentence of an abstract with its character offsets in the paper text."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Chunk:
    """A run of whole sentences of one paper, small enough for the embedder."""

    paper_id: str
    index: int
    start: int
    end: int
    text: str

    @property
    def id(self) -> str:
        return f"{self.paper_id}#{self.index}"
