"""Sentence vectors stored at ingest: same contract as encoding at question time, crash-safe, compacted."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from rag.chunking import split_sentences
from rag.config import SEED_CORPUS
from rag.corpus import load_corpus, make_paper
from rag.sentence_index import (
    SentenceFile,
    SentenceIndex,
    ingest_sentences,
    sentence_key,
    sentence_signature,
)

FLOAT16_AGREEMENT = 0.999  # cosine of a stored (float16) row with a fresh float32 encoding


@pytest.fixture(scope="module")
def seeds() -> list[Any]:
    return load_corpus(SEED_CORPUS)


@pytest.fixture()
def indexed(tmp_path: Path, seeds: list[Any], seed_embedder: Any) -> Path:
    ingest_sentences(seeds, tmp_path, seed_embedder, progress=False)
    return tmp_path


def test_assistant_open_stores_every_seed_sentence(seed_assistant: Any) -> None:
    index = seed_assistant.sentence_index
    assert all(index.stored(p) for p in seed_assistant.papers)
    got = index.get(seed_assistant.papers)
    for paper in seed_assistant.papers:
        sentences, vectors = got[paper.id]
        assert sentences == split_sentences(paper.text)
        assert vectors.dtype == np.float32 and vectors.shape == (len(sentences), seed_assistant.embedder.dimension)
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_stored_vectors_match_encoding_at_question_time(indexed: Path, seeds: list[Any], seed_embedder: Any) -> None:
    index = SentenceIndex(indexed, seed_embedder, seeds)
    paper = seeds[3]
    sentences, stored = index.get([paper])[paper.id]
    fresh = seed_embedder.embed([s.text for s in sentences])
    assert np.min(np.sum(stored * fresh, axis=1)) > FLOAT16_AGREEMENT


def test_max_sim_is_the_best_sentence_per_paper(indexed: Path, seeds: list[Any], seed_embedder: Any) -> None:
    index = SentenceIndex(indexed, seed_embedder, seeds)
    query = seed_embedder.embed_query("diffusion models for image generation")
    ids = [p.id for p in seeds]
    best = index.max_sim(query, ids)
    expected = {pid: float((vectors @ query).max()) for pid, (_, vectors) in index.get(seeds).items()}
    assert set(best) == set(ids)
    for pid in ids:
        assert best[pid] == pytest.approx(expected[pid], abs=1e-5)


def test_papers_missing_from_the_index_are_encoded_on_the_fly(indexed: Path, seeds: list[Any],
                                                              seed_embedder: Any) -> None:
    extra = make_paper("We study sparse autoencoders. They find interpretable features in language models.",
                       id="extra")
    index = SentenceIndex(indexed, seed_embedder, [*seeds, extra])
    assert not index.stored(extra)
    sentences, vectors = index.get([extra])["extra"]
    assert [s.text for s in sentences] == ["We study sparse autoencoders.",
                                          "They find interpretable features in language models."]
    np.testing.assert_allclose(vectors, seed_embedder.embed([s.text for s in sentences]), atol=1e-5)
    assert set(index.max_sim(vectors[0], ["extra", seeds[0].id])) == {"extra", seeds[0].id}


def test_an_interrupted_append_is_redone_and_never_misread(indexed: Path, seeds: list[Any],
                                                           seed_embedder: Any) -> None:
    file = SentenceFile(indexed, seed_embedder.dimension)
    file.refresh()
    before = dict(file.offsets)
    lines = file.offsets_path.read_text().splitlines(keepends=True)
    # A crash after writing vectors but mid-way through the log: garbage rows and a torn line.
    with open(file.vectors_path, "ab") as out:
        out.write(b"\x01" * 1000)
    file.offsets_path.write_text("".join(lines[:-1]) + lines[-1].rstrip("\n")[:5])
    lost = [p for p in seeds if sentence_key(p, sentence_signature(seed_embedder)) == lines[-1].split("\t")[0]]
    assert len(lost) == 1
    index = SentenceIndex(indexed, seed_embedder, seeds)
    assert not index.stored(lost[0]) and sum(index.stored(p) for p in seeds) == len(seeds) - 1

    encoded = ingest_sentences(seeds, indexed, seed_embedder, progress=False)
    assert encoded == len(split_sentences(lost[0].text))
    file.refresh()
    assert set(file.offsets) == set(before)
    fresh = SentenceIndex(indexed, seed_embedder, seeds)
    sentences, vectors = fresh.get([lost[0]])[lost[0].id]
    assert fresh.stored(lost[0])
    assert np.min(np.sum(vectors * seed_embedder.embed([s.text for s in sentences]), axis=1)) > FLOAT16_AGREEMENT


def test_reingest_of_an_unchanged_corpus_encodes_nothing(indexed: Path, seeds: list[Any], seed_embedder: Any) -> None:
    assert ingest_sentences(seeds, indexed, seed_embedder, progress=False) == 0


def test_edited_papers_get_new_rows_and_dead_rows_are_compacted(indexed: Path, seeds: list[Any],
                                                                seed_embedder: Any) -> None:
    file = SentenceFile(indexed, seed_embedder.dimension)
    once = [make_paper(p.text + " We release code.", id=p.id) for p in seeds]
    ingest_sentences(once, indexed, seed_embedder, progress=False)
    file.refresh()
    assert len(file.offsets) == 2 * len(seeds)  # dead rows do not yet outweigh live ones: kept
    twice = [make_paper(p.text + " We release data.", id=p.id) for p in once]
    ingest_sentences(twice, indexed, seed_embedder, progress=False)
    file.refresh()
    assert len(file.offsets) == len(seeds)  # compacted down to the live papers
    row_bytes = seed_embedder.dimension * np.dtype(np.float16).itemsize
    rows = sum(len(split_sentences(p.text)) for p in twice)
    assert file.vectors_path.stat().st_size == rows * row_bytes
    index = SentenceIndex(indexed, seed_embedder, twice)
    assert all(index.stored(p) for p in twice)
    assert index.get([twice[0]])[twice[0].id][0][-2:] == split_sentences(twice[0].text)[-2:]
    assert twice[0].text.endswith("We release code. We release data.")


def test_vectors_of_another_backend_have_other_keys(seed_embedder: Any) -> None:
    onnx = SimpleNamespace(model_path=seed_embedder.model_path, backend="onnx")
    assert sentence_signature(onnx) != sentence_signature(seed_embedder)


def test_hybrid_fusion_adds_the_weighted_best_stored_sentence(seed_assistant: Any) -> None:
    from rag.retrieval import Retriever

    a = seed_assistant
    retriever = Retriever(a.by_id, a.store, a.embedder, a.retriever.lexical, lexical_weight=1.0,
                          sentence_similarity=a.sentence_index.max_sim, sentence_weight=0.5)
    ranked = retriever.rank("token merging to accelerate diffusion models")
    best = a.sentence_index.max_sim(a.embedder.embed_query("token merging to accelerate diffusion models"),
                                    [s.paper_id for s in ranked])
    assert ranked[0].paper_id == "p12"
    for s in ranked:
        assert s.score == pytest.approx(s.dense + 0.5 * best[s.paper_id] + 1.0 * s.lexical, abs=1e-6)
