"""A paper label that many abstracts use as an ordinary word does not hijack the question.

Among 50k real abstracts one paper is titled "DNA: Improving Few-Shot Transfer ...": its label
"DNA" linked every question about tumour DNA to it, and the answer quoted only that paper. A
label found in more abstracts than ``MAX_NAME_PAPERS`` now points at whichever of those papers
the question retrieves best; a label few abstracts use still names its paper outright.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rag.questions import MAX_NAME_PAPERS, plan_question

ABSTRACTS = [
    ("a1", "DNA: Improving Few-Shot Transfer with Low-Rank Decomposition and Alignment",
     "Self-supervised representations degrade when transferred to downstream tasks with domain shifts. "
     "We decompose pretrained weights into low-rank factors and align them to the target domain, which "
     "improves few-shot classification accuracy on eleven cross-domain benchmarks."),
    ("a2", "Liquid biopsy beyond cancer",
     "Blood tests that read cell-free DNA fragments detect tumours because cancer leaves a few strong hot spots "
     "in the genome. We show that chronic organ fibrosis spreads its signal thinly across many regions, so "
     "screening methods built for cancer lose most of their power for scarring diseases."),
    ("a3", "Reading genomes with long-context transformers",
     "We train a language model on DNA sequences from hundreds of species and show that it predicts "
     "regulatory elements without labelled data."),
    ("a4", "Storing archives in synthetic molecules",
     "Synthetic DNA can store digital archives for centuries; we propose an error-correcting code that "
     "tolerates the insertions and deletions of molecular synthesis."),
    ("a5", "Protein binding from sequence",
     "Predicting where proteins bind to DNA is central to gene regulation; a convolutional model trained on "
     "binding assays recovers known motifs."),
    ("a6", "RISE: selective updates for multi-agent question answering",
     "We propose RISE, which trains multi-agent retrieval pipelines for multi-hop question answering and "
     "updates only the agent responsible for a failed episode. It is evaluated on HotpotQA and MuSiQue."),
    ("a7", "Counting birds from drones",
     "Aerial surveys of nesting colonies are slow; a detector trained on drone imagery counts birds within "
     "five percent of expert tallies."),
]
TUMOUR_QUESTION = ("Which work argues that blood tests built to catch tumour DNA do not carry over to organ "
                   "scarring diseases?")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ambiguous_labels") / "abstracts.jsonl"
    path.write_text("".join(json.dumps({"id": pid, "title": title, "abstract": text}) + "\n"
                            for pid, title, text in ABSTRACTS), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def assistant(corpus: Path, seed_embedder: Any, make_settings: Callable[..., Any],
              tmp_path_factory: pytest.TempPathFactory) -> Any:
    from rag.assistant import Assistant
    from rag.corpus import load_corpus
    from rag.indexing import ingest
    from rag.lexical import LexicalIndex
    from rag.store import VectorStore

    data_dir = tmp_path_factory.mktemp("ambiguous_labels_index")
    papers = load_corpus(corpus)
    store = VectorStore.open(data_dir, "ambiguous")
    ingest(papers, store, seed_embedder, 200, 1, progress=False)
    return Assistant(make_settings(data_dir=data_dir), papers, seed_embedder, store, LexicalIndex.build(papers))


def test_the_corpus_makes_dna_an_ambiguous_label_and_rise_a_name(assistant: Any) -> None:
    labels = {p.id: p.label for p in assistant.papers}
    assert labels["a1"] == "DNA" and labels["a6"] == "RISE"
    plan = plan_question(TUMOUR_QUESTION, assistant.papers)
    assert plan.targets == ["a1"]
    assert len(plan.ambiguous["a1"]) > MAX_NAME_PAPERS
    assert plan_question("Which datasets was RISE evaluated on?", assistant.papers).ambiguous == {}


def test_a_question_about_tumour_dna_is_answered_from_the_paper_it_retrieves(assistant: Any) -> None:
    answer = assistant.answer(TUMOUR_QUESTION, use_llm=False)
    cited = [s.paper.id for s in answer.sources if s.number in answer.cited]
    assert cited[:1] == ["a2"], answer.text
    assert "a1" not in cited, answer.text


def test_a_label_few_abstracts_use_still_names_its_paper(assistant: Any) -> None:
    answer = assistant.answer("Which datasets was RISE evaluated on?", use_llm=False)
    cited = [s.paper.id for s in answer.sources if s.number in answer.cited]
    assert cited == ["a6"], answer.text
    assert "HotpotQA" in answer.text
