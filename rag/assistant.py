"""The one API the CLI and the UI share: open a corpus, ask, get a cited answer.

One question flows: validate -> plan (kind, named papers, standalone query) ->
gather sources -> extractive answer, or LLM answer streamed through the citation
filter (falling back to extractive when the endpoint fails) -> a finished
:class:`Answer` with checked citations and per-sentence support scores.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from . import extractive
from .catalog import CORPUS_CHANGED, corpus_changed, save_papers, stored_papers, writer_lock
from .citations import SentenceSupport, StreamingCitationFilter, score_support
from .config import SEED_CORPUS, Settings
from .corpus import Paper, load_corpus
from .display import answering
from .embedding import Embedder
from .evidence import Acronyms, EvidenceScorer, SentenceBank
from .filters import Filters, parse_filters, venue_counts
from .gather import Gathered, Gatherer
from .generation import GenerationError, LLMWriter, build_messages, fallback_notice, rewrite_messages
from .indexing import IngestReport, cap_abstracts, ingest, remember_corpus, resolve_corpus
from .lexical import LexicalIndex, TermWeights
from .questions import NameIndex, QuestionPlan, plan_question
from .retrieval import Mode, Retriever
from .safety import redact_url, strip_control
from .sentence_index import SentenceIndex
from .store import VectorStore
from .topics import TopicMap
from .types import Evidence, Message, Source
from .word_vectors import WordVectors

AnswerMode = Literal["extractive", "llm", "fallback"]
WARM_UP_QUESTION = "What problem is studied, and which method and results are reported?"  # any fact question


class QuestionError(ValueError):
    """The question can't be asked as typed (empty, too long); the message says why."""


