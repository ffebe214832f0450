"""Does a question about the whole collection get the overview, and only such a question?

Reads ``tests/data/overview_questions.jsonl``: requests for an overview of the collection
("What are the main themes of this conference?", "Give me the lay of the land") and look-alikes
that are not ("What does this conference say about quantum computing?", "Who are the authors in
this collection?", "Summarize the papers about diffusion"). Each row says where it came from:
``written`` (written while designing the decision, tuning), ``blind1`` (written blind by a helper;
its misses shaped the design, so tuning too), ``blind2`` (written blind by another helper and
scored once before any change was made from it: 12/25 and 0/25, the honest figure). Prints, per
source, how many overview requests got the overview and how many look-alikes did.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/overview.py
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from rag.assistant import Assistant
from rag.config import Settings

QUESTIONS = Path(__file__).resolve().parent.parent / "tests" / "data" / "overview_questions.jsonl"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=Path, default=QUESTIONS, help="JSONL of id, source, question, expect")
    parser.add_argument("--data-dir", type=Path, help="index folder (default: a fresh temporary one)")
    parser.add_argument("--misses", action="store_true", help="also print every question answered the wrong way")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    rows = [json.loads(line) for line in args.questions.read_text(encoding="utf-8").splitlines() if line.strip()]
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    with tempfile.TemporaryDirectory() as scratch:
        assistant = Assistant.open(Settings(data_dir=args.data_dir or Path(scratch)), progress=True)
        for row in rows:
            kind = assistant.answer(row["question"], use_llm=False).kind
            overview = kind == "overview"
            counts[row["source"], row["expect"]][0] += overview
            counts[row["source"], row["expect"]][1] += 1
            if args.misses and overview != (row["expect"] == "overview"):
                print(f"  {row['id']} ({row['expect']}, answered as {kind}): {row['question']}")
    print("| source | overview requests answered with the overview | look-alikes answered with an overview |")
    print("|---|---|---|")
    for source in dict.fromkeys(row["source"] for row in rows):
        asked, other = counts[source, "overview"], counts[source, "specific"]
        print(f"| {source} | {asked[0]}/{asked[1]} | {other[0]}/{other[1]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
