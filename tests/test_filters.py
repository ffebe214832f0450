"""Venue/year filters: parsed from questions and flags, applied in a real Chroma store (embedded and
``chroma run``) and in BM25 alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rag.assistant import Assistant
from rag.config import SEED_CORPUS
from rag.corpus import load_corpus, make_paper
from rag.filters import (
    FilterError,
    Filters,
    canonical_venues,
    parse_filters,
    parse_year_range,
)
from rag.indexing import ingest
from rag.lexical import LexicalIndex
from rag.store import VectorStore

VENUES = ["NeurIPS", "ICML", "ACL", "NAACL", "ALT", "CoRL", "CVPR"]

# Diffusion-model abstracts at other venues and years: each would outrank some seed
# paper on "diffusion models" if the filter did not hold.
DISTRACTORS = [
    ("icml19-diff", "ICML", 2019, ("We propose a diffusion model for image generation. Denoising diffusion models "
     "reverse a noising process step by step. Our sampler halves the number of diffusion steps.")),
    ("icml22-diff", "ICML", 2022, ("Diffusion models are generative models that learn to denoise. We study how "
     "diffusion models memorise training images and propose a regulariser.")),
    ("cvpr21-diff", "CVPR", 2021, ("Text-to-image diffusion models generate images from prompts. We accelerate "
     "diffusion model sampling with token merging and caching.")),
    ("acl21-sum", "ACL", 2021, ("We study abstractive summarization of news with pretrained language models. "
     "Our summarizer improves faithfulness.")),
    ("naacl22-sum", "NAACL", 2022, ("Summarization of dialogues is hard. We propose a dialogue summarization "
     "dataset and a baseline model.")),
    ("neurips18-rl", "NeurIPS", 2018, ("We propose a reinforcement learning algorithm for sparse rewards and "
     "evaluate it on robotic manipulation tasks with diffusion policies.")),
]


def corpus() -> list[Any]:
    distractors = [make_paper(text, id=pid, meta={"venue": venue, "year": year})
                   for pid, venue, year, text in DISTRACTORS]
    return [*load_corpus(SEED_CORPUS), *distractors]


@pytest.fixture(scope="module", params=["embedded", "server"])
def filtered_assistant(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                       make_settings: Any, seed_embedder: Any) -> Assistant:
    """Seeds + distractors indexed in an embedded store, or in the session's ``chroma run`` server."""
    data_dir = tmp_path_factory.mktemp(f"filters_{request.param}")
    papers = corpus()
    if request.param == "server":
        host, port = request.getfixturevalue("chroma_server")
        settings = make_settings(data_dir=data_dir, chroma_host=host, chroma_port=port, collection="filters")
    else:
        settings = make_settings(data_dir=data_dir)
    store = VectorStore.open(data_dir, settings.collection, settings.chroma_host, settings.chroma_port)
    ingest(papers, store, seed_embedder, settings.chunk_tokens, settings.chunk_overlap_sentences, progress=False,
           data_dir=data_dir)
    return Assistant(settings, papers, seed_embedder, store, LexicalIndex.build(papers))


# --------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(("question", "expected", "rest"), [
    ("Which NeurIPS 2026 papers study diffusion models?", Filters(("NeurIPS",), 2026, 2026),
     "Which papers study diffusion models?"),
    ("ICML papers since 2022 on sparse attention", Filters(("ICML",), 2022, None), "papers on sparse attention"),
    ("Which papers between 2019 and 2021 study graphs?", Filters((), 2019, 2021), "Which papers study graphs?"),
    ("What was published from 2023 about LLM agents?", Filters((), 2023, 2023),
     "What was published about LLM agents?"),
    ("Which ACL and NAACL papers from 2021-2022 study summarization?", Filters(("NAACL", "ACL"), 2021, 2022),
     "Which papers study summarization?"),
    ("CoRL papers before 2023 on grasping", Filters(("CoRL",), None, 2022), "papers on grasping"),
    ("Which papers at neurips study sparse rewards?", Filters(("NeurIPS",)), "Which papers study sparse rewards?"),
])
def test_questions_state_venues_and_years(question: str, expected: Filters, rest: str) -> None:
    assert parse_filters(question, VENUES) == (expected, rest)


@pytest.mark.parametrize("question", [
    "Which model was trained on 2000 images?",  # a count, not a year
    "Is there an alt text generator?",  # "ALT" is a venue only in capitals
    "How do these papers compare?",
])
def test_questions_without_filters_are_left_alone(question: str) -> None:
    assert parse_filters(question, VENUES) == (Filters(), question)


