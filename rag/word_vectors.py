"""Vectors of the corpus's word forms, so a one-word criterion reaches the words abstracts use for it.

"Which papers involve animals?": the wildlife-monitoring abstract never says "animal",
and one word's similarity to a whole sentence is too weak to carry membership (the
sentence says much else). Word to word the model knows better (MiniLM, seed
vocabulary): "animals" ~ "wildlife" 0.73, "medicine" ~ "medical" 0.86 (though
"animals" ~ "finches" is only 0.45, so the zebra-finch paper stays out). So ingest
encodes every distinct word form of the corpus once (about 580 forms/s on 2 cores;
the 50,254-paper index holds 101,058 forms) and
appends them to ``data_dir/words`` in the sentence index's crash-safe format
(``SentenceFile``: vectors first, then the log line that commits them); answering
only reads them.

An index built before this file existed has no word vectors: answers then match
words exactly, as before, until the next ``rag ingest`` adds them.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
from tqdm import tqdm

from .corpus import Paper
from .embedding import Embedder
from .lexical import STOPWORDS, stem, words
from .sentence_index import SentenceFile, compact_if_wasteful, sentence_signature

FOLDER = "words"
WORDS_PER_APPEND = 4096  # word forms encoded and appended per group: bounds work lost to a crash


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
    """The stored word forms of this model, compared with a unit vector on demand."""

    def __init__(self, data_dir: Path, embedder: Embedder) -> None:
        self._file = SentenceFile(data_dir, embedder.dimension, FOLDER)
        self._prefix = word_key("", sentence_signature(embedder))
        self._lock = threading.Lock()  # one assistant serves every UI session, each in its own thread
        self._log: dict[str, tuple[int, int]] | None = None  # the offsets ``_stems`` was built from
        self._stems: dict[str, list[tuple[str, int]]] = {}  # stem -> (form, row) of this model's forms

    def load(self) -> None:
        """Read the log and map the rows now: a first lookup at 50k papers spent ~1 s parsing and stemming
        101k forms, and ~20 ms more mapping the rows (summing 101k log spans for their count)."""
        with self._lock:
            self._by_stem()
            self._file.rows()

    def related(self, vector: np.ndarray, minimum: float, stems: Iterable[str]) -> dict[str, float]:
        """Of the stored forms with a stem in ``stems`` (those of the sentences being scored), the ones whose
        similarity to ``vector`` is at least ``minimum``, with that similarity. Only their rows are read:
        scanning all 101k forms of the 50k corpus cost ~0.3 s an answer; a list's ~100 candidate papers
        hold a few thousand, found by stem without tokenising their sentences again."""
        with self._lock:
            by_stem = self._by_stem()
            rows = dict(pair for s in stems for pair in by_stem.get(s, ()))
            if not rows:
                return {}
            stored = np.asarray(self._file.rows()[list(rows.values())], dtype=np.float32)
        similarities = stored @ vector / np.maximum(np.linalg.norm(stored, axis=1), 1e-6)
        return {form: float(s) for form, s in zip(rows, similarities, strict=True) if s >= minimum}

    def _by_stem(self) -> dict[str, list[tuple[str, int]]]:
        self._file.refresh()
        if self._log is not self._file.offsets:  # refresh() reads a changed log into a new dict
            by_stem: dict[str, list[tuple[str, int]]] = defaultdict(list)
            for key, (row, _) in self._file.offsets.items():
                if key.startswith(self._prefix):
                    form = key[len(self._prefix):]
                    by_stem[stem(form)].append((form, row))
            self._stems, self._log = dict(by_stem), self._file.offsets
        return self._stems
