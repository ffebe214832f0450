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

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from .chunking import Sentence
from .evidence import NUMBER_WORDS, Match, answering, contribution, in_role
from .gather import Gathered, Missing, StatedSize
from .roles import names_setting
from .types import Evidence, Role, Source, escape_brackets

KEEP_WITHIN = 0.8  # a fact answer's further sentences score at least this share of the best one (dev set)
OTHER_PAPER_WITHIN = 0.95  # ... and a sentence of another paper nearly as much as the best (dev set)
CELL_WORDS = 28  # a comparison-table cell quotes at most this many words of its sentence (readability)
QUOTED_ABOVE = "(quoted above)"  # a cell whose role's only sentence the comparison's lead already quotes
# A data cell whose paper states its setting only in the sentence of its main result ("Experiments across multiple
# LLMs show ... on five multiple-choice question answering benchmarks"): 693 of the 947 table rows over the tuning
# sets had shown "—" there, as if the abstract said nothing of its data.
IN_RESULT = "(in the main result)"
LEAD = "Closest to the question in each abstract:"
# What an overview quotes each paper by, when a role is asked of every paper ("What are the main findings?")
QUOTED_ROLE: dict[Role, str] = {"result": "its main result, where its abstract states one",
                                "data": "what it was evaluated on, where its abstract says",
                                "problem": "the problem it addresses", "method": "its contribution"}
REFUSAL = "The abstracts in this corpus don't answer this question."
# ... said of a question about the collection that reads like no overview request ("main takeaways from the whole
# collection?"): what the collection does cover is one question away
OVERVIEW_HINT = 'For what the collection does cover, ask for its overview ("What are the main themes?").'
REASON_CAVEAT = ("The abstract doesn't explain this in so many words; here is what it states "
                 "(check the question's premise against it):")
WEAK_NOTE = ("_Weak match: these are the closest sentences the abstracts have, but none is close to the question; "
             "check that they answer it._")
COLUMNS: tuple[tuple[str, tuple[Role, ...]], ...] = (
    ("Problem", ("problem",)),
    ("Approach", ("method",)),
    ("Data / setting", ("data",)),
    ("Main result", ("result",)),
)



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


def quote_paragraph(source: Source, sentences: Sequence[Sentence], lead: Sentence | None = None) -> str:
    """"**Label** (id): sentence [n] sentence [n]", sentences in abstract order, ``lead`` (a definition) first."""
    ordered = sorted(sentences, key=lambda s: (s != lead, s.start))
    return f"{_heading(source)}: " + " ".join(cite(s.text, source.number) for s in ordered)


