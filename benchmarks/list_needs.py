"""Are the two list needs read from their wording recognised in wordings nobody tuned for?

"Which papers report no experiments?" and "Which abstracts put actual numbers on their gains?" are
answered from the abstracts (``rag.roles``), but the need itself is recognised from the question's
wording (``rag.questions``). Two sets of questions written blind by helpers, each asking for one of
the needs or for a look-alike ("Which papers report the number of parameters?"):
``tests/data/list_needs_tune.jsonl`` (40), whose misses the wording was corrected against, and
``tests/data/list_needs_blind.jsonl`` (32), scored once after that, never tuned on.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/list_needs.py
    PYTHONPATH=$PWD .venv/bin/python benchmarks/list_needs.py --misses
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rag.config import PROJECT_ROOT, SEED_CORPUS  # noqa: E402
from rag.corpus import load_corpus  # noqa: E402
from rag.questions import QuestionPlan, plan_question  # noqa: E402

SETS = {"tune": PROJECT_ROOT / "tests" / "data" / "list_needs_tune.jsonl",
        "blind": PROJECT_ROOT / "tests" / "data" / "list_needs_blind.jsonl"}
NEEDS = ("figures", "no_experiments", "other")


def recognised(plan: QuestionPlan) -> str:
    """The need the assistant answers the question as (a list asked for in the plural)."""
    if plan.asks_several and plan.no_experiments:
        return "no_experiments"
    if plan.asks_several and plan.asks_figures:
        return "figures"
    return "other"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Recognition of the theory-only and measured-figures list needs.")
    parser.add_argument("--misses", action="store_true", help="also print every question read as another need")
    args = parser.parse_args(argv)
    seeds = load_corpus(SEED_CORPUS)
    print(f"{'set':8}" + "".join(f"{need:>18}" for need in NEEDS))
    for name, path in SETS.items():
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        read = [(row, recognised(plan_question(row["question"], seeds))) for row in rows]
        cells = []
        for need in NEEDS:
            of_need = [got for row, got in read if row["need"] == need]
            cells.append(f"{sum(got == need for got in of_need)}/{len(of_need)}")
        print(f"{name:8}" + "".join(f"{cell:>18}" for cell in cells))
        if args.misses:
            for row, got in read:
                if got != row["need"]:
                    print(f"  {row['id']} ({row['need']}, read as {got}): {row['question']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
