"""The benchmark scripts start as the README runs them.

An installed package can shadow ``benchmarks`` (pysbd ships a top-level
``benchmarks`` package), which once made ``python benchmarks/scale.py`` die on
its first import. Each script is started from outside the repository, as a
subprocess, and must print its usage.
"""

from __future__ import annotations

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