def render(chosen: Sequence[Evidence], sources: Sequence[Source], lead: Evidence | None = None) -> str:
    """Group quoted sentences by paper, best paper first."""
    by_number = {s.number: s for s in sources}
    return "\n\n".join(
        quote_paragraph(by_number[n], [e.sentence for e in chosen if e.source == n],
                        lead.sentence if lead is not None and lead.source == n else None)
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


def fact(chosen: Sequence[Evidence], sources: Sequence[Source], caveat: str | None = None,
         lead: Evidence | None = None) -> Composed:
    text = render(chosen, sources, lead)
    return Composed(f"{caveat}\n\n{text}" if caveat else text, list(chosen))


def not_stated(missing: Missing, closest: Evidence | None, sources: Sequence[Source]) -> Composed:
    """Say precisely what is missing and show at most the single closest sentence."""
    if missing.reason == "which":
        return Composed(f"Papers like which one? The last answer had {len(missing.labels)}: "
                        f"{_join(missing.labels, 'and')}. Ask, for example, \"Find papers similar to "
                        f"{missing.labels[0]}\".", [], refused=True)
    if missing.reason == "nothing" or closest is None:
        return Composed(f"{REFUSAL} {OVERVIEW_HINT}" if missing.collection else REFUSAL, [], refused=True)
    what = (missing_sentence(missing.labels, missing.absent) if missing.reason == "terms"
            else missing_kind_sentence(missing.labels, missing.expects, missing.count, missing.noun))
    they = "it comes" if len(missing.labels) == 1 else "they come"  # ("The abstracts do not say ...")
    return Composed(f"{what} The closest {they}:\n\n{render([closest], sources)}", [closest], refused=True)


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
        verb = 'does' if len(labels) == 1 else 'do'
        return f"{owner} {verb} not name the {NUMBER_WORDS.get(count or 0, count)} {noun}."
    if expects == "names":  # "The CoCHI abstract does not name the LLMs."
        return f"{owner} {'does' if len(labels) == 1 else 'do'} not name the {count_noun}."
    return f"{owner} {'does' if len(labels) == 1 else 'do'} not say which one is {count_noun or 'the best'}."


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

def paper_list(criterion: str, members: Sequence[Match], possible: Sequence[Match], sources: Sequence[Source],
               negated: bool, total: int | None = None, within: str = "", among: int = 0, lacking: str = "",
               stating: str = "", quoting: Sequence[Role] = ()) -> Composed:
    """A counted, ranked list with one cited sentence per paper; borderline ones listed apart.

    ``criterion`` comes quoted ("\"audio\" or \"video\""): alternatives are quoted one by one. ``among``: the
    list was scored among only that many papers (the last answer's, or the selection), not the whole corpus.
    ``lacking``: what the papers listed do not report ("experiment"), said instead of a criterion; ``stating``:
    what they state ("a measured result as a number"); ``quoting``: the role each paper is quoted by.
    """
    by_paper = {s.paper.id: s for s in sources}
    members = [m for m in members if m.paper_id in by_paper]
    possible = [m for m in possible if m.paper_id in by_paper]
    pool = f"None of these {among} papers" if among else "No paper in the corpus"
    if lacking and not members:
        every = f"Each of these {among} abstracts" if among else "Every abstract in the corpus"
        return Composed(f"{every} reports an {lacking}.", [])
    if stating and not members:
        return Composed(f"{pool} states {stating} in its abstract.", [], refused=True)
    if not members and not possible:
        return Composed(f"{pool} clearly matches {criterion}." if criterion else f"{pool} clearly matches.", [],
                        refused=True)
    evidence: list[Evidence] = []
    if not members:  # only papers close to the best match, none clearly matching
        lines = [f"{pool} clearly matches {criterion}. The closest (weaker matches):", ""]
        lines += [f"- {_list_line(m, by_paper[m.paper_id], evidence)}" for m in possible]
        return Composed("\n".join(lines), evidence)
    count = total if total is not None else len(members)
    shown = f"; showing {len(members)}" if count > len(members) else ""
    counted = (f"{count} of the \"{within}\" papers" if within else f"{count} of these {among} papers" if among
               else f"{count} paper{'' if count == 1 else 's'}")
    verb = ("is" if count == 1 else "are") + " not about" if negated else "matches" if count == 1 else "match"
    where = "its abstract" if count == 1 else "their abstracts"
    said = (f"report{'s' if count == 1 else ''} no {lacking} in {where}" if lacking
            else f"state{'s' if count == 1 else ''} {stating} in {where}" if stating else f"{verb} {criterion}")
    by_role = f", each with {QUOTED_ROLE[quoting[0]]}" if quoting else ""
    lines = [f"{counted} {said}{shown}{by_role}:", ""]
    for i, match in enumerate(members, 1):
        lines.append(f"{i}. {_list_line(match, by_paper[match.paper_id], evidence)}")
    if possible:
        lines += ["", "Possibly also (weaker match):", ""]
        lines += [f"- {_list_line(m, by_paper[m.paper_id], evidence)}" for m in possible]
    return Composed("\n".join(lines), evidence)


def similar_papers(label: str, members: Sequence[Match], sources: Sequence[Source]) -> Composed:
    """The papers closest to one paper, closest first, each with its sentence nearest to that paper's."""
    by_paper = {s.paper.id: s for s in sources}
    members = [m for m in members if m.paper_id in by_paper]
    if not members:
        return Composed(f"No other paper in the corpus is close to {label}.", [], refused=True)
    lines = [f"The {len(members)} papers closest to {label}, each with its sentence nearest to {label}'s abstract:", ""]
    evidence: list[Evidence] = []
    lines += [f"{i}. {_list_line(m, by_paper[m.paper_id], evidence)}" for i, m in enumerate(members, 1)]
    return Composed("\n".join(lines), evidence)


def _list_line(match: Match, source: Source, evidence: list[Evidence]) -> str:
    evidence.append(Evidence(source.number, match.paper_id, match.sentence, match.score, 0.0))
    return f"{_heading(source)}: {cite(match.sentence.text, source.number)}"


# --- per-paper structure: summaries and comparisons ---------------------------------------

def by_role(evidence: Sequence[Evidence], roles: Sequence[Role], used: Collection[Evidence] = ()) -> Evidence | None:
    """The most relevant sentence in one of these roles (evidence arrives best first), not one already ``used``."""
    return next((e for e in evidence if e.role in roles and e not in used), None)


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
               by_relevance: bool = True, closest: Sequence[Evidence] = (),
               sizes: Sequence[StatedSize] = ()) -> Composed:
    """A table: one row per paper, a short cited quote per column, then what both abstracts share.

    Sentences ``closest`` to what the question asks come first, as its direct answer. With
    ``by_relevance`` each cell holds the role's sentence most relevant to the question; without
    (a bare "compare X and Y"), the approach cell is the paper's contribution sentence and the
    others the first of their role. A cell never repeats a sentence quoted above it: it takes the
    role's next sentence, or says the role's sentence is quoted above (in 388 of the 429 tables
    with such a lead, over dev and the probe sets, the lead's sentences had reappeared in cells).
    """
    chosen = list(closest)
    lines = [LEAD, *_closest_lines(sources, closest), ""] if closest else []
    lines += [f"_{_sizes_line(sizes, sources)}_", ""] if sizes else []
    lines += ["| Paper | " + " | ".join(name for name, _ in COLUMNS) + " |", "|" + " --- |" * (len(COLUMNS) + 1)]
    table: list[dict[str, object]] = []
    for source in sources:
        own = [e for e in evidence if e.paper_id == source.paper.id]
        cells, row = [], {"paper_id": source.paper.id, "label": source.paper.label, "number": source.number}
        said = {e.sentence for e in closest if e.paper_id == source.paper.id}
        above = [e for e in own if e.sentence in said]  # (as scored for the table: the lead's may be a clause's)
        used: list[Evidence] = list(above)  # one sentence fills one cell: a label defined in the problem sentence
        picks: dict[str, Evidence | None] = {}
        for name, roles in sorted(COLUMNS, key=lambda column: column[1] == ("data",)):  # (the data cell last:)
            picked = by_role(own, roles, used) if by_relevance or roles != ("method",) else contribution(own, source)
            picked = by_role(own, roles, used) if picked in used else picked
            picked = picked or (_setting(own, used) if roles == ("data",) else None)  # (the result keeps its own)
            picks[name] = picked
            used += [picked] if picked else []
        for name, roles in COLUMNS:  # made it the "contribution" too, and the row said the same thing twice
            picked = picks[name]
            if picked is None and roles == ("data",) and _evaluates(picks.values()):
                cells.append(IN_RESULT)  # (its sentence is the result's: the structured row has none of its own)
                row[name] = None
                continue
            if picked is None:  # no other sentence in this role; the abstract may still say it elsewhere
                quoted = by_role(above, roles)
                cells.append(QUOTED_ABOVE if quoted else "—")
                row[name] = quoted.sentence.text if quoted else None
                continue
            chosen.append(picked)
            cells.append(cite(_cell(picked.sentence.text), source.number))
            row[name] = picked.sentence.text
        lines.append(f"| {_heading(source)} | " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        table.append(row)
    lines += ["", f"_{_shared_line(sources, shared)}_"]
    return Composed("\n".join(lines), chosen, table=table)


def _setting(own: Sequence[Evidence], used: Collection[Evidence]) -> Evidence | None:
    """A paper's sentence saying what it was evaluated on, when none has the data role ("Across subcellular
    fluorescence microscopy, Earth observation, ..., META-DINO outperforms ..."), not quoted in another cell: by
    the rule a set's data answers use, so never the sentence setting out the problem."""
    data: tuple[Role, ...] = ("data",)
    return next((e for e in own if e not in used and in_role(e, data)), None)


def _evaluates(picks: Collection[Evidence | None]) -> bool:
    """Whether the row's main result says what the paper was evaluated on."""
    return any(e is not None and e.role == "result" and names_setting(e.sentence.text) for e in picks)


def _sizes_line(sizes: Sequence[StatedSize], sources: Sequence[Source]) -> str:
    """What the abstracts let one say directly about sizes: each one's stated count, and whose is larger.

    A note computed from the quoted sentences above it (which carry the citations), like the shared-terms line.
    """
    label = {s.number: s.paper.label for s in sources}
    stated = "; ".join(f"{label[size.evidence.source]} {size.count:,} {size.counted}" for size in sizes)
    silent = [label[n] for n in label if n not in {size.evidence.source for size in sizes}]
    unstated = f" {_join(silent, 'and')} {'states' if len(silent) == 1 else 'state'} no size." if silent else ""
    ranked = sorted(sizes, key=lambda size: -size.count)
    if ranked[0].count == ranked[1].count:
        return f"Stated sizes: {stated}.{unstated}"
    which = "larger" if len(sizes) == 2 else "largest"
    return (f"Stated sizes: {stated}. The {which} number is {label[ranked[0].evidence.source]}'s "
            f"(they may count different things).{unstated}")


def unranked(sources: Sequence[Source], evidence: Sequence[Evidence]) -> Composed:
    """Asked whether one paper beats another that no compared abstract names: say that none measures them against
    each other, and quote what each reports: its result sentence closest to the question (``evidence``: best
    first), else its closest sentence. ("Does VolumeProbe beat META-DINO on medical imaging?" had quoted how
    VolumeProbe's variants are built, not that it "consistently improves transfer performance".)"""
    quoted = []
    for source in sources:
        own = [e for e in evidence if e.paper_id == source.paper.id]
        quoted += [next((e for e in own if e.role == "result"), own[0])] if own else []
    owner = _owner([s.paper.label for s in sources])
    none = "neither names the other" if len(sources) == 2 else "none names another"
    text = (f"{owner} do not report a head-to-head comparison: {none}, so each one's results are "
            f"against its own baselines only. What each reports, closest to the question:\n\n"
            + "\n".join(_closest_lines(sources, quoted)))
    return Composed(text, quoted, refused=True)


def _closest_lines(sources: Sequence[Source], closest: Sequence[Evidence]) -> list[str]:
    """One bullet per paper quoting its sentences closest to the question."""
    lines = []
    for source in sources:
        own = [e for e in closest if e.paper_id == source.paper.id]
        if own:
            lines.append(f"- {_heading(source)}: " + " ".join(cite(e.sentence.text, source.number) for e in own))
    return lines


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
             sources: Sequence[Source], papers: int, quoting: Sequence[Role] = ()) -> Composed:
    """Topics named by their distinctive terms, each with its papers and one cited contribution sentence, or its
    sentence of the role asked of every paper (``quoting``: its main result, its data), where it has one."""
    by_paper = {s.paper.id: s for s in sources}
    said = f", each with {QUOTED_ROLE[quoting[0]]}" if quoting else ""
    lines = [f"{papers} papers in {len(topics)} topics{said}:"]
    chosen: list[Evidence] = []
    for terms, members, size in topics:
        shown = f"{size} papers" if size == len(members) else f"{size} papers, {len(members)} shown"
        lines += ["", f"**{', '.join(terms)}** ({shown})", ""]
        for pid in members:
            own = [e for e in evidence if e.paper_id == pid]
            picked = next(iter(answering(own, quoting)), None) if quoting else None
            picked = picked or contribution(evidence, by_paper[pid])
            if picked is not None:
                chosen.append(picked)
                lines.append(f"- {_heading(by_paper[pid])}: {cite(picked.sentence.text, picked.source)}")
    return Composed("\n".join(lines), chosen)


