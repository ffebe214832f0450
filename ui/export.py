"""The conversation as a Markdown document, for the sidebar's download button and its preview.

A pure function of the turns, so it is tested directly. Each answer keeps its ``[n]``
markers and is followed by the references it cites, each with the sentences the
answer draws on (quoted) and its link. Uncited retrieved papers are left out: a
reference list is what the answer rests on. Text from the corpus and the model has
``<``/``>`` HTML-escaped and control characters removed, and only http(s) links are kept
(``rag.safety``), so opening the file in a Markdown viewer runs nothing. Nothing from
the settings goes in, so an API key can never end up in a file.
"""

from __future__ import annotations

from collections.abc import Sequence

from rag.assistant import Answer
from rag.display import answer_mode
from rag.retrieval import Source
from rag.safety import safe_url, strip_control

from .evidence import supporting_sentences
from .state import Turn

TITLE = "# Conversation with the paper-abstracts assistant"


def conversation_markdown(turns: Sequence[Turn]) -> str:
    """Every question with its answer (or error) and the references the answer cites."""
    sections = [TITLE]
    for number, turn in enumerate(turns, start=1):
        sections.append(f"## {number}. {_one_line(turn.question)}")
        sections.append(_answer_section(turn.answer) if turn.answer else f"*Not answered: {_text(turn.error or '')}*")
    return "\n\n".join(sections) + "\n"


def _answer_section(answer: Answer) -> str:
    parts = [_text(answer.text) or "*(no answer text)*", f"*{mode_description(answer)}*"]
    if answer.notice:
        parts.append(f"> {_one_line(answer.notice)}")
    cited = answer.cited_sources
    if cited:
        parts.append("**References**\n\n" + "\n".join(reference_entry(answer, s) for s in cited))
    elif answer.refused:
        parts.append("*The abstracts don't answer this question, so nothing is cited.*")
    if answer.more:
        more = "\n".join(f"- {_one_line(m.label)} ({_one_line(m.paper_id)}): {_one_line(m.sentence)}"
                         for m in answer.more)
        parts.append(f"**{len(answer.more)} more matching papers** (ranked past the listed ones)\n\n{more}")
    return "\n\n".join(parts)


def reference_entry(answer: Answer, source: Source) -> str:
    """``- [n] label (id), <url>`` and, indented under it, the quoted sentences the answer draws on."""
    paper = source.paper
    url = safe_url(paper.url)
    link = f", <{url}>" if url and not any(c in url for c in "<>") else ""
    lines = [f"- [{source.number}] {_one_line(paper.label)} ({_one_line(paper.id)}){link}"]
    lines += [f"  > {_one_line(s.text)}" for s in supporting_sentences(answer, source)]
    return "\n".join(lines)


def mode_description(answer: Answer) -> str:
    """How the answer was produced, in words (no endpoint: it may carry credentials)."""
    text = answer_mode(answer.mode, _text(answer.model or ""))
    return text[:1].upper() + text[1:] + "."


def _text(text: str) -> str:
    """Model or corpus text made inert: control characters removed, ``<`` and ``>`` escaped.

    Without ``<`` no HTML tag can open; ``&`` stays, so "Who&When" reads as written
    (an entity such as ``&lt;`` only ever decodes to text).
    """
    return strip_control(text).replace("<", "&lt;").replace(">", "&gt;").strip()


def _one_line(text: str) -> str:
    return " ".join(_text(text).split())
