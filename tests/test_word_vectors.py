"""Word-form vectors stored at ingest (rag.word_vectors) and the one-word criteria they serve.

Real model, real files: the seed vocabulary is encoded into a temporary data dir.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rag.config import SEED_CORPUS
from rag.corpus import load_corpus, make_paper
from rag.evidence import RELATED_WORD_MIN, distinctive_word, held_at
from rag.lexical import stem
from rag.word_vectors import FOLDER, WordVectors, ingest_words, vocabulary


@pytest.fixture(scope="module")
def seeds() -> list[Any]:
    return load_corpus(SEED_CORPUS)


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory, seeds: list[Any], seed_embedder: Any) -> Path:
    folder = tmp_path_factory.mktemp("words")
    assert ingest_words(seeds, folder, seed_embedder, progress=False) == len(vocabulary(seeds))
    return folder


def test_vocabulary_keeps_lower_cased_word_forms_without_digits_or_stopwords(seeds: list[Any]) -> None:
    forms = vocabulary(seeds)
    assert {"wildlife", "finches", "medical", "self-supervised"} <= forms
    assert not {w for w in forms if w != w.lower() or any(c.isdigit() for c in w) or len(w) < 3}
    assert not {"the", "and", "with"} & forms


def test_reingest_encodes_only_new_word_forms(indexed: Path, seeds: list[Any], seed_embedder: Any,
                                              tmp_path: Path) -> None:
    assert ingest_words(seeds, indexed, seed_embedder, progress=False) == 0
    extra = make_paper("Zorblat quintessence frobnicates.", id="x1")
    assert ingest_words([*seeds, extra], indexed, seed_embedder, progress=False) == 3


def test_related_words_are_the_close_forms_with_their_similarity(indexed: Path, seeds: list[Any],
                                                                 seed_embedder: Any) -> None:
    """'animals' reaches the wildlife and animal forms, not unrelated ones; each similarity is the real cosine."""
    words = WordVectors(indexed, seed_embedder)
    vector = seed_embedder.embed_query("animals")
    related = words.related(vector, RELATED_WORD_MIN, {stem(form) for form in vocabulary(seeds)})
    assert {"animal", "wildlife"} <= set(related)
    assert not {"diffusion", "tokens", "calibration"} & set(related)
    fresh = seed_embedder.embed(list(related))
    np.testing.assert_allclose(list(related.values()), fresh @ vector, atol=2e-3)  # float16 storage
    assert min(related.values()) >= RELATED_WORD_MIN
    # only the forms of the stems asked about ("finches" is 0.45 from "animals")
    assert words.related(vector, RELATED_WORD_MIN, [stem("finches"), "unseenword"]) == {}
    assert set(words.related(vector, RELATED_WORD_MIN, [stem("wildlife"), stem("tokens")])) == {"wildlife"}


def test_a_data_dir_without_word_vectors_relates_nothing(tmp_path: Path, seed_embedder: Any) -> None:
    assert WordVectors(tmp_path, seed_embedder).related(seed_embedder.embed_query("animals"), 0.0, ["anim"]) == {}
    assert not (tmp_path / FOLDER).exists()


def test_a_one_word_criterion_credits_related_words_and_a_longer_one_does_not(seed_assistant: Any) -> None:
    """'animals': the wildlife sentence now covers the criterion at its similarity; 'lower bounds' stays exact
    (each word alone drifts: 'lower' ~ 'higher')."""
    scorer, embed = seed_assistant.gatherer.scorer, seed_assistant.embedder.embed_query
    stems = [entry.stems for entry in scorer.bank.get(seed_assistant.papers).values()]

    def related(criterion: str) -> dict[str, dict[str, float]]:
        return scorer.word_matches(criterion, embed(criterion), stems).related

    animals = related("animals")
    assert stem("wildlife") in animals[stem("animals")]
    assert not any(related("lower bounds").values())  # ("bounds" the distinctive word: "lower" only says which)
    assert related("training-free") == {}
    # a generic word beside one distinctive word: the distinctive word's own neighbours, not the phrase's
    assert related("data animals") == animals
    assert related("data tokens animals") == {}


def test_a_word_no_abstract_writes_is_credited_by_the_written_words_close_to_it(seed_assistant: Any) -> None:
    """ "pictures" is in no seed abstract and "images" is: in a longer criterion the unwritten word reaches it, while
    the written words are left as they are (each alone drifts) and a word close to nothing written reaches none."""
    scorer, embed = seed_assistant.gatherer.scorer, seed_assistant.embedder.embed_query
    stems = [entry.stems for entry in scorer.bank.get(seed_assistant.papers).values()]
    related = scorer.word_matches("pictures text prompt", embed("pictures text prompt"), stems, True).related
    assert stem("images") in related[stem("pictures")], related
    assert set(related) == {stem("pictures")}, related
    assert scorer.word_matches("zygomorphic prompt", embed("zygomorphic prompt"), stems, True).related == {}
    assert scorer.word_matches("pictures text prompt", embed("pictures text prompt"), stems).related == {}


def test_forms_that_share_a_stem_but_not_a_meaning_are_distant(seed_assistant: Any) -> None:
    """The stemmer makes 'identifi' of both 'identifiability' and 'identifies'; the word vectors tell them
    apart, and a sentence that only 'identifies' something covers the criterion at that form's similarity."""
    scorer, embed = seed_assistant.gatherer.scorer, seed_assistant.embedder.embed_query
    stems = [entry.stems for entry in scorer.bank.get(seed_assistant.papers).values()]
    distant = scorer.word_matches("identifiability", embed("identifiability"), stems).distant
    forms = distant[stem("identifiability")].similarity
    assert {"identify", "identifies"} <= set(forms) and forms["identifiability"] == 1.0
    assert max(forms["identify"], forms["identifies"]) < RELATED_WORD_MIN
    vector = embed("identifies")
    np.testing.assert_allclose(forms["identifies"], float(embed("identifiability") @ vector), atol=2e-3)
    assert scorer.word_matches("policies", embed("policies"), stems).distant == {}  # "policy" is close
    wanted = scorer.wanted("identifiability")
    weights = scorer.weights
    held = {stem("identifiability"): forms["identifies"]}
    assert weights.coverage(wanted, wanted, None, held) == pytest.approx(forms["identifies"])
    assert weights.coverage(wanted, wanted) == 1.0


