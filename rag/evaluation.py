"""``rag eval``: run a question file through the assistant and score what comes back.

One run measures, per question type and overall:

* retrieval recall@k of the gold papers for dense-only, BM25-only and hybrid
  retrieval side by side, so a change to one retriever shows up against the others;
* cited-paper precision / recall / F1 against the gold papers (F1 is the target for
  "which papers..." questions, where both missing and extra papers matter);
* must-keyword hit rate and keyword recall (see :func:`keyword_hit`);
* refusal accuracy on unanswerable questions and the false-refusal rate on answerable ones;
* citation validity (an independent recheck of the final text) and how many invalid
  citations the pipeline had to remove;
* ALCE-style citation recall and precision from the answer's sentence support scores;
* latency p50 / p95 of a full answer.

The metric functions are small and pure so the tests can pin each one on hand-made
cases; :func:`run_eval` does the asking and :func:`format_report` the printing.
The command-line options live in ``rag.cli``, which imports this module only for
``MODES`` while building its parser; so only the standard library is imported at
module level and ``rag --help`` stays instant. This module never imports the CLI.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .assistant import Answer, Assistant
    from .retrieval import Mode

QUESTION_TYPES = ("factual", "paraphrase", "comparative", "aggregate", "unanswerable", "multi_turn",
                  "false_premise")
MODES: tuple[Mode, ...] = ("dense", "bm25", "hybrid")
# The retrieval the answers really use (named and described papers linked, filters, follow-ups), scored beside
# the plain retrievers: its recall@k is over the answer's own first k sources.
ANSWER_PATH = "answer"
OVERALL = "overall"


# --------------------------------------------------------------------------- questions


class QuestionFileError(ValueError):
    """A question file could not be read; names the file and line."""


@dataclass(frozen=True)
class Question:
    """One evaluation question; ``gold_papers`` is empty when the corpus holds no answer.

    The file's ``answer_facts`` are for human or LLM judges and are not read: a
    string match on whole facts would mostly measure phrasing.
    """

    id: str
    type: str
    question: str
    gold_papers: tuple[str, ...] = ()
    must_keywords: tuple[str, ...] = ()
    history: tuple[tuple[str, str], ...] = ()  # (role, content) turns before the question

    @property
    def answerable(self) -> bool:
        return bool(self.gold_papers)

    @property
    def refusal_expected(self) -> bool:
        return not self.answerable

    @property
    def refusal_wrong(self) -> bool:
        """Refusing is plainly wrong: the answer is in the corpus and the premise holds.

        False-premise questions are left out: saying the abstracts don't support the
        premise is the right answer there, and it reads like a refusal.
        """
        return self.answerable and self.type != "false_premise"


def load_questions(path: Path) -> list[Question]:
    """Parse a JSON-lines question file (blank lines skipped)."""
    questions = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise QuestionFileError(f"{path}: {exc.strerror or exc}") from exc
    for number, line in enumerate(lines, 1):
        if line.strip():
            questions.append(_parse_question(line, f"{path}:{number}"))
    return questions


def _parse_question(line: str, where: str) -> Question:
    try:
        record = json.loads(line)
        return Question(
            id=str(record["id"]), type=str(record["type"]), question=str(record["question"]),
            gold_papers=tuple(record.get("gold_papers") or ()),
            must_keywords=tuple(record.get("must_keywords") or ()),
            history=tuple((str(t["role"]), str(t["content"])) for t in record.get("history") or ()),
        )
    except json.JSONDecodeError as exc:
        raise QuestionFileError(f"{where}: not valid JSON ({exc.msg})") from exc
    except (KeyError, TypeError, AttributeError) as exc:
        raise QuestionFileError(f"{where}: a question needs id, type and question; history needs "
                                f"role and content ({exc!r})") from exc


def select_questions(questions: Sequence[Question], types: Collection[str] | None = None,
                     per_type: int | None = None, limit: int | None = None) -> list[Question]:
    """Keep the given types, then the first ``per_type`` of each type, then the first ``limit``.

    ``per_type`` exists for quick stratified slices (the CI test): the first N
    questions of a file are usually all of one type.
    """
    chosen = [q for q in questions if not types or q.type in types]
    if per_type is not None:
        seen: Counter[str] = Counter()
        kept = []
        for q in chosen:
            seen[q.type] += 1
            if seen[q.type] <= per_type:
                kept.append(q)
        chosen = kept
    return chosen[:limit] if limit is not None else chosen


# --------------------------------------------------------------------------- metrics


class SupportLike(Protocol):
    """What the citation metrics need of :class:`rag.citations.SentenceSupport` (read-only)."""

    @property
    def sentence(self) -> str: ...

    @property
    def cited(self) -> list[int]: ...

    @property
    def per_source(self) -> Mapping[int, float]: ...


def recall_at_k(retrieved: Sequence[str], gold: Collection[str]) -> float | None:
    """Share of the gold papers among the retrieved ones; None when there is no gold."""
    if not gold:
        return None
    return len(set(retrieved) & set(gold)) / len(set(gold))


def precision_recall_f1(predicted: Collection[str], gold: Collection[str]) -> tuple[float, float, float] | None:
    """Set precision, recall and F1 of cited papers against gold; None when there is no gold.

    Citing nothing scores 0 on all three (not "undefined"): an answerable question
    answered without a single citation has attributed nothing.
    """
    if not gold:
        return None
    hits = len(set(predicted) & set(gold))
    precision = hits / len(set(predicted)) if predicted else 0.0
    recall = hits / len(set(gold))
    f1 = 2 * precision * recall / (precision + recall) if hits else 0.0
    return precision, recall, f1


def _normalise(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).casefold())


def keyword_hit(text: str, keywords: Sequence[str]) -> bool | None:
    """At least one listed keyword appears in the text (case-insensitive); None without keywords.

    The lists mix true alternatives (``["12,326", "12326"]``) with several required
    facts (``["datme", "sd1.5", "sdxl"]``), and the file does not say which is which.
    So two numbers are reported: this lenient hit (any keyword) and
    :func:`keyword_recall` (share of keywords), which under-rates the alternatives.
    """
    if not keywords:
        return None
    haystack = _normalise(text)
    return any(_normalise(k) in haystack for k in keywords)


def keyword_recall(text: str, keywords: Sequence[str]) -> float | None:
    """Share of the listed keywords present in the text; None without keywords."""
    if not keywords:
        return None
    haystack = _normalise(text)
    return sum(_normalise(k) in haystack for k in keywords) / len(keywords)


# A refusal says the *abstracts/sources* don't answer; "X does not address Y" inside a
# quoted abstract sentence must not count, so the subject is required.
_SUBJECT = r"(?:abstracts?|sources?|corpus|collection|provided (?:text|context|information))"
_TELL = r"(?:answer|state|say|mention|report|specify|provide|give|include|contain|name|list|describe|identify)"
_REFUSAL = re.compile(
    rf"\b{_SUBJECT}\b[^.?!\n]{{0,60}}?\b(?:do(?:es)?\s+not|don['’]t|doesn['’]t|never|cannot|can['’]t)\s+"
    rf"(?:\w+\s+)?{_TELL}"
    rf"|\bnone\s+of\s+the\s+(?:\w+\s+)?{_SUBJECT}\b[^.?!\n]{{0,40}}?\b{_TELL}"
    r"|\bnot\s+(?:stated|mentioned|reported|specified|given|named|listed)\s+in\s+(?:the\s+|any\s+)?"
    rf"{_SUBJECT}"
    r"|\bcannot\s+be\s+answered\b",
    re.IGNORECASE,
)


def is_refusal(text: str, refused: bool = False) -> bool:
    """The assistant declined: its own flag, or the text says the abstracts don't answer.

    An LLM answer that says the abstracts don't state the asked-for fact but then
    cites the closest material still counts: that is the refusal the prompt asks for.
    """
    return refused or bool(_REFUSAL.search(text))


_MARKER = re.compile(r"\[(\d+(?:\s*[,;\-–]\s*\d+)*)\]")


def invalid_citations(text: str, n_sources: int) -> int:
    """Citation numbers in ``text`` outside 1..n_sources, counted per occurrence.

    Deliberately independent of :mod:`rag.citations` (its own regex): a parsing bug
    there would otherwise hide the very markers this recheck is meant to catch. A
    range ``[3-9]`` is checked by its ends.
    """
    numbers = [int(n) for match in _MARKER.finditer(text) for n in re.findall(r"\d+", match.group(1))]
    return sum(not 1 <= n <= n_sources for n in numbers)


def citation_recall(support: Sequence[SupportLike], threshold: float) -> float | None:
    """ALCE citation recall: share of answer sentences backed by what they cite.

    A sentence counts when its best cited source scores at or above ``threshold``;
    a sentence citing nothing (or only numbers with no score) scores 0. None when
    the answer has no claim sentences.
    """
    if not support:
        return None
    backed = sum(max((s.per_source.get(n, 0.0) for n in s.cited), default=0.0) >= threshold for s in support)
    return backed / len(support)


def citation_precision(support: Sequence[SupportLike], threshold: float) -> float | None:
    """ALCE-style citation precision: share of (sentence, citation) pairs where that source backs the sentence.

    ALCE also keeps a citation that is needed jointly with others; our support score
    is per source, so this is the stricter "each citation backs it alone" reading.
    None when the answer cites nothing.
    """
    pairs = [s.per_source.get(n, 0.0) >= threshold for s in support for n in s.cited]
    return sum(pairs) / len(pairs) if pairs else None


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0-100), linearly interpolated between ranks (numpy's default); None if empty."""
    if not values:
        return None
    import numpy as np  # here, not at the top: `rag --help` imports this module for the eval options

    return float(np.percentile(values, q))


