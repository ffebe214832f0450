"""Papers: parsing the shipped seed file and users' own corpora.

Formats, chosen by file name:

* ``*.txt`` **seed collection** -- a header line, a blank line, then one abstract per
  paragraph (paragraphs are separated by blank lines). Papers get the ids ``p01``,
  ``p02``, ... in file order (wider when there are more than 99).
* ``*.txt`` / ``*.md`` **single document** -- one paper whose id is the file stem and whose
  title is a markdown heading (``# Title``) on the first line, if there is one.

  Rule telling the two apart: a ``.txt`` file is a seed collection when its first paragraph
  is one line of at most 100 characters that is not a markdown heading *and* at least two
  paragraphs follow it. Every other ``.txt`` file, and every ``.md`` file, is one document.
* ``*.jsonl`` / ``*.jsonl.gz`` -- one JSON object per line with ``abstract`` (required) and
  optionally ``title``, ``id`` and ``url``; every other field (``year``, ``venue``,
  ``status``, ...) goes to ``Paper.meta``. Blank lines are skipped. Without an ``id`` the
  paper gets ``doc-<8 hex of its content hash>``.
* ``*.csv`` -- a header row with an ``abstract`` column and the same optional columns.
* a **folder** -- every file of the kinds above inside it, recursively, sorted by path
  (hidden files and folders are skipped).

Paper text is kept exactly as in the file apart from stripping surrounding whitespace,
because sentence offsets are later computed on ``Paper.text``.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .chunking import split_sentences


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


SUFFIXES = (".jsonl.gz", ".jsonl", ".csv", ".txt", ".md")
RECORD_FIELDS = frozenset({"id", "title", "abstract", "url"})
SEED_HEADER_MAX_CHARS = 100

# A loader turns a file's decoded text into (line number or None, Paper) pairs.
Loader = Callable[[Path, str], Iterator[tuple[int | None, Paper]]]


# --------------------------------------------------------------------------- public API


def load_corpus(paths: Sequence[Path | str] | Path | str) -> list[Paper]:
    """Load every file or folder, in the order given, into one list with unique ids.

    A file named twice (say ``seeds/`` and a file inside it) is read once. Two papers with
    the same id raise a CorpusError naming both sources. Labels are made distinct.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    files: dict[Path, Path] = {}  # resolved -> as given; the first mention wins
    for path in paths:
        for file in _expand(Path(path)):
            files.setdefault(file.resolve(), file)
    return _load_files(list(files.values()))


def load_path(path: Path | str) -> list[Paper]:
    """Load one file (format chosen by its name) or one folder of such files."""
    return _load_files(_expand(Path(path)))


def make_paper(
    text: str,
    *,
    id: str | None = None,
    title: str | None = None,
    url: str | None = None,
    meta: Mapping[str, str | int | float] | None = None,
) -> Paper:
    """Build a Paper, deriving its label, links and content hash from the text."""
    text = text.strip()
    title = title.strip() if title and title.strip() else None
    digest = content_hash(text, title)
    return Paper(
        id=id or f"doc-{digest[:8]}",
        label=derive_label(text, title),
        text=text,
        title=title,
        url=url or None,
        links=find_links(text),
        meta=dict(meta or {}),
        content_hash=digest,
    )


def content_hash(text: str, title: str | None = None) -> str:
    """Fingerprint of what gets indexed, so the indexer can spot changed papers."""
    payload = f"{title or ''}\n\n{text.strip()}".encode()
    return hashlib.sha256(payload).hexdigest()[:16]


# --------------------------------------------------------------------------- links

_URL = re.compile(r"https?://\w[^\s<>\"'\[\]{}|\\^`]*")
_URL_TRAILING = ".,;:!?*'\")"


def find_links(text: str) -> tuple[str, ...]:
    """URLs in the text (bare or as markdown link targets), deduplicated in order."""
    return tuple(dict.fromkeys(_trim_url(m.group()) for m in _URL.finditer(text)))


