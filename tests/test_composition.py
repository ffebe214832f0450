"""Answer composition over a small hand-written corpus: quotes, refusals, comparisons, lists, support.

The corpus (tests/data/mini_corpus.jsonl, ids m1..m7) has seven abstracts with coined
method names, figures and enumerations written for these tests:

=====  =================  ===========================================================
m1     GlowNet            240 frames per second; mean absolute error of 3.1
m2     RiverSense         drifting nitrate capsules, a graph neural network; no figures
m3     TideFormer         "three benchmarks: CoastBench, HarborSet, and EstuaryQA"; 18%
m4     LoomQA             "across three benchmarks" (announced, never named)
m5     MoleGraph          graph neural network; 41,000 experiments; R2 of 0.87
m6     PathRoute          graph neural network; 500 stops; 7%
m7     Beehive acoustics  hive sounds, microphones; no figures
=====  =================  ===========================================================

Exactly three abstracts (m2, m5, m6) use a graph neural network; m4 mentions a "grid
graph" and m2 a "river network" as near misses. The Assistant reuses the session's
embedding model (``seed_embedder``); everything else is built here. Questions are
phrased for these tests, not taken from the dev set.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from answer_checks import assert_citations_valid, cited_ids, markers, number_of

from rag.assistant import Answer, Assistant
from rag.chunking import Sentence
from rag.citations import SUPPORT_THRESHOLD, answer_sentences, score_support
from rag.corpus import make_paper
from rag.extractive import IN_RESULT
from rag.gather import _described_papers, _with_paper_prior
from rag.generation import Message
from rag.questions import plan_question
from rag.retrieval import Scored
from rag.types import Evidence, Source

MINI_CORPUS = Path(__file__).resolve().parent / "data" / "mini_corpus.jsonl"
PARAGRAPH_HEAD = re.compile(r"^(?:\d+\.\s*)?\*\*(?P<label>[^*]+)\*\* \((?P<id>[\w.-]+)\):\s*")
GNN_PAPERS = {"m2", "m5", "m6"}


# --------------------------------------------------------------------------- fixtures and helpers


@pytest.fixture(scope="module")
def mini(mini_assistant) -> Assistant:
    """Extractive Assistant over the seven hand-written abstracts (built once in conftest)."""
    return mini_assistant


@pytest.fixture
def mini_llm(mini, make_settings, openai_server):
    """The mini corpus answered through the fake OpenAI-compatible server with ``model``."""

    def build(model: str) -> Assistant:
        settings = make_settings(data_dir=mini.settings.data_dir, llm_base_url=openai_server.base_url,
                                 llm_model=model, llm_max_retries=0, llm_timeout=30.0)
        return Assistant(settings, mini.papers, mini.embedder, mini.store, mini.retriever.lexical)

    return build


def claims(text: str) -> list[str]:
    """Sentences of an answer (paragraphs and list items split at sentence ends)."""
    return [s for line in text.splitlines() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z*])", line) if s.strip()]


def first_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]


def quoted(sentence: str) -> str:
    """The abstract text of an answer sentence: without a "**Label** (id):" lead and markers."""
    bare = PARAGRAPH_HEAD.sub("", sentence.strip())
    return re.sub(r" \[\d+\]", "", bare).strip()


def sentence_holding(answer: Answer, needle: str) -> str:
    hits = [s for s in claims(answer.text) if needle in s]
    assert hits, f"{needle!r} not in {answer.text!r}"
    return hits[0]


def paper_text(mini: Assistant, paper_id: str) -> str:
    return mini.by_id[paper_id].text


def paragraphs(text: str) -> list[tuple[str, str]]:
    """(paper id, body) of every "**Label** (id): ..." paragraph or list item, in order."""
    out = []
    for block in re.split(r"\n+", text):
        head = PARAGRAPH_HEAD.match(block)
        if head:
            out.append((head["id"], block[head.end():]))
    return out


# --------------------------------------------------------------------------- fact answers


@pytest.mark.parametrize(("question", "paper_id", "figure"), [
    ("How many frames per second can GlowNet process?", "m1", "240"),
    ("By how much does TideFormer cut the peak surge error?", "m3", "18%"),
    ("How many experiments was MoleGraph trained on?", "m5", "41,000"),
    ("How many stops are in the city-scale delivery instances?", "m6", "500"),  # no name given
])
def test_fact_answer_quotes_the_sentence_with_the_asked_number(mini, question, paper_id, figure) -> None:
    answer = mini.answer(question)
    assert answer.mode == "extractive" and not answer.refused
    assert answer.kind == "fact" and answer.plan.expects == "figure"
    assert_citations_valid(answer)
    assert cited_ids(answer) == [paper_id]
    assert answer.evidence[0].paper_id == paper_id
    sentence = sentence_holding(answer, figure)
    assert f"[{number_of(answer, paper_id)}]" in sentence
    assert quoted(sentence) in paper_text(mini, paper_id)


def test_every_marker_of_a_fact_answer_points_at_the_quoted_paper(mini) -> None:
    answer = mini.answer("What error does GlowNet reach when it counts flashes?")
    assert not answer.refused
    assert_citations_valid(answer)
    for paper_id, body in paragraphs(answer.text):
        assert set(markers(body)) == {number_of(answer, paper_id)}
        for sentence in claims(body):
            assert quoted(sentence) in paper_text(mini, paper_id)
    assert "3.1" in answer.text


@pytest.mark.parametrize(("question", "paper_id"), [
    ("How many capsules does RiverSense release per deployment?", "m2"),
    # "On city-scale instances with 500 stops, PathRoute shortens routes by 7%": figures beside "routes", none
    # counting them (it had been quoted as the answer)
    ("How many delivery routes does PathRoute shorten?", "m6"),
    ("How long do the drifting nitrate capsules last before they dissolve?", "m2"),
    ("How many microphones are placed in each hive?", "m7"),
])
def test_a_figure_the_abstract_does_not_give_is_not_stated(mini, question, paper_id) -> None:
    answer = mini.answer(question)
    assert answer.refused
    # The first sentence says what is missing: a figure, in this paper's abstract.
    missing = first_sentence(answer.text)
    assert "no figure" in missing and mini.by_id[paper_id].label in missing, answer.text
    # ... but it still quotes and cites the closest evidence: one sentence.
    assert_citations_valid(answer)
    assert cited_ids(answer) == [paper_id]
    body = paragraphs(answer.text)
    assert body and body[0][0] == paper_id
    assert len(claims(body[0][1])) == 1
    for sentence in claims(body[0][1]):
        assert quoted(sentence) in paper_text(mini, paper_id)


def test_an_unrelated_figure_does_not_answer_a_number_question(mini) -> None:
    """GlowNet's abstract gives a frame rate and an error, never a parameter count.

    Guards against quoting "240 frames per second" as if it were the parameter count:
    a number question needs a quantity of the kind asked for.
    """
    answer = mini.answer("How many parameters does GlowNet have?")
    assert answer.refused, answer.text
    assert "no figure" in first_sentence(answer.text)
    assert cited_ids(answer) == ["m1"]


@pytest.mark.parametrize("question", [
    "Which three benchmarks is LoomQA evaluated on?",
    "Name the three benchmarks used to test LoomQA.",
])
def test_announced_but_unnamed_items_are_not_stated(mini, question) -> None:
    answer = mini.answer(question)
    assert answer.plan.expects == "enumeration" and answer.plan.count == 3
    assert answer.refused
    assert "not name the three benchmarks" in first_sentence(answer.text), answer.text
    assert cited_ids(answer) == ["m4"]
    # The closest sentence is quoted: the one announcing the benchmarks without naming them.
    assert "across three benchmarks" in " ".join(body for _, body in paragraphs(answer.text)), answer.text
    assert_citations_valid(answer)


@pytest.mark.parametrize("question", [
    "Which three benchmarks is TideFormer evaluated on?",
    "What are the three benchmarks TideFormer is tested on?",
])
def test_listed_items_answer_a_which_n_question(mini, question) -> None:
    answer = mini.answer(question)
    assert not answer.refused and PARAGRAPH_HEAD.match(answer.text), answer.text  # it opens with the quote
    assert cited_ids(answer) == ["m3"]
    sentence = sentence_holding(answer, "CoastBench")
    assert all(name in sentence for name in ("CoastBench", "HarborSet", "EstuaryQA"))
    assert f"[{number_of(answer, 'm3')}]" in sentence
    assert_citations_valid(answer)


def test_out_of_corpus_question_is_refused(mini) -> None:
    answer = mini.answer("Who won the 1998 football world cup?")
    assert answer.refused and answer.cited == [] and not markers(answer.text)
    assert "don't answer" in answer.text


# --------------------------------------------------------------------------- comparisons


ROW_HEAD = re.compile(r"^\|\s*\*\*(?P<label>[^*]+)\*\* \((?P<id>[\w.-]+)\)\s*\|(?P<cells>.*)\|$")


def table_rows(text: str) -> list[tuple[str, list[str]]]:
    """(paper id, cells) of every row of a comparison table, in order."""
    out = []
    for line in text.splitlines():
        row = ROW_HEAD.match(line)
        if row:
            out.append((row["id"], [c.strip() for c in re.split(r"(?<!\\)\|", row["cells"])]))
    return out


@pytest.mark.parametrize(("question", "order"), [
    ("How do GlowNet and TideFormer differ?", ["m1", "m3"]),
    ("How does TideFormer differ from GlowNet?", ["m3", "m1"]),
    ("Compare LoomQA with RiverSense.", ["m4", "m2"]),
    ("What is the difference between PathRoute and MoleGraph?", ["m6", "m5"]),
    ("Compare the firefly counting paper with the reaction yield paper.", ["m1", "m5"]),
    ("How do the textile paper and the flood paper differ?", ["m4", "m3"]),
])
def test_comparison_gives_each_named_paper_its_own_row_in_the_order_named(mini, question, order) -> None:
    answer = mini.answer(question)
    assert answer.kind == "compare" and not answer.refused
    assert_citations_valid(answer)
    rows = table_rows(answer.text)
    assert [pid for pid, _ in rows] == order, answer.text
    assert sorted(cited_ids(answer)) == sorted(order)
    for paper_id, cells in rows:
        quotes = [c for c in cells if c not in ("—", IN_RESULT)]
        assert quotes, (paper_id, cells)
        for cell in quotes:
            assert set(markers(cell)) == {number_of(answer, paper_id)}  # each row cites only its paper
            assert quoted(cell).removesuffix("…").strip() in paper_text(mini, paper_id)
    # The sources list the compared papers first, so the answer's [1] and [2] are theirs.
    assert sorted(s.paper_id for s in answer.sources[:2]) == sorted(order)


@pytest.mark.parametrize(("question", "named", "others"), [
    ("PathRoute versus the paper on graph neural networks too: how do they differ?", "m6", {"m2", "m5"}),
    ("Both MoleGraph and the paper on graph neural networks as well - what does each predict?", "m5", {"m2", "m6"}),
    ("Contrast RiverSense with the study that uses a graph neural network, too.", "m2", {"m5", "m6"}),
])
def test_a_description_set_beside_a_named_paper_is_another_paper(mini, question, named, others) -> None:
    """The named paper writes every word of the description beside it, yet "X versus the paper on Y" sets two papers
    side by side: the comparison had quoted the named paper alone."""
    answer = mini.answer(question)
    cited = cited_ids(answer)
    assert cited[0] == named and len(cited) == 2 and cited[1] in others, answer.text
    assert_citations_valid(answer)


@pytest.mark.parametrize(("question", "paper_id"), [
    ("The paper that counts fireflies filmed at dusk: what R2 does it reach?", "m1"),
    ("What R2 does the reaction yield model reach?", "m5"),
])
def test_a_word_one_abstract_uses_points_at_it_only_when_the_question_retrieves_it(mini, question, paper_id) -> None:
    """ "R2" is written by MoleGraph alone, but names nothing: a question describing the firefly counter is about
    GlowNet (it had compared MoleGraph with GlowNet), one describing the yield model about MoleGraph."""
    answer = mini.answer(question)
    assert cited_ids(answer) == [paper_id], answer.text
    assert_citations_valid(answer)


# --------------------------------------------------------------------------- aggregate answers


def listed_papers(answer: Answer) -> list[str]:
    return [pid for pid, _ in paragraphs(answer.text)]


@pytest.mark.parametrize(("question", "expected"), [
    ("Which papers use graph neural networks?", GNN_PAPERS),
    ("List all papers that apply a graph neural network.", GNN_PAPERS),
])
def test_list_gives_exactly_the_matching_papers(mini, question, expected) -> None:
    answer = mini.answer(question)
    assert answer.kind == "list" and not answer.refused
    assert "Possibly also" not in answer.text, answer.text
    listed = listed_papers(answer)
    assert len(listed) == len(set(listed))
    precision = len(set(listed) & expected) / len(listed) if listed else 0.0
    recall = len(set(listed) & expected) / len(expected)
    assert (precision, recall) == (1.0, 1.0), f"listed {listed}, expected {sorted(expected)}"
    noun = "paper matches" if len(expected) == 1 else "papers match"
    assert answer.text.startswith(f"{len(expected)} {noun} "), answer.text
    assert set(cited_ids(answer)) == expected
    assert_citations_valid(answer)


@pytest.mark.parametrize(("question", "paper_id"), [
    ("What papers in this collection involve transformers?", "m3"),
    ("Which papers work with audio or sound?", "m7"),
])
def test_a_which_papers_question_one_paper_matches_is_answered_from_that_paper(mini, question, paper_id) -> None:
    """Only one paper clears the criterion: no list (issue 7), a fact answer quoting that paper."""
    answer = mini.answer(question)
    assert answer.kind == "fact" and not answer.refused, answer.text
    assert cited_ids(answer) == [paper_id]
    for pid, body in paragraphs(answer.text):
        for sentence in claims(body):
            assert quoted(sentence) in paper_text(mini, pid)
    assert_citations_valid(answer)


def test_list_gives_one_cited_sentence_per_paper(mini) -> None:
    answer = mini.answer("Which papers use graph neural networks?")
    items = [line for line in answer.text.splitlines() if re.match(r"\d+\. ", line)]
    assert [int(line.split(".")[0]) for line in items] == list(range(1, len(items) + 1))
    assert len(items) == len(GNN_PAPERS)
    for paper_id, body in paragraphs(answer.text):
        assert markers(body) == [number_of(answer, paper_id)]  # exactly one marker
        assert len(claims(body)) == 1
        assert quoted(body) in paper_text(mini, paper_id)
        assert "graph neural network" in body


@pytest.mark.parametrize("question", [
    "Which papers study quantum error correction?",
    "Are there papers on stock markets or finance?",
    "Which papers in the corpus study protein folding in yeast?",
])
def test_list_with_no_matching_paper_says_so(mini, question) -> None:
    answer = mini.answer(question)
    assert answer.plan.kind == "list"  # suggested by the wording; no paper clears the criterion
    assert answer.refused, answer.text
    assert answer.cited == [] and not markers(answer.text), answer.text


# --------------------------------------------------------------------------- follow-ups


def test_follow_up_pronoun_question_stays_with_the_paper_of_the_conversation(mini) -> None:
    # Three abstracts use a graph neural network; "they" is RiverSense, named in the last answer.
    history = [Message("user", "Which of these would a water agency care about most?"),
               Message("assistant", "Probably RiverSense (m2), which tracks nitrate pollution.")]
    answer = mini.answer("What do they predict with the graph neural network?", history=history)
    assert answer.plan.carried == ["m2"]
    assert not answer.refused
    assert cited_ids(answer) == ["m2"]
    assert answer.sources[0].paper_id == "m2"
    assert_citations_valid(answer)


def test_follow_up_carries_a_paper_cited_by_id_only(mini) -> None:
    """The last answer refers to the paper by its corpus id only.

    Ids are whatever the corpus uses, not only seed-style ``p05``; without the carried
    paper the answer would quote the other graph-neural-network papers.
    """
    history = [Message("user", "Which of these would a water agency care about most?"),
               Message("assistant", "Probably the one in (m2), about pollution.")]
    answer = mini.answer("What do they predict with the graph neural network?", history=history)
    assert cited_ids(answer) == ["m2"], answer.text


def test_follow_up_excluding_one_paper_answers_from_the_other(mini) -> None:
    history = [Message("user", "Which papers apply graph neural networks?"),
               Message("assistant", "Two do: RiverSense (m2) and MoleGraph (m5).")]
    answer = mini.answer("What training data size does the one that isn't about rivers report?", history=history)
    assert cited_ids(answer) == ["m5"]
    assert "41,000" in answer.text


@pytest.mark.parametrize(("question", "paper_id"), [
    ("Tell me more about the second one.", "m5"),
    ("What does the first one measure?", "m2"),
    ("What does the latter measure?", "m5"),
])
def test_follow_up_by_position_answers_from_that_paper(mini, question, paper_id) -> None:
    """"the second one" picks the paper, and its sentences are quoted.

    "Tell me more about the second one." shares no content with any sentence, so the
    similarity floor alone would refuse; the paper pointed at is answered from instead.
    """
    history = [Message("user", "Which papers apply graph neural networks?"),
               Message("assistant", "Two do: RiverSense (m2) and MoleGraph (m5).")]
    answer = mini.answer(question, history=history)
    assert answer.sources[0].paper_id == paper_id  # retrieval got it right
    assert not answer.refused, answer.text
    assert cited_ids(answer) == [paper_id]


# --------------------------------------------------------------------------- support scoring


@pytest.mark.parametrize("question", [
    "How many frames per second can GlowNet process?",
    "How do GlowNet and TideFormer differ?",
    "Which papers use graph neural networks?",
    "What are the three benchmarks TideFormer is tested on?",
])
def test_every_sentence_of_an_extractive_answer_is_supported(mini, question) -> None:
    answer = mini.answer(question)
    assert answer.support, answer.text
    assert all(s.cited for s in answer.support)
    assert all(s.score >= SUPPORT_THRESHOLD and s.supported for s in answer.support), [
        (round(s.score, 3), s.sentence) for s in answer.support]
    assert answer.to_dict()["unsupported_sentences"] == []
    # The stored support is what the public method computes for the text.
    assert [(s.sentence, s.cited) for s in mini.support(answer.text, answer.sources)] == [
        (s.sentence, s.cited) for s in answer.support]


def test_cited_sentences_of_a_not_stated_answer_are_supported(mini) -> None:
    answer = mini.answer("How many capsules does RiverSense release per deployment?")
    cited = [s for s in answer.support if s.cited]
    assert cited and all(s.supported for s in cited)
    assert all(not s.supported for s in answer.support if not s.cited)  # "don't state" cites nothing


def _support(mini: Assistant, text: str, sources) -> float:
    (result,) = mini.support(text, sources)
    return result.score


GLOW_SENTENCE = "GlowNet processes {} frames per second on a single laptop GPU [{}]."
TIDE_SENTENCE = "TideFormer reduces peak surge error by {} relative to the operational physics model [{}]."


@pytest.fixture(scope="module")
def two_sources(mini):
    sources = mini.retrieve("GlowNet frames per second and TideFormer peak surge error")
    numbers = {s.paper_id: s.number for s in sources}
    assert {"m1", "m3"} <= set(numbers)
    return sources, numbers


def test_a_sentence_citing_the_wrong_source_is_unsupported(mini, two_sources) -> None:
    sources, n = two_sources
    right = _support(mini, GLOW_SENTENCE.format("240", n["m1"]), sources)
    wrong = _support(mini, GLOW_SENTENCE.format("240", n["m3"]), sources)
    assert right >= SUPPORT_THRESHOLD
    assert wrong < right and wrong < SUPPORT_THRESHOLD
    right = _support(mini, TIDE_SENTENCE.format("18%", n["m3"]), sources)
    wrong = _support(mini, TIDE_SENTENCE.format("18%", n["m1"]), sources)
    assert wrong < right and wrong < SUPPORT_THRESHOLD <= right


def test_a_wrong_number_scores_lower_than_the_quoted_one(mini, two_sources) -> None:
    sources, n = two_sources
    assert _support(mini, GLOW_SENTENCE.format("960", n["m1"]), sources) < _support(
        mini, GLOW_SENTENCE.format("240", n["m1"]), sources)
    assert _support(mini, TIDE_SENTENCE.format("45%", n["m3"]), sources) < _support(
        mini, TIDE_SENTENCE.format("18%", n["m3"]), sources)


@pytest.mark.parametrize(("template", "paper_id", "figure"), [
    (GLOW_SENTENCE, "m1", "960"),
    (TIDE_SENTENCE, "m3", "45%"),
    ("GlowNet counts fireflies at {} frames per second [{}].", "m1", "2400"),
])
def test_a_number_missing_from_the_cited_source_is_unsupported(mini, two_sources, template, paper_id, figure) -> None:
    """A claim with a figure the cited abstract never states is not supported by it.

    A changed figure is one word among many, so similarity and word coverage alone
    would call "960 frames per second [m1]" supported.
    """
    sources, n = two_sources
    score = _support(mini, template.format(figure, n[paper_id]), sources)
    assert score < SUPPORT_THRESHOLD, f"{score:.3f}"


def test_support_of_an_uncited_sentence_is_zero(mini, two_sources) -> None:
    sources, _ = two_sources
    (result,) = mini.support("GlowNet processes 240 frames per second on a single laptop GPU.", sources)
    assert result.cited == [] and result.score == 0.0 and not result.supported


def test_score_support_takes_the_best_sentence_of_each_cited_source() -> None:
    """The arithmetic, with hand-made vectors: 0.5 * similarity + 0.5 * coverage, best sentence."""
    unit = np.eye(3, dtype=np.float32)
    evidence = {1: (["alpha beta gamma", "delta epsilon zeta"], unit[:2]), 2: (["omega"], unit[2:3])}

    def embed(texts: list[str]) -> np.ndarray:
        return np.stack([unit[0] if "alpha" in t.lower() else unit[2] for t in texts])

    def coverage(wanted: set[str], have: set[str]) -> float:
        return len(wanted & have) / len(wanted) if wanted else 0.0

    results = score_support("Alpha beta gamma holds here [1][2]. Omega meets omega theta kappa [2]. "
                            "Nothing cited in this sentence at all.", evidence, embed, coverage)
    assert [r.cited for r in results] == [[1, 2], [2], []]
    first, second, third = results
    # Source 1: identical vector and 3 of 4 content stems (alpha, beta, gamma of alpha/beta/gamma/hold).
    assert first.per_source[1] == pytest.approx(0.5 * 1.0 + 0.5 * 3 / 4)
    assert first.per_source[2] == pytest.approx(0.0)
    assert first.score == pytest.approx(first.per_source[1]) and first.supported
    assert second.per_source == {2: pytest.approx(0.5 * 1.0 + 0.5 * 1 / 4)}  # omega of omega/meet/theta/kappa
    assert third.per_source == {} and third.score == 0.0 and not third.supported


def test_score_support_reuses_the_stored_vector_of_a_quote_with_escaped_brackets() -> None:
    """A source sentence with its own "[1]" is quoted as "\\[1\\]": it must match its stored row, not be encoded."""
    sentence = "Reinforcement Learning [1] offers robotics a framework for hard-to-engineer behaviours."
    evidence = {1: ([sentence], np.eye(1, 3, dtype=np.float32))}
    encoded: list[str] = []

    def embed(texts: list[str]) -> np.ndarray:
        encoded.extend(texts)
        return np.eye(1, 3, dtype=np.float32).repeat(len(texts), 0)

    quote = "Reinforcement Learning \\[1\\] offers robotics a framework for hard-to-engineer behaviours."
    (result,) = score_support(f"1. **RL** (x1): {quote.removesuffix('.')} [1].", evidence, embed,
                              lambda wanted, have: 1.0)
    assert result.cited == [1] and result.supported
    assert encoded == []


def test_score_support_ignores_citations_of_unknown_sources() -> None:
    evidence = {1: (["alpha beta gamma"], np.eye(1, 3, dtype=np.float32))}
    (result,) = score_support("Alpha beta gamma again here [7].", evidence,
                              lambda texts: np.eye(1, 3, dtype=np.float32).repeat(len(texts), 0),
                              lambda wanted, have: 1.0)
    assert result.cited == [7] and result.per_source == {} and result.score == 0.0 and not result.supported


def test_answer_sentences_strip_label_prefixes_and_markers() -> None:
    text = ("2 papers match \"graph neural networks\":\n\n"
            "1. **PathRoute** (m6): PathRoute encodes the road map with a graph neural network [1].\n"
            "2. **MoleGraph** (m5): Trained on 41,000 experiments, MoleGraph predicts yields [2][3].\n\n"
            "**TideFormer** (m3): TideFormer forecasts storm surge [4]. It runs in under two seconds [4].\n\n"
            "3. **Is Q-Learning Provably Efficient?** (nips2018-11477): Model-free methods skip the model [5].\n\n"
            "## Summary\n\nOk [1].")
    assert answer_sentences(text) == [
        ("PathRoute encodes the road map with a graph neural network.", [1]),
        ("Trained on 41,000 experiments, MoleGraph predicts yields.", [2, 3]),
        ("TideFormer forecasts storm surge.", [4]),
        ("It runs in under two seconds.", [4]),
        ("Model-free methods skip the model.", [5]),  # a title ending in "?" is still a label, not a claim
    ]


def test_answer_sentences_take_each_cited_table_cell_as_its_own_claim() -> None:
    """A sentence never runs across cells; the label cell and an empty "—" cell are no claims."""
    text = ("| Paper | Problem | Approach | Data / setting |\n| --- | --- | --- | --- |\n"
            "| **Text-to-image diffusion models** (p15) | Diffusion models fail on rare compositions [2]. "
            "| A stress index separates anchor from stress prompts across SD1.5 and SDXL … [2] | — |")
    assert answer_sentences(text) == [
        ("Diffusion models fail on rare compositions.", [2]),
        ("A stress index separates anchor from stress prompts across SD1.5 and SDXL …", [2]),
    ]


def test_answer_sentences_cut_where_the_corpus_splitter_does() -> None:
    """Claims are split by ``rag.chunking.split_sentences``: an abbreviation or a decimal is no
    sentence end (the old answer-only regex cut after "e.g." before a capital), "[1]." is."""
    text = ("**DaTMe** (p12): Gains are large, e.g. SQA rises by +4.2 points and Fig. 3 shows 85.4% [1]. "
            "Who&When Pro contains 12,326 failed trajectories [2].")
    assert answer_sentences(text) == [
        ("Gains are large, e.g. SQA rises by +4.2 points and Fig. 3 shows 85.4%.", [1]),
        ("Who&When Pro contains 12,326 failed trajectories.", [2]),
    ]


def test_answer_sentences_keep_uncited_claims_but_not_statements_about_the_sources() -> None:
    """An uncited claim is kept (it scores 0); "the abstracts don't state ..." says what the
    sources lack, so it is no claim to support, and a lead-in ending in ":" is none either."""
    text = ("The abstracts don't state the figure asked for. The closest they come:\n\n"
            "GlowNet runs at 960 frames per second on a phone.")
    assert answer_sentences(text) == [("GlowNet runs at 960 frames per second on a phone.", [])]


# --------------------------------------------------------------------------- LLM mode: follow-up rewrite

REWRITE_HISTORY = [Message("user", "Which paper counts fireflies in video?"),
                   Message("assistant", "GlowNet (m1) detects firefly flashes at dusk [1].")]
REWRITE_QUESTION = "How fast does it run?"


def test_llm_rewrites_a_follow_up_into_the_search_query(mini_llm, openai_server) -> None:
    assistant = mini_llm("rewrite")
    before = len(openai_server.requests())
    plan = assistant.plan(REWRITE_QUESTION, REWRITE_HISTORY, use_llm=True)
    assert plan.carried == ["m1"]
    (request,) = openai_server.requests()[before:]
    assert request["model"] == "rewrite" and request["_status"] == 200
    prompt = request["messages"][-1]["content"]
    for message in REWRITE_HISTORY:
        assert f"{message.role}: {message.content}" in prompt  # the conversation is sent
    assert REWRITE_QUESTION in prompt
    assert plan.query == f"REWRITTEN: {prompt}".strip()  # the model's text is the query
    assert plan.question == REWRITE_QUESTION  # the question itself is kept for quoting


def test_llm_rewrite_drives_retrieval_of_a_full_answer(mini_llm, openai_server) -> None:
    assistant = mini_llm("rewrite")
    before = len(openai_server.requests())
    answer = assistant.answer(REWRITE_QUESTION, history=REWRITE_HISTORY, model="echo-cite")
    records = openai_server.requests()[before:]
    assert [r["model"] for r in records] == ["rewrite", "echo-cite"]
    assert answer.plan.query.startswith("REWRITTEN: ")
    assert answer.to_dict()["search_query"] == answer.plan.query
    assert answer.mode == "llm" and cited_ids(answer)[:1] == ["m1"]


def test_failed_rewrite_falls_back_to_the_deterministic_query(mini_llm, openai_server, mini) -> None:
    assistant = mini_llm("error-500")
    before = len(openai_server.requests())
    plan = assistant.plan(REWRITE_QUESTION, REWRITE_HISTORY, use_llm=True)
    deterministic = plan_question(REWRITE_QUESTION, mini.papers, REWRITE_HISTORY)
    assert plan.query == deterministic.query == REWRITE_QUESTION  # planning alone decides no follow-up
    logged = openai_server.requests()[before:]
    assert [(r["model"], r["_status"]) for r in logged] == [("error-500", 500)]  # one try, no retry
    # The gatherer decides it is a follow-up and the deterministic rewrite carries the previous question over.
    answer = assistant.answer(REWRITE_QUESTION, history=REWRITE_HISTORY)
    assert answer.plan.followup and answer.mode == "fallback"
    assert answer.plan.query == f"{REWRITE_HISTORY[0].content} {REWRITE_QUESTION}"
    assert cited_ids(answer)[:1] == ["m1"]


def test_no_rewrite_request_for_a_standalone_question_or_without_llm(mini_llm, openai_server) -> None:
    assistant = mini_llm("rewrite")
    before = len(openai_server.requests())
    standalone = assistant.plan("How many frames per second can GlowNet process?", REWRITE_HISTORY, use_llm=True)
    assert standalone.query == "How many frames per second can GlowNet process?"
    offline = assistant.plan(REWRITE_QUESTION, REWRITE_HISTORY, use_llm=False)
    assert offline.query.endswith(REWRITE_QUESTION) and not offline.query.startswith("REWRITTEN")
    assert openai_server.requests()[before:] == []


def _sources_and_evidence(similarities: list[float]) -> tuple[list[Source], list[Evidence]]:
    """Five sources with close fused scores, as among 50k papers, each with one sentence of this similarity."""
    papers = [make_paper(f"Sentence of paper {i}.", id=f"x{i}") for i in range(5)]
    sources = [Source(i + 1, p, 0.62 - 0.01 * i, 0.5, 0.1) for i, p in enumerate(papers)]
    evidence = [Evidence(i + 1, p.id, Sentence(0, 20, p.text), sim, 0.5) for i, (p, sim) in
                enumerate(zip(papers, similarities, strict=True))]
    return sources, evidence


def test_the_best_retrieved_paper_wins_a_near_tie_even_when_retrieval_scores_are_close() -> None:
    """At 50k papers the sources' fused scores differ by hundredths; the prior must still break a near-tie."""
    sources, evidence = _sources_and_evidence([0.50, 0.51, 0.53, 0.40, 0.40])
    assert _with_paper_prior(evidence, sources)[0].paper_id == "x0"


