"""Answer shapes of engine v2 (issue 7): comparison tables, summaries, lists, honest "not stated", follow-ups.

Most tests run on the hand-written mini corpus (tests/data/mini_corpus.jsonl, m1..m7; see
tests/test_composition.py for what each abstract states; m2, m5 and m6 use a graph neural
network); the rest on the shipped seeds (``seed_assistant``). They assert properties of the
answers (kind, cited papers, verbatim quotes, refusals), never a copied answer text.
"""

from __future__ import annotations

import re

import pytest
from answer_checks import assert_citations_valid, cited_ids, markers, number_of

from rag.assistant import Answer, Assistant, QuestionError
from rag.citations import answer_sentences
from rag.evaluation import is_refusal
from rag.extractive import IN_RESULT, LEAD, QUOTED_ABOVE, WEAK_NOTE
from rag.gather import CLAUSE_RUNNER_UP, MAX_CLOSEST
from rag.lexical import NON_TOPICAL
from rag.questions import content_terms, plan_question
from rag.roles import names_setting, reports_experiment
from rag.types import Message

GNN_PAPERS = {"m2", "m5", "m6"}
COLUMNS = ["Problem", "Approach", "Data / setting", "Main result"]
ROW_HEAD = re.compile(r"^\*\*(?P<label>[^*]+)\*\* \((?P<id>[\w.-]+)\)$")
ITEM_HEAD = re.compile(r"^(?:\d+\.|-)\s+\*\*(?P<label>[^*]+)\*\* \((?P<id>[\w.-]+)\):\s*(?P<body>.*)$")
PARAGRAPH_HEAD = re.compile(r"^\*\*(?P<label>[^*]+)\*\* \((?P<id>[\w.-]+)\):\s*(?P<body>.*)$")


# --------------------------------------------------------------------------- helpers


def unmarked(text: str) -> str:
    """Quoted abstract text without citation markers (placed before the final stop) or a cut-off ellipsis."""
    return re.sub(r"\s*\[\d+\]", "", text).strip().removesuffix("…").strip()


def sentences_of(body: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", body.strip()) if s.strip()]


def paragraphs(text: str) -> list[tuple[str, str]]:
    """(paper id, body) of every "**Label** (id): ..." paragraph."""
    return [(m["id"], m["body"]) for m in map(PARAGRAPH_HEAD.match, text.splitlines()) if m]


def assert_quotes_verbatim(assistant: Assistant, answer: Answer, paper_id: str, body: str) -> None:
    """Every sentence of ``body`` is in the paper's abstract and cites that paper, and only it."""
    assert set(markers(body)) == {number_of(answer, paper_id)}, body
    for sentence in sentences_of(body):
        assert unmarked(sentence) in assistant.by_id[paper_id].text, sentence


def table_rows(text: str) -> tuple[list[str], list[list[str]]]:
    """The header cells and body rows of the Markdown table in an answer."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    assert len(lines) >= 3, text
    split = [[c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines]
    assert all(set(c) <= {"-", " ", ":"} for c in split[1]), lines[1]
    return split[0], split[2:]


def assert_comparison_table(assistant: Assistant, answer: Answer, order: list[str]) -> None:
    """One row per paper in ``order``; each cell a verbatim quote citing that row's paper; ``answer.table`` agrees."""
    assert answer.kind == "compare" and not answer.refused, answer.text
    assert_citations_valid(answer)
    header, rows = table_rows(answer.text)
    assert header == ["Paper", *COLUMNS]
    assert [ROW_HEAD.match(row[0])["id"] for row in rows] == order, answer.text
    assert [r["paper_id"] for r in answer.table] == order
    assert sorted(cited_ids(answer)) == sorted(order)
    for row, structured in zip(rows, answer.table, strict=True):
        paper_id = structured["paper_id"]
        text = assistant.by_id[paper_id].text
        assert structured["label"] == assistant.by_id[paper_id].label
        assert structured["number"] == number_of(answer, paper_id)
        quoted = 0
        for name, cell in zip(COLUMNS, row[1:], strict=False):
            sentence = structured[name]
            if sentence is None:  # nothing, or the setting is stated in the row's main result
                assert cell == "—" or cell == IN_RESULT and names_setting(structured["Main result"]), (name, cell)
                continue
            quoted += 1
            assert sentence in text, (paper_id, name, sentence)  # the structured cell is the whole sentence
            if cell == QUOTED_ABOVE:  # the role's only sentence is the lead's, above the table: said once
                assert sentence.rstrip(".") in answer.text.split("| Paper |")[0], (name, sentence)
                continue
            assert markers(cell) == [structured["number"]], cell
            assert unmarked(cell) in text and sentence.startswith(unmarked(cell).rstrip(".")), (cell, sentence)
        assert quoted >= 2, f"row {paper_id} quotes {quoted} of {len(COLUMNS)} columns: {row}"


def assert_comparison_of(assistant: Assistant, answer: Answer, papers: set[str]) -> None:
    """A comparison table of exactly ``papers``, in whatever order they were found (none was asked for)."""
    order = [row["paper_id"] for row in answer.table]
    assert set(order) == papers and len(order) == len(papers), answer.text
    assert_comparison_table(assistant, answer, order)


def listed(answer: Answer) -> tuple[list[str], list[str]]:
    """(numbered members, "possibly also" papers) of a list answer."""
    members, possible = [], []
    in_possible = False
    for line in answer.text.splitlines():
        if line.lower().startswith("possibly also"):
            in_possible = True
        match = ITEM_HEAD.match(line)
        if match:
            (possible if in_possible else members).append(match["id"])
    return members, possible


def assert_list_lines_verbatim(assistant: Assistant, answer: Answer) -> None:
    for line in answer.text.splitlines():
        match = ITEM_HEAD.match(line)
        if match:
            assert_quotes_verbatim(assistant, answer, match["id"], match["body"])


def answered_list(assistant: Assistant, question: str) -> tuple[Answer, list[str], list[str]]:
    """The answer to a "which papers" question with its members and "possibly also" papers, checked to be a
    list whose lines quote their abstracts verbatim and whose citations are valid."""
    answer = assistant.answer(question)
    assert answer.kind == "list" and not answer.refused, answer.text
    assert_list_lines_verbatim(assistant, answer)
    assert_citations_valid(answer)
    return (answer, *listed(answer))


def first_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]


def quoted_sentences(answer: Answer) -> list[str]:
    return [unmarked(s) for _, body in paragraphs(answer.text) for s in sentences_of(body)]


# --------------------------------------------------------------------------- comparison tables


@pytest.mark.parametrize(("question", "order"), [
    ("How do GlowNet and TideFormer differ?", ["m1", "m3"]),
    ("How does TideFormer differ from GlowNet?", ["m3", "m1"]),
    ("Compare LoomQA with RiverSense.", ["m4", "m2"]),
    ("What do PathRoute and MoleGraph have in common?", ["m6", "m5"]),
    ("Compare GlowNet, TideFormer and MoleGraph.", ["m1", "m3", "m5"]),
    ("Compare the firefly counting paper with the reaction yield paper.", ["m1", "m5"]),
])
def test_comparison_is_a_table_with_one_row_per_named_paper(mini_assistant, question, order) -> None:
    answer = mini_assistant.answer(question)
    assert_comparison_table(mini_assistant, answer, order)
    assert answer.to_dict()["table"] == answer.table and answer.to_dict()["question_kind"] == "compare"


def test_a_label_that_is_a_long_form_still_names_its_paper(seed_assistant) -> None:
    """p02's label "Selective Social Learning" is also the long form of its acronym SSL."""
    answer = seed_assistant.answer("Selective Social Learning and RISE both make learning agents update "
                                   "selectively. How do the two ideas differ?")
    assert_comparison_table(seed_assistant, answer, ["p02", "p07"])


def test_a_comparison_that_asks_something_answers_it_per_paper_before_the_table(seed_assistant) -> None:
    answer = seed_assistant.answer("Who&When Pro and V33DA are both attribution benchmarks. How does each "
                                   "make sure its ground-truth labels are trustworthy?")
    lead, table = answer.text.split("\n| Paper |", 1)
    bullets = [line for line in lead.splitlines() if line.startswith("- ")]
    assert [b.split("(")[1][:3] for b in bullets] == ["p05", "p10"], lead
    assert "ground truth" in lead.lower(), lead  # V33DA's "physically verified ground truth"
    assert "| Who&When Pro" in table or "**Who&When Pro**" in table


def test_a_described_paper_is_not_found_by_a_generic_word_alone(seed_assistant) -> None:
    """No abstract writes "songbird"; the tabular paper alone writes "record" ("health record"), and that one word
    had given it a perfect lexical score: it was compared in the zebra-finch dataset's place (probe63 pd022)."""
    answer = seed_assistant.answer("Compare the multi-speaker video paper and the songbird recording dataset.")
    assert set(cited_ids(answer)) == {"p08", "p10"}, answer.text


def test_a_description_of_no_written_word_far_from_every_paper_points_at_none(seed_assistant) -> None:
    """ "the heavier one" is a variant of the described paper's method; pointing at the paper it retrieved best, it
    had quoted RISE about 3D-scan cropping (probe105 qx015)."""
    answer = seed_assistant.answer("Someone replaced random cropping in 3D medical pretraining with a where-to-look "
                                   "sampler. What cues does their cheap variant use vs the heavier one?")
    assert cited_ids(answer)[:1] == ["p14"], answer.text


def test_the_authors_a_question_cites_are_not_asked_about(seed_assistant) -> None:
    """ "According to the authors, what drives ...?" asks what the abstract says (probe107 qz017)."""
    answer = seed_assistant.answer("Off-the-shelf tabular foundation models degrade across ancestries. According to "
                                   "the authors, what drives the degradation?")
    assert "authors" not in answer.text.split("\n")[0] and cited_ids(answer)[:1] == ["p19"], answer.text


@pytest.mark.parametrize("question", [
    "The liquid-biopsy poster about organ disease and the one about tabular models across ancestry: how does each "
    "validate?",
    "The zebra finch benchmark paper and the one where video LLMs confuse which way things move: what does each find?",
])
def test_the_one_where_and_a_poster_describe_the_second_paper_compared(seed_assistant, question) -> None:
    """ "The liquid-biopsy poster ... and the one about ..." and "... and the one where video LLMs ..." had quoted
    one paper: "poster" pointed at none, and "the one where" described none (probe78)."""
    answer = seed_assistant.answer(question)
    assert answer.kind == "compare" and len(set(cited_ids(answer))) == 2, answer.text


def test_a_series_of_descriptions_sharing_one_paper_noun_compares_each(seed_assistant) -> None:
    """ "the A, B, and C papers" had been read as one description, and answered from one paper."""
    answer = seed_assistant.answer("What do the zebra-finch, token-merging, and liquid-biopsy papers each contribute?")
    assert answer.kind == "compare" and set(cited_ids(answer)) == {"p03", "p10", "p12"}, answer.text


def test_a_typed_series_of_descriptions_each_with_its_noun_compares_each(seed_assistant) -> None:
    """ "A paper, B paper, C one - ..." typed without articles had been one paper's fact answer (probe184 ut030)."""
    answer = seed_assistant.answer("zebra finch paper, token merging paper, liquid biopsy one - who releases data?")
    assert answer.kind == "compare" and set(cited_ids(answer)) == {"p03", "p10", "p12"}, answer.text


def test_a_domain_named_in_a_scope_series_puts_its_paper_in_the_list(seed_assistant) -> None:
    """META-DINO's only medical sentence is "Across subcellular fluorescence microscopy, Earth observation, wildlife
    monitoring, and medical imaging, ...": as a whole it scored under the list's bar for medical imaging."""
    answer = seed_assistant.answer("Which papers use medical imagery?")
    assert answer.kind == "list" and {"p09", "p14"} <= set(cited_ids(answer)), answer.text


def test_evidence_scores_a_scope_series_by_its_closest_item_as_lists_do(seed_assistant) -> None:
    """Evidence and list membership share one sentence similarity (``Banked.similarities``): "Across subcellular
    fluorescence microscopy, Earth observation, wildlife monitoring, and medical imaging, ..." is about each item,
    and is as close to a question about one of them as that item is, discounted. Evidence had scored the whole
    sentence only, so a fact answer asking which fields were tested could miss the sentence listing them."""
    gatherer = seed_assistant.gatherer
    vector = gatherer.embedder.embed_query("satellite imagery")
    source = seed_assistant.retriever.search("satellite imagery", 1, paper_ids=["p09"])[0]
    evidence = gatherer.scorer.sentences(["satellite", "imagery"], vector, [source])
    series = next(e for e in evidence if e.sentence.text.startswith("Across subcellular"))
    whole = float(gatherer.embedder.embed_query(series.sentence.text) @ vector)
    assert series.similarity > whole + 0.05, (series.similarity, whole)


def test_a_bare_comparison_has_no_lead(seed_assistant) -> None:
    answer = seed_assistant.answer("Compare DaTMe and DGP.")
    assert answer.text.startswith("| Paper |"), answer.text[:200]


def test_no_sentence_fills_two_cells_of_a_comparison_row(seed_assistant) -> None:
    """ "Audio-Visual LLMs (AVLLMs)" is defined in the paper's problem sentence, which therefore also stood in as
    its contribution: the row said the same sentence under Problem and Approach."""
    answer = seed_assistant.answer("Compare Audio-Visual LLMs and DGP")
    assert answer.table and len(answer.table) == 2, answer.text
    for row in answer.table:
        cells = [row[name] for name in ("Problem", "Approach", "Data / setting", "Main result") if row[name]]
        assert len(cells) == len(set(cells)), row


@pytest.mark.parametrize("question", ["Compare META-DINO and VolumeProbe", "What do CoCHI and RISE have in common?"])
def test_a_comparison_row_says_where_its_data_is_stated(seed_assistant, question) -> None:
    """Few abstracts give their data a sentence of its own; they say it where they report the evaluation ("Across
    subcellular fluorescence microscopy, Earth observation, ..., META-DINO outperforms ..."). The data cell had
    read "—" in 693 of the 947 table rows over the tuning sets, as if the abstract said nothing of its data; it
    now quotes a sentence saying what the paper ran on, or points at the main result that says it."""
    answer = seed_assistant.answer(question)
    assert answer.kind == "compare" and len(answer.table) == 2, answer.text
    _, rows = table_rows(answer.text)
    for row, structured in zip(rows, answer.table, strict=True):
        data = row[1 + COLUMNS.index("Data / setting")]
        assert data != "—", row
        assert names_setting(structured["Data / setting"] or structured["Main result"]), structured


def test_terms_in_common_are_written_by_every_compared_abstract(seed_assistant) -> None:
    """A shared stem once showed one abstract's word: "single-layer" (DGP) stood "in common" with MODIRECT's
    "single object", and again under "Only DGP"."""
    answer = seed_assistant.answer("How do DGP and DeltaDirect differ in the way they change the link between the "
                                   "vision encoder and the language model?")
    line = next(x for x in answer.text.splitlines() if x.startswith("_In common"))
    common = re.search(r"use\): ([^.]*)\.", line)
    own = re.findall(r"Only [^:]+: ([^.]*)\.", line)
    assert common and len(own) == 2, line
    shared = common.group(1).split(", ")
    for word in shared:
        for pid in ("p16", "p11"):
            written = re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", seed_assistant.by_id[pid].text, re.I)
            assert written, (word, pid)
    assert not set(shared) & {w for part in own for w in part.split(", ")}, line


def test_two_papers_selected_by_the_filter_are_compared(mini_assistant) -> None:
    answer = mini_assistant.answer("How do these two papers differ?", paper_ids=["m2", "m7"])
    assert_comparison_table(mini_assistant, answer, ["m2", "m7"])


def test_two_seed_papers_selected_by_the_filter_are_compared(seed_assistant) -> None:
    """The CLI help's own example: ``rag ask --papers p05,p07 "How do these two papers differ?"``."""
    answer = seed_assistant.answer("How do these two papers differ?", paper_ids=["p05", "p07"])
    assert_comparison_table(seed_assistant, answer, ["p05", "p07"])


def test_the_acronym_of_a_label_names_its_paper_when_the_wording_says_which(seed_assistant) -> None:
    """ "SSL" is the social-learning paper's own acronym ("Selective Social Learning (SSL)") and the 3D medical
    paper's self-supervised learning: "SSL and RISE" had compared nothing but RISE (probe74 po021); the question's
    wording decides which paper "SSL" is, and asked for papers, it is what they are asked to be."""
    answer = seed_assistant.answer("SSL and RISE both have several learners or roles working together. How does each "
                                   "one decide who should learn from what?")
    assert_comparison_table(seed_assistant, answer, ["p02", "p07"])
    medical = seed_assistant.answer("How does SSL pretraining on 3D scans pick sub-volumes?")
    assert cited_ids(medical)[:1] == ["p14"], medical.text
    listed = seed_assistant.answer("Which submissions are SSL in the self-supervised sense?")
    assert listed.kind == "list", listed.text


