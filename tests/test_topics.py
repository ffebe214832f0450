"""Topic clusters (rag.topics), the store's paper vectors, and the Topics page.

The theme tests embed a hand-made corpus with the real bundled model, so they
check what a user would see: three obvious themes come back as three topics,
each named by one of its own words, never by words every abstract uses.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rag import topics  # noqa: E402 - after the sys.path set-up above
from rag.generic_terms import GENERIC_WORDS  # noqa: E402 - after the sys.path set-up above
from rag.topics import name_topics, topic_map  # noqa: E402 - after the sys.path set-up above
from ui.markup import escape  # noqa: E402 - after the sys.path set-up above

THEMES = {
    "protein": [
        ("We propose a method to predict protein structure from amino acid sequences. Results show accurate "
         "folding of protein domains."),
        ("Protein folding remains hard; our approach learns residue contacts and protein structure from "
         "evolutionary sequences."),
        ("This paper studies protein design: we generate amino acid sequences that fold into a target protein "
         "structure."),
        "We present a model of protein binding sites that predicts how ligands dock to protein structures.",
    ],
    "robot": [
        "We propose a method for robot grasping: a robot arm learns to pick up objects from camera images.",
        "Robot manipulation with a gripper is learned from demonstrations; the robot stacks blocks on a table.",
        "This paper presents a legged robot that learns locomotion over rough terrain with reinforcement learning.",
        "Our approach plans robot arm trajectories so the gripper avoids obstacles while grasping objects.",
    ],
    "speech": [
        "We propose a model for speech recognition that transcribes spoken audio into text with low error rates.",
        "Speech synthesis turns text into natural sounding audio; our approach improves the prosody of speech.",
        "This paper studies speaker identification from short speech recordings in noisy audio.",
        "We present a method for speech translation that maps spoken audio in one language to text in another.",
    ],
}


@pytest.fixture(scope="module")
def themed(seed_embedder: Any) -> tuple[list[str], list[str], np.ndarray, dict[str, str]]:
    """Ids, texts, real embeddings and the theme of each paper of the hand-made corpus."""
    texts = [text for group in THEMES.values() for text in group]
    theme_of = {f"t{i:02d}": theme for i, theme in enumerate(t for t, g in THEMES.items() for _ in g)}
    return list(theme_of), texts, seed_embedder.embed(texts), theme_of


def test_recovers_the_three_themes_and_names_them_by_their_words(themed) -> None:
    ids, texts, vectors, theme_of = themed
    result = topic_map(ids, texts, vectors)
    assert len(result.topics) == 3
    for topic in result.topics:
        themes = {theme_of[pid] for pid in topic.paper_ids}
        assert len(themes) == 1 and len(topic.paper_ids) == 4, (topic, themes)
        (theme,) = themes
        assert any(theme in term.lower() for term in topic.terms), (theme, topic.terms)
        assert 3 <= len(topic.terms) <= 5
    assert result.topic_of == {pid: t.number for t in result.topics for pid in t.paper_ids}
    assert set(result.coords) == set(ids)


def test_names_skip_words_every_abstract_uses(themed) -> None:
    ids, texts, vectors, _ = themed
    generic = {w.lower() for w in GENERIC_WORDS}
    assert {"propose", "method", "paper", "results", "approach"} <= generic  # all in the texts above
    for topic in topic_map(ids, texts, vectors).topics:  # a bigram may hold one ("protein structure"), not two
        assert not [term for term in topic.terms if set(term.lower().split()) <= generic], topic.terms


def test_same_input_same_topics_numbers_and_map(themed) -> None:
    ids, texts, vectors, _ = themed
    assert topic_map(ids, texts, vectors) == topic_map(ids, texts, vectors)


def test_members_are_listed_most_central_first(themed) -> None:
    ids, texts, vectors, _ = themed
    row = {pid: i for i, pid in enumerate(ids)}
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    for topic in topic_map(ids, texts, vectors).topics:
        members = unit[[row[pid] for pid in topic.paper_ids]]
        closeness = members @ members.mean(axis=0)
        assert list(closeness) == sorted(closeness, reverse=True)


def test_requested_number_of_topics_is_honoured(themed) -> None:
    ids, texts, vectors, _ = themed
    result = topic_map(ids, texts, vectors, n_topics=2)
    assert [t.number for t in result.topics] == [1, 2]
    assert len(result.topics[0].paper_ids) >= len(result.topics[1].paper_ids)  # numbered largest first
    assert sorted(pid for t in result.topics for pid in t.paper_ids) == sorted(ids)


def test_one_paper_is_one_named_topic(seed_embedder: Any) -> None:
    text = "Protein folding from amino acid sequences with protein language models."
    result = topic_map(["a"], [text], seed_embedder.embed([text]))
    assert [(t.number, t.paper_ids) for t in result.topics] == [(1, ["a"])]
    assert any("protein" in term.lower() for term in result.topics[0].terms)
    assert result.coords == {"a": (0.0, 0.0)}


def test_two_papers_share_one_topic_and_are_drawn_apart(themed) -> None:
    ids, texts, vectors, _ = themed
    result = topic_map(ids[:1] + ids[-1:], texts[:1] + texts[-1:], vectors[[0, -1]])
    assert len(result.topics) == 1 and sorted(result.topics[0].paper_ids) == sorted([ids[0], ids[-1]])
    assert result.coords[ids[0]] != result.coords[ids[-1]]


def test_no_papers_and_mismatched_inputs() -> None:
    assert topic_map([], [], np.zeros((0, 4))) == topics.TopicMap(topics=[], coords={}, topic_of={})
    with pytest.raises(ValueError, match="one each per paper"):
        topic_map(["a", "b"], ["only one text"], np.ones((2, 4)))


def test_large_corpus_learns_on_a_sample_and_assigns_everyone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above CLUSTER_SAMPLE papers the centres come from a sample; every paper still gets its blob's topic."""
    monkeypatch.setattr(topics, "CLUSTER_SAMPLE", 60)
    rng = np.random.default_rng(1)
    centres = np.eye(3, 16) * 5
    vectors = np.concatenate([c + rng.normal(scale=0.3, size=(100, 16)) for c in centres])
    words = ["alpha", "beta", "gamma"]
    texts = [f"{words[i // 100]} study number {i}" for i in range(300)]
    result = topic_map([str(i) for i in range(300)], texts, vectors, n_topics=3)
    assert len(result.topics) == 3
    for topic in result.topics:
        assert len({int(pid) // 100 for pid in topic.paper_ids}) == 1
        assert any(words[int(topic.paper_ids[0]) // 100] in term for term in topic.terms), topic.terms


def test_a_distinctive_bigram_replaces_its_word() -> None:
    names = name_topics([
        ["Diffusion models generate images.", "Latent diffusion models are fast samplers."],
        ["Graph neural networks pass messages.", "Message passing on graph neural networks."],
    ])
    assert "diffusion models" in names[0] and "diffusion" not in names[0]
    assert any(term.startswith("graph") for term in names[1])


def test_store_paper_vectors_are_mean_chunk_vectors(seed_assistant: Any) -> None:
    vectors = seed_assistant.store.paper_vectors()
    assert set(vectors) == {p.id for p in seed_assistant.papers}
    hits = seed_assistant.store.query(vectors["p05"], n=50, paper_ids=["p05"])
    chunks = seed_assistant.store.get_vectors([h.chunk_id for h in hits])
    np.testing.assert_allclose(vectors["p05"], np.mean(list(chunks.values()), axis=0), rtol=1e-5, atol=1e-6)


# --------------------------------------------------------------------------- the page


@pytest.fixture
def topics_app(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    """The Topics page alone, over the seeds in a fresh index, no model endpoint."""
    data_dir = tmp_path_factory.mktemp("topics_ui")
    monkeypatch.setenv("RAG_DATA_DIR", str(data_dir))
    for name in ("RAG_LLM_BASE_URL", "RAG_LLM_MODEL", "RAG_LLM_API_KEY", "RAG_CORPUS", "RAG_CHROMA_HOST",
                 "RAG_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(data_dir)
    yield AppTest.from_function(_render_topics_page, args=(str(ROOT),), default_timeout=120)
    st.cache_resource.clear()


def _render_topics_page(root: str) -> None:
    import sys

    sys.path.insert(0, root)
    from ui import topics_page

    topics_page.render()


def test_topics_page_draws_the_map_and_lists_topics(topics_app: AppTest) -> None:
    at = topics_app.run()
    assert not at.exception, at.exception
    charts = at.get("vega_lite_chart")
    assert len(charts) == 1
    spec = charts[0].proto.spec
    assert '"paper"' in spec and "point" in spec  # the click selection that opens a card
    listed = [m.value for m in at.markdown if "papers" in m.value or "paper" in m.value]
    assert any(escape("Who&When Pro (p05)") in m for m in listed), listed
    assert "19 papers in" in at.caption[0].value
