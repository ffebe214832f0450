"""Checks the answer-engine tests share: citation markers, cited papers, valid citations."""

from __future__ import annotations

import re

from rag.assistant import Answer

MARKER = re.compile(r"\[(\d+)\]")


def markers(text: str) -> list[int]:
    return [int(n) for n in MARKER.findall(text)]


def number_of(answer: Answer, paper_id: str) -> int:
    return next(s.number for s in answer.sources if s.paper_id == paper_id)


def cited_ids(answer: Answer) -> list[str]:
    return [s.paper_id for s in answer.cited_sources]


def assert_citations_valid(answer: Answer) -> None:
    found = markers(answer.text)
    assert all(1 <= n <= len(answer.sources) for n in found), (found, len(answer.sources))
    assert sorted(set(found)) == sorted(answer.cited)
    assert answer.removed_citations == 0