def test_papers_described_in_two_clauses_are_compared(seed_assistant) -> None:
    """ "One paper picks X; another picks Y": the halves are two clauses (probe70 pk027 had compared nothing)."""
    answer = seed_assistant.answer("One paper picks which answer pairs people should rate; another picks which "
                                   "chunks of 3D scans a model trains on. How do their approaches differ?")
    assert_comparison_table(seed_assistant, answer, ["p13", "p14"])


def test_one_about_x_and_one_about_y_are_two_papers_of_the_set_named(seed_assistant) -> None:
    """ "Of the two papers on diffusion-based image generators, one about speed and one about failures on unusual
    descriptions, ...": the halves describe two papers, each of that set and not the same one twice (the failure
    half had found the speed paper again, and the comparison took the motion paper instead, probe77 ps027)."""
    answer = seed_assistant.answer("Of the two papers on diffusion-based image generators, one about speed and one "
                                   "about failures on unusual descriptions, which generators does each test?")
    assert_comparison_table(seed_assistant, answer, ["p12", "p15"])


def test_both_sides_of_both_and_are_compared_when_the_paper_noun_opens_the_second(seed_assistant) -> None:
    """ "Both the songbird-calls dataset and the paper on video AIs ...": the first side had been lost, and the
    answer quoted the video paper alone (probe70 pk026)."""
    answer = seed_assistant.answer("Both the songbird-calls dataset and the paper on video AIs following "
                                   "multi-person conversations involve matching a voice to whoever produced it. "
                                   "How does each approach that?")
    assert_comparison_table(seed_assistant, answer, ["p08", "p10"])


@pytest.mark.parametrize("question", [
    # ("what ... methods" and "what kind of fix actually works" had read as asking for a set of papers)
    "The liquid-biopsy paper on chronic organ disease and the one testing tabular foundation models on genetic "
    "data: what does each say makes existing methods fail?",
    "Take the liquid-biopsy paper on fibrotic organ disease and the paper on tabular models for genotype data. "
    "What kind of fix actually works in each?",
])
def test_two_papers_described_are_compared_whatever_the_question_asks_of_them(seed_assistant, question) -> None:
    """Two papers pointed at by description, as names would point at them, are what the question asks about; a
    "what ... methods" or "works" asked of them had made it a "which papers" list (probe84 qb026, qb027)."""
    assert_comparison_table(seed_assistant, seed_assistant.answer(question), ["p03", "p19"])


def test_a_description_does_not_run_across_another_the(seed_assistant) -> None:
    """ "... were the experiments run on in the diffusion token-merging paper, the rare attribute-object composition
    paper, and the LLM calibration paper?": "the experiments run on in the diffusion token-merging paper" had been
    one description, and the token-merging paper was left out of the comparison (probe83 qa028)."""
    answer = seed_assistant.answer("Which models were the experiments run on in the diffusion token-merging paper "
                                   "and the LLM calibration paper?")
    assert_comparison_table(seed_assistant, answer, ["p12", "p04"])


def test_papers_described_together_by_their_number_are_compared(seed_assistant) -> None:
    """No name, no description of each: "two abstracts" and what they share pick the papers."""
    answer = seed_assistant.answer("Two abstracts here cut cost by handling only some tokens differently. "
                                   "How do they differ?")
    assert_comparison_of(seed_assistant, answer, {"p12", "p18"})


@pytest.mark.parametrize("question", ["Compare the two papers on diffusion models.",
                                      "What is the difference between the two diffusion papers?"])
def test_papers_counted_by_their_topic_are_found_by_it_not_by_the_question_form(seed_assistant, question) -> None:
    """The counted papers were ranked by the whole sentence: BM25 gave "compare" to the DPO paper ("which pairs
    should be compared"), and "difference between" pulled the visual-routing paper in beside a diffusion one."""
    assert_comparison_of(seed_assistant, seed_assistant.answer(question), {"p12", "p15"})


def test_papers_described_one_and_another_are_compared(seed_assistant) -> None:
    """Described, not named, one per half: "one ... and another that ..."."""
    answer = seed_assistant.answer("I recall one paper that builds a testbed for finding where agent systems fail, "
                                   "and another that trains only the blamed role of an LLM pipeline. How do they "
                                   "use failure attribution differently?")
    assert_comparison_table(seed_assistant, answer, ["p05", "p07"])


def test_described_papers_are_of_the_set_the_comparison_names(seed_assistant) -> None:
    """ "the two papers on text-to-image diffusion: the one that ... failures on rare ... combinations": alone,
    the description had found the failure-attribution paper (probe40 jj033)."""
    answer = seed_assistant.answer("Compare the two papers on text-to-image diffusion: the one that merges tokens "
                                   "and the one that studies failures on rare attribute-object combinations.")
    assert_comparison_table(seed_assistant, answer, ["p12", "p15"])


def test_a_described_paper_does_not_stand_for_all_the_counted_ones(seed_assistant) -> None:
    """ "Two abstracts ... Does the image generation one ...?": the description in the last sentence finds one
    paper; the count says two, so the sentence counting them finds the other."""
    answer = seed_assistant.answer("Two abstracts here cut cost by handling only some tokens differently. "
                                   "Does the image generation one keep its quality?")
    assert {"p12", "p18"} <= set(cited_ids(answer)), answer.text


def test_benchmarks_counted_together_are_benchmark_papers(seed_assistant) -> None:
    """ "Two of the new benchmarks ...": the two compared are papers that are a benchmark or dataset (ranked among
    all papers, a self-supervised paper whose "labels are scarce" had been one of them)."""
    answer = seed_assistant.answer("Two of the new benchmarks here insist their ground-truth labels are reliable. "
                                   "How does each one make sure of that?")
    assert answer.kind == "compare" and len(cited_ids(answer)) == 2, answer.text
    assert set(cited_ids(answer)) <= RESOURCE_PAPERS, answer.text


def holders_text(text: str, phrase: str) -> bool:
    """The text holds the phrase, hyphens and case aside."""
    def plain(words: str) -> str:
        return " " + " ".join(re.split(r"\W+", words.lower())).strip() + " "
    return plain(phrase) in plain(text)


def holders(assistant: Assistant, phrase: str) -> set[str]:
    """The seed papers whose abstract holds a phrase."""
    return {p.id for p in assistant.papers if holders_text(p.text, phrase)}


def test_papers_counted_by_a_phrase_they_quote_are_those_holding_it(seed_assistant) -> None:
    """ "frame their problem as a question of 'where to look'": the papers writing the quoted words, which the
    sentence's other words ("frame", "problem", "mean") did not retrieve."""
    answer = seed_assistant.answer("Two abstracts frame their problem as a question of 'where to look', but they "
                                   "mean quite different things by it. What does each conclude?")
    wanted = holders(seed_assistant, "where to look")
    assert len(wanted) == 2
    assert_comparison_table(seed_assistant, answer, sorted(wanted, key=cited_ids(answer).index))
    # each paper's answer before the table is its sentence writing the quoted words
    lead = [line for line in answer.text.split("\n\n")[0].splitlines() if line.startswith("- ")]
    assert len(lead) == 2 and all(holders_text(line, "where to look") for line in lead), answer.text


@pytest.mark.parametrize("phrase", ["where to look", "bottleneck role", "foundation models"])
def test_a_list_of_papers_using_a_quoted_phrase_is_those_holding_it(seed_assistant, phrase) -> None:
    answer, members, possible = answered_list(seed_assistant, f"Which abstracts use the phrase '{phrase}'?")
    assert set(members) == holders(seed_assistant, phrase), answer.text
    assert f'"{phrase}"' in answer.text.splitlines()[0]


def test_papers_said_to_call_themselves_something_are_those_writing_it_in_their_own_claim(seed_assistant) -> None:
    """ "the ones the authors call training-free": the papers writing the compound, each with its own claim; read
    by its words beside "bolt onto a model", the list had held the label-free and social-learning papers, and
    DaTMe had been quoted by its opening, where token merging "has emerged as" a training-free strategy."""
    answer, members, possible = answered_list(seed_assistant, "Are there methods we can add to a model we already "
                                              "have? Only ones whose authors call them training-free.")
    assert set(members) == holders(seed_assistant, "training-free") and not possible, answer.text
    datme = next(line for line in answer.text.splitlines() if "(p12)" in line)
    assert "we propose" in datme and "has emerged" not in datme, datme


def test_papers_asked_for_by_number_are_the_closest_when_fewer_clear_the_bar(seed_assistant) -> None:
    """ "Which two ...?": the two best matches within reach of the best are compared; a number the evidence
    does not bear out ("Which two papers study birds?") gives the one paper's answer."""
    two = seed_assistant.answer("Which two clinical papers show a model failing when moved to another population?")
    assert two.kind == "compare" and set(cited_ids(two)) == {"p03", "p19"}, two.text
    birds = seed_assistant.answer("Which two papers study birds?")
    assert birds.kind == "fact" and cited_ids(birds)[:1] == ["p10"], birds.text
    none = seed_assistant.answer("Which two papers use federated learning?")  # in no abstract: none, not a quote
    assert none.kind == "list" and not cited_ids(none), none.text


def test_a_seed_comparison_cites_both_named_papers(seed_assistant) -> None:
    answer = seed_assistant.answer("Compare how CoCHI and Who&When Pro make LLM systems more reliable")
    assert_comparison_table(seed_assistant, answer, ["p04", "p05"])


# --------------------------------------------------------------------------- summaries


def test_summary_of_a_named_paper_quotes_only_it_and_says_what_it_is(mini_assistant) -> None:
    answer = mini_assistant.answer("Summarize the GlowNet paper")
    assert answer.kind == "summary" and not answer.refused
    assert_citations_valid(answer)
    assert cited_ids(answer) == ["m1"]
    found = paragraphs(answer.text)
    assert [pid for pid, _ in found] == ["m1"]
    assert_quotes_verbatim(mini_assistant, answer, "m1", found[0][1])
    # The abstract's one contribution sentence ("We present GlowNet, ...") says what GlowNet is.
    (contribution,) = [s for s in sentences_of(mini_assistant.by_id["m1"].text) if s.startswith("We present")]
    assert contribution in quoted_sentences(answer)
    assert len(quoted_sentences(answer)) >= 2  # what it is, and more than that


def test_summary_of_a_seed_paper_names_what_it_is(seed_assistant) -> None:
    answer = seed_assistant.answer("Summarize the V33DA paper")
    assert answer.kind == "summary" and not answer.refused
    assert cited_ids(answer) == ["p10"]
    assert_quotes_verbatim(seed_assistant, answer, "p10", paragraphs(answer.text)[0][1])
    assert any("V33DA" in s for s in quoted_sentences(answer)), answer.text


# --------------------------------------------------------------------------- lists


@pytest.mark.parametrize("question", [
    "Which papers do not use a graph neural network?",
    "Which papers are not about graph neural networks?",
    "Which papers have no graph neural network?",
    "Which works are unrelated to graph neural networks?",
])
def test_a_negated_criterion_lists_the_complement(mini_assistant, question) -> None:
    answer, members, possible = answered_list(mini_assistant, question)
    assert set(members) | set(possible) == set(mini_assistant.by_id) - GNN_PAPERS, answer.text
    assert not set(cited_ids(answer)) & GNN_PAPERS
    assert answer.text.startswith(f"{len(members)} "), answer.text  # the stated count is the listed one


@pytest.mark.parametrize("question", [
    "Which of the multimodal LLM papers don't use audio?",
    "Among the papers on multimodal LLMs, which ones do not involve audio?",
    "Which multimodal LLM papers don't use audio?",  # the set named before the negation
])
def test_a_negation_within_a_described_set_leaves_the_set_members_without_it(seed_assistant, question) -> None:
    """ "which of the X papers do not Y" is X minus Y, not every paper outside X (which listed 13-14 papers)."""
    answer = seed_assistant.answer(question)
    assert answer.kind == "list" and not answer.refused, answer.text
    members, _ = listed(answer)
    assert {"p16", "p11"} <= set(members) and "p08" not in cited_ids(answer), answer.text  # DGP, MODIRECT; AVLLMs
    assert len(members) <= 5 and answer.text.startswith(f"{len(members)} of the "), answer.text
    assert_citations_valid(answer)


@pytest.mark.parametrize("question", [
    "Which abstracts actually name the pretrained models or backbones the experiments use?",
    "I need all papers that actually name the specific pretrained models they run their experiments on.",
    "Any abstracts where the base models evaluated are named?",  # said passive (probe75 pq008)
])
def test_papers_naming_the_models_they_use_are_those_whose_abstracts_write_a_model_name(seed_assistant,
                                                                                       question) -> None:
    """By similarity to "pretrained models" the list had held the papers about pretraining (F1 0.25-0.6 on eight
    tuning lists; asked in four of five blind sets). Now the papers writing another work's coined name: the five
    naming their models (Qwen2.5-7B, PixArt, SD1.5, LLaVA-1.5-7B, TabICL), each quoted by a sentence naming one."""
    answer, members, possible = answered_list(seed_assistant, question)
    assert {"p07", "p12", "p15", "p16", "p19"} <= set(members) and not possible, answer.text
    assert "name of another model, dataset or method" in first_sentence(answer.text), answer.text
    assert not {"p01", "p05", "p10", "p11"} & set(members), answer.text  # (naming only their own constructs)
    assert "p18" not in members, answer.text  # ("methods such as LoRA and DoRA": methods, not its models)


@pytest.mark.parametrize("question", ["Is there anything on non-human animals in this batch?",
                                      "Which papers involve non-human animals in their data?"])
def test_non_human_animals_are_the_animal_papers(seed_assistant, question) -> None:
    """No abstract writes "non-human": by its parts it had matched the papers on humans, and the animal papers
    (motion across animal domains, wildlife monitoring, zebra finches) were missed or flatly refused (probe73
    pn024)."""
    _, members, possible = answered_list(seed_assistant, question)
    assert set(members) == {"p01", "p09", "p10"} and not possible, (members, possible)


@pytest.mark.parametrize("question", [
    "Which of these submissions contain no experiments, only proofs?",
    "List the theory-only abstracts.",
    "Which abstracts never mention running an experiment?",
    # ("the abstract says they are ... work" is what the abstract says, not a paper described: probe70 pk008)
    "Which papers don't mention running any experiments at all, so as far as the abstract says they are purely "
    "pen-and-paper work?",
])
def test_papers_without_experiments_are_those_whose_abstracts_report_none(seed_assistant, question) -> None:
    """The two seed abstracts that only prove things (IndRM, DPO dataset curation); by sentence similarity to
    "experiments", the complement had listed 11-19 papers, or the theory papers that also run experiments."""
    answer, members, possible = answered_list(seed_assistant, question)
    assert set(members) == {"p06", "p13"} and not possible, answer.text
    assert answer.text.startswith("2 papers report no experiment"), answer.text


@pytest.mark.parametrize("question", [
    "Which abstracts give hard numbers for their gains?",
    "List the papers that quantify their improvement in percent or points.",
])
def test_papers_asked_for_their_numbers_are_those_stating_a_measured_figure(seed_assistant, question) -> None:
    """Each is quoted by the sentence holding its figure ("from 25.9% to 85.4%", "+4.2 on SQA"); by similarity
    the list had held papers that only say they outperform."""
    answer, members, possible = answered_list(seed_assistant, question)
    assert set(members) == {"p07", "p11", "p15", "p16", "p18"} and not possible, answer.text
    assert answer.text.startswith("5 papers state a measured result"), answer.text
    assert "85.4%" in answer.text and "+4.2 on" in answer.text, answer.text


def test_a_collection_where_every_abstract_reports_experiments_has_no_theory_only_paper(mini_assistant) -> None:
    answer = mini_assistant.answer("Which papers are purely theoretical, with no experiments?")
    assert answer.kind == "list" and not cited_ids(answer), answer.text
    assert answer.text.startswith("Every abstract in the corpus reports an experiment"), answer.text


def test_a_list_header_quotes_each_alternative(mini_assistant) -> None:
    """ "A, B, or C" is three criteria: the header names each, not one run-together phrase."""
    answer = mini_assistant.answer("Which papers study fireflies, honeybees, or rivers?")
    assert answer.kind == "list" and not answer.refused, answer.text
    assert '"fireflies", "honeybees" or "rivers"' in answer.text.splitlines()[0], answer.text
    assert {"m1", "m2", "m7"} <= set(listed(answer)[0]), answer.text


@pytest.mark.parametrize("question", [
    "Which papers use both graph neural networks and rivers?",
    "List the works that apply both a graph neural network and river sensors.",
])
def test_both_criteria_must_hold_for_a_listed_paper(mini_assistant, question) -> None:
    """Three papers use a graph neural network; only RiverSense (m2) is also about rivers."""
    answer, members, possible = answered_list(mini_assistant, question)
    assert members == ["m2"] and not set(possible) & {"m5", "m6"}, answer.text
    assert answer.text.startswith("1 paper matches ") and '" and "' in answer.text.splitlines()[0], answer.text


