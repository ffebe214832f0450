"""Prove the test infrastructure itself works, using the REAL client libraries."""

from __future__ import annotations

import json
import time
import urllib.request
import uuid
from typing import Any

import chromadb
import openai
import pytest
from chromadb.config import Settings

SOURCES_PROMPT = """Answer the question using only these sources.

<source id="1" paper="p05" label="Who&When Pro">
We introduce Who&When Pro, a large-scale benchmark for failure attribution. Using a strictly controlled pipeline we annotate logs.
</source>
<source id="2" paper="p07" label="RISE">
RISE trains models to self-correct over multiple turns. It improves math accuracy.
</source>
<source id="3" paper="p09" label="Third">
This third source must not be cited. Never.
</source>

Question: {question}"""  # noqa: E501 - the abstract line is verbatim test data

EXPECTED_ECHO = (
    "We introduce Who&When Pro, a large-scale benchmark for failure attribution. [1] "
    "RISE trains models to self-correct over multiple turns. [2] "
    "This claim cites a source that does not exist [99]."
)


def make_client(base_url: str, **kwargs: Any) -> openai.OpenAI:
    """Build a real ``openai`` client pointed at the fake server."""
    kwargs.setdefault("max_retries", 0)
    return openai.OpenAI(base_url=base_url, api_key="sk-test-secret", **kwargs)


def user_messages(question: str) -> list[dict[str, str]]:
    """A system prompt plus one user turn carrying the fenced sources."""
    return [
        {"role": "system", "content": "You answer with citations."},
        {"role": "user", "content": SOURCES_PROMPT.format(question=question)},
    ]


def unique_question() -> str:
    """A question text that lets a test find its own request in the shared log."""
    return f"What is benchmarked? ({uuid.uuid4().hex})"


# --------------------------------------------------------------------------
# Fake OpenAI-compatible server
# --------------------------------------------------------------------------


def test_echo_cite_non_streaming(openai_server) -> None:
    client = make_client(openai_server.base_url)
    response = client.chat.completions.create(model="echo-cite", messages=user_messages(unique_question()))
    assert response.choices[0].message.content == EXPECTED_ECHO
    assert response.choices[0].finish_reason == "stop"
    assert response.usage is not None and response.usage.total_tokens > 0


def test_echo_cite_streaming(openai_server) -> None:
    client = make_client(openai_server.base_url)
    stream = client.chat.completions.create(
        model="echo-cite",
        messages=user_messages(unique_question()),
        stream=True,
        stream_options={"include_usage": True},
    )
    deltas: list[str] = []
    usage = None
    for chunk in stream:
        if chunk.usage is not None:
            usage = chunk.usage
        if chunk.choices and chunk.choices[0].delta.content:
            deltas.append(chunk.choices[0].delta.content)
    text = "".join(deltas)
    assert len(deltas) > 1
    assert text == EXPECTED_ECHO
    assert "[1]" in text and "[99]" in text
    assert usage is not None and usage.completion_tokens > 0


def test_log_records_messages_without_the_key(openai_server) -> None:
    question = unique_question()
    client = make_client(openai_server.base_url)
    client.chat.completions.create(model="echo-cite", messages=user_messages(question), temperature=0)
    mine = [r for r in openai_server.requests("echo-cite") if question in json.dumps(r)]
    assert len(mine) == 1
    record = mine[0]
    assert record["messages"][-1]["content"].endswith(question)
    assert record["messages"][0] == {"role": "system", "content": "You answer with citations."}
    assert record["temperature"] == 0
    assert record["_auth_present"] is True and record["_status"] == 200
    assert "sk-test-secret" not in openai_server.log_path.read_text(encoding="utf-8")


def test_log_records_missing_authorization(openai_server) -> None:
    """Ollama-style clients send no Authorization header; that must still work."""
    question = unique_question()
    body = {"model": "refuse", "messages": [{"role": "user", "content": question}]}
    request = urllib.request.Request(
        f"{openai_server.base_url}/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        reply = json.load(response)
    assert reply["choices"][0]["message"]["content"] == "The provided abstracts do not answer this question."
    mine = [r for r in openai_server.requests("refuse") if question in json.dumps(r)]
    assert [r["_auth_present"] for r in mine] == [False]


def test_no_sources_rewrite_and_models(openai_server) -> None:
    client = make_client(openai_server.base_url)
    plain = [{"role": "user", "content": "No sources here."}]
    no_sources = client.chat.completions.create(model="echo-cite", messages=plain)
    assert no_sources.choices[0].message.content == "I cannot answer from the provided abstracts."
    rewritten = client.chat.completions.create(model="rewrite", messages=plain)
    assert rewritten.choices[0].message.content == "REWRITTEN: No sources here."
    assert "echo-cite" in {m.id for m in client.models.list()}


def test_error_500_raises_internal_server_error(openai_server) -> None:
    client = make_client(openai_server.base_url)
    with pytest.raises(openai.InternalServerError):
        client.chat.completions.create(model="error-500", messages=user_messages(unique_question()))


def test_error_429_raises_rate_limit_error(openai_server) -> None:
    client = make_client(openai_server.base_url)
    with pytest.raises(openai.RateLimitError) as excinfo:
        client.chat.completions.create(model="error-429", messages=user_messages(unique_question()))
    assert excinfo.value.response.headers["retry-after"] == "0"


def test_slow_model_times_out_without_blocking_others(openai_server) -> None:
    slow_client = make_client(openai_server.base_url, timeout=1.0)
    started = time.monotonic()
    with pytest.raises(openai.APITimeoutError):
        slow_client.chat.completions.create(model="slow", messages=user_messages(unique_question()))
    assert time.monotonic() - started < openai_server.slow_seconds
    # The sleeping handler thread must not block the next request.
    fast = make_client(openai_server.base_url, timeout=2.0)
    reply = fast.chat.completions.create(model="refuse", messages=[{"role": "user", "content": "hi"}])
    assert reply.choices[0].message.content.startswith("The provided abstracts")


def test_flaky_succeeds_with_retries(openai_server) -> None:
    question = unique_question()
    client = make_client(openai_server.base_url, max_retries=2)
    response = client.chat.completions.create(model="flaky", messages=user_messages(question))
    assert response.choices[0].message.content == EXPECTED_ECHO
    statuses = [r["_status"] for r in openai_server.requests("flaky") if question in json.dumps(r)]
    assert statuses == [500, 200]


# --------------------------------------------------------------------------
# Chroma server
# --------------------------------------------------------------------------


def test_chroma_server_round_trip(chroma_server) -> None:
    host, port = chroma_server
    client = chromadb.HttpClient(host=host, port=port, settings=Settings(anonymized_telemetry=False))
    assert client.heartbeat() > 0
    collection = client.create_collection(
        name=f"infra-{uuid.uuid4().hex[:8]}",
        configuration={"hnsw": {"space": "cosine"}},
        embedding_function=None,
    )
    collection.add(
        ids=["a", "b", "c"],
        embeddings=[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        documents=["alpha", "beta", "gamma"],
        metadatas=[{"paper": "p01"}, {"paper": "p02"}, {"paper": "p03"}],
    )
    result = collection.query(query_embeddings=[[0.1, 0.9, 0.05]], n_results=2)
    assert result["ids"][0][0] == "b"
    assert result["documents"][0][0] == "beta"
    assert result["metadatas"][0][0] == {"paper": "p02"}
    assert result["distances"][0][0] < result["distances"][0][1]
    assert collection.count() == 3
