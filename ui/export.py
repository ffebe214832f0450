"""The conversation as a Markdown document, for the sidebar's download button.

A pure function of the turns, so it is tested directly. Each answer keeps its ``[n]``
markers and is followed by the numbered references they point to. Nothing from
the settings goes in, so an API key can never end up in a file.
"""

from __future__ import annotations

from collections.abc import Sequence

from rag.assistant import Answer
from rag.retrieval import Source

from .state import Turn

TITLE = "# Conversation with the paper-abstracts assistant"


def conversation_markdown(turns: Sequence[Turn]) -> str:
    """Every question with its answer (or error) and the answer's reference list."""
    sections = [TITLE]
    for number, turn in enumerate(turns, start=1):
        sections.append(f"## {number}. {_one_line(turn.question)}")
        sections.append(_answer_section(turn.answer) if turn.answer else f"*Not answered: {turn.error}*")
    return "\n\n".join(sections) + "\n"


def _answer_section(answer: Answer) -> str:
    parts = [answer.text or "*(no answer text)*", f"*{mode_description(answer)}*"]
    if answer.notice:
        parts.append(f"> {answer.notice}")
    if answer.sources:
        parts.append("**References**\n\n" + "\n".join(reference_line(s) for s in answer.sources))
    return "\n\n".join(parts)


def reference_line(source: Source) -> str:
    """``[n] label (id), url`` as a list item; the url only when the paper has one."""
    paper = source.paper
    url = f", <{paper.url}>" if paper.url else ""
    return f"- [{source.number}] {paper.label} ({paper.id}){url}"


def mode_description(answer: Answer) -> str:
    """How the answer was produced, in words (no endpoint: it may carry credentials)."""
    if answer.mode == "llm":
        return f"Written by the model {answer.model} from the sources below."
    if answer.mode == "fallback":
        return f"Extractive fallback: the model {answer.model} failed; sentences quoted from the sources below."
    return "Extractive answer: sentences quoted from the sources below (no model configured)."


def _one_line(text: str) -> str:
    return " ".join(text.split())