def mean(values: Iterable[float | bool | None]) -> float | None:
    """Mean of the applicable values (None = metric does not apply to that question)."""
    present = [float(v) for v in values if v is not None]
    return statistics.fmean(present) if present else None


# --------------------------------------------------------------------------- one question


@dataclass
class QuestionResult:
    """Every metric of one question; None where a metric does not apply to its type."""

    id: str
    type: str
    question: str
    answer: str
    answer_mode: str
    latency: float
    retrieved: dict[str, list[str]]
    recall: dict[str, float | None]
    cited_papers: list[str]
    cited_precision: float | None
    cited_recall: float | None
    cited_f1: float | None
    first_gold: bool | None
    all_gold_cited: bool | None
    keyword_hit: bool | None
    keyword_recall: float | None
    refused: bool
    refusal_correct: bool | None
    false_refusal: bool | None
    invalid_citations: int
    removed_citations: int
    citation_recall: float | None
    citation_precision: float | None


def score_answer(question: Question, answer: Answer, retrieved: Mapping[str, Sequence[str]], latency: float,
                 threshold: float) -> QuestionResult:
    """All metrics of one answered question (``retrieved``: paper ids per retrieval mode)."""
    cited_papers = [s.paper.id for s in answer.sources if s.number in answer.cited]
    prf = precision_recall_f1(cited_papers, question.gold_papers)
    refused = is_refusal(answer.text, answer.refused)
    claims = claim_support(answer.support)
    return QuestionResult(
        id=question.id, type=question.type, question=question.question, answer=answer.text,
        answer_mode=answer.mode, latency=latency,
        retrieved={mode: list(ids) for mode, ids in retrieved.items()},
        recall={mode: recall_at_k(ids, question.gold_papers) for mode, ids in retrieved.items()},
        cited_papers=cited_papers,
        cited_precision=prf[0] if prf else None, cited_recall=prf[1] if prf else None,
        cited_f1=prf[2] if prf else None,
        first_gold=first_cited_is_gold(answer, question.gold_papers),
        all_gold_cited=set(question.gold_papers) <= set(cited_papers) if question.answerable else None,
        keyword_hit=keyword_hit(answer.text, question.must_keywords),
        keyword_recall=keyword_recall(answer.text, question.must_keywords),
        refused=refused,
        refusal_correct=refused if question.refusal_expected else None,
        false_refusal=refused if question.refusal_wrong else None,
        invalid_citations=invalid_citations(answer.text, len(answer.sources)),
        removed_citations=answer.removed_citations,
        citation_recall=citation_recall(claims, threshold),
        citation_precision=citation_precision(claims, threshold),
    )


