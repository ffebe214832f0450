"""Text features of the evidence layer (rag.evidence): acronym expansion and term stems.

Pure functions over the shipped seed corpus and the hand-written mini corpus; no model is loaded.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from rag.chunking import split_sentences
from rag.config import SEED_CORPUS
from rag.corpus import load_corpus, make_paper
from rag.evidence import (
    _DEFINITION,
    Acronyms,
    _definitions,
    abbreviated,
    asked_roles,
    contribution,
    has_expected,
    identity,
    may_name_other_than,
    names_asked,
    names_one_of,
    number_twin,
    others_named,
    says_what_it_is,
    scope_items,
    spelled_by,
    stated_count,
    term_stems,
    words,
)
from rag.lexical import spelling_variants
from rag.types import Evidence, Source

MINI_CORPUS = Path(__file__).resolve().parent / "data" / "mini_corpus.jsonl"


def test_banked_stems_equal_the_stems_of_the_expanded_text() -> None:
    """``Acronyms.stems`` tokenises once for speed; it must stem exactly what ``expand`` would add."""
    papers = load_corpus([SEED_CORPUS, MINI_CORPUS])
    acronyms = Acronyms(papers)
    sentences = [s.text for p in papers for s in split_sentences(p.text)]
    expanded = [t for t in sentences if acronyms.expand(t) != t]
    assert len(expanded) >= 20  # the check covers sentences that gain long forms or acronyms, not only plain ones
    assert [acronyms.stems(t) for t in sentences] == [term_stems(words(acronyms.expand(t))) for t in sentences]


@pytest.mark.parametrize(("sentence", "items"), [
    ("Across reef surveys, kelp mapping, and plankton counts, TideNet beats baselines.",
     ["reef surveys", "kelp mapping", "plankton counts"]),
    ("We test on data spanning audio, video, or text.", ["audio", "video", "text"]),
    # clauses are no items, and a sentence without a scope preposition sets out no scope
    ("Across settings where labels are scarce, where drift is strong, and where data is noisy, it helps.", []),
    ("We use reef surveys, kelp mapping, and plankton counts.", []),
])
def test_scope_items_are_the_short_items_a_scope_preposition_sets_out(sentence: str, items: list[str]) -> None:
    assert scope_items(sentence) == items


def test_an_acronym_in_a_sentence_brings_the_stems_of_its_long_form() -> None:
    acronyms = Acronyms(load_corpus([SEED_CORPUS]))  # the seeds define "large language models (LLMs)"
    plain = term_stems(words("Agents built on LLMs fail."))
    banked = acronyms.stems("Agents built on LLMs fail.")
    assert plain < banked
    assert term_stems(["large", "language", "models"]) <= banked


def test_verbs_that_say_reduce_in_other_words_meet_reduce() -> None:
    """ "cutting the compute cost" asks what abstracts write as "reducing ... computation"; "lower" stays itself
    ("a lower bound")."""
    assert term_stems(["cutting"]) == term_stems(["trims"]) == term_stems(["reducing"])
    assert term_stems(["lower"]) != term_stems(["reduces"])


def test_the_names_of_other_work_are_coined_names_the_abstract_does_not_introduce() -> None:
    paper = make_paper("We introduce ReefBench, a dataset, and DeltaCount, a counter built on Cell-free DNA (cfDNA). "
                       "Off-the-shelf TabICL and Qwen2.5-7B backbones are compared on GLUE. Code: https://x.io/y.",
                       id="x9")
    sentences = [s.text for s in split_sentences(paper.text)]
    assert others_named(sentences[0], paper) == []  # its own names, and what it defines
    assert others_named(sentences[1], paper) == ["TabICL", "Qwen2.5-7B"]  # ("GLUE": no version, no inner capital)
    assert others_named(sentences[2], paper) == []  # a link
    # names given as examples of methods are methods it works with, not models it runs on (probe80-84, probe88)
    assert others_named("It composes with parameter-efficient methods such as LoRA and DoRA on Qwen2.5-7B.",
                        paper) == ["Qwen2.5-7B"]
    assert others_named("It composes with LoRA and DoRA.", paper) == ["LoRA", "DoRA"]


def test_an_acronym_defined_after_emphasis_markup_is_read() -> None:
    """ "we introduce \\emph{Source-Instance Fidelity} (SIF)": the brace had hidden the long form, so a question
    naming "Source-Instance Fidelity" linked no paper (probe72 pm024)."""
    acronyms = Acronyms([make_paper(r"We introduce \emph{Source-Instance Fidelity} (SIF), a diagnostic.", id="x0")])
    assert acronyms.long_of["sif"] == "source-instance fidelity"


def test_an_undefined_acronym_is_found_from_the_initials_of_a_phrase() -> None:
    """The DPO abstract writes "RLHF" and never defines it: asked for "reinforcement learning from human
    feedback", a list could not find it. An acronym word gives all its letters; two-letter ones are too ambiguous."""
    acronyms = Acronyms([make_paper("We study DPO in RLHF pipelines with an EM step and SVDs.", id="x1")])
    assert acronyms.initialism("reinforcement learning from human feedback") == "RLHF"
    assert acronyms.initialism("RL from human feedback") == "RLHF"
    assert acronyms.initialism("singular value decomposition") == "SVD"
    assert acronyms.initialism("expectation maximization") == ""  # "EM": two letters
    assert acronyms.initialism("direct preference optimization") == "DPO"
    assert acronyms.initialism("deep policy search") == ""  # no acronym of the text: initials alone find nothing
    defined = Acronyms([make_paper("Direct preference optimization (DPO) is used; we also use RLHF.", id="x2")])
    assert defined.initialism("direct preference optimization") == ""  # defined: the definition links it
    assert defined.initialism("reinforcement learning from human feedback") == "RLHF"


