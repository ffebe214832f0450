"""The role of each sentence of an abstract: problem, method, data, result or release.

Why: abstracts follow a regular discourse order (background, contribution, setup,
findings, links), so a sentence's role lets answers pick a paper's contribution and
main result for a summary, fill the problem / approach / data / result columns of a
comparison, and quote code links only when asked. Labelling runs at ingest over every
sentence of every abstract (~400k sentences for 50k abstracts), so it is rules, not a
model: cue phrases that scientific abstracts use for each move, a prior over the
sentence's relative position, and a Viterbi pass that prefers the usual order. (A
logistic regression on word n-grams and position, 5-fold cross-validated by abstract on
the dev set, reached 0.75; the rules, written on that set, reach 0.93 there and 0.88 on
held-out abstracts: too few labels for a classifier to learn from.)

Measured by ``benchmarks/roles.py``: accuracy 0.884 on 198 held-out sentences (30
abstracts labelled before any rule was written; position alone: 0.631), 0.933 on the
344 dev sentences the rules were written against; ~50 µs per sentence on a busy core.

Labelling guide (the hand-labelled sets ``tests/data/roles_dev.jsonl`` and
``tests/data/roles_heldout.jsonl`` follow it):

- ``problem``: background, motivation, limitations of prior work, and statements of the
  task, question or setting the paper tackles that do not yet say how ("We address the
  problem of domain adaptation in videos", "The objective of this work is ...", "We
  define a new task", "We propose a new continual-learning setting").
- ``method``: the contribution and how it works: "we propose/introduce/present X", what X
  consists of or does, properties of X ("X is fully differentiable"), and analyses stated
  without their outcome ("we provide a theoretical analysis of ...").
- ``data``: the data or experimental setting with no outcome: datasets, benchmarks or
  evaluation tasks built or contributed ("We introduce a new multilingual dataset"), how
  data was collected, and what is evaluated on what ("We evaluate on two aerial datasets").
- ``result``: findings and conclusions: what experiments or proofs show ("we show/prove
  that", "outperforms", numbers, bounds obtained), claims of benefit ("this allows ..."),
  novelty or applicability claims closing the abstract.
- ``release``: code, data or model release and links ("Code is available at https://...").

Tie-breaks: a sentence gets the role of its main clause, which usually comes first:
"We propose X, which achieves Y" is ``method``; "We introduce a dataset and show that X
outperforms Y" is ``data``; "Experiments on three datasets show that X outperforms Y" is
``result`` (an outcome beats its setting, so ``data`` is only the setting alone). A URL
or "code is available" makes a sentence ``release`` whatever else it says.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from typing import Literal

Role = Literal["problem", "method", "data", "result", "release"]
ROLES: tuple[Role, ...] = ("problem", "method", "data", "result", "release")
_PROBLEM, _METHOD, _DATA, _RESULT, _RELEASE = range(len(ROLES))

# --- cue phrases --------------------------------------------------------------
# A cue group is (role, weight, pattern). A sentence's score for a role is the sum of
# the weights of the groups found in the sentence. Weights are on the scale of the
# position prior below (about ±1.5), so one strong cue overrides position and a weak
# one only breaks ties.
#
# Speed: phrases are lower case and match at the start of a word, which ``_normalized``
# marks with a space. A pattern opening with a literal space lets the regex engine
# skip straight from space to space (opening with ``\b`` makes it try every character:
# 2.5 times slower), and phrases factored by first letter ("a(?:...)|b(?:...)") are
# tried only where a word starts with their letter (another 1.6 times faster).


def _cue(role: int, weight: float, *phrases: str) -> tuple[int, float, re.Pattern[str]]:
    """One regex per cue group: any of its phrases at the start of a word."""
    expanded = [variant for phrase in phrases for variant in _expanded(phrase)]
    by_letter: dict[str, list[str]] = {}
    others = []
    for phrase in expanded:
        if phrase[0].isalpha() and phrase[1:2] not in _QUANTIFIERS:
            by_letter.setdefault(phrase[0], []).append(phrase[1:])
        else:
            others.append(phrase)
    factored = [f"{letter}(?:{'|'.join(rests)})" for letter, rests in sorted(by_letter.items())]
    return role, weight, re.compile(" (?:" + "|".join(factored + others) + ")")


_QUANTIFIERS = ("?", "*", "+", "{")


def _expanded(phrase: str) -> list[str]:
    """A phrase opening with a group, "(a|b) rest", as "a rest" and "b rest" (recursively)."""
    if not phrase.startswith("("):
        return [phrase]
    depth, cuts = 0, [0]
    for index, char in enumerate(phrase):
        depth += (char == "(") - (char == ")")
        if char == "|" and depth == 1:
            cuts.append(index)
        if depth == 0:
            rest = phrase[index + 1:]
            if rest[:1] in _QUANTIFIERS:  # "(ab)?c" cannot be distributed
                return [phrase]
            cuts.append(index)
            return [variant for start, end in pairwise(cuts)
                    for variant in _expanded(phrase[start + 1:end] + rest)]
    raise ValueError(f"unbalanced cue phrase {phrase!r}")


# Characters that can open a word besides a space; ``_normalized`` turns them into
# spaces. Hyphens, apostrophes and slashes stay: "large-scale", "model's", "https://".
_OPENERS = str.maketrans(dict.fromkeys("([{\"“‘", " "))


def _normalized(sentence: str) -> str:
    """The sentence lower-cased, with every word preceded by a space."""
    return " " + sentence.lower().translate(_OPENERS)


# Verbs of the paper's own moves may carry an adverb: "we also/further/firstly propose".
_WE = r"we (\w+ly |also |further |then |first |instead |here )?"

_CUES = (
    # Background and gaps: contrastive connectives and words naming a difficulty.
    _cue(_PROBLEM, 1.0, r"however\b", r"nevertheless\b", r"nonetheless\b", r"drawbacks?\b", r"limitations?\b",
         r"their (method|approach|algorithm|model)s?\b", r"despite\b", r"although\b", r"unfortunately\b",
         r"remains?\b.{0,30}\b(challenging|difficult|unclear|open|unsolved)", r"challeng", r"suffers?\b",
         r"fails?\b(?! to converge)", r"lack(s|ing)?\b", r"(is|are) (well[- ])?known\b", r"limited\b",
         r"bottleneck", r"struggle", r"hinder", r"not been\b", r"little (work|attention)",
         r"ineffective", r"(existing|previous|prior|current|conventional|traditional) (methods|approaches|works?"
         r"|models)", r"most (existing|current|prior)\b", r"sub-?optimal", r"expensive\b", r"costly\b",
         r"(cannot|can not|do not|does not|is not|are not)\b"),
    # Task statements that do not yet say how.
    _cue(_PROBLEM, 1.5, r"(we|this paper|this work) (address|tackle|consider|stud(y|ies)|discuss)(es)? the "
         r"(problem|task|question)", r"the (objective|goal|aim) of this (work|paper)", r"aims? (at|to)\b",
         r"we define a\b.{0,30}\btask", r"(solve|address|tackle)\w* the (\w+ )?(problem|task|issue|challenge)"),
    # Background written as general truths ("X is widely used", "Recent advances ...").
    _cue(_PROBLEM, 0.6, r"(is|are|has been|have been) (widely|commonly|increasingly|often)\b",
         r"recent(ly)? (advances|progress|years|works?)\b", r"important\b", r"crucial\b", r"key\b"),
    # The contribution statement.
    _cue(_METHOD, 2.0, _WE + r"(propose|introduce|present|develop|design|devise|formulate|derive|describe|extend|"
         r"construct|investigate|explore|rethink|cast|frame|reformulate|identify|provide)",
         r"(this|the) (paper|work) (proposes|introduces|presents|develops|describes|investigates)",
         r"(is|are) (proposed|introduced|developed|presented|described)\b",
         r"novel (method|approach|framework|model|architecture|algorithm)",
         r"in this (paper|work), we\b"),
    # Describing how the method works.
    _cue(_METHOD, 0.8, r"(our|the proposed|this) (method|approach|model|framework|algorithm|network|"
         r"architecture|system|scheme|objective|technique|formulation)\b", r"(called|named|dubbed|termed)\b",
         r"specifically\b", r"in this (paper|work)\b", r"to (this end|address|tackle|alleviate|overcome|solve)\b",
         r"consists? of\b", r"modules?\b", r"layers?\b", r"based on\b", r"leverag", r"strateg",
         _WE + r"(use|employ|adopt|apply|combine|integrate|incorporate|focus|generali[sz]e|exploit|train|learn"
         r"|model)\b",
         r"and (propose|develop|introduce|design)\b", r"(is|are) (formulated|designed|used|adopted|employed|"
         r"modeled|trained|computed|decomposed|utili[sz]ed|applied|fed|combined|learned|optimi[sz]ed)\b"),
    # The setting: data and benchmarks, and the act of evaluating on them; a sentence with
    # both ("We evaluate on two aerial datasets") is surely the setting.
    _cue(_DATA, 1.0, r"datasets?\b", r"benchmarks?\b", r"corp(us|ora)\b", r"databases?\b",
         r"(synthetic|real-world|simulated) (data|sequences|tasks)", r"annotat"),
    _cue(_DATA, 1.0, _WE + r"(collect|annotate|evaluat(e|ed)|test|tested|conduct|conducted|perform)\b",
         r"evaluated on\b", r"experiments? (on|with|across)\b", r"to (evaluate|test|assess)\b",
         r"(were|was) (acquired|collected|recorded|gathered)\b"),
    # A dataset, benchmark or task as the paper's contribution is the setting, whatever
    # else the sentence describes (the gap may not run into a clause: "... for novel tasks").
    _cue(_DATA, 3.5, r"(new|large-scale|novel) (\w+ ){0,3}dataset", _WE + r"(present|introduce|propose|provide|"
         r"release|collect|construct|build|create|gather|curate) (a|an|the|our|two|three|several|new) "
         r"((?!that |which |for |to |of |with )[\w,-]+ ){0,5}(datasets?|corpus|corpora|benchmarks?|databases?|"
         r"tasks?)\b"),
    # Outcomes: reporting verbs, comparisons, numbers.
    _cue(_RESULT, 2.0, r"outperform", r"(results|experiments|evaluations?|analysis|simulations) "
         r"((?!that |which )[\w-]+ ){0,8}(show|demonstrate|indicate|confirm|validate|verify|reveal|suggest)",
         r"(demonstrated|shown|showcased|validated|verified|confirmed) (on|by)\b",
         r"(we|and) (\w+ly )?(show|find|prove|observe|demonstrate|verify|confirm|uncover|discover)\b",
         r"state[- ]of[- ](the[- ])?art (results|performance|accuracy)", r"achiev(es|ed) (state|a|an|the|"
         r"competitive|better|significant|superior|comparable|\d)", r"surpass", r"superior\b", r"favorabl"),
    _cue(_RESULT, 1.0, r"[+-]?\d[\d.]*\s?(%|x\b|×|times\b|fps\b)",
         r"(significant(ly)?|substantial(ly)?|consistent(ly)?|remarkabl[ey])\b",
         r"(improves?|improvements?|better|faster|competitive|"
         r"effective(ness)?|efficien(t|cy))\b", r"surprising", r"to (our|the best of our) knowledge",
         r"(this|which|it)( \w+)? (allows|enables|makes it possible|provides|reveals|implies)",
         r"implications\b", r"as a (result|consequence)\b", r"thus\b", r"converges?\b", r"shown to\b"),
    # Links and releases: decisive. "Available" alone is not enough ("only part of the
    # data matrix is available"): it must be public, released, or available somewhere.
    _cue(_RELEASE, 6.0, r"https?://", r"github\b", r"www\.", r"(code|data|datasets?|models?|implementation|"
         r"software|source|toolkit|corpus|benchmark|weights|checkpoints)\b.{0,60}\b(is|are|will be|has been|"
         r"have been) (made )?((publicly|freely) (available|released)|available (at|online|on|from|for|to|upon|"
         r"via)\b|released|open-sourced|provided (in|at|with|via)\b)", r"will be made available",
         r"we (release|open-source)\b", r"open-source (code|implementation)", r"supplementary materials?\b"),
)

# Background is told impersonally ("X is widely used", "Existing methods fail"); the
# paper's own moves speak as "we", "our" or "this paper". A sentence with no such voice
# leans to problem, weakly, since method details are often impersonal too.
_AUTHORIAL = re.compile(r" (?:we|our|ours|us|this paper|this work|the paper|proposed)\b")
_IMPERSONAL_PROBLEM = 0.5

# --- position prior -------------------------------------------------------------
# Score for each role at the start, the middle and the end of the abstract (relative
# index 0, 0.5, 1), linearly interpolated in between: background opens, the method
# sits in the middle, the setting comes late and results close. Release has no
# positional claim of its own: its cues decide.
_POSITION_ANCHORS = (
    (1.2, -0.3, -1.5),  # problem
    (0.0, 0.5, 0.0),  # method
    (-1.5, -0.2, -0.3),  # data
    (-1.5, -0.5, 0.5),  # result: a closing sentence still needs a cue to count as a finding
    (-3.0, -3.0, -1.0),  # release
)

# --- order ---------------------------------------------------------------------
# Score of one sentence's role following the previous sentence's role. Moving
# forward along problem -> method -> data -> result is free; going back costs, more the
# further back, so a lone weak cue cannot flip a sentence out of its run, while a
# strong one ("However, ..." after a method sentence) still can.
_BACK_STEP = -0.8  # one step back, e.g. method -> problem, result -> data
_BACK_FAR = -1.5  # two or more steps back, e.g. result -> problem
_DATA_TO_METHOD = -0.3  # the setting is often described before the rest of the method
_RESULT_TO_METHOD = -0.8  # "X improves Y. We also propose Z": contributions and their findings alternate
_AFTER_RELEASE = -0.5  # a link usually ends the abstract

# "Second, ...", "Moreover, ...", "In addition, ..." carry on the previous sentence's
# move, so keeping its role earns a bonus (an enumeration of prior work's problems, a
# second component of the method).
_CONTINUATION = re.compile(r" (?:second|third|fourth|finally|moreover|furthermore|in addition|additionally|also|"
                           r"besides|similarly|likewise)\b")
_CONTINUE_BONUS = 0.6


def _transition(prev: int, nxt: int) -> float:
    """Score of role ``nxt`` following role ``prev``."""
    if prev == _RELEASE:
        return 0.0 if nxt == _RELEASE else _AFTER_RELEASE
    if nxt >= prev or nxt == _RELEASE:
        return 0.0
    if prev == _DATA and nxt == _METHOD:
        return _DATA_TO_METHOD
    if prev == _RESULT and nxt == _METHOD:
        return _RESULT_TO_METHOD
    return _BACK_STEP if prev - nxt == 1 else _BACK_FAR


# For each role, the score of reaching it from each previous role.
_INCOMING = tuple(tuple(_transition(prev, role) for prev in range(len(ROLES))) for role in range(len(ROLES)))


def _position_prior(relative: float) -> list[float]:
    """Each role's prior score at a relative position in [0, 1]."""
    if relative <= 0.5:
        share = relative / 0.5
        return [start + share * (mid - start) for start, mid, _ in _POSITION_ANCHORS]
    share = (relative - 0.5) / 0.5
    return [mid + share * (end - mid) for _, mid, end in _POSITION_ANCHORS]


