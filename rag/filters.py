"""Venue and year filters: from the question, the CLI and the UI, applied in Chroma and BM25 alike.

At conference scale a "Which NeurIPS 2026 papers ..." question must not be answered
from ten other venues (issue 10 measured paper F1 0.00 on twelve such questions). The
venue names come from the corpus itself, never from a hard-coded list, so a user's
own corpus with its own venues works the same way.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .corpus import Paper

_YEAR = r"(?:19|20|21)\d\d"  # 1900-2199: other four-digit numbers are never years
_RANGE_SEP = r"\s*(?:-|–|—|to|through|until)\s*"
# Year phrases, most specific first; each yields (low, high) from its groups.
_YEAR_PHRASES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"\bbetween\s+({_YEAR})\s+and\s+({_YEAR})\b", re.IGNORECASE), "range"),
    (re.compile(rf"\b(?:from|in)?\s*({_YEAR}){_RANGE_SEP}({_YEAR})\b", re.IGNORECASE), "range"),
    (re.compile(rf"\bsince\s+({_YEAR})\b", re.IGNORECASE), "from"),
    (re.compile(rf"\b(?:from\s+)?({_YEAR})\s+(?:onwards?|and\s+later|or\s+later|on(?=\s*(?:[?.!,;]|$)))",
                re.IGNORECASE),
     "from"),
    (re.compile(rf"\bafter\s+({_YEAR})\b", re.IGNORECASE), "after"),
    (re.compile(rf"\bbefore\s+({_YEAR})\b", re.IGNORECASE), "before"),
    (re.compile(rf"\b(?:until|up\s+to|through)\s+({_YEAR})\b", re.IGNORECASE), "until"),
    (re.compile(rf"\b(?:in|from|of|during)\s+({_YEAR})\b", re.IGNORECASE), "exact"),
]
_SPACES = re.compile(r"\s{2,}")
_GONE = "\x00"  # stands where a venue name was, until the joining words around it go too
_GONE_RUN = re.compile(rf"{_GONE}(?:\s*(?:,|/|&|\band\b|\bor\b)\s*{_GONE})*")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([?.!,;:])")


class FilterError(ValueError):
    """A --venue or --year value the corpus can't satisfy; the message says what would."""


@dataclass(frozen=True)
class Filters:
    """Which papers a question may draw on: any of ``venues`` (empty: all), years within bounds."""

    venues: tuple[str, ...] = ()
    year_min: int | None = None
    year_max: int | None = None

    def __bool__(self) -> bool:
        return bool(self.venues) or self.year_min is not None or self.year_max is not None

    def matches(self, paper: Paper) -> bool:
        venue, year = paper_venue(paper), paper_year(paper)
        if self.venues and venue not in self.venues:
            return False
        if self.year_min is not None and (year is None or year < self.year_min):
            return False
        return self.year_max is None or (year is not None and year <= self.year_max)

    def chroma_where(self) -> dict | None:
        """The same condition as a Chroma ``where`` over chunk metadata (None: no condition)."""
        clauses: list[dict] = []
        if self.venues:
            clauses.append({"venue": {"$in": list(self.venues)}})
        if self.year_min is not None:
            clauses.append({"year": {"$gte": self.year_min}})
        if self.year_max is not None:
            clauses.append({"year": {"$lte": self.year_max}})
        if not clauses:
            return None
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}

    def narrowed(self, other: Filters | None) -> Filters:
        """Both conditions at once (the UI's filters and the question's): venues intersect, years tighten."""
        if not other:
            return self
        if not self:
            return other
        venues = tuple(v for v in self.venues if v in other.venues) if self.venues and other.venues \
            else self.venues or other.venues
        return Filters(venues, _tighter(max, self.year_min, other.year_min),
                       _tighter(min, self.year_max, other.year_max))

    def describe(self) -> str:
        """Short human form for chips and notices: "NeurIPS, ICML · 2019–2021"."""
        parts = [", ".join(self.venues)] if self.venues else []
        if self.year_min is not None and self.year_min == self.year_max:
            parts.append(str(self.year_min))
        elif self.year_min is not None or self.year_max is not None:
            low = "" if self.year_min is None else str(self.year_min)
            high = "" if self.year_max is None else str(self.year_max)
            parts.append(f"{low}–{high}")
        return " · ".join(parts)


