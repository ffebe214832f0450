"""The offline default answer: the abstracts' own sentences, arranged by what was asked.

No instruction-tuned model good enough to write answers ships in a package, so
with no endpoint configured we answer by quotation: every sentence of an answer
is a sentence of a source abstract, cited, so every citation is supported by
construction. The shapes: a fact (the best sentences), a list of papers (one
cited sentence each, ranked, with the borderline ones apart), a comparison
table (problem / approach / data / result per paper), a summary (what the paper
is, what it finds), a collection overview (topics with their papers), and "not
stated" (what exactly is missing, plus at most the closest sentence).

This module only arranges evidence the assistant has scored and decided on
(:mod:`rag.evidence`); it makes no relevance decision of its own beyond
choosing among sentences already scored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .chunking import Sentence
from .citations import escape_brackets
from .types import Evidence, Role, Source

KEEP_WITHIN = 0.8  # a fact answer's further sentences score at least this share of the best one (dev set)
OTHER_PAPER_WITHIN = 0.95  # ... and a sentence of another paper nearly as much as the best (dev set)
CELL_WORDS = 28  # a comparison-table cell quotes at most this many words of its sentence (readability)
REFUSAL = "The abstracts in this corpus don't answer this question."
REASON_CAVEAT = ("The abstract doesn't explain this in so many words; here is what it states "
                 "(check the question's premise against it):")
COLUMNS: tuple[tuple[str, tuple[Role, ...]], ...] = (
    ("Problem", ("problem",)),
    ("Approach", ("method",)),
    ("Data / setting", ("data",)),
    ("Main result", ("result",)),
)

_FIGURE = re.compile(r"\d|\b(?:orders?[- ]of[- ]magnitude|twice|half|double[sd]?|tripled?|\w+fold|percent|two|three|four"
                     r"|five|six|seven|eight|nine|ten|eleven|twelve|dozens?|hundreds?|thousands?|millions?|billions?)\b",
                     re.IGNORECASE)
_WINNER = re.compile(r"\b(?:best|worst|outperform\w*|highest|lowest|strongest|weakest|exceed\w*|surpass\w*|"
                     r"better|worse|largest|smallest|leading|top-performing|state[- ]of[- ]the[- ]art)\b",
                     re.IGNORECASE)
_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}
_LIST_OPENER = re.compile(r"[:(]|\b(?:namely|including|such as|e\.g\.|i\.e\.)", re.IGNORECASE)
_SEPARATOR = re.compile(r",|;|\band\b|\bor\b")


@dataclass
class Composed:
    """A composed answer: text with [n] markers, the evidence it quotes, and for tables their structure."""

    text: str
    evidence: list[Evidence]
    refused: bool = False
    table: list[dict[str, object]] = field(default_factory=list)


# --- citing -----------------------------------------------------------------------------

def cite(text: str, number: int) -> str:
    """Put the marker inside the sentence's final punctuation: "... 12,326 trajectories [1]."."""
    text = escape_brackets(text.rstrip())
    if text and text[-1] in ".!?":
        return f"{text[:-1]} [{number}]{text[-1]}"
    return f"{text} [{number}]"


def _heading(source: Source) -> str:
    return f"**{source.paper.label}** ({source.paper.id})"


def quote_paragraph(source: Source, sentences: Sequence[Sentence]) -> str:
    """"**Label** (id): sentence [n] sentence [n]", sentences in abstract order."""
    ordered = sorted(sentences, key=lambda s: s.start)
    return f"{_heading(source)}: " + " ".join(cite(s.text, source.number) for s in ordered)


def render(chosen: Sequence[Evidence], sources: Sequence[Source]) -> str:
    """Group quoted sentences by paper, best paper first."""
    by_number = {s.number: s for s in sources}
    return "\n\n".join(
        quote_paragraph(by_number[n], [e.sentence for e in chosen if e.source == n])
        for n in dict.fromkeys(e.source for e in chosen)
    )


# --- facts --------------------------------------------------------------------------------

def select(evidence: Sequence[Evidence], limit: int) -> list[Evidence]:
    """The best sentence and close runners-up, at most ``limit``; other papers only when nearly as good."""
    if not evidence:
        return []
    best = evidence[0]
    keep = [e for e in evidence if e.score >= KEEP_WITHIN * best.score
            and (e.paper_id == best.paper_id or e.score >= OTHER_PAPER_WITHIN * best.score)]
    return keep[:limit]


def has_expected(expects: str, count: int | None, count_noun: str, text: str) -> bool:
    """Does the text hold the kind of content asked for: a figure, N listed items, a winner?"""
    if expects == "figure":
        return bool(_FIGURE.search(text))
    if expects == "enumeration" and count:
        return _enumerates(text, count, count_noun)
    if expects == "winner":
        return bool(_WINNER.search(text))
    return True


