"""HNSW search breadth: how many of the exact nearest chunks Chroma returns, and at what cost.

Chroma answers a vector query from an approximate HNSW graph; ``ef_search`` is how
many candidates the search keeps. This reads every chunk vector of an existing
index, finds each question's exact 100 nearest chunks with numpy, then asks Chroma
for the same 100 at several ``ef_search`` values (each in a fresh process, as a
running client keeps the breadth it loaded with) and prints recall against the
exact answer and the time per query. The questions are the dev and probe sets'
(never the validation set).

    nice -n 19 python benchmarks/hnsw.py --data-dir /tmp/rag-scale/scale
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import chromadb
import numpy as np
from chromadb.config import Settings as ChromaSettings

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rag.config import Settings  # noqa: E402
from rag.embedding import Embedder  # noqa: E402
from rag.store import VectorStore  # noqa: E402

TUNING_SETS = ("dev", "probe", "probe2", "probe3", "probe4", "probe5")
NEAREST = 100  # chunks asked per query: the assistant's `candidates` default
BREADTHS = (100, 200, 400, 800, 1600)


def questions(limit: int) -> list[str]:
    texts: list[str] = []
    for name in TUNING_SETS:
        path = ROOT / "tests" / "data" / f"{name}_questions.jsonl"
        texts += [json.loads(line)["question"] for line in path.read_text().splitlines() if line.strip()]
    return texts[:limit]


def exact_nearest(data_dir: Path, collection: str, vectors: np.ndarray) -> list[list[str]]:
    """Each query's exact ``NEAREST`` chunk ids by cosine over every stored chunk vector."""
    telemetry = ChromaSettings(anonymized_telemetry=False)
    chroma = chromadb.PersistentClient(path=str(data_dir / "chroma"), settings=telemetry)
    stored = chroma.get_collection(collection)
    ids: list[str] = []
    rows = []
    for offset in range(0, stored.count(), 5000):
        batch = stored.get(include=["embeddings"], limit=5000, offset=offset)
        ids += batch["ids"]
        rows.append(np.asarray(batch["embeddings"], dtype=np.float32))
    matrix = np.concatenate(rows)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    sims = vectors @ matrix.T
    return [[ids[i] for i in np.argsort(-row, kind="stable")[:NEAREST]] for row in sims]


def chroma_nearest(data_dir: Path, collection: str, vectors: np.ndarray, breadth: int) -> tuple[list[list[str]], float]:
    store = VectorStore.open(data_dir, collection, search_ef=breadth)
    store.query(vectors[0], NEAREST)  # load the index before timing
    started = time.perf_counter()
    hits = [[h.chunk_id for h in store.query(v, NEAREST)] for v in vectors]
    return hits, (time.perf_counter() - started) / len(vectors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, required=True, help="an index built by rag or benchmarks/scale.py")
    parser.add_argument("--collection", default=Settings().collection)
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--breadth", type=int, help=argparse.SUPPRESS)  # one breadth, in a child process
    args = parser.parse_args()
    settings = Settings()
    embedder = Embedder(settings.model_path, settings.embedding_batch_size, settings.model_name)
    vectors = embedder.embed(questions(args.questions))
    if args.breadth:
        hits, seconds = chroma_nearest(args.data_dir, args.collection, vectors, args.breadth)
        print(json.dumps({"hits": hits, "seconds": seconds}))
        return
    with tempfile.TemporaryDirectory() as tmp:  # a copy: the breadth is stored in the collection
        copy = Path(tmp) / "index"
        shutil.copytree(args.data_dir / "chroma", copy / "chroma")
        exact = exact_nearest(copy, args.collection, vectors)
        print(f"{len(vectors)} questions, {NEAREST} nearest chunks each\n")
        print("| ef_search | recall@100 vs exact | nearest chunk right | ms per query |")
        print("|---|---|---|---|")
        for breadth in BREADTHS:
            child = subprocess.run([sys.executable, "-P", __file__, "--data-dir", str(copy), "--collection",
                                    args.collection, "--questions", str(args.questions), "--breadth", str(breadth)],
                                   capture_output=True, text=True, check=True)
            result = json.loads(child.stdout.strip().splitlines()[-1])
            recall = np.mean([len(set(h) & set(e)) / NEAREST for h, e in zip(result["hits"], exact, strict=True)])
            first = np.mean([bool(h) and h[0] == e[0] for h, e in zip(result["hits"], exact, strict=True)])
            print(f"| {breadth} | {recall:.3f} | {first:.3f} | {1000 * result['seconds']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