def test_when_no_paper_clears_a_plural_list_the_closest_are_shown_as_weaker(seed_assistant) -> None:
    """A criterion of judgement is written in no sentence, so no paper clears the bar: the papers closest to the
    best are listed, said to be weaker matches, rather than one paper's answer, however the papers are asked for.
    Asked for one paper, it is one."""
    criterion = "look inside a model to explain why it fails"
    answer, shown, _ = answered_list(seed_assistant, f"Which papers {criterion}?")
    head = answer.text.splitlines()[0]
    assert head.startswith("No paper in the corpus clearly matches") and "closest" in head, answer.text
    assert 2 <= len(shown) <= MAX_CLOSEST and len(set(shown)) == len(shown), answer.text
    # asked for papers without "which" ("Papers that ...?"), the same weaker matches, not the best one's answer
    answer, terse, _ = answered_list(seed_assistant, f"Papers that {criterion}?")
    assert "closest" in answer.text.splitlines()[0] and len(terse) >= 2, answer.text
    # the paper the question itself retrieves best, which a one-paper answer would quote, is among them
    question = "Which papers first test a claim on synthetic data and then confirm it on real-world data?"
    answer, shown, _ = answered_list(seed_assistant, question)
    assert seed_assistant.retriever.rank(question)[0].paper_id in shown, answer.text
    one = seed_assistant.answer(f"Is there a paper that {criterion}?")
    assert one.kind == "fact" and len(set(cited_ids(one))) == 1, one.text
    # words no abstract writes: nothing is close, whatever scores highest
    none = seed_assistant.answer("Which papers were selected for an oral or spotlight presentation?")
    assert not cited_ids(none), none.text


@pytest.mark.parametrize("question", ["Are there any papers on federated learning?",
                                      "Which works use federated learning?"])
def test_a_criterion_whose_distinctive_word_no_abstract_holds_lists_nothing(seed_assistant, question) -> None:
    """ "learning" is in many seed abstracts, "federated" in none: no paper matches (social and reinforcement
    learning papers were listed for it), none is quoted as if it did."""
    answer = seed_assistant.answer(question)
    assert answer.refused and not answer.cited, answer.text
    assert answer.text.startswith("No paper in the corpus clearly matches"), answer.text


def test_a_concessions_examples_stand_in_for_a_criterion_no_paper_matches(seed_assistant) -> None:
    """ "..., whether A, B or C" accepts each example alike. While the criterion matches papers the examples stay
    aside ("code being shared, whether it's already out or just promised"); when it matches none (no abstract
    writes "hospitals"), they are what the list is of: the answer had been that no paper matches (probe113 rf002)."""
    answer = seed_assistant.answer("Which papers matter for hospitals, whether medical imaging, clinical tests or "
                                   "patient data?")
    assert not answer.refused and {"p03", "p14"} <= set(cited_ids(answer)), answer.text
    assert "medical imaging" in answer.text.split("\n")[0], answer.text


@pytest.mark.parametrize("question", ["Which papers use batch normalization?",
                                      "Which papers in this batch use batch normalization?"])
def test_a_topic_half_of_whose_words_no_abstract_holds_lists_nothing(seed_assistant, question) -> None:
    """No abstract writes "batch" and none clears the bar; "normality" shares a stem with "normalization", and
    the cfDNA paper's "local-asymptotic-normality" sentence had been quoted as the answer."""
    answer = seed_assistant.answer(question)
    assert answer.refused and not answer.cited, answer.text
    assert answer.text.startswith('No paper in the corpus clearly matches "batch normalization"'), answer.text


@pytest.mark.parametrize(("question", "topics"), [
    ("Which papers cover speech synthesis or machine translation?", '"speech synthesis" or "machine translation"'),
    ("Which works study recommender systems or online advertising?", '"recommender systems" or "online advertising"'),
])
def test_alternative_topics_none_of_which_the_abstracts_write_list_nothing(seed_assistant, question, topics) -> None:
    """Each alternative is a short topic that no abstract writes, though together they are too many words for one
    topic: the answer names both as matched by no paper (it had been a vague refusal, or a quote of the closest
    paper for "federated learning or privacy-preserving training across devices")."""
    answer = seed_assistant.answer(question)
    assert answer.refused and not answer.cited, answer.text
    assert answer.text.startswith(f"No paper in the corpus clearly matches {topics}"), answer.text


def test_papers_clearing_a_criterion_are_listed_when_the_whole_question_is_far_from_every_passage(
        seed_assistant) -> None:
    """ "Is anyone in this batch working with animals or animal data?" was "The abstracts in this corpus don't
    answer this question": the whole question's similarity decided before any paper's membership was asked."""
    answer, members, _ = answered_list(seed_assistant, "Is anyone in this batch working with animals or animal data?")
    assert {"p01", "p09"} <= set(members), answer.text  # the animal-motion and the wildlife-monitoring abstracts


@pytest.mark.parametrize("question", ["Which papers involve animals?", "Anything with animals in it?"])
def test_a_paper_saying_the_criterion_across_sentences_is_listed(seed_assistant, question) -> None:
    """The bird-call benchmark writes "zebra finches", "per-bird" and "individuals", no word close enough to
    "animals" for any one sentence to clear the bar, but its passage is the one "animals" retrieves first by far."""
    answer, members, _ = answered_list(seed_assistant, question)
    assert {"p01", "p09", "p10"} <= set(members), answer.text


def test_a_passage_retrieved_first_makes_no_list_alone(seed_assistant) -> None:
    """No sentence clears "recommender systems"; the tensor-train paper its passages retrieve first is no list."""
    answer = seed_assistant.answer("Are there any papers on recommender systems, like suggesting films to viewers?")
    assert answer.kind != "list" or not answer.cited, answer.text


def test_papers_asked_for_in_a_conversation_are_listed_as_when_asked_first(seed_assistant) -> None:
    """Asked after another turn in the chat (found in a screenshot), the same question was refused: only a question
    without conversation papers could become a list, though this one points at none of them."""
    question = "Is anyone in this batch working with animals or animal data?"
    history = _turn(seed_assistant, "Which abstracts use the phrase 'where to look'?")
    first, later = seed_assistant.answer(question), seed_assistant.answer(question, history=history)
    assert later.kind == "list" and not later.refused, later.text
    assert cited_ids(later) == cited_ids(first), later.text


def test_what_does_not_count_is_never_reported_missing(seed_assistant) -> None:
    """ "(not just citing a known weakness as motivation)" says which papers do not count; the tabular paper's
    answer had said its abstract "does not mention 'weakness'", refusing a question it answers."""
    answer = seed_assistant.answer("Which papers run their own tests showing that tabular foundation models break "
                                   "down (not just citing a known weakness as motivation)?")
    assert not answer.refused and "p19" in cited_ids(answer), answer.text
    assert "weakness" not in answer.text, answer.text


def test_the_words_describing_the_paper_are_never_reported_missing(seed_assistant) -> None:
    """ "the bottleneck-role multi-agent RL paper" says which paper is meant; RISE writes "Reinforcement learning",
    never "RL", and the answer had been that its abstract "does not mention 'RL'", refusing what it answers."""
    answer = seed_assistant.answer("Which benchmarks did the bottleneck-role multi-agent RL paper test on?")
    assert not answer.refused and cited_ids(answer)[:1] == ["p07"], answer.text
    assert "does not mention" not in answer.text, answer.text


def test_a_word_in_the_other_spelling_is_never_reported_missing(seed_assistant) -> None:
    """META-DINO writes "highly-specialized"; asked about "specialised" methods, the answer had said its abstract
    "does not mention 'specialised'" while quoting that sentence (probe178 un014)."""
    answer = seed_assistant.answer("Does META-DINO beat specialised, domain-specific methods?")
    assert not answer.refused and "does not mention" not in answer.text, answer.text


@pytest.mark.parametrize("question", [
    "Does the Token Hypothesis cut total GPU memory by more than 10% on long-context tasks?",
    "Is DGP's MM-Vet gain over the LLaVA-1.5-7B baseline above 2.5 points?",
])
def test_a_bar_the_question_sets_for_a_figure_is_never_reported_missing(seed_assistant, question) -> None:
    """ "more than 10%" is what the stated figure is held against, not a name the abstract must write: the answer
    had been that the abstract "does not mention '10'", beside the sentence stating the figure asked about."""
    answer = seed_assistant.answer(question)
    assert not answer.refused and "does not mention" not in answer.text, answer.text


@pytest.mark.parametrize(("question", "resource"), [
    ("Which papers introduce a new dataset about birds?", "p10"),
    ("Which papers release a new benchmark for AI agents?", "p05"),
])
def test_a_resource_asked_on_a_topic_is_the_one_on_it(seed_assistant, question, resource) -> None:
    """Each of the three benchmark papers says it is one; asked for one on a topic, the three had all matched
    fully, the zebra-finch benchmark for AI agents too."""
    answer = seed_assistant.answer(question)
    assert cited_ids(answer) == [resource], answer.text


def test_what_most_resources_are_for_is_no_topic(seed_assistant) -> None:
    """ "for evaluating models": two of the three benchmark abstracts write "evaluate", and the third is still one."""
    answer = seed_assistant.answer("Which papers introduce a new benchmark for evaluating models?")
    assert {"p05", "p10", "p11"} <= set(cited_ids(answer)), answer.text


@pytest.mark.parametrize(("question", "setting"), [
    ("Which batch size was DaTMe run with?", "batch size"),
    ("What dropout rate and LoRA rank does CoCHI need?", "dropout rate"),
    # (DGP's abstract states its gains, "+4.2 on SQA", never what its connections cost)
    ("How much inference latency do DGP's all-to-all connections add?", "inference latency"),
    # and a measure: IndRM's abstract states no result at all (probe79 pu039)
    ("What F1 does IndRM reach in recovering parent sets?", "F1"),
    # a setting whose quantity no abstract writes, its other word common ("social learning"): the gains had answered
    ("At what learning rate were the social learners trained?", "learning rate"),
    # of the paper answering, a measure asked in the passive: another paper's "site-sensitive" had counted as
    # "sensitivity" written (probe85 qc035)
    ("On real patients, what sensitivity and specificity were reached by the cell-free DNA classifier for chronic "
     "disease?", "sensitivity"),
])
def test_a_setting_whose_name_the_abstract_never_writes_is_not_stated(seed_assistant, question, setting) -> None:
    """A batch size is a figure of its own: the answer had quoted whatever figures the abstract states (RISE's
    "up to 11.1% relative F1" for its batch size) as if they gave it."""
    answer = seed_assistant.answer(question)
    assert answer.refused and f'"{setting}"' in answer.text.split("\n")[0], answer.text


def test_an_ablation_asked_about_and_never_written_is_not_stated(seed_assistant) -> None:
    """ "Did the DGP paper ablate the dynamic gating?" had quoted DGP's gains (probe75 pq035): like code, an ablation
    is a field abstracts seldom fill. One the abstract writes is quoted."""
    answer = seed_assistant.answer("Did the DGP paper ablate its dynamic gating against fixed layer weights?")
    assert answer.refused and '"ablate"' in answer.text.split("\n")[0], answer.text
    written = seed_assistant.answer("Which ablation in the compositional stress paper moves semantics?")
    assert not written.refused and "ablation" in written.text, written.text


@pytest.mark.parametrize(("question", "term"), [
    ("Did the DaTMe experiments use several seeds?", "seeds"),
    ("Is DGP's gain over LLaVA-1.5 backed by significance tests?", "significance"),
    ("How well did the V33DA annotators agree (inter-annotator scores)?", "inter-annotator"),
    # the oversight a study went through (probe148 tg037), the field inside a hyphened word too: "animal" is in
    # several abstracts, "welfare" in none
    ("Did the Who&When Pro annotation study get IRB sign-off?", "IRB"),
    ("Were the DaTMe user studies run with participants' consent?", "consent"),
    ("Did the V33DA recordings pass an animal-welfare check?", "welfare"),
    # ... and the training setup
    ("Which optimizer trained the DaTMe backbone?", "optimizer"),
    ("For how many epochs was VolumeProbe pretrained?", "epochs"),
])
def test_statistics_or_oversight_asked_about_and_never_written_are_not_stated(seed_assistant, question, term) -> None:
    """How results are reported (seeds, significance, intervals, annotators' agreement), the oversight a study went
    through (ethics review, consent, a regulator's clearance) and its training setup (optimizer, epochs) are fields
    abstracts seldom fill, like an ablation:
    "Were RISE's gains averaged over several random seeds?" had quoted the gains, and the finch benchmark's size had
    answered whether its project went through an animal-welfare review."""
    answer = seed_assistant.answer(question)
    assert answer.refused and f'"{term}"' in answer.text.split("\n")[0], answer.text


def test_a_hyphenated_word_is_not_cut_into_one_no_abstract_writes(seed_assistant) -> None:
    """ "Who-said-what" had lost its form word "said" and become "Who-what", which the finch abstract was said not to
    mention while its sentence on deciding which member produced a call was quoted (probe148 tg029)."""
    answer = seed_assistant.answer("Who-said-what matters in court transcripts. Is there work on working out which "
                                   "individual produced an utterance?")
    assert not answer.refused and "Who-what" not in answer.text and "p10" in cited_ids(answer), answer.text


def test_the_name_of_the_paper_asked_about_does_not_pick_its_sentence(seed_assistant) -> None:
    """ "Dynamic Gated Pathways (DGP)" says which paper is asked about; as terms, the name had made the sentence
    introducing DGP by name the answer over "Built on top of LLaVA-1.5-7B and 13B, ..." (probe39 ii024)."""
    answer = seed_assistant.answer("Dynamic Gated Pathways (DGP) is built on top of which base model?")
    assert not answer.refused and "LLaVA-1.5-7B" in answer.text, answer.text


@pytest.mark.parametrize("question", [
    "How long does the tensor-train counting pipeline take to run on the largest Sudoku?",
    "How much faster are the tensor-train weighted model counting pipelines than exact compilation?",
    # a time measure asked the value of (probe104 qw036, probe98 qp037, probe96 qn039)
    "For the tensor-train counting pipelines, what is the wall-clock cost against exact compilation?",
    "DGP wires every ViT layer to every LLM layer; whats the latency overhead?",
    "Does DGP's routing slow the model down? I'd like the inference latency overhead.",
    # an aside before the verb, or the unit of work (probe113 rf040, probe112 re038)
    "How long, roughly, do the tensor-train counting pipelines take on the largest Sudoku?",
    "Tensor-train counting pipelines on Sudoku: how long per run?",
])
def test_how_long_or_how_much_faster_of_an_abstract_writing_no_time_is_not_stated(seed_assistant, question) -> None:
    """The Sudoku paper writes no word of time or speed: its "many orders-of-magnitude more accurate" had answered
    both (probe72 pm039, probe69 pj039)."""
    answer = seed_assistant.answer(question)
    assert answer.refused and "how long it takes" in answer.text.split("\n")[0], answer.text


@pytest.mark.parametrize("question", [
    "What accuracy rate does DeltaDirect reach on the synthetic benchmark?",  # (the abstract writes "accuracy")
    "What accuracy does DeltaDirect reach on the synthetic benchmark?",  # (a measure it writes)
    "What model size does DGP build on?",  # (the size of what a paper builds: "LLaVA-1.5-7B and 13B")
    "How much memory overhead does the Token Hypothesis remove?",  # (it writes "memory")
    # (how long the fine-tuning is, not how long it takes: "fewer than 300 steps")
    "In the audio-visual LLM paper that overlays active-speaker boxes, how long is the lightweight fine-tuning?",
])
def test_a_setting_the_abstract_names_is_never_reported_missing(seed_assistant, question) -> None:
    answer = seed_assistant.answer(question)
    assert "does not mention" not in answer.text, answer.text


@pytest.mark.parametrize("question", ["who wrote the DaTMe paper?", "Who is behind the Token Hypothesis?"])
def test_asking_who_wrote_a_paper_is_asking_for_its_authors(seed_assistant, question) -> None:
    """No abstract names its authors; "who wrote" had been read as a question about the paper's topic and
    answered with its opening sentences, as if they said who wrote it."""
    answer = seed_assistant.answer(question)
    assert answer.refused and '"authors"' in answer.text.split("\n")[0], answer.text


def test_who_working_on_something_is_not_asking_for_authors(seed_assistant) -> None:
    answer = seed_assistant.answer("Who here works on making fine-tuning use less GPU memory?")
    assert not answer.refused and "p18" in cited_ids(answer), answer.text


def test_a_sentence_writing_every_word_asked_is_relevant_however_low_its_similarity(seed_assistant) -> None:
    """MiniLM scores "What is a probe bank?" at 0.23 against VolumeProbe's sentence on its "offline coarse-to-fine
    probe bank", under the relevance floor, and the answer had been that the abstracts don't answer it."""
    answer = seed_assistant.answer("What is a probe bank?")
    assert not answer.refused and cited_ids(answer)[:1] == ["p14"], answer.text
    assert "probe bank" in answer.text, answer.text
    assert seed_assistant.answer("What is a bank?").refused  # (one word written is no evidence)


def test_a_list_asking_for_code_finds_the_sentences_saying_where_it_is(seed_assistant) -> None:
    """ "ship code" is written in no abstract, and the four sentences on code ("Code is available at ...", "code
    ... provided in the supplementary material", "We will open-source code ...") had scored too low to clear the
    bar: none matched. The sentences in the release role now count for a criterion asking for it."""
    answer = seed_assistant.answer("Which papers ship their code?")
    assert answer.kind == "list" and not answer.refused, answer.text
    assert {"p04", "p07", "p10", "p16"} <= set(cited_ids(answer)), answer.text  # CoCHI, RISE, V33DA, DGP


