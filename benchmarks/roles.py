"""Sentence-role accuracy on hand-labelled abstracts, and labelling speed.

Two sets from different abstracts of ``/work/shared/corpora`` (NeurIPS 1987-2002
skipped as noisy PDF text): ``roles_heldout.jsonl``, 30 abstracts drawn first with
``random.Random(7)``, labelled before any rule existed and never tuned on; and
``roles_dev.jsonl``, which the rules of ``rag.roles`` were written against: the next 20
abstracts of that draw, then 15 each drawn with ``random.Random(8)`` and ``Random(9)``
from the rest. Both are scored side by side with a position-only
baseline (first sentence problem, last result, the rest method), so the cue phrases
and the order pass must earn their keep over position alone. Speed is timed here, not
in the tests, because it depends on the machine's load.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/roles.py
    PYTHONPATH=$PWD .venv/bin/python benchmarks/roles.py --errors dev   # misses, to write rules from
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from rag.roles import ROLES, Role, sentence_roles

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
SETS = {"dev": DATA / "roles_dev.jsonl", "heldout": DATA / "roles_heldout.jsonl"}
SPEED_ROUNDS = 20  # passes over both sets when timing; enough for a stable per-sentence figure

Labeller = Callable[[Sequence[str]], list[Role]]
Abstract = tuple[list[str], list[Role]]


def load(path: Path) -> list[Abstract]:
    """The abstracts of a labelled set as (sentences, roles)."""
    abstracts = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        abstracts.append(([s["text"] for s in record["sentences"]], [s["role"] for s in record["sentences"]]))
    return abstracts


def position_baseline(sentences: Sequence[str]) -> list[Role]:
    """Roles from position alone: the opening is background, the closing a result."""
    roles: list[Role] = ["method"] * len(sentences)
    if roles:
        roles[0] = "problem"
    if len(roles) > 1:
        roles[-1] = "result"
    return roles


def pairs(abstracts: list[Abstract], labeller: Labeller) -> list[tuple[Role, Role]]:
    """(gold, predicted) for every sentence."""
    return [pair for sentences, gold in abstracts for pair in zip(gold, labeller(sentences), strict=True)]


def accuracy(scored: list[tuple[Role, Role]]) -> float:
    return sum(g == p for g, p in scored) / len(scored)


def prf(scored: list[tuple[Role, Role]], role: Role) -> tuple[float, float, float, int]:
    """Precision, recall, F1 and support of one role."""
    hits = sum(g == p == role for g, p in scored)
    predicted = sum(p == role for _, p in scored)
    support = sum(g == role for g, _ in scored)
    precision = hits / predicted if predicted else 0.0
    recall = hits / support if support else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1, support


def report(sets: dict[str, list[Abstract]]) -> str:
    """Accuracy of rules and baseline, then per-role P/R/F1 of the rules, each set side by side."""
    rules = {name: pairs(abstracts, sentence_roles) for name, abstracts in sets.items()}
    baseline = {name: pairs(abstracts, position_baseline) for name, abstracts in sets.items()}
    names = list(sets)
    lines = [f"{'':22}" + "".join(f"{name:>22}" for name in names)]
    lines.append(f"{'sentences (abstracts)':22}"
                 + "".join(f"{f'{len(rules[n])} ({len(sets[n])})':>22}" for n in names))
    lines.append(f"{'accuracy, rules':22}" + "".join(f"{accuracy(rules[n]):>22.3f}" for n in names))
    lines.append(f"{'accuracy, position':22}" + "".join(f"{accuracy(baseline[n]):>22.3f}" for n in names))
    lines.append("")
    lines.append(f"{'rules P / R / F1 (n)':22}" + "".join(f"{name:>22}" for name in names))
    for role in ROLES:
        cells = []
        for name in names:
            p, r, f, n = prf(rules[name], role)
            cells.append(f"{p:.2f} {r:.2f} {f:.2f} ({n:>3})")
        lines.append(f"{role:22}" + "".join(f"{cell:>22}" for cell in cells))
    for name in names:
        lines += ["", f"confusion, {name} (rows gold, columns predicted)", confusion(rules[name])]
    return "\n".join(lines)


def confusion(scored: list[tuple[Role, Role]]) -> str:
    counts = Counter(scored)
    lines = [f"{'':9}" + "".join(f"{role:>9}" for role in ROLES)]
    for gold in ROLES:
        lines.append(f"{gold:9}" + "".join(f"{counts[gold, pred]:>9}" for pred in ROLES))
    return "\n".join(lines)


def errors(abstracts: list[Abstract]) -> str:
    """Every mislabelled sentence with its abstract's gold and predicted sequence."""
    lines = []
    for sentences, gold in abstracts:
        predicted = sentence_roles(sentences)
        for index, (text, g, p) in enumerate(zip(sentences, gold, predicted, strict=True)):
            if g != p:
                lines.append(f"[{index}/{len(sentences)}] gold {g:8} got {p:8} {text[:150]}")
    return "\n".join(lines)


def speed(sets: dict[str, list[Abstract]]) -> float:
    """Microseconds per sentence for ``sentence_roles`` over the labelled abstracts."""
    abstracts = [sentences for abstracts in sets.values() for sentences, _ in abstracts]
    count = sum(len(s) for s in abstracts) * SPEED_ROUNDS
    start = time.process_time()
    for _ in range(SPEED_ROUNDS):
        for sentences in abstracts:
            sentence_roles(sentences)
    return (time.process_time() - start) / count * 1e6


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", choices=sorted(SETS), help="list the mislabelled sentences of one set")
    args = parser.parse_args(argv)
    sets = {name: load(path) for name, path in SETS.items()}
    if args.errors:
        print(errors(sets[args.errors]))
        return
    print(report(sets))
    print(f"\nspeed: {speed(sets):.1f} µs per sentence")


if __name__ == "__main__":
    main()