def test_a_clearly_better_sentence_of_another_paper_still_comes_first() -> None:
    sources, evidence = _sources_and_evidence([0.40, 0.45, 0.70, 0.40, 0.40])
    assert _with_paper_prior(evidence, sources)[0].paper_id == "x2"


def test_a_count_of_the_asked_thing_in_other_words_answers_a_number_question(seed_assistant) -> None:
    """ "How many broken runs ...?" of "we construct 12,326 failed trajectories": the answer had said the abstract
    "gives no figure for this" while quoting that very sentence. A count of something else still is no figure."""
    answer = seed_assistant.answer("A benchmark replays a successful agent run and then breaks it. How many broken "
                                   "runs does it contain?")
    assert not answer.refused and "12,326" in answer.text, answer.text
    runs = seed_assistant.answer("How many failed agent runs does the benchmark for attributing agent failures hold?")
    assert not runs.refused and "12,326" in runs.text, runs.text  # ("failed agent runs" ~ "failed trajectories" 0.39)
    other = seed_assistant.answer("How many GPUs were used to build Who&When Pro?")
    assert other.refused, other.text
    # a compound counts its last part: "GPU-hours" are hours, and "33GB" of GPU memory counts none
    hours = seed_assistant.answer("How many GPU-hours did the Token Hypothesis paper use?")
    assert hours.refused and "gives no figure" in hours.text, hours.text