@pytest.mark.parametrize("question", ["What datasets are used across the vision papers?",
                                      "Which benchmarks do the vision papers evaluate on?"])
def test_what_a_described_set_is_asked_for_is_what_each_member_is_quoted_for(seed_assistant, question) -> None:
    """Asked what data the vision papers use, each listed paper is quoted where it says what it ran on or names a
    dataset or benchmark; the list had quoted each paper's vision sentence ("We propose a label-free approach to
    adapt ... vision foundation models ...") under a question about datasets (issue 7, "Why")."""
    answer, members, _ = answered_list(seed_assistant, question)
    assert len(members) >= 2, answer.text
    bodies = [m["body"] for m in map(ITEM_HEAD.match, answer.text.splitlines()) if m]
    assert all(reports_experiment(b) or re.search(r"dataset|benchmark", b, re.IGNORECASE) for b in bodies), bodies
    assert "each with what it was evaluated on" in answer.text.splitlines()[0], answer.text  # the header says so


@pytest.mark.parametrize(("question", "criterion"), [
    ("Tell me about the medical papers", "Which papers are medical?"),
    ("Give me an overview of the medical papers", "Which papers are medical?"),
    ("What is the main contribution of each LLM paper?", "Which papers are about LLMs?"),
])
def test_asked_about_a_set_it_describes_the_answer_is_that_set(seed_assistant, question, criterion) -> None:
    """ "Tell me about the medical papers" had been the overview of all 19 papers (its one topic word scores low
    against every sentence, as a question about the collection's topics does), and "the main contribution of each
    LLM paper" a fact answer from DGP alone. Each is now the set's papers, those the plain list question finds:
    listed, or compared when they are few."""
    answer = seed_assistant.answer(question)
    _, expected, _ = answered_list(seed_assistant, criterion)
    assert answer.kind in ("list", "compare") and not answer.refused, answer.text
    assert_citations_valid(answer)
    assert 2 <= len(expected) < len(seed_assistant.papers), expected
    assert sorted(cited_ids(answer)) == sorted(expected), (answer.text, expected)


def test_a_request_to_show_the_papers_asks_no_role_of_them(seed_assistant) -> None:
    """ "Show me the diffusion model papers": "show" asks for the list, not for what each paper shows, so each
    paper is quoted where it is about diffusion models, not by its results."""
    answer, members, _ = answered_list(seed_assistant, "Show me the diffusion model papers.")
    bodies = [m["body"] for m in map(ITEM_HEAD.match, answer.text.splitlines()) if m]
    assert len(members) >= 2 and all("diffusion model" in b.lower() for b in bodies), answer.text


def test_papers_set_aside_by_description_leave_the_list(seed_assistant) -> None:
    """ "Other than the papers about X, which papers Y?" lists the Y papers that are not X; the "other than" had
    negated the whole question, and the list was every paper about neither."""
    llm = set(cited_ids(seed_assistant.answer("Which papers are about large language models?")))
    answer = seed_assistant.answer("Other than the papers about large language models, which papers work with images?")
    assert answer.kind == "list" and not answer.refused, answer.text
    assert "p15" in cited_ids(answer), answer.text  # the text-to-image paper
    assert llm and not llm & set(cited_ids(answer)), answer.text
    assert "setting aside" in answer.text, answer.text


def test_the_askers_preamble_is_never_reported_missing(seed_assistant) -> None:
    """ "Our lab ..." is the asker's, not asked of any paper: the answer had said the Token Hypothesis abstract
    "does not mention 'lab'"."""
    answer = seed_assistant.answer("Our lab is short on GPUs. Anything about making networks cheaper to run?")
    assert not answer.refused and "p18" in cited_ids(answer), answer.text
    assert "lab" not in answer.text.split(), answer.text


def test_borderline_papers_are_shown_even_when_one_paper_clears(seed_assistant) -> None:
    """V33DA says "we release ... code" and clears "release code"; RISE's "Code is available at" and CoCHI's
    "code [is] provided in the supplementary material" score below its bar but near it. Answering from V33DA
    alone hid them; a list of one with "possibly also" shows them (issue 7: borderline shown, not hidden)."""
    answer, members, possible = answered_list(seed_assistant, "Which papers release code or say they will?")
    assert len(members) >= 1 and len(members) + len(possible) >= 3, answer.text
    assert answer.text.startswith(f"{len(members)} paper"), answer.text
    bodies = [m["body"] for m in map(ITEM_HEAD.match, answer.text.splitlines()) if m]
    assert len(bodies) == len(members) + len(possible) and all("code" in b.lower() for b in bodies), bodies


def test_one_set_member_left_is_counted_in_the_singular(seed_assistant) -> None:
    answer = seed_assistant.answer("Which genomics papers do not use tabular models?")
    assert answer.kind == "list" and listed(answer)[0] == ["p03"], answer.text  # the cfDNA paper; not p19's TabPFN
    assert answer.text.startswith('1 of the "genomics" papers is not about "tabular models":'), answer.text


def test_a_set_member_never_writing_the_excluded_word_lacks_it(seed_assistant) -> None:
    """The cfDNA paper had cleared "imaging data" by its "real patient data", and "which of the medical papers have
    no imaging data?" left it out; META-DINO's "medical imaging" keeps it in the excluded part."""
    answer = seed_assistant.answer("Of the medical papers, which ones have no imaging data?")
    assert answer.kind == "list" and "p03" in cited_ids(answer) and "p09" not in cited_ids(answer), answer.text


GNN_VARIANTS = [
    "Which papers use graph neural networks?",
    "Is there any work on graph neural networks?",
    pytest.param("List the papers that apply GNN-style graph networks.", marks=pytest.mark.xfail(
        strict=True, reason="'GNN-style' dilutes the criterion: fewer than two papers clear it, so a fact answer")),
    "Which works rely on a graph neural network?",
    "Are there papers that apply graph neural networks?",
    "List papers that use graph neural networks.",
    # asking for papers without a set cue: the evidence (several papers clear the bar) makes it a list
    "What work uses graph neural networks?",
    "Is anyone using graph neural networks?",
    "papers that use graph neural networks?",
    "Anything here on graph neural networks?",
    "graph neural network papers?",
    # a paper noun or "anyone"/"who" anywhere asks for papers; the corpus and the asker are not the criterion
    "Papers dealing with graph neural networks?",
    "Anything in this collection on graph neural networks?",
    "Who's working on graph neural networks?",
    "I need every paper built on graph neural networks.",
    # a preamble is not the criterion ("reviewing workshop ML healthcare medical ..." had been one)
    "I'm putting together a reading list for my lab's Friday seminar. Which papers use graph neural networks?",
]


@pytest.mark.parametrize("question", GNN_VARIANTS)
def test_list_phrasings_of_one_criterion_give_the_same_set(mini_assistant, question) -> None:
    answer, members, possible = answered_list(mini_assistant, question)
    assert len(members) == len(set(members))
    assert set(members) == GNN_PAPERS, answer.text
    assert not set(possible) & GNN_PAPERS
    assert answer.text.startswith(f"{len(members)} "), answer.text
    assert set(cited_ids(answer)) == set(members) | set(possible)


@pytest.mark.parametrize("question", ["Which paper studies zebra finch vocalizations?",
                                      "Is anyone working on zebra finch vocalizations?"])
def test_asking_for_papers_that_one_paper_answers_gives_that_papers_answer(seed_assistant, question) -> None:
    """Asking for papers without a set cue becomes a list only when several papers clear the bar: one paper that
    does gets its own answer (V33DA's zebra finches), not a list of one."""
    answer = seed_assistant.answer(question)
    assert answer.kind == "fact" and not answer.refused, answer.text
    assert cited_ids(answer)[0] == "p10", answer.text


def test_items_named_a_sentence_each_are_not_said_to_be_missing(seed_assistant) -> None:
    """SIF names its two failure modes in two sentences ("... yields \\emph{gauge non-identifiability}", "the
    complementary failure mode, \\emph{conditional-mean degeneration}"); no one sentence lists both, and the
    answer said "The SIF abstract does not name the two failure modes"."""
    answer = seed_assistant.answer("What does Source-Instance Fidelity (SIF) test in cross-skeleton motion "
                                   "generation, and which two failure modes of standard training objectives does "
                                   "the paper name?")
    assert not answer.refused and "does not" not in answer.text.split("\n")[0], answer.text
    assert "conditional-mean degeneration" in answer.text and cited_ids(answer) == ["p01"], answer.text


def test_the_asker_introducing_themselves_is_never_reported_missing(seed_assistant) -> None:
    """ "I'm a PhD student new to this area. How many verified events does V33DA contain?" was refused: "The
    V33DA abstract does not mention 'PhD'"."""
    answer = seed_assistant.answer("I'm a PhD student new to this area. How many verified events does V33DA "
                                   "contain?")
    assert not answer.refused and "33,625" in answer.text and cited_ids(answer) == ["p10"], answer.text


def test_a_description_of_a_part_of_the_named_paper_points_at_that_paper(seed_assistant) -> None:
    """ "the synthetic benchmark" is MODIRECT's (its abstract writes "synthetic"); retrieved alone it is the
    tabular paper's "synthetic task families", and the answer compared the two."""
    answer = seed_assistant.answer("On the synthetic benchmark, what motion direction accuracy does DeltaDirect "
                                   "go from and to?")
    assert answer.kind == "fact" and cited_ids(answer) == ["p11"] and "85.4%" in answer.text, answer.text


@pytest.mark.parametrize(("question", "written"), [
    ("For DaTMe's importance map, which signal was it built from: optical flow, depth, or saliency?", None),
    ("Which signal (optical flow, depth or saliency) does DaTMe build its importance map from?", None),
    ("For DaTMe's experiments, which generator was it: Imagen, FLUX, or Midjourney?", "FLUX"),
])
def test_answers_a_question_offers_are_said_missing_when_the_abstract_writes_none(seed_assistant, question,
                                                                                  written) -> None:
    """Asked "which modality was it: chest radiographs, CT, histopathology?", the META-DINO answer quoted its
    "medical imaging" sentence as if it said (probe150 ti039): an abstract writing none of the answers offered does
    not say which; one writing an offered answer is quoted with it."""
    answer = seed_assistant.answer(question)
    assert cited_ids(answer) == ["p12"], answer.text
    if written is None:
        assert answer.refused and '"optical flow", "depth" or "saliency"' in first_sentence(answer.text), answer.text
    else:
        assert not answer.refused and written in answer.text, answer.text


@pytest.mark.parametrize(("question", "noun"), [
    ("Which exact CT/MRI datasets was VolumeProbe pretrained on?", "CT/MRI datasets"),  # (probe153 tm040)
    ("Which specific 3D medical SSL backbones was VolumeProbe tested with?", "3D medical SSL backbones"),
])
def test_named_things_asked_for_with_long_or_slashed_modifiers_are_said_not_to_be_named(seed_assistant, question,
                                                                                        noun) -> None:
    """ "which exact CT/MRI datasets did they pretrain on?" asks for names as "which LLMs" does; VolumeProbe's
    abstract gives none, and its opening sentence had been quoted as the answer."""
    answer = seed_assistant.answer(question)
    assert cited_ids(answer) == ["p14"], answer.text
    assert answer.refused and first_sentence(answer.text).endswith(f"does not name the {noun}."), answer.text


@pytest.mark.parametrize(("question", "paper_id", "named"), [
    ("Which specific LLMs did CoCHI run on?", "p04", None),  # "Experiments across multiple LLMs": none named
    ("Which backbone models did RISE run on?", "p07", "Qwen2.5-7B"),
    ("Which diffusion models was DaTMe evaluated on?", "p12", "FLUX"),
    ("Which question-answering datasets were used to evaluate RISE?", "p07", "HotpotQA"),  # (probe85 qc033)
])
def test_named_things_asked_for_are_quoted_or_said_not_to_be_named(seed_assistant, question, paper_id, named) -> None:
    """Asked which LLMs CoCHI ran on, the answer quoted "Experiments across multiple LLMs show ..." as if it said;
    an abstract that names its models is quoted where it does."""
    answer = seed_assistant.answer(question)
    assert cited_ids(answer) == [paper_id], answer.text
    if named is None:
        assert answer.refused and first_sentence(answer.text).endswith("does not name the LLMs."), answer.text
        assert "Experiments across multiple LLMs" in answer.text, answer.text  # how the abstract speaks of them
    else:
        assert not answer.refused and named in answer.text, answer.text


@pytest.mark.parametrize("question", ["What are the names of the two versions of VolumeProbe?",
                                      "VolumeProbe comes in two flavours - what are they called?"])
def test_things_an_abstract_calls_otherwise_are_quoted_not_said_to_be_unnamed(seed_assistant, question) -> None:
    """VolumeProbe's abstract names "a lightweight Lite variant ... and a diagnostic Feat variant"; asked for its two
    "versions", the answer had said it "does not name the two versions" while quoting that sentence (probe52 ph019,
    probe74 po031)."""
    answer = seed_assistant.answer(question)
    assert cited_ids(answer) == ["p14"] and not answer.refused, answer.text
    assert "Lite variant" in answer.text and "Feat variant" in answer.text, answer.text


def test_things_counted_then_asked_for_by_name_are_said_not_to_be_named(seed_assistant) -> None:
    """ "... on three MARL environments - what are their names?" asks what "What are the names of the three MARL
    environments ...?" asks; read as "what are ...", the answer had quoted the counting sentence (probe97 qo037)."""
    answer = seed_assistant.answer("Selective Social Learning runs its experiments in three MARL environments; what "
                                   "were they called?")
    assert cited_ids(answer) == ["p02"], answer.text
    assert answer.refused and first_sentence(answer.text).endswith("does not name the three MARL environments."), \
        answer.text
    # counted by the abstract in its own word: still counted, not named ("the 3 marl envs", probe98 qp038)
    other = seed_assistant.answer("Selective Social Learning: what were the 3 MARL setups called?")
    assert other.refused and first_sentence(other.text).endswith("does not name the three MARL setups."), other.text


@pytest.mark.parametrize(("question", "noun"), [
    ("The speaker-box prompting trick for audio-visual LLMs: which active speaker detection model did they use?",
     "active speaker detection model"),
    ("Which specific off-the-shelf active speaker detection model did the audio-visual binding paper use?",
     "off-the-shelf active speaker detection model"),  # (five words before the noun, probe96 qn037)
    ("Which specific audio-visual LLMs were analysed in the active speaker prompting work?", "audio-visual LLMs"),
])
def test_a_described_paper_naming_nothing_else_is_said_not_to_name_what_is_asked(seed_assistant, question,
                                                                                 noun) -> None:
    """The audio-visual prompting abstract writes "an off-the-shelf Active Speaker Detection (ASD) model" and
    "ASD-prompted-videos", its own acronym, and names no model; described rather than named, and asked which one
    (probe100 qs040, probe101 qt039), the answers had quoted those sentences as if they named it."""
    answer = seed_assistant.answer(question)
    assert cited_ids(answer) == ["p08"], answer.text
    assert answer.refused and first_sentence(answer.text).endswith(f"does not name the {noun}."), answer.text


@pytest.mark.parametrize(("question", "noun"), [
    ("Which pretraining backbones did the VolumeProbe experiments use?", "pretraining backbones"),
    ("Which 3D self-supervised backbones is VolumeProbe tested with?", "3D self-supervised backbones"),
    ("What CT or MRI datasets does VolumeProbe evaluate on?", "CT or MRI datasets"),
])
def test_an_abstract_naming_only_its_own_variants_and_spelled_out_terms_names_none(seed_assistant, question,
                                                                                 noun) -> None:
    """VolumeProbe's abstract writes "multiple 3D medical SSL backbones", "VolumeProbe-Lite" and "a lightweight
    Lite variant": its own variants and the acronym of "Self-supervised learning" it opens with, no other work's
    name. Asked which backbones or datasets, the answers had quoted that sentence as if it named them (probe80-83)."""
    answer = seed_assistant.answer(question)
    assert cited_ids(answer) == ["p14"], answer.text
    assert answer.refused and first_sentence(answer.text).endswith(f"does not name the {noun}."), answer.text


@pytest.mark.parametrize("question", [
    "multi-llm pipeline trained by rl on the final outcome.. which paper only updates the one role at fault",
    "multi-llm agent pipeline trained by rl: whos the paper that updates only the culprit role",
])
def test_an_acronym_whose_words_the_abstract_writes_is_not_missing(seed_assistant, question) -> None:
    """RISE's abstract opens "Reinforcement learning from trajectory-level outcomes" and never writes "RL": asked
    for the paper trained "by rl", the answer had said the RISE abstract does not mention "RL" (probe80 pv015)."""
    answer = seed_assistant.answer(question)
    assert cited_ids(answer)[:1] == ["p07"] and not answer.refused, answer.text
    assert "does not mention" not in answer.text, answer.text


