"""The chat page: ask, watch the answer stream, check every citation against its source card.

Each answer is Markdown in which ``[n]`` links to ``#src-<turn>-<n>``; source
card ``n`` of that turn is headed by ``st.subheader(..., anchor=...)`` with
that id, so clicking a citation scrolls the browser to the card. Cards of cited
sources are never inside a collapsed expander, so the target of a click is always
visible; they show only the highlighted sentences, with the full abstract one
click away. Sources are numbered in order of first use (``ui.ordering``).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterable, Iterator

import streamlit as st
from streamlit.navigation.page import StreamlitPage

from rag.assistant import Answer, Assistant, QuestionError, Response
from rag.display import answer_mode, plural, source_score, unit_score
from rag.retrieval import Source

from . import service, sidebar, state
from .evidence import supporting_sentences
from .markup import (
    abstract_markdown,
    anchor,
    answer_markdown,
    escape,
    excerpt_markdown,
    inline_markdown,
    link,
    stream_markdown,
)
from .ordering import StreamNumbering, renumbered

LOG = logging.getLogger(__name__)

EXAMPLES = (
    ("a fact", "How many failed trajectories does Who&When Pro contain?"),
    ("a comparison", "Which benchmark contains more items, Who&When Pro or V33DA?"),
    ("papers on a topic", "Which papers study diffusion models?"),
    ("outside the corpus", "What is the capital of France?"),
)
BADGE_COLORS = {"extractive": "gray", "llm": "blue", "fallback": "orange"}
# Extractive answers are complete at once; released a sentence at a time they read like a model's
# stream. 40 ms per sentence keeps a 5-sentence answer under a quarter of a second.
SENTENCE_PAUSE_S = 0.04
_SENTENCE_GAP = re.compile(r"(?<=[.!?\]])(\s+)")  # where a streamed piece may be cut; pacing only
# Streamlit's top bar covers this many px of the main area (measured in Chromium, Streamlit 1.67).
HEADER_PX = 70
# Streamlit keeps a chat scrolled to its bottom while elements arrive; the new question is
# scrolled back to the top of the view until the page has not grown for SCROLL_SETTLE_MS,
# or the reader scrolls, clicks or types (SCROLL_MAX_MS bounds it). 1.5 s was too short on a
# loaded 2-core machine: an answer paused longer than that between elements, the script
# stopped, and the rest of the answer left the new question below the view (a CI run).
# A script also stops once a newer turn exists: a question asked before the last answer's
# script started left two scripts pulling their own turns to the top (a flaky CI run).
SCROLL_SETTLE_MS = 4000
SCROLL_MAX_MS = 20000
# Streamlit lets go of the bottom only when it sees a scroll that is not its own: one that comes
# while its scroll handler (throttled to one call per 100 ms) is idle, the page no taller than then.
# So the script scrolls only after the page has not scrolled for SCROLL_QUIET_MS. Scrolling every
# tick instead lost on a phone (390x844, where an answer is taller than the view): Streamlit took
# each scroll for its own and pulled the view back to the answer's end (the phone browser test).
SCROLL_QUIET_MS = 250
_SCROLL_SCRIPT = """<script>(() => {
  const target = document.querySelector(".st-key-%(key)s");
  if (!target) return;
  const main = target.closest(".stMain") || document.scrollingElement;
  let stopped = false;
  for (const kind of ["wheel", "touchstart", "keydown", "mousedown"]) {
    window.addEventListener(kind, () => { stopped = true; }, {once: true, capture: true});
  }
  const started = Date.now();
  let height = -1, grewAt = started, scrolledAt = 0;
  main.addEventListener("scroll", () => { scrolledAt = Date.now(); }, {passive: true});
  const tick = () => {
    if (stopped || !target.isConnected || document.querySelector(".st-key-%(next)s")) return;
    const now = Date.now();
    if (main.scrollHeight !== height) { height = main.scrollHeight; grewAt = now; }
    const offset = target.getBoundingClientRect().top - main.getBoundingClientRect().top - %(header)d;
    if (Math.abs(offset) > 2 && now - scrolledAt >= %(quiet)d) main.scrollTop += offset;
    if (now - grewAt < %(settle)d && now - started < %(max)d) setTimeout(tick, 50);
  };
  tick();
})();</script>"""


def page() -> StreamlitPage:
    """The page object for ``st.navigation`` and ``st.switch_page`` (made per run, as Streamlit requires)."""
    return st.Page(render, title="Chat", icon=":material/forum:", url_path="chat", default=True)


def render() -> None:
    """Draw the conversation, answer a new question if there is one, then the export button."""
    assistant = service.assistant()
    state.init(assistant.settings)
    export_slot = sidebar.render(assistant)
    question = st.chat_input("Ask a question about the papers")
    if question is None:
        question = state.take_queued_question()
    st.title("Ask the abstracts", anchor=False)
    _filter_notice(assistant)
    if not state.turns() and question is None:
        _welcome(len(assistant.papers))
    for number, turn in enumerate(state.turns(), start=1):
        with st.container(key=turn_key(number)):
            _show_turn(assistant, turn, number)
    if question is not None:
        number = len(state.turns()) + 1
        with st.container(key=turn_key(number)):
            _answer_new(assistant, question, number)
        _scroll_into_view(number)
    sidebar.fill_export(export_slot)


def turn_key(number: int) -> str:
    """Key of the container of turn ``number``; Streamlit gives it the CSS class ``st-key-<key>``."""
    return f"turn-{number}"


def _scroll_into_view(number: int) -> None:
    """Bring the start of new turn ``number`` (its question, then the answer) to the top of the view.

    Our own fixed script: only container keys, built from numbers, are filled in.
    """
    script = _SCROLL_SCRIPT % {"key": turn_key(number), "next": turn_key(number + 1), "header": HEADER_PX,
                               "settle": SCROLL_SETTLE_MS, "quiet": SCROLL_QUIET_MS, "max": SCROLL_MAX_MS}
    st.html(script, unsafe_allow_javascript=True, width="content")


# --------------------------------------------------------------------------- intro


def _welcome(paper_count: int) -> None:
    with st.chat_message("assistant"):
        st.markdown(
            f"Hello! I answer questions from **{paper_count} paper abstracts** and cite them like "
            "[1]: click a number to jump to the abstract it comes from, with the supporting sentences "
            "highlighted. Try one of these:"
        )
        columns = st.columns(2)
        for i, (kind, question) in enumerate(EXAMPLES):
            columns[i % 2].button(question, key=f"example-{i}", help=f"Example: {kind}", width="stretch",
                                  on_click=state.queue_question, args=(question,))


def _filter_notice(assistant: Assistant) -> None:
    chosen = [assistant.by_id[pid] for pid in state.paper_filter() if pid in assistant.by_id]
    if chosen:
        names = ", ".join(inline_markdown(f"{p.label} ({p.id})") for p in chosen)
        st.info(f"Questions go only to: {names}. Change this in the sidebar.", icon=":material/filter_alt:")


# --------------------------------------------------------------------------- turns


def _show_turn(assistant: Assistant, turn: state.Turn, number: int) -> None:
    """A finished turn, drawn the same way as right after it streamed."""
    with st.chat_message("user"):
        st.markdown(escape(turn.question))
    with st.chat_message("assistant"):
        if turn.answer is None:
            st.error(turn.error or "This question was not answered.")
            return
        st.caption(escape(_status_label(turn.answer)))
        st.markdown(answer_markdown(turn.answer.text, number, _numbers(turn.answer)))
        _show_answer_details(assistant, turn.answer, number)


def _answer_new(assistant: Assistant, question: str, number: int) -> None:
    """Stream the answer to ``question``; any failure becomes a readable message, never a traceback."""
    with st.chat_message("user"):
        st.markdown(escape(question))
    conversation = state.conversation()
    with st.chat_message("assistant"):
        try:
            answer = _stream(assistant, question, number)
        except QuestionError as exc:
            st.warning(str(exc), icon=":material/edit_note:")
            return
        except Exception as exc:  # noqa: BLE001 - the page must explain any failure, not crash
            LOG.exception("answering %r failed", question)
            error = f"Sorry, answering failed: {exc or type(exc).__name__}. Please try again."
            st.error(error)
            st.button("Retry", icon=":material/refresh:", key=f"retry-{number}", on_click=state.queue_question,
                      args=(question,))  # e.g. after restarting a Chroma server that went away
            state.add_turn(state.Turn(question, error=error), conversation)
            return
        _show_answer_details(assistant, answer, number)
        state.add_turn(state.Turn(question, answer), conversation)


def _stream(assistant: Assistant, question: str, number: int) -> Answer:
    """Stream the answer with sources renumbered by first use; return the renumbered answer."""
    with st.status("Searching the abstracts…") as status:
        response = _ask(assistant, question)
        _list_sources(response.sources, response.answer.kind, assistant.settings.lexical_weight)
        status.update(label=f"Found {plural(len(response.sources), 'paper')} · writing the answer…")
    deltas: Iterable[str] = response
    if response.answer.mode == "extractive":
        deltas = by_sentence(deltas)
    writing = f"Writing the answer from {plural(len(response.sources), 'source')}…"
    deltas = _on_first(deltas, lambda: status.update(label=writing, state="complete"))
    numbering = StreamNumbering(response.sources)
    st.write_stream(stream_markdown(deltas, number, _numbers(response.answer), numbering))
    answer = renumbered(response.answer)
    status.update(label=_status_label(answer), state="complete")
    return answer


def _status_label(answer: Answer) -> str:
    """One line on how the answer was found: refusals say so instead of counting sources."""
    if answer.refused:
        count = len(answer.sources)
        closest = f" · the {plural(count, 'closest paper')} {'is' if count == 1 else 'are'} below" if count else ""
        return f"Not answered by the abstracts{closest}"
    search = answer.timings.get("retrieval")
    took = f" (search took {search:.2f} s)" if search is not None else ""
    return f"Answer from {plural(len(answer.cited or answer.sources), 'source')}{took}"


def by_sentence(deltas: Iterable[str], pause: float = SENTENCE_PAUSE_S) -> Iterator[str]:
    """Re-cut text deltas into sentence-sized pieces, released ``pause`` seconds apart."""
    for delta in deltas:
        pieces = _SENTENCE_GAP.split(delta)
        for i in range(0, len(pieces), 2):
            piece = "".join(pieces[i : i + 2])
            if piece:
                yield piece
                time.sleep(pause)


def _ask(assistant: Assistant, question: str) -> Response:
    """Ask with this session's filter, settings and conversation so far."""
    session = st.session_state
    return assistant.ask(
        question, history=state.history(), paper_ids=state.paper_filter() or None,
        filters=sidebar.metadata_filters(assistant), top_k=session[state.TOP_K],
        temperature=session[state.TEMPERATURE], max_tokens=session[state.MAX_TOKENS], model=session[state.LLM_MODEL],
    )


