"""Scale benchmark: what happens to the answers when the seed abstracts hide among ~50k real ones.

The dev questions are about the 19 seed papers; every distractor abstract is a
chance for retrieval to rank a wrong paper higher, for the extractive answer to
quote it, and for latency to grow. So the same evaluation (``rag.evaluation``)
runs twice, on a seeds-only index and on seeds + distractors, and the report shows
both tables, the per-metric drop, and how fast the distractors were ingested.

Not a test: the full ingest takes about two hours on two CPU cores. ``--limit``
takes the first N distractor records (written to a temporary .jsonl inside the
data dir, never into the repository) for a quicker run. Both indexes live under
``--data-dir`` and are incremental: a second run, or a full run after a
``--limit`` run, embeds only the papers not indexed yet (the benchmark opens
its indexes as ``rag ingest`` does, so they hold exactly the corpus asked for;
a reading open would keep the old corpus and only warn).

One table compares the two indexes: ingest papers/s against raw encoding of the
same texts (chunks and sentences) in the same run, index size on disk, memory of
the warm process, answer latency p50/p95 and the evaluation metrics.

    nice -n 19 .venv/bin/python benchmarks/scale.py --limit 10000      # ~10k distractors
    nice -n 19 .venv/bin/python benchmarks/scale.py                    # all ~50k
    nice -n 19 .venv/bin/python benchmarks/scale.py --corpora ../shared/corpora
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.titles import SAMPLE_SEED, raw_encode_rate  # noqa: E402
from rag.assistant import Assistant  # noqa: E402
from rag.chunking import chunk_paper, split_sentences  # noqa: E402
from rag.config import PROJECT_ROOT, SEED_CORPUS, Settings  # noqa: E402
from rag.evaluation import (  # noqa: E402
    Report,
    aligned,
    columns,
    load_questions,
    print_progress,
    run_eval,
)
from rag.indexing import ingest  # noqa: E402
from rag.store import VectorStore  # noqa: E402
from rag.word_vectors import vocabulary  # noqa: E402

SHARED_CORPORA = PROJECT_ROOT.parent / "shared" / "corpora"  # ../shared/corpora from the repository
# The ML file first, so that --limit takes in-domain (ML) distractors before CV/NLP ones.
CORPUS_FILES = ("papercopilot-ml.jsonl.gz", "papercopilot-cv-nlp-ai.jsonl.gz")
DEFAULT_DATA_DIR = Path(tempfile.gettempdir()) / "rag-scale"
DEFAULT_QUESTIONS = PROJECT_ROOT / "tests" / "data" / "dev_questions.jsonl"


@dataclass
class Run:
    """One index and its evaluation."""

    name: str
    assistant: Assistant
    open_seconds: float
    report: Report
    raw_rate: float | None  # papers/s of encoding alone, same texts, same run (None: nothing embedded)
    disk_mb: float
    rss_mb: float


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Evaluate the dev questions on the seeds alone and among distractors.")
    p.add_argument("--corpora", nargs="+", type=Path, default=[SHARED_CORPORA], metavar="PATH",
                   help="distractor files (.jsonl or .jsonl.gz) or a folder holding the two papercopilot files "
                   "(default: ../shared/corpora from the repository)")
    p.add_argument("--limit", type=int, help="only the first N distractor records (e.g. 10000 for a quick run)")
    p.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR,
                   help="where both indexes live (default: rag-scale in the temp folder)")
    p.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS, help="question file (default: the dev set)")
    p.add_argument("-k", "--k", type=int, help="sources per answer and recall cut-off (default: top_k setting)")
    p.add_argument("--extractive", action="store_true", help="force extractive answers even if an LLM is configured")
    p.add_argument("--json", type=Path, metavar="FILE", help="also write both reports and ingest figures as JSON")
    return p.parse_args(argv)


def records(paths: Sequence[Path]) -> Iterator[str]:
    """JSON lines of the given .jsonl / .jsonl.gz files, in order, blank lines skipped."""
    for path in paths:
        opener = gzip.open if path.name.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as lines:
            yield from (line if line.endswith("\n") else line + "\n" for line in lines if line.strip())


def write_subset(paths: Sequence[Path], limit: int, target: Path) -> int:
    """Write the first ``limit`` records to ``target`` (unchanged if already written); returns the count.

    Rewriting an identical file would be harmless, but leaving it alone keeps its
    modification time, so nothing downstream mistakes it for a new corpus.
    """
    lines = []
    for line in records(paths):
        if len(lines) == limit:
            break
        lines.append(line)
    text = "".join(lines)
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return len(lines)


def distractor_corpus(args: argparse.Namespace) -> list[Path]:
    """The distractor paths to index: the files themselves, or a subset file for --limit."""
    if args.limit is None:
        return list(args.corpora)
    subset = args.data_dir / f"distractors-first-{args.limit}.jsonl"
    written = write_subset(args.corpora, args.limit, subset)
    print(f"distractors: first {written:,} records of {', '.join(p.name for p in args.corpora)} -> {subset}",
          file=sys.stderr)
    return [subset]


def evaluate(name: str, data_dir: Path, corpus: list[Path], args: argparse.Namespace) -> Run:
    """Open (and ingest) one index, then run the evaluation on it."""
    print(f"\n== {name}: indexing {', '.join(map(str, corpus))} into {data_dir}", file=sys.stderr, flush=True)
    settings = Settings(corpus=corpus, data_dir=data_dir, **({"top_k": args.k} if args.k else {}))
    started = time.perf_counter()
    assistant = Assistant.open(settings, progress=True, update=True)  # exactly this corpus; resumes a partial one
    open_seconds = time.perf_counter() - started
    print(f"== {name}: evaluating", file=sys.stderr, flush=True)
    assistant.warm_up()
    report = run_eval(assistant, load_questions(args.questions), settings.top_k, use_llm=not args.extractive,
                      progress=print_progress)
    embedded = assistant.last_ingest and assistant.last_ingest.added + assistant.last_ingest.updated
    return Run(name, assistant, open_seconds, report, raw_encode_rate(assistant) if embedded else None,
               disk_megabytes(data_dir), rss_megabytes())


def disk_megabytes(folder: Path) -> float:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 2**20


def rss_megabytes() -> float:
    """Resident memory of this process now (Linux /proc; both indexes share the one model)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def expand_corpora(paths: Sequence[Path]) -> list[Path]:
    """Folders stand for the papercopilot files inside them, ML first."""
    return [f for p in paths for f in ([p / name for name in CORPUS_FILES] if p.is_dir() else [p])]


