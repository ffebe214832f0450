"""The offline default answer: the abstracts' own best sentences, each cited.

No instruction-tuned model good enough to write answers ships in a package, so
with no endpoint configured we answer by quotation. Every sentence of the
answer is a sentence of a source abstract, so every citation is supported by
construction; the work is in choosing which sentences, and in refusing when
nothing is close enough.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .chunking import Sentence, split_sentences
from .citations import escape_brackets
from .corpus import Paper
from .embedding import Embedder
from .lexical import TermWeights, content_stems, stem
from .questions import QuestionPlan
from .retrieval import Source

SIMILARITY_SHARE = 0.7  # the rest of a sentence's score is lexical overlap with the question
KEEP_WITHIN = 0.8  # further sentences must score at least this share of the best one
OTHER_PAPER_WITHIN = 0.95  # ... and a sentence from another paper nearly as much as the best
ANSWER_TYPE_WITHIN = 0.6  # a sentence holding the asked-for number/list may be this much less relevant
AGGREGATE_MIN = 0.5  # a paper meets a "which papers" criterion from this sentence score on
AGGREGATE_WITHIN = 0.6  # ... and when it is not far behind the best-matching paper
REFUSAL = "The abstracts in this corpus don't answer this question."
REASON_CAVEAT = ("The abstracts don't explain this in so many words; here is what they state "
                 "(check the question's premise against it):")


@dataclass(frozen=True)
class Evidence:
    """A sentence of a source abstract scored against the question."""

    source: int
    paper_id: str
    sentence: Sentence
    similarity: float
    overlap: float

    @property
    def score(self) -> float:
        return SIMILARITY_SHARE * self.similarity + (1 - SIMILARITY_SHARE) * self.overlap


@dataclass
class ExtractiveAnswer:
    text: str
    evidence: list[Evidence]
    refused: bool


class SentenceBank:
    """Sentences of papers and their embeddings, computed once per paper and kept (LRU).

    Also holds the corpus term weights, so every overlap score weighs rare words up.
    """

    def __init__(self, embedder: Embedder, weights: TermWeights, capacity: int = 2000) -> None:
        self.embedder = embedder
        self.weights = weights
        self.capacity = capacity
        self._lock = threading.Lock()  # one assistant serves every UI session, each in its own thread
        self._cache: OrderedDict[str, tuple[list[Sentence], np.ndarray]] = OrderedDict()

    def vector_of(self, evidence: Evidence) -> np.ndarray:
        """The stored vector of an evidence sentence (its paper must be banked)."""
        with self._lock:
            sentences, vectors = self._cache[evidence.paper_id]
        return vectors[sentences.index(evidence.sentence)]

    def get(self, papers: Sequence[Paper]) -> dict[str, tuple[list[Sentence], np.ndarray]]:
        with self._lock:
            return self._get(papers)

    def _get(self, papers: Sequence[Paper]) -> dict[str, tuple[list[Sentence], np.ndarray]]:
        missing = [p for p in papers if p.id not in self._cache]
        if missing:
            split = {p.id: split_sentences(p.text) for p in missing}
            flat = [s.text for p in missing for s in split[p.id]]
            vectors = self.embedder.embed(flat)
            row = 0
            for paper in missing:
                count = len(split[paper.id])
                self._cache[paper.id] = (split[paper.id], vectors[row : row + count])
                row += count
        out = {}
        for paper in papers:
            self._cache.move_to_end(paper.id)
            out[paper.id] = self._cache[paper.id]
        while len(self._cache) > self.capacity:
            self._cache.popitem(last=False)
        return out


def score_evidence(question: str, question_vector: np.ndarray, sources: Sequence[Source],
                   bank: SentenceBank) -> list[Evidence]:
    """Every sentence of every source, best first."""
    wanted = content_stems(question, compounds=False)
    banked = bank.get([s.paper for s in sources])
    evidence: list[Evidence] = []
    for source in sources:
        sentences, vectors = banked[source.paper.id]
        similarities = vectors @ question_vector if len(sentences) else np.zeros(0)
        for sentence, similarity in zip(sentences, similarities):
            overlap = bank.weights.coverage(wanted, content_stems(sentence.text))
            evidence.append(Evidence(source.number, source.paper.id, sentence, float(similarity), overlap))
    return sorted(evidence, key=lambda e: -e.score)


def select(evidence: Sequence[Evidence], limit: int) -> list[Evidence]:
    """The best sentence and close runners-up, at most ``limit``.

    Other papers only join when their sentence is nearly as good as the best
    one: a fact question usually has one paper behind it.
    """
    if not evidence:
        return []
    best = evidence[0]
    keep = [e for e in evidence if e.score >= KEEP_WITHIN * best.score
            and (e.paper_id == best.paper_id or e.score >= OTHER_PAPER_WITHIN * best.score)]
    return keep[:limit]


def cite_sentence(text: str, number: int) -> str:
    """Put the marker inside the sentence's final punctuation: "... 12,326 trajectories [1]."."""
    text = escape_brackets(text.rstrip())
    if text and text[-1] in ".!?":
        return f"{text[:-1]} [{number}]{text[-1]}"
    return f"{text} [{number}]"


