"""Topic clusters over a set of papers: the collection overview and the Topics page.

A reader meeting an unfamiliar corpus first asks "what is this about?". The
answer is a handful of clusters of similar papers, each named by the words that
set it apart from the others (class-based TF-IDF, as BERTopic does), plus a
2-D picture of the papers. Everything is deterministic (fixed seeds, sorted
ties) so the same corpus always gets the same topics, numbers and map.

The caller supplies one vector per paper (a mean of chunk or sentence vectors),
so this module needs no store and no model and works on any embedding.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

import numpy as np
from sklearn.cluster import KMeans
from sklearn.metrics import silhouette_score
from threadpoolctl import threadpool_limits  # a scikit-learn dependency

from .corpus import Paper
from .lexical import GENERIC_STEMS, NON_TOPICAL, stem

MAX_TOPICS = 12  # issue 7: an overview, not a taxonomy; more than a dozen names stop being readable at a glance
CLUSTER_DIMS = 32  # k-means on 32 principal components: 2k papers 0.6 s vs 3.2 s at 384-d; same seed partition
CLUSTER_SAMPLE = 4_000  # above this many papers k-means learns its centres on a sample and assigns the rest
SILHOUETTE_SAMPLE = 2_000  # silhouette costs O(n^2): scored on at most this many papers (sklearn's sample_size)
KMEANS_RESTARTS = 10  # sklearn's classic n_init; 4 left a worse optimum on the seeds (k=8 inertia 6.086 vs 6.079)
# BLAS/OpenMP threads for clustering: same sums in any run, and 7.8 s vs 14.9 s on 2k papers on a busy 2-core box
THREADS = 1
STEM_CACHE = 200_000  # distinct words remembered by the stemmer cache (a 50k-abstract corpus has ~150k)
SEED = 0  # every random choice (sample, k-means++ init) uses this, so topics are reproducible
TERM_SAMPLE = 400  # a topic is named from at most this many of its most central papers (bounds naming at 50k)
VOCAB_CAP = 20_000  # terms kept for c-TF-IDF, by document frequency (BERTopic's usual vectorizer cap)
N_TERMS = 4  # terms per topic name; the brief asks for 3-5
BIGRAM_PREFERENCE = 0.6  # a bigram with >= 60% of its word's weight names better ("diffusion models"); set on the seeds
TOPIC_SPAN = 2.0  # a term in more papers than this many average topics hold can't mark one ("algorithm" in ML)
MIN_DOCS_FOR_DF_RULES = 40  # below this many papers document shares are noise: no corpus-computed generics, min_df 1
MIN_DF = 2  # with enough papers, a term only one paper uses is an idiosyncrasy, not a theme
MIN_TOKEN_CHARS = 3  # "of"-sized leftovers; acronyms such as "3D" or "RL" are kept by their capitals/digits

_URL = re.compile(r"https?://\S+|\[[^\]]*\]\([^)]*\)")
_MATH = re.compile(r"\$[^$]*\$")
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")
_PHRASE_BREAK = re.compile(r"[.,;:!?()\[\]{}\"“”*]|\s-\s|—|–")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9&+\-']*[A-Za-z0-9+]|[A-Za-z]")


@dataclass(frozen=True)
class Topic:
    """One cluster: its number (1 = largest), naming terms and members, most central first.

    ``closeness`` is each member's cosine similarity to the cluster's mean direction,
    in ``paper_ids`` order: what an overview shows for a paper in place of relevance
    to a question, which an overview request has none of.
    """

    number: int
    terms: list[str]
    paper_ids: list[str]
    closeness: list[float]


@dataclass(frozen=True)
class TopicMap:
    """Topics of a corpus plus a 2-D position per paper for drawing it."""

    topics: list[Topic]
    coords: dict[str, tuple[float, float]]
    topic_of: dict[str, int]


def paper_topics(papers: Sequence[Paper], vectors: Mapping[str, np.ndarray]) -> TopicMap:
    """Topics of these papers from one vector each (their stored mean chunk vectors); papers without one are left out.

    The one entry point for both the Topics page and the overview answer, so the two always agree.
    """
    kept = [p for p in papers if p.id in vectors]
    if not kept:
        return TopicMap(topics=[], coords={}, topic_of={})
    return topic_map([p.id for p in kept], [" ".join(filter(None, (p.title, p.text))) for p in kept],
                     np.stack([vectors[p.id] for p in kept]))


def topic_map(paper_ids: Sequence[str], texts: Sequence[str], vectors: np.ndarray,
              n_topics: int | None = None) -> TopicMap:
    """Cluster the papers, name each cluster, and project them to 2-D.

    ``n_topics`` forces the number of clusters (clamped to 1..number of distinct
    vectors); without it k is chosen from the data (see :func:`choose_k`). Texts
    only name the topics; they never move a paper to another cluster.
    """
    if not len(paper_ids) == len(texts) == len(vectors):
        raise ValueError(f"{len(paper_ids)} ids, {len(texts)} texts and {len(vectors)} vectors: one each per paper")
    if not paper_ids:
        return TopicMap(topics=[], coords={}, topic_of={})
    unit = _normalise(np.asarray(vectors, dtype=np.float64))
    with threadpool_limits(limits=THREADS):
        space = principal_components(unit, CLUSTER_DIMS)
        labels = cluster(space, n_topics)
    members = _members_by_centrality(unit, labels)
    names = name_topics([[texts[i] for i in group[:TERM_SAMPLE]] for group, _ in members])
    topics = [Topic(number=n + 1, terms=names[n], paper_ids=[paper_ids[i] for i in group], closeness=closeness)
              for n, (group, closeness) in enumerate(members)]
    xy = map_coords(space, labels)
    return TopicMap(
        topics=topics,
        coords={pid: (float(x), float(y)) for pid, (x, y) in zip(paper_ids, xy, strict=True)},
        topic_of={pid: topic.number for topic in topics for pid in topic.paper_ids},
    )


# --------------------------------------------------------------------------- clustering


def cluster(points: np.ndarray, n_topics: int | None = None) -> np.ndarray:
    """A cluster label per row (k-means; k chosen by :func:`choose_k` or given).

    Large corpora learn the centres on a fixed random sample and assign every
    paper to its nearest centre, so cost stops growing with the corpus.
    """
    distinct = len(np.unique(points.round(6), axis=0))
    sample = points[_sample(len(points), CLUSTER_SAMPLE)]
    k = min(max(1, n_topics), distinct) if n_topics is not None else choose_k(sample, len(points), distinct)
    if k == 1:
        return np.zeros(len(points), dtype=int)
    return _kmeans(sample, k).predict(points)


def choose_k(points: np.ndarray, n_papers: int, distinct: int) -> int:
    """The k with the best silhouette, between a size-based floor and MAX_TOPICS.

    Silhouette compares each paper's closeness to its own cluster with the next
    nearest one and needs no labels, but on sentence embeddings it prefers very
    coarse splits (on 2,000 ML/CV/NLP abstracts: 4 topics, one per field), which
    is no overview. So k starts at the rule of thumb sqrt(n/2) (Mardia et al.,
    Multivariate Analysis, 1979), and silhouette picks above it. Fewer than 3
    distinct papers make one topic (silhouette needs k < n).
    """
    high = min(MAX_TOPICS, distinct - 1)
    low = min(high, max(2, round(math.sqrt(n_papers / 2))))
    if low >= high:
        return max(1, high)
    best_k, best_score = low, -math.inf
    for k in range(low, high + 1):
        labels = _kmeans(points, k).labels_
        score = silhouette_score(points, labels, sample_size=min(len(points), SILHOUETTE_SAMPLE), random_state=SEED)
        if score > best_score:
            best_k, best_score = k, score
    return best_k


def _kmeans(unit: np.ndarray, k: int) -> KMeans:
    return KMeans(n_clusters=k, n_init=KMEANS_RESTARTS, random_state=SEED).fit(unit)


def _sample(n: int, limit: int) -> np.ndarray:
    """All row numbers, or a fixed random ``limit`` of them in order."""
    if n <= limit:
        return np.arange(n)
    return np.sort(np.random.default_rng(SEED).choice(n, size=limit, replace=False))


def _normalise(vectors: np.ndarray) -> np.ndarray:
    """Unit rows, so k-means' Euclidean distance ranks like cosine similarity."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)


