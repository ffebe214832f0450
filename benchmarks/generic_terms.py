"""Write ``rag/generic_terms.py``: the words too common in abstracts to name a topic.

Topic names must say what sets a cluster apart, so words that abstracts of every
field use ("propose", "method", "results", "model") are dropped. Rather than
typing that list by hand, it is computed here from the shared corpora (~50k ML,
CV and NLP abstracts, tokenised exactly as :mod:`rag.topics` does): a word is
generic when it is in at least ``GENERIC_SHARE`` of the abstracts of *every*
venue with ``MIN_VENUE_PAPERS`` or more. Taking the minimum over venues keeps
field words ("image" is common at CVPR, rare at COLT; "language" at ACL, rare
at CVPR) out of the list, which a corpus-wide frequency cut would not. Run it
again if the tokenisation changes:

    nice .venv/bin/python benchmarks/generic_terms.py ../shared/corpora/*.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections import Counter, defaultdict
from pathlib import Path

from rag.config import PROJECT_ROOT
from rag.topics import _phrases

GENERIC_SHARE = 0.05  # 97 words at 5%; 4% starts taking field-leaning words ("features", "algorithm", "domain")
MIN_VENUE_PAPERS = 300  # smaller venues (ALT: 51, AutoML-Conf: 63) give shares too noisy to take a minimum over
OUTPUT = PROJECT_ROOT / "rag" / "generic_terms.py"


def venue_frequencies(paths: list[Path]) -> tuple[dict[str, Counter[str]], Counter[str], dict[str, Counter[str]]]:
    """Per venue: in how many abstracts each stem occurs, and the venue's size; per stem: how it was written."""
    df: dict[str, Counter[str]] = defaultdict(Counter)
    sizes: Counter[str] = Counter()
    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    for path in paths:
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                venue = str(record.get("venue") or "")
                stems = set()
                for phrase in _phrases(record.get("abstract") or ""):
                    for surface, key in phrase:
                        stems.add(key)
                        surfaces[key][surface.lower()] += 1
                df[venue].update(stems)
                sizes[venue] += 1
    return df, sizes, surfaces


def generic_words(paths: list[Path]) -> tuple[list[str], int, int]:
    """The generic words (most common written form), the number of abstracts and of venues used."""
    df, sizes, surfaces = venue_frequencies(paths)
    venues = [v for v, n in sizes.items() if n >= MIN_VENUE_PAPERS]
    stems = set.intersection(*(set(df[v]) for v in venues)) if venues else set()
    generic = [s for s in stems if min(df[v][s] / sizes[v] for v in venues) >= GENERIC_SHARE]
    return sorted(surfaces[s].most_common(1)[0][0] for s in generic), sum(sizes.values()), len(venues)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpora", nargs="+", type=Path, help=".jsonl.gz files with 'abstract' and 'venue' fields")
    words, n, venues = generic_words(parser.parse_args().corpora)
    body = "\n".join(f'    "{word}",' for word in words)
    OUTPUT.write_text(
        '"""Words too common in paper abstracts to name a topic (generated: do not edit).\n\n'
        f"Written by benchmarks/generic_terms.py from {n:,} abstracts: each word is in at least\n"
        f"{GENERIC_SHARE:.0%} of the abstracts of every one of {venues} venues.\n"
        '"""\n\nGENERIC_WORDS: tuple[str, ...] = (\n' + body + "\n)\n",
        encoding="utf-8",
    )
    print(f"{len(words)} generic words from {n:,} abstracts of {venues} venues -> {OUTPUT}")


if __name__ == "__main__":
    main()