def without_links(text: str) -> str:
    """The text with its URLs blanked: the words of a link ("www.dgp.toronto.edu") are no prose."""
    return _URL.sub(" ", text)


def _trim_url(url: str) -> str:
    """Drop sentence punctuation and an unbalanced closing parenthesis from a URL's end."""
    while url[-1] in _URL_TRAILING:
        if url[-1] == ")" and url.count("(") >= url.count(")"):
            break
        url = url[:-1]
    return url


# --------------------------------------------------------------------------- labels

_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+\{([^{}]*)\}")
_MATH = re.compile(r"\$[^$]*\$")
_PARENTHETICAL = re.compile(r"\s*\([^()]*\)")

# A word of a name: starts with a capital or digit (CoCHI, V33DA, Who&When, LLaVA-1.5),
# or is lower-case with a capital or digit inside (iGPT, word2vec).
_NAME_WORD = r"(?:[A-Z0-9][\w&+\-]*|[a-z]+[A-Z0-9][\w&+\-]*)(?:\.\d[\w&+\-]*)*"
_NAME = (
    rf"(?P<name>{_NAME_WORD}(?:\s+(?:(?:of|for|via)\s+)?{_NAME_WORD}){{0,5}})"
    r"(?:\s*\((?P<paren>[^()]{1,80})\))?"
)
# Phrases after which a paper introduces its own contribution by name.
# The leading lookaheads only let the scan skip fast to plausible first letters.
_INTRODUCTION = re.compile(
    r"(?=[WwCcNnDdTtOo])(?i:\bwe\s+(?:\w+ly\s+)?"
    r"(?:propose|introduce|present|develop|design|release|call|term|name|dub|coin|build|construct|curate)\s+"
    r"|\b(?:called|named|dubbed|termed)\s+"
    r"|\bwe\s+(?:address|close|fill|bridge|tackle)\s+(?:this|the|these|that)\s+\w+\s+"
    r"(?:with|by|via|through)\s+(?:introducing\s+|proposing\s+)?"
    r"|\bour\s+(?:[\w-]+\s+){0,2}?"
    r"(?:method|framework|model|approach|benchmark|dataset|algorithm|system|tool|pipeline),?\s+)"
    r"(?:(?i:the|a|an|our)\s+)?(?:(?i:new|novel)\s+)?" + _NAME
)
# "We study X" / "This paper investigates X": X names the topic when nothing is introduced.
_STUDY = re.compile(
    r"(?=[WwTt])(?i:\b(?:this\s+(?:paper|work|study)|we)\s+(?:\w+ly\s+)?"
    r"(?:stud(?:y|ies)|investigates?|examines?|analy[sz]es?|revisits?|explores?|characteri[sz]es?)\s+)"
    r"(?P<topic>[^,.;:()]+)"
)

_FUNCTION_WORDS = frozenset(
    "a about across after an and as at between but by for from how if in into it its of on or "
    "our over since than that the their these this those through to under upon using via we what "
    "when where whether which while who why with within without".split()
)
_FILLER = frozenset(
    "a an current currently existing here however in many modern most new novel paper recent recently "
    "some the this today we work".split()
)
_ADVERBS = frozenset("also commonly frequently generally increasingly now often still typically usually widely".split())
_VERBS = frozenset(
    "achieve achieves address addresses aim aims allow allows analyze analyzes are be become becomes "
    "been can consider considers continue continues could deal deals demonstrate demonstrates describe "
    "describes develop develops did discuss discusses do does emerged enable enables exhibit exhibits "
    "explore explores face faces fail fails focus focuses had has have hold holds introduce introduces "
    "investigate investigates is lack lacks learn learns make makes may might must offer offers "
    "perform performs play plays pose poses present presents produce produces propose proposes "
    "provide provides rely relies remain remains represent represents require requires seek seeks "
    "should show shows struggle struggles study studies suffer suffers train trains use uses was "
    "were will would".split()
)
_BREAK_WORDS = _FUNCTION_WORDS | _FILLER | _ADVERBS | _VERBS  # words that end a noun phrase
_PUNCTUATION = ",;:.!?\"'“”‘’"
_LABEL_MAX_WORDS = 6
_TITLE_MAX_WORDS = 8


