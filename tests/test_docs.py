"""The README's configuration table is the documentation of :class:`rag.config.Settings`: it must match it.

Field by field: the same names in the same order, the ``RAG_`` env var, and the default
(a literal default must be written in the table; an unset one (None) must be described
in words, never as a value the code does not use).
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import SecretStr

from rag.config import Settings

README = Path(__file__).resolve().parent.parent / "README.md"
ROW = re.compile(r"^\| `(?P<name>\w+)` \| `(?P<env>\w+)` \| (?P<default>[^|]+) \|", re.M)


def _config_rows() -> list[re.Match[str]]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    return list(ROW.finditer(section))


def _same(written: str, default: object) -> bool:
    """Numbers compare by value (the table writes 60 for 60.0), everything else as text."""
    if isinstance(default, int | float) and not isinstance(default, bool):
        try:
            return float(written) == float(default)
        except ValueError:
            return False
    return written == str(default)


def test_readme_table_lists_every_setting_in_order() -> None:
    assert [row["name"] for row in _config_rows()] == list(Settings.model_fields)


def test_readme_table_names_each_env_var() -> None:
    prefix = Settings.model_config.get("env_prefix", "")
    for row in _config_rows():
        assert row["env"] == f"{prefix}{row['name']}".upper(), row["name"]


def test_readme_table_gives_each_default() -> None:
    for row in _config_rows():
        field = Settings.model_fields[row["name"]]
        written = row["default"].strip()
        code_spans = re.findall(r"`([^`]+)`", written)
        if field.default is None or isinstance(field.default, SecretStr):
            assert written == "unset" or not written.startswith("`"), f"{row['name']}: None shown as a value"
        else:
            assert code_spans and _same(code_spans[0], field.default), f"{row['name']}: README {written!r}"
