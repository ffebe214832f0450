"""The evaluation harness: each metric on hand-built cases, then ``rag eval`` end to end on a dev slice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from rag.assistant import Answer
from rag.citations import SUPPORT_THRESHOLD, SentenceSupport
from rag.corpus import make_paper
from rag.evaluation import (
    MODES,
    Question,
    QuestionFileError,
    Report,
    citation_precision,
    citation_recall,
    claim_support,
    format_report,
    invalid_citations,
    is_refusal,
    keyword_hit,
    keyword_recall,
    load_questions,
    percentile,
    precision_recall_f1,
    recall_at_k,
    run_eval,
    score_answer,
    select_questions,
    summarize,
)
from rag.extractive import REFUSAL
from rag.retrieval import Source

DEV_QUESTIONS = Path(__file__).resolve().parent / "data" / "dev_questions.jsonl"


# --------------------------------------------------------------------------- retrieval and cited papers


def test_recall_at_k_is_the_share_of_gold_papers_retrieved() -> None:
    assert recall_at_k(["p01", "p02", "p03"], ["p02", "p09"]) == 0.5
    assert recall_at_k(["p01", "p02"], ["p02"]) == 1.0
    assert recall_at_k(["p01"], ["p02", "p03"]) == 0.0


def test_recall_at_k_does_not_apply_without_gold() -> None:
    assert recall_at_k(["p01"], []) is None


def test_cited_precision_recall_f1_against_gold() -> None:
    precision, recall, f1 = precision_recall_f1(["p01", "p02", "p03"], ["p01", "p04"])
    assert (precision, recall) == pytest.approx((1 / 3, 1 / 2))
    assert f1 == pytest.approx(2 * (1 / 3) * (1 / 2) / (1 / 3 + 1 / 2))


def test_citing_nothing_on_an_answerable_question_scores_zero() -> None:
    assert precision_recall_f1([], ["p01"]) == (0.0, 0.0, 0.0)


def test_cited_papers_are_not_scored_without_gold() -> None:
    assert precision_recall_f1(["p01"], []) is None


# --------------------------------------------------------------------------- keywords


def test_keyword_hit_accepts_any_alternative_case_insensitively() -> None:
    assert keyword_hit("We construct 12,326 failed trajectories.", ["12,326", "12326"]) is True
    assert keyword_hit("uses the TWEEDIE estimate", ["tweedie"]) is True
    assert keyword_hit("nothing relevant", ["12,326", "12326"]) is False


def test_keyword_recall_is_the_share_of_listed_keywords_present() -> None:
    text = "**DaTMe** (p12) accelerates SDXL."
    assert keyword_recall(text, ["datme", "sd1.5", "sdxl"]) == pytest.approx(2 / 3)
    assert keyword_recall("12,326 trajectories", ["12,326", "12326"]) == 0.5


def test_keyword_matching_ignores_line_breaks_and_unicode_width() -> None:
    assert keyword_hit("class-oriented causal\nhead intervention", ["Class-oriented causal head intervention"])
    assert keyword_hit("ＳＤＸＬ", ["sdxl"])  # full-width letters normalise (NFKC)


def test_keyword_metrics_do_not_apply_without_keywords() -> None:
    assert keyword_hit("anything", []) is None
    assert keyword_recall("anything", []) is None


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("text", [
    REFUSAL,
    "The abstracts do not state which model family performed best; the closest is [1].",
    "None of the provided sources mention the environments by name [2].",
    "The environments are not named in the abstracts.",
    "This question cannot be answered from the corpus.",
])
def test_refusals_are_recognised_in_the_text(text: str) -> None:
    assert is_refusal(text)


@pytest.mark.parametrize("text", [
    "Existing methods do not address calibration of confidence [1].",
    "We show that models don't report uncertainty well [2].",
    "Who&When Pro contains 12,326 failed trajectories [1].",
])
def test_answers_quoting_negative_sentences_are_not_refusals(text: str) -> None:
    assert not is_refusal(text)


def test_the_assistant_refused_flag_counts_whatever_the_text() -> None:
    assert is_refusal("Some text.", refused=True)


# --------------------------------------------------------------------------- citation validity and support


def test_invalid_citations_counts_every_out_of_range_number() -> None:
    text = "A [1]. B [7]. C [2, 9]. D [3-6]. E [0]. F [2][3]."
    assert invalid_citations(text, 5) == 4  # 7, 9, the 6 ending 3-6, and 0


def test_valid_citations_and_other_brackets_are_not_invalid() -> None:
    assert invalid_citations("A [1][2]. B [1, 3]. See [Smith et al.] and [x].", 3) == 0


def _support(cited: list[int], per_source: dict[int, float]) -> SentenceSupport:
    return SentenceSupport("a claim sentence", cited, per_source, max(per_source.values(), default=0.0))


SUPPORT = [
    _support([1], {1: 0.7}),  # backed
    _support([], {}),  # no citation: scores 0 for recall
    _support([2], {2: 0.3}),  # cited source doesn't back it
    _support([1, 3], {1: 0.2, 3: 0.6}),  # backed by one of two citations
]


def test_citation_recall_is_the_share_of_sentences_backed_by_a_citation() -> None:
    assert citation_recall(SUPPORT, 0.5) == 0.5


def test_citation_precision_is_the_share_of_citations_that_back_their_sentence() -> None:
    assert citation_precision(SUPPORT, 0.5) == 0.5  # (1: yes), (2: no), (1: no), (3: yes)


def test_support_at_exactly_the_threshold_counts() -> None:
    at = [_support([1], {1: SUPPORT_THRESHOLD})]
    assert citation_recall(at, SUPPORT_THRESHOLD) == 1.0
    assert citation_precision(at, SUPPORT_THRESHOLD) == 1.0


def test_a_citation_with_no_score_supports_nothing() -> None:
    unscored = [_support([9], {})]  # e.g. a number that names no source
    assert citation_recall(unscored, 0.5) == 0.0
    assert citation_precision(unscored, 0.5) == 0.0


def test_citation_metrics_do_not_apply_to_empty_answers_or_uncited_ones() -> None:
    assert citation_recall([], 0.5) is None
    assert citation_precision([_support([], {})], 0.5) is None


# --------------------------------------------------------------------------- latency


def test_percentile_interpolates_between_ranks() -> None:
    assert percentile([4.0, 1.0, 3.0, 2.0], 50) == 2.5
    assert percentile([1.0, 2.0, 3.0, 4.0], 95) == pytest.approx(3.85)
    assert percentile([0.7], 95) == 0.7
    assert percentile([], 50) is None


# --------------------------------------------------------------------------- one question, one report

PAPERS = {pid: make_paper(f"Abstract of {pid}.", id=pid) for pid in ("p01", "p02", "p03")}


def _answer(text: str, cited: list[int], support: list[SentenceSupport], refused: bool = False,
            removed: int = 0) -> Answer:
    sources = [Source(n, PAPERS[pid], 1.0, 1.0, 0.0) for n, pid in enumerate(PAPERS, 1)]
    return Answer(question="q", text=text, sources=sources, mode="extractive", refused=refused, cited=cited,
                  removed_citations=removed, support=support)


def test_score_answer_fills_every_metric_of_an_answerable_question() -> None:
    question = Question("q1", "comparative", "Compare them.", gold_papers=("p01", "p02"),
                        must_keywords=("benchmark", "bottleneck"))
    answer = _answer("A benchmark [1]. Another finding [3].", [1, 3], SUPPORT[:1], removed=2)
    row = score_answer(question, answer, {"dense": ["p01", "p03"], "hybrid": ["p01", "p02"]}, 0.25, 0.5)
    assert row.cited_papers == ["p01", "p03"]
    assert (row.cited_precision, row.cited_recall, row.cited_f1) == (0.5, 0.5, 0.5)
    assert row.recall == {"dense": 0.5, "hybrid": 1.0}
    assert (row.keyword_hit, row.keyword_recall) == (True, 0.5)
    assert (row.refused, row.refusal_correct, row.false_refusal) == (False, None, False)
    assert (row.invalid_citations, row.removed_citations) == (0, 2)
    assert (row.citation_recall, row.citation_precision, row.latency) == (1.0, 1.0, 0.25)


def test_score_answer_credits_a_refusal_of_an_unanswerable_question() -> None:
    question = Question("q2", "unanswerable", "Which model family was best?")
    support = [SentenceSupport(REFUSAL, [], {}, 0.0)]
    row = score_answer(question, _answer(REFUSAL, [], support, refused=True), {"hybrid": ["p01"]}, 0.1, 0.5)
    assert (row.refusal_correct, row.false_refusal) == (True, None)
    assert row.recall == {"hybrid": None} and row.cited_f1 is None
    assert row.citation_recall is None and row.citation_precision is None  # nothing claimed


def test_the_refusal_sentence_is_not_scored_but_the_evidence_after_it_is() -> None:
    support = [SentenceSupport("The abstracts don't state which one is best.", [], {}, 0.0),
               SentenceSupport("An uncited claim.", [], {}, 0.0),
               SentenceSupport("The closest evidence.", [1], {1: 0.9}, 0.9)]
    assert [s.sentence for s in claim_support(support)] == ["An uncited claim.", "The closest evidence."]


def test_refusing_an_answerable_question_is_a_false_refusal_but_not_for_a_false_premise() -> None:
    refusal = _answer(REFUSAL, [], [], refused=True)
    factual = score_answer(Question("q3", "factual", "?", gold_papers=("p01",)), refusal, {}, 0.1, 0.5)
    premise = score_answer(Question("q4", "false_premise", "?", gold_papers=("p01",)), refusal, {}, 0.1, 0.5)
    assert factual.false_refusal is True
    assert premise.false_refusal is None


def test_summarize_averages_applicable_values_and_totals_counts() -> None:
    answerable = score_answer(Question("a", "factual", "?", gold_papers=("p01",), must_keywords=("finding",)),
                              _answer("A finding [1].", [1], SUPPORT[:1]), {"hybrid": ["p01"]}, 1.0, 0.5)
    unanswerable = score_answer(Question("u", "unanswerable", "?"), _answer("Text [3] [9].", [3], [], removed=1),
                                {"hybrid": ["p02"]}, 3.0, 0.5)
    summary = summarize([answerable, unanswerable], ["hybrid"])
    assert summary["n"] == 2
    assert summary["recall_hybrid"] == 1.0  # the unanswerable question has no recall, not 0
    assert summary["keyword_hit"] == 1.0
    assert summary["refusal_correct"] == 0.0
    assert (summary["invalid_citations"], summary["removed_citations"]) == (1, 1)
    assert (summary["latency_p50"], summary["latency_p95"]) == (2.0, pytest.approx(2.9))


def test_format_report_prints_aligned_tables_with_overall_last() -> None:
    row = score_answer(Question("a", "factual", "?", gold_papers=("p01",)), _answer("A finding [1].", [1], []),
                       {m: ["p01"] for m in MODES}, 0.5, 0.5)
    text = format_report(Report(k=5, modes=MODES, answering="extractive", papers=19, threshold=0.5, rows=[row]))
    tables = [block.splitlines() for block in text.split("\n\n")[1:3]]
    for lines in tables:
        assert len({len(line) for line in lines}) == 1  # aligned
        assert lines[2].startswith("factual") and lines[-1].startswith("overall")
    assert "R@5 hybrid" in tables[0][0]
    assert "refusal acc" in tables[1][0] and " - " in tables[1][2]  # not applicable to factual


# --------------------------------------------------------------------------- question files and the run loop


def test_the_dev_file_parses_with_every_question_type_and_histories() -> None:
    questions = load_questions(DEV_QUESTIONS)
    assert len(questions) == 47
    assert {q.type for q in questions} == {"factual", "paraphrase", "comparative", "aggregate", "unanswerable",
                                           "multi_turn", "false_premise"}
    assert all(q.history for q in questions if q.type == "multi_turn")
    assert not any(q.gold_papers for q in questions if q.type == "unanswerable")


def test_a_broken_question_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"id": "a", "type": "factual", "question": "?"}\n\n{"id": "b"}\n')
    with pytest.raises(QuestionFileError, match=r"q\.jsonl:3"):
        load_questions(path)


def test_select_questions_by_type_per_type_and_limit() -> None:
    questions = [Question(f"{t}{i}", t, "?") for t in ("a", "b") for i in range(3)]
    assert [q.id for q in select_questions(questions, per_type=1)] == ["a0", "b0"]
    assert [q.id for q in select_questions(questions, types={"b"}, limit=2)] == ["b0", "b1"]
    assert len(select_questions(questions)) == 6


class FakeAssistant:
    """Just enough of Assistant for the run loop: records what it was asked."""

    def __init__(self) -> None:
        self.papers = list(PAPERS.values())
        self.searches: list[tuple[str, int, str]] = []
        self.asks: list[dict] = []
        self.plans: list[tuple[str, list, bool]] = []
        self.retriever = SimpleNamespace(search=self._search)

    def _search(self, query: str, k: int, mode: str = "hybrid") -> list[Source]:
        self.searches.append((query, k, mode))
        return [Source(1, PAPERS["p01"], 1.0, 1.0, 0.0)]

    def plan(self, question: str, history: list, use_llm: bool) -> SimpleNamespace:
        self.plans.append((question, history, use_llm))
        return SimpleNamespace(query=f"{history[-1].content} / {question}")

    def ask(self, question: str, **kwargs: object) -> SimpleNamespace:
        self.asks.append({"question": question, **kwargs})
        return SimpleNamespace(result=lambda: _answer("A finding [1].", [1], []))

    def stats(self) -> dict[str, object]:
        return {"answer_mode": "extractive (no model configured)"}


def test_run_eval_searches_every_mode_and_asks_with_history_and_k() -> None:
    assistant = FakeAssistant()
    question = Question("f", "factual", "What is X?", gold_papers=("p01",))
    report = run_eval(assistant, [question], k=3, modes=("dense", "hybrid"), use_llm=False)  # type: ignore[arg-type]
    assert assistant.searches == [("What is X?", 3, "dense"), ("What is X?", 3, "hybrid")]
    [asked] = assistant.asks
    assert (asked["question"], asked["top_k"], asked["use_llm"], asked["history"]) == ("What is X?", 3, False, [])
    # the answer path is scored too: its own first k sources (here p01 among them)
    assert report.rows[0].recall == {"dense": 1.0, "hybrid": 1.0, "answer": 1.0}
    assert report.modes == ("dense", "hybrid", "answer")
    assert report.answering == "extractive (forced)"


def test_follow_ups_are_searched_as_the_assistant_rewrites_them_and_asked_as_typed() -> None:
    assistant = FakeAssistant()
    follow_up = Question("m", "multi_turn", "And then?", gold_papers=("p01",), history=(("user", "What is X?"),))
    run_eval(assistant, [follow_up], k=5, modes=("hybrid",), use_llm=True)  # type: ignore[arg-type]
    assert assistant.searches == [("What is X? / And then?", 5, "hybrid")]
    [(question, history, use_llm)] = assistant.plans
    assert (question, [(m.role, m.content) for m in history], use_llm) == ("And then?", [("user", "What is X?")], True)
    [asked] = assistant.asks
    assert asked["question"] == "And then?"
    assert [(m.role, m.content) for m in asked["history"]] == [("user", "What is X?")]


# --------------------------------------------------------------------------- the console script, end to end

OFF_TOPIC = {"id": "off-topic", "type": "off_topic", "question": "What is a good recipe for sourdough bread?",
             "gold_papers": [], "answer_facts": [], "must_keywords": []}


def test_rag_eval_is_a_registered_command() -> None:
    """Fails loudly (rather than skipping the end-to-end run below) if ``rag eval`` is not wired up."""
    from rag import cli

    assert "eval" in cli.COMMANDS
    assert cli.build_parser().parse_args(["eval", "q.jsonl", "--modes", "dense"]).modes == ["dense"]


def test_rag_eval_on_a_dev_slice_meets_conservative_floors(tmp_path: Path) -> None:
    """Two questions of each type plus an off-topic one, through the real console script, extractive."""
    questions = tmp_path / "slice.jsonl"
    questions.write_text(DEV_QUESTIONS.read_text(encoding="utf-8") + json.dumps(OFF_TOPIC) + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAG_")}
    env["RAG_DATA_DIR"] = str(tmp_path / "index")  # default corpus: the shipped seeds
    rag = Path(sys.executable).with_name("rag")
    done = subprocess.run([str(rag), "-q", "eval", str(questions), "--per-type", "2", "--extractive", "--json"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    summary, rows = report["summary"], {r["id"]: r for r in report["questions"]}

    assert report["config"]["papers"] == 19 and report["config"]["k"] == 5
    assert len(rows) == 15 and list(summary)[-2:] == ["off_topic", "overall"]
    assert summary["factual"]["recall_hybrid"] >= 0.8
    assert summary["overall"]["recall_hybrid"] >= 0.6
    assert summary["overall"]["recall_dense"] >= 0.6 and summary["overall"]["recall_bm25"] >= 0.6
    assert summary["multi_turn"]["recall_hybrid"] >= 0.5  # follow-ups searched as rewritten
    assert summary["overall"]["invalid_citations"] == 0
    assert summary["overall"]["cited_f1"] >= 0.5
    assert summary["factual"]["keyword_hit"] >= 0.5
    assert summary["overall"]["false_refusal"] <= 0.2
    assert summary["overall"]["citation_recall"] >= 0.6  # extractive answers quote their sources
    assert summary["unanswerable"]["refusal_correct"] >= 0.5
    assert rows["off-topic"]["refusal_correct"] is True
    assert 0 < summary["overall"]["latency_p50"] <= summary["overall"]["latency_p95"] < 30