def _sentence_scores(sentence: str, relative: float) -> list[float]:
    """Each role's score for one ``_normalized`` sentence: position prior plus matched cues."""
    scores = _position_prior(relative)
    if not _AUTHORIAL.search(sentence):
        scores[_PROBLEM] += _IMPERSONAL_PROBLEM
    for role, weight, pattern in _CUES:
        if pattern.search(sentence):
            scores[role] += weight
    return scores


def _best_path(scores: list[list[float]], continues: list[bool]) -> list[int]:
    """Viterbi: the role sequence with the highest total of sentence and transition scores.

    ``continues[i]`` says sentence ``i`` opens with a continuation marker, which makes
    keeping the previous sentence's role worth ``_CONTINUE_BONUS``.
    """
    best = scores[0]
    back: list[list[int]] = []
    for row, continuing in zip(scores[1:], continues[1:], strict=True):
        pointers, totals = [], []
        for role, incoming in enumerate(_INCOMING):
            options = [total + step for total, step in zip(best, incoming, strict=True)]
            if continuing:
                options[role] += _CONTINUE_BONUS
            previous = options.index(max(options))
            pointers.append(previous)
            totals.append(options[previous] + row[role])
        best = totals
        back.append(pointers)
    path = [best.index(max(best))]
    for pointers in reversed(back):
        path.append(pointers[path[-1]])
    return path[::-1]