def _enumerates(sentence: str, count: int, noun: str) -> bool:
    """Does the sentence list ``count`` items? "three regimes: a, b, and c" does; "across three benchmarks." doesn't;
    "a temporal signal ... with a structural signal" names two signals without saying "two"."""
    mention = re.search(rf"\b(?:{count}|{_NUMBER_WORDS.get(count, str(count))})\b", sentence, re.IGNORECASE)
    if not mention:
        head = noun.split()[0].lower().rstrip("s") if noun.split() else ""
        return bool(head) and len(re.findall(rf"\b{re.escape(head)}s?\b", sentence, re.IGNORECASE)) >= count
    rest = sentence[mention.end():]
    opener = _LIST_OPENER.search(rest)
    return bool(opener) and len(_SEPARATOR.findall(rest[opener.end():])) >= count - 1


def fact(chosen: Sequence[Evidence], sources: Sequence[Source], caveat: str | None = None) -> Composed:
    text = render(chosen, sources)
    return Composed(f"{caveat}\n\n{text}" if caveat else text, list(chosen))


def defines(sentence: str, label: str) -> bool:
    """The sentence spells the name out or introduces it: "CoCHI (Class-oriented ...)", "we propose X"."""
    if not label or label.lower() not in sentence.lower():
        return False
    escaped = re.escape(label)
    return bool(re.search(rf"{escaped}\s*\(|\({escaped}\)|{escaped},\s+(?:a|an|the)\s", sentence, re.IGNORECASE)
                or _CONTRIBUTES.search(sentence))


def not_stated(what: str, closest: Evidence | None, sources: Sequence[Source]) -> Composed:
    """Say precisely what is missing and show at most the single closest sentence."""
    if closest is None:
        return Composed(what, [], refused=True)
    return Composed(f"{what} The closest it comes:\n\n{render([closest], sources)}", [closest], refused=True)


def missing_sentence(labels: Sequence[str], absent: Sequence[str]) -> str:
    """"The RISE abstract does not mention authors or institution." """
    return f"{_owner(labels)} {'does' if len(labels) == 1 else 'do'} not mention {_join(absent)}."


def missing_kind_sentence(labels: Sequence[str], expects: str, count: int | None, count_noun: str) -> str:
    """What is missing when the topic is there but the asked-for figure, list or winner is not."""
    owner = _owner(labels)
    if expects == "figure":
        return f"{owner} give{'s' if len(labels) == 1 else ''} no figure for this."
    if expects == "enumeration":
        noun = count_noun.strip() or "items"
        return f"{owner} {'does' if len(labels) == 1 else 'do'} not name the {_NUMBER_WORDS.get(count or 0, count)} {noun}."
    return f"{owner} {'does' if len(labels) == 1 else 'do'} not say which one is best."


def _owner(labels: Sequence[str]) -> str:
    if not labels:
        return "The abstracts"
    if len(labels) == 1:
        return f"The {labels[0]} abstract"
    return f"The {_join(labels, 'and')} abstracts"


def _join(items: Sequence[str], word: str = "or") -> str:
    items = [f'"{i}"' if word == "or" else i for i in items]
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"


# --- lists of papers --------------------------------------------------------------------

@dataclass(frozen=True)
class Match:
    """A paper's membership in a "which papers" set: its best sentence and score."""

    paper_id: str
    sentence: Sentence
    score: float


def paper_list(criterion: str, members: Sequence[Match], possible: Sequence[Match], sources: Sequence[Source],
               negated: bool, total: int | None = None) -> Composed:
    """A counted, ranked list with one cited sentence per paper; borderline ones listed apart."""
    by_paper = {s.paper.id: s for s in sources}
    members = [m for m in members if m.paper_id in by_paper]
    possible = [m for m in possible if m.paper_id in by_paper]
    if not members and not possible:
        return Composed(f"No paper in the corpus clearly matches \"{criterion}\".", [], refused=True)
    count = total if total is not None else len(members)
    shown = f"; showing {len(members)}" if count > len(members) else ""
    verb = ("paper is" if count == 1 else "papers are") + " not about" if negated else \
        "paper matches" if count == 1 else "papers match"
    lines = [f"{count} {verb} \"{criterion}\"{shown}:", ""]
    evidence: list[Evidence] = []
    for i, match in enumerate(members, 1):
        lines.append(f"{i}. {_list_line(match, by_paper[match.paper_id], evidence)}")
    if possible:
        lines += ["", "Possibly also (weaker match):", ""]
        lines += [f"- {_list_line(m, by_paper[m.paper_id], evidence)}" for m in possible]
    return Composed("\n".join(lines), evidence)


def _list_line(match: Match, source: Source, evidence: list[Evidence]) -> str:
    evidence.append(Evidence(source.number, match.paper_id, match.sentence, match.score, 0.0))
    return f"{_heading(source)}: {cite(match.sentence.text, source.number)}"


# --- per-paper structure: summaries and comparisons ---------------------------------------

def by_role(evidence: Sequence[Evidence], roles: Sequence[Role]) -> Evidence | None:
    """The most relevant sentence in one of these roles (evidence arrives best first)."""
    return next((e for e in evidence if e.role in roles), None)


