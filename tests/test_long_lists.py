"""A "which papers" question that more papers match than one answer lists.

26 hand-written abstracts all apply graph neural networks, each to another
domain; the list shows MAX_LISTED of them with the total count, and the rest
arrive ranked in ``Answer.more``: in ``--json``, in the export, and in the chat
UI under "Show N more matching papers". Real embedded Chroma, the real model.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rag.gather import MAX_LISTED  # noqa: E402
from ui.export import conversation_markdown  # noqa: E402
from ui.state import Turn  # noqa: E402

DOMAINS = ["traffic forecasting", "molecule property prediction", "protein folding", "social network spam",
           "power grid failures", "recommender systems", "fraud detection in payments", "citation networks",
           "road map completion", "chip placement", "weather forecasting", "drug interactions",
           "supply chains", "knowledge graph completion", "crystal structures", "brain connectomes",
           "airline routing", "water networks", "point clouds", "program analysis", "mesh simulation",
           "power consumption", "particle physics jets", "legal citations", "robot swarms", "crop disease spread"]
QUESTION = "Which papers use graph neural networks?"
APP = str(ROOT / "ui" / "app.py")


def _abstract(domain: str) -> str:
    return (f"We apply graph neural networks to {domain}. Nodes and edges encode the structure of {domain}, "
            f"and message passing propagates information between neighbours. On a benchmark for {domain} the "
            "model improves accuracy over strong baselines.")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("long_list") / "gnn.jsonl"
    path.write_text("".join(json.dumps({"id": f"g{i:02d}", "title": f"Graphs for {d}", "abstract": _abstract(d)}) + "\n"
                            for i, d in enumerate(DOMAINS, 1)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def assistant(corpus: Path, seed_embedder: Any, make_settings: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    from rag.assistant import Assistant
    from rag.corpus import load_corpus
    from rag.indexing import ingest
    from rag.lexical import LexicalIndex
    from rag.store import VectorStore

    data_dir = tmp_path_factory.mktemp("long_list_index")
    papers = load_corpus(corpus)
    store = VectorStore.open(data_dir, "gnn")
    ingest(papers, store, seed_embedder, 200, 1, progress=False, data_dir=data_dir)
    return Assistant(make_settings(data_dir=data_dir), papers, seed_embedder, store, LexicalIndex.build(papers))


def test_a_long_list_shows_the_first_ones_counts_all_and_keeps_the_rest(assistant: Any) -> None:
    answer = assistant.answer(QUESTION)
    assert answer.kind == "list"
    assert answer.text.startswith(f"{len(DOMAINS)} papers match"), answer.text[:120]
    assert f"showing {MAX_LISTED}" in answer.text.split("\n")[0]
    listed = re.findall(r"^\d+\. ", answer.text, re.MULTILINE)
    assert len(listed) == MAX_LISTED
    more = [m.paper_id for m in answer.more]
    assert len(more) == len(DOMAINS) - MAX_LISTED
    assert not set(more) & {s.paper.id for s in answer.cited_sources}, "further matches are not in the cited list"
    assert [m.score for m in answer.more] == sorted((m.score for m in answer.more), reverse=True)
    assert all("graph neural networks" in m.sentence for m in answer.more)
    assert [m["paper_id"] for m in answer.to_dict()["more_matches"]] == more


def test_the_export_lists_the_further_matches(assistant: Any) -> None:
    answer = assistant.answer(QUESTION)
    exported = conversation_markdown([Turn(QUESTION, answer)])
    assert f"**{len(answer.more)} more matching papers**" in exported
    assert all(f"({m.paper_id})" in exported for m in answer.more)


def test_a_short_list_has_no_further_matches(seed_assistant: Any) -> None:
    answer = seed_assistant.answer("Which papers study diffusion models?")
    assert answer.kind == "list" and answer.more == []
    assert answer.to_dict()["more_matches"] == []


@pytest.fixture
def long_list_app(corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("RAG_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("RAG_CORPUS", str(corpus))
    for name in ("RAG_LLM_BASE_URL", "RAG_LLM_MODEL", "RAG_LLM_API_KEY", "RAG_CHROMA_HOST", "RAG_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    yield
    st.cache_resource.clear()


def test_the_chat_ui_can_show_more_of_a_long_list(long_list_app: None) -> None:
    at = AppTest.from_file(APP, default_timeout=180).run()
    assert not at.exception, at.exception
    at.chat_input[0].set_value(QUESTION).run()
    assert not at.exception, at.exception
    reply = at.chat_message[-1]
    hidden = len(DOMAINS) - MAX_LISTED
    expanders = [e for e in reply.expander if e.label == f"Show {hidden} more matching papers"]
    assert expanders, [e.label for e in reply.expander]
    shown = "\n".join(m.value for m in expanders[0].markdown)
    assert len(re.findall(r"^- \*\*", shown, re.MULTILINE)) == hidden