def paper_paragraph(source: Source, sentences: Sequence[Sentence]) -> str:
    """"**Label** (id): sentence [n] sentence [n]", sentences in abstract order."""
    ordered = sorted(sentences, key=lambda s: s.start)
    body = " ".join(cite_sentence(s.text, source.number) for s in ordered)
    return f"**{source.paper.label}** ({source.paper.id}): {body}"


def render(chosen: Sequence[Evidence], sources: Sequence[Source]) -> str:
    """Group sentences by paper, best paper first."""
    by_number = {s.number: s for s in sources}
    return "\n\n".join(
        paper_paragraph(by_number[n], [e.sentence for e in chosen if e.source == n])
        for n in dict.fromkeys(e.source for e in chosen)
    )


# --- does the evidence contain the kind of answer asked for? ---------------------------

_QUANTITY = re.compile(r"\d|\b(?:orders?[- ]of[- ]magnitude|twice|half|double[sd]?|tripled?|\w+fold|percent)\b",
                       re.IGNORECASE)
_COMPARATIVE = re.compile(r"\b(?:best|worst|outperform\w*|highest|lowest|strongest|weakest|exceed\w*|surpass\w*|"
                          r"better|worse|largest|smallest|leading|top-performing|state[- ]of[- ]the[- ]art)\b",
                          re.IGNORECASE)
_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}
_LIST_OPENER = re.compile(r"[:(]|\b(?:namely|including|such as|e\.g\.|i\.e\.)", re.IGNORECASE)
_SEPARATOR = re.compile(r",|;|\band\b|\bwith\b|\bor\b")


def states_expected(plan: QuestionPlan, sentences: Sequence[str]) -> bool:
    """Whether the quoted sentences contain what the question asks for (a number, a list, a winner)."""
    if plan.expects == "number":
        question_numbers = set(re.findall(r"\d[\d.,]*", plan.question))
        counted = content_stems(plan.quantity_noun, compounds=False)  # "how many parameters": a count OF them
        return any(_QUANTITY.search(_without(s, question_numbers)) and (not counted or counted & content_stems(s))
                   for s in sentences)
    if plan.expects == "list" and plan.count:
        return any(_enumerates(s, plan.count, plan.count_noun) for s in sentences)
    if plan.expects == "superlative":
        return any(_COMPARATIVE.search(s) for s in sentences)
    return True


def _without(text: str, numbers: set[str]) -> str:
    for number in numbers:
        text = text.replace(number, " ")
    return text


def _enumerates(sentence: str, count: int, noun: str) -> bool:
    """Does the sentence list ``count`` items? "three regimes: a, b, and c" does;
    "across three benchmarks." announces three but names none; "a temporal
    signal ... with a structural signal" names two signals without the number."""
    mention = re.search(rf"\b(?:{count}|{_NUMBER_WORDS.get(count, str(count))})\b", sentence, re.IGNORECASE)
    if mention:
        rest = sentence[mention.end():]
        opener = _LIST_OPENER.search(rest)
        return bool(opener) and len(_SEPARATOR.findall(rest[opener.end():])) >= count - 1
    words = [stem(w) for w in re.findall(r"[\w-]+", sentence.lower())]
    return any(words.count(stem) >= count for stem in content_stems(noun, compounds=False))


