"""Citation markers ``[n]``: parse them, keep the valid ones, drop and count the rest.

Every answer passes through here, streamed or not, so a citation the user sees
always points at a source card that exists. Models fabricate citations often
(GPT-4o alone: 78-90% in OpenScholar's study), so an out-of-range marker is
removed, never rendered as a link.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from .chunking import split_sentences
from .lexical import content_stems
from .types import CITATION

_OPEN_MARKER = re.compile(r"\[\d{0,3}(?:\s*[,;\-–]\s*\d{0,3})*\s*\Z")  # what a marker looks like before its "]"
_HOLD_BACK = 200  # never hold back more than this, whatever arrives


@dataclass
class CitationReport:
    """The cleaned text and what was cited or removed."""

    text: str
    cited: list[int] = field(default_factory=list)
    removed: int = 0


def _expand(inner: str) -> list[int]:
    numbers: list[int] = []
    for part in re.split(r"\s*[,;]\s*", inner):
        bounds = re.split(r"\s*[-–]\s*", part)
        if len(bounds) == 2 and int(bounds[0]) <= int(bounds[1]) and int(bounds[1]) - int(bounds[0]) < 20:
            numbers.extend(range(int(bounds[0]), int(bounds[1]) + 1))
        else:
            numbers.extend(int(b) for b in bounds)
    return numbers


def _rewrite(match: re.Match[str], valid: range, report: CitationReport) -> str:
    numbers = _expand(match.group("nums"))
    kept = [n for n in numbers if n in valid]
    report.removed += len(numbers) - len(kept)
    for n in kept:
        if n not in report.cited:
            report.cited.append(n)
    if not kept:
        return ""  # the space before a dropped marker goes with it
    return match.group("lead") + "".join(f"[{n}]" for n in dict.fromkeys(kept))


def check_citations(text: str, n_sources: int) -> CitationReport:
    """Normalise ``[1, 2]`` to ``[1][2]`` and remove markers outside 1..n_sources."""
    report = CitationReport(text="")
    valid = range(1, n_sources + 1)
    report.text = CITATION.sub(lambda m: _rewrite(m, valid, report), text)
    return report


def cited_numbers(text: str) -> list[int]:
    """Citation numbers in order of first appearance (no validation)."""
    seen: dict[int, None] = {}
    for match in CITATION.finditer(text):
        for n in _expand(match.group("nums")):
            seen.setdefault(n, None)
    return list(seen)


def renumber(text: str, mapping: Mapping[int, int]) -> str:
    """``text`` with every marker's numbers replaced through ``mapping`` (unmapped numbers kept).

    The UI numbers sources in order of first use; this is the one place that rewrites markers.
    """
    def swap(match: re.Match[str]) -> str:
        numbers = [mapping.get(n, n) for n in _expand(match.group("nums"))]
        return match.group("lead") + "".join(f"[{n}]" for n in dict.fromkeys(numbers))

    return CITATION.sub(swap, text)


class StreamingCitationFilter:
    """Applies :func:`check_citations` to a token stream without waiting for the end.

    Text is released as soon as it cannot be part of a marker; an open ``[`` is
    held back until it closes or grows too long to be a citation.
    """

    def __init__(self, n_sources: int) -> None:
        self.n_sources = n_sources
        self.report = CitationReport(text="")
        self._pending = ""
        self._raw: list[str] = []

    def feed(self, delta: str) -> str:
        self._raw.append(delta)
        self._pending += delta
        cut = self._safe_prefix_end()
        ready, self._pending = self._pending[:cut], self._pending[cut:]
        return self._emit(ready)

    def finish(self) -> str:
        ready, self._pending = self._pending, ""
        return self._emit(ready)

    @property
    def raw_text(self) -> str:
        return "".join(self._raw)

    def _safe_prefix_end(self) -> int:
        """End of the text that can be released: not an open marker, nor the space before one."""
        cut = len(self._pending)
        open_at = self._pending.rfind("[")
        if open_at != -1 and cut - open_at <= _HOLD_BACK and _OPEN_MARKER.match(self._pending, open_at):
            cut = open_at
        while cut > 0 and self._pending[cut - 1] in " \t":
            cut -= 1
        return cut

    def _emit(self, ready: str) -> str:
        if not ready:
            return ""
        part = check_citations(ready, self.n_sources)
        self.report.removed += part.removed
        for n in part.cited:
            if n not in self.report.cited:
                self.report.cited.append(n)
        self.report.text += part.text
        return part.text


# --- support: does the cited text back the sentence? --------------------------------

SUPPORT_THRESHOLD = 0.5  # at or above: a sentence counts as supported by its citation(s)
_LABEL_PREFIX = re.compile(r"^(?:\d+\.\s*)?\*\*[^*]+\*\*\s*(?:\([\w.-]+\))?\s*:?\s*")  # "**DaTMe** (p12): "
_ABOUT_THE_SOURCES = re.compile(
    r"\b(?:abstracts?|sources?|corpus|papers?)\b[^.]*\b(?:don't|do not|doesn't|does not|cannot|can't)\b"
    r"|^\s*(?:no|none\s+of)\b[^.]*\b(?:abstracts?|corpus|papers?)\b",  # "No paper in the corpus clearly matches ..."
    re.IGNORECASE,
)
_NOTE = re.compile(r"^\s*_[^_].*_\s*$")  # an italic line: the answer's own computed note, not a quote


@dataclass
class SentenceSupport:
    """How well one answer sentence is backed by the sources it cites."""

    sentence: str
    cited: list[int]
    per_source: dict[int, float]
    score: float

    @property
    def supported(self) -> bool:
        return bool(self.cited) and self.score >= SUPPORT_THRESHOLD


def answer_sentences(text: str) -> list[tuple[str, list[int]]]:
    """Split an answer into claim sentences with the citation numbers each carries.

    A line's label ("1. **Title** (id): ") goes before splitting: a title ending in "?" would
    otherwise cut the line into the label and an "(id): ..." claim that matches no quoted sentence.
    Markdown scaffolding (headings, table headers and rules, label-only lines), lines that
    only introduce what follows ("3 papers match ...:") and italic notes the composer
    computed itself ("_In common: ..._") are not claims. Each claim line is split with the
    corpus' own sentence splitter, so an answer quoting an abstract cuts where the abstract does
    ("e.g. BERT" and "+4.2" stay whole; "... trajectories [1]." ends at its period).
    """
    out = []
    claim_lines = [line for line in text.splitlines()
                   if cited_numbers(line) or not (_NOTE.match(line) or line.lstrip().startswith("|"))]
    for piece in (sentence.text for line in claim_lines for part in _claim_parts(line)
                  for sentence in split_sentences(_LABEL_PREFIX.sub("", part))):
        numbers = cited_numbers(piece)
        if not numbers and (piece.rstrip().endswith(":") or _ABOUT_THE_SOURCES.search(piece)):
            continue  # a lead-in, or a statement about the sources ("the abstracts don't state ..."), not a claim
        bare = _LABEL_PREFIX.sub("", CITATION.sub("", piece).strip(" \t-|#>")).strip(" \t*:")
        if len(re.findall(r"[A-Za-z]{2,}", bare)) >= 3:
            out.append((bare, numbers))
    return out


def _claim_parts(line: str) -> list[str]:
    """A table row's cited cells, each its own claim (a sentence never runs across cells); other lines whole."""
    if not line.lstrip().startswith("|"):
        return [line]
    return [cell for cell in re.split(r"(?<!\\)\|", line) if cited_numbers(cell)]


def score_support(text: str, evidence_by_source: Mapping[int, tuple[Sequence[str], np.ndarray]],
                  embed: Callable[[list[str]], np.ndarray],
                  coverage: Callable[[set[str], set[str]], float]) -> list[SentenceSupport]:
    """Support of each answer sentence by each source it cites, offline.

    A source's support for a sentence is its best-matching sentence's mix of
    embedding similarity and lexical coverage (the share of the claim's content
    words that the source sentence contains): paraphrase passes on similarity,
    while a claim with a number or name the source lacks loses on coverage.
    ``evidence_by_source`` maps a source number to its sentences and their
    unit-length vectors; ``coverage`` weighs the shared words (rare ones count more).
    """
    claims = answer_sentences(text)
    if not claims:
        return []
    vectors = _claim_vectors([c for c, _ in claims], evidence_by_source, embed)
    results = []
    for (claim, numbers), vector in zip(claims, vectors, strict=True):
        per_source = {n: _source_support(claim, vector, *evidence_by_source[n], coverage)
                      for n in numbers if n in evidence_by_source}
        for n in per_source:
            if not _figures(claim) <= _figures(" ".join(evidence_by_source[n][0])):
                # a figure the source never states: one word of many to the overlap, all of the claim to a reader
                per_source[n] = min(per_source[n], SUPPORT_THRESHOLD - 0.01)
        results.append(SentenceSupport(claim, numbers, per_source, max(per_source.values(), default=0.0)))
    return results


def _claim_vectors(claims: Sequence[str], evidence_by_source: Mapping[int, tuple[Sequence[str], np.ndarray]],
                   embed: Callable[[list[str]], np.ndarray]) -> np.ndarray:
    """One vector per claim; a claim that quotes a source sentence (whole, or cut short with "…") reuses
    that sentence's stored vector, so an extractive answer costs no encoder pass (a 20-paper list did
    cost 0.7 s at 10k papers). Only claims in other words are encoded."""
    stored = [(_key(sentence), vectors[i]) for sentences, vectors in evidence_by_source.values()
              for i, sentence in enumerate(sentences)]
    found: list[np.ndarray | None] = []
    for claim in claims:
        key = _key(claim.removesuffix("…"))
        found.append(next((vector for k, vector in stored if k == key or (claim.endswith("…") and k.startswith(key))),
                          None))
    missing = [i for i, vector in enumerate(found) if vector is None]
    encoded: Sequence[np.ndarray] = list(embed([claims[i] for i in missing])) if missing else []
    for i, vector in zip(missing, encoded, strict=True):
        found[i] = vector
    return np.stack([np.asarray(v, dtype=np.float32) for v in found])


def _key(text: str) -> str:
    """Letters and digits only: a quote and its source sentence agree whatever the markers, escapes and spacing."""
    return re.sub(r"[\W_]+", "", _unmarked(text)).lower()


def _figures(text: str) -> set[str]:
    """Numbers in a text, normalised ("12,326" == "12326"); citation markers excluded."""
    return {m.replace(",", "") for m in re.findall(r"\d+(?:[.,]\d+)*", _unmarked(text))}


def _unmarked(text: str) -> str:
    """The text without citation markers, a quote's escaped "\\[1\\]" counted as one.

    A source sentence's own "[1]" is dropped as a marker, so the quote of it must drop it too:
    kept, its "1" missed the stored vector (an encoder pass) and read as a figure the source never states.
    """
    return CITATION.sub(" ", text.replace("\\[", "[").replace("\\]", "]"))


def _source_support(claim: str, vector: np.ndarray, sentences: Sequence[str], vectors: np.ndarray,
                    coverage: Callable[[set[str], set[str]], float]) -> float:
    if not len(sentences):
        return 0.0
    wanted = content_stems(claim, compounds=False)
    similarities = vectors @ vector
    best = 0.0
    for sentence, similarity in zip(sentences, similarities, strict=True):
        best = max(best, 0.5 * float(similarity) + 0.5 * coverage(wanted, content_stems(sentence)))
    return min(1.0, best)
