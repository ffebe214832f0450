"""Answers and paper lists in the terminal: rich rendering for people, plain text for scripts.

Every string that came from an abstract or a model passes through
:func:`rag.safety.strip_control` before it is printed, and is handed to rich as
text or Markdown, never as console markup, so ``[bold]`` in an abstract stays
literal. Links the model wrote are shown, not made clickable; only a paper's own
http(s) URL (:func:`rag.safety.safe_url`) becomes a terminal hyperlink.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TextIO

from .display import answer_mode, plural, source_score
from .safety import safe_url, strip_control

if TYPE_CHECKING:
    from rich.console import Console

    from .assistant import Answer, Response
    from .corpus import Paper
    from .retrieval import Source

# The answer is re-rendered this often while it streams (rich's default is 4 per second).
LIVE_REFRESH_PER_SECOND = 8
PAPER_PREVIEW_CHARS = 70  # start of the abstract shown by `rag papers` in plain mode
SUPPORT_PREVIEW_CHARS = 160  # start of an unsupported sentence listed under the answer


def mode_line(answer: Answer) -> str:
    """How the answer was made, in brackets (scripts and tests look for ``[extractive answer``)."""
    return strip_control(f"[{answer_mode(answer.mode, answer.model, removed=answer.removed_citations)}]")


class Printer:
    """Writes answers and paper lists as rich (styled, wrapped, Markdown rendered) or plain text."""

    def __init__(self, plain: bool = False, lexical_weight: float = 1.0, file: TextIO | None = None) -> None:
        self.plain = plain
        self.lexical_weight = lexical_weight  # the setting the shown scores were fused with
        self.file = file or sys.stdout
        self._console: Console | None = None

    @property
    def console(self) -> Console:
        if self._console is None:
            from rich.console import Console  # imported on first use: plain output never pays for it

            self._console = Console(file=self.file, highlight=False, soft_wrap=False)
        return self._console

    def line(self, text: str = "") -> None:
        """Our own text (no corpus or model content)."""
        if self.plain:
            print(text, file=self.file, flush=True)
        else:
            self.console.print(text, markup=False)

    # -- answers -----------------------------------------------------------------
    def answer(self, response: Response) -> None:
        """Stream the answer, then the notice, the mode, unsupported sentences and the numbered sources."""
        if self.plain:
            for delta in response:
                print(strip_control(delta), end="", file=self.file, flush=True)
            print(file=self.file)
        else:
            self._rich_stream(response)
        self._details(response.answer)

    def _rich_stream(self, deltas: Iterable[str]) -> None:
        from rich.live import Live
        from rich.markdown import Markdown

        text = ""
        if not self.console.is_terminal:  # a pipe: render once, at the end
            text = "".join(deltas)
            self.console.print(Markdown(strip_control(text), hyperlinks=False))
            return
        with Live(Markdown(""), console=self.console, refresh_per_second=LIVE_REFRESH_PER_SECOND,
                  vertical_overflow="visible") as live:
            for delta in deltas:
                text += delta
                live.update(Markdown(strip_control(text), hyperlinks=False))

    def _details(self, answer: Answer) -> None:
        if answer.notice:
            self.line(f"\nnote: {strip_control(answer.notice)}")
        self.line(f"\n{mode_line(answer)}")
        unsupported = [s for s in answer.support if not s.supported]
        if unsupported:
            self.line(f"\nnot clearly supported by the sources they cite ({len(unsupported)}):")
            for claim in unsupported:
                self.line(f"  - {strip_control(claim.sentence)[:SUPPORT_PREVIEW_CHARS]}  (support {claim.score:.2f})")
        if answer.more:
            self.line(f"\n{len(answer.more)} more matching, ranked past the listed ones (all in --json):")
            self.line("  " + "; ".join(f"{strip_control(m.label)} ({m.paper_id})" for m in answer.more))
        if answer.sources:
            refused = answer.refused and not answer.cited
            self.line("\nClosest papers (none answers this):" if refused else "\nSources:")
        for source in answer.sources:
            self._source(answer, source)
        if answer.cited:
            self.line("(* cited in the answer)")

    def _source(self, answer: Answer, source: Source) -> None:
        mark = "*" if source.number in answer.cited else " "
        label, paper_id = strip_control(source.paper.label), strip_control(source.paper.id)
        score = source_score(source, answer.kind, self.lexical_weight)
        url = safe_url(source.paper.url)
        if self.plain:
            self.line(f"{mark}[{source.number}] {label} ({paper_id})  {score}")
            if url:
                self.line(f"     {url}")
            return
        from rich.style import Style
        from rich.text import Text

        self.console.print(Text.assemble(f"{mark}[{source.number}] ", (label, "bold"), f" ({paper_id})  ",
                                         (score, "dim")))
        if url:
            self.console.print(Text.assemble("     ", (url, Style(link=url, underline=True))))

    # -- papers ------------------------------------------------------------------
    def papers(self, papers: Sequence[Paper], total: int) -> None:
        """One row per paper: id, label and the start of its abstract; then the count."""
        if self.plain or not papers:
            width = max((len(p.id) for p in papers), default=0)
            for paper in papers:
                label = strip_control(paper.label)[:40]
                text = strip_control(" ".join(paper.text.split()))[:PAPER_PREVIEW_CHARS]
                self.line(f"{strip_control(paper.id):<{width}}  {label:<40}  {text}...")
        else:
            self._paper_table(papers)
        self.line(f"\n{plural(len(papers), 'paper')}" + (f" of {total}" if len(papers) != total else ""))

    def _paper_table(self, papers: Sequence[Paper]) -> None:
        from rich.style import Style
        from rich.table import Table
        from rich.text import Text

        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False, expand=True)
        table.add_column("id", no_wrap=True)
        table.add_column("label", style="bold", overflow="fold", ratio=1)
        table.add_column("abstract", overflow="ellipsis", no_wrap=True, ratio=3)
        for paper in papers:
            url = safe_url(paper.url)
            label = Text(strip_control(paper.label), style=Style(link=url) if url else "")
            table.add_row(strip_control(paper.id), label, strip_control(" ".join(paper.text.split())))
        self.console.print(table)

