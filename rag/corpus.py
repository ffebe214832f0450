"""Papers: parsing the shipped seed file and users' own corpora.

(Being written: see the brief. Public API below is fixed.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


class CorpusError(ValueError):
    """A corpus file could not be read; names the file and (when known) the line."""

    def __init__(self, path: Path | str, message: str, line: int | None = None) -> None:
        self.path = Path(path)
        self.line = line
        where = f"{self.path}:{line}" if line is not None else str(self.path)
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Paper:
    """One abstract with a stable id and a short human label."""

    id: str
    label: str
    text: str
    title: str | None = None
    url: str | None = None
    links: tuple[str, ...] = ()
    meta: dict[str, str | int | float] = field(default_factory=dict, hash=False, compare=False)
    content_hash: str = ""