def sentence_roles(sentences: Sequence[str]) -> list[Role]:
    """The role of each sentence of ONE abstract, given in order.

    Order matters: the position prior and the sequence pass read the sentences as a
    whole abstract, so pass all of them, not a selection.
    """
    if not sentences:
        return []
    texts = [_normalized(text) for text in sentences]
    last = max(len(texts) - 1, 1)
    scores = [_sentence_scores(text, index / last) for index, text in enumerate(texts)]
    continues = [bool(_CONTINUATION.match(text)) for text in texts]
    return [ROLES[role] for role in _best_path(scores, continues)]


# --- empirical reports ------------------------------------------------------------
# Whether a sentence reports an experiment or an empirical evaluation. "Which papers report
# no experiments?" is answered from this: by sentence similarity every abstract resembles
# "experiments" a little, and the complement lists had held most of the collection (22
# such lists on the 35 tuning sets, F1 0.30). Cues a report of running something on data
# writes and a proof does not: experiments, simulations, benchmarks and baselines,
# evaluating on or across something, measured figures ("25.9%", "1.9 points") and the
# metrics they are given in, data recorded or a system deployed ("on the assumption that
# the tasks ..." is no evaluation on tasks). Measured by ``benchmarks/empirical.py`` on 120
# abstracts of ../shared/corpora labelled by hand (a third of them theory): see there.
_EMPIRICAL = re.compile(
    r"\bexperiment\w*|\bempiric\w*|\bsimulations?\b|\bsimulated\b|\bnumerical(?:ly)?\s+(?:results|stud(?:y|ies)"
    r"|evaluations?|examples|illustrations?|simulations?)\b|\bablations?\b|\bbenchmark\w*|\bbaselines?\b"
    r"|\boutperform\w*|\bsurpass\w*|\bstate[- ]of[- ]the[- ]art\b|\baccura(?:cy|te)\b|\buser\s+stud(?:y|ies)\b"
    r"|\bhuman\s+evaluations?\b|\bevaluat\w*\s+(?:\w+\s+){0,3}?(?:on|across|against|with|using)\b"
    r"|\b(?:extensive|empirical|experimental|our)\s+evaluations?\b"
    r"|\b(?:on|across|over)\s+(?:(?!that\b|which\b|assum)[\w-]+\s+){0,4}?(?:datasets?|benchmarks?|tasks|domains)\b"
    r"|\breal(?:-world|\s+world)?\s+data\b|\d\s?(?:%|\\%|×|x\b|points?\b|pp\b)"
    r"|\bdeployed\b|\bfield\s+(?:stud(?:y|ies)|trials?|tests?)\b|\bwe\s+(?:record|collect|measure)\w*",
    re.IGNORECASE)
