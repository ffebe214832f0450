"""Title -> abstract retrieval: a large paraphrase benchmark nobody hand-wrote.

Abstracts of the shared corpora are indexed *without* their titles; each sampled
title is then a query whose one right answer is its own abstract. A title
rephrases its abstract's contribution in other words (LitSearch-style), so this
measures paraphrase recall on thousands of queries instead of a few dozen
hand-written dev questions, which stay untouched for tuning.

One run prints one table: recall@1/5/10 of dense, BM25 and hybrid at the
configured lexical weight, plus the fusion grid ``chunk_sim + a * max_sentence_sim
+ w * bm25`` over the stored sentence vectors. Weights are chosen on the first half
of the queries ("tune") and reported on the other half ("test"). It also prints
ingest throughput against raw encoding of the same texts in the same run.

    nice -n 19 python benchmarks/titles.py --papers 2000 --queries 1000
    nice -n 19 python benchmarks/titles.py --corpora ../shared/corpora --papers 50000 --queries 5000
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rag.assistant import Assistant  # noqa: E402
from rag.chunking import chunk_paper, split_sentences  # noqa: E402
from rag.config import PROJECT_ROOT, Settings  # noqa: E402
from rag.word_vectors import vocabulary  # noqa: E402

DEFAULT_CORPORA = PROJECT_ROOT.parent / "shared" / "corpora"  # ../shared/corpora from the repository
SAMPLE_SEED = 10  # fixed: every run samples the same papers and titles
CUTOFFS = (1, 5, 10)
POOL = 100  # candidates per retriever, as the assistant's `candidates` default
LEXICAL_WEIGHTS = (0.0, 0.3, 0.6, 1.0, 1.5)
SENTENCE_WEIGHTS = (0.0, 0.5, 1.0)
RAW_ENCODE_SAMPLE = 200  # papers (a fixed random sample) re-encoded raw for the throughput ratio


@dataclass
class Query:
    """One title query: per candidate paper its chunk, sentence and BM25 scores."""

    gold: str
    ids: list[str]
    dense: np.ndarray
    sentence: np.ndarray
    lexical: np.ndarray


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Title -> abstract recall of dense, BM25 and hybrid retrieval.")
    p.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA,
                   help="folder of .jsonl.gz corpora, or one file (default: ../shared/corpora from the repository)")
    p.add_argument("--papers", type=int, default=2000, help="abstracts to index (sampled with a fixed seed)")
    p.add_argument("--queries", type=int, default=1000, help="titles to query (a fixed sample of those papers)")
    p.add_argument("--data-dir", type=Path, default=Path("/tmp/rag-titles"), help="index folder (reused if present)")
    return p.parse_args(argv)


def records(corpora: Path) -> Iterator[dict]:
    files = sorted(corpora.glob("*.jsonl.gz")) if corpora.is_dir() else [corpora]
    for path in files:
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            yield from (json.loads(line) for line in lines if line.strip())


def sample(corpora: Path, papers: int, queries: int) -> tuple[list[dict], list[dict]]:
    rng = random.Random(SAMPLE_SEED)
    chosen = rng.sample(list(records(corpora)), papers)
    return chosen, rng.sample(chosen, min(queries, papers))


def write_untitled(chosen: Sequence[dict], target: Path) -> None:
    """The sampled abstracts without titles (so a title never matches itself)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    keep = ("id", "abstract", "venue", "year", "url")
    text = "".join(json.dumps({k: r[k] for k in keep if k in r}, ensure_ascii=False) + "\n" for r in chosen)
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")


def score_query(assistant: Assistant, title: str, gold: str) -> Query:
    """One hybrid candidate pool (dense + BM25 tops), every candidate scored every way."""
    ranked = assistant.retriever.rank(title, mode="hybrid", pool=POOL)
    ids = [s.paper_id for s in ranked]
    best = assistant.sentence_index.max_sim(assistant.embedder.embed_query(title), ids)
    return Query(gold, ids, np.array([s.dense for s in ranked]), np.array([best.get(i, 0.0) for i in ids]),
                 np.array([s.lexical for s in ranked]))