def _on_first(deltas: Iterable[str], action: Callable[[], None]) -> Iterator[str]:
    """Pass ``deltas`` through, calling ``action`` once the first text arrives (or the stream ends)."""
    pending = True
    for delta in deltas:
        if pending and delta:
            action()
            pending = False
        yield delta
    if pending:
        action()


def _list_sources(sources: list[Source], kind: str, lexical_weight: float) -> None:
    """The papers found, most relevant first (numbers come with the answer, in order of citation)."""
    ranked = sorted(sources, key=lambda s: s.score, reverse=True)
    lines = [f"- {inline_markdown(f'{s.paper.label} ({s.paper.id})')} · {source_score(s, kind, lexical_weight)}"
             for s in ranked]
    st.markdown("\n".join(lines) if lines else "No paper matched.")


def _numbers(answer: Answer) -> set[int]:
    return {s.number for s in answer.sources}


# --------------------------------------------------------------------------- answer details


def _show_answer_details(assistant: Assistant, answer: Answer, number: int) -> None:
    """Everything under the answer text: refusal or fallback notice, mode badge, source cards."""
    if answer.refused:
        closest = " The closest ones are listed below, collapsed." if answer.sources else ""
        st.info(f"None of the papers answers this.{closest}", icon=":material/search_off:")
    if answer.notice:
        st.warning(answer.notice, icon=":material/warning:")
    if not answer.text:
        st.info("No answer text came back; the sources below are what the search found.")
    st.caption(f":{BADGE_COLORS[answer.mode]}-badge[{escape(mode_badge(answer, service.endpoint(assistant)))}]"
               f" {escape(_timing(answer))}")
    _flag_unsupported(answer)
    _show_more(answer)
    _show_sources(answer, number, assistant.settings.lexical_weight)


