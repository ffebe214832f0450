"""BM25 over whole papers (bm25s), with scores made comparable across questions.

Raw BM25 scores have no fixed scale, and rank-based fusion (RRF) gives the top
BM25 hit full weight even when it shares only a common word with a paraphrased
question; measured at 10k papers, that drags paraphrase recall far below dense
alone. So we divide a paper's score by the best score each query term reaches
anywhere in the corpus: 1.0 means "matches every query term as well as any paper
does", while a paraphrase that shares only filler words stays near 0 and barely
moves the dense ranking.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

import bm25s
import numpy as np
import Stemmer
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from .corpus import Paper
from .generic_terms import GENERIC_WORDS


class _EnglishStemmer:
    """Snowball's English stemmer, less one gap: it leaves a final "s" after "u", so an "-us" plural kept apart from
    its singular ("Sudokus" / "Sudoku", "gpus" / "gpu", "menus" / "menu") and "Any paper that uses Sudoku?" found
    nothing where one abstract tests "on Sudokus". That "s" goes from every stem, index and question alike: "corpus"
    stems to "corpu" on both sides, so a singular in "-us" still meets itself."""

    def __init__(self) -> None:
        self._snowball = Stemmer.Stemmer("english")

    def stemWord(self, word: str) -> str:  # noqa: N802 - PyStemmer's interface, which bm25s calls
        stemmed: str = self._snowball.stemWord(word)
        return stemmed[:-1] if len(stemmed) > 3 and stemmed.endswith("us") else stemmed

    def stemWords(self, words: list[str]) -> list[str]:  # noqa: N802
        return [self.stemWord(word) for word in words]


_STEMMER = _EnglishStemmer()
TOKENIZATION = 4  # bump when tokenisation changes: saved BM25 indexes are rebuilt
# bm25s's English list (33 words) keeps question words ("what", "which", "how"): a
# question of nothing else would give the one abstract saying "what" a perfect
# normalised BM25 score. BM25, overlap and display all drop this longer list.
STOPWORDS = frozenset(bm25s.stopwords.STOPWORDS_EN) | frozenset(
    "a about above after all also am an any are as at be been being both but by can could did do does doing "
    "done each few for from had has have having he her here hers him his how i if in into is it its itself just "
    "many me more most much my no nor not now of off on once only or other our ours out over own same she should "
    "so some such than that the their theirs them then there these they this those through to too under until "
    "up very was we were what when where which while who whom whose why will with would you your".split()
)
# Words that never say what a paper is about: the stopwords above plus scikit-learn's longer English list
# ("during", "whether", "become", "already"). Topic names and a comparison's terms in common leave them out;
# BM25 and term coverage keep STOPWORDS alone (widening them would move retrieval, which was not measured).
NON_TOPICAL = STOPWORDS | frozenset(ENGLISH_STOP_WORDS)
# Words that say what form the answer should take or point at the corpus itself; they are
# never content to be matched, shown as matched, or reported missing ("papers", "compare", ...).
# The words for a paper ("Which paper helps multimodal models ...?" asks for a paper, not for models' names).
PAPER_WORDS = frozenset("paper papers work works study studies article articles abstract abstracts projects".split())
FORM_WORDS = PAPER_WORDS | frozenset(
    "publication publications "
    "collection corpus set list lists name names show find give tell describe explain summarize summarise "
    "summary summaries overview gist tldr tl dr compare compared comparing comparison contrast differ "
    "differs difference differences different similar similarity similarities common versus vs "
    "use uses used using contain contains containing involve involves involved involving discuss discusses mention "
    "mentions mentioned report reports reported present presents propose proposes proposed introduce "
    "introduces introduced address addresses consider considers deal deals tackle tackles focus focuses "
    "please could would kindly anything something everything anyone someone anybody somebody any there one ones "
    "each every both either neither also else etc i.e e.g kind kinds sort sorts thing things stuff "
    "main key major primary central overall general briefly short brief idea ideas point points "
    "theme themes topic topics area areas field fields cover covers covered research researchers "
    "issue issues aspect aspects angle angles "
    "do does did done say says said can about regarding concerning related unrelated relate relates relevant "
    "way ways approach approaches method methods technique techniques two three four five six "
    "across among including especially such within "
    # generic relational verbs: they link the asked-about things, they are not what is asked about
    "depend depends depending rely relies achieve achieves achieved perform performs performed "
    "affect affects influence influences handle handles obtain obtains get gets make makes touches touching "
    "deal dealing described call calls called establish establishes established build built included well "
    "new novel investigate investigates examine examines explore explores mainly primarily mostly "
    "actual actually really genuinely truly still come comes talk talks submission include includes "
    "treat treats treated argue argues argued "
    # reporting verbs: "has anyone shown that?" asks whether a paper reports it ("shown" alone had been a criterion
    # and listed three papers writing "we show", probe147 so023)
    "shows showed shown showing "
    # the asking frame: "I just want to know which ones were tested on clinical material", "... - which fit?"
    "want wants need needs know fit fits qualify qualifies "
    # ... and what the papers intend, framing what they do ("Which works aim to cut the compute ...?": "aim" had been
    # a third of the criterion "aim cut compute", which the token-merging paper's "reducing ... computation" missed)
    "aim aims aimed aiming try tries tried trying seek seeks sought seeking attempt attempts attempted attempting "
    # chat asides typed in passing ("tbh i want stuff that ..."): no abstract writes them
    "tbh tbf imo imho btw fwiw idk "
    # ... and hedges and a pronoun typed as said ("Which of em do synthetic experiments first ...? Sim-to-real vibes,
    # kinda": "kinda" had been an alternative and "em" a criterion word, probe153 tm014)
    "kinda sorta lol em "
    # greetings and assent ("hey, which papers have multimodal LLMs ...? video, image, all ok": "hey multimodal LLMs"
    # and "ok" had been criteria, probe146 sn007)
    "hey hi hello ok okay thanks thx pls plz "
    # a waiver: "diffusion models, whatever the angle" asks for any of them (see questions._WAIVER_TAIL)
    "whatever "
    # negations typed without the apostrophe ("which papers dont report experiments"): the planner reads them
    "dont doesnt didnt isnt arent "
    "specifically explicitly explicit interested centrally chiefly principally largely predominantly concerned focused "
    "focusing pure purely merely solely exclusively presenting contribution contributions".split()
)
# Verbs saying which way a quantity moves ("cut", "reduce", "speed up"), not what the quantity or topic is
CHANGE_VERBS = (r"(?:reduce|improve|increase|decrease|cut|save|speed|accelerate|beat|outperform|exceed|gain"
                r"|lower|raise|boost|drop|shrink|grow|compress)\w*")
_CHANGE_VERB = re.compile(CHANGE_VERBS, re.IGNORECASE)


def is_change_verb(word: str) -> bool:
    """Whether a word is a form of a verb of change ("cutting", "reduces", "speeding")."""
    return _CHANGE_VERB.fullmatch(word) is not None


# The nouns by which a question points at the corpus itself ("in this batch", "the themes of this collection",
# a reviewer's "any diffusion papers on the program?").
CORPUS_NOUNS = "|".join(("batch", "bunch", "collection", "conference", "corpus", "lineup", "lot", "pile", "proceedings",
                         "program", "programme", "selection", "set"))
# A number written with thousands separators is one word ("12,326", not "12" and "326").
_GROUPED_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,]*\d)|"
_WORD = re.compile(_GROUPED_NUMBER + r"[A-Za-z0-9][A-Za-z0-9&+\-.]*[A-Za-z0-9+]|[A-Za-z0-9]")


def corpus_signature(papers: Sequence[Paper]) -> str:
    """Changes whenever any paper is added, removed or edited."""
    digest = hashlib.sha256()
    for paper in papers:
        digest.update(f"{paper.id}\t{paper.content_hash}\n".encode())
    return digest.hexdigest()[:16]


def _cache_name(papers: Sequence[Paper]) -> str:
    """Folder of the saved index for exactly this corpus and tokenisation."""
    return f"bm25-v{TOKENIZATION}-{corpus_signature(papers)}"


def paper_document(paper: Paper) -> str:
    """What BM25 sees of a paper: its label and title weigh in beside the abstract."""
    return singular_acronyms(" ".join(part for part in (paper.label, paper.title or "", paper.text) if part))


_ACRONYM_PLURAL = re.compile(r"\b([A-Z][A-Za-z0-9]*[A-Z0-9])s\b")


def singular_acronyms(text: str) -> str:
    """"LLMs" -> "LLM" throughout a text: the stemmer keeps "llms" apart from "llm", so BM25 gave "targets LLM
    confidence" to the abstract saying "LLM agent" over the one about the confidence of "LLMs"."""
    return _ACRONYM_PLURAL.sub(r"\1", text)


