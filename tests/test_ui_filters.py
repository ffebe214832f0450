"""The sidebar's venue/year filter, driven headlessly with AppTest on a corpus with metadata (no model needed)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = f"""
import sys
from types import SimpleNamespace
sys.path.insert(0, {str(ROOT)!r})
import streamlit as st
from rag.corpus import make_paper
from rag.filters import venue_counts
from ui import sidebar

papers = [make_paper(f"Abstract number {{i}} about learning.", id=f"x{{i}}",
                     meta={{"venue": "ICML" if i % 3 else "CoRL", "year": 2019 + i % 4}}) for i in range(12)]
corpus = SimpleNamespace(papers=papers, venues=venue_counts(papers))  # what the sidebar reads of an Assistant
sidebar._metadata_filters(corpus)
st.session_state["chosen"] = sidebar.metadata_filters(corpus)
"""


def test_venue_and_year_widgets_become_filters_with_a_count_chip() -> None:
    app = AppTest.from_string(SCRIPT, default_timeout=60)
    app.run()
    assert not app.exception
    venues = app.multiselect[0]
    assert venues.options == ["CoRL (4)", "ICML (8)"]
    assert app.session_state["chosen"] is None  # nothing chosen: no filter
    venues.set_value(["CoRL"]).run()
    app.slider[0].set_value((2020, 2021)).run()
    chosen = app.session_state["chosen"]
    assert (chosen.venues, chosen.year_min, chosen.year_max) == (("CoRL",), 2020, 2021)
    chip = app.get("button_group")[0]
    assert "CoRL · 2020–2021: 2 papers" in str(chip.proto)
