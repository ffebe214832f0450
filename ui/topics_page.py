"""The Topics page: what the collection is about, as clusters of similar papers on a 2-D map.

Clicking a point selects that paper (a Vega-Lite point selection with
``on_select="rerun"``) and its card, the same one the Papers page shows, appears
under the map. Below it every topic is listed with its distinctive terms and
its most central papers. Topics are computed once per corpus and settings and
shared by all sessions, because clustering a large corpus takes seconds.
"""

from __future__ import annotations

from typing import Literal

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st
from streamlit.navigation.page import StreamlitPage

from rag.assistant import Assistant
from rag.topics import TopicMap

from . import service, state
from .markup import escape
from .papers_page import _paper_card

SELECTION = "paper"  # name of the chart's point selection; the rerun reports it under this key
MAP_POINTS = 5_000  # more points make the chart spec megabytes long and the browser sluggish; a fixed sample is drawn
LISTED_MEMBERS = 8  # papers named per topic in the list (most central first); the rest are counted
POINT_SIZE = 90  # px^2: big enough to hit with a click on the seeds' 19 points
SMALL_PALETTE = 10  # tableau10 tells up to 10 topics apart; more need tableau20


def page() -> StreamlitPage:
    """The page object for ``st.navigation`` (made per run, as Streamlit requires)."""
    return st.Page(render, title="Topics", icon=":material/bubble_chart:", url_path="topics")


def render() -> None:
    assistant = service.assistant()
    state.init(assistant.settings)
    st.title("Topics", anchor=False)
    topics = collection_topics(assistant)
    if not topics.topics:
        st.info("The index holds no papers yet.", icon=":material/info:")
        return
    st.caption(f"{len(topics.topic_of)} papers in {len(topics.topics)} topics, each named by the terms that set it "
               "apart. Click a point to show its paper.")
    selected = _topic_chart(assistant, topics)
    if selected in assistant.by_id:
        _paper_card(assistant.by_id[selected])
    _topic_list(assistant, topics)


def collection_topics(assistant: Assistant) -> TopicMap:
    """Topics of the whole indexed corpus: the assistant computes them once, from stored vectors."""
    with st.spinner("Finding the topics…"):
        return assistant.topics()


def _topic_chart(assistant: Assistant, topics: TopicMap) -> str | None:
    """Draw the map; return the id of the clicked paper, if any."""
    names = {t.number: f"{t.number} · {', '.join(t.terms)}" for t in topics.topics}
    ids = _drawn(list(topics.coords))
    if len(ids) < len(topics.coords):
        st.caption(f"The map shows a fixed sample of {len(ids):,} of {len(topics.coords):,} papers.")
    frame = pd.DataFrame({
        "id": ids,
        "paper": [assistant.by_id[pid].label for pid in ids],
        "topic": [names[topics.topic_of[pid]] for pid in ids],
        "x": [topics.coords[pid][0] for pid in ids],
        "y": [topics.coords[pid][1] for pid in ids],
    })
    pick = alt.selection_point(name=SELECTION, fields=["id"], on="click")
    scheme: Literal["tableau10", "tableau20"] = "tableau10" if len(topics.topics) <= SMALL_PALETTE else "tableau20"
    chart = (
        alt.Chart(frame)
        .mark_circle(size=POINT_SIZE)
        .encode(
            x=alt.X("x:Q", axis=None),
            y=alt.Y("y:Q", axis=None),
            color=alt.Color("topic:N", sort=list(names.values()), scale=alt.Scale(scheme=scheme),
                            legend=alt.Legend(title="Topic", orient="bottom", columns=1, labelLimit=600)),
            opacity=alt.condition(pick, alt.value(0.95), alt.value(0.3)),
            tooltip=["paper:N", "id:N", "topic:N"],
        )
        .add_params(pick)
    )
    event = st.altair_chart(chart, on_select="rerun", key="topic_map", width="stretch")
    chosen = [point.get("id") for point in event.selection.get(SELECTION, [])]
    return chosen[0] if chosen else None


def _drawn(ids: list[str]) -> list[str]:
    """All ids, or a fixed random sample of MAP_POINTS of them (same sample every run)."""
    if len(ids) <= MAP_POINTS:
        return ids
    rows = np.sort(np.random.default_rng(0).choice(len(ids), size=MAP_POINTS, replace=False))
    return [ids[i] for i in rows]


def _topic_list(assistant: Assistant, topics: TopicMap) -> None:
    st.subheader("All topics", anchor=False)
    for topic in topics.topics:
        listed = [f"{assistant.by_id[pid].label} ({pid})" for pid in topic.paper_ids[:LISTED_MEMBERS]]
        more = len(topic.paper_ids) - len(listed)
        members = "; ".join(listed) + (f"; and {more:,} more" if more else "")
        papers = "paper" if len(topic.paper_ids) == 1 else "papers"
        st.markdown(f"**{topic.number}\\. {escape(', '.join(topic.terms))}** · {len(topic.paper_ids):,} {papers}  \n"
                    f"{escape(members)}")