def test_an_acronym_inside_a_defined_one_is_defined_where_the_abstract_writes_it() -> None:
    """ "multi-agent reinforcement learning (MARL)" beside "standard RL": RL is "reinforcement learning", so
    "Which papers use RL?" finds the abstracts writing only the words. A run the abstract never writes ("AR") and
    a definition the abstracts state are left alone."""
    acronyms = Acronyms([make_paper("We use multi-agent reinforcement learning (MARL). Standard RL fails.", id="x5"),
                         make_paper("Reward learning (RL) is new here.", id="x6")])
    assert acronyms.long_of["marl"] == "multi-agent reinforcement learning"
    assert acronyms.long_of["rl"] == "reward learning"  # stated by an abstract: kept
    inner = Acronyms([make_paper("We use multi-agent reinforcement learning (MARL). Standard RL fails.", id="x5")])
    assert inner.long_of["rl"] == "reinforcement learning"
    assert "ar" not in inner.long_of and "ma" not in inner.long_of
    assert "reinforcement learning" in inner.expand("Which papers use RL?")


def test_initials_are_not_trusted_where_acronyms_are_so_many_that_they_match_by_chance() -> None:
    """Among 50k abstracts 7,405 acronyms are never defined; runs of a criterion's words spelled 51 of them
    in 389 tuning-list alternatives ("look inside model" -> "LIM"), each a paper listed for nothing."""
    import itertools
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    many = " ".join("".join(t) for t in itertools.islice(itertools.product(letters, repeat=3), 0, 17576, 7))
    crowded = Acronyms([make_paper(f"We use RLHF. {many}.", id="x3")])
    assert crowded.initialism("RL from human feedback") == ""
    assert Acronyms([make_paper("We use RLHF.", id="x4")]).initialism("RL from human feedback") == "RLHF"