def first_cited_is_gold(answer: Answer, gold: Sequence[str]) -> bool | None:
    """For a single-paper question: is the paper the answer cites first the gold one? (None otherwise)."""
    if len(gold) != 1:
        return None
    by_number = {s.number: s.paper.id for s in answer.sources}
    first = next((by_number[n] for n in answer.cited if n in by_number), None)
    return first == gold[0]


def claim_support(support: Sequence[SupportLike]) -> list[SupportLike]:
    """The sentences to score for citation support: all but uncited "the abstracts don't say" ones.

    Such a sentence is a statement about the corpus, not a claim from it; scoring it
    as an unsupported claim would punish exactly the refusals we want. The closest
    evidence a refusal goes on to cite is still scored.
    """
    return [s for s in support if s.cited or not is_refusal(s.sentence)]


# --------------------------------------------------------------------------- a run


@dataclass
class Report:
    """The results of one run plus what it was run with."""

    k: int
    modes: tuple[str, ...]
    answering: str
    papers: int
    threshold: float
    rows: list[QuestionResult] = field(default_factory=list)
    seconds: float = 0.0

    def groups(self) -> dict[str, list[QuestionResult]]:
        """Rows per question type (known types in their usual order), then all rows."""
        present = {r.type for r in self.rows}
        order = [t for t in QUESTION_TYPES if t in present] + sorted(present - set(QUESTION_TYPES))
        groups = {t: [r for r in self.rows if r.type == t] for t in order}
        groups[OVERALL] = list(self.rows)
        return groups

    def summary(self) -> dict[str, dict[str, float | int | None]]:
        return {name: summarize(rows, self.modes) for name, rows in self.groups().items()}

    def to_dict(self) -> dict[str, object]:
        return {
            "config": {"k": self.k, "modes": list(self.modes), "answering": self.answering, "papers": self.papers,
                       "support_threshold": self.threshold, "questions": len(self.rows),
                       "seconds": round(self.seconds, 2),
                       "answer_modes": dict(Counter(r.answer_mode for r in self.rows))},
            "summary": self.summary(),
            "questions": [asdict(r) for r in self.rows],
        }


