"""The chat page: ask, watch the answer stream, check every citation against its source card.

Each answer is Markdown in which ``[n]`` links to ``#src-<turn>-<n>``; source
card ``n`` of that turn is headed by ``st.subheader(..., anchor=...)`` with
that id, so clicking a citation scrolls the browser to the card. Cards of cited
sources are never collapsed, so the target of a click is always visible.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator

import streamlit as st
from streamlit.navigation.page import StreamlitPage

from rag.assistant import Answer, Assistant, QuestionError, Response
from rag.retrieval import Source

from . import service, sidebar, state
from .evidence import supporting_sentences
from .markup import abstract_markdown, anchor, answer_markdown, escape, link, stream_markdown

LOG = logging.getLogger(__name__)

EXAMPLES = (
    ("a fact", "How many failed trajectories does Who&When Pro contain?"),
    ("a comparison", "Which benchmark contains more items, Who&When Pro or V33DA?"),
    ("papers on a topic", "Which papers study diffusion models?"),
    ("outside the corpus", "What is the capital of France?"),
)
BADGE_COLORS = {"extractive": "gray", "llm": "blue", "fallback": "orange"}


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
        _show_turn(assistant, turn, number)
    if question is not None:
        _answer_new(assistant, question, len(state.turns()) + 1)
    sidebar.fill_export(export_slot)


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
        names = ", ".join(f"{escape(p.label)} ({escape(p.id)})" for p in chosen)
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
        st.markdown(answer_markdown(turn.answer.text, number, _numbers(turn.answer)))
        _show_answer_details(assistant, turn.answer, number)


def _answer_new(assistant: Assistant, question: str, number: int) -> None:
    """Stream the answer to ``question``; any failure becomes a readable message, never a traceback."""
    with st.chat_message("user"):
        st.markdown(escape(question))
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
            state.add_turn(state.Turn(question, error=error))
            return
        _show_answer_details(assistant, answer, number)
        state.add_turn(state.Turn(question, answer))


def _stream(assistant: Assistant, question: str, number: int) -> Answer:
    with st.status("Searching the abstracts…") as status:
        response = _ask(assistant, question)
        _list_sources(response.sources)
        status.update(label=f"Found {len(response.sources)} sources · writing the answer…")
    found = f"Answer from {len(response.sources)} sources (search took {response.answer.timings['retrieval']:.2f} s)"
    deltas = _on_first(response, lambda: status.update(label=found, state="complete"))
    st.write_stream(stream_markdown(deltas, number, _numbers(response.answer)))
    return response.answer


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


def _list_sources(sources: list[Source]) -> None:
    lines = [f"{s.number}. {escape(s.paper.label)} ({escape(s.paper.id)}) · relevance {s.score:.2f}"
             for s in sources]
    st.markdown("\n".join(lines) if lines else "No paper matched.")


def _numbers(answer: Answer) -> set[int]:
    return {s.number for s in answer.sources}


# --------------------------------------------------------------------------- answer details


def _show_answer_details(assistant: Assistant, answer: Answer, number: int) -> None:
    """Everything under the answer text: fallback warning, mode badge, source cards."""
    if answer.notice:
        st.warning(answer.notice, icon=":material/warning:")
    if not answer.text:
        st.info("No answer text came back; the sources below are what the search found.")
    st.caption(f":{BADGE_COLORS[answer.mode]}-badge[{escape(mode_badge(answer, service.endpoint(assistant)))}]"
               f" {escape(_timing(answer))}")
    _flag_unsupported(answer)
    _show_sources(answer, number)


def _flag_unsupported(answer: Answer) -> None:
    """Sentences whose citations don't back them (offline support score), so the reader checks those first."""
    unsupported = [s for s in answer.support if not s.supported]
    if unsupported:
        lines = "\n".join(f"- {escape(s.sentence)} (support {s.score:.2f})" for s in unsupported)
        st.warning(f"{len(unsupported)} sentence(s) not clearly supported by the sources they cite:\n{lines}",
                   icon=":material/fact_check:")


def mode_badge(answer: Answer, endpoint: str | None) -> str:
    """How this answer was made: quoted (no model), written by a model, or quoted after a model failed."""
    removed = f"; {answer.removed_citations} invalid citation(s) removed" if answer.removed_citations else ""
    if answer.mode == "llm":
        return f"model {answer.model} at endpoint {endpoint}{removed}"
    if answer.mode == "fallback":
        return f"extractive fallback: model {answer.model} at endpoint {endpoint} failed{removed}"
    return "extractive answer (no model configured)"


def _timing(answer: Answer) -> str:
    total = answer.timings.get("total")
    first = answer.timings.get("first_token")
    parts = [f"first token {first:.2f} s" if first is not None else "", f"total {total:.2f} s" if total else ""]
    return " · ".join(p for p in parts if p)


def _show_sources(answer: Answer, number: int) -> None:
    if not answer.sources:
        st.caption("No paper matched this question.")
        return
    st.markdown(f"**Sources** ({len(answer.sources)})")
    for source in answer.sources:
        _source_card(answer, source, number)


def _source_card(answer: Answer, source: Source, number: int) -> None:
    """Label, id and scores up front; the abstract with its supporting sentences highlighted."""
    cited = source.number in answer.cited
    highlights = supporting_sentences(answer, source)
    with st.container(border=True):
        st.subheader(f":small[{escape(f'[{source.number}] {source.paper.label} ({source.paper.id})')}]",
                     anchor=anchor(number, source.number))
        st.caption(_card_facts(source, cited, bool(highlights)))
        body = abstract_markdown(source.paper.text, highlights)
        if cited:
            st.markdown(body)
        else:
            with st.expander("Abstract (not cited in the answer)"):
                st.markdown(body)


def _card_facts(source: Source, cited: bool, highlighted: bool) -> str:
    facts = [
        escape(f"relevance {source.score:.2f} (semantic {source.dense:.2f}, keyword {source.lexical:.2f})"),
        "cited in the answer" if cited else "not cited",
    ]
    if source.matched_terms:
        facts.append("matched terms: " + ", ".join(f"`{term}`" for term in source.matched_terms))
    if highlighted:
        facts.append(":orange-background[highlighted]: sentences the answer draws on")
    if source.paper.url:
        facts.append(link("paper page", source.paper.url))
    return " · ".join(facts)
