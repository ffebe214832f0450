"""Find papers by words: the one search the Papers page and ``rag papers -q`` share."""

from __future__ import annotations

from collections.abc import Sequence

from .corpus import Paper


def search_papers(papers: Sequence[Paper], query: str) -> list[Paper]:
    """Papers whose id, label, title or abstract contain every word of ``query`` (any case)."""
    words = query.lower().split()
    return [p for p in papers if all(w in _haystack(p) for w in words)]


def _haystack(paper: Paper) -> str:
    return " ".join([paper.id, paper.label, paper.title or "", paper.text]).lower()