_METRIC_NAMES = r"AUC|AUROC|F1|BLEU|ROUGE|mAP|mIoU|PSNR|SSIM|FID"
_METRIC = re.compile(rf"\b(?:{_METRIC_NAMES}|top-[15])\b")  # (case kept: "map")


def reports_experiment(sentence: str) -> bool:
    """Whether the sentence reports running an experiment or an empirical evaluation."""
    return bool(_EMPIRICAL.search(sentence) or _METRIC.search(sentence))


# What an evaluation ran on: listed ("across subcellular fluorescence microscopy, Earth observation, wildlife
# monitoring, and medical imaging", "on HotpotQA, 2WikiMultihopQA, and MuSiQue"), named ("On MODIRECT-SYNBENCH",
# "Experiments on PixArt-$\alpha$ and FLUX", "+4.2 on SQA$^{I}$"), or counted as datasets, benchmarks, tasks, ...
# ("across multiple 3D medical SSL backbones", "on five multiple-choice question answering benchmarks"). Of 102
# sentences of 400 corpus abstracts with such a list, the 31 that also report an experiment each named what the
# evaluation ran on; on the seeds the pattern leaves out "Empirical results show that SSL outperforms baselines".
_LISTED_SETTINGS = re.compile(r"\b(?:on|across|over|including|in)\s+(?:the\s+)?[^,.;:]{2,60},\s*(?:[^,.;:]{2,60},\s*)*"
                              r"(?:and|or)\s+", re.IGNORECASE)
