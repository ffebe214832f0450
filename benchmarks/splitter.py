"""Splitter agreement: ``rag.chunking.split_sentences`` against pysbd on real abstracts.

The project has one sentence splitter, hand-written because pysbd is ~40x slower
(see ``rag/chunking.py``). Speed is only worth having if the sentences are the
same, so this compares both on a fixed-seed sample of the shared corpora: where
each puts sentence boundaries, how many abstracts they split identically, and
what each costs per abstract. ``tests/test_splitter_agreement.py`` holds the
agreement to a floor with the same functions.

    nice .venv/bin/python benchmarks/splitter.py                    # 1,000 abstracts, seed 9
    nice .venv/bin/python benchmarks/splitter.py -n 3000 --seed 1

The corpora folder is ``shared/corpora`` beside the clone, or ``$SHARED_CORPORA``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pysbd

from rag.chunking import split_sentences

# Beside the clone, as CI lays it out; the variable points elsewhere (a git worktree, say).
SHARED_CORPORA = Path(os.environ.get("SHARED_CORPORA", Path(__file__).resolve().parents[2] / "shared" / "corpora"))
SAMPLE_SIZE = 1000
SEED = 9

# A splitter maps an abstract to the offsets where its second, third, ... sentences start.
Splitter = Callable[[str], set[int]]


@dataclass(frozen=True)
class Agreement:
    """How closely a splitter's boundaries match a reference splitter's."""

    abstracts: int
    boundaries: int  # the reference's
    found: int  # the candidate's
    shared: int
    identical: int  # abstracts where both put exactly the same boundaries

    @property
    def precision(self) -> float:
        return self.shared / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.shared / self.boundaries if self.boundaries else 1.0

    @property
    def f1(self) -> float:
        total = self.precision + self.recall
        return 2 * self.precision * self.recall / total if total else 0.0

    @property
    def identical_share(self) -> float:
        return self.identical / self.abstracts if self.abstracts else 1.0


def corpus_files(folder: Path = SHARED_CORPORA) -> list[Path]:
    """The ``*.jsonl.gz`` files of the shared corpora, sorted so a seed always draws the same sample.

    Raises FileNotFoundError with the folder's name when there are none: a missing
    corpus must not pass as agreement.
    """
    files = sorted(folder.glob("*.jsonl.gz"))
    if not files:
        raise FileNotFoundError(
            f"no *.jsonl.gz corpora in {folder}; put the shared corpora beside the clone or set SHARED_CORPORA"
        )
    return files


def sample_abstracts(files: Sequence[Path], n: int = SAMPLE_SIZE, seed: int = SEED) -> list[str]:
    """``n`` abstracts drawn without replacement, reproducibly, from all records of ``files``.

    Lines are sampled before they are parsed: decoding 50,000 JSON records to keep
    1,000 would double the cost of the draw.
    """
    lines = [line for path in files for line in gzip.open(path, "rt", encoding="utf-8") if line.strip()]
    chosen = random.Random(seed).sample(lines, min(n, len(lines)))
    return [text for text in (json.loads(line)["abstract"].strip() for line in chosen) if text]


def _starts(text: str, offsets: list[int]) -> set[int]:
    """Sentence starts moved past any whitespace, the first sentence's start left out (it is no boundary)."""
    starts = set()
    for offset in offsets:
        while offset < len(text) and text[offset].isspace():
            offset += 1
        if offset < len(text):
            starts.add(offset)
    starts.discard(min(starts, default=0))
    return starts


def rag_boundaries(text: str) -> set[int]:
    """Boundaries of ``rag.chunking.split_sentences``."""
    return _starts(text, [sentence.start for sentence in split_sentences(text)])


def pysbd_splitter() -> Splitter:
    """Boundaries of pysbd's English rules, on the raw text (``clean=False``) so offsets are the abstract's."""
    segmenter = pysbd.Segmenter(language="en", clean=False, char_span=True)
    return lambda text: _starts(text, [span.start for span in segmenter.segment(text)])


def compare(texts: Sequence[str], candidate: Splitter, reference: Splitter) -> Agreement:
    """Boundary counts of ``candidate`` against ``reference`` over ``texts``."""
    boundaries = found = shared = identical = 0
    for text in texts:
        ours, theirs = candidate(text), reference(text)
        boundaries += len(theirs)
        found += len(ours)
        shared += len(ours & theirs)
        identical += ours == theirs
    return Agreement(len(texts), boundaries, found, shared, identical)


def ms_per_text(splitter: Splitter, texts: Sequence[str]) -> float:
    """Mean wall time of one call, in milliseconds."""
    began = time.perf_counter()
    for text in texts:
        splitter(text)
    return 1000 * (time.perf_counter() - began) / max(len(texts), 1)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compare rag's sentence splitter with pysbd on shared abstracts.")
    parser.add_argument("-n", type=int, default=SAMPLE_SIZE, help=f"abstracts to sample (default {SAMPLE_SIZE})")
    parser.add_argument("--seed", type=int, default=SEED, help=f"sampling seed (default {SEED})")
    parser.add_argument("--corpora", type=Path, default=SHARED_CORPORA, help="folder of *.jsonl.gz files")
    args = parser.parse_args(argv)
    try:
        texts = sample_abstracts(corpus_files(args.corpora), args.n, args.seed)
    except FileNotFoundError as error:
        print(error, file=sys.stderr)
        return 1
    reference = pysbd_splitter()
    agreement = compare(texts, rag_boundaries, reference)
    ours_ms, theirs_ms = ms_per_text(rag_boundaries, texts), ms_per_text(reference, texts)
    rows = [
        ("abstracts (seed)", f"{agreement.abstracts:,} ({args.seed})"),
        ("boundaries: pysbd / rag / shared", f"{agreement.boundaries:,} / {agreement.found:,} / {agreement.shared:,}"),
        ("boundary precision", f"{agreement.precision:.3f}"),
        ("boundary recall", f"{agreement.recall:.3f}"),
        ("boundary F1", f"{agreement.f1:.3f}"),
        ("abstracts split identically", f"{agreement.identical_share:.1%}"),
        ("ms per abstract: rag / pysbd", f"{ours_ms:.2f} / {theirs_ms:.2f}"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
