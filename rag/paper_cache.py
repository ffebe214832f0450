"""Per-paper values kept for the most recently used papers.

Sentences with their vectors, roles and stems are read or computed per paper and
asked for again by every answer about the same papers; both the evidence bank and
the sentence index's on-the-fly fallback keep them in this one least-recently-used
cache instead of each writing its own.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Generic, TypeVar

from .corpus import Paper

T = TypeVar("T")


class PaperCache(Generic[T]):
    """Values by paper id; past ``capacity`` papers the least recently used are dropped. Not locked: callers that
    share one across threads hold their own lock."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: OrderedDict[str, T] = OrderedDict()

    def get(self, papers: Sequence[Paper], compute: Callable[[Sequence[Paper]], Mapping[str, T]]) -> dict[str, T]:
        """The value of every paper, ``compute`` called once for those not cached."""
        missing = [p for p in papers if p.id not in self._items]
        if missing:
            self._items.update(compute(missing))
        out = {}
        for paper in papers:
            self._items.move_to_end(paper.id)
            out[paper.id] = self._items[paper.id]
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)
        return out
