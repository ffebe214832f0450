"""The wheel is complete: built from this checkout, installed away from it, ``rag ask`` answers on the shipped seeds.

A normal install once exited with "seeds: no such file or folder" because only ``rag/``
was packaged. The wheel is installed with ``pip install --no-deps --target`` (the test
venv already holds torch and every other dependency, which are not downloaded again)
and run from a temporary working directory with only that target on ``PYTHONPATH``,
so nothing can be found through the repository.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "README.md", "rag", "ui", "seeds", "prompts")  # what the build reads
BUILD_TIMEOUT = 300.0
ASK_TIMEOUT = 600.0  # loads torch and embeds the 19 seeds on a busy machine
WHO_WHEN = "How many failed trajectories does Who&When Pro contain?"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from a copy of the sources (the checkout gets no build/ folder), installed into a target dir."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, source / name)
    wheels = work / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels),
          str(source)], cwd=work, timeout=BUILD_TIMEOUT)
    (wheel,) = wheels.glob("rag_abstracts-*.whl")
    target = work / "site"
    _run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
         cwd=work, timeout=BUILD_TIMEOUT)
    return target


def _run(command: list[str], cwd: Path, timeout: float, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _env(target: Path, data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAG_", "OPENAI_"))}
    env.update(PYTHONPATH=str(target), RAG_DATA_DIR=str(data_dir))
    return env


def test_wheel_ships_code_ui_seeds_and_prompts(installed: Path) -> None:
    assert (installed / "ui" / "app.py").is_file()
    assert list((installed / "rag" / "seed_corpus").glob("*.txt")), "the seed corpus is in the wheel"
    assert (installed / "rag" / "prompt_templates" / "answer_system.md").is_file()


def test_installed_rag_ask_answers_from_the_shipped_seeds(installed: Path, tmp_path: Path) -> None:
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    env = _env(installed, tmp_path / "data")
    where = _run([sys.executable, "-c", "import rag.config as c, ui; print(c.__file__); print(ui.__file__); "
                  "print(c.SEED_CORPUS); print(c.PROMPTS_DIR)"], cwd=cwd, timeout=BUILD_TIMEOUT, env=env)
    assert all(line.startswith(str(installed)) for line in where.split()), f"not the installed copy:\n{where}"
    answer = json.loads(_run([sys.executable, "-m", "rag.cli", "-q", "ask", "--json", WHO_WHEN], cwd=cwd,
                             timeout=ASK_TIMEOUT, env=env))
    assert "12,326" in answer["answer"]
    assert "p05" in {s["paper_id"] for s in answer["sources"] if s["number"] in answer["cited"]}