def singular_acronym(word: str) -> str:
    """"LLMs" -> "LLM", "GPT4s" -> "GPT4"; other words as they are (string tests: this runs on every word)."""
    if len(word) > 2 and word[-1] == "s" and (word[-2].isupper() or word[-2].isdigit()) and word[0].isupper():
        return word[:-1]
    return word


class LexicalIndex:
    """BM25 over one corpus, addressable by paper id."""

    def __init__(self, retriever: bm25s.BM25, paper_ids: list[str]) -> None:
        self._bm25 = retriever
        self.paper_ids = paper_ids
        self._row = {pid: i for i, pid in enumerate(paper_ids)}
        self._term_max = self._per_term_max(retriever)
        self._rarest = float(self._term_max.max()) if self._term_max.size else 0.0

    @classmethod
    def build(cls, papers: Sequence[Paper]) -> LexicalIndex:
        tokens = bm25s.tokenize(
            [paper_document(p) for p in papers], stopwords=list(STOPWORDS), stemmer=_STEMMER, show_progress=False
        )
        retriever = bm25s.BM25()
        retriever.index(tokens, show_progress=False)
        return cls(retriever, [p.id for p in papers])

    @classmethod
    def load_or_build(cls, papers: Sequence[Paper], cache_dir: Path) -> LexicalIndex:
        """Reuse the index saved for exactly this corpus; rebuild (and save) otherwise."""
        folder = Path(cache_dir) / _cache_name(papers)
        ids_file = folder / "paper_ids.json"
        if ids_file.exists():
            try:
                return cls(bm25s.BM25.load(str(folder)), json.loads(ids_file.read_text()))
            except (OSError, ValueError):
                pass  # a damaged cache is rebuilt below
        index = cls.build(papers)
        folder.mkdir(parents=True, exist_ok=True)
        index._bm25.save(str(folder))
        ids_file.write_text(json.dumps(index.paper_ids))
        return index

    @staticmethod
    def remove_stale(cache_dir: Path, papers: Sequence[Paper]) -> None:
        """Delete saved indexes of other corpora or tokenisations (one was left behind per ingest)."""
        keep = _cache_name(papers)
        for folder in Path(cache_dir).glob("bm25-*"):
            if folder.is_dir() and folder.name != keep:
                shutil.rmtree(folder, ignore_errors=True)

    @staticmethod
    def _per_term_max(retriever: bm25s.BM25) -> np.ndarray:
        """Highest score each vocabulary term contributes to any document."""
        data, indptr = retriever.scores["data"], retriever.scores["indptr"]
        out = np.zeros(len(indptr) - 1, dtype=np.float32)
        nonempty = np.diff(indptr) > 0
        if data.size:
            out[nonempty] = np.maximum.reduceat(data, indptr[:-1][nonempty])
        return out

    def query_terms(self, question: str) -> tuple[list[str], int]:
        """Stemmed query tokens known to the corpus vocabulary (stopwords dropped), and how many of its content
        words no abstract has.

        Form words stay: dropping them too re-normalised the scores so that dev q032 quoted a second,
        unrelated paper and its rewordings no longer agreed with it (tests/test_rewordings.py).
        """
        tokenized = bm25s.tokenize([singular_acronyms(question)], stopwords=list(STOPWORDS), stemmer=_STEMMER,
                                   show_progress=False, return_ids=False)
        vocab = self._bm25.vocab_dict
        tokens = list(dict.fromkeys(tokenized[0]))
        return [t for t in tokens if t in vocab], sum(t not in vocab and t not in _FORM_STEMS for t in tokens)

    def scores(self, question: str, unseen_count: bool = False) -> np.ndarray:
        """Normalised BM25 score of every paper, in [0, 1], in ``paper_ids`` order.

        With ``unseen_count`` (a short description of one paper), a content word no abstract has counts in the
        ceiling as the rarest word would: "the songbird recording dataset" is not matched as well as any paper could
        by the one abstract writing "health record", which had scored 1.0 and been compared in the zebra-finch
        dataset's place. (Over whole questions the same count moved paraphrases both ways, and was left out.)
        """
        terms, unseen = self.query_terms(question)
        if not terms:
            return np.zeros(len(self.paper_ids), dtype=np.float32)
        raw = self._bm25.get_scores(terms)
        ceiling = float(sum(self._term_max[self._bm25.vocab_dict[t]] for t in terms))
        ceiling += unseen * self._rarest if unseen_count else 0.0
        return (raw / ceiling).astype(np.float32) if ceiling > 0 else np.zeros_like(raw)

    def row(self, paper_id: str) -> int:
        return self._row[paper_id]


