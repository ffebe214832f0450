"""The one API the CLI and the UI share: open a corpus, ask, get a cited answer.

One question flows: validate -> plan (kind, named papers, standalone query) ->
gather sources -> extractive answer, or LLM answer streamed through the citation
filter (falling back to extractive when the endpoint fails) -> a finished
:class:`Answer` with checked citations and per-sentence support scores.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Literal

from . import extractive
from .citations import SentenceSupport, StreamingCitationFilter, score_support
from .config import SEED_CORPUS, Settings
from .corpus import Paper, load_corpus
from .embedding import Embedder
from .filters import Filters, parse_filters, venue_counts
from .generation import GenerationError, LLMWriter, Message, build_messages, rewrite_messages
from .indexing import IngestReport, ingest, remember_corpus, resolve_corpus
from .lexical import LexicalIndex, TermWeights
from .questions import QuestionPlan, criterion_alternatives, exclusion_phrase, narrow_carried, plan_question
from .retrieval import Mode, Retriever, Source
from .sentence_index import SentenceIndex
from .store import VectorStore

AnswerMode = Literal["extractive", "llm", "fallback"]


MAX_LISTED = 20  # an aggregate answer lists at most this many papers
AGGREGATE_SCAN = 200  # corpora up to this size have every paper scored for "which papers" questions
AGGREGATE_POOL = 60  # larger ones: this many candidates from retrieval on the criterion


class QuestionError(ValueError):
    """The question can't be asked as typed (empty, too long); the message says why."""


@dataclass
class Gathered:
    """Sources for one question, the papers it is about, and aggregate matches."""

    sources: list[Source]
    focus: list[str]
    matches: list[extractive.Match]


@dataclass
class Answer:
    """A finished answer: text with valid citations only, and everything needed to show it."""

    question: str
    text: str
    sources: list[Source]
    mode: AnswerMode
    model: str | None = None
    notice: str | None = None
    refused: bool = False
    cited: list[int] = field(default_factory=list)
    removed_citations: int = 0
    evidence: list[extractive.Evidence] = field(default_factory=list)
    support: list[SentenceSupport] = field(default_factory=list)
    plan: QuestionPlan | None = None
    filters: Filters | None = None
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def cited_sources(self) -> list[Source]:
        by_number = {s.number: s for s in self.sources}
        return [by_number[n] for n in self.cited if n in by_number]

    def to_dict(self) -> dict:
        """JSON-ready form for ``rag ask --json`` and exports."""
        return {
            "question": self.question,
            "answer": self.text,
            "mode": self.mode,
            "model": self.model,
            "notice": self.notice,
            "refused": self.refused,
            "cited": self.cited,
            "removed_citations": self.removed_citations,
            "question_kind": self.plan.kind if self.plan else None,
            "search_query": self.plan.query if self.plan else None,
            "filters": asdict(self.filters) if self.filters else None,
            "unsupported_sentences": [s.sentence for s in self.support if not s.supported],
            "support": [{"sentence": s.sentence, "cited": s.cited, "score": round(s.score, 3)} for s in self.support],
            "sources": [
                {"number": s.number, "paper_id": s.paper.id, "label": s.paper.label, "score": round(s.score, 4),
                 "dense": round(s.dense, 4), "lexical": round(s.lexical, 4), "url": s.paper.url,
                 "matched_terms": s.matched_terms, "text": s.paper.text}
                for s in self.sources
            ],
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
        }


class Response:
    """A streaming answer: iterate for text deltas; ``answer`` is complete afterwards.

    Sources are known before the first token, so a UI can show them (or a status)
    while the answer streams.
    """

    def __init__(self, answer: Answer, deltas: Iterator[str]) -> None:
        self.answer = answer
        self._deltas = deltas
        self._done = False

    @property
    def sources(self) -> list[Source]:
        return self.answer.sources

    def __iter__(self) -> Iterator[str]:
        if self._done:
            return
        yield from self._deltas
        self._done = True

    def result(self) -> Answer:
        """Consume the stream (if not yet done) and return the finished answer."""
        for _ in self:
            pass
        return self.answer