def operations_rows(base: Run, scaled: Run) -> list[list[str]]:
    """Ingest rate and its ratio to raw encoding, disk, memory: one row each, both runs side by side."""
    def rate(run: Run) -> float | None:
        ingest = run.assistant.last_ingest
        embedded = ingest.added + ingest.updated if ingest else 0
        return embedded / ingest.seconds if embedded and ingest.seconds else None

    def show(value: float | None, fmt: str) -> str:
        return "-" if value is None else format(value, fmt)

    ratio = [rate(r) / r.raw_rate if rate(r) and r.raw_rate else None for r in (base, scaled)]
    return [["ingest papers/s", show(rate(base), ".2f"), show(rate(scaled), ".2f"), ""],
            ["raw encode papers/s (same texts)", show(base.raw_rate, ".2f"), show(scaled.raw_rate, ".2f"), ""],
            ["ingest / raw encode", show(ratio[0], ".2f"), show(ratio[1], ".2f"), ""],
            ["index on disk MB", f"{base.disk_mb:.1f}", f"{scaled.disk_mb:.1f}", ""],
            ["process RSS MB (warm)", f"{base.rss_mb:.0f}", f"{scaled.rss_mb:.0f}", ""]]


def ingest_line(run: Run) -> str:
    """Papers, what was embedded and how fast; the open time also covers BM25 and model loading."""
    ingest = run.assistant.last_ingest
    if ingest is None or not ingest.added + ingest.updated:
        return f"{run.name}: {len(run.assistant.papers):,} papers, index up to date (opened in {run.open_seconds:.1f}s)"
    embedded = ingest.added + ingest.updated
    return (f"{run.name}: {ingest.papers:,} papers; embedded {embedded:,} papers / {ingest.chunks_embedded:,} chunks "
            f"in {ingest.seconds:.0f}s = {embedded / ingest.seconds:.1f} papers/s, "
            f"{ingest.chunks_embedded / ingest.seconds:.1f} chunks/s (open incl. BM25: {run.open_seconds:.0f}s)")


