"""LLM answers through the real openai client against the fake OpenAI-compatible server.

Each test builds an Assistant that reuses the session's embedder, store and BM25 index
(``Assistant(settings, papers, embedder, store, lexical)``), so only the answering
configuration differs. The server is shared, so tests read only the requests logged
after their own ask.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from rag.assistant import Assistant
from rag.config import Settings
from rag.generation import Message

QUESTION = "How many failed trajectories does the Who&When Pro benchmark contain, and across how many modalities?"
SECRET = f"sk-test-{uuid.uuid4().hex}"
MARKER = re.compile(r"\[(\d+)\]")


def first_sentence(text: str) -> str:
    """What the fake echo-cite model quotes from a source (its own sentence rule)."""
    return re.split(r"(?<=[.!?])\s+", " ".join(text.split()), maxsplit=1)[0]


@pytest.fixture
def llm_assistant(seed_assistant, make_settings, openai_server) -> Callable[..., Assistant]:
    """Assistant answering with the fake server's ``model``, reusing the session index and model."""

    def build(model: str, **overrides: Any) -> Assistant:
        values = {"llm_base_url": openai_server.base_url, "llm_model": model, "llm_api_key": SECRET,
                  "llm_max_retries": 0, "llm_timeout": 30.0, "data_dir": seed_assistant.settings.data_dir}
        values.update(overrides)
        a = seed_assistant
        return Assistant(make_settings(**values), a.papers, a.embedder, a.store, a.retriever.lexical)

    return build


def new_requests(openai_server, before: int) -> list[dict]:
    return openai_server.requests()[before:]


def answer_requests(records: list[dict]) -> list[dict]:
    """Logged requests that carry fenced sources (the answer call, not a query rewrite)."""
    return [r for r in records if '<source id="' in (r.get("messages") or [{}])[-1].get("content", "")]


def test_llm_answer_streams_and_fabricated_citations_are_removed(llm_assistant, openai_server) -> None:
    assistant = llm_assistant("echo-cite")
    before = len(openai_server.requests())
    response = assistant.ask(QUESTION)
    assert response.sources and response.sources[0].paper_id == "p05"
    deltas = [d for d in response if d]
    answer = response.result()

    assert len(deltas) > 1, deltas
    assert "".join(deltas).strip() == answer.text
    assert answer.mode == "llm" and answer.model == "echo-cite" and answer.notice is None
    assert "[1]" in answer.text
    assert "[99]" not in answer.text and "99" not in MARKER.findall(answer.text)
    assert answer.removed_citations >= 1
    assert answer.cited == [1, 2]
    assert all(1 <= int(n) <= len(answer.sources) for n in MARKER.findall(answer.text))
    assert first_sentence(answer.sources[0].paper.text) in answer.text
    assert "This claim cites a source that does not exist." in answer.text  # its marker, not the sentence, goes

    (request,) = answer_requests(new_requests(openai_server, before))
    assert request["model"] == "echo-cite" and request["stream"] is True and request["_status"] == 200


def test_prompt_carries_rules_sources_question_and_history(llm_assistant, openai_server) -> None:
    assistant = llm_assistant("echo-cite")
    history = [
        Message("user", "Which benchmark is about attributing failures in agentic systems?"),
        Message("assistant", "Who&When Pro (p05) is a large-scale benchmark for automated failure attribution [1]."),
    ]
    before = len(openai_server.requests())
    answer = assistant.answer(QUESTION, history=history)
    requests = answer_requests(new_requests(openai_server, before))
    assert len(requests) == 1, requests
    messages = requests[0]["messages"]

    assert messages[0]["role"] == "system"
    assert "Use only the sources" in messages[0]["content"]
    assert "Never invent a source number" in messages[0]["content"]
    assert messages[1:3] == [{"role": m.role, "content": m.content} for m in history]
    prompt = messages[-1]
    assert prompt["role"] == "user"
    assert QUESTION in prompt["content"]
    for source in answer.sources:
        assert f'<source id="{source.number}" paper="{source.paper_id}"' in prompt["content"]
        assert source.paper.text[:200] in prompt["content"]
    assert len(re.findall(r'<source id="', prompt["content"])) == len(answer.sources)


def test_api_key_is_sent_but_never_logged(llm_assistant, openai_server) -> None:
    assistant = llm_assistant("echo-cite")
    before = len(openai_server.requests())
    answer = assistant.answer("What does the acronym CoCHI stand for?")
    records = new_requests(openai_server, before)
    assert records and all(r["_auth_present"] for r in records)
    assert SECRET not in openai_server.log_path.read_text(encoding="utf-8")
    stderr_log = openai_server.log_path.with_name(openai_server.log_path.name + ".stderr")
    assert SECRET not in stderr_log.read_text(encoding="utf-8")
    assert SECRET not in repr(assistant.settings) and SECRET not in assistant.settings.model_dump_json()
    assert SECRET not in str(answer.to_dict()) and SECRET not in str(assistant.stats())