@dataclass
class MoreMatch:
    """A paper that matches a "which papers" criterion but ranks past the listed ones, with its best sentence."""

    paper_id: str
    label: str
    sentence: str
    score: float


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
    kind: str = "fact"
    evidence: list[Evidence] = field(default_factory=list)
    table: list[dict[str, object]] = field(default_factory=list)
    more: list[MoreMatch] = field(default_factory=list)  # a long list's matches past the shown ones, ranked
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
            "question_kind": self.kind,
            "followup": bool(self.plan and self.plan.followup),
            "table": self.table,
            "more_matches": [asdict(m) for m in self.more],
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
        # built once: naming a paper must not scan 50k abstracts per question (the tokenizer's words: rag.questions)
        self.names = NameIndex(papers, embedder.whole_words())
        self.venues = venue_counts(papers)
        self.embedder = embedder
        self.store = store
        self.last_ingest = last_ingest
        self.sentence_index = SentenceIndex(settings.data_dir, embedder, self.by_id)
        self.word_vectors = WordVectors(settings.data_dir, embedder)
        self.bank = SentenceBank(embedder, TermWeights(lexical), Acronyms(papers), self.sentence_index.get,
                                 related_words=self.word_vectors.related)
        self.retriever = Retriever(self.by_id, store, embedder, lexical, settings.candidates,
                                   settings.lexical_weight, settings.rerank, self.sentence_index.max_sim,
                                   settings.sentence_weight)
        self.gatherer = Gatherer(self.by_id, self.retriever, EvidenceScorer(self.bank), embedder,
                                 store.paper_vectors, settings.retriever, settings.min_relevance)
        self.writer = (
            LLMWriter(settings.llm_base_url, settings.llm_api_key.get_secret_value() if settings.llm_api_key else None,
                      settings.llm_model, settings.llm_timeout, settings.llm_max_retries)
            if settings.llm_configured and settings.llm_base_url is not None else None
        )

    # Warnings about the index this assistant reads (corpus changed, abstracts cut), for the CLI and UI.
    notices: tuple[str, ...] = ()

    @classmethod
    def open(cls, settings: Settings | None = None, progress: bool = True, update: bool = False) -> Assistant:
        """Open the index read-only; build it first only if ``update`` or there is none yet.

        Reading commands must not rewrite the index from whatever the corpus files
        say now (a moved file broke them, an edited one silently deleted papers):
        they read the paper records the last ingest stored and only warn when the
        files changed. Building takes the data dir's writer lock.
        """
        settings = settings or Settings()
        corpus = resolve_corpus(settings.corpus, settings.data_dir, SEED_CORPUS)
        embedder = Embedder(settings.model_path, settings.embedding_batch_size, settings.model_name)
        store = VectorStore.open(settings.data_dir, settings.collection, settings.chroma_host, settings.chroma_port,
                                 settings.search_ef)
        papers = None if update else _indexed_papers(settings, store)
        report: IngestReport | None = None
        notices: list[str] = []
        if papers is None:
            with writer_lock(settings.data_dir):
                papers = None if update else _indexed_papers(settings, store)  # built while we waited?
                if papers is None:
                    papers, notices, report = _build(settings, corpus, embedder, store, progress)
        elif corpus_changed(settings.data_dir, corpus):
            notices.append(CORPUS_CHANGED)
        lexical = LexicalIndex.load_or_build(papers, settings.data_dir)
        assistant = cls(settings, papers, embedder, store, lexical, report)
        assistant.notices = tuple(notices)
        return assistant

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
        """Start answering; sources are gathered now, the text streams from the Response.

        ``model`` asks the configured endpoint for another model than ``llm_model``.
        ``filters`` (venue, year; from the UI or CLI) narrow whatever the question itself states.
        """
        question = self.validate(question)
        started = time.perf_counter()
        use_llm = self.writer is not None and use_llm
        stated, unfiltered = parse_filters(question, self.venues)
        plan = self.plan(unfiltered if stated else question, history, use_llm)
        filters = stated.narrowed(filters)
        gathered = self.gatherer.gather(plan, history, paper_ids, top_k or self.settings.top_k, filters or None)
        answer = Answer(question=question, text="", sources=gathered.sources, mode="extractive", plan=plan,
                        kind=gathered.kind, filters=filters or None, notice=gathered.unmatched or None,
                        more=[MoreMatch(m.paper_id, self.by_id[m.paper_id].label, m.sentence.text, round(m.score, 4))
                              for m in gathered.more])
        answer.timings["retrieval"] = time.perf_counter() - started
        if use_llm and self.writer is not None:
            answer.mode, answer.model = "llm", (model or "").strip() or self.writer.model
            deltas = self._stream_llm(answer, gathered, history, temperature, max_tokens, started)
        else:
            deltas = self._stream_extractive(answer, gathered, started)
        return Response(answer, deltas)

    def answer(self, question: str, **kwargs: object) -> Answer:
        """Non-streaming convenience: the finished answer."""
        return self.ask(question, **kwargs).result()  # type: ignore[arg-type]

    def plan(self, question: str, history: Sequence[Message] = (), use_llm: bool = False) -> QuestionPlan:
        """Read the question (with the LLM rewriting a follow-up's search query when one is configured)."""
        plan = plan_question(question, self.names, history, self.bank.acronyms)
        if use_llm and plan.carried and self.writer is not None:
            plan.query = self._rewrite_with_llm(question, history) or plan.query
        return plan

    def _rewrite_with_llm(self, question: str, history: Sequence[Message]) -> str | None:
        assert self.writer is not None
        try:
            rewritten = self.writer.complete(rewrite_messages(question, history), temperature=0.0, max_tokens=120)
        except GenerationError:
            return None  # the deterministic rewrite stands
        rewritten = rewritten.strip().strip('"')
        return rewritten if 0 < len(rewritten) <= self.settings.max_question_chars else None

    # -- composing -----------------------------------------------------------------------
    def _stream_extractive(self, answer: Answer, gathered: Gathered, started: float) -> Iterator[str]:
        checker = StreamingCitationFilter(len(answer.sources))
        yield from self._extractive_deltas(answer, gathered, checker)
        self._finish(answer, checker, started)

    def _extractive_deltas(self, answer: Answer, gathered: Gathered,
                           checker: StreamingCitationFilter) -> Iterator[str]:
        composed = extractive.compose(gathered, self.settings.extractive_sentences)
        answer.evidence, answer.refused, answer.table = composed.evidence, composed.refused, composed.table
        for piece in _sentences(composed.text):
            yield checker.feed(piece)
        yield checker.finish()

    def _stream_llm(self, answer: Answer, gathered: Gathered, history: Sequence[Message],
                    temperature: float | None, max_tokens: int | None, started: float) -> Iterator[str]:
        """Stream the model's answer; on failure keep what came and append the extractive one."""
        assert self.writer is not None
        max_tokens = max_tokens or self.settings.max_answer_tokens
        temperature = self.settings.temperature if temperature is None else temperature
        shape = "similar" if gathered.similar_to else gathered.kind  # (papers like one paper: a list of a kind)
        messages = build_messages(answer.question, answer.sources, history, max_tokens, shape)
        answer.evidence = gathered.evidence[: self.settings.extractive_sentences]
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
            failed = fallback_notice(exc, partial=bool(checker.report.text.strip()))
            answer.notice = f"{answer.notice} {failed}" if answer.notice else failed
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
        banked = self.bank.get([s.paper for s in sources])
        by_number = {s.number: ([x.text for x in banked[s.paper.id].sentences], banked[s.paper.id].vectors)
                     for s in sources}
        return score_support(text, by_number, self.embedder.embed, self.bank.weights.coverage)

    def warm_up(self, sentence_papers: int = 200) -> None:
        """Pay first-use costs now (a server's loading screen), not on the first question.

        The first query runs the model cold, and extractive answers embed each
        source's sentences on first use; a small corpus has them all embedded now.
        One throwaway answer pays the answer path's own first use (pattern compiles,
        memory maps, the encoder's first call): 0.2 s of the first answer at 50k papers.
        """
        self.sentence_index.load()  # the stored rows' logs: ~1 s each at 50k papers, paid by the first answer else
        self.word_vectors.load()
        self.bank.acronyms.load()  # ~0.7 s at 50k papers, else paid by the first list answer
        if len(self.papers) <= sentence_papers:
            self.bank.get(self.papers)
        if self.papers:
            self.answer(WARM_UP_QUESTION, use_llm=False)

    def topics(self) -> TopicMap:
        """The collection's topics (the Topics page and overview answers share them)."""
        return self.gatherer.topics()

    # -- corpus info -----------------------------------------------------------
    def stats(self) -> dict[str, object]:
        return {
            "papers": len(self.papers),
            "chunks": self.store.count(),
            "embedding_model": self.embedder.name,
            "store": self.store.location,
            "answer_mode": answering(self.writer.model, redact_url(self.writer.base_url)) if self.writer
            else answering(None, None),
        }