def test_one_paper_sought_that_no_paper_clears_as_a_list_is_found_as_a_fact(seed_assistant) -> None:
    """A long paraphrase asking "Is there a paper that ...?" scores every paper low against its many words; "no
    paper in the corpus clearly matches" had been the answer, the causal-parents paper the one meant (probe85
    qc013). One paper sought and none clearing a list's bar, the question is answered as a fact."""
    answer = seed_assistant.answer("Is there a paper that shows how to pick out exactly which variables directly "
                                   "drive one chosen outcome, by checking what is left over after fitting it?")
    assert cited_ids(answer)[:1] == ["p06"] and not answer.refused, answer.text


def test_what_is_a_term_leads_with_the_sentence_saying_what_it_is(seed_assistant) -> None:
    """ "What is token merging?" led with "A key challenge is determining which tokens can be safely merged";
    DaTMe's abstract opens with what token merging is."""
    answer = seed_assistant.answer("What is token merging?")
    body = paragraphs(answer.text)[0][1]
    assert answer.kind == "fact" and cited_ids(answer)[0] == "p12", answer.text
    assert unmarked(first_sentence(body)).startswith("Token merging has emerged as"), answer.text


def test_a_sentence_two_clauses_pick_is_quoted_once(seed_assistant) -> None:
    """Each clause of a question gets its best sentence; when two clauses pick the same one it was quoted twice
    ("Crucially, we reveal ... [2]. Crucially, we reveal ... [2]."). The question now gets a comparison, whose
    lead quotes each paper's sentence for each clause: the same holds there."""
    answer = seed_assistant.answer("One paper shows audio-visual LLMs confuse who is speaking, another that video LLMs "
                                   "can't tell which way an object moves. Where does each locate the failure, and how "
                                   "does each fix it?")
    lines = [line.removeprefix("- ") for line in answer.text.splitlines()]
    quoted = [unmarked(s) for _, body in paragraphs("\n".join(lines)) for s in sentences_of(body)]
    assert len(quoted) >= 2 and len(quoted) == len(set(quoted)), answer.text


RESOURCE_PAPERS = {"p05", "p10", "p11"}  # "Who&When Pro, a large-scale benchmark", "V33DA, a multimodal benchmark",
# "MODIRECT, a dataset family"; CoCHI, DGP and the audio-visual paper evaluate on benchmarks


@pytest.mark.parametrize("question", [
    "Which papers introduce a new benchmark?",
    "Which papers release a new dataset?",
    "What work in this collection introduces a new, named benchmark or dataset?",
    "List the submissions that introduce a new benchmark or dataset and give its size.",
    "What new benchmarks or datasets come out of this batch?",  # (no paper noun: probe89 qg012)
    # "releases" frames the request, no topic of it; "a new, named" is no list; "who here" asks for papers, and what
    # they need not be ("even if ...") points back at nothing (probe139 sf001, probe104 qw003)
    "Who releases a named benchmark or dataset for other groups?",
    "Setting theory aside: who here releases a new, named benchmark or dataset, even if it ships with a method too?",
])
def test_papers_contributing_a_benchmark_are_those_that_are_one(seed_assistant, question) -> None:
    answer, members, possible = answered_list(seed_assistant, question)
    assert set(members) == RESOURCE_PAPERS and not possible, answer.text


@pytest.mark.parametrize("question", ["Which benchmark is the largest?", "Which paper has the biggest dataset?",
                                      "Which benchmark contains more items?"])
def test_the_largest_benchmark_is_answered_from_the_sizes_the_benchmark_papers_state(seed_assistant, question) -> None:
    """Asked across the collection, this quoted DGP's "most benchmarks" or the DPO dataset-curation paper; the
    benchmark papers are compared, with the counts they state and whose is larger."""
    answer = seed_assistant.answer(question)
    assert answer.kind == "compare" and set(cited_ids(answer)) == RESOURCE_PAPERS, answer.text
    note = next(line for line in answer.text.splitlines() if line.startswith("_Stated sizes"))
    assert "33,625" in note and "12,326" in note and "V33DA's" in note and "MODIRECT states no size" in note, note


def test_the_largest_of_the_benchmarks_just_listed_is_answered_from_their_sizes(seed_assistant) -> None:
    """After the list of benchmark papers, "Which benchmark is the largest?" said "The Who&When Pro, V33DA and
    MODIRECT abstracts do not say which one is the largest", though two of them state their size."""
    listed_first = "Which papers introduce a new benchmark?"
    first = seed_assistant.answer(listed_first)
    history = [Message("user", listed_first), Message("assistant", first.text)]
    answer = seed_assistant.answer("Which benchmark is the largest?", history=history)
    assert answer.kind == "compare" and not answer.refused, answer.text
    assert set(cited_ids(answer)) == RESOURCE_PAPERS and "The larger number is V33DA's" in answer.text, answer.text


@pytest.mark.parametrize("followup", ["How does it compare to the other diffusion paper?",
                                      "Compare it with the paper on rare attribute-object compositions."])
def test_it_and_another_described_paper_are_compared(seed_assistant, followup) -> None:
    """After "What is DaTMe?", "How does it compare to the other diffusion paper?" was DaTMe's summary: "it" was
    not counted as one of the two papers, and the description found DaTMe itself."""
    first = seed_assistant.answer("What is DaTMe?")
    history = [Message("user", "What is DaTMe?"), Message("assistant", first.text)]
    answer = seed_assistant.answer(followup, history=history)
    assert answer.kind == "compare" and sorted(cited_ids(answer)) == ["p12", "p15"], answer.text


def test_the_data_of_papers_just_listed_is_where_each_says_what_it_ran_on(seed_assistant) -> None:
    """After "Which papers use reinforcement learning?", "What datasets do they use?" quoted RISE's opening
    background ("Reinforcement learning from trajectory-level outcomes has become a standard approach ..."): RISE
    has no data-role sentence, and names its datasets where it reports results ("across HotpotQA, ...")."""
    listed_first = "Which papers use reinforcement learning?"
    first = seed_assistant.answer(listed_first)
    history = [Message("user", listed_first), Message("assistant", first.text)]
    answer = seed_assistant.answer("What datasets do they use?", history=history)
    assert {"p02", "p07"} <= set(cited_ids(answer)) and "HotpotQA" in answer.text, answer.text
    assert all(e.role != "problem" for e in answer.evidence if e.paper_id == "p07"), answer.text


def test_a_tables_data_cell_never_quotes_the_problem_it_sets_out(seed_assistant) -> None:
    """The data cell and a set's data answers follow one rule (evidence.in_role): the tabular paper's data cell had
    quoted its opening problem ("it remains unclear how they will perform on real genotype-to-phenotype tabular
    datasets"), a sentence about data that says what is unknown, not what the paper ran on."""
    answer = seed_assistant.answer("The paper on agents learning socially and the paper on genetic ancestry in "
                                   "table-based prediction both talk about non-stationarity. Is it the same idea?")
    assert answer.kind == "compare" and answer.table, answer.text
    banked = seed_assistant.bank.get(seed_assistant.papers)
    for row in answer.table:
        own = banked[str(row["paper_id"])]
        roles = dict(zip((s.text for s in own.sentences), own.roles, strict=True))
        assert row["Data / setting"] is None or roles[str(row["Data / setting"])] != "problem", row


def test_phrasings_of_a_code_release_criterion_list_the_same_papers(seed_assistant) -> None:
    """ "Which papers have code available?" listed RISE and CoCHI ("Code is available at ..." set the bar by
    similarity) while "Which papers share their code?" also listed V33DA ("We release V33DA ... together with code
    for the evaluated methods"): a criterion asking for released code is met by every release sentence writing it."""
    lists = {q: seed_assistant.answer(q) for q in ("Which papers have code available?",
                                                    "Which papers share their code?", "Which papers release code?")}
    assert all(a.kind == "list" for a in lists.values()), {q: a.text for q, a in lists.items()}
    cited = {q: set(cited_ids(a)) for q, a in lists.items()}
    assert len({frozenset(c) for c in cited.values()}) == 1, cited
    assert {"p04", "p07", "p10"} <= cited["Which papers share their code?"], cited


def test_code_asked_for_as_out_now_leaves_out_a_promise(seed_assistant) -> None:
    """DGP's "We will open-source code/weight/demo soon" is a release sentence, and had been listed by the lists
    asking for code "already available"; asked for promises too, it stays."""
    now = seed_assistant.answer("Which papers have code I can download right now?")
    assert now.kind == "list" and {"p04", "p07", "p10"} <= set(cited_ids(now)), now.text
    assert "p16" not in cited_ids(now), now.text
    assert "not counting DGP, which only promises a release" in now.text.splitlines()[0], now.text  # (said, not hidden)
    either = seed_assistant.answer("Which papers have code I can download right now or planned for release?")
    assert {"p04", "p07", "p10", "p16"} <= set(cited_ids(either)), either.text
    typed = seed_assistant.answer("papers with code out there to pull today, skip the ones only promising it")
    assert "p16" not in cited_ids(typed) and {"p04", "p07"} <= set(cited_ids(typed)), typed.text
    downloadable = seed_assistant.answer("which ones have code i could clone now, not just promised")
    assert "p16" not in cited_ids(downloadable) and {"p04", "p07"} <= set(cited_ids(downloadable)), downloadable.text


@pytest.mark.parametrize("question", ["medical papers", "theory papers?"])
def test_papers_asked_for_by_a_bare_noun_phrase_are_listed(seed_assistant, question) -> None:
    """Typed as a noun phrase, "medical papers" had been the overview of all 19 papers: it reads like asking about
    the collection, and one topic word scores low against any whole sentence. It asks for the papers."""
    answer = seed_assistant.answer(question)
    assert answer.kind == "list" and 2 <= len(set(cited_ids(answer))) <= 6, answer.text
    assert seed_assistant.answer("the papers").kind == "overview"  # (no topic: the collection)


@pytest.mark.parametrize("question", ["work involving audio or speech", "Research about audio?"])
def test_work_or_research_opening_a_query_asks_for_papers(seed_assistant, question) -> None:
    """ "work dealing with audio / sound recordings" had been the zebra-finch paper's fact answer: the word for the
    papers opening a typed query asks for them, as "studies on ..." and "works on ..." do."""
    answer = seed_assistant.answer(question)
    assert answer.kind == "list" and {"p08", "p10"} <= set(cited_ids(answer)), answer.text


@pytest.mark.parametrize("question", ["Which approaches help a model without additional training?",
                                      "Which papers boost a model without retraining the model?"])
def test_without_training_in_plain_words_is_training_free(seed_assistant, question) -> None:
    """Written out ("without any extra training"), the criterion matched no abstract; the two call it training-free."""
    answer = seed_assistant.answer(question)
    assert answer.kind == "list" and {"p08", "p12"} <= set(cited_ids(answer)), answer.text


def test_all_papers_a_clause_restricts_are_listed_not_the_overview(seed_assistant) -> None:
    """ "I need all papers which release a new benchmark or dataset" had been the overview of all 19 papers ("all
    papers" reads like asking about the collection): the clause says which."""
    answer = seed_assistant.answer("I need all papers which release a new benchmark or dataset.")
    assert answer.kind == "list" and 2 <= len(set(cited_ids(answer))) <= 6, answer.text


def test_a_question_asking_for_one_paper_is_never_the_collection_overview(seed_assistant) -> None:
    """ "Which paper has the strongest theoretical results?" was the overview of all 19 papers: its words are
    close to no sentence, which marks a request for an overview, but it asks for a paper."""
    answer = seed_assistant.answer("Which paper has the strongest theoretical results?")
    assert answer.kind != "overview" and len(set(cited_ids(answer))) < 5, answer.text


def test_one_paper_asked_for_by_a_criterion_several_meet_lists_them(seed_assistant) -> None:
    """ "Which paper is the most theoretical?" was refused (no sentence is close to the whole question) although
    three abstracts describe theoretical work: asked for a paper, the evidence decides how many, as for "What work
    ...?"."""
    answer = seed_assistant.answer("Which paper is the most theoretical?")
    assert answer.kind == "list" and not answer.refused and "p13" in cited_ids(answer), answer.text


def test_papers_evaluating_on_benchmarks_are_not_read_as_contributing_one(seed_assistant) -> None:
    _, members, possible = answered_list(seed_assistant, "Which papers evaluate on benchmarks?")
    assert {"p04", "p16"} <= set(members + possible)


def test_a_paper_writing_a_short_criterions_head_is_at_least_a_possible_member(seed_assistant) -> None:
    """DaTMe accelerates "diffusion models" on PixArt-alpha and FLUX and never writes "text-to-image": asked for the
    text-to-image diffusion papers, it had been left out beside the compositional study writing the whole phrase
    (seven tuning lists). A long description's last words are no head: a fact question stays a fact answer."""
    members, possible = listed(seed_assistant.answer("Which papers are about text-to-image diffusion models?"))
    assert "p15" in members and "p12" in members + possible, (members, possible)
    fact = seed_assistant.answer("Is there a paper that lets each language-model layer pick which image-encoder layers "
                                 "to take visual features from?")
    assert listed(fact) == ([], []) and cited_ids(fact) == ["p16"], fact.text


def test_an_acronym_written_inside_a_defined_one_lists_the_papers_spelling_its_words(seed_assistant) -> None:
    """The seeds write "multi-agent reinforcement learning (MARL)" and "standard RL" (Selective Social Learning);
    RISE writes "Reinforcement learning from trajectory-level outcomes" and never "RL". Asked for "RL", only the
    abstract writing the letters had been listed (a dozen tuning lists ask so)."""
    for criterion in ("RL", "reinforcement learning"):
        members, possible = listed(seed_assistant.answer(f"Which papers use {criterion}?"))
        assert {"p02", "p07"} <= set(members), (criterion, members, possible)


def test_an_acronym_and_its_long_form_list_the_same_papers(seed_assistant) -> None:
    """ "LLMs" and "large language models" are one criterion (the seeds define one by the other)."""
    short, long = (listed(seed_assistant.answer(f"Which papers are about {criterion}?"))
                   for criterion in ("LLMs", "large language models"))
    assert set(short[0]) == set(long[0]) and set(short[1]) == set(long[1]), (short, long)
    assert len(short[0]) >= 4


# --------------------------------------------------------------------------- "not stated"

NOT_STATED_MINI = [
    "How many parameters does GlowNet have?",
    "How many capsules does RiverSense release per deployment?",
    "Who are the authors of GlowNet?",
    "Which GPU model does TideFormer run on?",
    "What licence is LoomQA released under?",
    "How many microphones are placed in each hive?",
    "Which three benchmarks is LoomQA evaluated on?",
    "What is the learning rate of the PathRoute pointer decoder?",
    "In which country was RiverSense deployed?",
    "Which journal published MoleGraph?",
]


def _assert_absence_claims_are_true(answer: Answer) -> bool:
    """A refusal's first sentence may name what is missing in quotes; the quoted sentence must not contain it."""
    if not answer.refused:
        return False
    named = re.findall(r'"([^"]+)"', first_sentence(answer.text))
    shown = " ".join(quoted_sentences(answer)).lower()
    for thing in named:
        assert thing.lower() not in shown, f"claims {thing!r} is missing but quotes it: {answer.text}"
    assert len(quoted_sentences(answer)) <= 1, answer.text  # at most the single closest sentence
    return True


def test_not_stated_never_claims_absence_of_what_it_quotes_mini(mini_assistant) -> None:
    refused = [_assert_absence_claims_are_true(mini_assistant.answer(q)) for q in NOT_STATED_MINI]
    assert sum(refused) >= len(NOT_STATED_MINI) // 2, refused  # the check must have something to check


def test_not_stated_never_claims_absence_of_what_it_quotes_seeds(seed_assistant, dev_questions) -> None:
    questions = [q["question"] for q in dev_questions if q["type"] == "unanswerable"]
    questions += ["Who are the authors of the RISE paper?", "Which institution wrote the DaTMe paper?"]
    refused = [_assert_absence_claims_are_true(seed_assistant.answer(q)) for q in questions]
    assert sum(refused) >= len(questions) // 2, refused


@pytest.mark.parametrize(("assistant_name", "question", "paper_id"), [
    ("mini_assistant", "Who are the authors of GlowNet?", "m1"),
    ("seed_assistant", "Who are the authors of the RISE paper?", "p07"),
    # asked about by the question word, even as the subject of a verb
    ("seed_assistant", "Which lab or institution built the V33DA benchmark?", "p10"),
    ("seed_assistant", "Who are the authors behind RISE?", "p07"),
    # "lab" is not in "labels", which the Who&When Pro abstract has
    ("seed_assistant", "Which lab is Who&When Pro from?", "p05"),
    # a release's terms: RISE says its code is available, not under which licence
    ("seed_assistant", "Which licence does the RISE code come under?", "p07"),
    ("mini_assistant", "Which research group authored GlowNet?", "m1"),  # the verb of authorship too
    # the lab spelled out (probe194 vd040)
    ("seed_assistant", "In which laboratory were the V33DA zebra finches recorded?", "p10"),
    ("mini_assistant", "Which laboratory filmed the GlowNet fireflies?", "m1"),
])
def test_bibliographic_questions_are_not_stated(request, assistant_name, question, paper_id) -> None:
    assistant = request.getfixturevalue(assistant_name)
    answer = assistant.answer(question)
    assert answer.refused, answer.text
    assert re.search(r"author|institution|lab|licence", first_sentence(answer.text).lower()), answer.text
    assert set(cited_ids(answer)) <= {paper_id}
    assert_citations_valid(answer)


