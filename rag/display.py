"""How scores and counts are shown to people: one home for the CLI and the UI.

Kept free of heavy imports so ``rag papers`` and ``rag --help`` stay fast.
"""

from __future__ import annotations

from typing import Protocol


class Scored(Protocol):
    """What :func:`relevance` reads from a source (``rag.retrieval.Source``)."""

    score: float


def relevance(source: Scored, lexical_weight: float) -> float:
    """The fused retrieval score on 0-1.

    The score is cosine similarity (at most 1) plus ``lexical_weight`` times a
    BM25 score normalised to at most 1 (``rag.retrieval``), so it can exceed 1;
    dividing by its maximum, ``1 + lexical_weight``, and clipping negatives
    (unrelated text) gives a number a reader can compare across answers.
    """
    return min(1.0, max(0.0, source.score / (1.0 + max(0.0, lexical_weight))))


def source_score(source: Scored, kind: str, lexical_weight: float) -> str:
    """What a source's number means in this answer: an overview's papers are not retrieved for the
    question but picked as their topic's most central, so they show that closeness instead."""
    if kind == "overview":
        return f"closeness to its topic {unit_score(source.score)}"
    return f"relevance {unit_score(relevance(source, lexical_weight))}"


def unit_score(value: float) -> str:
    """A 0-1 score with two decimals, never ``-0.00``: a negative similarity means unrelated, shown as 0."""
    return f"{min(1.0, max(0.0, value)):.2f}"


def plural(count: int, noun: str) -> str:
    """``1 source``, ``5 sources``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def answer_mode(mode: str, model: str | None = None, endpoint: str | None = None, removed: int = 0) -> str:
    """How one answer was made, in the one wording the CLI, the UI badge and the export share.

    ``endpoint`` is left out where it must not appear (the export: a URL may carry credentials).
    """
    where = f" at endpoint {endpoint}" if endpoint else ""
    text = {"llm": f"written by model {model}{where}",
            "fallback": f"extractive fallback: model {model}{where} failed"}.get(
        mode, "extractive answer: sentences quoted from the abstracts, no language model")
    return text + (f"; {removed} invalid citation(s) removed" if removed else "")


def answering(model: str | None, endpoint: str | None) -> str:
    """How answers will be made with the current settings (sidebar, corpus statistics)."""
    return f"model {model} at endpoint {endpoint}" if endpoint else "extractive answers (no model configured)"
