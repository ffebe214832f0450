"""The package's import map, built from the source with ``ast``: no cycle, and no arrow pointing up.

The answer path moves down the layers once (plan -> retrieve -> evidence -> compose
-> check); a module may import only modules on its own layer or below. Imports inside
functions count too: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGES = {"rag": Path(__file__).resolve().parent.parent / "rag", "ui": Path(__file__).resolve().parent.parent / "ui"}

# Lowest first. A module not listed here fails the test, so every new module gets a place.
LAYERS: list[set[str]] = [
    {"rag", "rag.safety", "rag.roles", "rag.chunking", "rag.corpus", "rag.generic_terms", "rag.display"},
    {"rag.types", "rag.config", "rag.filters", "rag.paper_search", "rag.paper_cache"},
    {"rag.prompts", "rag.embedding", "rag.lexical", "rag.store", "rag.catalog", "rag.sentence_index", "rag.topics"},
    {"rag.word_vectors"},
    {"rag.indexing"},
    {"rag.retrieval"},
    {"rag.evidence"},
    {"rag.questions"},
    {"rag.gather"},
    {"rag.extractive", "rag.generation"},
    {"rag.citations"},
    {"rag.assistant"},
    {"rag.evaluation", "rag.terminal"},
    {"rag.cli"},
    {"ui", "ui.markup", "ui.state", "ui.evidence", "ui.ordering", "ui.service"},
    {"ui.export"},
    {"ui.sidebar"},
    {"ui.chat_page"},
    {"ui.papers_page"},
    {"ui.topics_page"},
    {"ui.app"},
]
LAYER_OF = {module: i for i, layer in enumerate(LAYERS) for module in layer}


def _modules() -> dict[str, Path]:
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            name = ".".join((package, *parts)).removesuffix(".__init__")
            found[name] = path
    return found


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Project modules imported anywhere in the file (absolute or relative)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        out |= {t for t in targets if t in known and t != name}
    return out


GRAPH = {name: _imports(name, path, set(_modules())) for name, path in _modules().items()}


def test_every_module_has_a_layer() -> None:
    assert sorted(set(GRAPH) - set(LAYER_OF)) == []


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_no_module_imports_a_higher_layer(module: str) -> None:
    upward = sorted(t for t in GRAPH[module] if LAYER_OF.get(t, -1) > LAYER_OF.get(module, -1))
    assert upward == [], f"{module} (layer {LAYER_OF.get(module)}) imports higher layers: {upward}"


def test_the_import_graph_has_no_cycle() -> None:
    state: dict[str, int] = {}  # 1 visiting, 2 done

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(GRAPH[node]):
            if state.get(nxt) == 1:
                raise AssertionError(" -> ".join(trail[trail.index(nxt):] + [nxt]))
            if nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for start in sorted(GRAPH):
        if start not in state:
            visit(start, [start])


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_no_source_file_holds_a_control_character(package: str) -> None:
    """A pattern written with "\\b" in a non-raw string became a backspace inside a regex (rag.evidence's
    "how well" cue matched nothing); no linter flags it, as it sits inside a string."""
    for path in sorted(PACKAGES[package].rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        bad = [c for c in set(text) if ord(c) < 32 and c not in "\n\t"]
        assert not bad, f"{path.name}: control characters {[hex(ord(c)) for c in bad]}"
