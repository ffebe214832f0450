"""Markdown for the chat UI, built so that corpus and model text stay text.

Nothing here ever uses ``unsafe_allow_html``. Abstracts are untrusted data: every
ASCII punctuation character of them is backslash-escaped (CommonMark makes any
escaped ASCII punctuation literal), so an abstract cannot open a link, an image,
a ``:red[...]`` directive or a ``$$`` block. Only its http(s) URLs are turned back
into links, LaTeX ``\\emph{...}`` into emphasis, and inline ``$math$`` spans pass
through intact for Streamlit's KaTeX (which renders formulas, never HTML). Answers are Markdown by
design (lists, bold labels), so they are rendered as Markdown with three changes:
images are disarmed (a model could be steered into loading an URL that leaks
data), every citation ``[n]`` becomes a link to source card ``n`` of the
same turn, and the LaTeX emphasis of quoted abstract sentences is shown as emphasis.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence

from rag.chunking import Sentence
from rag.corpus import find_links
from rag.safety import safe_url

_ASCII_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
_PARAGRAPH_BREAK = re.compile(r"\s*\n\s*\n\s*")
_WHITESPACE = re.compile(r"\s+")
_LATEX_EMPHASIS = re.compile(r"\\(emph|textit|textbf)\{([^{}\s][^{}]*?(?<=\S))\}")  # \emph{term}
_MARKDOWN_LINK = re.compile(r"\[([^\[\]\n]*)\]\((https?://[^\s()<>]+)\)")
_CITATION = re.compile(r"\[(\d{1,3})\](?!\()")
# Inline math as abstracts write it: SQA$^{I}$, $\pm 2$s, AUC${=}1.0$, PixArt-$\alpha$. Like Pandoc, the
# opening $ is followed and the closing $ preceded by non-space, and the closing $ is not followed by a
# digit, so prices ("$5 and $10") stay text. KaTeX renders math as math (no HTML, links need `trust`);
# commands that could reach outside the formula are refused anyway.
_MATH = re.compile(r"(?<![\\$])\$(?=[^\s$])[^$\n]{1,200}?(?<=[^\s\\$])\$(?![$\d])")
_UNSAFE_TEX = re.compile(r"\\(?:href|url|includegraphics|html\w*)")
_IMAGE_START = "!["
_DISARMED_IMAGE_START = "&#33;["  # renders as "![" but cannot start an image
_CITATION_LOOKAHEAD = 5  # "[123]" plus the character after it decides whether it is a citation
HIGHLIGHT = "orange-background"


def escape(text: str) -> str:
    """Make text literal in Streamlit Markdown by escaping every ASCII punctuation mark."""
    return _ASCII_PUNCTUATION.sub(r"\\\1", text)


def anchor(turn: int, number: int) -> str:
    """HTML id of source card ``number`` under answer ``turn``; citations link here."""
    return f"src-{turn}-{number}"


# --------------------------------------------------------------------------- answers


def answer_markdown(text: str, turn: int, numbers: Collection[int]) -> str:
    """An answer as Markdown: images disarmed, each ``[n]`` of a shown source a link to its card, and LaTeX
    emphasis of quoted abstracts ("\\textbf{where to look is not how to fix}") shown as emphasis."""
    text = text.replace(_IMAGE_START, _DISARMED_IMAGE_START)
    text = _LATEX_EMPHASIS.sub(lambda m: f"{_MARKER[m.group(1)]}{m.group(2)}{_MARKER[m.group(1)]}", text)
    return _CITATION.sub(lambda m: _citation_link(m, turn, numbers), text)


_MARKER = {"textbf": "**", "emph": "*", "textit": "*"}
# A streamed piece ends before a LaTeX emphasis still forming ("\\textbf{where to lo"), at most this far back.
_OPEN_EMPHASIS = re.compile(r"\\(?:t(?:e(?:x(?:t(?:b(?:f(?:\{[^{}]{0,200})?)?|i(?:t(?:\{[^{}]{0,200})?)?)?)?)?)?"
                            r"|e(?:m(?:p(?:h(?:\{[^{}]{0,200})?)?)?)?)?$")


def _citation_link(match: re.Match[str], turn: int, numbers: Collection[int]) -> str:
    number = int(match.group(1))
    return f"[[{number}]](#{anchor(turn, number)})" if number in numbers else match.group(0)


def stream_markdown(deltas: Iterable[str], turn: int, numbers: Collection[int],
                    renumber: Callable[[str], str] | None = None) -> Iterator[str]:
    """Convert streamed answer text to :func:`answer_markdown` piece by piece.

    A piece is released only up to a point where no citation or image marker can
    still be forming, so the concatenated output equals the converted whole text.
    ``renumber`` rewrites the markers of each released piece first (whole markers only).
    """
    convert = renumber or (lambda piece: piece)
    pending = ""
    for delta in deltas:
        pending += delta
        cut = _stable_end(pending)
        ready, pending = pending[:cut], pending[cut:]
        if ready:
            yield answer_markdown(convert(ready), turn, numbers)
    if pending:
        yield answer_markdown(convert(pending), turn, numbers)


def _stable_end(text: str) -> int:
    """Length of the prefix whose conversion cannot change when more text arrives."""
    cut = len(text)
    bracket = text.rfind("[", max(0, cut - _CITATION_LOOKAHEAD))
    if bracket != -1:
        cut = bracket
    if text[:cut].endswith("!"):
        cut -= 1
    forming = _OPEN_EMPHASIS.search(text[:cut])
    return forming.start() if forming else cut


# --------------------------------------------------------------------------- abstracts


def abstract_markdown(text: str, highlights: Sequence[Sentence] = ()) -> str:
    """An abstract as literal Markdown, its links clickable and ``highlights`` marked.

    ``highlights`` are sentences with offsets into ``text``; touching ones are merged
    so that consecutive sentences read as one highlighted passage.
    """
    parts: list[str] = []
    position = 0
    for start, end in _merged_spans(text, highlights):
        parts.append(_plain(text[position:start]))
        parts.append(_highlighted(text[start:end]))
        position = end
    parts.append(_plain(text[position:]))
    return "".join(parts).strip()


def excerpt_markdown(text: str, highlights: Sequence[Sentence]) -> str:
    """Only the highlighted passages of ``text``, joined by ellipses where text was left out.

    A cited abstract is collapsed to what the answer draws on; the full text sits in an expander.
    """
    spans = _merged_spans(text, highlights)
    parts = [_highlighted(text[start:end]).strip() for start, end in spans]
    gaps = [bool(text[: spans[0][0]].strip())] if spans else []
    gaps += [bool(text[end:].strip()) for _, end in spans[-1:]]
    body = " … ".join(parts)
    return f"{'… ' if gaps and gaps[0] else ''}{body}{' …' if len(gaps) > 1 and gaps[1] else ''}"


def _merged_spans(text: str, sentences: Sequence[Sentence]) -> list[tuple[int, int]]:
    """Sentence spans in order, overlapping or whitespace-separated ones joined."""
    spans: list[tuple[int, int]] = []
    for sentence in sorted(sentences, key=lambda s: s.start):
        start, end = max(0, sentence.start), min(len(text), sentence.end)
        if start >= end:
            continue
        if spans and not text[spans[-1][1] : start].strip():
            spans[-1] = (spans[-1][0], max(spans[-1][1], end))
        else:
            spans.append((start, end))
    return spans


def _plain(text: str) -> str:
    """Literal text; paragraph breaks kept, single line breaks folded into spaces."""
    paragraphs = _PARAGRAPH_BREAK.split(text)
    return "\n\n".join(_inline(_WHITESPACE.sub(" ", p)) for p in paragraphs)


def _highlighted(text: str) -> str:
    """A highlighted run; kept on one line because a directive cannot span paragraphs."""
    stripped = _WHITESPACE.sub(" ", text).strip()
    lead = " " if text[:1].isspace() else ""
    trail = " " if text[-1:].isspace() else ""
    return f"{lead}:{HIGHLIGHT}[{_inline(stripped)}]{trail}" if stripped else lead + trail


def link(label: str, url: str) -> str:
    """A Markdown link to an http(s) URL; anything else (``javascript:``...) stays plain text."""
    safe = safe_url(url)
    if safe is None or any(c in safe for c in "<>"):  # the <...> link form cannot hold < or >
        return escape(label)
    return f"[{escape(label or safe)}](<{safe}>)"


def inline_markdown(text: str) -> str:
    """One line of corpus text (a label, a title) as literal Markdown, its ``$math$`` rendered."""
    return _inline(_WHITESPACE.sub(" ", text).strip())


def _inline(text: str) -> str:
    """Escaped text in which inline math spans pass through intact for Streamlit's KaTeX."""
    parts: list[str] = []
    position = 0
    for match in _MATH.finditer(text):
        if _UNSAFE_TEX.search(match.group(0)):
            continue  # stays escaped, shown as typed
        parts.append(_emphasised(text[position : match.start()]))
        parts.append(match.group(0))
        position = match.end()
    parts.append(_emphasised(text[position:]))
    return "".join(parts)


