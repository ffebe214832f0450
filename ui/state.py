"""Per-browser-session state: the conversation, the paper filter and answer settings.

Streamlit forgets a widget's value when a page run does not draw the widget
(e.g. while the Papers page is shown), so every setting lives under its own
session key and widgets only mirror it (see :func:`bind`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from rag.assistant import Answer
from rag.config import Settings
from rag.generation import Message

TURNS = "turns"
CONVERSATION = "conversation"  # increases on "New chat": an answer of an older conversation is not kept
PENDING = "pending_question"
PAPER_FILTER = "paper_filter"
TOP_K = "top_k"
MAX_TOKENS = "max_tokens"
TEMPERATURE = "temperature"
LLM_MODEL = "llm_model"


@dataclass(frozen=True)
class Turn:
    """One question and either its finished answer or the error that stopped it."""

    question: str
    answer: Answer | None = None
    error: str | None = None


def init(settings: Settings) -> None:
    """Fill in defaults (from the server's settings) for anything this session has not set."""
    defaults: dict[str, Any] = {
        TURNS: [],
        CONVERSATION: 0,
        PAPER_FILTER: [],
        TOP_K: settings.top_k,
        MAX_TOKENS: settings.max_answer_tokens,
        TEMPERATURE: settings.temperature,
        LLM_MODEL: settings.llm_model,
    }
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)


def bind(key: str) -> dict[str, Any]:
    """Keyword arguments that make a widget show and update the setting ``key``."""
    widget_key = f"_widget_{key}"
    st.session_state[widget_key] = st.session_state[key]
    return {"key": widget_key, "on_change": _copy, "args": (widget_key, key)}


def _copy(source: str, target: str) -> None:
    st.session_state[target] = st.session_state[source]


def turns() -> list[Turn]:
    return st.session_state[TURNS]


def conversation() -> int:
    """Which conversation this session is in; an answer started in an earlier one is dropped."""
    return int(st.session_state.get(CONVERSATION, 0))


def add_turn(turn: Turn, started_in: int | None = None) -> None:
    """Append ``turn``, unless "New chat" was pressed while it was being answered."""
    if started_in is not None and started_in != conversation():
        return
    st.session_state[TURNS] = [*turns(), turn]


def clear_conversation() -> None:
    """Forget every turn (so the next question is never a follow-up) and any queued question."""
    st.session_state[TURNS] = []
    st.session_state[CONVERSATION] = conversation() + 1
    st.session_state.pop(PENDING, None)


def start_chat_about(paper_ids: list[str]) -> None:
    """A new conversation asking only ``paper_ids`` (the Papers page's "Ask about this paper")."""
    clear_conversation()
    set_paper_filter(paper_ids)


def history() -> list[Message]:
    """The answered turns as chat messages, for follow-up questions."""
    messages = []
    for turn in turns():
        if turn.answer is not None:
            messages += [Message("user", turn.question), Message("assistant", turn.answer.text)]
    return messages


def queue_question(question: str) -> None:
    """Ask ``question`` on the next run (used by buttons, which cannot type into the chat input)."""
    st.session_state[PENDING] = question


def take_queued_question() -> str | None:
    return st.session_state.pop(PENDING, None)


def paper_filter() -> list[str]:
    return list(st.session_state.get(PAPER_FILTER, []))


def set_paper_filter(paper_ids: list[str]) -> None:
    st.session_state[PAPER_FILTER] = list(paper_ids)