@pytest.mark.parametrize(("question", "name", "paper_id"), [
    ("Does VolumeProbe report results on ImageNet?", "ImageNet", "p14"),
    ("How does META-DINO compare with SimCLRv2 on wildlife images?", "SimCLRv2", "p09"),
    # what a paper is compared with, in plain words, when no word of it is in the abstract
    ("How does DGP compare with knowledge distillation on MM-Vet?", "knowledge distillation", "p16"),
    # the name, not its one missing word ("does not mention \"Stable\"")
    ("Which Stable Diffusion versions does DaTMe use?", '"Stable Diffusion"', "p12"),
])
def test_a_coined_name_no_abstract_holds_is_not_stated(seed_assistant, question, name, paper_id) -> None:
    """A coined name the corpus lacks is what the question hinges on: it was dropped like a paper's name,
    and the answer quoted a sentence as if it answered."""
    answer = seed_assistant.answer(question)
    assert answer.refused and name in first_sentence(answer.text), answer.text
    assert set(cited_ids(answer)) <= {paper_id}
    assert_citations_valid(answer)


@pytest.mark.parametrize(("question", "expected"), [
    ("What accuracy did the authors' DeltaDirect tuning reach on MODIRECT-SYNBENCH?", "85.4"),
    ("The V33DA authors say caller identity is verified. What signal do they verify it from?", "accelerometer"),
    ("How do the authors of V33DA verify who the caller is?", "accelerometer"),
    # the subject of "did ...", and the asker saying who they are
    ("Did the authors of the paper on zebra finches verify callers with an accelerometer?", "accelerometer"),
    ("Reviewer here. How is the caller of each V33DA event verified?", "accelerometer"),
    ("Tired reviewer: what signal verifies the caller in V33DA?", "accelerometer"),
    ("For my survey I need this: what signal verifies the caller in V33DA?", "accelerometer"),  # the asker's purpose
])
def test_authors_used_to_point_at_the_paper_are_not_asked_for(seed_assistant, question, expected) -> None:
    """ "the authors' fix", "the authors say": the authors are who did the work, not a field the question asks."""
    answer = seed_assistant.answer(question)
    assert not answer.refused and expected in answer.text, answer.text


@pytest.mark.parametrize("question", [
    "Which Stable Diffusion models does the paper on rare attribute-object compositions evaluate?",
    "Which versions of Stable Diffusion are stress-tested in the compositional failure study?",
])
def test_a_name_written_only_as_its_initials_is_stated(seed_assistant, question) -> None:
    """p15 names "SD1.5, SDXL, and SD3" and never spells out Stable Diffusion: it was "does not mention
    'Stable'" while the versions asked for were there; now the sentence naming them is quoted."""
    answer = seed_assistant.answer(question)
    assert not answer.refused and "p15" in cited_ids(answer), answer.text
    assert "SDXL" in answer.text, answer.text
    assert_citations_valid(answer)


def test_how_much_is_answered_by_a_stated_comparison(seed_assistant) -> None:
    """ "how much X matters" is answered by "matters far more for A than for B": a degree, not a number."""
    answer = seed_assistant.answer("What does the weighted model counting paper conclude about how much "
                                   "approximation quality matters for learning versus inference?")
    assert not answer.refused and "far more for inference fidelity" in first_sentence(answer.text), answer.text


def test_a_question_that_first_describes_its_paper_quotes_what_it_asks(seed_assistant) -> None:
    """A preamble that identifies the paper matches the paper's framing sentences best; the sentence
    answering what is asked ("What statistical tool ...?") must be quoted too."""
    answer = seed_assistant.answer(
        "I recall an RL method for LLM agent pipelines (planner, retriever, writer) arguing that only the role "
        "truly at fault for a failed episode should be trained. What statistical tool does it use to estimate "
        "which role is responsible?")
    assert not answer.refused and cited_ids(answer) == ["p07"], answer.text
    assert "Beta-binomial" in answer.text, answer.text


def test_an_off_corpus_question_is_refused_without_a_quote(mini_assistant) -> None:
    answer = mini_assistant.answer("What is the capital of France?")
    assert answer.refused and answer.cited == [] and not markers(answer.text)
    assert answer.evidence == [] and not paragraphs(answer.text)


@pytest.mark.parametrize("question", ["???", "?! ...", "-- :) --"])
def test_a_question_without_letters_or_digits_is_rejected(mini_assistant, question) -> None:
    with pytest.raises(QuestionError):
        mini_assistant.answer(question)


# --------------------------------------------------------------------------- follow-ups decided by evidence

FIREFLY_QUESTION = "Which paper counts fireflies in video?"


@pytest.fixture(scope="module")
def firefly_history(mini_assistant) -> list[Message]:
    first = mini_assistant.answer(FIREFLY_QUESTION)
    assert cited_ids(first)[:1] == ["m1"], first.text
    return [Message("user", FIREFLY_QUESTION), Message("assistant", first.text)]


def test_a_follow_up_is_answered_from_the_conversation_paper(mini_assistant, firefly_history) -> None:
    answer = mini_assistant.answer("How fast does it run?", history=firefly_history)
    assert answer.plan.followup and answer.to_dict()["followup"] is True
    assert answer.plan.query == f"{FIREFLY_QUESTION} How fast does it run?"  # the deterministic rewrite
    assert not answer.refused, answer.text
    assert cited_ids(answer) == ["m1"]
    assert "240" in answer.text  # the frame rate is the speed GlowNet states
    assert_citations_valid(answer)


def test_a_new_standalone_question_after_a_conversation_is_not_a_follow_up(mini_assistant, firefly_history) -> None:
    question = "Which paper forecasts storm surge?"
    answer = mini_assistant.answer(question, history=firefly_history)
    assert not answer.plan.followup and answer.plan.query == question
    assert not answer.refused, answer.text
    assert cited_ids(answer)[:1] == ["m3"] and "m1" not in cited_ids(answer), answer.text
    assert_citations_valid(answer)


@pytest.mark.parametrize("question", [
    "Does another paper here also study insects? What do they record?",
    "Is there a different paper about insects?",
])
def test_asking_for_another_paper_leaves_the_conversation_paper_out(mini_assistant, firefly_history,
                                                                     question) -> None:
    answer = mini_assistant.answer(question, history=firefly_history)
    assert answer.plan.avoided == ["m1"] and not answer.plan.followup, answer.plan
    assert cited_ids(answer) and "m1" not in cited_ids(answer), answer.text
    assert "m1" not in {s.paper.id for s in answer.sources}
    assert_citations_valid(answer)


def test_the_other_one_of_two_conversation_papers_is_still_a_follow_up(mini_assistant) -> None:
    history = [Message("user", "Compare GlowNet and TideFormer."),
               Message("assistant", "GlowNet (m1) ... TideFormer (m3) ...")]
    plan = plan_question("How fast is the other one?", list(mini_assistant.papers), history)
    assert plan.carried and not plan.avoided, plan


def test_a_short_new_question_after_a_seed_turn_is_not_a_follow_up(seed_assistant) -> None:
    """Issue 7: "What is token merging?" after a CoCHI question quoted CoCHI."""
    first = seed_assistant.answer("What does CoCHI do?")
    history = [Message("user", "What does CoCHI do?"), Message("assistant", first.text)]
    answer = seed_assistant.answer("What is token merging?", history=history)
    assert not answer.plan.followup
    assert cited_ids(answer)[:1] == ["p12"], answer.text  # DaTMe merges tokens
    assert "p04" not in cited_ids(answer)


def test_papers_counted_anew_after_a_turn_are_not_the_conversation_papers(seed_assistant) -> None:
    """ "Two abstracts frame their problem as 'where to look', but they mean ...": the count describes new
    papers and "they" points at them; after a list of three other papers it had compared two of those.
    "Two of these papers ..." does point back."""
    first = "Which papers look inside a model's internal representations or components to explain why it fails?"
    history = [Message("user", first), Message("assistant", seed_assistant.answer(first).text)]
    question = ("Two abstracts frame their problem as a question of 'where to look', but they mean quite "
                "different things by it. What does each conclude?")
    answer = seed_assistant.answer(question, history=history)
    assert answer.kind == "compare" and set(cited_ids(answer)) == holders(seed_assistant, "where to look")
    history += [Message("user", question), Message("assistant", answer.text)]
    back = seed_assistant.answer("Two of these papers use an intervention. How do they differ?", history=history)
    assert set(cited_ids(back)) <= set(cited_ids(answer)), back.text


def _turn(assistant: Assistant, question: str) -> list[Message]:
    """The history a chat keeps after one turn: the question and the assistant's own answer."""
    return [Message("user", question), Message("assistant", assistant.answer(question).text)]


@pytest.fixture(scope="module")
def llm_list_history(seed_assistant) -> list[Message]:
    history = _turn(seed_assistant, "Which papers are about large language models?")
    assert {"p08", "p11", "p05"} <= set(re.findall(r"p\d\d", history[1].content)), history[1].content
    return history


def test_a_list_pointing_back_at_its_preamble_names_what_its_papers_write(seed_assistant) -> None:
    """ "... lower bounds keep cropping up for me - which abstracts prove one?" reads the preamble as the criterion,
    and its header quoted the asker's chatter with it ("lower bounds keep cropping prove"). It names the words the
    listed papers' sentences write."""
    answer = seed_assistant.answer("Information-theoretic lower bounds keep cropping up for me \u2014 which "
                                   "abstracts prove one?")
    header, _, body = answer.text.partition("\n")
    quoted = re.findall(r'"([^"]+)"', header)
    assert answer.to_dict()["question_kind"] == "list" and {"p03", "p13"} <= set(cited_ids(answer)), answer.text
    assert quoted and "lower bounds" in quoted[0], header
    assert all(word.lower()[:5] in body.lower() for word in quoted[0].split()), header  # "keep", "cropping" not


@pytest.mark.parametrize(("first", "question", "expected"), [
    # After an overview every paper is the conversation's: a "which papers" question still asks the collection.
    ("What are the main themes of this collection?", "Which papers work with animals?", {"p01", "p09"}),
    ("Which papers are about large language models?", "Which papers study diffusion models?", {"p12", "p15"}),
    ("What is RISE about?", "Which papers involve reinforcement learning?", {"p02", "p07"}),
    # "the model" is not a pointer back to the listed papers
    ("Which papers are about large language models?", "Which papers evaluate the model on video?", {"p08", "p11"}),
])
def test_a_which_papers_question_after_another_turn_lists_from_the_whole_collection(seed_assistant, first, question,
                                                                                    expected) -> None:
    """Chatting broke lists: after any turn, a short "which papers" question retrieves below the confidence bar on
    its own and was bound to the previous answer's papers ("Which papers study diffusion models?" after an LLM
    list quoted the audio-visual LLM paper). A list question leans on the conversation only if it points back."""
    answer = seed_assistant.answer(question, history=_turn(seed_assistant, first))
    alone = seed_assistant.answer(question)
    assert not answer.plan.followup and answer.to_dict()["question_kind"] == "list", answer.text
    assert set(cited_ids(answer)) == set(cited_ids(alone)) and expected <= set(cited_ids(answer)), answer.text
    assert_citations_valid(answer)


def test_which_of_them_lists_among_the_papers_of_the_last_answer(seed_assistant, llm_list_history) -> None:
    answer = seed_assistant.answer("Which of them deal with video?", history=llm_list_history)
    assert answer.plan.followup and answer.to_dict()["question_kind"] == "list", answer.text
    assert set(cited_ids(answer)) == {"p08", "p11"}, answer.text  # the video LLM papers among the LLM ones
    assert answer.text.startswith('2 of these 6 papers match "video"'), answer.text
    assert_citations_valid(answer)


def test_none_of_them_says_so_and_the_conversation_stays_on_the_listed_papers(seed_assistant) -> None:
    """It said "No paper in the corpus clearly matches" (untrue of the corpus), flagged that sentence as an
    unsupported claim, and the next question lost the listed papers: the empty answer named none."""
    history = _turn(seed_assistant, "Which papers work with animals?")
    listed = len(cited_ids(seed_assistant.answer("Which papers work with animals?")))
    none = seed_assistant.answer("Which of them use video?", history=history)
    assert none.refused and none.text == f'None of these {listed} papers clearly matches "video".', none.text
    assert not [s for s in none.support if not s.supported]
    history += [Message("user", "Which of them use video?"), Message("assistant", none.text)]
    answer = seed_assistant.answer("How does the first one compare to V33DA?", history=history)
    assert answer.to_dict()["question_kind"] == "compare" and set(cited_ids(answer)) == {"p01", "p10"}, answer.text


def test_do_any_of_those_lists_among_the_papers_of_the_last_answer(seed_assistant) -> None:
    history = [Message("user", "Which papers involve multimodal models?"),
               Message("assistant", "1. **Audio-Visual LLMs** (p08): ...\n2. **V33DA** (p10): ...\n"
                                    "3. **MODIRECT** (p11): ...\n4. **DGP** (p16): ...")]
    answer = seed_assistant.answer("Do any of those involve audio?", history=history)
    assert answer.to_dict()["question_kind"] == "list" and set(cited_ids(answer)) == {"p08", "p10"}, answer.text
    among = seed_assistant.answer("Among these, which involve audio?", history=history)
    assert among.to_dict()["question_kind"] == "list" and set(cited_ids(among)) == {"p08", "p10"}, among.text


def test_how_many_of_them_counts_among_the_listed_papers_and_what_about_asks_the_same_of_another(
        seed_assistant, llm_list_history) -> None:
    """ "How many of them use RL?" said the abstracts "give no figure"; "What about diffusion models?" and
    "And reinforcement learning?" after a list question quoted the listed papers instead of listing anew."""
    counted = seed_assistant.answer("How many of them use reinforcement learning?", history=llm_list_history)
    assert counted.text.startswith('1 of these 6 papers matches "reinforcement learning"'), counted.text
    assert cited_ids(counted) == ["p07"], counted.text
    history = [*llm_list_history, Message("user", "How many of them use reinforcement learning?"),
               Message("assistant", counted.text)]
    other = seed_assistant.answer("What about diffusion models?", history=history)
    assert other.to_dict()["question_kind"] == "list" and set(cited_ids(other)) >= {"p12", "p15"}, other.text
    history += [Message("user", "What about diffusion models?"), Message("assistant", other.text)]
    again = seed_assistant.answer("And reinforcement learning?", history=history)
    assert again.to_dict()["question_kind"] == "list" and set(cited_ids(again)) >= {"p02", "p07"}, again.text


def test_of_these_papers_after_a_list_means_its_papers_and_after_one_paper_the_collection(seed_assistant,
                                                                                        llm_list_history) -> None:
    among = seed_assistant.answer("Which of these papers deal with video?", history=llm_list_history)
    assert among.text.startswith('2 of these 6 papers match "video"'), among.text
    after_one = seed_assistant.answer("Which of these papers use reinforcement learning?",
                                      history=_turn(seed_assistant, "What is DaTMe?"))
    assert not after_one.plan.followup and set(cited_ids(after_one)) >= {"p02", "p07"}, after_one.text


def test_which_of_them_after_one_paper_asks_about_that_paper(seed_assistant) -> None:
    """Of one paper, "them" are its models or datasets: the question is about that paper, not a list."""
    first = "Which tabular foundation models does the ancestry paper evaluate?"
    answer = seed_assistant.answer("Which of them did they tune to fix the problem, and on what?",
                                   history=_turn(seed_assistant, first))
    assert answer.plan.followup and cited_ids(answer) == ["p19"] and not answer.refused, answer.text


def test_a_fact_question_that_does_not_point_back_asks_the_collection(seed_assistant) -> None:
    """It retrieves its paper with a dense similarity under CONFIDENT_DENSE; that alone bound it to the
    previous turn's RISE, whose abstract then "did not mention" the number."""
    answer = seed_assistant.answer("Which benchmark has 12,326 failed trajectories?",
                                   history=_turn(seed_assistant, "What is RISE about?"))
    assert not answer.plan.followup and cited_ids(answer)[:1] == ["p05"] and not answer.refused, answer.text


def test_a_pointer_before_a_name_compares_the_conversation_paper_with_it(seed_assistant) -> None:
    history = _turn(seed_assistant, "Tell me more about the calibration paper")
    answer = seed_assistant.answer("How does it compare to RISE?", history=history)
    assert answer.to_dict()["question_kind"] == "compare" and set(cited_ids(answer)) == {"p04", "p07"}, answer.text
    after = seed_assistant.answer("What does RISE say about its baselines?", history=history)  # "its": RISE's own
    assert cited_ids(after) == ["p07"], after.text
    authors = seed_assistant.answer("Who are the authors of RISE?", history=history)  # "the authors" leads up to it
    assert cited_ids(authors) == ["p07"] and authors.refused, authors.text


