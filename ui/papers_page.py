"""The Papers page: browse and search every abstract, and start a chat about one paper."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st
from streamlit.navigation.page import StreamlitPage

from rag.corpus import Paper

from . import chat_page, service, state
from .markup import abstract_markdown, escape, link


def page() -> StreamlitPage:
    """The page object for ``st.navigation`` (made per run, as Streamlit requires)."""
    return st.Page(render, title="Papers", icon=":material/library_books:", url_path="papers")


def render() -> None:
    assistant = service.assistant()
    state.init(assistant.settings)
    st.title("Papers", anchor=False)
    query = st.text_input("Search the papers", placeholder="an id, a name or words from the abstract",
                          key="paper_search")
    papers = search_papers(assistant.papers, query)
    st.caption(f"{len(papers)} of {len(assistant.papers)} papers")
    for paper in papers:
        _paper_card(paper)


def search_papers(papers: Sequence[Paper], query: str) -> list[Paper]:
    """Papers whose id, label, title or abstract contain every word of ``query`` (any case)."""
    words = query.lower().split()
    return [p for p in papers if all(w in _haystack(p) for w in words)]


def _haystack(paper: Paper) -> str:
    return " ".join([paper.id, paper.label, paper.title or "", paper.text]).lower()


def _paper_card(paper: Paper) -> None:
    with st.container(border=True):
        st.subheader(escape(f"{paper.label} ({paper.id})"), anchor=False)
        if paper.title:
            st.caption(escape(paper.title))
        st.markdown(abstract_markdown(paper.text))
        if paper.url:
            st.markdown(link("paper page", paper.url))
        if st.button("Ask about this paper", key=f"ask-{paper.id}", icon=":material/forum:"):
            state.set_paper_filter([paper.id])
            st.switch_page(chat_page.page())