# --- the answer for a decided shape ----------------------------------------------------------

def compose(gathered: Gathered, limit: int) -> Composed:
    """The extractive answer for a gathered, decided shape."""
    sources = gathered.sources
    if gathered.kind == "list" and gathered.similar_to:
        return similar_papers(gathered.similar_to, gathered.members, sources)
    if gathered.kind == "list":
        return paper_list(gathered.criterion, gathered.members, gathered.possible, sources, gathered.negated,
                          gathered.matched_total, gathered.within, gathered.among, gathered.lacking,
                          gathered.stating, gathered.quoting)
    if gathered.kind == "compare" and gathered.missing is not None:
        return unranked(sources[: len(gathered.focus)], gathered.evidence)
    if gathered.kind == "compare":
        return comparison(sources[: len(gathered.focus)], gathered.evidence, gathered.shared, gathered.by_relevance,
                          gathered.extra, gathered.sizes)
    if gathered.kind == "summary":
        return summary(sources[0], gathered.evidence)
    if gathered.kind == "overview":
        return overview(gathered.topics, gathered.evidence, sources, gathered.collection_size, gathered.quoting)
    if gathered.missing is not None:
        closest = gathered.evidence[0] if gathered.evidence else None
        return not_stated(gathered.missing, closest, sources)
    chosen = select(gathered.evidence, limit)
    quoted = {(e.paper_id, e.sentence) for e in chosen}
    for e in gathered.extra:  # each clause's best sentence: two clauses may pick the same one, quoted once
        if (e.paper_id, e.sentence) not in quoted:
            quoted.add((e.paper_id, e.sentence))
            chosen.append(e)
    caveats = [note for note, applies in ((WEAK_NOTE, gathered.weak), (REASON_CAVEAT, gathered.premise_check))
               if applies]
    return fact(chosen, sources, "\n\n".join(caveats) or None, gathered.lead)
