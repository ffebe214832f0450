"""The chat page's sidebar: what is indexed, which papers to ask, answer settings, export."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from rag.assistant import Assistant
from rag.display import answering
from rag.filters import Filters, year_counts
from rag.store import StoreError

from . import service, state
from .export import conversation_markdown
from .markup import escape

# Streamlit cuts multiselect chips and button labels with an ellipsis, mid-word; let them wrap instead.
WRAP_LABELS_CSS = """<style>
[data-baseweb="tag"] { height: auto; max-width: 100%; }
[data-baseweb="tag"] span { white-space: normal; overflow: visible; text-overflow: clip; }
.stButton button p { white-space: normal; }
</style>"""
MAX_SOURCES_CHOICE = 10
MAX_TOKENS_CHOICE = (100, 2000)
NO_MODEL_HELP = "Only used by a language model; set RAG_LLM_BASE_URL to configure one."


def render(assistant: Assistant) -> DeltaGenerator:
    """Draw the sidebar; return the slot that :func:`fill_export` fills after the answer."""
    st.html(WRAP_LABELS_CSS)
    with st.sidebar:
        _corpus_summary(assistant)
        _paper_filter(assistant)
        _metadata_filters(assistant)
        _answer_settings(assistant)
        st.button("New chat", icon=":material/add_comment:", on_click=state.clear_conversation,
                  width="stretch")
        return st.empty()


def fill_export(slot: DeltaGenerator) -> None:
    """The download button and a preview of the file, drawn last so that they include this run's answer."""
    turns = state.turns()
    document = conversation_markdown(turns)
    with slot.container():
        st.download_button(
            "Export conversation (Markdown)", data=document, file_name="conversation.md",
            mime="text/markdown", icon=":material/download:", disabled=not turns, on_click="ignore",
            width="stretch",
        )
        if st.button("Preview the export", icon=":material/preview:", disabled=not turns, width="stretch"):
            _preview(document)


@st.dialog("Export preview", width="large")
def _preview(document: str) -> None:
    """The file as it will be saved: Markdown source, not rendered (quoted abstracts stay inert)."""
    st.caption("Only the references each answer cites, with the sentences it draws on.")
    st.code(document, language="markdown", wrap_lines=True)


def mode_summary(assistant: Assistant, model: str = "") -> str:
    """The answer mode as Markdown; the endpoint is shown without credentials, the key never.

    Code spans keep the endpoint from becoming a link (GFM links bare URLs even when escaped).
    """
    if assistant.writer is None:
        return answering(None, None)
    return answering(f"`{model.strip() or assistant.writer.model}`", f"`{service.endpoint(assistant)}`")


def _corpus_summary(assistant: Assistant) -> None:
    st.header("Corpus", anchor=False)
    for notice in assistant.notices:
        st.warning(escape(notice), icon=":material/warning:")
    try:
        stats = assistant.stats()
    except StoreError as exc:  # the Chroma server went away after start-up: say so, offer a retry
        st.error(escape(str(exc)), icon=":material/error:")
        st.button("Retry", icon=":material/refresh:", key="retry-store")
        return
    papers, chunks = st.columns(2)
    papers.metric("Papers", len(assistant.papers))
    chunks.metric("Chunks", str(stats["chunks"]))
    st.caption(f"Embedding model: {escape(str(stats['embedding_model']))}  \n"
               f"Store: {escape(str(stats['store']))}  \n"
               f"Answers: {mode_summary(assistant, st.session_state[state.LLM_MODEL])}")


def _paper_filter(assistant: Assistant) -> None:
    labels = {p.id: f"{p.label} ({p.id})" for p in assistant.papers}
    known = [pid for pid in state.paper_filter() if pid in labels]
    state.set_paper_filter(known)  # drop ids of papers no longer in the corpus
    st.multiselect("Ask only about these papers", options=list(labels), format_func=labels.__getitem__,
                   placeholder="All papers", **state.bind(state.PAPER_FILTER))


VENUES_KEY = "filter_venues"  # session keys, mirrored by the widgets (see state.bind)
YEARS_KEY = "filter_years"


def metadata_filters(assistant: Assistant) -> Filters | None:
    """The sidebar's venue/year choice for ``Assistant.ask``; None when nothing narrows the corpus."""
    years = year_counts(assistant.papers)
    low, high = st.session_state.get(YEARS_KEY) or (None, None)
    filters = Filters(tuple(st.session_state.get(VENUES_KEY) or ()),
                      low if years and low is not None and low > min(years) else None,
                      high if years and high is not None and high < max(years) else None)
    return filters or None


def _metadata_filters(assistant: Assistant) -> None:
    """Venue multiselect and year range, drawn only when the corpus has that metadata to choose from
    (more than one venue or year: the 19 seeds, all NeurIPS 2026, show neither).

    Options carry their paper counts, and a chip line says how many papers the
    current choice leaves, so an over-narrow filter is visible before asking.
    """
    venues, years = assistant.venues, year_counts(assistant.papers)
    if len(venues) < 2 and len(years) < 2:
        return
    st.subheader("Filter by venue and year", anchor=False)
    if len(venues) > 1:
        st.session_state.setdefault(VENUES_KEY, [])
        st.multiselect("Venues", options=sorted(venues), placeholder="All venues",
                       format_func=lambda v: f"{v} ({venues[v]:,})", **state.bind(VENUES_KEY))
    if len(years) > 1:
        st.session_state.setdefault(YEARS_KEY, (min(years), max(years)))
        st.slider("Years", min(years), max(years), **state.bind(YEARS_KEY))
    filters = metadata_filters(assistant)
    if filters:
        matching = sum(filters.matches(p) for p in assistant.papers)
        st.pills("Active filters", [f"{filters.describe()}: {matching:,} papers"], disabled=True,
                 key="filter_chips")


def _answer_settings(assistant: Assistant) -> None:
    no_model = assistant.writer is None
    with st.expander("Answer settings", icon=":material/tune:"):
        st.slider("Number of sources", 1, max(MAX_SOURCES_CHOICE, assistant.settings.top_k),
                  **state.bind(state.TOP_K))
        low, high = MAX_TOKENS_CHOICE
        st.slider("Answer length (max tokens)", min(low, assistant.settings.max_answer_tokens),
                  max(high, assistant.settings.max_answer_tokens), step=50, disabled=no_model,
                  help=NO_MODEL_HELP if no_model else None, **state.bind(state.MAX_TOKENS))
        st.slider("Temperature", 0.0, 2.0, step=0.05, disabled=no_model,
                  help=NO_MODEL_HELP if no_model else None, **state.bind(state.TEMPERATURE))
        st.text_input("Model name", disabled=no_model,
                      help=NO_MODEL_HELP if no_model else "Another model served by the same endpoint.",
                      **state.bind(state.LLM_MODEL))