MEAN_METRICS = ("cited_precision", "cited_recall", "cited_f1", "first_gold", "all_gold_cited", "keyword_hit",
                "keyword_recall", "refusal_correct", "false_refusal", "citation_recall", "citation_precision")
SUM_METRICS = ("invalid_citations", "removed_citations")


def summarize(rows: Sequence[QuestionResult], modes: Sequence[str]) -> dict[str, float | int | None]:
    """Means over the questions each metric applies to, totals of counts, latency percentiles."""
    summary: dict[str, float | int | None] = {"n": len(rows)}
    summary.update({f"recall_{mode}": mean(r.recall.get(mode) for r in rows) for mode in modes})
    summary.update({name: mean(getattr(r, name) for r in rows) for name in MEAN_METRICS})
    summary.update({name: sum(getattr(r, name) for r in rows) for name in SUM_METRICS})
    latencies = [r.latency for r in rows]
    summary["latency_p50"] = percentile(latencies, 50)
    summary["latency_p95"] = percentile(latencies, 95)
    return summary


Progress = Callable[[int, int, QuestionResult], None]


def run_eval(assistant: Assistant, questions: Sequence[Question], k: int, modes: Sequence[Mode] = MODES,
             use_llm: bool = True, progress: Progress | None = None) -> Report:
    """Retrieve with every mode, ask for the full answer, and score each question."""
    from .citations import SUPPORT_THRESHOLD

    answering = assistant.stats()["answer_mode"] if use_llm else "extractive (forced)"
    report = Report(k=k, modes=(*modes, ANSWER_PATH), answering=str(answering), papers=len(assistant.papers),
                    threshold=SUPPORT_THRESHOLD)
    started = time.perf_counter()
    for i, question in enumerate(questions, 1):
        asked = time.perf_counter()  # answered first, so its time includes encoding the question
        answer = assistant.ask(question.question, history=_messages(question), top_k=k, use_llm=use_llm).result()
        latency = time.perf_counter() - asked
        query = search_query(assistant, question, use_llm)
        retrieved: dict[str, list[str]] = {
            mode: [s.paper.id for s in assistant.retriever.search(query, k, mode=mode)] for mode in modes
        }
        retrieved[ANSWER_PATH] = [s.paper.id for s in answer.sources][:k]  # what the answer really drew on
        row = score_answer(question, answer, retrieved, latency, SUPPORT_THRESHOLD)
        report.rows.append(row)
        if progress:
            progress(i, len(questions), row)
    report.seconds = time.perf_counter() - started
    return report


def search_query(assistant: Assistant, question: Question, use_llm: bool) -> str:
    """The query the retrievers are scored on: a follow-up as the assistant rewrites it, else the question.

    A follow-up ("where does that information get lost?") names nothing to search
    for; scoring the retrievers on it would measure the missing rewrite, not them.
    """
    if not question.history:
        return question.question
    return assistant.plan(question.question, _messages(question), use_llm).query