def test_a_count_of_any_thing_asked_answers_a_question_counting_several(seed_assistant) -> None:
    """ "How many birds are in V33DA, and how many audio channels and camera views?": the abstract counts the
    channels and views ("5-channel audio with three camera views"), and had been said to give no figure."""
    answer = seed_assistant.answer("How many birds are in V33DA, and how many audio channels and camera views "
                                   "does it record?")
    assert not answer.refused and "three camera views" in answer.text, answer.text


def test_a_count_after_a_name_with_a_stopword_counts_the_noun_after_it(seed_assistant) -> None:
    """ "How many All of Us participants ...": the name's "All" had ended the counted noun before it began, so any
    number of the abstract answered it; the tabular abstract counts no participants (four tuning sets)."""
    answer = seed_assistant.answer("How many All of Us participants did the tabular foundation model paper study?")
    assert answer.refused and "gives no figure" in answer.text, answer.text


def test_the_value_of_a_measure_is_a_figure_in_a_sentence_writing_the_measure(seed_assistant) -> None:
    """ "The accelerometer oracle stays near-perfect across regimes" gives no accuracy; another V33DA sentence's
    "33,625 verified events" had answered "What exact attribution accuracy does the accelerometer oracle achieve?"
    (five tuning sets). A sentence giving the measure's value still answers."""
    answer = seed_assistant.answer("What caller-identification accuracy does the V33DA accelerometer oracle get?")
    assert answer.refused and "gives no figure" in answer.text, answer.text
    given = seed_assistant.answer("What motion direction accuracy does DeltaDirect reach on MODIRECT-SYNBENCH?")
    assert not given.refused and "85.4%" in given.text, given.text
    # a setting's value too: "Sudokus of increasing size ... orders-of-magnitude more accurate" gives no size
    size = seed_assistant.answer("What Sudoku size did the approximate weighted model counting pipelines reach?")
    assert size.refused and "gives no figure" in size.text, size.text


