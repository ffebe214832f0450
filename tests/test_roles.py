"""Sentence roles: accuracy on hand-labelled held-out abstracts and the API contract.

The held-out set (``tests/data/roles_heldout.jsonl``) was labelled before any rule of
``rag.roles`` was written and has never been tuned on; the rules were written against
``roles_dev.jsonl``, drawn from other abstracts. ``benchmarks/roles.py`` prints the
full comparison (per-role scores, confusion matrix, position-only baseline, speed).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import get_args

import pytest

from rag.roles import ROLES, Role, reports_experiment, reports_figure, sentence_roles

DATA = Path(__file__).resolve().parent / "data"
# Measured 0.884 (175/198 sentences) on 2026-11-29; the floor leaves 0.05 for rule changes.
HELDOUT_ACCURACY_FLOOR = 0.83


def _load(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]


def _accuracy(records: list[dict]) -> float:
    gold = [s["role"] for r in records for s in r["sentences"]]
    predicted = [role for r in records for role in sentence_roles([s["text"] for s in r["sentences"]])]
    return sum(g == p for g, p in zip(gold, predicted, strict=True)) / len(gold)


def test_heldout_accuracy_stays_above_floor() -> None:
    assert _accuracy(_load("roles_heldout.jsonl")) >= HELDOUT_ACCURACY_FLOOR


def test_labelled_sets_are_large_enough_valid_and_disjoint() -> None:
    dev, heldout = _load("roles_dev.jsonl"), _load("roles_heldout.jsonl")
    assert len(heldout) >= 30 and sum(len(r["sentences"]) for r in heldout) >= 150
    assert len(dev) >= 20
    assert not {r["paper_id"] for r in dev} & {r["paper_id"] for r in heldout}
    assert {s["role"] for r in dev + heldout for s in r["sentences"]} <= set(ROLES)


def test_roles_constant_matches_the_type() -> None:
    assert ROLES == get_args(Role)


def test_empty_abstract_has_no_roles() -> None:
    assert sentence_roles([]) == []


@pytest.mark.parametrize("count", [1, 2, 7, 30])
def test_one_valid_role_per_sentence(count: int) -> None:
    sentences = ["We propose a method for graph matching."] * count
    roles = sentence_roles(sentences)
    assert len(roles) == count
    assert set(roles) <= set(ROLES)


def test_typical_abstract_reads_in_order() -> None:
    abstract = [
        "Training large models remains challenging because existing methods are expensive.",
        "In this paper, we propose FastTrain, a scheduler that reuses gradients across steps.",
        "FastTrain keeps a small cache of past gradients and mixes them into each update.",
        "Experiments on ImageNet show that FastTrain outperforms strong baselines by 12%.",
        "Code is available at https://github.com/example/fasttrain.",
    ]
    assert sentence_roles(abstract) == ["problem", "method", "method", "result", "release"]


@pytest.mark.parametrize("link", [
    "Our code is available at https://github.com/example/repo.",
    "See www.example.org/project for videos.",
    "The dataset and models will be made publicly available.",
    "Implementation details and code are provided in the supplementary material.",
])
def test_links_and_releases_are_release_wherever_they_stand(link: str) -> None:
    body = ["Existing detectors fail on small objects.", "We propose a scale-aware detector.",
            "It improves recall by 5% on COCO."]
    for position in range(len(body) + 1):
        sentences = body[:position] + [link] + body[position:]
        assert sentence_roles(sentences)[position] == "release"


def test_publicly_available_services_are_not_a_release() -> None:
    roles = sentence_roles(["We present a navigation agent.",
                            "Labels come from publicly available mapping services.",
                            "The agent outperforms prior work."])
    assert "release" not in roles


def test_labelling_is_deterministic() -> None:
    sentences = [s["text"] for s in _load("roles_dev.jsonl")[0]["sentences"]]
    assert sentence_roles(sentences) == sentence_roles(list(sentences))


@pytest.mark.parametrize(("sentence", "empirical"), [
    ("Experiments on three datasets confirm the analysis.", True),
    ("Our method improves accuracy by 3.2 points over the strongest baseline.", True),
    ("Numerical simulations illustrate the predicted phase transition.", True),
    ("We evaluate the detector on aerial imagery.", True),
    ("It reaches an AUC of 0.91.", True),
    ("We prove a matching information-theoretic lower bound.", False),
    ("Under the assumption that the tasks are related, we derive a generalisation bound.", False),
    ("The roadmap uses a sparse map of the environment.", False),  # ("map" is no metric)
])
def test_a_sentence_reports_an_experiment_by_what_it_ran_or_measured(sentence: str, empirical: bool) -> None:
    assert reports_experiment(sentence) is empirical


@pytest.mark.parametrize(("sentence", "measured"), [
    ("Recall rises from 61.0% to 74.5% on the harbour set.", True),
    ("It gains 2.3 points over the strongest baseline.", True),
    ("The detector adds +1.8 on AP50 over its backbone.", True),
    ("It reaches an F1 of 0.82.", True),
    ("The benchmark holds 4,210 annotated reefs.", False),  # a count of things, no measured result
    ("Fine-tuning takes fewer than 500 steps.", False),
    ("We prove an O(n log n) bound for 2 x 2 games.", False),
])
def test_a_sentence_states_a_measured_figure_by_its_unit_or_metric(sentence: str, measured: bool) -> None:
    assert reports_figure(sentence) is measured
