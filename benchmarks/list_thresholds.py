"""Do the "which papers" thresholds generalise? Re-tune them on all sets but one, score the one left out.

For every plain list question (not negated, no "both ... and") of the tuning sets, each seed
paper's sentence scores for each of the question's alternatives are computed once with the
assistant's own scorer (``EvidenceScorer``: stored sentence vectors, term coverage, related
words). The list decision of ``Gatherer._list`` is then replayed for a grid of thresholds,
score mixes and paper-level aggregations, and paper F1 against the gold papers is averaged.
Leave-one-set-out: the grid point best on the other sets is scored on the held-out set, next
to the shipped values (``rag.gather`` MEMBER_MIN / MEMBER_WITHIN / POSSIBLE_WITHIN, ``rag.evidence``
MEMBERSHIP_SIMILARITY_SHARE). If re-tuning does not beat the shipped values on held-out sets,
the thresholds sit on a plateau and moving them would fit noise.

The validation set is never read.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/list_thresholds.py
"""

from __future__ import annotations

import argparse
import itertools
import json
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rag.assistant import Assistant
from rag.config import Settings
from rag.evidence import MEMBERSHIP_SIMILARITY_SHARE, held_at
from rag.gather import LIST_NONE, MAX_POSSIBLE, MEMBER_MIN, MEMBER_WITHIN, POSSIBLE_WITHIN

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
SETS = ["dev", "probe", "probe2", "probe3", "probe4", "probe6", "probe7"]  # probe5 has no list questions
MINIMA = (0.25, 0.3, 0.33, 0.36, 0.4, 0.45)
WITHINS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8)
POSSIBLES = (0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65)
SHARES = (0.3, 0.4, 0.5, 0.6, 0.7)
AGGREGATES = ("best", "best two")
ABSTRACT_WEIGHTS = (0.0, 0.2, 0.4)


@dataclass
class Question:
    """One plain list question: per alternative, per paper, its sentences' (similarity, coverage) and the
    similarity of the paper's mean sentence vector."""

    name: str
    gold: set[str]
    sentences: list[dict[str, list[tuple[float, float]]]]
    abstract: list[dict[str, float]]


@dataclass(frozen=True)
class Point:
    minimum: float
    within: float
    possible: float
    share: float
    aggregate: str
    abstract_weight: float


SHIPPED = Point(MEMBER_MIN, MEMBER_WITHIN, POSSIBLE_WITHIN, MEMBERSHIP_SIMILARITY_SHARE, "best", 0.0)


def collect(assistant: Assistant, sets: Sequence[str]) -> list[Question]:
    """The plain list questions of the sets, with their sentence scores."""
    scorer, gatherer = assistant.gatherer.scorer, assistant.gatherer
    banked = scorer.bank.get(assistant.papers)
    questions = []
    for name in sets:
        for line in (DATA / f"{name}_questions.jsonl").read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            plan = assistant.plan(record["question"]) if record["type"] == "aggregate" else None
            if plan is None or plan.kind != "list" or plan.negated or len(plan.conjuncts) > 1:
                continue
            sentences, abstract = [], []
            for alternative in plan.alternatives or [plan.criterion]:
                vector = gatherer.embedder.embed_query(scorer.acronyms.expand(alternative))
                wanted = scorer.wanted(alternative)
                matches = scorer.word_matches(alternative, vector, [entry.stems for entry in banked.values()])
                per_paper, whole = {}, {}
                for pid, entry in banked.items():
                    if not entry.sentences:
                        continue
                    similarities = entry.vectors @ vector
                    per_paper[pid] = [(float(sim), scorer.weights.coverage(
                        wanted, stems, matches.related, held_at(matches.distant, sentence.text, stems)))
                                      for sentence, sim, stems in zip(entry.sentences, similarities, entry.stems,
                                                                      strict=True)]
                    mean = entry.vectors.mean(axis=0)
                    whole[pid] = float(mean @ vector / max(float(np.linalg.norm(mean)), 1e-9))
                sentences.append(per_paper)
                abstract.append(whole)
            questions.append(Question(name, set(record["gold_papers"]), sentences, abstract))
    return questions