def test_a_word_spelled_like_a_defined_acronym_is_not_expanded() -> None:
    """Among 50k abstracts "optical flow (OF)" and "word embeddings (WE)" are defined: the word "of" and
    "we" must not bring those stems into every sentence, while "OF" written as the acronym still does."""
    acronyms = Acronyms([make_paper("We estimate optical flow (OF) and learn word embeddings (WE).", id="x1")])
    assert acronyms.stems("The role of data, as we show.") == term_stems(words("The role of data, as we show."))
    assert term_stems(["optical", "flow"]) <= acronyms.stems("OF is estimated per frame.")


def test_definitions_found_from_the_parentheses_are_the_full_scans() -> None:
    """``_definitions`` searches back from each "(ACRONYM)" for speed; it must find what scanning every
    character finds, including a run of definitions, a phrase cut by punctuation and a long preamble."""
    texts = [p.text for p in load_corpus([SEED_CORPUS, MINI_CORPUS])] + [
        "We study large language models (LLMs) and vision language models (VLMs) (VLMs) in turn.",
        "Results, i.e. deep Q-networks (DQN), 3D-aware generative adversarial networks (GANs): " + "x " * 400
        + "and finally graph neural networks (GNNs).",
    ]
    found = [list(_definitions(t)) for t in texts]
    assert sum(map(len, found)) >= 15  # not vacuous: the seeds and mini corpus define acronyms
    assert found == [[(m.group(1), m.group(2)) for m in _DEFINITION.finditer(t)] for t in texts]


def test_acronym_additions_equal_the_plain_scan_in_order() -> None:
    """``_additions`` remembers each token's long form and finds long forms by set intersection for speed;
    it must append what testing every token and every defined long form appends, in the same order."""
    acronyms = Acronyms(load_corpus([SEED_CORPUS, MINI_CORPUS]))

    def plain(text: str) -> list[str]:
        extra = [acronyms.long_of[w.lower().rstrip("s") if w.lower().rstrip("s") in acronyms.long_of else w.lower()]
                 for w in words(text) if sum(c.isupper() or c.isdigit() for c in w) >= 2
                 and (w.lower().rstrip("s") if w.lower().rstrip("s") in acronyms.long_of else w.lower())
                 in acronyms.long_of]
        low = text.lower()
        longs = sorted((long for long in acronyms._short_of if re.search(rf"(?<![\w&+.'-]){re.escape(long)}", low)),
                       key=low.find)
        return list(dict.fromkeys(extra + [acronyms._short_of[long] for long in longs]))

    texts = [s.text for p in load_corpus([SEED_CORPUS, MINI_CORPUS]) for s in split_sentences(p.text)]
    texts += ["Multimodal large language models (MLLMs) and large language models differ from LLMs."]
    assert sum(bool(plain(t)) for t in texts) >= 20
    assert [acronyms._additions(t, words(t)) for t in texts] == [plain(t) for t in texts]


@pytest.mark.parametrize(("term", "question", "text", "expected"), [
    ("Stable", "Which Stable Diffusion versions were tested?", "We test SD1.5, SDXL, and SD3.", "SD1.5"),
    ("Stable", "Stable Diffusion versions?", "Results on SDXL only.", "SDXL"),
    ("Stable", "Which Stable Diffusion versions?", "We test Sd on images.", ""),  # initials must be capitals
    ("Stable", "Which Stable Video Diffusion models?", "We test SD1.5.", ""),  # not a contiguous name
    ("Stable", "Which stable diffusion versions?", "We test SD1.5.", ""),  # not written as a name
    ("Stable", "Which Stable Diffusion editor?", "We build on SDEdit.", ""),  # a word that goes on in lower case
    # a camel-case name by its capitals, three or more of them
    ("ReefScanQA-night", "How well does it do on ReefScanQA-night?", "Gains of +2.1 on RSQA$^{N}$.", "RSQA"),
    ("CoralNet", "Results on CoralNet?", "Tested on CN and on reefs.", ""),  # two capitals come by chance
    ("ReefScanQA", "Results on ReefScanQA?", "Tested on reef scans.", ""),
])
def test_abbreviated_finds_a_spelled_out_name_written_as_its_initials(term, question, text, expected) -> None:
    assert abbreviated(term, question, text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("we construct 12,326 failed trajectories with golden labels across 3 modalities", (12326, "failed trajectories")),
    ("it comprises 33,625 verified events coupling 5-channel audio", (33625, "verified events")),
    ("tested on 120 reefs and 45 tide gauges", (120, "reefs")),
    ("up to 11.1% relative F1 and 14.1% EM", None),  # percentages are no counts
    ("the NeurIPS 2026 track", None),  # nor years
    ("a 2.5 point gain", None),  # nor decimals
])
def test_a_stated_count_is_a_whole_number_with_what_it_counts(text, expected) -> None:
    assert stated_count(text) == expected