def unmarked(text: str) -> str:
    """The text without LaTeX or markdown emphasis around its words ("\\emph{Source-Instance Fidelity} (SIF)",
    "*approximate compilation*"): what it names and defines reads as plain words."""
    return _LATEX_COMMAND.sub(r"\1", text).replace("*", "")


def derive_label(text: str, title: str | None = None) -> str:
    """A short human label: the name a paper gives its contribution, else its topic.

    With a title: the part before a colon when short ("BERT: Pre-training..." -> "BERT"),
    else the title cut to eight words. Without one, in order: a name the abstract
    introduces ("we propose X", "X (ACRO)" -> "ACRO", "our method, X,", "we close this gap
    with X"), the topic of "we study X", then the subject of the first sentence.
    """
    if title and title.strip():
        return _title_label(title.strip())
    plain = unmarked(text)
    name = _introduced_name(plain)
    if name:
        return name
    topic = _studied_topic(plain) or _first_sentence_topic(plain)
    return topic[:1].upper() + topic[1:]


def _title_label(title: str) -> str:
    head, colon, _ = title.partition(":")
    if colon and head.strip() and len(head.split()) <= 5:
        return head.strip()
    words = title.split()
    return " ".join(words[:_TITLE_MAX_WORDS]) + ("…" if len(words) > _TITLE_MAX_WORDS else "")


def _introduced_name(text: str) -> str | None:
    for match in _INTRODUCTION.finditer(text):
        name, paren = match["name"], match["paren"]
        if paren and _is_acronym(paren) and " " in name:
            return paren
        if " " in name or _is_acronym(name) or re.search(r"\d|&", name):
            return name
    return None


def _is_acronym(word: str) -> bool:
    """Short single token with two or more capitals (SSL, IndRM, DaTMe, META-DINO, iGPT)."""
    return " " not in word and len(word) <= 20 and sum(c.isupper() for c in word) >= 2


def _studied_topic(text: str) -> str | None:
    for match in _STUDY.finditer(text):
        words = match["topic"].split()
        topic = next(_noun_phrases(words), None)
        if topic and words[0].lower() not in _BREAK_WORDS:
            return topic
    return None


def _first_sentence_topic(text: str) -> str:
    """The first multi-word noun phrase of the first sentence (its subject, usually)."""
    sentence = next((s.text for s in split_sentences(text)), "")
    words = _PARENTHETICAL.sub("", _MATH.sub("", sentence)).split()
    phrases = list(_noun_phrases(words))
    phrase = next((p for p in phrases if " " in p), None) or next(iter(phrases), None)
    return phrase or " ".join(text.split()[:_LABEL_MAX_WORDS])


def _noun_phrases(words: list[str]) -> Iterator[str]:
    """Runs of words between verbs, adverbs, function words and punctuation: rough noun phrases."""
    run: list[str] = []
    for word in words:
        bare = word.strip(_PUNCTUATION)
        breaks = not bare or bare.lower() in _BREAK_WORDS
        if not breaks:
            run.append(bare)
        if run and (breaks or bare != word or len(run) == _LABEL_MAX_WORDS):
            yield " ".join(run)
            run = []
    if run:
        yield " ".join(run)


def _distinct_labels(papers: list[Paper]) -> list[Paper]:
    """Labels that name one paper each: an acronym label other abstracts use too is spelled out, then any label
    still shared by several papers gets the paper's id appended."""
    papers = _spelled_out(papers)
    counts = Counter(paper.label for paper in papers)
    return [replace(p, label=f"{p.label} ({p.id})") if counts[p.label] > 1 else p for p in papers]