def validate_question(question: str, max_chars: int) -> str:
    """The question, stripped, or a QuestionError that tells the user what to fix."""
    # Terminal escapes and control characters are never part of a question; what is left
    # must have a letter or digit (punctuation alone asks nothing, and "\0\0\0" once got answered).
    question = strip_control(question or "").strip()
    if not any(ch.isalnum() for ch in question):
        raise QuestionError("Please type a question.")
    if len(question) > max_chars:
        raise QuestionError(
            f"The question is {len(question):,} characters long; the limit is {max_chars:,} "
            "(RAG_MAX_QUESTION_CHARS). Please shorten it."
        )
    return question


def _sentences(text: str) -> Iterator[str]:
    """Split text into sentence-sized deltas so extractive answers stream like model answers."""
    pieces = re.split(r"(?<=[.!?:])(\s+)", text)
    for i in range(0, len(pieces), 2):
        yield pieces[i] + (pieces[i + 1] if i + 1 < len(pieces) else "")


def _indexed_papers(settings: Settings, store: VectorStore) -> list[Paper] | None:
    """The stored records if the index is complete, else None (never built, or the store was emptied)."""
    papers = stored_papers(settings.data_dir)
    if papers is None or (papers and store.count() == 0):
        return None
    return papers


def _build(settings: Settings, corpus: list[Path], embedder: Embedder, store: VectorStore,
           progress: bool) -> tuple[list[Paper], list[str], IngestReport]:
    """Sync the store with the corpus files and store their records (caller holds the writer lock)."""
    papers, notices = cap_abstracts(load_corpus(corpus), settings.max_abstract_chars)
    # Remembered before embedding starts: an interrupted ingest resumes on the next run.
    remember_corpus(settings.data_dir, corpus)
    report = ingest(papers, store, embedder, settings.chunk_tokens, settings.chunk_overlap_sentences, progress,
                    settings.data_dir)
    save_papers(settings.data_dir, papers, corpus)
    LexicalIndex.load_or_build(papers, settings.data_dir)
    LexicalIndex.remove_stale(settings.data_dir, papers)
    return papers, notices, report