def contribution(evidence: Sequence[Evidence], source: Source) -> Evidence | None:
    """Where a paper says what it is: the sentence introducing it by name ("We propose X", "X, a benchmark for ..."),
    else a method sentence saying "we propose ...", else its first method sentence, else its first sentence."""
    own = sorted((e for e in evidence if e.paper_id == source.paper.id), key=lambda e: e.sentence.start)
    methods = [e for e in own if e.role == "method"]
    return (next((e for e in own if defines(e.sentence.text, source.paper.label)), None)
            or next((e for e in methods if _CONTRIBUTES.search(e.sentence.text)), None)
            or (methods[0] if methods else None) or (own[0] if own else None))


_CONTRIBUTES = re.compile(r"\b(?:we|this\s+(?:paper|work))\s+(?:\w+\s+)?(?:propose|introduce|present|develop|design)s?\b",
                          re.IGNORECASE)


def summary(source: Source, evidence: Sequence[Evidence]) -> Composed:
    """What the paper is (its contribution sentence, preferably naming it) and what it finds."""
    own = [e for e in evidence if e.paper_id == source.paper.id]
    method = contribution(own, source)
    result = by_role(own, ("result",))
    chosen = [e for e in (method, result) if e is not None]
    if len(chosen) < 2:  # no result sentence: the problem it addresses says more than nothing
        chosen += [e for e in (by_role(own, ("problem",)),) if e is not None]
    chosen = list({id(e): e for e in chosen}.values())
    if not chosen:
        return Composed(REFUSAL, [], refused=True)
    return Composed(render(chosen, [source]), chosen)


def comparison(sources: Sequence[Source], evidence: Sequence[Evidence], shared: Mapping[str, list[str]],
               by_relevance: bool = True) -> Composed:
    """A table: one row per paper, a short cited quote per column, then what both abstracts share.

    With ``by_relevance`` each cell holds the role's sentence most relevant to the
    question; without (a bare "compare X and Y"), the approach cell is the paper's
    contribution sentence and the others the first of their role.
    """
    header = "| Paper | " + " | ".join(name for name, _ in COLUMNS) + " |"
    lines = [header, "|" + " --- |" * (len(COLUMNS) + 1)]
    chosen: list[Evidence] = []
    table: list[dict[str, object]] = []
    for source in sources:
        own = [e for e in evidence if e.paper_id == source.paper.id]
        cells, row = [], {"paper_id": source.paper.id, "label": source.paper.label, "number": source.number}
        for name, roles in COLUMNS:
            picked = by_role(own, roles) if by_relevance or roles != ("method",) else contribution(own, source)
            if picked is None:  # no sentence in this role; the abstract may still say it elsewhere
                cells.append("—")
                row[name] = None
                continue
            chosen.append(picked)
            cells.append(cite(_cell(picked.sentence.text), source.number))
            row[name] = picked.sentence.text
        lines.append(f"| {_heading(source)} | " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        table.append(row)
    lines += ["", f"_{_shared_line(sources, shared)}_"]
    return Composed("\n".join(lines), chosen, table=table)


def _cell(text: str) -> str:
    """A sentence cut to ``CELL_WORDS`` words at a word boundary, marked with an ellipsis when cut."""
    cell_words = text.split()
    return text if len(cell_words) <= CELL_WORDS else " ".join(cell_words[:CELL_WORDS]).rstrip(",;:") + " …"


def _shared_line(sources: Sequence[Source], shared: Mapping[str, list[str]]) -> str:
    common = shared.get("", [])
    both = "both abstracts use" if len(sources) == 2 else f"all {len(sources)} abstracts use"
    parts = [f"In common (distinctive terms {both}): {', '.join(common)}." if common
             else "The abstracts share no distinctive term."]
    for source in sources:
        own = shared.get(source.paper.id, [])
        if own:
            parts.append(f"Only {source.paper.label}: {', '.join(own)}.")
    return " ".join(parts)


# --- the collection ---------------------------------------------------------------------------

def overview(topics: Sequence[tuple[list[str], list[str], int]], evidence: Sequence[Evidence],
             sources: Sequence[Source], papers: int) -> Composed:
    """Topics named by their distinctive terms, each with its papers and one cited contribution sentence."""
    by_paper = {s.paper.id: s for s in sources}
    lines = [f"{papers} papers in {len(topics)} topics:"]
    chosen: list[Evidence] = []
    for terms, members, size in topics:
        shown = f"{size} papers" if size == len(members) else f"{size} papers, {len(members)} shown"
        lines += ["", f"**{', '.join(terms)}** ({shown})", ""]
        for pid in members:
            picked = contribution(evidence, by_paper[pid])
            if picked is not None:
                chosen.append(picked)
                lines.append(f"- {_heading(by_paper[pid])}: {cite(picked.sentence.text, picked.source)}")
    return Composed("\n".join(lines), chosen)
