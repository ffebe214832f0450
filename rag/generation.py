"""Written answers from any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp).

Only used when the user configured ``llm_base_url``: there is no implicit
default endpoint and ``OPENAI_API_KEY`` is not read on its own, so no question or
abstract ever leaves the machine unless the user pointed us somewhere. Timeouts
and bounded retries come from the openai client itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from .prompts import render
from .safety import redact, redact_url, url_secrets
from .types import Message, Source

WORDS_PER_TOKEN = 0.75
HISTORY_TURNS = 6  # earlier messages sent along; older ones rarely matter and cost tokens


class GenerationError(RuntimeError):
    """The endpoint failed; the message is fit to show a user (credentials already masked)."""


class IncompleteAnswer(GenerationError):
    """The endpoint started answering but the answer did not finish normally."""


def fallback_notice(exc: GenerationError, partial: bool) -> str:
    """What the user is told when the extractive answer stands in for (or follows) the model's."""
    if partial and isinstance(exc, IncompleteAnswer):
        return f"The model's answer is incomplete: {exc}. An extractive answer follows it."
    return f"The language model failed ({exc}); showing an extractive answer instead."


def _fence(text: str) -> str:
    """Neutralise anything in an abstract that would close our <source> fence."""
    return re.sub(r"</?\s*sources?\b", lambda m: m.group(0).replace("<", "&lt;"), text, flags=re.IGNORECASE)


def format_sources(sources: Sequence[Source]) -> str:
    return "\n".join(
        render("source", number=s.number, paper_id=s.paper.id, label=_fence(s.paper.label).replace('"', "'"),
               text=_fence(s.paper.text))
        for s in sources
    )


def build_messages(question: str, sources: Sequence[Source], history: Sequence[Message],
                   max_tokens: int, kind: str = "fact") -> list[dict[str, str]]:
    """System rules, the recent conversation, then sources, question and the answer shape as one user turn.

    ``kind`` is the shape the evidence decided on (fact, list, compare, summary,
    overview, or similar: the papers like one paper); the model is asked for the same
    structure the extractive answer has.
    """
    messages = [{"role": "system", "content": render("answer_system", max_words=int(max_tokens * WORDS_PER_TOKEN))}]
    messages += [{"role": m.role, "content": m.content} for m in history[-HISTORY_TURNS:]]
    messages.append({"role": "user", "content": render("answer_user", sources=format_sources(sources),
                                                        question=question, shape=render(f"shape_{kind}"))})
    return messages


def rewrite_messages(question: str, history: Sequence[Message]) -> list[dict[str, str]]:
    """Ask the model to turn a follow-up into a standalone search query."""
    conversation = "\n".join(f"{m.role}: {m.content}" for m in history[-HISTORY_TURNS:])
    return [
        {"role": "system", "content": render("rewrite_system")},
        {"role": "user", "content": render("rewrite_user", conversation=conversation, question=question)},
    ]


class LLMWriter:
    """Streams an answer through the official openai client."""

    def __init__(self, base_url: str, api_key: str | None, model: str, timeout: float, max_retries: int) -> None:
        import openai  # only when an endpoint is configured: the import costs about a second

        self.model = model
        self.base_url = base_url
        # The key and the raw URL (which may carry it) are masked in every message we make.
        self._secrets = (api_key, *url_secrets(base_url))
        self._client = openai.OpenAI(
            base_url=base_url,
            api_key=api_key or "not-needed",  # local servers (Ollama, llama.cpp) ignore it
            timeout=timeout,
            max_retries=max_retries,
        )

    def stream(self, messages: list[dict[str, str]], temperature: float, max_tokens: int,
               model: str | None = None) -> Iterator[str]:
        """Yield text deltas; raise GenerationError with the true, redacted reason on failure.

        ``model`` overrides the configured model for this request (another model
        served by the same endpoint). Failures before the first byte and after it
        are told apart: a connection that dropped mid-answer is not "could not
        connect", and an answer without a normal finish is flagged, not shown as done.
        """
        import openai

        try:
            stream = self._client.chat.completions.create(
                # messages are plain role/content dicts; openai's TypedDict union is not inferable from dict[str, str]
                model=model or self.model, messages=messages,  # type: ignore[arg-type]
                temperature=temperature,
                max_tokens=max_tokens, stream=True,
            )
        except openai.APITimeoutError as exc:
            raise GenerationError(f"the model endpoint {self._shown_url} did not answer in time") from exc
        except openai.APIConnectionError as exc:
            raise GenerationError(f"could not connect to the model endpoint {self._shown_url}") from exc
        except openai.APIStatusError as exc:
            raise GenerationError(
                f"the model endpoint answered HTTP {exc.status_code}: {self._clean(exc.message)}") from exc
        except openai.OpenAIError as exc:
            raise GenerationError(f"the model endpoint failed: {self._clean(str(exc))}") from exc
        yield from self._read(stream)

    def _read(self, stream: Iterable) -> Iterator[str]:
        """The deltas of an open stream; raise IncompleteAnswer unless it ends with a normal finish."""
        import openai

        finish: str | None = None
        try:
            for chunk in stream:
                choice = chunk.choices[0] if chunk.choices else None
                if choice is not None and choice.delta and choice.delta.content:
                    yield choice.delta.content
                finish = (choice.finish_reason if choice is not None else None) or finish
        except openai.APITimeoutError as exc:
            raise IncompleteAnswer("the model endpoint stopped sending mid-answer") from exc
        except openai.APIConnectionError as exc:
            raise IncompleteAnswer("the connection dropped mid-answer") from exc
        except ValueError as exc:  # json.JSONDecodeError of a malformed chunk
            raise IncompleteAnswer("the model endpoint sent malformed data mid-answer") from exc
        except openai.OpenAIError as exc:
            raise IncompleteAnswer(f"the model endpoint reported an error mid-answer: {self._clean(str(exc))}") from exc
        if finish == "length":
            raise IncompleteAnswer("the model's answer was cut off at the length limit")
        if finish is None:
            raise IncompleteAnswer("the stream ended before the model finished its answer")

    @property
    def _shown_url(self) -> str:
        return redact_url(self.base_url)

    def _clean(self, text: str) -> str:
        """Endpoint error text fit to show: the configured key and key-like strings masked, shortened."""
        return _short(redact(text, self._secrets))

    def complete(self, messages: list[dict[str, str]], temperature: float, max_tokens: int) -> str:
        """Non-streamed convenience (query rewriting, judging)."""
        return "".join(self.stream(messages, temperature, max_tokens))


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