def recall(queries: Sequence[Query], a: float, w: float, dense: float = 1.0) -> dict[int, float]:
    """Recall@k of ``dense * chunk + a * sentence + w * bm25`` over the candidate pools."""
    hits = {k: 0 for k in CUTOFFS}
    for q in queries:
        order = np.argsort(-(dense * q.dense + a * q.sentence + w * q.lexical), kind="stable")
        rank = next((i for i, j in enumerate(order) if q.ids[j] == q.gold), None)
        for k in CUTOFFS:
            hits[k] += rank is not None and rank < k
    return {k: hits[k] / max(1, len(queries)) for k in CUTOFFS}


def raw_encode_rate(assistant: Assistant) -> float:
    """Papers/s of encoding only (chunks + sentences + word forms) for a sample, to compare with ingest's papers/s.

    A random sample, not the first papers: those are the seeds, whose long
    abstracts encode slower than the average distractor and would skew the ratio.
    """
    papers = assistant.papers
    papers = random.Random(SAMPLE_SEED).sample(papers, min(RAW_ENCODE_SAMPLE, len(papers)))
    embedder = assistant.embedder
    chunk_limit = min(assistant.settings.chunk_tokens, embedder.max_tokens)
    chunks = [c.text for p in papers for c in chunk_paper(p, embedder.count_tokens, chunk_limit,
                                                           assistant.settings.chunk_overlap_sentences)]
    sentences = [s.text for p in papers for s in split_sentences(p.text)]
    forms = sorted(vocabulary(papers))
    started = time.perf_counter()
    embedder.embed(chunks)
    embedder.embed(sentences)
    embedder.embed(forms)
    return len(papers) / (time.perf_counter() - started)


def table(rows: Sequence[tuple[str, dict[int, float], dict[int, float]]]) -> str:
    head = ["retriever", *(f"R@{k} tune" for k in CUTOFFS), *(f"R@{k} test" for k in CUTOFFS)]
    body = [[name, *(f"{tune[k]:.3f}" for k in CUTOFFS), *(f"{test[k]:.3f}" for k in CUTOFFS)]
            for name, tune, test in rows]
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    return "\n".join(" | ".join(c.ljust(widths[i]) for i, c in enumerate(r)) for r in [head, *body])


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.corpora.exists():
        print(f"error: no corpora at {args.corpora} (pass --corpora)", file=sys.stderr)
        return 2
    chosen, asked = sample(args.corpora, args.papers, args.queries)
    corpus = args.data_dir / f"untitled-{args.papers}.jsonl"
    write_untitled(chosen, corpus)
    settings = Settings(corpus=[corpus], data_dir=args.data_dir)
    started = time.perf_counter()
    assistant = Assistant.open(settings, progress=True, update=True)  # exactly this corpus; resumes a partial one
    opened = time.perf_counter() - started
    report = assistant.last_ingest
    embedded = report.added + report.updated if report else 0
    print(f"ingest: {len(assistant.papers):,} papers, {embedded:,} embedded "
          f"({report.chunks_embedded:,} chunks, {report.sentences_embedded:,} sentences) in {report.seconds:.0f}s"
          + (f" = {embedded / report.seconds:.2f} papers/s; raw encode of the same texts "
             f"{raw_encode_rate(assistant):.2f} papers/s" if embedded else "") + f"; open {opened:.0f}s",
          file=sys.stderr, flush=True)
    started = time.perf_counter()
    scored = [score_query(assistant, r["title"], r["id"]) for r in asked]
    per_query = (time.perf_counter() - started) / max(1, len(scored))
    tune, test = scored[: len(scored) // 2], scored[len(scored) // 2 :]
    w0 = assistant.settings.lexical_weight
    rows = [("dense", recall(tune, 0, 0), recall(test, 0, 0)),
            ("bm25", recall(tune, 0, 1, dense=0), recall(test, 0, 1, dense=0)),
            (f"hybrid w={w0}", recall(tune, 0, w0), recall(test, 0, w0))]
    grid = [(a, w) for a in SENTENCE_WEIGHTS for w in LEXICAL_WEIGHTS if (a, w) != (0, 0)]
    best = max(grid, key=lambda aw: (recall(tune, *aw)[10], recall(tune, *aw)[1]))
    rows += [(f"chunk + {a}*sentence + {w}*bm25", recall(tune, a, w), recall(test, a, w)) for a, w in grid]
    print(f"# title -> abstract, {len(assistant.papers):,} abstracts, {len(tune)} tune + {len(test)} test titles "
          f"(seed {SAMPLE_SEED}); scoring {per_query * 1000:.0f} ms/query\n")
    print(table(rows))
    print(f"\nbest on tune (R@10, then R@1): a={best[0]}, w={best[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
