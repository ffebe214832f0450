"""The least-recently-used per-paper cache shared by the evidence bank and the sentence index fallback."""

from __future__ import annotations

from collections.abc import Sequence

from rag.corpus import make_paper
from rag.paper_cache import PaperCache

PAPERS = {pid: make_paper(f"Abstract {pid} about something.", id=pid) for pid in ("a", "b", "c")}


def test_computes_only_missing_papers_and_evicts_the_least_recently_used() -> None:
    asked: list[list[str]] = []

    def compute(papers: Sequence) -> dict[str, str]:
        asked.append([p.id for p in papers])
        return {p.id: p.id.upper() for p in papers}

    cache: PaperCache[str] = PaperCache(capacity=2)
    assert cache.get([PAPERS["a"], PAPERS["b"]], compute) == {"a": "A", "b": "B"}
    assert cache.get([PAPERS["a"]], compute) == {"a": "A"}  # cached, and now the most recently used
    assert cache.get([PAPERS["c"]], compute) == {"c": "C"}  # evicts b, not a
    cache.get([PAPERS["a"], PAPERS["b"]], compute)
    assert asked == [["a", "b"], ["c"], ["b"]]