def test_which_one_after_a_comparison_asks_among_the_compared_papers(seed_assistant) -> None:
    """It was answered from the whole collection: CoCHI's "consistent improvements" won."""
    history = _turn(seed_assistant, "Compare Selective Social Learning and RISE")
    answer = seed_assistant.answer("Which one reports the biggest improvement?", history=history)
    assert answer.plan.followup and cited_ids(answer) == ["p07"] and "11.1%" in answer.text, answer.text


def test_a_question_asked_of_compared_papers_quotes_each_and_a_selection_the_one(seed_assistant) -> None:
    """ "What do they each report?" after a comparison quoted the Token Hypothesis alone: its sentences
    outscored every DaTMe sentence. "Which one ...?" picks, so it still quotes only the paper it picks."""
    history = _turn(seed_assistant, "Compare DaTMe and the Token Hypothesis")
    each = seed_assistant.answer("What do they each report as the main result?", history=history)
    assert each.plan.followup and set(cited_ids(each)) == {"p12", "p18"}, each.text
    one = seed_assistant.answer("Which one saves more activation memory?", history=history)
    assert cited_ids(one) == ["p18"], one.text
    assert_citations_valid(each)


def test_each_one_and_of_the_two_point_at_the_compared_papers(seed_assistant) -> None:
    """Both were read as new questions: "each one" quoted the tabular paper's "evaluated with the two leading
    tabular foundation models", "Which of the two is training-free?" DaTMe and META-DINO."""
    history = _turn(seed_assistant, "Compare the audio-visual LLM paper and MODIRECT")
    assert {"p08", "p11"} <= set(re.findall(r"p\d\d", history[1].content)), history[1].content
    each = seed_assistant.answer("Which benchmarks does each one evaluate on?", history=history)
    assert each.plan.followup and set(cited_ids(each)) == {"p08", "p11"}, each.text
    picked = seed_assistant.answer("Which of the two is training-free?", history=history)
    assert picked.plan.followup and cited_ids(picked) == ["p08"], picked.text


def test_tell_me_more_continues_the_conversation_and_themes_still_get_the_overview(seed_assistant) -> None:
    """With no word to look up, "Tell me more" got the overview of all 19 papers, and the next "Why does it
    happen?" then quoted many of them."""
    history = _turn(seed_assistant, "What is directional motion blindness?")
    more = seed_assistant.answer("Tell me more", history=history)
    assert more.plan.followup and cited_ids(more) == ["p11"], more.text
    themes = seed_assistant.answer("What are the main themes?", history=history)
    assert themes.to_dict()["question_kind"] == "overview", themes.text


def test_a_capitalised_word_opening_a_sentence_is_not_a_name(seed_assistant) -> None:
    history = _turn(seed_assistant, "What does CoCHI propose?")
    answer = seed_assistant.answer("Fine. Which metrics does it improve?", history=history)
    assert not answer.refused and "Expected Calibration Error" in answer.text, answer.text


# A list answer as the chat keeps it: the papers by label and id.
DIFFUSION_LIST = [Message("user", "Which papers are about diffusion models?"),
                  Message("assistant", "1. **DaTMe** (p12): ... 2. **Text-to-image diffusion models** (p15): ...")]


def test_and_the_first_after_a_question_about_the_second_means_the_first_of_the_list(seed_assistant) -> None:
    history = [*DIFFUSION_LIST, Message("user", "What is the second one about?"),
               Message("assistant", "**Text-to-image diffusion models** (p15): ... [1]")]
    answer = seed_assistant.answer("And the first?", history=history)
    assert cited_ids(answer) == ["p12"], answer.text


def test_summarize_the_second_one_summarizes_the_second_listed_paper(seed_assistant) -> None:
    """ "second" points at a listed paper; as a content word it made the summary a fact answer about "second"."""
    answer = seed_assistant.answer("Summarize the second one", history=DIFFUSION_LIST)
    assert answer.to_dict()["question_kind"] == "summary" and cited_ids(answer) == ["p15"], answer.text


def test_a_number_with_thousands_separators_is_one_term(seed_assistant) -> None:
    answer = seed_assistant.answer("Does Who&When Pro contain 12,345 failed trajectories?")
    assert answer.refused and '"12,345"' in answer.text and '"12"' not in answer.text, answer.text
    assert "12,326" in answer.text  # the closest sentence, with the number the abstract does give


@pytest.mark.parametrize("question", ["Which papers study diffusion models?",
                                      "How many failed trajectories does Who&When Pro contain?",
                                      "How do DaTMe and DGP differ in what they change?"])
def test_an_extractive_answer_encodes_nothing_but_question_text(seed_assistant, monkeypatch, question) -> None:
    """Quoted sentences reuse their stored vectors for the support score (issue 10: no encoder work at
    question time except the question); at 10k papers a 20-line list spent 0.7 s re-encoding its quotes."""
    seed_assistant.answer(question)  # stored sentence vectors loaded, question vectors cached
    encoded: list[str] = []
    original = type(seed_assistant.embedder).embed

    def counting(self, texts, progress=False):
        encoded.extend(texts)
        return original(self, texts, progress)

    monkeypatch.setattr(type(seed_assistant.embedder), "embed", counting)
    answer = seed_assistant.answer(question)
    assert answer.support and all(s.supported for s in answer.support), answer.support
    assert encoded == [], encoded


# --------------------------------------------------------------------------- the overview, decided by evidence


@pytest.mark.parametrize("question", [
    "What are the main themes of this conference?",
    "What are the main themes of this batch?",  # (refused: "batch" had been a subject)
    "What are the hot topics?",
    "What kinds of research are in this collection?",
    "What research directions does this collection represent?",  # "represent": in no sentence's meaning
    "What kinds of problems do these abstracts tackle?",  # "problems": in six abstracts, a subject of none
    "Cluster the papers by topic.",
])
def test_questions_about_the_whole_collection_get_the_overview(seed_assistant, question) -> None:
    """Only "Give me an overview of the main themes"-like wording got the overview before; these were refused
    ("The abstracts in this corpus don't answer this question.") or answered with one paper's sentence."""
    answer = seed_assistant.answer(question)
    assert answer.to_dict()["question_kind"] == "overview", answer.text
    assert len(set(cited_ids(answer))) > 19 // 2, answer.text


@pytest.mark.parametrize(("question", "role"), [
    ("What are the main findings of these papers?", "result"),
    ("What are the key results across the collection?", "result"),
    ("What do the abstracts report as their main results?", "result"),  # ("What do the abstracts": no papers asked)
    ("What do these papers find?", "result"),
    ("What datasets are used in this collection?", "data"),
    ("What limitations do these papers point out?", "problem"),
])
def test_a_role_asked_of_every_paper_quotes_each_paper_by_it(seed_assistant, question, role) -> None:
    """ "What are the main findings of these papers?" had looked for papers matching "findings" and found none:
    asked of the whole collection, it is the overview with each paper's sentence of that role, where it has one
    (a result sentence; for data, one saying what the paper ran on)."""
    answer = seed_assistant.answer(question)
    assert answer.kind == "overview" and not answer.refused, answer.text
    assert len(set(cited_ids(answer))) == len(seed_assistant.papers), answer.text
    banked = seed_assistant.bank.get(seed_assistant.papers)
    for evidence in answer.evidence:
        own = banked[evidence.paper_id]
        if role != "data" and role in own.roles:
            assert evidence.role == role, (evidence.paper_id, evidence.sentence.text)
        if role == "data" and any(names_setting(s.text) and r != "problem" for s, r in zip(own.sentences, own.roles,
                                                                                          strict=True)):
            assert evidence.role == "data" or names_setting(evidence.sentence.text), evidence.sentence.text


@pytest.mark.parametrize(("question", "paper"), [
    ("What are the main findings of RISE?", "p07"),
    ("What are the key results of the DaTMe paper?", "p12"),
    ("What are the main results of META-DINO?", "p09"),
])
def test_the_role_asked_of_a_named_paper_is_what_its_answer_quotes(seed_assistant, question, paper) -> None:
    """ "What are the main findings of RISE?" quoted RISE's method sentences: they name it, and the result role's
    small bonus lost to that similarity (and "What are the ..." had read as asking for a definition)."""
    answer = seed_assistant.answer(question)
    assert not answer.refused and cited_ids(answer)[:1] == [paper], answer.text
    assert answer.evidence and all(e.role == "result" for e in answer.evidence), answer.text


@pytest.mark.parametrize(("question", "paper"), [
    ("What did CoCHI find?", "p04"),
    ("What does DaTMe show?", "p12"),
    ("What did the RISE authors find?", "p07"),
])
def test_a_named_paper_asked_only_for_its_findings_is_answered_by_them(seed_assistant, question, paper) -> None:
    """ "What did CoCHI find?" names nothing but the paper, and had been its summary: the contribution first ("We
    propose CoCHI ..."), what the paper is rather than what it found."""
    answer = seed_assistant.answer(question)
    assert answer.kind != "summary" and cited_ids(answer)[:1] == [paper], (answer.kind, answer.text)
    assert answer.evidence and all(e.role == "result" for e in answer.evidence), answer.text


@pytest.mark.parametrize("question", [
    "Show me CoCHI",  # a list verb, not a finding: "show"
    "What is the main contribution of the paper on curating DPO preference datasets under a label budget?",
])
def test_a_list_verb_or_a_papers_description_asks_for_no_part_of_it(seed_assistant, question) -> None:
    """The words saying which paper is meant ("curating DPO preference datasets") or opening a request ("Show me")
    are not what is asked of it: the answer stays the paper's summary."""
    assert seed_assistant.answer(question).kind == "summary"


def test_a_set_summarised_is_its_table_without_sentences_closest_to_the_sets_own_words(seed_assistant) -> None:
    """ "Summarize the papers on diffusion models." asks nothing of the two diffusion papers but their gist, yet
    the table had been preceded by "Closest to the question in each abstract:" and each one's sentence most
    about diffusion: the words that had picked the set were read as asked of it."""
    answer = seed_assistant.answer("Summarize the papers on diffusion models.")
    assert answer.kind == "compare" and sorted(cited_ids(answer)) == ["p12", "p15"], answer.text
    assert LEAD not in answer.text, answer.text


@pytest.mark.parametrize("question", ["Compare the diffusion papers", "Contrast the diffusion papers."])
def test_a_set_asked_to_be_compared_is_a_comparison_table(seed_assistant, question) -> None:
    """ "Compare the diffusion papers" read as a noun phrase asking for papers ("Diffusion papers?") and listed the
    two with their contributions: asked to compare them, the user gets the table."""
    answer = seed_assistant.answer(question)
    assert answer.kind == "compare" and sorted(cited_ids(answer)) == ["p12", "p15"], answer.text


def test_metrics_asked_of_a_set_are_its_members_result_sentences(seed_assistant) -> None:
    """ "What metrics do the LLM papers report?" quoted each LLM paper's sentence about LLMs ("Video Large Language
    Models (Video-LLMs) have made rapid progress ..."): "metrics" asked for no role. Metrics are reported where
    results are, with their figures: DGP's "+4.2 on SQA", MODIRECT's "from 25.9% to 85.4%", RISE's "11.1%"."""
    answer = seed_assistant.answer("What metrics do the LLM papers report?")
    assert answer.kind == "list" and len(answer.evidence) >= 4, answer.text
    with_figures = [e.paper_id for e in answer.evidence if any(c.isdigit() for c in e.sentence.text)]
    assert len(with_figures) >= 3, answer.text


def test_an_overviews_sources_are_scored_by_closeness_to_their_topic(seed_assistant) -> None:
    """Every overview source showed "relevance 0.50 (semantic 1.00)", a placeholder: nothing was measured."""
    answer = seed_assistant.answer("What are the main themes of this conference?")
    closeness = [s.score for s in answer.sources]
    assert all(0.0 < c < 1.0 for c in closeness) and len(set(closeness)) > 1, closeness
    assert all(s.score == s.dense and s.lexical == 0.0 for s in answer.sources)


@pytest.mark.parametrize("question", [
    "What does this conference say about quantum computing?",  # a subject no abstract has: nothing matches
    "Does any paper in the collection study climate?",
    "What are the trends in federated learning here?",
    "Who are the authors in this collection?",  # bibliographic: the abstracts do not say
    "Which papers in the collection study diffusion models?",
    "What are the main findings about calibration in this collection?",
])
def test_a_subject_or_a_bibliographic_field_asked_of_the_collection_is_no_overview(seed_assistant, question) -> None:
    answer = seed_assistant.answer(question)
    assert answer.to_dict()["question_kind"] != "overview", answer.text


@pytest.mark.parametrize("question", [
    "How many submissions did NeurIPS 2026 receive in total?",
    "Which of these papers won a best paper award?",
    "What was the acceptance rate this year?",
])
def test_the_conference_process_is_not_in_the_abstracts(seed_assistant, question) -> None:
    """The count of submissions was answered with the Token Hypothesis's "how many positions" sentence."""
    answer = seed_assistant.answer(question)
    assert not cited_ids(answer), answer.text


@pytest.mark.parametrize(("question", "papers"), [
    ("Summarize the papers about diffusion.", {"p12", "p15"}),
    ("Give me an overview of the reinforcement learning papers.", {"p02", "p07"}),
    ("Compare the diffusion papers.", {"p12", "p15"}),
])
def test_a_described_set_of_papers_is_compared(seed_assistant, question, papers) -> None:
    """ "Summarize the papers about diffusion" summarised DaTMe alone: a set the question describes is found by the
    list's own bar, and two to four members are compared."""
    answer = seed_assistant.answer(question)
    assert answer.to_dict()["question_kind"] == "compare", answer.text
    assert set(cited_ids(answer)) == papers, answer.text


@pytest.mark.parametrize(("question", "paper"), [
    ("Find papers similar to DaTMe.", "p12"),
    ("Which papers are related to CoCHI?", "p04"),
    ("Are there other papers like the zebra finch benchmark?", "p10"),  # described, not named
])
def test_papers_like_one_paper_are_its_closest_papers_each_with_a_shared_sentence(seed_assistant, question,
                                                                                    paper) -> None:
    """ "Find papers similar to DaTMe" quoted DaTMe itself. Now: its nearest papers, each quoting its own sentence
    closest to DaTMe's abstract, never the paper itself."""
    answer = seed_assistant.answer(question)
    assert_citations_valid(answer)
    listed = [pid for pid, _ in paragraphs_of_list(answer.text)]
    assert len(listed) == 3 and paper not in listed, answer.text
    assert set(cited_ids(answer)) == set(listed)
    for pid, body in paragraphs_of_list(answer.text):
        assert unmarked(body) in " ".join(seed_assistant.by_id[pid].text.split()), (pid, body)


def paragraphs_of_list(text: str) -> list[tuple[str, str]]:
    return [(m["id"], m["body"]) for line in text.splitlines() if (m := ITEM_HEAD.match(line))]


def test_whether_a_paper_is_like_another_is_no_request_for_papers(seed_assistant) -> None:
    answer = seed_assistant.answer("Is DaTMe similar to ToMe?")
    assert cited_ids(answer) == ["p12"], answer.text


@pytest.mark.parametrize(("question", "missing"), [
    ("Does IndRM beat the PC algorithm on real-world benchmarks?", "PC algorithm"),
    ("How does the Token Hypothesis compare against gradient checkpointing in memory savings?",
     "gradient checkpointing"),  # the abstract says "gradients", never "checkpointing"
    # beaten, in lower case: the abstract writes none of its words
    ("Does CoCHI beat plain temperature scaling on calibration error, and by how much?", "plain temperature scaling"),
])
def test_a_method_the_abstract_never_mentions_is_not_stated(seed_assistant, question, missing) -> None:
    answer = seed_assistant.answer(question)
    assert answer.refused and f'"{missing}"' in answer.text.split("\n")[0], answer.text


def test_a_finding_told_in_other_words_is_no_missing_method(seed_assistant) -> None:
    """ "beats learning alone" describes Selective Social Learning's finding; its words are not a method to find."""
    answer = seed_assistant.answer("Under what conditions does social learning beat learning alone in the MARL paper?")
    assert not answer.refused and cited_ids(answer)[:1] == ["p02"], answer.text


def test_a_described_set_asks_the_collection_even_in_a_conversation(seed_assistant) -> None:
    """After a list that held one diffusion paper among others, "the papers about diffusion" had been answered
    from that list's four papers; "these papers" then still means the ones just compared."""
    history: list[Message] = []
    for question in ("Find papers similar to DaTMe.", "Summarize the papers about diffusion."):
        answer = seed_assistant.answer(question, history=history)
        history += [Message("user", question), Message("assistant", answer.text)]
    assert set(cited_ids(answer)) == {"p12", "p15"}, answer.text
    again = seed_assistant.answer("Compare these papers.", history=history)
    assert set(cited_ids(again)) == {"p12", "p15"}, again.text


def test_a_named_paper_set_aside_is_left_out_of_the_list(seed_assistant) -> None:
    """ "Which papers except CoCHI ...": CoCHI was the question's one named paper, so it alone was quoted."""
    answer = seed_assistant.answer("Which papers except CoCHI are about LLMs?")
    cited = set(cited_ids(answer))
    assert answer.kind == "list" and "p04" not in cited and len(cited) >= 3, answer.text
    assert_citations_valid(answer)