@pytest.mark.parametrize(("question", "roles"), [
    ("How well does GlowNet work?", {"result"}),
    ("How good is TideFormer on the Dutch coast?", {"result"}),
    ("How does GlowNet perform?", {"result"}),
    ("Is the GlowNet code on GitHub?", {"release"}),
    ("How does GlowNet count fireflies?", set()),
])
def test_the_roles_a_question_asks_for(question, roles) -> None:
    assert asked_roles(question) == roles


@pytest.mark.parametrize(("sentence", "label", "said"), [
    ("We close this gap with V33DA, a multimodal benchmark for spatial vocal attribution in social zebra finches: "
     "it comprises 33,625 verified events", "V33DA", "multimodal benchmark"),
    ("We introduce MODIRECT, a dataset family for motion direction instruction tuning", "MODIRECT", "dataset family"),
    ("In this work, we propose Dynamics-aware Token Merging (DaTMe), a training-free framework that grounds token "
     "merging", "DaTMe", "training-free framework"),
    ("We propose a label-free approach to adapt powerful but generic vision foundation models", "META-DINO",
     "label-free approach"),
    ("Experiments across multiple LLMs show consistent improvements on five benchmarks", "CoCHI", ""),
])
def test_what_a_sentence_says_its_paper_is(sentence, label, said) -> None:
    assert identity(sentence, label) == said


@pytest.mark.parametrize(("sentence", "term", "says"), [
    ("Token merging has emerged as an effective training-free strategy for accelerating diffusion models.",
     "token merging", True),
    ("Video Large Language Models (Video-LLMs) have made rapid progress.", "Video-LLMs", False),
    ("Tabular foundation models are used as off-the-shelf predictors.", "tabular foundation model", True),
    ("In this work, we propose Dynamics-aware Token Merging (DaTMe), a training-free framework.", "token merging",
     False),
])
def test_a_sentence_saying_what_a_term_is(sentence, term, says) -> None:
    assert says_what_it_is(sentence, term) is says


@pytest.mark.parametrize(("sentence", "count", "noun", "names"), [
    (r"Sparse paired supervision admits the complementary failure mode, \emph{conditional-mean degeneration}: "
     "ambiguous pairings ...", 2, "failure modes", True),
    ("We evaluate on one benchmark, MuSiQue, and report F1.", 2, "benchmarks", True),
    ("We design experiments across three MARL environments to test these predictions.", 3, "MARL environments",
     False),
    ("In non-stationary environments with sparse rewards, social learning can emerge.", 3, "environments", False),
    ("Every position is a bottleneck whose width does not grow with the model, that positions ...", 5,
     "backbone models", False),
])
def test_a_sentence_naming_one_of_the_things_asked_for(sentence, count, noun, names) -> None:
    assert names_one_of(sentence, count, noun) is names


