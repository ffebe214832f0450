"""The Streamlit chat UI, driven headlessly with AppTest, plus its pure helpers.

AppTest runs ``ui/app.py`` in this process, so the app's ``st.cache_resource``
assistant is shared by the tests that use the same settings: the index is built
and the embedding model loaded once. Every test points ``RAG_DATA_DIR`` at one
temporary folder; the LLM tests add the fake OpenAI-compatible server, which
keys a separate cached assistant (the cache key is the settings).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import ChatMessage

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rag.assistant import Answer, Assistant  # noqa: E402
from rag.chunking import split_sentences  # noqa: E402
from rag.corpus import make_paper  # noqa: E402
from rag.display import plural, relevance, unit_score  # noqa: E402
from rag.retrieval import Source  # noqa: E402
from rag.types import Evidence  # noqa: E402
from ui.evidence import supporting_sentences  # noqa: E402
from ui.export import conversation_markdown  # noqa: E402
from ui.markup import (  # noqa: E402
    abstract_markdown,
    answer_markdown,
    escape,
    excerpt_markdown,
    inline_markdown,
    stream_markdown,
)
from ui.ordering import StreamNumbering, citation_order, renumbered  # noqa: E402
from ui.papers_page import search_papers  # noqa: E402
from ui.state import Turn  # noqa: E402

APP = str(ROOT / "ui" / "app.py")
TIMEOUT = 120
WHO_WHEN = "How many failed trajectories does Who&When Pro contain?"
LLM_ENV = ("RAG_LLM_BASE_URL", "RAG_LLM_MODEL", "RAG_LLM_API_KEY")


# --------------------------------------------------------------------------- fixtures and helpers


@pytest.fixture(scope="session")
def ui_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("ui_index")


@pytest.fixture(scope="module", autouse=True)
def _release_cached_assistants() -> Iterator[None]:
    """Free the assistants (each holds an embedding model) the app cached in this process."""
    yield
    st.cache_resource.clear()


@pytest.fixture
def app_env(ui_data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The environment the app reads its Settings from: a test index, no model endpoint."""
    monkeypatch.setenv("RAG_DATA_DIR", str(ui_data_dir))
    for name in (*LLM_ENV, "RAG_CORPUS", "RAG_CHROMA_HOST", "RAG_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(ui_data_dir)  # no stray rag.toml
    yield


@pytest.fixture
def llm_env(app_env: None, openai_server, monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setenv("RAG_LLM_BASE_URL", openai_server.base_url)
    monkeypatch.setenv("RAG_LLM_API_KEY", "sk-ui-test-secret")
    return monkeypatch


def start_app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception, at.exception
    return at


def ask(at: AppTest, question: str) -> AppTest:
    at.chat_input[0].set_value(question).run()
    assert not at.exception, at.exception
    return at


def last_reply(at: AppTest) -> ChatMessage:
    return at.chat_message[-1]


def answer_text(at: AppTest) -> str:
    """The streamed answer of the last turn: the Markdown block holding citation links."""
    texts = [m.value for m in last_reply(at).markdown if "](#src-" in m.value]
    assert texts, f"no answer with citation links in {[m.value for m in last_reply(at).markdown]}"
    return texts[0]


def card_titles(at: AppTest) -> list[str]:
    return [h.value for h in last_reply(at).subheader]


def badge(at: AppTest) -> str:
    return next(c.value for c in last_reply(at).caption if "-badge[" in c.value)


# --------------------------------------------------------------------------- the app


def test_fact_question_streams_a_cited_answer_with_source_cards(app_env: None) -> None:
    at = start_app()
    assert [b.label for b in at.button][:4], "the welcome shows example questions"
    ask(at, WHO_WHEN)
    text = answer_text(at)
    assert "12,326" in text
    assert "[[1]](#src-1-1)" in text  # each citation links to its card
    titles = card_titles(at)
    assert any("p05" in t for t in titles), titles
    assert "src-1-1" in {h.proto.anchor for h in last_reply(at).subheader}
    assert "extractive answer" in badge(at)
    assert "Answer from" in at.status[0].label
    highlighted = [m.value for m in last_reply(at).markdown if ":orange-background[" in m.value]
    assert any("12\\,326" in m for m in highlighted), "the quoted sentence is highlighted in its abstract"


def test_example_button_asks_its_question(app_env: None) -> None:
    at = start_app()
    at.button(key="example-0").click().run()
    assert not at.exception
    assert "12,326" in answer_text(at)
    assert not any(b.key and b.key.startswith("example-") for b in at.button), "welcome gone after asking"


def test_paper_filter_restricts_sources(app_env: None) -> None:
    at = start_app()
    at.multiselect[0].set_value(["p10"]).run()
    ask(at, "What does this paper contribute?")
    titles = card_titles(at)
    assert titles and all("p10" in t for t in titles), titles
    assert any("p10" in i.value for i in at.info), "the page says the filter is on"


def test_follow_up_keeps_earlier_turns_and_loads_nothing_again(app_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[object] = []
    real_open = Assistant.open.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(Assistant, "open",
                        classmethod(lambda cls, *a, **k: opened.append(1) or real_open(cls, *a, **k)))
    at = start_app()
    ask(at, WHO_WHEN)
    loads = len(opened)
    ask(at, "Which benchmark contains more items, Who&When Pro or V33DA?")
    assert len(opened) == loads, "the second question reopened the assistant"
    assert len(at.session_state["turns"]) == 2
    users = [m for m in at.chat_message if m.name == "user"]
    assert [u.markdown[0].value for u in users][0] == escape(WHO_WHEN), "the first turn stays visible"
    anchors = {h.proto.anchor for h in at.subheader}
    assert {"src-1-1", "src-2-1"} <= anchors, "cards of each turn have their own anchors"


def test_export_contains_questions_answers_and_references(app_env: None) -> None:
    at = start_app()
    ask(at, WHO_WHEN)
    exported = conversation_markdown(at.session_state["turns"])
    assert WHO_WHEN in exported
    assert "12,326" in exported
    assert "- [1] Who&When Pro (p05)" in exported


def test_new_chat_clears_the_conversation(app_env: None) -> None:
    at = start_app()
    ask(at, WHO_WHEN)
    next(b for b in at.button if b.label == "New chat").click().run()
    assert not at.exception
    assert at.session_state["turns"] == []
    assert not at.subheader, "no source cards left"
    assert at.button(key="example-0").label == WHO_WHEN, "the welcome is back"


@pytest.mark.parametrize("question", ["", "   "])
def test_empty_question_does_not_crash(app_env: None, question: str) -> None:
    at = start_app()
    ask(at, question)
    assert not at.error
    assert at.session_state["turns"] == []
    if question:
        assert any("type a question" in w.value for w in at.warning)


def test_llm_answer_shows_model_badge_and_uses_history(llm_env: pytest.MonkeyPatch, openai_server) -> None:
    llm_env.setenv("RAG_LLM_MODEL", "echo-cite")
    at = start_app()
    ask(at, WHO_WHEN)
    assert f"model echo\\-cite at endpoint {escape(openai_server.base_url)}" in badge(at)
    assert "[[1]](#src-1-1)" in answer_text(at)
    assert "removed" in badge(at), "the fake model's invalid [99] is removed and counted"
    assert any(":orange-background[" in m.value for m in last_reply(at).markdown), "cited sentence highlighted"
    flagged = [w.value for w in last_reply(at).warning if "not clearly supported" in w.value]
    assert flagged and "does not exist" in flagged[0], "the claim that lost its fabricated citation is flagged"
    follow_up = "And which modalities does it cover?"
    ask(at, follow_up)
    request = next(r for r in reversed(openai_server.requests("echo-cite")) if follow_up in str(r["messages"]))
    assert any(m["role"] == "user" and m["content"] == WHO_WHEN for m in request["messages"]), "history sent"
    shown = [e.value for kind in ("markdown", "caption", "info", "warning", "error", "text_input")
             for e in at.get(kind)]
    assert shown and not any("sk-ui-test-secret" in str(value) for value in shown), "the API key is never shown"
    assert "sk-ui-test-secret" not in conversation_markdown(at.session_state["turns"])


def test_failing_model_falls_back_with_a_warning(llm_env: pytest.MonkeyPatch) -> None:
    llm_env.setenv("RAG_LLM_MODEL", "error-500")
    at = start_app()
    ask(at, WHO_WHEN)
    warnings = [w.value for w in last_reply(at).warning]
    assert any("language model failed" in w for w in warnings), warnings
    assert "12,326" in answer_text(at)
    assert "extractive fallback" in badge(at) and "error\\-500" in badge(at)
    assert not at.error


def test_model_name_setting_switches_model(llm_env: pytest.MonkeyPatch, openai_server) -> None:
    llm_env.setenv("RAG_LLM_MODEL", "error-500")
    at = start_app()
    at.text_input(key="_widget_llm_model").set_value("echo-cite").run()
    ask(at, WHO_WHEN)
    assert "model echo\\-cite" in badge(at)
    assert not any("language model failed" in w.value for w in last_reply(at).warning), "no fallback"


def test_unloadable_corpus_shows_an_error_not_a_traceback(app_env: None, monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    monkeypatch.setenv("RAG_DATA_DIR", str(tmp_path / "index"))
    monkeypatch.setenv("RAG_CORPUS", str(tmp_path / "missing.jsonl"))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception
    assert any("could not be loaded" in e.value and "missing.jsonl" in e.value for e in at.error)


# --------------------------------------------------------------------------- pure helpers


def _source(number: int, text: str, paper_id: str = "p01", label: str = "Demo") -> Source:
    return Source(number, replace(make_paper(text, id=paper_id), label=label), 0.5, 0.4, 0.3, ["demo"])


def test_conversation_markdown_lists_references_per_answer() -> None:
    source = _source(1, "We build a benchmark with 12,326 items.", "p05", "Who&When Pro")
    answer = Answer(question="How many?", text="It has 12,326 items [1].", sources=[source], mode="extractive",
                    cited=[1])
    exported = conversation_markdown([Turn("How many?", answer), Turn("Broken?", error="the store is down")])
    assert "## 1. How many?" in exported
    assert "It has 12,326 items [1]." in exported
    assert "**References**\n\n- [1] Who&When Pro (p05)" in exported
    assert "## 2. Broken?" in exported and "the store is down" in exported


def test_abstract_markdown_cannot_inject_markup() -> None:
    text = "Evil [click](javascript:alert(1)) ![x](https://e.vil/p.png) <b>bold</b> :red[x] $x$ see https://ok.org/a_b."
    rendered = abstract_markdown(text)
    assert "](javascript" not in rendered and "<b>" not in rendered
    assert not re.search(r"(?<!\\)!\[", rendered), "an image in an abstract becomes a link, never loads"
    assert ":red[" not in rendered
    assert "[https\\:\\/\\/ok\\.org\\/a\\_b](<https://ok.org/a_b>)" in rendered  # real link kept, clickable


@pytest.mark.parametrize("math", ["SQA$^{I}$", "$\\pm 2$s", "AUC${=}1.0$", "PixArt-$\\alpha$"])
def test_abstract_math_passes_through_for_katex(math: str) -> None:
    span = math[math.index("$") : math.rindex("$") + 1]
    assert span in abstract_markdown(f"We report {math} here."), "the $...$ span reaches KaTeX intact"
    assert span in inline_markdown(f"Label {math}")


@pytest.mark.parametrize("text", ["costs $5 and $10 today", "$\\href{javascript:alert(1)}{x}$", "$ spaced $"])
def test_abstract_dollars_that_are_not_safe_math_stay_escaped(text: str) -> None:
    assert abstract_markdown(text).startswith(escape(text[: text.index("$") + 1]))


def test_math_span_cannot_open_a_link() -> None:
    rendered = abstract_markdown("[click $](javascript:alert(1))$ now")
    assert not re.search(r"(?<!\\)\[", rendered), "the only [ outside the formula is escaped"


def test_abstract_markdown_shows_latex_emphasis() -> None:
    assert abstract_markdown(r"yields \emph{gauge non-identifiability}.") == "yields *gauge non\\-identifiability*\\."


def test_abstract_markdown_highlights_sentences() -> None:
    text = "First sentence here. Second one with 12,326 items. Third."
    second = split_sentences(text)[1]
    rendered = abstract_markdown(text, [second])
    assert ":orange-background[Second one with 12\\,326 items\\.]" in rendered


def test_answer_markdown_links_citations_and_disarms_images() -> None:
    rendered = answer_markdown("A [1][2]. B [7]. ![x](https://e.vil/?q=secret) [1](https://x.org)", 3, {1, 2})
    assert "[[1]](#src-3-1)[[2]](#src-3-2)" in rendered
    assert "[7]" in rendered and "#src-3-7" not in rendered  # no card 7, no link
    assert "![x]" not in rendered
    assert "[1](https://x.org)" in rendered  # a real link is left alone


def test_answer_markdown_shows_latex_emphasis_of_quoted_abstracts_as_emphasis() -> None:
    rendered = answer_markdown(r"but \textbf{where to look is not how to fix}: we introduce \emph{SIF} [1].", 2, {1})
    assert rendered == "but **where to look is not how to fix**: we introduce *SIF* [[1]](#src-2-1)."


def test_streamed_markdown_equals_whole_answer_markdown() -> None:
    text = (r"Claim [1]. Wow![2] Link [1](https://x.org) and ![img](https://e.vil) end [12] but \textbf{where to "
            r"look} and \emph{SIF} [2], math $\alpha$, a \ backslash and \textit{open")
    whole = answer_markdown(text, 1, {1, 2, 12})
    for size in range(1, len(text) + 1):
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        assert "".join(stream_markdown(chunks, 1, {1, 2, 12})) == whole, size


def test_supporting_sentences_for_extractive_and_llm_answers() -> None:
    source = _source(1, "Intro text about agents. We construct 12,326 failed trajectories. Unrelated outro.")
    sentences = split_sentences(source.paper.text)
    extractive = Answer(question="q", text="x [1]", sources=[source], mode="extractive",
                        evidence=[Evidence(1, "p01", sentences[1], 0.9, 0.5)])
    assert supporting_sentences(extractive, source) == [sentences[1]]
    written = Answer(question="q", text="The benchmark has 12,326 failed trajectories [1].", sources=[source],
                     mode="llm")
    assert supporting_sentences(written, source) == [sentences[1]]
    after_stop = replace(written, text="Intro. The benchmark has 12,326 failed trajectories. [1] Next claim here.")
    assert supporting_sentences(after_stop, source) == [sentences[1]], "a marker after the stop cites that sentence"
    refused = Answer(question="q", text="no", sources=[source], mode="extractive", refused=True,
                     evidence=extractive.evidence)
    assert supporting_sentences(refused, source) == []


def test_search_papers_matches_every_word() -> None:
    papers = [make_paper("Diffusion models for images.", id="p01"), make_paper("A tabular benchmark.", id="p02")]
    assert [p.id for p in search_papers(papers, "DIFFUSION images")] == ["p01"]
    assert [p.id for p in search_papers(papers, "p02")] == ["p02"]
    assert len(search_papers(papers, "")) == 2


def test_answer_markdown_links_citations_inside_a_markdown_table() -> None:
    table = ("| Paper | Problem | Approach | Data/setting | Main result |\n"
             "|---|---|---|---|---|\n"
             "| **Who&When Pro** [2] | failure attribution [2] | agents | 12,326 runs | better [2][1] |\n"
             "| **V33DA** [1] | 3D QA | SQA$^{I}$ | scans | +4 [1] |\n")
    rendered = answer_markdown(table, 4, {1, 2})
    rows = rendered.splitlines()
    assert [row.count("|") for row in rows] == [row.count("|") for row in table.splitlines()], "cells intact"
    assert "**Who&When Pro** [[2]](#src-4-2)" in rows[2] and "[[2]](#src-4-2)[[1]](#src-4-1)" in rows[2]
    assert "SQA$^{I}$" in rows[3]
    renumbered_table = "".join(stream_markdown([table[i : i + 7] for i in range(0, len(table), 7)], 4, {1, 2},
                                               StreamNumbering([_source(1, "a."), _source(2, "b.")])))
    assert "**Who&When Pro** [[1]](#src-4-1)" in renumbered_table, "first use in the table becomes [1]"
    assert "**V33DA** [[2]](#src-4-2)" in renumbered_table


def test_citations_are_renumbered_by_first_use_and_the_rest_by_relevance() -> None:
    sources = [_source(1, "One. Uno.", "p01", "A"), _source(2, "Two.", "p02", "B"), _source(3, "Three.", "p03", "C"),
               _source(4, "Four here. Other.", "p04", "D")]
    sources[1] = replace(sources[1], score=0.9)
    sentence = split_sentences(sources[3].paper.text)[0]
    answer = Answer(question="q", text="Four says so [4]. One agrees [1][4].", sources=sources, mode="extractive",
                    cited=[4, 1], evidence=[Evidence(4, "p04", sentence, 0.9, 0.5)])
    assert citation_order(answer.text, sources) == {4: 1, 1: 2, 2: 3, 3: 4}
    shown = renumbered(answer)
    assert shown.text == "Four says so [1]. One agrees [2][1]."
    assert [s.paper.id for s in shown.sources] == ["p04", "p01", "p02", "p03"]
    assert [s.number for s in shown.sources] == [1, 2, 3, 4] and shown.cited == [1, 2]
    assert supporting_sentences(shown, shown.sources[0]) == [sentence], "evidence follows its source"
    streamed = StreamNumbering(sources)
    assert "".join(streamed(piece) for piece in ["Four says so [4].", " One agrees [1][4]."]) == shown.text


def test_relevance_is_bounded_and_never_negative_zero() -> None:
    high = replace(_source(1, "x."), score=1.9)
    assert relevance(high, 1.0) == pytest.approx(0.95)
    assert relevance(replace(high, score=2.5), 1.0) == 1.0
    assert unit_score(relevance(replace(high, score=-0.001), 1.0)) == "0.00"
    assert unit_score(-0.004) == "0.00" and unit_score(0.456) == "0.46"
    assert plural(1, "source") == "1 source" and plural(5, "source") == "5 sources"


def test_excerpt_shows_only_highlighted_sentences() -> None:
    text = "First sentence here. Second one with 12,326 items. Third one. Fourth and last."
    sentences = split_sentences(text)
    excerpt = excerpt_markdown(text, [sentences[1], sentences[3]])
    assert excerpt.startswith("… :orange-background[Second")
    assert "First" not in excerpt and "Third" not in excerpt
    assert excerpt.count(":orange-background[") == 2 and " … " in excerpt


def test_export_lists_only_cited_references_with_quotes_and_safe_links() -> None:
    cited = replace(_source(1, "We build <script>x</script> a benchmark. It has 12,326 items.", "p05", "Who&When Pro"),
                    paper=replace(make_paper("We build <script>x</script> a benchmark. It has 12,326 items.", id="p05",
                                             url="javascript:alert(1)"), label="Who&When Pro"))
    other = _source(2, "Unrelated.", "p09", "Other")
    sentence = split_sentences(cited.paper.text)[1]
    answer = Answer(question="How many?", text="It has 12,326 items [1]. <img src=x onerror=alert(1)>",
                    sources=[cited, other], mode="extractive", cited=[1],
                    evidence=[Evidence(1, "p05", sentence, 0.9, 0.5)])
    exported = conversation_markdown([Turn("How many?\x1b]0;pwned\x07", answer)])
    assert "- [1] Who&When Pro (p05)\n  > It has 12,326 items." in exported
    assert "p09" not in exported, "an uncited paper is not a reference"
    assert "javascript:" not in exported and "<img" not in exported and "&lt;img" in exported
    assert "\x1b" not in exported
    linked = replace(answer, sources=[replace(cited, paper=replace(cited.paper, url="https://x.org/p05")), other])
    assert "- [1] Who&When Pro (p05), <https://x.org/p05>" in conversation_markdown([Turn("q", linked)])


def test_a_list_among_the_last_answer_that_finds_none_says_so_plainly(app_env: None) -> None:
    """It read "the 0 closest papers are below", promised closest papers that were not there and flagged its
    own "none matches" sentence as a claim its sources don't support."""
    at = start_app()
    ask(at, "Which papers work with animals?")
    listed = at.session_state["turns"][-1].answer
    assert listed.to_dict()["question_kind"] == "list"
    ask(at, "Which of them use video?")
    reply = last_reply(at)
    answer = at.session_state["turns"][-1].answer
    assert answer.refused and answer.text.startswith(f"None of these {len(listed.cited)} papers"), answer.text
    assert at.status[-1].label == "Not answered by the abstracts", at.status[-1].label
    assert [i.value for i in reply.info] == ["None of the papers answers this."]
    assert not any("not clearly supported" in w.value for w in reply.warning)


def test_refusal_says_so_with_the_closest_papers_collapsed(app_env: None) -> None:
    at = start_app()
    ask(at, "What is the capital of France?")
    reply = last_reply(at)
    assert at.session_state["turns"][-1].answer.refused
    assert not any("Answer from" in s.label for s in at.status), [s.label for s in at.status]
    assert any("None of the papers answers this" in i.value for i in reply.info)
    assert reply.expander and "none of them answers" in reply.expander[0].label
    assert not any("relevance" in c.value and re.search(r"relevance (1\.[0-9]*[1-9]|-)", c.value)
                   for c in at.caption), "relevance stays within 0-1"


def test_new_chat_drops_an_answer_that_was_started_before(app_env: None) -> None:
    at = start_app()
    ask(at, WHO_WHEN)
    started_in = at.session_state["conversation"]
    next(b for b in at.button if b.label == "New chat").click().run()
    assert at.session_state["conversation"] == started_in + 1
    ask(at, "And which modalities does it cover?")
    turn = at.session_state["turns"][-1]
    assert len(at.session_state["turns"]) == 1 and turn.answer is not None
    assert not turn.answer.plan.carried, "after New chat a question is never a follow-up"


def test_extractive_text_streams_sentence_by_sentence() -> None:
    from ui.chat_page import by_sentence

    deltas = ["**A** (p01): First claim [1]. Second claim [2].\n\n", "Third one? Yes [3]."]
    pieces = list(by_sentence(deltas, pause=0.0))
    assert "".join(pieces) == "".join(deltas), "re-cutting never changes the text"
    assert pieces == ["**A** (p01): First claim [1]. ", "Second claim [2].\n\n", "Third one? ", "Yes [3]."]
