"""The one Assistant per server process, and how the UI describes where answers come from.

Opening an Assistant loads the embedding model and syncs the index, which takes
seconds, so it is cached with ``st.cache_resource``: every session and rerun
shares it. The cache key is the settings (read from ``RAG_*`` env / rag.toml),
so a process whose configuration changes (tests do this) gets a matching
assistant instead of a stale one.
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit, urlunsplit

import streamlit as st

from rag.assistant import Assistant
from rag.config import ConfigError, Settings
from rag.corpus import CorpusError
from rag.embedding import EmbeddingError
from rag.store import StoreError

LOG = logging.getLogger(__name__)
KNOWN_LOAD_ERRORS = (ConfigError, CorpusError, EmbeddingError, StoreError)  # their messages are written for users


def assistant() -> Assistant:
    """The shared assistant; on a load failure, show why and stop this run."""
    try:
        return _open(Settings().model_dump_json())
    except Exception as exc:  # noqa: BLE001 - a readable message instead of a traceback page
        LOG.exception("opening the assistant failed")
        kind = "" if isinstance(exc, KNOWN_LOAD_ERRORS) else f"{type(exc).__name__}: "
        st.error(f"The corpus or its index could not be loaded: {kind}{exc}", icon=":material/error:")
        st.button("Retry", icon=":material/refresh:")  # a click reruns the page, which opens it again
        st.stop()


@st.cache_resource(show_spinner="Loading the embedding model and the index…")
def _open(settings_json: str) -> Assistant:
    """Open from the current settings; ``settings_json`` only keys the cache.

    The settings are read again rather than parsed from the JSON because the
    JSON masks the API key.
    """
    assistant = Assistant.open(Settings(), progress=False)
    assistant.warm_up()
    return assistant


def endpoint(assistant: Assistant) -> str | None:
    """The model endpoint without user info, query or fragment (they can hold secrets)."""
    if assistant.writer is None:
        return None
    parts = urlsplit(assistant.writer.base_url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))
