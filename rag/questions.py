"""Question understanding: what kind of answer a question wants, and which papers it names.

General mechanisms only (no per-question rules):

* **kind**: *aggregate* ("which papers ...", "list all ..."), *compare* (two or
  more papers named or described, or comparison wording), else *fact*;
* **named papers**: paper labels and name-like tokens ("DaTMe", "V33DA",
  "Who&When") found verbatim in at most a few abstracts, and descriptive
  references ("the Video-LLM motion-direction paper") kept as sub-queries;
* **follow-ups**: a question that leans on the conversation ("they", "the
  second one", "that information") is made standalone by carrying over the
  previous turns' question and papers;
* **expected answer**: a number, an enumeration or a superlative, so the
  extractive answer can tell when the abstracts don't state it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from .corpus import Paper
from .generation import Message

Kind = Literal["fact", "compare", "aggregate"]
Expects = Literal["number", "list", "superlative", "reason", "definition", "any"]

MAX_NAME_PAPERS = 3  # a token found in more abstracts than this is a term, not a name

_AGGREGATE = re.compile(
    r"^\s*(?:(?:which|what)\s+(?:other\s+)?(?:papers|works|studies|articles|abstracts)\b"
    r"|(?:list|name|find|show)\s+(?:all|every|the)\s+(?:the\s+)?(?:papers?|works?|stud(?:y|ies))\b"
    r"|(?:are\s+there|do\s+any|does\s+any|how\s+many)\s+(?:other\s+)?(?:papers|works|studies)\b)",
    re.IGNORECASE,
)
_AGGREGATE_LEAD = re.compile(
    r"^\s*(?:(?:which|what)\s+(?:other\s+)?(?:papers|works|studies|articles|abstracts)"
    r"|(?:list|name|find|show)\s+(?:all|every|the)\s+(?:the\s+)?(?:papers?|works?|stud(?:y|ies))"
    r"|(?:are\s+there|do\s+any|does\s+any|how\s+many)\s+(?:other\s+)?(?:papers|works|studies))"
    r"(?:\s+(?:in|of|from)\s+(?:the|this)\s+(?:collection|corpus|set|list))?"
    r"(?:\s+(?:that|which|who))?\s*",
    re.IGNORECASE,
)
_CRITERION_VERB = re.compile(
    r"^(?:(?:are|is)\s+)?(?:(?:mainly|primarily|also)\s+)?(?:study|studies|studied|investigate|involve|involves|use|uses|"
    r"work\s+(?:with|on)|deal\s+with|address|focus\s+on|propose|introduce|describe|are\s+about|is\s+about|about|"
    r"concern|consider|tackle|apply|on|rely\s+on|build\s+on)\b\s*",
    re.IGNORECASE,
)
_COMPARE = re.compile(
    r"\b(?:compare|comparison|differ|difference|different|versus|vs\.?|both|each|whereas|contrast"
    r"|(?:which|who)\b.{0,60}\b(?:more|less|fewer|larger|smaller|higher|lower|better|worse|bigger))\b",
    re.IGNORECASE,
)
_DESCRIBED = re.compile(r"\bthe\s+((?:[\w&+.'-]+\s+){0,6}?[\w&+.'-]+)\s+(?:paper|work|study|abstract)\b", re.IGNORECASE)
_TOKEN = re.compile(r"(?<![\w&+.-])[A-Za-z][\w&+-]*(?:\.\d+[\w-]*)?[\w+]?")
_FOLLOW_UP = re.compile(
    r"\b(?:they|them|their|theirs|it|its|this|that|these|those|he|she|the\s+(?:first|second|third|last|latter|former|"
    r"other|same|one|ones|two|three|paper|method|model|benchmark|dataset|authors)|(?:first|second|third)\s+one|"
    r"the\s+one|which\s+of\s+them|either|neither)\b",
    re.IGNORECASE,
)
_CONTINUATION = re.compile(r"\s*(?:and|also|what\s+about|how\s+about|what\s+else)\b", re.IGNORECASE)
_EXCLUDING = re.compile(r"\bthe\s+one\s+(?:that|which)\s+(?:isn'?t|is\s+not|doesn'?t|does\s+not|wasn'?t)\s+(?:about\s+)?([^,?.;]+)", re.IGNORECASE)
_ORDINAL = {"first": 0, "second": 1, "third": 2, "former": 0, "latter": -1, "last": -1}
_ORDINAL_REF = re.compile(r"\bthe\s+(first|second|third|former|latter|last)\b(?:\s+one)?", re.IGNORECASE)
_NUMBER_WANTED = re.compile(
    r"\b(?:how\s+(?:many|much|large|big|long|fast)|by\s+how|what\s+(?:(?:is|are|was|were)\s+the\s+)?"
    r"(?:percentage|fraction|number|speedup|accuracy|improvement|gain|size|ratio)|how\s+much)\b",
    re.IGNORECASE,
)
_COUNT_LIST = re.compile(
    r"\b(?:which|what|name)\s+(?:are\s+)?(?:the\s+)?(?:names\s+of\s+(?:the\s+)?)?"
    r"(two|three|four|five|six|seven|eight|nine|ten|\d+)\s+((?:[\w-]+\s+){0,2}[\w-]+)",
    re.IGNORECASE,
)
_CLAUSE_BREAK = re.compile(
    r",?\s+and\s+(?=(?:(?:across|in|on|by|from|for|at|to|under|with)\s+)?(?:which|what|how|where|when|why|who)\b)"
    r"|\?\s+(?=\S)",
    re.IGNORECASE,
)
_DEFINITION = re.compile(r"\b(?:stand\s+for|acronym|abbreviation|short\s+for|what\s+(?:is|are)\b(?!\s+the\s+\w+\s+of))",
                         re.IGNORECASE)
_SUPERLATIVE = re.compile(r"\b(?:which|what|who)\b.*\b(?:best|worst|most|least|highest|lowest|strongest|weakest|fastest)\b",
                          re.IGNORECASE)
_ID_TOKEN = re.compile(r"[\w][\w.:/-]*[\w]|\w")
_STOP_AFTER_NOUN = frozenset(
    "does do did is are was were can could has have had will would should and or in on of for to across per "
    "the a an by with from at than".split()
)
_REFERENCE_WORDS = frozenset(
    "first second third fourth last latter former same other above previous next one two three four this that "
    "these those".split()
)


@dataclass
class QuestionPlan:
    """How to retrieve for and compose the answer to one question."""

    question: str
    kind: Kind
    query: str
    criterion: str = ""
    targets: list[str] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)
    carried: list[str] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)
    expects: Expects = "any"
    count: int | None = None
    count_noun: str = ""
    quantity_noun: str = ""
    clauses: list[str] = field(default_factory=list)


def plan_question(question: str, papers: Sequence[Paper], history: Sequence[Message] = ()) -> QuestionPlan:
    """Classify the question, link the papers it names, and make it standalone."""
    kind = classify(question)
    named = link_names(question, papers)
    described = described_parts(question, named, papers)
    carried, query = ([], question) if named else carry_over(question, history, papers)
    count, noun = listed_count(question)
    plan = QuestionPlan(question=question, kind=kind, query=query, targets=named, parts=described,
                        carried=carried, expects=expected_answer(question), count=count, count_noun=noun,
                        quantity_noun=quantity_noun(question),
                        clauses=sub_questions(question))
    if kind == "aggregate":
        plan.criterion = aggregate_criterion(question)
    if kind == "fact" and len(named) + len(described) >= 2 and _COMPARE.search(question):
        plan.kind = "compare"
    return plan


def classify(question: str) -> Kind:
    if _AGGREGATE.search(question):
        return "aggregate"
    return "fact"


def aggregate_criterion(question: str) -> str:
    """The property a paper must have: "Which papers study diffusion models?" -> "diffusion models"."""
    rest = _AGGREGATE_LEAD.sub("", question, count=1).strip(" ?.")
    rest = _CRITERION_VERB.sub("", rest, count=1).strip()
    return rest or question


def criterion_alternatives(criterion: str) -> list[str]:
    """Alternatives a paper may satisfy: "medical or clinical data" -> ["medical", "clinical data"]."""
    parts = re.split(r",?\s+(?:or|including|such\s+as|e\.g\.,?|i\.e\.,?)\s+|\s*\(|\)\s*", criterion)
    return [p.strip(" ,()") for p in parts if p and len(p.strip(" ,()")) > 1]


def name_tokens(text: str) -> list[str]:
    """Coined names: DaTMe, cfDNA, V33DA, Who&When, META-DINO, Qwen2.5-7B.

    Plain acronyms (LLM, GPU, RISE) are left out: they are too often field
    terms; a paper whose label is one is still linked through its label.
    """
    return list(dict.fromkeys(t for t in (m.group(0).rstrip("-") for m in _TOKEN.finditer(text)) if _is_coined(t)))


def _is_coined(token: str) -> bool:
    return bool(
        re.search(r"[a-z][A-Z]", token)
        or "&" in token
        or (re.search(r"[A-Za-z]\d|\d[A-Za-z]", token) and re.search(r"[A-Z]", token))
        or re.fullmatch(r"[A-Z]{2,}(?:-[A-Z0-9]{2,})+", token)
    )


def link_names(question: str, papers: Sequence[Paper]) -> list[str]:
    """Papers the question names, in the order it names them.

    By label (as written) or by a coined name found in few abstracts.
    """
    by_label = {p.id: question.find(p.label) for p in papers if len(p.label) >= 3 and p.label in question
                and re.search(rf"(?<![\w-]){re.escape(p.label)}(?![\w-])", question) and _is_name(p.label)}
    linked = by_label if len(by_label) <= MAX_NAME_PAPERS else {}
    for token in name_tokens(question):
        holders = _papers_containing(token, papers)
        if 0 < len(holders) <= MAX_NAME_PAPERS:
            for pid in holders:
                linked.setdefault(pid, question.find(token))
    return sorted(linked, key=lambda pid: linked[pid])


def _is_name(label: str) -> bool:
    """A label that is a name (CoCHI, Who&When Pro, Token Hypothesis), not a descriptive phrase."""
    words = label.split()
    return len(words) <= 3 and all(w[:1].isupper() or w[:1].isdigit() for w in words)


def _papers_containing(token: str, papers: Sequence[Paper]) -> list[str]:
    pattern = re.compile(rf"(?<![\w-]){re.escape(token)}(?![\w])")
    return [p.id for p in papers if token in p.text and pattern.search(p.text) or token == p.label]


def described_parts(question: str, named: Sequence[str], papers: Sequence[Paper]) -> list[str]:
    """Descriptive references ("the audio-visual LLM trimodal-binding paper") that name no paper."""
    by_id = {p.id: p for p in papers}
    parts = []
    for match in _DESCRIBED.finditer(question):
        phrase = match.group(1).strip()
        if all(w.lower() in _REFERENCE_WORDS for w in phrase.split()):
            continue  # "the paper", "the second paper": a pointer, not a description
        if any(by_id[pid].label.lower() in phrase.lower() for pid in named):
            continue  # "the IndRM causal-parents paper": already linked by name
        parts.append(phrase)
    return parts


def expected_answer(question: str) -> Expects:
    if _NUMBER_WANTED.search(question):
        return "number"
    if _COUNT_LIST.search(question):
        return "list"
    if _SUPERLATIVE.search(question) and not _COMPARE.search(question):
        return "superlative"
    if re.match(r"\s*why\b", question, re.IGNORECASE):
        return "reason"
    if _DEFINITION.search(question):
        return "definition"
    return "any"


def quantity_noun(question: str) -> str:
    """What a "how many/much" question counts: "How many failed trajectories does ..." -> "trajectories"."""
    match = re.search(r"\bhow\s+(?:many|much)\s+((?:[\w-]+\s*){1,3})", question, re.IGNORECASE)
    if not match:
        return ""
    head = ""
    for word in match.group(1).split():
        if word.lower() in _STOP_AFTER_NOUN:
            break
        head = word
    return head


def sub_questions(question: str) -> list[str]:
    """The parts of a multi-part question: "From what ..., and which two signals ...?" -> two parts."""
    parts = [p.strip(" ,?") for p in _CLAUSE_BREAK.split(question)]
    return [p for p in parts if len(p.split()) >= 3] if len(parts) > 1 else []


def listed_count(question: str) -> tuple[int | None, str]:
    """"Which three evaluation regimes ..." -> (3, "evaluation regimes ...")."""
    match = _COUNT_LIST.search(question)
    if not match:
        return None, ""
    word = match.group(1).lower()
    words = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    return (words.index(word) + 2 if word in words else int(word)), match.group(2)


# --- follow-ups ---------------------------------------------------------------------

def needs_context(question: str, history: Sequence[Message]) -> bool:
    """Does the question lean on earlier turns (pronouns, "the second one", "and ...?")?"""
    if not history:
        return False
    return bool(_FOLLOW_UP.search(question) or _CONTINUATION.match(question) or len(question.split()) <= 5)


def carry_over(question: str, history: Sequence[Message], papers: Sequence[Paper]) -> tuple[list[str], str]:
    """Papers of the conversation and a standalone search query (deterministic rewrite).

    The papers are those the last assistant turn cited or named (ids like "p05",
    or labels), else those the last user turn named; the query prefixes the
    previous question so its topic words reach the retriever.
    """
    if not needs_context(question, history):
        return [], question
    last_user = next((m.content for m in reversed(history) if m.role == "user"), "")
    last_answer = next((m.content for m in reversed(history) if m.role == "assistant"), "")
    carried = _papers_in(last_answer, papers) or link_names(last_user, papers)
    labels = " ".join(p.label for p in papers if p.id in carried)
    return carried, f"{last_user} {labels} {question}".strip()


def _papers_in(text: str, papers: Sequence[Paper]) -> list[str]:
    """Paper ids and names mentioned in a previous answer, in order of mention."""
    ids = {p.id for p in papers}
    found: dict[str, int] = {}
    for m in _ID_TOKEN.finditer(text):
        if m.group(0) in ids:
            found.setdefault(m.group(0), m.start())
    for pid in link_names(text, papers):
        found.setdefault(pid, text.find(next(p.label for p in papers if p.id == pid)))
    return sorted(found, key=lambda pid: found[pid])


def narrow_carried(question: str, carried: Sequence[str]) -> list[str]:
    """"the second one" / "the latter" pick one of the carried papers by position."""
    match = _ORDINAL_REF.search(question)
    if match and carried:
        index = _ORDINAL[match.group(1).lower()]
        if -len(carried) <= index < len(carried):
            return [carried[index]]
    return list(carried)


def exclusion_phrase(question: str) -> str | None:
    """"the one that isn't about speeding up generation" -> "speeding up generation"."""
    match = _EXCLUDING.search(question)
    return match.group(1).strip() if match else None
