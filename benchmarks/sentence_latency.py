"""Question-time cost of sentence vectors: read from the stored index vs encoded on first use.

Needs a data dir whose ingest stored the seeds' sentence vectors (any ``rag ingest``
of the seeds, e.g. ``scale.py``'s ``seeds`` folder). Ten repetitions each; a fresh
``SentenceIndex`` per repetition, over the stored vectors and over an empty folder (every
paper encoded on first use, the path before vectors were stored), as a new process would see them.

    nice python benchmarks/sentence_latency.py --data-dir /path/to/seeds-index
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rag.config import SEED_CORPUS, Settings  # noqa: E402
from rag.corpus import load_corpus  # noqa: E402
from rag.embedding import Embedder  # noqa: E402
from rag.sentence_index import SentenceIndex  # noqa: E402

REPEATS = 10
PAPERS_PER_ANSWER = 5  # the default top_k: the sources one fact answer reads


def timed(name: str, run: Callable[[int], object]) -> None:
    times = sorted(_seconds(run, i) for i in range(REPEATS))
    print(f"{name}: median {times[REPEATS // 2] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms "
          f"(load {os.getloadavg()[0]:.1f})")


def _seconds(run: Callable[[int], object], i: int) -> float:
    started = time.perf_counter()
    run(i)
    return time.perf_counter() - started


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data-dir", type=Path, required=True, help="a data dir with the seeds ingested")
    args = p.parse_args(argv)
    papers = load_corpus(SEED_CORPUS)
    settings = Settings()
    embedder = Embedder(settings.model_path, settings.embedding_batch_size)
    embedder.embed_query("warm-up")
    stored = SentenceIndex(args.data_dir, embedder, papers)
    if not all(stored.stored(paper) for paper in papers):
        print(f"error: {args.data_dir} does not hold the seeds' sentence vectors", file=sys.stderr)
        return 2
    query = embedder.embed_query("token merging for diffusion models")

    def some(i: int) -> list:
        return papers[i % 15 : i % 15 + PAPERS_PER_ANSWER]

    timed("stored: SentenceIndex.get(5 papers), fresh index",
          lambda i: SentenceIndex(args.data_dir, embedder, papers).get(some(i)))
    with tempfile.TemporaryDirectory() as empty:  # no stored vectors there: every paper is encoded on the fly
        timed("encoded: SentenceIndex.get(5 papers) with nothing stored, cold",
              lambda i: SentenceIndex(Path(empty), embedder, papers).get(some(i)))
    timed("stored: SentenceIndex.max_sim(all 19 papers)", lambda i: stored.max_sim(query, [x.id for x in papers]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