def _spelled_out(papers: list[Paper]) -> list[Paper]:
    """"SSL" (Selective Social Learning) becomes its long form when another abstract says "SSL" too
    (self-supervised learning): an acronym label is only unambiguous if no other paper uses it."""
    acronyms = {p.label for p in papers if _ACRONYM_LABEL.fullmatch(p.label)}
    if not acronyms:
        return papers
    users = Counter(token for p in papers for token in set(_ACRONYM_TOKEN.findall(p.text)) & acronyms)
    out = []
    for paper in papers:
        long = _long_form(paper.text, paper.label) if users[paper.label] > 1 else ""
        out.append(replace(paper, label=long) if long else paper)
    return out


def _long_form(text: str, acronym: str) -> str:
    """The words the abstract spells its acronym out with: "Selective Social Learning (SSL)"."""
    letters = [c for c in acronym if c.isupper()]
    match = re.search(rf"((?:[\w-]+\s+){{{len(letters)}}})\(\s*{re.escape(acronym)}\s*\)", text)
    if not match:
        return ""
    words = match.group(1).split()
    return " ".join(words) if [w[0].upper() for w in words] == letters else ""


# --------------------------------------------------------------------------- files


def _expand(path: Path) -> list[Path]:
    """The corpus files a path stands for: itself, or the known files under a folder."""
    if path.is_dir():
        files = sorted(
            p
            for p in path.rglob("*")
            if p.is_file()
            and _format(p) is not None
            and not any(part.startswith(".") for part in p.relative_to(path).parts)
        )
        if not files:
            raise CorpusError(path, f"folder holds no corpus files ({', '.join(SUFFIXES)})")
        return files
    if not path.exists():
        raise CorpusError(path, "no such file or folder")
    return [path]


def _format(path: Path) -> str | None:
    name = path.name.lower()
    return next((suffix for suffix in SUFFIXES if name.endswith(suffix)), None)


def _load_files(files: list[Path]) -> list[Paper]:
    papers: list[Paper] = []
    sources: dict[str, str] = {}
    for file in files:
        for line, paper in _load_file(file):
            where = f"{file}:{line}" if line is not None else str(file)
            if paper.id in sources:
                raise CorpusError(file, f"duplicate paper id {paper.id!r} (also in {sources[paper.id]})", line)
            sources[paper.id] = where
            papers.append(paper)
    return _distinct_labels(papers)


def _load_file(path: Path) -> list[tuple[int | None, Paper]]:
    fmt = _format(path)
    if fmt is None:
        raise CorpusError(path, f"unknown file type (expected {', '.join(SUFFIXES)})")
    text = _read_text(path, gzipped=fmt == ".jsonl.gz")
    if not text.strip():
        raise CorpusError(path, "file is empty")
    records = list(_LOADERS[fmt](path, text))
    if not records:
        raise CorpusError(path, "no papers found")
    return records


def _read_text(path: Path, gzipped: bool = False) -> str:
    """Decode a whole file as UTF-8 (BOM allowed) with ``\\n`` line ends."""
    try:
        data = path.read_bytes()
        if gzipped:
            data = gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:
        raise CorpusError(path, f"cannot read: {exc}") from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CorpusError(path, "not UTF-8 text", line=data.count(b"\n", 0, exc.start) + 1) from exc
    return text.replace("\r\n", "\n").replace("\r", "\n")


# --------------------------------------------------------------------------- text files

_ACRONYM_LABEL = re.compile(r"[A-Z][A-Za-z]*[A-Z][A-Za-z]*")  # "SSL", "DiT": letters only, two capitals or more
_ACRONYM_TOKEN = re.compile(r"(?<![\w-])[A-Z][A-Za-z]*[A-Z][A-Za-z]*(?![\w-])")
_BLANK_LINE = re.compile(r"\n[ \t]*\n\s*")
_HEADING = re.compile(r"#\s+(.+)")


def _load_txt(path: Path, text: str) -> Iterator[tuple[int | None, Paper]]:
    paragraphs = [p.strip() for p in _BLANK_LINE.split(text.strip()) if p.strip()]
    header, abstracts = paragraphs[0], paragraphs[1:]
    is_seed = "\n" not in header and len(header) <= SEED_HEADER_MAX_CHARS and not header.startswith("#")
    if not (is_seed and len(abstracts) >= 2):
        return _load_document(path, text)
    return _seed_papers(header, abstracts)