_NAMED_SETTING = re.compile(r"\b(?i:on|across)\s+(?:the\s+)?[A-Za-z$\\{}^.+-]*[A-Z][\w$\\{}^.+-]*[A-Z0-9]")
_COUNTED_SETTINGS = re.compile(r"\b(?:on|across|over|in|using)\s+(?:[\w$-]+\s+){0,8}?(?:datasets?|benchmarks?|tasks"
                               r"|domains|problems|games|suites|backbones|environments|models|LLMs|MLLMs|languages"
                               r"|modalities)\b", re.IGNORECASE)


def names_setting(sentence: str) -> bool:
    """Whether the sentence reports an evaluation and says what it ran on: datasets, benchmarks, models, domains."""
    return reports_experiment(sentence) and any(p.search(sentence) for p in (_LISTED_SETTINGS, _NAMED_SETTING,
                                                                              _COUNTED_SETTINGS))


# A measured figure: a percentage or points ("11.1%", "21.9 points"), a gain on a task ("+4.2 on SQA") or a metric
# with its value ("AUC = 1.0"). "Which abstracts put actual numbers on their gains?" lists the papers stating one;
# a count of things ("12,326 trajectories", "fewer than 300 steps") is no measured result.
_FIGURE = re.compile(r"\d(?:[\d,]*\d)?(?:\.\d+)?\s?(?:%|\\%|percent\b|points?\b|pp\b|\u00d7|x\b(?!\s*\d))"
                     r"|(?<![\w.])[+\u2212-]\d+(?:\.\d+)?\s+(?:on|in|at)\b"
                     rf"|\b(?:{_METRIC_NAMES}|accuracy|ECE|EM)\b\W{{0,12}}(?:of\s+)?\d")


def reports_figure(sentence: str) -> bool:
    """Whether the sentence states a measured result as a number."""
    return bool(_FIGURE.search(sentence))


# A difference stated without a unit: "many orders-of-magnitude more accurate", "a 3-fold speedup", "from 25.9% to
# 85.4%" (the last is a figure too), "twice as fast"
_RELATIVE = re.compile(r"\borders?[- ]of[- ]magnitude\b|\b\w+[- ]?fold\b|\b(?:twice|half|double[sd]?|triple[sd]?)\b"
                       r"|\bfrom\s+\$?\d[\d.,]*\S*\s+to\s+\$?\d", re.IGNORECASE)


def reports_difference(sentence: str) -> bool:
    """Whether the sentence states by how much one thing differs from another: a measured figure or a relative
    amount. A count ("12,326 failed trajectories", "five benchmarks") gives no margin."""
    return reports_figure(sentence) or bool(_RELATIVE.search(sentence))
