"""Does ``rag.roles.reports_experiment`` tell theory-only abstracts from empirical ones?

"Which papers report no experiments?" lists the papers none of whose sentences
reports an experiment. This scores that decision on 120 real abstracts of
``../shared/corpora`` labelled by hand (empirical or not, a third of them theory:
proofs, bounds, convergence rates, surveys), in two sets of 60 drawn at random:
``tests/data/empirical_tune.jsonl``, which the cue phrases were corrected against
once, and ``tests/data/empirical_heldout.jsonl``, never tuned on. The label files
hold ids, labels and a note only; the abstracts are read from the corpora by id
(they are not copied into the repository).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/empirical.py
    PYTHONPATH=$PWD .venv/bin/python benchmarks/empirical.py --errors tune   # misses, to write rules from
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rag.chunking import split_sentences  # noqa: E402
from rag.config import PROJECT_ROOT  # noqa: E402
from rag.roles import reports_experiment  # noqa: E402

DATA = PROJECT_ROOT / "tests" / "data"
SETS = ("tune", "heldout")
DEFAULT_CORPORA = PROJECT_ROOT.parent / "shared" / "corpora"  # ../shared/corpora from the repository


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Accuracy of the empirical-report cue on hand-labelled abstracts.")
    p.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA,
                   help="folder of .jsonl.gz corpora (default: ../shared/corpora from the repository)")
    p.add_argument("--errors", choices=SETS, help="print the misses of one set")
    return p.parse_args(argv)


def abstracts(corpora: Path, wanted: set[str]) -> dict[str, str]:
    """The abstracts of the labelled ids, read from the corpora."""
    found: dict[str, str] = {}
    for record in _records(corpora):
        if record["id"] in wanted:
            found[record["id"]] = record["abstract"]
    return found


def _records(corpora: Path) -> Iterator[dict]:
    for path in sorted(corpora.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            yield from (json.loads(line) for line in lines if line.strip())


def empirical(abstract: str) -> bool:
    """The assistant's decision: some sentence reports an experiment."""
    return any(reports_experiment(s.text) for s in split_sentences(abstract))


def scores(labels: Sequence[dict], texts: dict[str, str]) -> tuple[float, float, float, int]:
    """Accuracy, and precision / recall of finding the theory-only abstracts; how many were scored."""
    pairs = [(row["empirical"], empirical(texts[row["id"]])) for row in labels if row["id"] in texts]
    hits = sum(gold == predicted for gold, predicted in pairs)
    theory = sum(not gold and not predicted for gold, predicted in pairs)
    said_theory = sum(not predicted for _, predicted in pairs)
    are_theory = sum(not gold for gold, _ in pairs)
    return (hits / len(pairs), theory / said_theory if said_theory else 0.0,
            theory / are_theory if are_theory else 0.0, len(pairs))


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    labels = {name: [json.loads(line) for line in (DATA / f"empirical_{name}.jsonl").read_text().splitlines()]
              for name in SETS}
    if not args.corpora.is_dir():
        print(f"error: no corpora at {args.corpora} (pass --corpora)", file=sys.stderr)
        return 2
    texts = abstracts(args.corpora, {row["id"] for rows in labels.values() for row in rows})
    print(f"{'set':10}{'abstracts':>11}{'accuracy':>10}{'theory P':>10}{'theory R':>10}")
    for name in SETS:
        accuracy, precision, recall, scored = scores(labels[name], texts)
        print(f"{name:10}{scored:>11}{accuracy:>10.2f}{precision:>10.2f}{recall:>10.2f}")
    if args.errors:
        for row in labels[args.errors]:
            if row["id"] in texts and empirical(texts[row["id"]]) != row["empirical"]:
                print(f"{row['id']}: labelled {'empirical' if row['empirical'] else 'theory'} ({row['note']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