def _seed_papers(header: str, abstracts: list[str]) -> Iterator[tuple[int | None, Paper]]:
    width = max(2, len(str(len(abstracts))))
    meta = {"collection": header, **seed_venue_year(header)}
    for number, abstract in enumerate(abstracts, start=1):
        yield None, make_paper(abstract, id=f"p{number:0{width}d}", meta=meta)


_SEED_HEADER = re.compile(r"(?P<venue>.+?)\s+(?P<year>(?:19|20|21)\d\d)(?:\s+(?:papers|proceedings|abstracts))?",
                          re.IGNORECASE)


def seed_venue_year(header: str) -> dict[str, str | int]:
    """Venue and year from a seed header like "NeurIPS 2026 Papers", so seeds can be filtered like JSONL records."""
    match = _SEED_HEADER.fullmatch(header.strip())
    return {"venue": match.group("venue"), "year": int(match.group("year"))} if match else {}


def _load_document(path: Path, text: str) -> Iterator[tuple[int | None, Paper]]:
    body, title = text.strip(), None
    first_line, _, rest = body.partition("\n")
    heading = _HEADING.fullmatch(first_line.strip())
    if heading:
        title, body = heading.group(1).strip(), rest.strip()
    if not body:
        raise CorpusError(path, "document has no text besides its title")
    yield None, make_paper(body, id=path.stem, title=title)


# --------------------------------------------------------------------------- records


def _load_jsonl(path: Path, text: str) -> Iterator[tuple[int | None, Paper]]:
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CorpusError(path, f"invalid JSON: {exc.msg} (column {exc.colno})", number) from exc
        if not isinstance(record, dict):
            raise CorpusError(path, f"expected a JSON object, got {type(record).__name__}", number)
        yield number, _paper_from_record(record, path, number)


def _load_csv(path: Path, text: str) -> Iterator[tuple[int | None, Paper]]:
    reader = csv.DictReader(io.StringIO(text))
    try:
        reader.fieldnames = [name.strip().lower() for name in reader.fieldnames or []]
        if "abstract" not in reader.fieldnames:
            raise CorpusError(path, "header row has no 'abstract' column", 1)
        for row in reader:
            if None in row:
                raise CorpusError(path, "row has more fields than the header", reader.line_num)
            yield reader.line_num, _paper_from_record(row, path, reader.line_num)
    except csv.Error as exc:
        raise CorpusError(path, f"bad CSV: {exc}", reader.line_num) from exc


def _paper_from_record(record: Mapping[str, object], path: Path, line: int) -> Paper:
    """A Paper from one JSONL object or CSV row; unknown fields become metadata."""
    abstract = _string_field(record, "abstract", path, line)
    if not abstract:
        raise CorpusError(path, "missing or empty 'abstract'", line)
    raw_id = record.get("id")
    if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int, type(None))):
        raise CorpusError(path, "'id' must be a string or an integer", line)
    meta = {
        key: _meta_value(key, value)
        for key, value in record.items()
        if key not in RECORD_FIELDS and value is not None and value != ""
    }
    return make_paper(
        abstract,
        id=str(raw_id).strip() if raw_id not in (None, "") else None,
        title=_string_field(record, "title", path, line),
        url=_string_field(record, "url", path, line),
        meta=meta,
    )


def _string_field(record: Mapping[str, object], key: str, path: Path, line: int) -> str | None:
    value = record.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise CorpusError(path, f"{key!r} must be a string", line)
    return value.strip() or None


def _meta_value(key: str, value: object) -> str | int | float:
    """Keep scalars (a CSV year becomes a number); nested JSON is stored as JSON text."""
    if key == "year" and isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, (str, int, float)):
        return value
    return json.dumps(value, ensure_ascii=False)


_LOADERS: dict[str, Loader] = {
    ".jsonl.gz": _load_jsonl,
    ".jsonl": _load_jsonl,
    ".csv": _load_csv,
    ".txt": _load_txt,
    ".md": _load_document,
}