@pytest.mark.parametrize(("question", "noun"), [
    ("Which specific LLMs did CoCHI run on?", "LLMs"),
    ("Which diffusion models was DaTMe evaluated on?", "diffusion models"),
    ("What backbones does RISE use?", "backbones"),
    ("Which 3D self-supervised backbones and what CT or MRI datasets?", "3D self-supervised backbones"),
    # three words before the noun (probe87 qe036)
    ("Which five multiple-choice QA benchmarks did it use, and by how much did ECE fall?",
     "five multiple-choice QA benchmarks"),
    # one thing asked for as the thing used, its kind said (probe100 qs040); not by its kind alone, which the
    # abstract's words may answer (probe2 s016), nor the best of them, a winner
    ("The sonar-box trick - which reef detection model did they use?", "reef detection model"),
    ("Which reef detection model did the drone survey paper rely on?", "reef detection model"),
    ("Which off-the-shelf reef detection model did the drone survey plug in?", "off-the-shelf reef detection model"),
    ("What pretrained sonar denoising network does the survey leverage?", "pretrained sonar denoising network"),
    ("What model does DGP build on?", ""),
    ("What off-the-shelf model does the sonar fix rely on?", ""),
    ("Which model performs best on reefs?", ""),
    # a paper asked for names nothing (probe8 y012)
    ("Which paper helps multimodal models count corals?", ""),
    ("which one says sonar models can't count corals?", ""),  # (a pointer, probe13 k008)
    # a modifier slashed, hyphened or of four words (probe153 tm040)
    ("Which exact sonar/lidar datasets did they map on?", "sonar/lidar datasets"),
    ("Which specific Reef-LLMs were shown to miscount?", "Reef-LLMs"),
    ("Which specific 3D reef SSL backbones did they use?", "3D reef SSL backbones"),
    ("What did the models in CoCHI show?", ""),  # no names asked for
    ("What are the datasets like?", ""),
    # ... or by the word "names" (probe107 qz036)
    ("I would like the names of the three reef survey environments used.", "three reef survey environments"),
    ("What are the names of the five sonar question answering benchmarks?",
     "five sonar question answering benchmarks"),
])
def test_the_named_things_a_question_asks_for(question, noun) -> None:
    assert names_asked(question) == noun


@pytest.mark.parametrize(("sentence", "names"), [
    ("Experiments across multiple LLMs show gains in Expected Calibration Error and Brier Score.", False),
    ("We evaluate on Wikipedia and Reddit.", True),  # plain names, one capitalised word each
    ("We fine-tune Mistral with ReefNet.", True),
    ("Our method, ReefNet, works. Results improve.", False),  # its own name; a capital after a sentence break
    ("[Project page](https://coral-tide-0a9f1c.netlify.app/).", False),  # a web address names nothing
    ("Code: see www.Reef-Lab.org/ReefNet for details.", False),
])
def test_a_sentence_may_name_something_besides_its_paper(sentence, names) -> None:
    """Before an answer says an abstract names none of the models or datasets asked for, any plain name counts."""
    assert may_name_other_than(sentence, make_paper(sentence, id="x0", title="ReefNet")) is names


@pytest.mark.parametrize(("sentence", "names"), [
    ("Experiments across multiple 3D medical SSL backbones show that ReefNet-Lite helps.", False),
    ("We instantiate ReefNet as a lightweight Lite variant and a diagnostic Feat variant.", False),
    ("Experiments across multiple 3D medical SSL backbones show that SwinUNETR helps.", True),
    ("Experiments on the BTCV benchmark show that ReefNet-Lite helps.", True),  # an acronym the abstract never spells
    # ... and one it spells, hyphened to words (probe101 qt039)
    ("Fine-tuning on SSL-prompted-videos extends the gains.", False),
])
def test_own_variants_and_acronyms_of_the_abstracts_words_are_no_other_names(sentence, names) -> None:
    """ "VolumeProbe-Lite", "a lightweight Lite variant" and "SSL" beside "Self-supervised learning on 3D medical
    images" are the paper's own variants and a term it writes out: asked which backbones it used, the abstract had
    been taken to name some (probe80-83)."""
    paper = make_paper(f"Self-supervised learning on 3D medical images samples crops. {sentence}", id="x0",
                       title="ReefNet")
    assert may_name_other_than(sentence, paper) is names


