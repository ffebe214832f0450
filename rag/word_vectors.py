"""Vectors of the corpus's word forms, so a one-word criterion reaches the words abstracts use for it.

"Which papers involve animals?": the zebra-finch and wildlife abstracts never say
"animal", and one word's similarity to a whole sentence is too weak to carry
membership (the sentence says much else). Word to word the model knows better
(MiniLM, seed vocabulary): "animals" ~ "wildlife" 0.73, "medicine" ~ "medical" 0.86,
"health" ~ "medical" 0.66. So ingest encodes every distinct word form of the corpus
once (about 580 forms/s on 2 cores; the 50k shared abstracts hold ~107k forms) and
appends them to ``data_dir/words`` in the sentence index's crash-safe format
(``SentenceFile``: vectors first, then the log line that commits them); answering
only reads them.

An index built before this file existed has no word vectors: answers then match
words exactly, as before, until the next ``rag ingest`` adds them.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from tqdm import tqdm

from .corpus import Paper
from .embedding import Embedder
from .lexical import STOPWORDS, words
from .sentence_index import SentenceFile, compact_if_wasteful, sentence_signature

FOLDER = "words"
WORDS_PER_APPEND = 4096  # word forms encoded and appended per group: bounds work lost to a crash
BLOCK_ROWS = 32768  # rows converted from float16 per matrix product: bounds the memory of a lookup


def vocabulary(papers: Sequence[Paper]) -> set[str]:
    """The word forms worth a vector: lower-cased, three letters or more, no digits, no stopwords."""
    out: set[str] = set()
    for paper in papers:
        out.update(w.lower() for w in words(paper.text))
    return {w for w in out if len(w) > 2 and w not in STOPWORDS and not any(c.isdigit() for c in w)}


def word_key(word: str, signature: str) -> str:
    return f"{signature}:{word}"


def ingest_words(papers: Sequence[Paper], data_dir: Path, embedder: Embedder, progress: bool = True) -> int:
    """Encode and store every word form of the papers not stored yet; returns forms encoded."""
    file = SentenceFile(data_dir, embedder.dimension, FOLDER)
    file.refresh()
    signature = sentence_signature(embedder)
    live = {word_key(w, signature): w for w in sorted(vocabulary(papers))}
    todo = [(key, word) for key, word in live.items() if key not in file.offsets]
    bar = tqdm(total=len(todo), desc="Embedding words", unit="word", disable=not progress or not todo)
    for lo in range(0, len(todo), WORDS_PER_APPEND):
        group = todo[lo : lo + WORDS_PER_APPEND]
        vectors = embedder.embed([word for _, word in group])
        file.append([(key, vector[None, :]) for (key, _), vector in zip(group, vectors, strict=True)])
        bar.update(len(group))
    bar.close()
    compact_if_wasteful(file, set(live))
    return len(todo)


class WordVectors:
    """The stored word forms of this model, searched by similarity to a unit vector."""

    def __init__(self, data_dir: Path, embedder: Embedder) -> None:
        self._file = SentenceFile(data_dir, embedder.dimension, FOLDER)
        self._prefix = word_key("", sentence_signature(embedder))
        self._lock = threading.Lock()  # one assistant serves every UI session, each in its own thread
        self._words: np.ndarray | None = None  # per stored row: its word form, or "" (another model's row)

    def related(self, vector: np.ndarray, minimum: float) -> dict[str, float]:
        """Word forms whose similarity to ``vector`` is at least ``minimum``, with that similarity."""
        with self._lock:
            rows, forms = self._rows()
            out: dict[str, float] = {}
            for lo in range(0, len(rows), BLOCK_ROWS):
                similarities = np.asarray(rows[lo : lo + BLOCK_ROWS], dtype=np.float32) @ vector
                for i in np.nonzero(similarities >= minimum)[0]:
                    if forms[lo + i]:
                        out[str(forms[lo + i])] = float(similarities[i])
            return out

    def _rows(self) -> tuple[np.ndarray, np.ndarray]:
        if self._words is None:
            self._file.refresh()
            forms = np.full(self._file.logged_rows, "", dtype=object)
            for key, (start, _) in self._file.offsets.items():
                if key.startswith(self._prefix):
                    forms[start] = key[len(self._prefix):]
            self._words = forms
        return self._file.rows(), self._words