def test_an_ing_form_of_another_word_is_read_with_the_word_after_it(seed_assistant: Any) -> None:
    """ "bounding" is close to "bounds" as a word (0.79) but "bounding boxes" is not: every theory list ("proofs,
    bounds or identifiability") had listed the Audio-Visual LLMs paper for "overlaying visual bounding boxes"."""
    scorer, embed = seed_assistant.gatherer.scorer, seed_assistant.embedder.embed_query
    stems = [entry.stems for entry in scorer.bank.get(seed_assistant.papers).values()]
    distant = scorer.word_matches("bounds", embed("bounds"), stems).distant
    forms = distant[stem("bounds")]
    assert forms.similarity["bounding"] >= RELATED_WORD_MIN and "bounding" in forms.in_context
    boxes = "By simply overlaying visual bounding boxes on active speakers, this approach yields gains."
    held = held_at(distant, boxes, {stem("bounds")})
    assert held[stem("bounds")] == pytest.approx(float(embed("bounding boxes") @ embed("bounds")), abs=2e-3)
    assert held[stem("bounds")] < RELATED_WORD_MIN
    assert held_at(distant, "We prove matching upper and lower bounds.", {stem("bounds")}) == {}  # held fully
    result = seed_assistant.answer("Which papers give proofs or bounds?", use_llm=False)
    cited = {s.paper.id for s in result.cited_sources}
    assert {"p03", "p13"} <= cited and "p08" not in cited, cited


@pytest.mark.parametrize("question", ["Show me the diffusion model papers.",
                                      "What papers in this set are about diffusion?",
                                      "Which papers study diffusion models?"])
def test_diffusion_model_lists_leave_out_a_paper_that_only_says_diffuse(seed_assistant: Any, question: str) -> None:
    """RISE (p07) says outcome signals are applied "diffusely" across agents; the stemmer makes that "diffus" too.
    "models" is as generic as "model": read as a second distinctive word, it had left "diffusion" without its
    distant forms, and 12 tuning lists of diffusion models had RISE as a possible member."""
    assert distinctive_word("diffusion models") == distinctive_word("diffusion model") == "diffusion"
    result = seed_assistant.answer(question, use_llm=False)
    cited = {s.paper.id for s in result.cited_sources}
    assert {"p12", "p15"} <= cited and "p07" not in cited


@pytest.mark.parametrize(("criterion", "word"), [
    ("data recorded animals", "animals"),  # a participle says how the animals come in
    ("models trained synthetic data", "synthetic"),
    ("self-supervised learning", ""),  # a hyphenated word stays a word of its own
    ("cutting coral surveys", ""),  # (two distinctive words: none)
    ("faster generation", ""),  # a comparative says which way, as a verb of change does (probe43 mm016)
    ("cheaper surveys", "surveys"),
    ("cutting surveys", "surveys"),  # a verb of change says which way, not what: "cutting" is in no abstract
])
def test_a_participle_beside_a_distinctive_word_only_describes_it(criterion: str, word: str) -> None:
    """ "Which papers use data recorded from animals?" had two distinctive words, so none: without the word
    vectors, the wildlife and zebra-finch papers never came close to "animals"."""
    assert distinctive_word(criterion) == word


def test_which_papers_are_about_identifiability_lists_the_papers_that_study_it(seed_assistant: Any) -> None:
    """IndRM (p06) proves identifiability and SIF (p01) shows non-identifiability; the papers that merely
    'identify' a failure, a caller or a bottleneck role are not about it."""
    result = seed_assistant.answer("What papers in this set are about identifiability?", use_llm=False)
    cited = {s.paper.id for s in result.cited_sources}
    assert cited == {"p01", "p06"}


@pytest.mark.parametrize("question", ["Which papers involve animals?", "Which papers use data from animals?"])
def test_which_papers_involve_animals_lists_the_wildlife_paper(seed_assistant: Any, question: str) -> None:
    """META-DINO (p09) never says 'animal'; its 'wildlife monitoring' sentence is the evidence."""
    result = seed_assistant.answer(question, use_llm=False)
    cited = {s.paper.id for s in result.cited_sources}
    assert {"p01", "p09"} <= cited
    assert "wildlife" in result.text