def plain_dashes(text: str) -> str:
    """LaTeX dashes typed in an abstract read as a reader sees them: "attribute--object" (an en dash) is the compound
    "attribute-object" a question writes, and "side---low-rank" (an em dash) two words; as one word each, neither
    ever met a question's word (the seeds' text-to-image and token-position abstracts)."""
    return _TEX_DASH.sub(lambda m: " " if len(m.group()) > 2 else "-", text) if "--" in text else text


_TEX_DASH = re.compile(r"(?<=\w)-{2,3}(?=\w)")


def matched_terms(question: str, text: str) -> list[str]:
    """Words of the question that occur in the text (compared by stem), for display."""
    stems_in_text = {stem(singular_acronym(w)) for w in _WORD.findall(plain_dashes(text))}
    seen: dict[str, None] = {}
    for word in _WORD.findall(question):
        if len(word) > 2 and word.lower() not in STOPWORDS and word.lower() not in FORM_WORDS:
            if stem(singular_acronym(word)) in stems_in_text:
                seen.setdefault(word, None)
    return list(seen)


_WORD_FORM = re.compile(_GROUPED_NUMBER + r"[A-Za-z0-9][A-Za-z0-9&+\-.']*[A-Za-z0-9+]|[A-Za-z0-9]")
_CONTRACTION = re.compile(r"'(?:s|re|ve|ll|d|m|t)$|n't$", re.IGNORECASE)