def paper_scores(question: Question, point: Point) -> dict[str, float]:
    """Each paper's criterion score: its best (or best two) sentence mix, best over the alternatives."""
    best: dict[str, float] = {}
    for per_paper, whole in zip(question.sentences, question.abstract, strict=True):
        for pid, pairs in per_paper.items():
            mixed = sorted((point.share * sim + (1 - point.share) * cov for sim, cov in pairs), reverse=True)
            value = mixed[0] if point.aggregate == "best" else float(np.mean(mixed[:2]))
            value = (1 - point.abstract_weight) * value + point.abstract_weight * whole[pid]
            best[pid] = max(best.get(pid, 0.0), value)
    return best


def listed(scores: dict[str, float], point: Point) -> set[str]:
    """The papers ``Gatherer._list`` would cite: members and borderline ones, or the top paper of the
    fact answer it falls back to (one member and none borderline; none clear but one comes close)."""
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    ceiling = ranked[0][1]
    members = [p for p, s in ranked if s >= point.minimum and s >= point.within * ceiling]
    possible = [p for p, s in ranked
                if p not in members and s >= point.minimum and s >= point.possible * ceiling][:MAX_POSSIBLE]
    if (len(members) == 1 and not possible) or (not members and ceiling >= LIST_NONE):
        return {ranked[0][0]}
    return set(members + possible) if members else set()


def f1(cited: set[str], gold: set[str]) -> float:
    if not cited or not gold:
        return float(cited == gold)
    return 2 * len(cited & gold) / (len(cited) + len(gold))


def grid() -> list[Point]:
    return [Point(m, w, p, s, a, x) for m, w, p, s, a, x in itertools.product(
        MINIMA, WITHINS, POSSIBLES, SHARES, AGGREGATES, ABSTRACT_WEIGHTS) if p <= w] + [SHIPPED]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Leave-one-set-out check of the 'which papers' thresholds "
                                            "on the tuning question sets (seed corpus; validation never read).")
    p.add_argument("--data-dir", type=Path, default=None, help="seed index folder (default: a new temporary one)")
    p.add_argument("--sets", default=",".join(SETS), help="question sets under tests/data (comma-separated)")
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    sets = [s for s in args.sets.split(",") if s]
    with tempfile.TemporaryDirectory() as scratch:
        assistant = Assistant.open(Settings(data_dir=args.data_dir or Path(scratch)), progress=True)
        questions = collect(assistant, sets)
    points = grid()
    mixes = {(pt.share, pt.aggregate, pt.abstract_weight): [paper_scores(q, pt) for q in questions] for pt in points}
    table = {pt: [f1(listed(scores, pt), q.gold)
                  for scores, q in zip(mixes[pt.share, pt.aggregate, pt.abstract_weight], questions, strict=True)]
             for pt in points}
    print(f"{len(questions)} plain list questions, {len(points)} grid points\n")
    print("| held-out set | questions | chosen on the others | held-out F1 re-tuned | held-out F1 shipped |")
    print("|---|---|---|---|---|")
    tuned_all: list[float] = []
    shipped_all: list[float] = []
    for held in dict.fromkeys(q.name for q in questions):
        inside = [i for i, q in enumerate(questions) if q.name != held]
        out = [i for i, q in enumerate(questions) if q.name == held]
        chosen = max(points, key=lambda pt: (np.mean([table[pt][i] for i in inside]), pt == SHIPPED))
        tuned, shipped = [table[chosen][i] for i in out], [table[SHIPPED][i] for i in out]
        tuned_all += tuned
        shipped_all += shipped
        print(f"| {held} | {len(out)} | min {chosen.minimum}, within {chosen.within}, possible {chosen.possible}, "
              f"share {chosen.share}, {chosen.aggregate}, abstract {chosen.abstract_weight} "
              f"| {np.mean(tuned):.3f} | {np.mean(shipped):.3f} |")
    print(f"| all held-out | {len(tuned_all)} | | {np.mean(tuned_all):.3f} | {np.mean(shipped_all):.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