def _contribution_of(label: str, sentences: list[tuple[str, str]]) -> str:
    """The sentence ``contribution`` picks from (text, role) pairs of one paper labelled ``label``."""
    paper = make_paper(" ".join(text for text, _ in sentences), id="r1")
    paper = replace(paper, label=label)
    split = split_sentences(paper.text)
    assert len(split) == len(sentences)
    evidence = [Evidence(1, paper.id, s, 0.0, 0.0, role) for s, (_, role) in zip(split, sentences, strict=True)]
    picked = contribution(evidence, Source(1, paper, 0.0, 0.0, 0.0))
    assert picked is not None
    return picked.sentence.text


def test_a_topic_label_defined_in_the_problem_sentence_is_not_the_contribution() -> None:
    """A paper with no coined name is labelled by the topic its first sentence defines ("Current Reef Survey
    Drones (RSDs) struggle ..."): that sentence spells the label out, but the authors say what they do later."""
    picked = _contribution_of("Reef Survey Drones", [
        ("Current Reef Survey Drones (RSDs) struggle to count fish in murky water.", "problem"),
        ("We trace the failure to glare on the lens.", "method"),
        ("To overcome this, we introduce a polarised prompting method for the drone camera.", "method"),
    ])
    assert picked.startswith("To overcome this, we introduce")


def test_the_authors_naming_their_contribution_still_come_first() -> None:
    picked = _contribution_of("ReefNet", [
        ("Coral bleaching is hard to see from above.", "problem"),
        ("We close this gap with ReefNet, a benchmark of 4,000 annotated reef tiles.", "data"),
        ("We introduce a colour prior for the tiles.", "method"),
    ])
    assert picked.startswith("We close this gap with ReefNet")


def test_a_contribution_statement_counts_whatever_role_the_model_gave_it() -> None:
    """The role model reads "We propose ... and verify ..." as a result, and "Bleaching is large-x: ..." as
    method; the first method sentence was quoted as what the paper is."""
    picked = _contribution_of("Coral bleaching", [
        ("Coral bleaching is spreading.", "problem"),
        ("Bleaching is large-x: the signal spreads across many reefs.", "method"),
        ("We formalize reef monitoring as recovering a shift on a small manifold.", "problem"),
        ("We propose a survey design and verify it on two reefs.", "result"),
    ])
    assert picked.startswith("We formalize reef monitoring")


@pytest.mark.parametrize(("word", "twin"), [("animals", "animal"), ("animal", "animals"), ("studies", "study"),
                                            ("study", "studies"), ("analysis", "analyses"), ("boxes", "box"),
                                            ("class", "classes"), ("classes", "class"), ("corpus", "corpus"),
                                            ("LLMs", "LLM")])
def test_a_word_in_the_other_grammatical_number(word, twin) -> None:
    assert number_twin(word) == twin


@pytest.mark.parametrize(("sentence", "figure"), [
    ("Experiments across multiple 3D medical SSL backbones show consistent gains.", False),  # a digit in a name
    ("RISE is trained with V33DA-style Qwen2.5 backbones.", False),
    ("It improves direction accuracy by 21.9 points.", True),
    ("Built on LLaVA-1.5-13B, it runs on two GPUs.", True),
    ("It is many orders-of-magnitude more accurate.", True),
    # a formula relating quantities states one ("what fraction ... at most?" had been "gives no figure", probe68
    # pi026); a symbol alone does not
    ("Any classifier recovers at most a $\\sqrt{k/c(v)}$ fraction of the information.", True),
    ("Recovery requires $k \\gtrsim c(v)$ windows.", True),
    ("The parents of the target $Y$ are identified.", False),
])
def test_a_figure_is_a_number_of_its_own_not_a_digit_inside_a_name(sentence: str, figure: bool) -> None:
    """ "How much better does the Feat variant transfer?" had been answered by "across multiple 3D medical SSL
    backbones": the "3" of "3D" was taken for the figure asked for."""
    assert has_expected("figure", None, "", sentence) is figure


