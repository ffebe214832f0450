"""Which sentences of a source abstract to highlight as the support for an answer.

Extractive answers quote sentences, and the assistant reports which ones
(``Answer.evidence``), so those are exact. A written (LLM) answer only says
which source a claim cites; we highlight, for every answer sentence citing the
source, the source sentence sharing the largest part of its content words. That
is a reading aid, not a verdict on support.
"""

from __future__ import annotations

import re

from rag.assistant import Answer
from rag.chunking import Sentence, split_sentences
from rag.citations import answer_sentences
from rag.lexical import content_stems
from rag.retrieval import Source

_TRAILING_CITATIONS = re.compile(r"([.!?])((?:[ \t]*\[\d{1,3}\])+)")
MIN_OVERLAP = 0.25  # share of a claim's content words a source sentence must contain to be highlighted


def supporting_sentences(answer: Answer, source: Source) -> list[Sentence]:
    """Sentences of ``source``'s abstract that back ``answer``, in text order."""
    if answer.refused:
        return []
    if answer.mode == "llm":
        found = _overlapping_sentences(answer.text, source)
    else:
        found = [e.sentence for e in answer.evidence if e.source == source.number]
    return sorted(set(found), key=lambda s: s.start)


def _overlapping_sentences(text: str, source: Source) -> list[Sentence]:
    sentences = [(s, content_stems(s.text)) for s in split_sentences(source.paper.text)]
    found = []
    for claim, numbers in answer_sentences(_citations_before_stops(text)):
        wanted = content_stems(claim)
        if source.number not in numbers or not wanted or not sentences:
            continue
        best, stems = max(sentences, key=lambda pair: len(wanted & pair[1]))
        if len(wanted & stems) / len(wanted) >= MIN_OVERLAP:
            found.append(best)
    return found


def _citations_before_stops(text: str) -> str:
    """Move markers written after a full stop ("fail. [1] Next") in front of it ("fail [1]. Next").

    Models write both styles; the sentence splitter would give the marker to the next sentence.
    """
    return _TRAILING_CITATIONS.sub(r"\2\1", text)
