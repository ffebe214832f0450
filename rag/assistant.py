"""The one API the CLI and the UI share: open a corpus, ask, get a cited answer.

One question flows: validate -> retrieve sources -> extractive answer, or LLM
answer streamed through the citation filter (falling back to extractive when
the endpoint fails) -> a finished :class:`Answer` with checked citations.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from . import extractive
from .citations import StreamingCitationFilter
from .config import SEED_CORPUS, Settings
from .corpus import Paper, load_corpus
from .embedding import Embedder
from .generation import GenerationError, LLMWriter, Message, build_messages
from .indexing import IngestReport, ingest, remember_corpus, resolve_corpus
from .lexical import LexicalIndex
from .retrieval import Mode, Retriever, Source
from .store import VectorStore

AnswerMode = Literal["extractive", "llm", "fallback"]


class QuestionError(ValueError):
    """The question can't be asked as typed (empty, too long); the message says why."""


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
        self.embedder = embedder
        self.store = store
        self.last_ingest = last_ingest
        self.retriever = Retriever(self.by_id, store, embedder, lexical, settings.candidates,
                                   settings.lexical_weight)
        self.sentences = extractive.SentenceBank(embedder)
        self.writer = (
            LLMWriter(settings.llm_base_url, settings.llm_api_key.get_secret_value() if settings.llm_api_key else None,
                      settings.llm_model, settings.llm_timeout, settings.llm_max_retries)
            if settings.llm_base_url else None
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
        report = ingest(papers, store, embedder, settings.chunk_tokens, settings.chunk_overlap_sentences, progress)
        lexical = LexicalIndex.load_or_build(papers, settings.data_dir)
        return cls(settings, papers, embedder, store, lexical, report)

    # -- asking ------------------------------------------------------------
    def validate(self, question: str) -> str:
        question = (question or "").strip()
        if not question:
            raise QuestionError("Please type a question.")
        if len(question) > self.settings.max_question_chars:
            raise QuestionError(
                f"The question is {len(question):,} characters long; the limit is "
                f"{self.settings.max_question_chars:,} (RAG_MAX_QUESTION_CHARS). Please shorten it."
            )
        return question

    def retrieve(self, question: str, paper_ids: Sequence[str] | None = None, top_k: int | None = None,
                 mode: Mode | None = None) -> list[Source]:
        return self.retriever.search(question, top_k or self.settings.top_k, paper_ids,
                                     mode or self.settings.retriever)

    def ask(self, question: str, history: Sequence[Message] = (), paper_ids: Sequence[str] | None = None,
            top_k: int | None = None, use_llm: bool = True, temperature: float | None = None,
            max_tokens: int | None = None) -> Response:
        """Start answering; sources are retrieved now, the text streams from the Response."""
        question = self.validate(question)
        started = time.perf_counter()
        sources = self.retrieve(question, paper_ids, top_k)
        answer = Answer(question=question, text="", sources=sources, mode="extractive")
        answer.timings["retrieval"] = time.perf_counter() - started
        if self.writer is not None and use_llm:
            answer.mode, answer.model = "llm", self.writer.model
            deltas = self._stream_llm(answer, history, temperature, max_tokens, started)
        else:
            deltas = self._stream_extractive(answer, started)
        return Response(answer, deltas)

    def answer(self, question: str, **kwargs: object) -> Answer:
        """Non-streaming convenience: the finished answer."""
        return self.ask(question, **kwargs).result()  # type: ignore[arg-type]

    def _stream_extractive(self, answer: Answer, started: float) -> Iterator[str]:
        checker = StreamingCitationFilter(len(answer.sources))
        yield from self._extractive_deltas(answer, checker)
        self._finish(answer, checker, started)

    def _extractive_deltas(self, answer: Answer, checker: StreamingCitationFilter) -> Iterator[str]:
        result = extractive.answer(answer.question, self.embedder.embed_query(answer.question), answer.sources,
                                   self.sentences, self.settings.extractive_sentences, self.settings.min_relevance)
        answer.evidence, answer.refused = result.evidence, result.refused
        for paragraph in _paragraphs(result.text):
            yield checker.feed(paragraph)
        yield checker.finish()

    def _stream_llm(self, answer: Answer, history: Sequence[Message], temperature: float | None,
                    max_tokens: int | None, started: float) -> Iterator[str]:
        """Stream the model's answer; on failure keep what came and append the extractive one."""
        assert self.writer is not None
        max_tokens = max_tokens or self.settings.max_answer_tokens
        temperature = self.settings.temperature if temperature is None else temperature
        messages = build_messages(answer.question, answer.sources, history, max_tokens)
        checker = StreamingCitationFilter(len(answer.sources))
        try:
            for delta in self.writer.stream(messages, temperature, max_tokens):
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
            yield from self._extractive_deltas(answer, checker)
        self._finish(answer, checker, started)

    def _finish(self, answer: Answer, checker: StreamingCitationFilter, started: float) -> None:
        answer.text = checker.report.text.strip()
        answer.cited = list(checker.report.cited)
        answer.removed_citations = checker.report.removed
        answer.timings["total"] = time.perf_counter() - started

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


def _paragraphs(text: str) -> Iterator[str]:
    """Split text into paragraph-sized deltas so extractive answers stream too."""
    parts = text.split("\n\n")
    for i, part in enumerate(parts):
        yield part + ("\n\n" if i < len(parts) - 1 else "")
