"""Which sentence vectors to store at ingest: encode each sentence, or pool its tokens from the chunk pass?

Pooling is nearly free at ingest (the chunk pass already computes every token's
vector); encoding sentences on their own costs a second encoder pass. This probe
measures, on a fixed random sample of real abstracts, in one run: the time of
each, how well pooled vectors agree with standalone ones (which the answer
engine's thresholds and the on-the-fly fallback use), whether they pick the same
best sentence for the paper's own title, and title -> abstract recall by best
sentence.

    nice -n 19 python benchmarks/sentence_vectors.py --papers 600
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.titles import DEFAULT_CORPORA, records  # noqa: E402
from rag.chunking import Chunk, Sentence, chunk_paper, split_sentences  # noqa: E402
from rag.config import Settings  # noqa: E402
from rag.corpus import make_paper  # noqa: E402
from rag.embedding import Embedder  # noqa: E402

SAMPLE_SEED = 7


def pooled_vectors(embedder: Embedder, chunks: Sequence[Chunk],
                   sentences: dict[str, list[Sentence]]) -> dict[tuple[str, int], np.ndarray]:
    """Mean of each sentence's token vectors inside the first chunk that holds it whole, unit length."""
    model = embedder._model
    tokens = model.encode([c.text for c in chunks], output_value="token_embeddings",
                          batch_size=embedder.batch_size, convert_to_numpy=False)
    out: dict[tuple[str, int], np.ndarray] = {}
    for chunk, vectors in zip(chunks, tokens, strict=True):
        offsets = np.array(model.tokenizer(chunk.text, return_offsets_mapping=True, truncation=True,
                                           max_length=embedder.max_tokens)["offset_mapping"])
        for s in sentences[chunk.paper_id]:
            if (chunk.paper_id, s.start) in out or s.start < chunk.start or s.end > chunk.end:
                continue
            lo, hi = s.start - chunk.start, s.end - chunk.start
            inside = (offsets[:, 1] > offsets[:, 0]) & (offsets[:, 0] >= lo) & (offsets[:, 1] <= hi)
            if inside.any():
                mean = vectors.numpy()[inside].mean(0)
                out[(chunk.paper_id, s.start)] = mean / np.linalg.norm(mean)
    return out


def recall_by_best_sentence(titles: np.ndarray, vectors: np.ndarray, spans: list[tuple[int, int]]) -> dict[int, float]:
    sims = titles @ vectors.T
    best = np.stack([sims[:, a:b].max(1) for a, b in spans], 1)
    order = np.argsort(-best, 1)
    return {k: float(np.mean([i in order[i, :k] for i in range(len(spans))])) for k in (1, 10)}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA, help="default: ../shared/corpora")
    p.add_argument("--papers", type=int, default=600)
    args = p.parse_args(argv)
    chosen = random.Random(SAMPLE_SEED).sample(list(records(args.corpora)), args.papers)
    papers = [make_paper(r["abstract"], id=r["id"]) for r in chosen]
    settings = Settings()
    embedder = Embedder(settings.model_path, settings.embedding_batch_size)
    chunks = [c for paper in papers for c in chunk_paper(paper, embedder.count_tokens, settings.chunk_tokens,
                                                         settings.chunk_overlap_sentences)]
    sentences = {paper.id: split_sentences(paper.text) for paper in papers}
    keys = [(paper.id, s.start) for paper in papers for s in sentences[paper.id]]
    embedder.embed(["warm-up"] * 8)
    started = time.perf_counter()
    embedder.embed([c.text for c in chunks])
    chunk_seconds = time.perf_counter() - started
    started = time.perf_counter()
    standalone = embedder.embed([paper.text[s.start:s.end] for paper in papers for s in sentences[paper.id]])
    sentence_seconds = time.perf_counter() - started
    started = time.perf_counter()
    pooled_by_key = pooled_vectors(embedder, chunks, sentences)
    pool_seconds = time.perf_counter() - started
    pooled = np.stack([pooled_by_key.get(k, np.zeros(embedder.dimension, np.float32)) for k in keys])
    cosine = np.sum(pooled * standalone, axis=1)
    spans, row = [], 0
    for paper in papers:
        spans.append((row, row + len(sentences[paper.id])))
        row += len(sentences[paper.id])
    titles = embedder.embed([r["title"] for r in chosen])
    same = np.mean([np.argmax(standalone[a:b] @ t) == np.argmax(pooled[a:b] @ t)
                    for (a, b), t in zip(spans, titles, strict=True)])
    print(f"{len(papers)} papers, {len(chunks)} chunks, {len(keys)} sentences (load {os.getloadavg()[0]:.1f})")
    print(f"encode chunks {chunk_seconds:.1f}s; encode sentences separately +{sentence_seconds:.1f}s "
          f"({sentence_seconds / chunk_seconds:.2f}x the chunk pass); token pass with pooling {pool_seconds:.1f}s "
          f"(replaces the chunk pass)")
    print(f"pooled vs standalone cosine: mean {cosine.mean():.3f}, 5th percentile {np.percentile(cosine, 5):.3f}; "
          f"{(pooled.any(1) == 0).sum()} sentences never whole inside a chunk")
    print(f"same best sentence for the paper's own title: {same:.2f}")
    for name, vectors in (("standalone", standalone), ("pooled", pooled)):
        r = recall_by_best_sentence(titles, vectors, spans)
        print(f"{name}: title -> abstract by best sentence among {len(papers)}: R@1 {r[1]:.3f}, R@10 {r[10]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