def _messages(question: Question) -> list:
    from .generation import Message

    return [Message(role, content) for role, content in question.history]


# --------------------------------------------------------------------------- printing


@dataclass(frozen=True)
class Column:
    key: str
    header: str
    kind: str  # "rate" (0-1, two decimals), "count" or "seconds"


def columns(report: Report) -> tuple[list[Column], list[Column]]:
    """Two column groups, so that each table fits a 100-character terminal."""
    retrieval = [Column(f"recall_{m}", f"R@{report.k} {m}", "rate") for m in report.modes]
    answers = [Column("cited_precision", "cite P", "rate"), Column("cited_recall", "cite R", "rate"),
               Column("cited_f1", "cite F1", "rate"), Column("first_gold", "gold 1st", "rate"),
               Column("all_gold_cited", "all gold", "rate"), Column("keyword_hit", "kw hit", "rate"),
               Column("keyword_recall", "kw recall", "rate")]
    quality = [Column("refusal_correct", "refusal acc", "rate"), Column("false_refusal", "false refusal", "rate"),
               Column("invalid_citations", "invalid cit", "count"),
               Column("removed_citations", "removed cit", "count"),
               Column("citation_recall", "ALCE cit R", "rate"), Column("citation_precision", "ALCE cit P", "rate"),
               Column("latency_p50", "p50 s", "seconds"), Column("latency_p95", "p95 s", "seconds")]
    return retrieval + answers, quality


def _cell(value: float | int | None, kind: str) -> str:
    if value is None:
        return "-"
    return str(int(value)) if kind == "count" else f"{value:.2f}"


def format_table(summary: Mapping[str, Mapping[str, float | int | None]], cols: Sequence[Column]) -> str:
    """An aligned text table: one row per question type, then overall below a rule."""
    header = ["type", "n"] + [c.header for c in cols]
    body = [[name, str(values["n"])] + [_cell(values[c.key], c.kind) for c in cols] for name, values in summary.items()]
    return aligned(header, body[:-1], body[-1:])


def aligned(header: Sequence[str], body: Sequence[Sequence[str]], footer: Sequence[Sequence[str]] = ()) -> str:
    """Text columns: the first left-aligned, the rest right-aligned; rules under the header and above the footer."""
    rows = [header, *body, *footer]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        padded = zip(cells, widths, strict=False)  # a short row leaves its last columns empty
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(padded))

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule, *map(line, body), *([rule] if footer else []), *map(line, footer)])


LEGEND = """\
R@k mode     recall@k of the gold papers for that retriever (answerable questions); "answer" is the
             answer's own first k sources: the path answers really use (names linked, follow-ups, filters)
cite P/R/F1  cited papers vs gold papers (answerable questions; citing nothing scores 0)
gold 1st     single-paper questions whose first cited paper is the gold one
all gold     answerable questions citing every gold paper
kw hit       share of questions with any must-keyword in the answer (lenient: lists mix alternatives)
kw recall    share of all listed must-keywords found in the answer (strict)
refusal acc  unanswerable questions refused;  false refusal: answerable ones refused (false-premise excluded)
invalid cit  [n] in the final text with n outside 1..sources (must be 0);  removed cit: dropped by the filter
ALCE cit R/P sentences whose cited source supports them / citations that support their sentence
             (support score >= {threshold}; "abstracts don't say" sentences not scored)
p50/p95 s    wall time of a full answer"""


def format_report(report: Report) -> str:
    """The human-readable report: a header line, the two tables and a legend."""
    summary = report.summary()
    first, second = columns(report)
    head = (f"{len(report.rows)} questions, {report.papers} papers, k={report.k}, answers: {report.answering}, "
            f"{report.seconds:.1f}s")
    return "\n\n".join([head, format_table(summary, first), format_table(summary, second),
                        LEGEND.format(threshold=report.threshold)])


# --------------------------------------------------------------------------- progress


def print_progress(i: int, total: int, row: QuestionResult) -> None:
    """One line per answered question on stderr, so stdout stays the report."""
    recall = row.recall.get("hybrid")
    shown = f"hybrid R={recall:.2f}" if recall is not None else ("refused" if row.refused else "answered")
    print(f"[{i}/{total}] {row.id} {row.type:<13} {row.latency:6.2f}s  {shown}", file=sys.stderr, flush=True)