def _emphasised(text: str) -> str:
    """Escaped text with LaTeX emphasis shown as emphasis and http(s) links kept clickable."""
    parts: list[str] = []
    position = 0
    for match in _LATEX_EMPHASIS.finditer(text):
        parts.append(_linked(text[position : match.start()]))
        marker = _MARKER[match.group(1)]
        parts.append(f"{marker}{_linked(match.group(2))}{marker}")
        position = match.end()
    parts.append(_linked(text[position:]))
    return "".join(parts)


def _linked(text: str) -> str:
    """Escaped text with its http(s) links (Markdown or bare) rebuilt as safe links."""
    return "".join(link(label, url) if url else escape(label) for label, url in _link_tokens(text))


def _link_tokens(text: str) -> Iterator[tuple[str, str | None]]:
    """``(text, url)`` runs: Markdown links and bare URLs carry their URL, other text None."""
    position = 0
    for match in _MARKDOWN_LINK.finditer(text):
        yield from _bare_url_tokens(text[position : match.start()])
        yield match.group(1), match.group(2)
        position = match.end()
    yield from _bare_url_tokens(text[position:])


def _bare_url_tokens(text: str) -> Iterator[tuple[str, str | None]]:
    position = 0
    for url in find_links(text):
        found = text.find(url, position)
        if found == -1:
            continue
        yield text[position:found], None
        yield url, url
        position = found + len(url)
    yield text[position:], None
