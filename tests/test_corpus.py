"""Corpus loading: the shipped seed file, JSONL(.gz), CSV, folders, labels and links."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from rag.corpus import CorpusError, Paper, derive_label, find_links, load_corpus, load_path, make_paper

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
SEED_FILE = SEEDS / "000_b6a759deb64a8542.txt"

# The start of each seed abstract, as listed in the evaluation's papers.tsv.
SEED_PREFIXES = {
    "p01": "Cross-skeleton motion generation trains generative models to",
    "p02": "When is it better to rely on information from others rather ",
    "p03": "Cell-free DNA (cfDNA) liquid biopsy has been clinically rout",
    "p04": "Modern large language models (LLMs) often exhibit overconfid",
    "p05": "Automated failure attribution uses LLMs to identify where an",
    "p06": "We study identifiability and estimation of the direct causes",
    "p07": "Reinforcement learning from trajectory-level outcomes has be",
    "p08": "Current Audio-Visual LLMs (AVLLMs) struggle with reasoning o",
    "p09": "We propose a label-free approach to adapt powerful but gener",
    "p10": "Deciding which member of a group produced a vocalization and",
    "p11": "Video Large Language Models (Video-LLMs) have made rapid pro",
    "p12": "Token merging has emerged as an effective training-free stra",
    "p13": "Direct Preference Optimization (DPO) has become a standard m",
    "p14": "Self-supervised learning on 3D medical images commonly relie",
    "p15": "Text-to-image diffusion models fail on semantically rare att",
    "p16": "A central yet underexplored question in Multimodal Large Lan",
    "p17": "Probabilistic neurosymbolic methods rely on weighted model c",
    "p18": "Fine-tuning large transformers routes gradients through ever",
    "p19": "Tabular foundation models are used as off-the-shelf predicto",
}

# Labels a human would pick for papers that name their contribution (alternatives allowed).
NAMED_LABELS = {
    "p01": {"SIF", "Source-Instance Fidelity"},
    "p02": {"SSL", "Selective Social Learning"},
    "p04": {"CoCHI"},
    "p05": {"Who&When Pro"},
    "p06": {"IndRM"},
    "p07": {"RISE"},
    "p09": {"META-DINO"},
    "p10": {"V33DA"},
    "p11": {"DeltaDirect", "MODIRECT"},
    "p12": {"DaTMe"},
    "p14": {"VolumeProbe"},
    "p16": {"DGP"},
    "p18": {"Token Hypothesis"},
}


@pytest.fixture(scope="module")
def seed_papers() -> dict[str, Paper]:
    return {paper.id: paper for paper in load_path(SEED_FILE)}


def write_jsonl(path: Path, records: list[object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


RECORDS = [
    {
        "id": "bert",
        "title": "BERT: Pre-training of Deep Bidirectional Transformers",
        "abstract": "We introduce a new language representation model called BERT.",
        "year": 2019,
        "venue": "NAACL",
        "url": "https://aclanthology.org/N19-1423/",
        "status": "Oral",
    },
    {"title": "Attention Is All You Need", "abstract": "  The dominant sequence transduction models are recurrent.  "},
]


# --------------------------------------------------------------------------- seed file


def test_seed_file_has_19_papers_in_file_order(seed_papers: dict[str, Paper]) -> None:
    assert list(seed_papers) == [f"p{n:02d}" for n in range(1, 20)]
    for paper_id, prefix in SEED_PREFIXES.items():
        assert seed_papers[paper_id].text.startswith(prefix), paper_id


def test_seed_text_is_the_paragraph_verbatim(seed_papers: dict[str, Paper]) -> None:
    raw = SEED_FILE.read_text(encoding="utf-8")
    for paper in seed_papers.values():
        assert paper.text == paper.text.strip()
        assert f"\n{paper.text}\n" in f"\n{raw}\n"
        assert paper.title is None and paper.url is None
        # header -> filters
        assert paper.meta == {"collection": "NeurIPS 2026 Papers", "venue": "NeurIPS", "year": 2026}
    assert seed_papers["p01"].text.endswith("[Project page](https://keen-semolina-09811d.netlify.app/).")


def test_seeds_folder_loads_the_seed_file() -> None:
    assert load_corpus([SEEDS]) == load_path(SEED_FILE)


@pytest.mark.parametrize("paper_id", sorted(NAMED_LABELS))
def test_seed_label_is_the_introduced_name(seed_papers: dict[str, Paper], paper_id: str) -> None:
    assert seed_papers[paper_id].label in NAMED_LABELS[paper_id]


def test_seed_labels_are_short_distinct_and_descriptive(seed_papers: dict[str, Paper]) -> None:
    labels = [paper.label for paper in seed_papers.values()]
    assert all(label.strip() for label in labels)
    assert len(set(labels)) == len(labels)
    assert all(len(label.split()) <= 6 for label in labels)
    # Papers without a crisp name get words of their topic, not an acronym from the first sentence.
    assert "cfDNA" not in seed_papers["p03"].label and "DNA" in seed_papers["p03"].label
    assert "DPO" in seed_papers["p13"].label and "curation" in seed_papers["p13"].label
    assert "diffusion" in seed_papers["p15"].label.lower()
    assert "neurosymbolic" in seed_papers["p17"].label.lower()
    assert "tabular" in seed_papers["p19"].label.lower()


def test_seed_links(seed_papers: dict[str, Paper]) -> None:
    assert seed_papers["p01"].links == ("https://keen-semolina-09811d.netlify.app/",)
    assert seed_papers["p07"].links == ("https://anonymous.4open.science/status/RISE-C0F0",)
    assert seed_papers["p02"].links == ()


def test_seed_ids_widen_past_99_paragraphs(tmp_path: Path) -> None:
    seed = tmp_path / "big.txt"
    seed.write_text("Header\n\n" + "\n\n".join(f"Abstract number {n}." for n in range(1, 101)), encoding="utf-8")
    ids = [paper.id for paper in load_path(seed)]
    assert ids[0] == "p001" and ids[-1] == "p100" and len(ids) == 100


# --------------------------------------------------------------------------- JSONL and CSV


def test_jsonl_fields_meta_and_derived_id(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_text(json.dumps(RECORDS[0]) + "\n\n   \n" + json.dumps(RECORDS[1]) + "\n", encoding="utf-8")
    bert, attention = load_path(path)
    assert (bert.id, bert.label, bert.url) == ("bert", "BERT", "https://aclanthology.org/N19-1423/")
    assert bert.title == RECORDS[0]["title"]
    assert bert.meta == {"year": 2019, "venue": "NAACL", "status": "Oral"}
    assert attention.text == "The dominant sequence transduction models are recurrent."
    assert attention.id == f"doc-{attention.content_hash[:8]}"
    assert attention.label == "Attention Is All You Need"
    assert attention.url is None and attention.links == ()


def test_jsonl_gz_loads_like_jsonl(tmp_path: Path) -> None:
    plain = write_jsonl(tmp_path / "a.jsonl", RECORDS)
    packed = tmp_path / "b.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert load_path(packed) == load_path(plain)


@pytest.mark.parametrize(
    ("third_line", "complaint"),
    [
        ('{"title": "x", "abstract": ', "invalid JSON"),
        ('["not", "an", "object"]', "JSON object"),
        ('{"title": "No abstract"}', "abstract"),
        ('{"title": "Blank", "abstract": "   "}', "abstract"),
        ('{"abstract": 42}', "string"),
    ],
)
def test_malformed_jsonl_line_names_file_and_line(tmp_path: Path, third_line: str, complaint: str) -> None:
    path = tmp_path / "broken.jsonl"
    lines = [json.dumps(RECORDS[0]), json.dumps(RECORDS[1]), third_line]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=complaint) as caught:
        load_path(path)
    assert "broken.jsonl:3:" in str(caught.value)
    assert caught.value.line == 3


def test_csv_with_header_quotes_and_year(tmp_path: Path) -> None:
    path = tmp_path / "papers.csv"
    path.write_text(
        "ID,Title,Abstract,Year,Venue\n"
        'c1,"Deep Sets","We study functions on sets,\nacross two lines.",2017,NeurIPS\n'
        "c2,,We propose XNet-7 for ranking.,,\n",
        encoding="utf-8",
    )
    deep_sets, xnet = load_path(path)
    assert deep_sets.id == "c1" and deep_sets.label == "Deep Sets"
    assert deep_sets.text == "We study functions on sets,\nacross two lines."
    assert deep_sets.meta == {"year": 2017, "venue": "NeurIPS"}
    assert xnet.title is None and xnet.label == "XNet-7" and xnet.meta == {}


def test_csv_without_abstract_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("title,summary\nA,B\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=r"bad\.csv:1: .*abstract"):
        load_path(path)


def test_csv_row_with_empty_abstract_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "gap.csv"
    path.write_text("title,abstract\nA,Some text.\nB,\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=r"gap\.csv:3: .*abstract"):
        load_path(path)


# --------------------------------------------------------------------------- folders and documents


def test_folder_of_documents_recurses_in_path_order(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    (folder / "sub").mkdir(parents=True)
    (folder / "b.md").write_text("# GraphNet: Graphs for All\n\nWe propose GraphNet.\n", encoding="utf-8")
    (folder / "a.txt").write_text("A single abstract about kernels.\n", encoding="utf-8")
    write_jsonl(folder / "sub" / "c.jsonl", RECORDS[:1])
    (folder / "notes.pdf").write_bytes(b"%PDF")  # not a corpus file: skipped inside folders
    (folder / ".hidden.md").write_text("ignored", encoding="utf-8")
    papers = load_corpus([folder])
    assert [p.id for p in papers] == ["a", "b", "bert"]
    graph = papers[1]
    assert graph.title == "GraphNet: Graphs for All" and graph.label == "GraphNet"
    assert graph.text == "We propose GraphNet."
    assert papers[0].title is None and papers[0].text == "A single abstract about kernels."


def test_txt_with_header_and_one_paragraph_is_a_document(tmp_path: Path) -> None:
    path = tmp_path / "note.txt"
    path.write_text("Short first line\n\nOnly one paragraph follows.\n", encoding="utf-8")
    (paper,) = load_path(path)
    assert paper.id == "note"
    assert paper.text == "Short first line\n\nOnly one paragraph follows."


def test_duplicate_ids_across_files_name_both_sources(tmp_path: Path) -> None:
    first = write_jsonl(tmp_path / "one.jsonl", RECORDS[:1])
    second = write_jsonl(tmp_path / "two.jsonl", [{**RECORDS[0], "title": "Another"}])
    with pytest.raises(CorpusError, match="duplicate paper id 'bert'") as caught:
        load_corpus([first, second])
    assert "one.jsonl:1" in str(caught.value) and "two.jsonl:1" in str(caught.value)


def test_a_file_named_twice_is_read_once(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "one.jsonl", RECORDS)
    assert load_corpus([tmp_path, path]) == load_path(path)


def test_shared_labels_get_the_id_appended(tmp_path: Path) -> None:
    records = [
        {"id": "x1", "title": "BERT: One", "abstract": "First."},
        {"id": "x2", "title": "BERT: Two", "abstract": "Second."},
        {"id": "x3", "title": "RoBERTa: Three", "abstract": "Third."},
    ]
    labels = [p.label for p in load_path(write_jsonl(tmp_path / "dup.jsonl", records))]
    assert labels == ["BERT (x1)", "BERT (x2)", "RoBERTa"]


# --------------------------------------------------------------------------- errors


def test_unknown_extension(tmp_path: Path) -> None:
    path = tmp_path / "papers.xml"
    path.write_text("<papers/>", encoding="utf-8")
    with pytest.raises(CorpusError, match=r"papers\.xml: unknown file type"):
        load_corpus([path])


def test_non_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin.jsonl"
    path.write_bytes(b'{"abstract": "ok"}\n{"abstract": "caf\xe9"}\n')
    with pytest.raises(CorpusError, match=r"latin\.jsonl:2: not UTF-8"):
        load_path(path)


@pytest.mark.parametrize("name", ["empty.txt", "empty.jsonl", "empty.csv", "empty.md"])
def test_empty_file(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("\n  \n", encoding="utf-8")
    with pytest.raises(CorpusError, match="empty"):
        load_path(path)


def test_csv_with_header_only_has_no_papers(tmp_path: Path) -> None:
    path = tmp_path / "header.csv"
    path.write_text("title,abstract\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="no papers"):
        load_path(path)


def test_missing_path_and_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="no such file"):
        load_corpus([tmp_path / "nope.jsonl"])
    with pytest.raises(CorpusError, match="no corpus files"):
        load_corpus([tmp_path])


def test_corrupt_gzip(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl.gz"
    path.write_bytes(b"not gzip at all")
    with pytest.raises(CorpusError, match=r"bad\.jsonl\.gz: cannot read"):
        load_path(path)


# --------------------------------------------------------------------------- hashes, links, labels


def test_content_hash_is_stable_and_tracks_text_and_title() -> None:
    base = make_paper("Some abstract.", title="T")
    assert make_paper("  Some abstract.\n", title="T").content_hash == base.content_hash
    assert make_paper("Some abstract!", title="T").content_hash != base.content_hash
    assert make_paper("Some abstract.", title="U").content_hash != base.content_hash
    assert len(base.content_hash) == 16 and int(base.content_hash, 16) >= 0


def test_content_hash_is_stable_across_loads(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "p.jsonl", RECORDS)
    before = [p.content_hash for p in load_path(path)]
    assert [p.content_hash for p in load_path(path)] == before
    write_jsonl(path, [RECORDS[0], {**RECORDS[1], "abstract": "Changed."}])
    after = [p.content_hash for p in load_path(path)]
    assert after[0] == before[0] and after[1] != before[1]


def test_find_links_strips_punctuation_and_dedupes() -> None:
    text = (
        "Code: https://github.com/a/b. See [site](https://x.org/p_(q)) and (https://y.org/z), "
        "again https://github.com/a/b; also \\url{https://u.org/v}"
    )
    assert find_links(text) == (
        "https://github.com/a/b",
        "https://x.org/p_(q)",
        "https://y.org/z",
        "https://u.org/v",
    )


@pytest.mark.parametrize(
    ("text", "title", "label"),
    [
        ("Anything.", "BERT: Pre-training of Deep Bidirectional Transformers", "BERT"),
        ("Anything.", "One Two Three Four Five Six Seven Eight Nine Ten", "One Two Three Four Five Six Seven Eight…"),
        ("We propose \\emph{Sparse Mixture Routing} (SMR), a router.", None, "SMR"),
        ("We propose **F**ast **A**ttention (*FA*), a kernel.", None, "FA"),
        ("Prior work is slow. Our framework, QuickX, is fast.", None, "QuickX"),
        ("Pixels are costly. We present iGPT-2, a small model.", None, "iGPT-2"),
        ("Graphs are hard. We close this gap with G2Bench, a benchmark.", None, "G2Bench"),
        ("Large language models (LLMs) are popular. We propose a simple method.", None, "Large language models"),
        ("This paper studies robust clustering under noise.", None, "Robust clustering"),
    ],
)
def test_derive_label(text: str, title: str | None, label: str) -> None:
    assert derive_label(text, title) == label
