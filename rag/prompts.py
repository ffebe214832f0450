"""Prompt templates live as files in ``prompts/`` and are loaded by name.

Templates use ``$name`` placeholders (string.Template), so braces in quoted
abstracts or JSON never break formatting. Rendering checks the variables both
ways, like paper-qa's settings do: a missing value or an unused one is an error
at once, not a silently wrong prompt.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from string import Template

from .config import PROMPTS_DIR


class PromptError(KeyError):
    """A prompt file is missing or was rendered with the wrong variables."""


@cache
def load_prompt(name: str, directory: Path = PROMPTS_DIR) -> Template:
    path = Path(directory) / f"{name}.md"
    if not path.is_file():
        raise PromptError(f"Prompt '{name}' not found at {path}")
    return Template(path.read_text(encoding="utf-8").strip())


def variables(template: Template) -> set[str]:
    """Placeholder names a template uses."""
    return {m.group("named") or m.group("braced") for m in template.pattern.finditer(template.template)
            if m.group("named") or m.group("braced")}


def render(name: str, **values: object) -> str:
    """Fill prompt ``name`` with exactly the variables it declares."""
    template = load_prompt(name)
    expected = variables(template)
    if expected != set(values):
        raise PromptError(
            f"Prompt '{name}' uses {sorted(expected)} but got {sorted(values)}"
        )
    return template.substitute({k: str(v) for k, v in values.items()})