@pytest.mark.parametrize(("sentence", "winner"), [
    ("GlowNet counts best at dusk.", True),
    # where a measure peaks is where it is greatest (probe78 pt031 had been "does not say which one is the strongest")
    ("Diagnostic accessibility peaks at the deep encoder (D2) across all conditions.", True),
    ("Accuracy is reported on three reefs.", False),
])
def test_a_winner_is_said_by_a_superlative_or_a_peak(sentence: str, winner: bool) -> None:
    assert has_expected("winner", None, "", sentence) is winner


@pytest.mark.parametrize(("acronym", "text", "minimum", "spelled"), [
    ("SSL", "Self-supervised learning on 3D medical images", None, True),
    ("LLMs", "large language models fail", None, True),
    ("rl", "Reinforcement learning from outcomes", 2, True),
    ("RL", "Reinforcement learning from outcomes", None, False),  # two letters only where asked for
    ("PPO", "Reinforcement learning from outcomes", None, False),
    ("SSL", "learning on self-supervised features", None, False),  # in order, consecutive
])
def test_an_acronym_is_spelled_by_the_initials_of_consecutive_words(acronym, text, minimum, spelled) -> None:
    assert spelled_by(acronym, text, minimum) is spelled


@pytest.mark.parametrize(("sentence", "noun", "counted"), [
    ("It couples per-bird radio telemetry across 10 individuals and three experiments.", "birds", True),
    ("It records zebra finches, 12 subjects in all.", "zebra finches", True),
    ("It couples radio telemetry across 10 individuals and three experiments.", "birds", False),  # whose?
    ("It couples per-bird radio telemetry across three experiments.", "birds", False),
])
def test_beings_are_counted_as_individuals_where_the_sentence_says_which(sentence, noun, counted) -> None:
    """ "How many birds are in V33DA?" had been told the abstract gives no figure beside "per-bird radio telemetry
    across 10 individuals" (three tuning questions, probe80, probe82, probe84)."""
    assert has_expected("figure", None, noun, sentence) is counted


@pytest.mark.parametrize(("sentence", "noun", "listed"), [
    # the asked word, then the items: "the three criteria guiding its probe bank" had been said not to be named
    ("It uses an offline probe bank guided by anatomy-awareness, informativeness, and diversity.", "criteria guiding",
     True),
    # a clause after the word is no list of three
    ("We call for future training environments to incorporate sparsity and non-stationarity, enabling agents to "
     "develop social behaviours.", "training environments", False),
])
def test_items_listed_right_after_the_asked_word_name_them(sentence: str, noun: str, listed: bool) -> None:
    assert has_expected("enumeration", 3, noun, sentence) is listed


@pytest.mark.parametrize(("sentence", "count", "listed"), [
    # a scope set out as exactly the items asked for, closed by "and" (the four application domains of META-DINO,
    # said not to be named while quoting them)
    ("Across reef sonar, drone video, diver logs, and tide gauges, GlowNet beats every baseline.", 4, True),
    ("Across reef sonar, drone video, and tide gauges, GlowNet beats every baseline.", 4, False),
    ("Across reef sonar and drone video, GlowNet beats every baseline.", 4, False),
    # a dash opens a list as a colon does
    ("GlowNet matches every baseline across four data sources---reef sonar, drone video, diver logs, and tide "
     "gauges---and two boats.", 4, True),
])
def test_a_scope_or_a_dash_sets_out_the_items_asked_for(sentence: str, count: int, listed: bool) -> None:
    assert has_expected("enumeration", count, "data sources", sentence) is listed


@pytest.mark.parametrize(("word", "variants"), [
    ("specialised", ["specialized"]),
    ("normalization", ["normalisation"]),
    ("behaviour", ["behavior"]),
    ("four", []),  # a short word ending so is another word, not a spelling ("for")
])
def test_british_and_american_spellings_are_one_word(word: str, variants: list[str]) -> None:
    assert spelling_variants(word) == variants