# British and American spellings of one word: "specialised" / "specialized", "analyse" / "analyze", "behaviour" /
# "behavior", "centre" / "center". The stemmer keeps them apart ("specialis" / "special").
_SPELLINGS = ((re.compile(r"is(e|ed|es|ing|ation|ations|er|ers)$"), r"iz\1"),
              (re.compile(r"iz(e|ed|es|ing|ation|ations|er|ers)$"), r"is\1"),
              (re.compile(r"yse(s|d)?$"), r"yze\1"), (re.compile(r"yze(s|d)?$"), r"yse\1"),
              (re.compile(r"our(s|ed|ing)?$"), r"or\1"), (re.compile(r"tre(s)?$"), r"ter\1"))


SPELLING_MIN = 6  # letters: shorter words ending so are other words ("four", "tour", "rise", "size"; chosen, not tuned)


def spelling_variants(word: str) -> list[str]:
    """The word in the other of British and American spelling, when it has one (for deciding a term is absent: "The
    META-DINO abstract does not mention 'specialised'" had been said while quoting its "highly-specialized")."""
    lower = word.lower()
    if len(lower) < SPELLING_MIN:  # ("four" is no "for", "rise" no "rize")
        return []
    return [variant for pattern, other in _SPELLINGS if (variant := pattern.sub(other, lower)) != lower]


