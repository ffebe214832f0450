"""Sources in the order a reader meets them.

Retrieval numbers sources by its own ranking (papers the question names come
first), so an answer could open with ``[4]``. The UI renumbers: cited sources
in order of first use (``[1]`` is always the first citation), then the uncited
ones by relevance. The assistant's numbers stay what the citation checker
validated; only the rendering changes them, both while the answer streams
(:class:`StreamNumbering`) and for the finished answer (:func:`renumbered`),
which give the same numbers because both follow the order of first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rag.assistant import Answer
from rag.citations import cited_numbers, renumber
from rag.retrieval import Source


def citation_order(text: str, sources: Sequence[Source]) -> dict[int, int]:
    """Old number -> new number: cited sources by first use in ``text``, then the rest by relevance."""
    known = {s.number for s in sources}
    used = [n for n in cited_numbers(text) if n in known]
    rest = sorted((s for s in sources if s.number not in used), key=lambda s: s.score, reverse=True)
    return {old: new for new, old in enumerate([*used, *(s.number for s in rest)], start=1)}


def renumbered(answer: Answer) -> Answer:
    """A copy of ``answer`` with sources, markers, evidence and support renumbered by :func:`citation_order`."""
    mapping = citation_order(answer.text, answer.sources)

    def new(number: int) -> int:
        return mapping.get(number, number)

    sources = sorted((replace(s, number=new(s.number)) for s in answer.sources), key=lambda s: s.number)
    support = [replace(s, sentence=renumber(s.sentence, mapping), cited=[new(n) for n in s.cited],
                       per_source={new(n): score for n, score in s.per_source.items()}) for s in answer.support]
    return replace(answer, text=renumber(answer.text, mapping), sources=sources, cited=[new(n) for n in answer.cited],
                   evidence=[replace(e, source=new(e.source)) for e in answer.evidence], support=support)


class StreamNumbering:
    """Renumbers streamed answer text by order of first use, as the markers arrive.

    Pieces must hold whole markers (``ui.markup.stream_markdown`` releases only such pieces).
    """

    def __init__(self, sources: Sequence[Source]) -> None:
        self._known = {s.number for s in sources}
        self.mapping: dict[int, int] = {}

    def __call__(self, piece: str) -> str:
        for number in cited_numbers(piece):
            if number in self._known and number not in self.mapping:
                self.mapping[number] = len(self.mapping) + 1
        return renumber(piece, self.mapping)