def _not_stated(plan: QuestionPlan) -> str:
    what = {"number": "the figure asked for", "list": "the items asked for",
            "superlative": "which one is best"}.get(plan.expects, "this")
    return f"The abstracts don't state {what}. The closest they come:"


# --- answers per question kind ----------------------------------------------------------

def answer(plan: QuestionPlan, question_vector: np.ndarray, sources: Sequence[Source], bank: SentenceBank,
           limit: int, min_relevance: float, focus: Sequence[str] = ()) -> ExtractiveAnswer:
    """Quote the best-matching sentences, or refuse when none is relevant enough.

    Sentences are scored against the question as asked (a follow-up's standalone
    search query also holds the previous question, which would pull its answer
    back in); ``focus`` holds the papers the question is about (named, described or carried
    over from the conversation); evidence then comes from them first.
    """
    evidence = score_evidence(plan.question, question_vector, sources, bank)
    pointed_at = bool(plan.carried) and any(e.paper_id in focus for e in evidence)  # "tell me more about the second one"
    if not evidence or (max(e.similarity for e in evidence) < min_relevance and not pointed_at):
        return ExtractiveAnswer(REFUSAL, [], refused=True)
    if plan.kind == "compare" and len(focus) >= 2:
        return _compare(evidence, sources, focus)
    focused = [e for e in evidence if e.paper_id in focus] or evidence
    chosen = cover_clauses(plan, select(focused, limit), focused, bank, limit)
    chosen = complete(plan, chosen, focused, sources, limit)
    text = render(chosen, sources)
    if not states_expected(plan, [e.sentence.text for e in chosen]):
        return ExtractiveAnswer(f"{_not_stated(plan)}\n\n{text}", chosen, refused=True)
    if plan.expects == "reason":
        text = f"{REASON_CAVEAT}\n\n{text}"
    return ExtractiveAnswer(text, chosen, refused=False)


def cover_clauses(plan: QuestionPlan, chosen: list[Evidence], ranked: Sequence[Evidence], bank: SentenceBank,
                  limit: int) -> list[Evidence]:
    """Each part of a multi-part question gets its own best sentence from the chosen papers."""
    if not chosen or not plan.clauses:
        return chosen
    papers = {e.paper_id for e in chosen}
    pool = [e for e in ranked if e.paper_id in papers]
    vectors = bank.embedder.embed(plan.clauses)
    for clause, vector in zip(plan.clauses, vectors):
        wanted = content_stems(clause, compounds=False)
        best = max(pool, key=lambda e: SIMILARITY_SHARE * float(bank.vector_of(e) @ vector)
                   + (1 - SIMILARITY_SHARE) * bank.weights.coverage(wanted, content_stems(e.sentence.text)))
        if best not in chosen and len(chosen) < limit + len(plan.clauses) - 1:
            chosen = chosen + [best]
    return chosen


def complete(plan: QuestionPlan, chosen: list[Evidence], ranked: Sequence[Evidence], sources: Sequence[Source],
             limit: int) -> list[Evidence]:
    """Make sure the quote can answer what was asked.

    A question wanting a number or a list gets the best sentence of the chosen
    papers that has one, if it is reasonably relevant; a "why" or "what is"
    question also gets the sentence where the paper introduces its method,
    which is where a wrong premise is usually contradicted.
    """
    if not chosen:
        return chosen
    papers = {e.paper_id for e in chosen}
    extra: Evidence | None = None
    if plan.expects in ("number", "list", "superlative") and not states_expected(plan, [e.sentence.text for e in chosen]):
        floor = ANSWER_TYPE_WITHIN * chosen[0].score
        extra = next((e for e in ranked if e.paper_id in papers and e.score >= floor
                      and states_expected(plan, [e.sentence.text])), None)
    elif plan.expects in ("reason", "definition"):
        label = {s.paper.id: s.paper.label for s in sources}.get(chosen[0].paper_id, "")
        extra = next((e for e in ranked if e.paper_id == chosen[0].paper_id and _introduces(e.sentence.text, label)),
                     None)
    if extra is None or extra in chosen:
        return chosen
    return (chosen if len(chosen) < limit else chosen[:-1]) + [extra]


_INTRODUCES = re.compile(r"\b(?:we|this\s+(?:paper|work))\s+(?:\w+\s+)?(?:propose|introduce|present|call|term|develop)s?\b",
                         re.IGNORECASE)