def drop_table(base: Run, scaled: Run) -> str:
    """Overall metrics side by side with the change, plus hybrid recall per question type."""
    before, after = base.report.summary(), scaled.report.summary()
    header = ["metric", _papers(base), _papers(scaled), "change"]
    first, second = columns(base.report)
    body = operations_rows(base, scaled)
    body += [_drop_row(c.header, before["overall"][c.key], after["overall"][c.key], c.kind)
             for c in [*first, *second]]
    key = "recall_hybrid"
    body += [_drop_row(f"R@{base.report.k} hybrid: {t}", before[t][key], after[t][key], "rate")
             for t in before if t != "overall" and before[t].get(key) is not None]
    return aligned(header, body)


def _papers(run: Run) -> str:
    return f"{len(run.assistant.papers):,} papers"


def _drop_row(name: str, before: float | int | None, after: float | int | None, kind: str) -> list[str]:
    def show(value: float | int | None) -> str:
        if value is None:
            return "-"
        return str(int(value)) if kind == "count" else f"{value:.2f}"

    change = "-" if before is None or after is None else f"{after - before:+.2f}" if kind != "count" \
        else f"{int(after - before):+d}"
    return [name, show(before), show(after), change]


RATIO_SAMPLE = 300  # papers ingested and raw-encoded back to back for the ingest / raw-encode ratio


def ingest_ratio(assistant: Assistant, sample: int = RATIO_SAMPLE) -> tuple[int, float, float]:
    """Papers, ingest papers/s, and ingest throughput over raw encoding of the same texts, back to back.

    The run's own ingest spans minutes to an hour on a machine whose load changes, so
    its rate against a raw rate taken afterwards measures the load as much as the
    code. Here a fixed random sample is ingested into a fresh store (chunks, Chroma,
    sentence and word-form vectors: the real ``ingest``) between two raw encodings of exactly
    its chunks, sentences and word forms; the raw time is their mean, so drift cancels out.
    """
    papers = random.Random(SAMPLE_SEED).sample(assistant.papers, min(sample, len(assistant.papers)))
    settings, embedder = assistant.settings, assistant.embedder
    limit = min(settings.chunk_tokens, embedder.max_tokens)
    chunks = [c.text for p in papers
              for c in chunk_paper(p, embedder.count_tokens, limit, settings.chunk_overlap_sentences)]
    sentences = [s.text for p in papers for s in split_sentences(p.text)]
    forms = sorted(vocabulary(papers))

    def raw_seconds() -> float:
        started = time.perf_counter()
        embedder.embed(chunks)
        embedder.embed(sentences)
        embedder.embed(forms)
        return time.perf_counter() - started

    before = raw_seconds()
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as folder:
        started = time.perf_counter()
        ingest(papers, VectorStore.open(Path(folder), "ratio"), embedder, settings.chunk_tokens,
               settings.chunk_overlap_sentences, progress=False, data_dir=Path(folder))
        seconds = time.perf_counter() - started
    raw = (before + raw_seconds()) / 2
    return len(papers), len(papers) / seconds, raw / seconds


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    args.corpora = expand_corpora(args.corpora)
    missing = [p for p in args.corpora if not p.is_file()]
    if missing:
        print(f"error: no such corpus file: {', '.join(map(str, missing))}", file=sys.stderr)
        return 2
    distractors = distractor_corpus(args)
    base = evaluate("seeds only", args.data_dir / "seeds", [SEED_CORPUS], args)
    scaled = evaluate("seeds + distractors", args.data_dir / "scale", [SEED_CORPUS, *distractors], args)
    print(f"# {_papers(base)} vs {_papers(scaled)} (load average {os.getloadavg()[0]:.1f})\n")
    print(drop_table(base, scaled))
    print(f"\n{ingest_line(base)}\n{ingest_line(scaled)}")
    sampled, rate, ratio = ingest_ratio(scaled.assistant)
    paired = (f"ingest vs raw encode, {sampled} sampled papers back to back: {rate:.1f} papers/s = "
              f"{ratio:.2f}x raw encoding of the same chunks, sentences and word forms")
    print(paired)
    if args.json:
        args.json.write_text(json.dumps({
            "seeds": base.report.to_dict(), "scale": scaled.report.to_dict(),
            "ingest": {run.name: ingest_line(run) for run in (base, scaled)}, "ingest_paired": paired,
        }, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
