"""The Papers page: browse and search every abstract, and start a chat about one paper."""

from __future__ import annotations

import streamlit as st
from streamlit.navigation.page import StreamlitPage

from rag.corpus import Paper
from rag.paper_search import search_papers

from . import chat_page, service, state
from .markup import abstract_markdown, inline_markdown, link


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


def _paper_card(paper: Paper) -> None:
    with st.container(border=True):
        st.subheader(inline_markdown(f"{paper.label} ({paper.id})"), anchor=False)
        if paper.title:
            st.caption(inline_markdown(paper.title))
        st.markdown(abstract_markdown(paper.text))
        if paper.url:
            st.markdown(link("paper page", paper.url))
        if st.button("Ask about this paper", key=f"ask-{paper.id}", icon=":material/forum:"):
            state.start_chat_about([paper.id])  # a new chat: the filter banner is the first thing shown
            st.switch_page(chat_page.page())