def _show_more(answer: Answer) -> None:
    """A long list's further matches, ranked, each with its best-matching sentence (not cited in the text)."""
    if not answer.more:
        return
    with st.expander(f"Show {plural(len(answer.more), 'more matching paper')}", icon=":material/expand_more:"):
        st.markdown("\n".join(f"- **{escape(m.label)}** ({escape(m.paper_id)}): {escape(m.sentence)}"
                               for m in answer.more))


def _flag_unsupported(answer: Answer) -> None:
    """Sentences whose citations don't back them (offline support score), so the reader checks those first."""
    unsupported = [s for s in answer.support if not s.supported]
    if unsupported:
        lines = "\n".join(f"- {escape(s.sentence)} (support {s.score:.2f})" for s in unsupported)
        st.warning(f"{len(unsupported)} sentence(s) not clearly supported by the sources they cite:\n{lines}",
                   icon=":material/fact_check:")


def mode_badge(answer: Answer, endpoint: str | None) -> str:
    """How this answer was made: quoted (no model), written by a model, or quoted after a model failed."""
    return answer_mode(answer.mode, answer.model, endpoint, answer.removed_citations)


def _timing(answer: Answer) -> str:
    total = answer.timings.get("total")
    first = answer.timings.get("first_token")
    parts = [f"first token {first:.2f} s" if first is not None else "", f"total {total:.2f} s" if total else ""]
    return " · ".join(p for p in parts if p)


