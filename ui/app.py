"""Entry point of the chat UI: ``streamlit run ui/app.py`` (what ``rag ui`` runs).

Streamlit puts this file's folder on ``sys.path``, not the project root, so the
root is added to import ``ui`` as a package. The page icon is an emoji: a
``:material/...:`` icon makes every browser fetch it from Google's font CDN.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import streamlit as st  # noqa: E402

from ui import chat_page, papers_page, topics_page  # noqa: E402

st.set_page_config(page_title="Ask the abstracts", page_icon="📚", layout="centered")
st.navigation([chat_page.page(), papers_page.page(), topics_page.page()]).run()