def _introduces(sentence: str, label: str) -> bool:
    """The sentence where a paper names its contribution ("We propose X (Long Name), ...")."""
    names_it = bool(label) and label.lower() in sentence.lower()
    return names_it and bool(_INTRODUCES.search(sentence) or re.search(rf"{re.escape(label)}\s*\(|\({re.escape(label)}\)",
                                                                      sentence, re.IGNORECASE))


def _compare(evidence: Sequence[Evidence], sources: Sequence[Source], focus: Sequence[str],
             per_paper: int = 2) -> ExtractiveAnswer:
    """One paragraph per compared paper, each with its own best sentences."""
    by_paper = {s.paper.id: s for s in sources}
    chosen: list[Evidence] = []
    for pid in focus:
        chosen += [e for e in evidence if e.paper_id == pid][:per_paper]
    intro = f"Comparing {len(focus)} papers, each in its own words:"
    body = "\n\n".join(paper_paragraph(by_paper[pid], [e.sentence for e in chosen if e.paper_id == pid])
                        for pid in focus)
    return ExtractiveAnswer(f"{intro}\n\n{body}", chosen, refused=False)


@dataclass(frozen=True)
class Match:
    """A paper that meets an aggregate question's criterion, with its best sentence."""

    paper_id: str
    sentence: Sentence
    score: float


def qualifying(alternatives: Sequence[str], papers: Sequence[Paper], bank: SentenceBank) -> list[Match]:
    """Papers meeting any alternative of the criterion, best first.

    A sentence's score for an alternative mixes its embedding similarity with how
    many of the alternative's content words it contains; a paper qualifies when
    its best sentence clears an absolute bar and is not far behind the best paper.
    """
    vectors = bank.embedder.embed(list(alternatives))
    wanted = [content_stems(a, compounds=False) for a in alternatives]
    best: list[Match] = []
    for paper, (sentences, sentence_vectors) in _banked(papers, bank):
        top = _best_sentence(sentences, sentence_vectors, vectors, wanted, bank.weights)
        if top:
            best.append(Match(paper.id, *top))
    if not best:
        return []
    ceiling = max(m.score for m in best)
    return sorted((m for m in best if m.score >= AGGREGATE_MIN and m.score >= AGGREGATE_WITHIN * ceiling),
                  key=lambda m: -m.score)


def _banked(papers: Sequence[Paper], bank: SentenceBank) -> list[tuple[Paper, tuple[list[Sentence], np.ndarray]]]:
    banked = bank.get(papers)
    return [(p, banked[p.id]) for p in papers]


def _best_sentence(sentences: Sequence[Sentence], sentence_vectors: np.ndarray, alt_vectors: np.ndarray,
                   wanted: Sequence[set[str]], weights: TermWeights) -> tuple[Sentence, float] | None:
    if not sentences:
        return None
    similarity = sentence_vectors @ alt_vectors.T  # sentences x alternatives
    best: tuple[Sentence, float] | None = None
    for i, sentence in enumerate(sentences):
        stems = content_stems(sentence.text)
        for j, terms in enumerate(wanted):
            coverage = weights.coverage(terms, stems)
            score = 0.5 * float(similarity[i, j]) + 0.5 * coverage
            if best is None or score > best[1]:
                best = (sentence, score)
    return best


def aggregate_answer(criterion: str, matches: Sequence[Match], sources: Sequence[Source]) -> ExtractiveAnswer:
    """A numbered list of every qualifying paper, one cited sentence each."""
    by_paper = {s.paper.id: s for s in sources}
    listed = [m for m in matches if m.paper_id in by_paper]
    if not listed:
        return ExtractiveAnswer(f"No paper in the corpus clearly matches \"{criterion}\".", [], refused=True)
    noun = "paper matches" if len(listed) == 1 else "papers match"
    lines = [f"{len(listed)} {noun} \"{criterion}\":", ""]
    evidence = []
    for i, match in enumerate(listed, 1):
        source = by_paper[match.paper_id]
        lines.append(f"{i}. **{source.paper.label}** ({source.paper.id}): {cite_sentence(match.sentence.text, source.number)}")
        evidence.append(Evidence(source.number, match.paper_id, match.sentence, match.score, 0.0))
    return ExtractiveAnswer("\n".join(lines), evidence, refused=False)