def _show_sources(answer: Answer, number: int, lexical_weight: float) -> None:
    """Cited sources as open cards (citations link to them); the others in one collapsed list."""
    if not answer.sources:
        st.caption("No paper matched this question.")
        return
    cited = [s for s in answer.sources if s.number in answer.cited]
    others = [s for s in answer.sources if s.number not in answer.cited]
    if cited:
        st.markdown(f"**Sources** ({plural(len(cited), 'cited paper')})")
        for source in cited:
            _source_card(answer, source, number, lexical_weight)
    if others:
        title = (f"Closest papers ({len(others)}): none of them answers the question" if answer.refused
                 else f"Other close papers, not cited ({len(others)})")
        with st.expander(title, icon=":material/library_books:"):
            for source in others:
                _source_card(answer, source, number, lexical_weight)


def _source_card(answer: Answer, source: Source, number: int, lexical_weight: float) -> None:
    """Label, id and scores up front; a cited abstract shows its highlighted sentences, then the rest on demand."""
    cited = source.number in answer.cited
    highlights = supporting_sentences(answer, source)
    with st.container(border=True):
        st.subheader(f":small[{inline_markdown(f'[{source.number}] {source.paper.label} ({source.paper.id})')}]",
                     anchor=anchor(number, source.number))
        st.caption(_card_facts(answer.kind, source, cited, bool(highlights), lexical_weight))
        if cited and highlights:
            st.markdown(excerpt_markdown(source.paper.text, highlights))
            with st.expander("Show full abstract"):
                st.markdown(abstract_markdown(source.paper.text, highlights))
        else:
            st.markdown(abstract_markdown(source.paper.text, highlights))


def _card_facts(kind: str, source: Source, cited: bool, highlighted: bool, lexical_weight: float) -> str:
    scores = source_score(source, kind, lexical_weight) + " of 1"
    if kind != "overview":
        scores += f" (semantic {unit_score(source.dense)}, keyword {unit_score(source.lexical)})"
    facts = [
        escape(scores),
        "cited in the answer" if cited else "not cited",
    ]
    if source.matched_terms:
        facts.append("matched terms: " + ", ".join(f"`{term}`" for term in source.matched_terms))
    if highlighted:
        facts.append(":orange-background[highlighted]: sentences the answer draws on")
    if source.paper.url:
        facts.append(link("paper page", source.paper.url))
    return " · ".join(facts)