def words(text: str) -> list[str]:
    """The word tokens of a text, as the evidence layer and the word vectors see them ("What's" -> "What")."""
    out = []
    for word in _WORD_FORM.findall(plain_dashes(text.replace("\u2019", "'"))):
        word = (_CONTRACTION.sub("", word) if "'" in word else word).strip(".'")  # (a sub per word: 25% of a cold list)
        if word:
            out.append(word)
    return out


STEM_CACHE = 1 << 17  # word forms remembered: the 50,254-paper corpus has 101,058


@functools.lru_cache(maxsize=STEM_CACHE)
def stem(word: str) -> str:
    """A word's stem, remembered: answers stem the same few thousand words again and again (a cached call costs
    a seventh of Snowball's, the "-us" mend included)."""
    return _STEMMER.stemWord(word.lower())


# The generic words by stem: "models" is as generic as "model".
GENERIC_STEMS = frozenset(stem(w) for w in GENERIC_WORDS)
_FORM_STEMS = frozenset(stem(w) for w in FORM_WORDS)


def content_stems(text: str, compounds: bool = True) -> set[str]:
    """Stems of the non-stopword words of a text, for overlap between question and sentence.

    Hyphenated words count by part ("precision-medicine" meets "medical"), and
    also whole unless ``compounds`` is off: a claim's words are matched by their
    parts, a sentence offers both.
    """
    stems: set[str] = set()
    for word in _WORD.findall(plain_dashes(text)):
        parts = word.split("-") + ([word] if compounds and "-" in word else [])
        stems.update(stem(p) for p in parts if len(p) > 1 and p.lower() not in STOPWORDS)
    return stems


class TermWeights:
    """Inverse document frequency of stems in the corpus, for weighted word overlap.

    Matching "diffusion" or "Sudoku" says far more than matching "method" or
    "propose"; a stem the corpus never uses gets the highest weight.
    """

    def __init__(self, index: LexicalIndex) -> None:
        indptr = index._bm25.scores["indptr"]
        n_docs = float(index._bm25.scores["num_docs"])
        df = np.diff(indptr).astype(np.float64)
        idf = np.log1p((n_docs - df + 0.5) / (df + 0.5))
        self._idf = {token: float(idf[i]) for token, i in index._bm25.vocab_dict.items() if i < len(idf)}
        self._ceiling = max(self._idf.values(), default=1.0)
        self._docs = n_docs

    def __contains__(self, stem: str) -> bool:
        """Whether the corpus uses this stem at all."""
        return stem in self._idf

    def __call__(self, stem: str) -> float:
        return self._idf.get(stem, self._ceiling)

    def at_share(self, share: float) -> float:
        """The weight of a word found in this share of the papers (words above it are rarer)."""
        df = share * self._docs
        return float(np.log1p((self._docs - df + 0.5) / (df + 0.5)))

    def coverage(self, wanted: set[str], have: set[str],
                 related: Mapping[str, Mapping[str, float]] | None = None,
                 held_at: Mapping[str, float] | None = None) -> float:
        """Share of the wanted terms' weight that ``have`` contains.

        With ``related`` (wanted stem -> stems of words close to it, with their similarity),
        a wanted term ``have`` lacks counts at the similarity of its closest related term it holds.
        With ``held_at``, a wanted term held only through a word form far from the wanted word
        (same stem, other meaning) counts at that form's similarity, or a related term's if closer.
        """
        total = sum(self(t) for t in wanted)
        if not total:
            return 0.0
        held_at = held_at or {}
        missing = wanted - have
        if held_at:
            missing |= wanted & held_at.keys()
        found = sum(self(t) for t in wanted if t not in missing)
        if related or held_at:  # in C: a list scores every sentence of ~100 papers
            for t in missing:
                near = related.get(t, {}) if related else {}
                closest = max((near[r] for r in near.keys() & have), default=0.0)
                found += self(t) * max(closest, held_at.get(t, 0.0))
        return found / total
