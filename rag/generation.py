"""Written answers from any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp).

Only used when the user configured ``llm_base_url``: there is no implicit
default endpoint and ``OPENAI_API_KEY`` is not read on its own, so no question or
abstract ever leaves the machine unless the user pointed us somewhere. Timeouts
and bounded retries come from the openai client itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from .prompts import render
from .types import Message, Source

WORDS_PER_TOKEN = 0.75
HISTORY_TURNS = 6  # earlier messages sent along; older ones rarely matter and cost tokens


class GenerationError(RuntimeError):
    """The endpoint failed; the message is fit to show a user."""


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
    overview); the model is asked for the same structure the extractive answer has.
    """
    messages = [{"role": "system", "content": render("answer_system", max_words=int(max_tokens * WORDS_PER_TOKEN))}]
    messages += [{"role": m.role, "content": m.content} for m in history[-HISTORY_TURNS:]]
    messages.append({"role": "user", "content": render("answer_user", sources=format_sources(sources), question=question,
                                                        shape=render(f"shape_{kind}"))})
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
        self._client = openai.OpenAI(
            base_url=base_url,
            api_key=api_key or "not-needed",  # local servers (Ollama, llama.cpp) ignore it
            timeout=timeout,
            max_retries=max_retries,
        )

    def stream(self, messages: list[dict[str, str]], temperature: float, max_tokens: int,
               model: str | None = None) -> Iterator[str]:
        """Yield text deltas; raise GenerationError with a readable reason on failure.

        ``model`` overrides the configured model for this request (another model
        served by the same endpoint).
        """
        import openai

        try:
            stream = self._client.chat.completions.create(
                model=model or self.model, messages=messages, temperature=temperature,
                max_tokens=max_tokens, stream=True,
            )
            for chunk in stream:
                if chunk.choices and chunk.choices[0].delta and chunk.choices[0].delta.content:
                    yield chunk.choices[0].delta.content
        except openai.APITimeoutError as exc:
            raise GenerationError(f"the model endpoint {self.base_url} did not answer in time") from exc
        except openai.APIConnectionError as exc:
            raise GenerationError(f"could not connect to the model endpoint {self.base_url}") from exc
        except openai.APIStatusError as exc:
            raise GenerationError(f"the model endpoint answered HTTP {exc.status_code}: {_short(exc.message)}") from exc
        except openai.OpenAIError as exc:
            raise GenerationError(f"the model endpoint failed: {_short(str(exc))}") from exc

    def complete(self, messages: list[dict[str, str]], temperature: float, max_tokens: int) -> str:
        """Non-streamed convenience (query rewriting, judging)."""
        return "".join(self.stream(messages, temperature, max_tokens))


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
