"""Is the sentence an overview or summary quotes for a paper the one that says what the paper does?

``rag.evidence.contribution`` picks the sentence that stands for a paper in an overview,
a summary, a comparison's approach cell and a complement list. This scores its pick on
80 real abstracts of ``../shared/corpora`` drawn at random (4-12 sentences each, none of
the role or empirical label sets). A helper labelled them by hand, blind to the code:
every sentence that would be a good one-line quote of what the paper itself contributes
(``acceptable``, usually 1-3), and the single ``best``. Sentences are numbered as
``rag.chunking.split_sentences`` splits the abstract; papers are labelled as an abstract
without a title is (``derive_label``), so a paper with no coined name carries its topic.
The label file holds ids and sentence numbers only; abstracts are read from the corpora.

Measured once, before anyone read the labels: 66/80 acceptable (46 best) with the old
order (name, method-role "we propose", first method sentence), 73/80 (53 best) with the
shipped one. The labels have since been read, so they are tuning data from here on.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/contribution.py
    PYTHONPATH=$PWD .venv/bin/python benchmarks/contribution.py --errors
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.empirical import DEFAULT_CORPORA, abstracts  # noqa: E402
from rag.chunking import split_sentences  # noqa: E402
from rag.config import PROJECT_ROOT  # noqa: E402
from rag.corpus import make_paper  # noqa: E402
from rag.evidence import contribution  # noqa: E402
from rag.roles import sentence_roles  # noqa: E402
from rag.types import Evidence, Source  # noqa: E402

LABELS = PROJECT_ROOT / "tests" / "data" / "contribution_heldout.jsonl"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="How often the contribution sentence is one a reader would quote.")
    p.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA,
                   help="folder of .jsonl.gz corpora (default: ../shared/corpora from the repository)")
    p.add_argument("--errors", action="store_true",
                   help="print each miss: the picked sentence and the numbers of the acceptable ones")
    return p.parse_args(argv)


def picked(paper_id: str, abstract: str) -> int | None:
    """The number of the sentence ``contribution`` quotes for this abstract."""
    paper = make_paper(abstract, id=paper_id)
    sentences = split_sentences(paper.text)
    evidence = [Evidence(1, paper.id, s, 0.0, 0.0, role)
                for s, role in zip(sentences, sentence_roles([s.text for s in sentences]), strict=True)]
    found = contribution(evidence, Source(1, paper, 0.0, 0.0, 0.0))
    return sentences.index(found.sentence) if found else None


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    labels = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not args.corpora.is_dir():
        print(f"error: no corpora at {args.corpora} (pass --corpora)", file=sys.stderr)
        return 2
    texts = abstracts(args.corpora, {row["id"] for row in labels})
    scored = [(row, picked(row["id"], texts[row["id"]])) for row in labels if row["id"] in texts]
    acceptable = sum(pick in row["acceptable"] for row, pick in scored)
    best = sum(pick == row["best"] for row, pick in scored)
    print(f"{len(scored)} abstracts: acceptable sentence {acceptable}/{len(scored)} ({acceptable / len(scored):.2f}), "
          f"the labeller's best {best}/{len(scored)} ({best / len(scored):.2f})")
    if args.errors:
        for row, pick in scored:
            if pick not in row["acceptable"]:
                sentences = split_sentences(texts[row["id"]])
                print(f"\n{row['id']}: picked {pick}, acceptable {row['acceptable']}")
                print(f"  picked: {sentences[pick].text if pick is not None else '-'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
