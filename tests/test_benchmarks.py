"""The benchmark scripts start as the README runs them.

An installed package can shadow ``benchmarks`` (pysbd ships a top-level
``benchmarks`` package), which once made ``python benchmarks/scale.py`` die on
its first import. Each script is started from outside the repository, as a
subprocess, and must print its usage.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
SCRIPTS = sorted(p for p in BENCHMARKS.glob("*.py") if p.name != "__init__.py")


def test_every_benchmark_script_is_checked() -> None:
    assert {p.name for p in SCRIPTS} >= {"scale.py", "titles.py", "roles.py"}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_benchmark_help_runs_from_outside_the_repository(script: Path, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(script), "--help"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("usage:"), done.stdout[:500]
    assert "Traceback" not in done.stderr


def test_list_threshold_replay_scores_the_dev_lists(seed_assistant) -> None:
    """The replay of the list decision reads the scorer's internals (word matches, distant forms); it once
    died on an attribute the scorer no longer had while its ``--help`` still ran."""
    spec = importlib.util.spec_from_file_location("list_thresholds", BENCHMARKS / "list_thresholds.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    questions = module.collect(seed_assistant, ["dev"])
    assert len(questions) >= 4
    shipped = [module.f1(module.listed(module.paper_scores(q, module.SHIPPED), module.SHIPPED), q.gold)
               for q in questions]
    assert all(len(per_paper) == len(seed_assistant.papers) for q in questions for per_paper in q.sentences)
    assert sum(shipped) / len(shipped) > 0.5, shipped