def test_server_error_falls_back_to_the_extractive_answer(llm_assistant, openai_server, seed_assistant) -> None:
    assistant = llm_assistant("error-500")
    before = len(openai_server.requests(model="error-500"))
    answer = assistant.answer(QUESTION)
    assert answer.mode == "fallback"
    assert answer.notice and "language model failed" in answer.notice and "500" in answer.notice
    assert answer.text == seed_assistant.answer(QUESTION).text
    assert "12,326" in answer.text and "p05" in [s.paper_id for s in answer.cited_sources]
    assert answer.cited and all(1 <= int(n) <= len(answer.sources) for n in MARKER.findall(answer.text))
    logged = openai_server.requests(model="error-500")[before:]
    assert [r["_status"] for r in logged] == [500]  # llm_max_retries=0: one attempt


def test_rate_limit_falls_back_too(llm_assistant) -> None:
    answer = llm_assistant("error-429").answer(QUESTION)
    assert answer.mode == "fallback" and "429" in (answer.notice or "")
    assert "12,326" in answer.text and answer.cited


def test_slow_endpoint_times_out_into_a_fallback(llm_assistant, openai_server) -> None:
    assistant = llm_assistant("slow", llm_timeout=1.0, llm_max_retries=0)
    extractive = assistant.answer(QUESTION, use_llm=False)  # warms the sentence cache; sends nothing
    started = time.perf_counter()
    answer = assistant.answer(QUESTION)
    elapsed = time.perf_counter() - started
    assert answer.mode == "fallback"
    assert "did not answer in time" in (answer.notice or "")
    assert 1.0 <= elapsed < openai_server.slow_seconds, f"fallback took {elapsed:.1f}s"
    assert answer.text == extractive.text


def test_flaky_endpoint_succeeds_after_a_retry(llm_assistant, openai_server) -> None:
    assistant = llm_assistant("flaky", llm_max_retries=2)
    before = len(openai_server.requests(model="flaky"))
    question = f"{QUESTION} ({uuid.uuid4().hex[:6]})"  # a body the flaky model has not seen yet
    answer = assistant.answer(question)
    assert answer.mode == "llm" and answer.notice is None
    assert "[1]" in answer.text and "[99]" not in answer.text
    statuses = [r["_status"] for r in answer_requests(openai_server.requests(model="flaky")[before:])]
    assert statuses == [500, 200]


def test_refusing_model_answer_has_no_citations(llm_assistant) -> None:
    answer = llm_assistant("refuse").answer(QUESTION)
    assert answer.mode == "llm"
    assert answer.text == "The provided abstracts do not answer this question."
    assert answer.cited == [] and answer.removed_citations == 0


def test_use_llm_false_sends_nothing(llm_assistant, openai_server) -> None:
    assistant = llm_assistant("echo-cite")
    before = len(openai_server.requests())
    answer = assistant.answer(QUESTION, use_llm=False)
    assert answer.mode == "extractive" and "12,326" in answer.text
    assert len(openai_server.requests()) == before


def test_no_endpoint_configured_means_no_request_even_with_openai_env(
        seed_assistant, openai_server, monkeypatch, tmp_path) -> None:
    for name in ("RAG_LLM_BASE_URL", "RAG_LLM_API_KEY", "RAG_LLM_MODEL", "RAG_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("OPENAI_BASE_URL", openai_server.base_url)  # would route the openai client to the fake
    monkeypatch.chdir(tmp_path)  # no rag.toml here

    settings = Settings(data_dir=tmp_path / "data")
    assert settings.llm_base_url is None and settings.llm_api_key is None and not settings.llm_configured
    a = seed_assistant
    assistant = Assistant(settings, a.papers, a.embedder, a.store, a.retriever.lexical)
    assert assistant.writer is None
    assert assistant.stats()["answer_mode"].startswith("extractive")

    before = len(openai_server.requests())
    answer = assistant.answer(QUESTION)
    assert answer.mode == "extractive" and answer.model is None
    assert "12,326" in answer.text
    assert len(openai_server.requests()) == before, "a request was sent although no endpoint was configured"


def test_papers_like_one_paper_ask_the_model_for_that_shape(llm_assistant, openai_server) -> None:
    """The extractive answer lists the papers closest to DaTMe; the model is asked for the same, not for the papers
    "meeting a criterion"."""
    assistant = llm_assistant("echo-cite")
    before = len(openai_server.requests())
    assistant.answer("Find papers similar to DaTMe.")
    (request,) = answer_requests(new_requests(openai_server, before))
    prompt = request["messages"][-1]["content"]
    assert "the papers most like one paper" in prompt and "meet a criterion" not in prompt, prompt[-800:]