class Assistant:
    """A corpus indexed and ready for questions."""

    def __init__(self, settings: Settings, papers: list[Paper], embedder: Embedder, store: VectorStore,
                 lexical: LexicalIndex, last_ingest: IngestReport | None = None) -> None:
        self.settings = settings
        self.papers = papers
        self.by_id = {p.id: p for p in papers}
        self.venues = venue_counts(papers)
        self.embedder = embedder
        self.store = store
        self.last_ingest = last_ingest
        self.sentences = extractive.SentenceBank(embedder, TermWeights(lexical))
        self.sentence_index = SentenceIndex(settings.data_dir, embedder, self.by_id)
        self.retriever = Retriever(self.by_id, store, embedder, lexical, settings.candidates,
                                   settings.lexical_weight, settings.rerank, self.sentence_index.max_sim,
                                   settings.sentence_weight)
        self.writer = (
            LLMWriter(settings.llm_base_url, settings.llm_api_key.get_secret_value() if settings.llm_api_key else None,
                      settings.llm_model, settings.llm_timeout, settings.llm_max_retries)
            if settings.llm_configured else None
        )

    @classmethod
    def open(cls, settings: Settings | None = None, progress: bool = True) -> Assistant:
        """Load the corpus, bring the index up to date (embedding only what changed), and return."""
        settings = settings or Settings()
        corpus = resolve_corpus(settings.corpus, settings.data_dir, SEED_CORPUS)
        papers = load_corpus(corpus)
        embedder = Embedder(settings.model_path, settings.embedding_batch_size, settings.model_name)
        store = VectorStore.open(settings.data_dir, settings.collection, settings.chroma_host, settings.chroma_port)
        # Remembered before embedding starts: an interrupted ingest resumes on the next run.
        remember_corpus(settings.data_dir, corpus)
        report = ingest(papers, store, embedder, settings.chunk_tokens, settings.chunk_overlap_sentences, progress,
                        settings.data_dir)
        lexical = LexicalIndex.load_or_build(papers, settings.data_dir)
        return cls(settings, papers, embedder, store, lexical, report)

    # -- asking ------------------------------------------------------------
    def validate(self, question: str) -> str:
        return validate_question(question, self.settings.max_question_chars)

    def retrieve(self, question: str, paper_ids: Sequence[str] | None = None, top_k: int | None = None,
                 mode: Mode | None = None, filters: Filters | None = None) -> list[Source]:
        """Plain retrieval for a query, without question understanding (tests, diagnostics)."""
        return self.retriever.search(question, top_k or self.settings.top_k, paper_ids,
                                     mode or self.settings.retriever, filters)

    def ask(self, question: str, history: Sequence[Message] = (), paper_ids: Sequence[str] | None = None,
            top_k: int | None = None, use_llm: bool = True, temperature: float | None = None,
            max_tokens: int | None = None, model: str | None = None, filters: Filters | None = None) -> Response:
        """Start answering; sources are retrieved now, the text streams from the Response.

        ``model`` asks the configured endpoint for another model than ``llm_model``.
        ``filters`` (venue, year; from the UI or CLI) narrow whatever the question itself states.
        """
        question = self.validate(question)
        started = time.perf_counter()
        use_llm = self.writer is not None and use_llm
        stated, unfiltered = parse_filters(question, self.venues)
        plan = self.plan(unfiltered if stated else question, history, use_llm)
        filters = stated.narrowed(filters)
        gathered = self.gather(plan, paper_ids, top_k or self.settings.top_k, filters)
        answer = Answer(question=question, text="", sources=gathered.sources, mode="extractive", plan=plan,
                        filters=filters or None)
        answer.timings["retrieval"] = time.perf_counter() - started
        if use_llm:
            answer.mode, answer.model = "llm", (model or "").strip() or self.writer.model
            deltas = self._stream_llm(answer, gathered, history, temperature, max_tokens, started)
        else:
            deltas = self._stream_extractive(answer, gathered, started)
        return Response(answer, deltas)

    def answer(self, question: str, **kwargs: object) -> Answer:
        """Non-streaming convenience: the finished answer."""
        return self.ask(question, **kwargs).result()  # type: ignore[arg-type]

    # -- understanding and retrieval -------------------------------------------------
    def plan(self, question: str, history: Sequence[Message] = (), use_llm: bool = False) -> QuestionPlan:
        """Classify the question and make it standalone (with the LLM when one is configured)."""
        plan = plan_question(question, self.papers, history)
        if use_llm and plan.carried and self.writer is not None:
            plan.query = self._rewrite_with_llm(question, history) or plan.query
        return plan

    def _rewrite_with_llm(self, question: str, history: Sequence[Message]) -> str | None:
        try:
            rewritten = self.writer.complete(rewrite_messages(question, history), temperature=0.0, max_tokens=120)
        except GenerationError:
            return None  # the deterministic rewrite stands
        rewritten = rewritten.strip().strip('"')
        return rewritten if 0 < len(rewritten) <= self.settings.max_question_chars else None

    def gather(self, plan: QuestionPlan, paper_ids: Sequence[str] | None, k: int,
               filters: Filters | None = None) -> Gathered:
        """Sources for a plan: the papers it is about first, then the best of the rest."""
        mode = self.settings.retriever
        matches: list[extractive.Match] = []
        if plan.kind == "aggregate":
            matches = self._aggregate_matches(plan, paper_ids, filters)
            focus = [m.paper_id for m in matches][:MAX_LISTED]
            k = max(k, len(focus))
        else:
            focus = self._focus(plan, paper_ids, filters)
        ranked = self.retriever.rank(plan.query, paper_ids=paper_ids, mode=mode, filters=filters)
        missing = [pid for pid in focus if pid not in {s.paper_id for s in ranked}]
        if missing:
            ranked += self.retriever.rank(plan.query, paper_ids=missing, mode="dense")
        by_id = {s.paper_id: s for s in ranked}
        ordered = [by_id[pid] for pid in focus if pid in by_id] + [s for s in ranked if s.paper_id not in focus]
        sources = [self.retriever.to_source(i + 1, s, plan.query) for i, s in enumerate(ordered[:max(k, len(focus))])]
        return Gathered(sources, [pid for pid in focus if pid in by_id], matches)

    def _focus(self, plan: QuestionPlan, paper_ids: Sequence[str] | None,
               filters: Filters | None = None) -> list[str]:
        """Papers the question is about: named, described ("the X paper") or carried over."""
        focus = list(plan.targets)
        for part in plan.parts:
            best = self.retriever.rank(part, paper_ids=paper_ids, filters=filters)[:1]
            focus += [s.paper_id for s in best if s.paper_id not in focus]
        if not focus and plan.carried:
            focus = narrow_carried(plan.question, plan.carried)
            excluded = exclusion_phrase(plan.question)
            if excluded and len(focus) > 1:
                closest = self.retriever.rank(excluded, paper_ids=focus, mode="dense")[:1]
                focus = [pid for pid in focus if pid not in {s.paper_id for s in closest}]
        if paper_ids:
            focus = [pid for pid in focus if pid in paper_ids]
        return focus

    def _aggregate_matches(self, plan: QuestionPlan, paper_ids: Sequence[str] | None,
                           filters: Filters | None = None) -> list[extractive.Match]:
        """Score every paper of a small (or filtered-down) corpus, or a wide candidate pool of a large one."""
        pool = [self.by_id[pid] for pid in (paper_ids or [])] or self.papers
        if filters:
            pool = [p for p in pool if filters.matches(p)]
        if len(pool) > AGGREGATE_SCAN:
            ranked = self.retriever.rank(plan.criterion, paper_ids=paper_ids, pool=AGGREGATE_POOL, filters=filters)
            pool = [self.by_id[s.paper_id] for s in ranked[:AGGREGATE_POOL]]
        return extractive.qualifying(criterion_alternatives(plan.criterion), pool, self.sentences)

    # -- composing -----------------------------------------------------------------------
    def _stream_extractive(self, answer: Answer, gathered: Gathered, started: float) -> Iterator[str]:
        checker = StreamingCitationFilter(len(answer.sources))
        yield from self._extractive_deltas(answer, gathered, checker)
        self._finish(answer, checker, started)

    def _extractive_deltas(self, answer: Answer, gathered: Gathered,
                           checker: StreamingCitationFilter) -> Iterator[str]:
        plan = answer.plan
        if plan.kind == "aggregate":
            result = extractive.aggregate_answer(plan.criterion, gathered.matches, answer.sources)
        else:
            result = extractive.answer(plan, self.embedder.embed_query(plan.question), answer.sources, self.sentences,
                                       self.settings.extractive_sentences, self.settings.min_relevance,
                                       gathered.focus)
        answer.evidence, answer.refused = result.evidence, result.refused
        for paragraph in _paragraphs(result.text):
            yield checker.feed(paragraph)
        yield checker.finish()

    def _stream_llm(self, answer: Answer, gathered: Gathered, history: Sequence[Message],
                    temperature: float | None, max_tokens: int | None, started: float) -> Iterator[str]:
        """Stream the model's answer; on failure keep what came and append the extractive one."""
        assert self.writer is not None
        max_tokens = max_tokens or self.settings.max_answer_tokens
        temperature = self.settings.temperature if temperature is None else temperature
        messages = build_messages(answer.question, answer.sources, history, max_tokens)
        checker = StreamingCitationFilter(len(answer.sources))
        try:
            for delta in self.writer.stream(messages, temperature, max_tokens, answer.model):
                answer.timings.setdefault("first_token", time.perf_counter() - started)
                yield checker.feed(delta)
            yield checker.finish()
            if not checker.report.text.strip():
                raise GenerationError("the model returned an empty answer")
        except GenerationError as exc:
            yield checker.finish()
            answer.mode = "fallback"
            answer.notice = f"The language model failed ({exc}); showing an extractive answer instead."
            if checker.report.text.strip():
                yield checker.feed("\n\n---\n\n")
            yield from self._extractive_deltas(answer, gathered, checker)
        self._finish(answer, checker, started)

    def _finish(self, answer: Answer, checker: StreamingCitationFilter, started: float) -> None:
        answer.text = checker.report.text.strip()
        answer.cited = list(checker.report.cited)
        answer.removed_citations = checker.report.removed
        answer.support = self.support(answer.text, answer.sources)
        answer.timings["total"] = time.perf_counter() - started

    def support(self, text: str, sources: Sequence[Source]) -> list[SentenceSupport]:
        """Offline support score of every answer sentence against the sources it cites."""
        banked = self.sentences.get([s.paper for s in sources])
        by_number = {s.number: ([x.text for x in banked[s.paper.id][0]], banked[s.paper.id][1]) for s in sources}
        return score_support(text, by_number, self.embedder.embed, self.sentences.weights.coverage)

    def warm_up(self, sentence_papers: int = 200) -> None:
        """Pay first-use costs now (a server's loading screen), not on the first question.

        The first query runs the model cold, and extractive answers embed each
        source's sentences on first use; a small corpus has them all embedded now.
        """
        self.embedder.embed_query("warm-up")
        if len(self.papers) <= sentence_papers:
            self.sentences.get(self.papers)

    # -- corpus info -----------------------------------------------------------
    def stats(self) -> dict[str, object]:
        return {
            "papers": len(self.papers),
            "chunks": self.store.count(),
            "embedding_model": self.embedder.name,
            "store": self.store.location,
            "answer_mode": f"LLM {self.writer.model} at {self.writer.base_url}" if self.writer
            else "extractive (no model configured)",
        }


def validate_question(question: str, max_chars: int) -> str:
    """The question, stripped, or a QuestionError that tells the user what to fix."""
    question = (question or "").strip()
    if not question:
        raise QuestionError("Please type a question.")
    if len(question) > max_chars:
        raise QuestionError(
            f"The question is {len(question):,} characters long; the limit is {max_chars:,} "
            "(RAG_MAX_QUESTION_CHARS). Please shorten it."
        )
    return question


def _paragraphs(text: str) -> Iterator[str]:
    """Split text into paragraph-sized deltas so extractive answers stream too."""
    parts = text.split("\n\n")
    for i, part in enumerate(parts):
        yield part + ("\n\n" if i < len(parts) - 1 else "")