def test_a_margin_asked_is_a_measured_or_relative_figure_not_a_count(seed_assistant) -> None:
    """ "by what margin over the runner-up?" had been answered by Who&When Pro's "12,326 failed trajectories": a
    count gives no margin. A gain in points or a relative amount still answers."""
    margin = seed_assistant.answer("By what margin was the strongest failure attributor on Who&When Pro ahead?")
    assert margin.refused and "gives no figure" in margin.text, margin.text
    gain = seed_assistant.answer("By how much does DeltaDirect raise real-world motion direction accuracy?")
    assert not gain.refused and "21.9 points" in gain.text, gain.text
    relative = seed_assistant.answer("How much more accurate are the tensor-train WMC estimates than prior methods?")
    assert not relative.refused and "orders-of-magnitude" in relative.text, relative.text


def test_how_many_beings_is_answered_by_a_count_of_individuals(seed_assistant) -> None:
    """V33DA counts its birds as "10 individuals" in the sentence on per-bird telemetry."""
    answer = seed_assistant.answer("How many birds were recorded for the V33DA benchmark?")
    assert not answer.refused and "10 individuals" in answer.text, answer.text


def _ranked(*pairs: tuple[str, float]) -> list[Scored]:
    return [Scored(pid, score, score, 0.0) for pid, score in pairs]


def test_counted_descriptions_take_the_pairing_that_matches_best_overall() -> None:
    """Scores as retrieval gave them for probe23 f023: "the who's-talking-in-a-video one" ranks the motion paper
    first by a hair, and "the which-way-is-it-moving one" needs it; the surest pair first would give the second
    description the diffusion paper. Uncounted, two descriptions of one paper stay one."""
    by_description = {"talking": _ranked(("p11", 1.36), ("p08", 1.29), ("p18", 0.66)),
                      "moving": _ranked(("p11", 1.26), ("p15", 1.06), ("p01", 0.22))}
    assert _described_papers(by_description, True, []) == ["p08", "p11"]
    assert _described_papers(by_description, False, []) == ["p11", "p11"]
    assert _described_papers(by_description, True, ["p11"]) == ["p08", "p15"]  # (a paper already named is taken)