def _members_by_centrality(unit: np.ndarray, labels: np.ndarray) -> list[tuple[list[int], list[float]]]:
    """Row numbers per cluster with their cosine to its mean direction, most central first;
    clusters largest first (ties: first row)."""
    groups: list[tuple[list[int], list[float]]] = []
    for label in np.unique(labels):
        rows = np.flatnonzero(labels == label)
        closeness = unit[rows] @ _normalise(unit[rows].mean(axis=0, keepdims=True))[0]
        order = sorted(range(len(rows)), key=lambda i: (-round(float(closeness[i]), 9), rows[i]))
        groups.append(([int(rows[i]) for i in order], [float(closeness[i]) for i in order]))
    return sorted(groups, key=lambda g: (-len(g[0]), min(g[0])))


# --------------------------------------------------------------------------- 2-D map


def principal_components(unit: np.ndarray, dims: int) -> np.ndarray:
    """The rows in their first ``dims`` principal axes (PCA): the space k-means works in."""
    centred = unit - unit.mean(axis=0)
    return centred @ _top_axes(centred.T @ centred, dims)


def map_coords(space: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """2-D positions on the plane that spreads the topic centres furthest apart.

    The first two principal axes of all papers mix topics on a small corpus (the
    seeds' 8 topics overlap there); the principal axes of the size-weighted topic
    centres keep each topic's papers together. Two centres give only one such
    direction, so fewer than three topics use the papers' own first two axes.
    """
    numbers, sizes = np.unique(labels, return_counts=True)
    if len(numbers) < 3:
        return space[:, :2]
    centres = np.stack([space[labels == n].mean(axis=0) for n in numbers])
    middle = (centres * sizes[:, None]).sum(axis=0) / sizes.sum()
    spread = (centres - middle) * np.sqrt(sizes)[:, None]
    return (space - middle) @ _top_axes(spread.T @ spread, 2)


def _top_axes(scatter: np.ndarray, dims: int) -> np.ndarray:
    """Eigenvectors of a scatter matrix, largest first, each signed so its biggest entry is positive (reruns agree)."""
    _, eigenvectors = np.linalg.eigh(scatter)
    axes = eigenvectors[:, ::-1][:, : min(dims, scatter.shape[0])]
    biggest = np.abs(axes).argmax(axis=0)
    return axes * np.sign(axes[biggest, np.arange(axes.shape[1])])


# --------------------------------------------------------------------------- naming


def name_topics(topic_texts: Sequence[Sequence[str]], n_terms: int = N_TERMS) -> list[list[str]]:
    """Distinctive terms per topic by class-based TF-IDF (BERTopic's c-TF-IDF).

    A term's weight in a topic is the share of the topic's term mass it makes
    up, times log(1 + A / f) with A the average term mass per topic and f the
    term's mass over all topics: frequent here, rare elsewhere. Each paper adds
    1 + log(count) for a term, so a theme several papers share beats one paper
    repeating its own acronym, while a one-paper topic is still named by what it
    repeats rather than by words it mentions once.
    """
    written: dict[str, Counter[str]] = defaultdict(Counter)
    docs = [[_analyse(text, written) for text in texts] for texts in topic_texts]
    vocabulary = _vocabulary([set(doc) for topic in docs for doc in topic], len(docs))
    surfaces = {term: _most_written(written[term]) for term in vocabulary}
    index = {term: i for i, term in enumerate(vocabulary)}
    mass = np.zeros((len(docs), len(vocabulary)))
    for t, topic in enumerate(docs):
        for doc in topic:
            for term, count in doc.items():
                if term in index:
                    mass[t, index[term]] += 1.0 + math.log(count)
    weights = _ctfidf(mass)
    return [[surfaces[term] for term in _pick_terms(weights[t], vocabulary, n_terms)] for t in range(len(docs))]


def _ctfidf(mass: np.ndarray) -> np.ndarray:
    totals = mass.sum(axis=1, keepdims=True)
    tf = mass / np.where(totals == 0, 1.0, totals)
    average = mass.sum() / max(len(mass), 1)
    frequency = mass.sum(axis=0)
    return tf * np.log1p(average / np.where(frequency == 0, 1.0, frequency))


def _pick_terms(weights: np.ndarray, vocabulary: Sequence[str], n_terms: int) -> list[str]:
    """The best terms, a word replaced by its best bigram when that bigram is nearly as distinctive.

    "diffusion models" says more than "diffusion"; a chosen bigram also keeps its
    words and any overlapping bigram out, so no name reads "social, social learning".
    """
    order = sorted(np.flatnonzero(weights > 0).tolist(), key=lambda i: (-weights[i], vocabulary[i]))
    bigrams: dict[str, list[int]] = defaultdict(list)
    for i in order:
        if " " in vocabulary[i]:
            for word in vocabulary[i].split():
                bigrams[word].append(i)
    chosen: list[str] = []
    used: set[str] = set()
    for i in order:
        term = vocabulary[i]
        if " " not in term:
            better = [j for j in bigrams[term] if weights[j] >= BIGRAM_PREFERENCE * weights[i]]
            term = vocabulary[better[0]] if better else term
        words = set(term.split())
        if words & used:
            continue
        chosen.append(term)
        used |= words
        if len(chosen) == n_terms:
            break
    return chosen


def _vocabulary(doc_terms: Sequence[set[str]], n_topics: int) -> list[str]:
    """Terms worth naming topics by: not generic in abstracts at large, nor in this corpus.

    ``GENERIC_WORDS`` is computed from ~50k abstracts. With enough papers, terms in
    more papers than ``TOPIC_SPAN`` average topics hold are dropped too (they are
    generic here), and so are single-paper terms.
    """
    df = Counter(term for terms in doc_terms for term in terms)
    n = len(doc_terms)
    min_df, max_df = (MIN_DF, TOPIC_SPAN * n / n_topics) if n >= MIN_DOCS_FOR_DF_RULES else (1, n)
    kept = [t for t, f in df.items() if min_df <= f <= max_df]
    kept.sort(key=lambda t: (-df[t], t))
    return sorted(kept[:VOCAB_CAP])


def _most_written(forms: Counter[str]) -> str:
    """The most frequent written form of a term ("diffusion models", "LLMs"), never its stem."""
    return max(forms.items(), key=lambda kv: (kv[1], kv[0]))[0]


def _analyse(text: str, written: dict[str, Counter[str]]) -> Counter[str]:
    """Unigrams and within-phrase bigrams, keyed by stems; stopwords and punctuation break phrases.

    A bigram is kept unless both its words are generic ("proposed method"), so
    "diffusion models" survives although "models" alone is generic. How each
    term was written is tallied in ``written``, for display.
    """
    terms: Counter[str] = Counter()
    for phrase in _phrases(text):
        for surface, key in phrase:
            if key not in GENERIC_STEMS:
                terms[key] += 1
                written[key][surface] += 1
        for (first, key1), (second, key2) in pairwise(phrase):
            if not (key1 in GENERIC_STEMS and key2 in GENERIC_STEMS) and key1 != key2:
                bigram = f"{key1} {key2}"
                terms[bigram] += 1
                written[bigram][f"{first} {second}"] += 1
    return terms


def _phrases(text: str) -> Iterator[list[tuple[str, str]]]:
    """Runs of content words as ``(surface, stem)`` pairs, split at stopwords and punctuation."""
    text = _LATEX_COMMAND.sub(" ", _MATH.sub(" , ", _URL.sub(" , ", text)))
    for chunk in _PHRASE_BREAK.split(text):
        run: list[tuple[str, str]] = []
        for word in _WORD.findall(chunk):
            if _is_content(word):
                run.append((_display(word), _stem(word)))
            elif run:
                yield run
                run = []
        if run:
            yield run


@lru_cache(maxsize=STEM_CACHE)
def _stem(word: str) -> str:
    """Stemming is most of the naming time; abstracts repeat their words, so remember them."""
    return stem(word)


def _is_content(word: str) -> bool:
    lowered = word.lower()
    if lowered in NON_TOPICAL or lowered == word.upper():  # no letter at all: a number
        return False
    return len(word) >= MIN_TOKEN_CHARS or lowered != word or not word.isalpha()


def _display(word: str) -> str:
    """Acronyms and names keep their capitals ("LLMs", "cfDNA"); ordinary words are lower-cased."""
    return word if word[1:] != word[1:].lower() else word.lower()