def _tighter(pick: Callable[[int, int], int], a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else pick(a, b)


def paper_venue(paper: Paper) -> str | None:
    venue = paper.meta.get("venue")
    return str(venue).strip() or None if venue is not None else None


def paper_year(paper: Paper) -> int | None:
    year = paper.meta.get("year")
    if isinstance(year, int) and not isinstance(year, bool):
        return year
    return int(year) if isinstance(year, str) and year.strip().isdigit() else None


def chunk_metadata(paper: Paper) -> dict[str, str | int]:
    """What a paper's chunks carry in Chroma so that ``Filters.chroma_where`` can select them."""
    venue, year = paper_venue(paper), paper_year(paper)
    return {**({"venue": venue} if venue else {}), **({"year": year} if year is not None else {})}


def venue_counts(papers: Iterable[Paper]) -> Counter[str]:
    """Papers per venue, for the venue list, the UI's chips and question parsing."""
    return Counter(v for v in map(paper_venue, papers) if v)


def year_counts(papers: Iterable[Paper]) -> Counter[int]:
    return Counter(y for y in map(paper_year, papers) if y is not None)


class FilterColumns:
    """Venue and year of every paper in a fixed order, so BM25 rows can be filtered in one pass."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self._venues = np.array([paper_venue(p) or "" for p in papers], dtype=object)
        self._years = np.array([paper_year(p) or -1 for p in papers], dtype=np.int64)

    def mask(self, filters: Filters) -> np.ndarray:
        keep = np.ones(len(self._years), dtype=bool)
        if filters.venues:
            keep &= np.isin(self._venues, list(filters.venues))
        if filters.year_min is not None:
            keep &= self._years >= filters.year_min
        if filters.year_max is not None:
            keep &= (self._years >= 0) & (self._years <= filters.year_max)
        return keep


def parse_year_range(text: str) -> tuple[int | None, int | None]:
    """A CLI ``--year``: "2022", "2019-2021", "2019-" (from) or "-2021" (until)."""
    match = re.fullmatch(r"\s*(\d{4})?\s*(-)?\s*(\d{4})?\s*", text)
    if not match or not (match.group(1) or match.group(3)) or (match.group(3) and not match.group(2)):
        raise FilterError(f"not a year or year range: {text!r} (use 2022, 2019-2021, 2019- or -2021)")
    low = int(match.group(1)) if match.group(1) else None
    high = int(match.group(3)) if match.group(3) else (None if match.group(2) else low)
    if low is not None and high is not None and low > high:
        raise FilterError(f"year range runs backwards: {text!r}")
    return low, high


def canonical_venues(names: Iterable[str], known_venues: Iterable[str]) -> tuple[str, ...]:
    """Map user-typed venue names onto the corpus's spelling (case-insensitive); unknown ones raise."""
    by_lower = {v.lower(): v for v in known_venues}
    unknown = [n for n in names if n.strip().lower() not in by_lower]
    if unknown:
        known = ', '.join(sorted(by_lower.values()))
        raise FilterError(f"unknown venue(s): {', '.join(unknown)}; this corpus has: {known}")
    return tuple(dict.fromkeys(by_lower[n.strip().lower()] for n in names))


def parse_filters(question: str, known_venues: Iterable[str]) -> tuple[Filters, str]:
    """Venue and year conditions stated in a question, and the question without them.

    "Which NeurIPS 2026 papers study diffusion models?" -> (NeurIPS, 2026..2026),
    "Which papers study diffusion models?". Venue names are the corpus's own; an
    all-capitals name ("ACL", "ALT", "WWW") must be written in capitals, so an
    ordinary word ("alt") is never mistaken for one, while mixed-case names
    ("NeurIPS", "CoRL") match in any case. A year counts only with a preposition
    ("in 2021", "since 2022", "between 2019 and 2021") or next to a venue name,
    so "trained on 2000 images" is not a filter.
    """
    venues, beside, text = _take_venues(question, known_venues)
    low, high, text = _take_years(text)
    if low is None and high is None and beside:
        low, high = min(beside), max(beside)
    cleaned = _SPACE_BEFORE_PUNCT.sub(r"\1", _SPACES.sub(" ", text)).strip()
    return Filters(venues, low, high), cleaned


def _venue_pattern(venue: str) -> re.Pattern[str]:
    """The venue name with an optional "at/from/in (the)" before it and a year right before or after it."""
    name = rf"(?<![\w-]){re.escape(venue)}(?![\w-])"
    return re.compile(rf"(?:\b(?:at|from|in)\s+(?:the\s+)?)?(?:({_YEAR})\s+{name}|{name}(?:\s+({_YEAR})\b)?)"
                      r"(?:\s+(?:conference|proceedings))?", 0 if venue.isupper() else re.IGNORECASE)


def _take_venues(question: str, known_venues: Iterable[str]) -> tuple[tuple[str, ...], list[int], str]:
    """Venue names in the question, years written right beside them, and the text without both."""
    found: dict[str, None] = {}
    years: list[int] = []
    text = question
    for venue in sorted(set(known_venues), key=len, reverse=True):  # "NAACL" before "ACL"
        pattern = _venue_pattern(venue)
        for match in pattern.finditer(text):
            found[venue] = None
            years += [int(g) for g in match.groups() if g]
        text = pattern.sub(_GONE, text)
    return tuple(found), years, _GONE_RUN.sub(" ", text)


def _take_years(text: str) -> tuple[int | None, int | None, str]:
    """The first year phrase of the text, and the text without it."""
    for pattern, kind in _YEAR_PHRASES:
        match = pattern.search(text)
        if match:
            low, high = _bounds(kind, [int(g) for g in match.groups()])
            return low, high, text[: match.start()] + " " + text[match.end():]
    return None, None, text


def _bounds(kind: str, years: list[int]) -> tuple[int | None, int | None]:
    first = years[0]
    return {
        "range": (min(years), max(years)),
        "from": (first, None),
        "after": (first + 1, None),
        "before": (None, first - 1),
        "until": (None, first),
        "exact": (first, first),
    }[kind]