def test_asking_what_papers_contribute_quotes_their_contribution(seed_assistant) -> None:
    """ "What does each contribute?" quoted Who&When Pro's motivation ("As agents become more capable ...");
    "contribute", "propose", "new" ask for method sentences as "find" asks for results."""
    answer = seed_assistant.answer("Who&When Pro and RISE both study failures of agent systems. "
                                   "What does each contribute?")
    closest = answer.text.split("|")[0]
    assert "We introduce Who&When Pro" in closest, answer.text
    assert_citations_valid(answer)


def test_a_comparisons_distinctive_terms_leave_out_each_papers_own_name(seed_assistant) -> None:
    """ "Only Who&When Pro: automated, subtler, Who&When, ...": its row already names it. A shared word of a
    name ("token" of DaTMe's token merging and the Token Hypothesis) still counts as shared."""
    answer = seed_assistant.answer("Compare how CoCHI and Who&When Pro make LLM systems more reliable")
    own = answer.text.split("Only Who&When Pro:")[1].split("_")[0]
    assert own.strip() and "Who&When" not in own, answer.text
    shared = seed_assistant.answer("Compare DaTMe and the Token Hypothesis").text
    assert "token" in shared.split("In common")[1].split("Only")[0], shared



@pytest.mark.parametrize("question", ["Compare DaTMe and the text-to-image compositional study",
                                      "Compare Who&When Pro and RISE"])
def test_a_comparisons_terms_in_common_are_no_function_words(seed_assistant, question) -> None:
    """ "In common: ..., during, semantically, whether" and "In common: become" read as if the two papers shared
    a theme; such words are left out, as they are of topic names."""
    line = next(x for x in seed_assistant.answer(question).text.splitlines() if x.startswith("_"))
    listed = {w.strip(" _.").lower() for part in re.findall(r"(?:use\)|Only [^:]+):([^.]*)\.", line)
              for w in part.split(",")}
    assert listed and not listed & NON_TOPICAL, line

def test_the_first_three_of_a_list_are_taken_from_a_list_that_long(seed_assistant) -> None:
    """ "Compare the first two" after a list compared only its first paper; "What about the first three?" after
    a comparison of two must go back to the list that had three."""
    history: list[Message] = []
    answers = []
    for question in ("Which papers involve large language models?", "Compare the first two",
                     "What about the first three?"):
        answers.append(seed_assistant.answer(question, history=history))
        history += [Message("user", question), Message("assistant", answers[-1].text)]
    listed = [pid for pid in cited_ids(answers[0])]
    assert len(listed) >= 3, answers[0].text
    assert cited_ids(answers[1]) == listed[:2], answers[1].text
    assert set(cited_ids(answers[2])) == set(listed[:3]), answers[2].text


def test_asking_what_a_paper_was_tested_on_quotes_the_sentence_naming_it(seed_assistant) -> None:
    """ "What models did they test it on?" after "Tell me about DaTMe" quoted the importance-map sentence: no word
    of the question is in "Experiments on PixArt-α and FLUX ...", whose names are the answer."""
    history = [Message("user", "Tell me about DaTMe"),
               Message("assistant", seed_assistant.answer("Tell me about DaTMe").text)]
    answer = seed_assistant.answer("What models did they test it on?", history=history)
    assert "FLUX" in answer.text.split("[1]")[0], answer.text  # the first quoted sentence
    assert_citations_valid(answer)


def test_a_question_naming_only_a_kind_of_sentence_continues_the_conversation(seed_assistant) -> None:
    """ "What are the main results?" and "Is the code available?" after "What is V33DA?" have no topic of their
    own ("results", "code" ask for a role); retrieval alone sent them to the DPO paper's "main results" and
    RISE's "Code is available"."""
    history = [Message("user", "What is V33DA?"), Message("assistant", seed_assistant.answer("What is V33DA?").text)]
    for question in ("What are the main results?", "Is the code available?"):
        answer = seed_assistant.answer(question, history=history)
        assert cited_ids(answer) == ["p10"], (question, answer.text)
    alone = seed_assistant.answer("Is the code available?")  # no conversation: a paper that says so
    assert cited_ids(alone) and not alone.refused, alone.text


def test_what_a_named_paper_is_leads_with_its_defining_sentence(seed_assistant) -> None:
    """ "What is V33DA?" quoted two sentences of background before the one saying what V33DA is."""
    answer = seed_assistant.answer("What is V33DA?")
    assert answer.text.startswith("**V33DA** (p10): We close this gap with V33DA, a multimodal benchmark"), answer.text
    term = seed_assistant.answer("What is directional motion blindness?")  # a term, not a paper: abstract order
    assert "We call this failure directional motion blindness" in term.text.split("[1]")[0], term.text


def test_a_size_superlative_asks_for_a_winner(seed_assistant) -> None:
    """ "biggest", "largest" ask which one wins as "best" does: RISE's biggest gain leads with the sentence
    holding it, and the biggest Sudoku, which no abstract states, is not stated (it quoted "Sudokus of
    increasing size" as the answer)."""
    gain = seed_assistant.answer("What is RISE's biggest relative improvement over GiGPO?")
    assert "11.1%" in gain.text.split("[1]")[0], gain.text
    sudoku = seed_assistant.answer("What is the biggest Sudoku the approximate WMC pipelines were run on?")
    assert sudoku.refused and "the biggest" in first_sentence(sudoku.text), sudoku.text
    assert "closest they come" in sudoku.text or "closest it comes" in sudoku.text


def test_a_size_comparison_states_both_counts_and_which_is_larger(seed_assistant) -> None:
    """ "Which is larger, V33DA or Who&When Pro?" quoted sentences without either number; the counts were only
    inside cut table cells. Each one's stated count is quoted now, and a note says whose number is larger."""
    answer = seed_assistant.answer("Which is larger, V33DA or Who&When Pro?")
    closest = answer.text.split("| Paper |")[0]
    assert "33,625" in closest and "12,326" in closest, answer.text
    assert "The larger number is V33DA's" in closest, answer.text
    assert all(s.supported for s in answer.support if "Stated sizes" in s.sentence), answer.support
    plain = seed_assistant.answer("Compare V33DA and Who&When Pro")  # no size asked: no note
    assert "Stated sizes" not in plain.text
    assert_citations_valid(answer)


def test_any_similar_papers_in_a_chat_means_like_the_papers_discussed(seed_assistant) -> None:
    """ "Any similar papers?" after a question about the cfDNA paper answered 'No paper in the corpus clearly
    matches ""': a "which papers" question with no criterion. It means papers like that one; after a list of
    several it asks which of them, naming them."""
    first = "Tell me about the cfDNA paper"
    history = [Message("user", first), Message("assistant", seed_assistant.answer(first).text)]
    like = seed_assistant.answer("Any similar papers?", history=history)
    assert like.kind == "list" and "closest to Cell-free DNA" in like.text and "p03" not in cited_ids(like), like.text
    listed = "Which papers use video?"
    listing = seed_assistant.answer(listed)
    history = [Message("user", listed), Message("assistant", listing.text)]
    which = seed_assistant.answer("Any similar papers?", history=history)
    assert which.text.startswith("Papers like which one?"), which.text
    assert all(s.paper.label in which.text for s in listing.cited_sources), which.text


def test_a_papers_own_limitations_are_not_stated_unless_its_abstract_says_so(seed_assistant) -> None:
    """ "What are its limitations?" quoted CoCHI's summary as if it answered; the limits of earlier work a paper
    addresses are another matter, answered by its problem sentence."""
    own = seed_assistant.answer("What are the limitations of CoCHI?")
    assert own.refused and "limitations" in first_sentence(own.text), own.text
    prior = seed_assistant.answer("What limitation of existing calibration methods does CoCHI address?")
    assert not prior.refused and "Existing calibration methods" in prior.text, prior.text
    assert_citations_valid(own)


def test_code_an_abstract_does_not_mention_is_not_stated(seed_assistant) -> None:
    """ "Does DaTMe release code?" quoted its token-roles sentence as if it answered; RISE does say where its code
    is, and that sentence is the answer."""
    missing = seed_assistant.answer("Does DaTMe release code?")
    assert missing.refused and '"code"' in first_sentence(missing.text), missing.text
    stated = seed_assistant.answer("Is the RISE code available?")
    assert not stated.refused and "Code is available" in stated.text, stated.text


def test_asking_how_a_method_performs_quotes_its_result(seed_assistant) -> None:
    """ "perform", "accuracy", "gains", "how well" ask for result sentences; "How does the Token Hypothesis
    procedure perform ...?" had quoted its method sentences without the one saying it matches or exceeds."""
    answer = seed_assistant.answer("How does the Token Hypothesis procedure perform compared with full fine-tuning?")
    assert "matches or exceeds full-sequence fine-tuning" in answer.text, answer.text
    assert_citations_valid(answer)


def test_a_list_heading_names_the_papers_it_sets_aside(seed_assistant) -> None:
    """ "Apart from that one, who else ...": the list is of the others, and its heading says which was left out."""
    answer = seed_assistant.answer("I already have the DGP paper. Apart from that one, who else is opening up LLMs "
                                   "that take in video, images or sound to see what's going on inside?", use_llm=False)
    cited = {s.paper.id for s in answer.cited_sources}
    assert "p16" not in cited and {"p08", "p11"} <= cited, cited
    assert "setting aside DGP" in answer.text.split("\n")[0], answer.text


def test_a_clause_runner_up_nearly_as_good_as_its_best_is_quoted(seed_assistant) -> None:
    """The detail a paraphrase question asks after its description is often its clause's second sentence ("What
    auxiliary information ...?": "We instead leverage metadata ..." second to "informative factors"): both are
    quoted when the second scores within CLAUSE_RUNNER_UP of the best; the answer had missed "metadata"."""
    question = ("A study tailors image recognition backbones to microscopy and satellite pictures without manual "
                "labels. What auxiliary information does it lean on instead?")
    plan = seed_assistant.plan(question)
    assert plan.clauses, plan
    answer = seed_assistant.answer(question)
    top = next(s for s in answer.sources if s.number == answer.cited[0])
    gatherer = seed_assistant.gatherer
    for clause in plan.clauses:
        best = gatherer.scorer.sentences(content_terms(clause), gatherer.embedder.embed_query(clause), [top], clause)
        close = [e for e in best[:2] if e.score >= CLAUSE_RUNNER_UP * best[0].score]
        assert len(close) == 2, [(e.score, e.sentence.text) for e in best[:2]]  # (the case this test is about)
        for evidence in close:
            assert evidence.sentence.text.rstrip(".") in unmarked(answer.text), (evidence.sentence.text, answer.text)


@pytest.mark.parametrize(("question", "answered_by"), [
    ("Is there a paper here on voice cloning or singing synthesis?", None),
    ("Is there anything on self-driving trucks or lidar perception in this set?", None),
    ("Is there a paper on zebra finch vocalizations?", "p10"),  # its words written: the paper is the answer
    ("Is there a paper on token merging for diffusion models?", "p12"),
])
def test_one_paper_asked_for_on_a_topic_the_abstracts_do_not_write_is_none(seed_assistant, question,
                                                                          answered_by) -> None:
    """Asked for one paper, a criterion with more than ONE_PAPER_ABSENT of its words in no abstract matches none;
    the sound-attribution and the label-free vision papers had been quoted as the answer."""
    answer = seed_assistant.answer(question)
    if answered_by is None:
        assert answer.refused and not answer.cited, answer.text
        assert answer.text.startswith("No paper in the corpus clearly matches"), answer.text
    else:
        assert not answer.refused and cited_ids(answer)[:1] == [answered_by], answer.text


@pytest.mark.parametrize("question", ["What is the best way to cook pasta with neural networks?",
                                      "Which paper would help me if I care about privacy in federated learning?"])
def test_a_loosely_matching_fact_answer_says_it_is_a_weak_match(seed_assistant, question) -> None:
    """No abstract is about cooking or federated privacy, yet a sentence clears the relevance floor: the answer
    quotes it, and says the match is weak. The note is the answer's own, neither a claim nor a refusal."""
    answer = seed_assistant.answer(question)
    assert answer.kind == "fact" and not answer.refused, answer.text
    assert answer.text.startswith(WEAK_NOTE), answer.text
    assert cited_ids(answer) and not is_refusal(answer.text)
    assert all("Weak match" not in claim for claim, _ in answer_sentences(answer.text))


@pytest.mark.parametrize("question", ["Is there work on speeding up diffusion models?", "Which paper studies birds?",
                                      "Any papers on tabular data?"])
def test_a_fact_answer_that_matches_well_has_no_weak_match_note(seed_assistant, question) -> None:
    answer = seed_assistant.answer(question)
    assert cited_ids(answer) and WEAK_NOTE not in answer.text, answer.text


@pytest.mark.parametrize("question", ["Compare how CoCHI and Who&When Pro make LLM systems more reliable",
                                      "How do DaTMe and the Token Hypothesis differ in what they save?"])
def test_a_comparison_table_does_not_repeat_the_sentences_quoted_above_it(seed_assistant, question) -> None:
    """The lead quotes each paper's sentences closest to the question; the table's cells had quoted the same
    sentences again (388 of 429 such tables over the tuning sets). A cell takes its role's next sentence instead."""
    answer = seed_assistant.answer(question)
    lead, table = answer.text.split("| Paper |")
    assert lead.startswith(LEAD), answer.text
    assert_comparison_table(seed_assistant, answer, [row["paper_id"] for row in answer.table])
    cells = [c for line in table.splitlines() if line.startswith("|") for c in re.split(r"(?<!\\)\|", line)[2:-1]]
    quoted_cells = [unmarked(c).rstrip(". …") for c in cells if markers(c)]
    assert quoted_cells and not [c for c in quoted_cells if c in lead], answer.text


def test_a_baseline_written_in_the_abstract_is_not_said_missing_for_an_adjective(seed_assistant) -> None:
    """ "compared to plain LLaVA-1.5-7B" was said missing ("plain" is in no abstract) beside DGP's own "over the
    LLaVA-1.5-7B baseline": what a paper is compared against is missing when its name is."""
    answer = seed_assistant.answer("What gain does DGP get compared to plain LLaVA-1.5-7B? Give me the figure.")
    assert not answer.refused and "LLaVA-1.5-7B baseline" in answer.text, answer.text
    refused = seed_assistant.answer("How does DGP compare to plain InstructBLIP-9?")
    assert refused.refused and '"plain InstructBLIP-9"' in refused.text, refused.text


@pytest.mark.parametrize("question", ["Which papers involve an animal?", "Which papers use animal data?",
                                      "Which papers involve animals?"])
def test_a_list_criterion_reads_the_same_in_either_number(seed_assistant, question) -> None:
    """ "animal" is 0.67 from "wildlife", "animals" 0.73: asked in the singular, the list had missed META-DINO's
    "wildlife monitoring" that the plural found. The criterion's word is read in both numbers."""
    answer = seed_assistant.answer(question)
    members, _ = listed(answer)
    assert {"p01", "p09"} <= set(members), answer.text


def test_a_figure_said_outside_what_is_asked_need_not_be_in_the_abstract(mini_assistant) -> None:
    """A preamble's figure is the asker's, not asked for: "... a predicted 70% should come true 70% of the time.
    Which calibration measures does CoCHI report?" had been answered "The CoCHI abstract does not mention 70"
    (probe65 pf031). Asked for, it still must be there."""
    answer = mini_assistant.answer("My camera films at 25 frames per second outdoors. How fast does GlowNet "
                                   "process video, and on what hardware?")
    assert not answer.refused and "240 frames per second" in answer.text, answer.text
    answer = mini_assistant.answer("Does GlowNet process 25 frames per second?")
    assert answer.refused and "25" in answer.text.split("\n")[0], answer.text


def test_a_preamble_is_read_when_the_asking_sentence_alone_matches_no_paper(mini_assistant) -> None:
    """ "I want to cut fine-tuning memory by pushing gradients through a few sequence positions. Is there a paper
    that tells you which positions you can get away with?" had been "No paper matches 'tells positions away'"
    (probe67 ph020): the preamble says what is sought."""
    answer = mini_assistant.answer("I count flashing fireflies filmed at dusk on a laptop GPU. Is there a paper "
                                   "that tells you what you can get away with?")
    assert not answer.refused and cited_ids(answer)[:1] == ["m1"], answer.text


def test_eval_asks_for_the_data_an_evaluation_ran_on(seed_assistant) -> None:
    """Typed tersely, "RISE eval datasets" had quoted RISE's definition: "eval" was a topic word, not the
    evaluation whose datasets are asked for (probe64 pe032)."""
    answer = seed_assistant.answer("RISE eval datasets")
    assert "HotpotQA" in answer.text and cited_ids(answer) == ["p07"], answer.text


def test_papers_set_aside_after_but_not_are_left_out(seed_assistant) -> None:
    """ "Which papers use medical or health data but not medical imaging?" had listed the imaging papers too: the
    whole was one criterion (probe79 pu011). Those clearing "medical imaging" are set aside."""
    answer, members, possible = answered_list(seed_assistant, "Which papers work with health data but not medical "
                                              "images?")
    assert {"p03", "p19"} <= set(members + possible) and not {"p09", "p14"} & set(cited_ids(answer)), answer.text