def test_year_flags_and_venue_names() -> None:
    assert [parse_year_range(t) for t in ("2022", "2019-2021", "2019-", "-2021")] == \
        [(2022, 2022), (2019, 2021), (2019, None), (None, 2021)]
    with pytest.raises(FilterError):
        parse_year_range("2021-2019")
    assert canonical_venues(["neurips", "ICML"], VENUES) == ("NeurIPS", "ICML")
    with pytest.raises(FilterError, match="unknown venue"):
        canonical_venues(["ICLR"], VENUES)


def test_filters_narrow_each_other_and_become_a_chroma_where() -> None:
    ui = Filters(("NeurIPS", "ICML"), 2018, None)
    stated = Filters(("ICML",), None, 2022)
    assert stated.narrowed(ui) == Filters(("ICML",), 2018, 2022)
    assert Filters(("ICML",), 2018, 2022).chroma_where() == {"$and": [
        {"venue": {"$in": ["ICML"]}}, {"year": {"$gte": 2018}}, {"year": {"$lte": 2022}}]}
    assert Filters().chroma_where() is None and not Filters()


def test_seed_header_gives_venue_and_year() -> None:
    assert {(p.meta["venue"], p.meta["year"]) for p in load_corpus(SEED_CORPUS)} == {("NeurIPS", 2026)}


def test_jsonl_venue_and_year_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({"id": "a", "abstract": "We study things.", "venue": "ICML", "year": "2019",
                                "authors": ["A. B."]}) + "\n")
    paper = load_corpus(path)[0]
    assert (paper.meta["venue"], paper.meta["year"]) == ("ICML", 2019) and "authors" in paper.meta


# --------------------------------------------------------------------------- in the store and BM25


@pytest.mark.parametrize("mode", ["dense", "bm25", "hybrid"])
def test_every_retriever_returns_only_matching_papers(filtered_assistant: Assistant, mode: str) -> None:
    filters = Filters(("ICML",), 2020, None)
    sources = filtered_assistant.retrieve("diffusion models for image generation", top_k=10, mode=mode,
                                          filters=filters)
    assert [s.paper_id for s in sources] == ["icml22-diff"]


def test_chroma_where_selects_chunks_by_metadata(filtered_assistant: Assistant) -> None:
    vector = filtered_assistant.embedder.embed_query("summarization")
    where = Filters(("ACL", "NAACL"), 2021, 2021).chroma_where()
    hits = filtered_assistant.store.query(vector, 50, where=where)
    assert hits and {h.paper_id for h in hits} == {"acl21-sum"}


def test_which_neurips_2026_papers_lists_only_seed_papers(filtered_assistant: Assistant) -> None:
    answer = filtered_assistant.answer("Which NeurIPS 2026 papers study diffusion models?")
    cited = {s.paper_id for s in answer.cited_sources}
    assert answer.filters == Filters(("NeurIPS",), 2026, 2026)
    assert {"p12", "p15"} <= cited
    assert all(s.paper.meta["year"] == 2026 for s in answer.sources)
    unfiltered = filtered_assistant.answer("Which papers study diffusion models?")
    assert any(s.paper_id.startswith(("icml", "cvpr")) for s in unfiltered.sources)  # the filter did the work


def test_a_year_range_from_the_caller_narrows_the_question(filtered_assistant: Assistant) -> None:
    answer = filtered_assistant.answer("Which papers study summarization?",
                                       filters=Filters(year_min=2021, year_max=2022))
    assert {s.paper_id for s in answer.cited_sources} == {"naacl22-sum", "acl21-sum"}
    assert answer.to_dict()["filters"] == {"venues": (), "year_min": 2021, "year_max": 2022}


def test_cli_flags_filter_and_reject_unknown_venues(cli_data_dir: Any, rag_cli: Any) -> None:
    data_dir, _ = cli_data_dir
    done = rag_cli("-q", "ask", "--json", "--venue", "neurips", "--year", "2020-2026",
                   "Which papers study diffusion models?", data_dir=data_dir)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["filters"] == {"venues": ["NeurIPS"], "year_min": 2020, "year_max": 2026}
    assert {"p12", "p15"} <= {s["paper_id"] for s in result["sources"]}
    wrong = rag_cli("-q", "papers", "--venue", "ICLR", data_dir=data_dir)
    assert wrong.returncode == 2 and "unknown venue(s): ICLR" in wrong.stderr
