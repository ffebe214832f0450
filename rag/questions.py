"""Planning a question: what it names, what it asks about, and what shape an answer could take.

The plan only *suggests*; the assistant decides from scored evidence (see
:mod:`rag.evidence`): whether several papers clear a "which papers" criterion,
whether a follow-up retrieves better with the conversation than on its own,
whether the asked-for content is in the abstracts at all.

What the plan reads from the question:

* **named papers**: labels and coined names ("DaTMe", "V33DA", "Who&When")
  found verbatim in a few abstracts, and descriptions ("the Video-LLM
  motion-direction paper", "the paper on X") kept as sub-queries;
* **content terms**: the words left once stopwords, form words ("papers",
  "compare", "summarize", "list") and the named papers' names are removed;
* **set-valued wording** ("which papers", "is there anything on", "list the
  works"), **negation** ("not about X"), criterion alternatives ("A or B")
  and conjuncts ("both A and B"); a set it describes ("summarize the papers
  about diffusion"), papers asked for like one paper ("anything similar?"),
  and the talk of collections ("the hot topics of this conference"), which
  the gatherer weighs against the evidence before answering with an overview;
* **answer type**: a figure, an enumeration of N items, or a winner, which the
  composer then looks for in the evidence.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Literal

from .chunking import split_sentences
from .corpus import Paper, without_links
from .evidence import (
    CAPITALISED_RUN,
    DATA_RESOURCES,
    NUMBER_WORDS,
    ROLE_CUES,
    Acronyms,
    asked_roles,
    content_terms,
    defines,
    referring_words,
    words,
)
from .lexical import CHANGE_VERBS, CORPUS_NOUNS, FORM_WORDS, GENERIC_STEMS, STOPWORDS, stem
from .types import Message, Role

Kind = Literal["fact", "list", "compare", "summary", "overview"]
Expects = Literal["figure", "enumeration", "winner", "definition", "reason", "any"]

MAX_NAME_PAPERS = 3  # a token found in more abstracts than this is a term, not a name
# How close a token no abstract writes must be to a paper's coined label to stand for it: "Metadata-DINO" is 0.82 of
# META-DINO; among the seed labels, the closest pair of distinct names (DGP, SIF, RISE, V33DA, ...) is under 0.5.
# Chosen, not tuned.
TYPO_RATIO = 0.8
MAX_LABELS_NAMED = 4  # labels one question may name, as many as a comparison sets side by side (gather.MAX_COMPARED)
# A name typed in lower case is read as the corpus writes it when at most this share of the papers writing it
# write it in lower case (chosen, not tuned: a stray URL or variable, not a word in its own right).
LOWER_CASE_SHARE = 0.1

# What a collection is a set of: its papers, or the methods they contribute ("Which methods ... are training-free?").
# ("works" and "studies" after one paper are its verb: "Which paper works out which team member to correct?" had
# asked for several papers, and with none clearing a list's bar was refused, probe77 ps015, probe79 pu015)
_ONE_BEFORE = r"(?<!\bpaper\s)(?<!\bstudy\s)(?<!\bwork\s)(?<!\bmethod\s)(?<!\bapproach\s)(?<!\bone\s)"
# ("projects": "Which projects train agents with reinforcement learning?" asks for papers, probe142 si007)
_PAPER_NOUNS = (rf"(?:papers|{_ONE_BEFORE}(?:works|studies)|articles|abstracts|publications|submissions|preprints"
                r"|projects)")
_PAPER_NOUN = r"(?:paper|work|study|article|abstract|submission)"  # one of them: "each LLM paper"
_SET_NOUN = rf"(?:{_PAPER_NOUNS}|ones|methods|approaches|techniques|frameworks)"
# The papers a relative clause describes, as wished for ("I need the ones that ...", "I'd like the studies which ...").
_THE_ONES = rf"the\s+(?:{_PAPER_NOUNS}|ones)"
_WISHING = r"(?:need|want|(?:['\u2019]d|would)\s+like)"  # ("I need", "we want", "I'd like")
_RELATIVE = r"(?:that|which|where|whose)\b"
# The verbs a question asks papers to do, in the form agreeing with a plural subject ("Which use ...?"), leaving out
# those that mostly head a noun phrase after "which" ("study", "work"; "Which study uses RL?" seeks one paper)
_PLURAL_VERBS = ("use|involve|propose|introduce|report|present|address|tackle|consider|deal|focus|rely|evaluate|test"
                 "|prove|derive|train|apply|build|include|contain|combine|analy[sz]e|measure|examine|explore"
                 "|investigate|discuss|mention|cover|look|make|offer|provide|release|need|require|leverage|employ"
                 "|adapt|fine-tune|show|find|try|aim|target|touch|go|have")
_SET_VALUED = re.compile(
    rf"\b(?:which|what|list|name|find|show|enumerate|are\s+there|how\s+many|any|(?:looking|searching)\s+for)\b[^?.]*?"
    rf"\b(?!ones\b){_SET_NOUN}\b"
    # ("ones" a few words on: "Which ones ...", "which of the ones ..."; "which positions ... for left-to-right models
    # versus ones that see both directions" asks for positions, and "ones" stands for models)
    r"|\b(?:which|what|any|list|show)\s+(?:[\w-]+\s+){0,3}?ones\b"
    # ("I need all papers that say code is released": it had compared the three papers closest to it)
    rf"|\b(?:need|want)\s+(?:all|every)\s+(?:(?:the|of\s+the)\s+)?(?:{_PAPER_NOUNS}|{_PAPER_NOUN})\b"
    # ... or "the" papers a clause describes ("I need the submissions that put out a new benchmark", "I'd like the
    # studies that test on synthetic data first": one paper's fact answer had been given, probe95 qm001, probe99 qr012)
    # ... or by what they are about ("I'd like the papers on AI that combines pictures with language", "I need the
    # ones mainly about AI that watches video": one paper's fact answer had been given, probe194 vd013, vd004)
    rf"|\b{_WISHING}\s+{_THE_ONES}\s+(?:{_RELATIVE}|(?:(?:mainly|mostly|chiefly|primarily|all)\s+)?"
    r"(?:on|about|concerning|regarding|covering|involving|dealing\s+with)\b)"
    # ... or no "the" ("I want studies that open up a pretrained model ...", probe150 ti009), or given ("Give me the
    # 'whodunit' papers: ...", probe151 tk008; "Give me all works that ...")
    rf"|\b{_WISHING}\s+{_PAPER_NOUNS}\s+{_RELATIVE}"
    rf"|\bgive\s+me\s+(?:all|every|the)\s+(?:(?!of\b)[\w'-]+\s+){{0,2}}?(?:{_PAPER_NOUNS}|ones)\b(?!['\u2019])"
    # ... or who is doing it, opening a sentence ("Cost side of the ledger: who is cutting the compute bill ...?",
    # probe152 tl010), not "the models confusing who is speaking"
    r"|(?:^|[.?!:]\s+)\W*who\s+(?:is|are)\s+(?:\w+\s+)?\w+ing\b"
    # ("Is there papers with animal data in them?": a non-native asker's plural, probe108 ra011)
    rf"|\b(?:is|are)\s+there\s+(?:anything|any\s+\w+|something|a\s+(?:paper|work|study)|{_PAPER_NOUNS})\b"
    # ... and a singular noun with a plural verb, another slip: "Which method are explicitly described as
    # training-free?" (probe108 ra006, probe76 pr006)
    rf"|\bwhich\s+(?:[\w-]+\s+){{0,2}}?(?:{_PAPER_NOUN}|method|approach|technique|framework|one)\s+(?:are|were)\b"
    r"(?!\s+you\b)"
    # ... and the ones described before "ones": "need the training-free ones." (probe105 qx002)
    r"|\b(?:need|want)\s+the\s+(?:[\w-]+\s+){1,3}?ones\b"
    # ("What new benchmarks or datasets come out of this batch?": the papers contributing them, probe89 qg012)
    r"|\b(?:what|which)\s+(?:new|novel)\s+(?:[\w-]+\s+){0,2}?(?:benchmarks|datasets|data\s+sets|corpora)\b"
    r"|\b(?:anything|everything|stuff)\s+(?:on|about|regarding|concerning|involving|covering|using|with|related\s+to|that"
    r"|in\s+here|touching|dealing\s+with|addressing|tackling|mentioning|discussing)\b|\beverything\s+here\b"
    # ("List everything here that deals with ...", "Show me everything touching clinical data", probe138 se008)
    r"|\b(?:any|how\s+many)\s+(?:paper|work|study|article)\b|^\s*(?:list|enumerate)\b"  # ("how many paper are ...")
    r"|\bany\b[^?.]*?\b(?:in\s+)?here\b"  # ("Any new benchmarks introduced here?": "here" is the collection)
    r"|\bwho\s+(?:in\s+)?here\b"  # (... and who is in it: "who here releases a new benchmark?", probe104 qw003)
    # ... as it is asked of ("What here cuts memory or compute?"); and "Anything" opening a question asks for any
    # papers ("Anything training-free I could bolt onto a model?": one paper's fact answer, probe101 qt001, qt009)
    # (opening the question only: "When is it worth copying teammates? Anything studying that with several agents?"
    # describes one paper, probe84 qb020)
    r"|\bwhat\s+(?:in\s+)?here\b|^\W*anything\b(?!\s+(?:else|similar|like)\b)"
    rf"|\bany\b[^?.]*?\b(?:in|on|at|from|across)\s+(?:this|the)\s+(?:{CORPUS_NOUNS})\b"  # ("... in this batch")
    r"|\bwhat(?:'s|\s+is)\s+(?:out\s+)?there\b|\binterested\s+in\s+(?:any\s+)?(?:work|research)\b"
    rf"|\bamong\s+(?:the|these|those|all)\s+{_SET_NOUN}\b"
    r"|\bwhich\s+(?:of|among)\s+(?:them|these|those|em)\b(?!\s+(?:is|was|has|does)\b)"  # ("Which of them is": one)
    r"|\b(?:any\s+of|among|how\s+many\s+of)\s+(?:them|these|those)\b"
    r"|[,;:]\s*(?:list|name|show)\s+(?:them|those|all)\b"  # ("RL or RLHF objective in the loop, list them")
    # a noun phrase asking, typed with or without "?": "explicitly training-free methods?", "RL papers incl RLHF",
    # "multimodal LLM papers (VLMs, ...)" (not "Both papers on X", "How do these papers", nor "Compare the diffusion
    # papers", which asks about a set, not for one; nor a clause going on, "Only count abstracts that say so", which
    # qualifies the asking)
    rf"|^\W*(?!(?:both|these|those|the\s+two|two|how|what|why|do|does|did|are|is|were|was"
    rf"|compare|contrast|summari[sz]e|describe)\b)(?:[\w&+/-]+\s+){{0,4}}"
    rf"{_SET_NOUN}\b\s*(?:\?+(?:\s|$)|$|\(|(?=(?:incl\.?|including)\b))"  # (and more after: "...methods?? need ...")
    # ("could you point me to every paper in this collection that explicitly describes ...")
    r"|\bpoint\s+(?:me\s+)?(?:to|at)\s+(?:the|all|any|every)\b"
    r"|\bevery\s+(?:paper|study|abstract|submission|work)\s+(?:(?:in|of)\s+(?:[\w-]+\s+){1,3}?)?(?:that|which|where)\b"
    # ... and "which" opening a sentence before a verb agreeing with a plural: "which use self-supervised learning?"
    # asks which papers do (probe159 tu011); "Which uses fewer labels, A or B?" picks one
    rf"|(?:^|[.?!:;]\s+)\W*which\s+(?:{_PLURAL_VERBS})\b(?!\s+(?:you|i|we)\b)",
    re.IGNORECASE,
)
# Negation as English forms it: "do/are not", "not" before a relation or participle, "no" after a verb
# of having or using ("have no", "use no"), "unrelated to", and the exclusion words. ("have not" is left
# out: "methods that have not carried over" describes a paper's topic, it does not exclude papers.)
_NEGATED = re.compile(
    r"\b(?:are|is|do|does|did)\s*(?:not|n['\u2019]?t)\b|\bnot\s+(?:about|on|related|concerned|\w+ing)\b"
    r"|\b(?:have|has|had|contain|contains|use|uses|involve|involves|need|needs|with)\s+no\b"
    # ("unrelated to" of the papers, not of a thing a description says: "checking that what is left over after
    # fitting the outcome is unrelated to the predictors" had asked for the papers about none of it, probe85 qc013)
    rf"|\b(?:{_SET_NOUN}|which|that|those|anything|work)\s+(?:(?:are|is|that\s+are|that\s+is)\s+)?(?:\w+\s+)?"
    r"unrelated\s+to\b|\b(?:have|has|had|having)\s+nothing\s+to\s+do\s+with\b"
    r"|\bother\s+than\b|\bexcept\b|\bexcluding\b|\bapart\s+from\b",
    re.IGNORECASE,
)
# A list of the papers that report no experiments ("theory only", "purely theoretical", "don't report any empirical
# results"): membership is read from each abstract's empirical reports (roles.reports_experiment), not from how
# much its sentences resemble "experiments". A contrast ("not just experiments") is not it, nor is a qualified
# lack ("no experiments on real data"); "in the abstract" qualifies nothing.
_NO_EXPERIMENTS = re.compile(
    r"(?:\b(?:no|not|without|zero|never|dont|doesnt|didnt)|\Bn['\u2019]t)\b(?!\s+(?:just|only|merely|simply|solely"
    r"|purely)\b)(?:\s+[\w-]+){0,5}?\s+(?:experiment\w*|empiric\w*)\b"
    r"(?!\s+(?:on|with|using|for|of|in\s+(?!(?:the|their|its)\s+abstracts?\b))\b)"
    r"|\b(?:purely|pure|only|just|solely|exclusively|strictly|entirely|wholly)\s+(?:theor|analytic|mathematical)\w*"
    r"|\btheory[\s-]only\b|\btheor\w*\s+only\b"
    r"|\b(?:never|not|nothing)\b(?:\s+\w+){0,3}?\s+(?:tested|run|evaluated|validated)\s+on\s+(?:any\s+)?data\b",
    re.IGNORECASE)
# A list of the papers that state measured figures ("Which abstracts put actual numbers on their gains?", "exact
# numeric improvement figures", "hard numbers"): membership is read from each abstract's figures
# (roles.reports_figure). By similarity the four such tuning lists had listed papers that say "outperforms".
_ASKS_FIGURES = re.compile(r"\b(?:actual|concrete|exact|hard|specific|precise)\s+(?:numeric(?:al)?\s+|performance\s+"
                           r"|improvement\s+|metric\s+)*(?:numbers?(?!\s+of\b)|figures?|values?)\b"
                           r"|\bnumeric(?:al)?\s+(?:improvement|gain|result)s?\b|\bnumerically\b|\bmetric\s+values\b"
                           r"|\bquantif(?:y|ies|ied|ying)\b|\bquantitative\s+(?:results?|gains?|improvements?)\b"
                           r"|\bpercent(?:ages?)?\b|\bby\s+how\s+much\b"
                           r"|(?<!just\s)(?<!only\s)\b(?:report|give|quote|state|put)\w*\s+(?:an?\s+)?(?:actual\s+)?"
                           r"numbers?\b(?!\s+of\b)", re.IGNORECASE)
# Papers asked for by whether their abstracts name the models they use: "Which abstracts actually name the specific
# pretrained models or backbones they ran experiments on?" (asked in four of five blind sets, and eight tuning lists)
_ASKS_MODELS_NAMED = re.compile(r"\bnam(?:e|es|ing)\s+(?:(?:the|which|their|its|what)\s+)?"
                                r"(?:(?:specific|exact|particular|actual|concrete|existing|pretrained|pre-trained|base"
                                r"|off-the-shelf|underlying)\s+)*"
                                r"(?:[\w-]+\s+(?:or\s+)?){0,3}?(?:models?|backbones?|checkpoints?|LLMs?|MLLMs?)\b"
                                # or said passive: "Any abstracts where the specific pretrained models tested are
                                # actually named?" (probe75 pq008)
                                r"|\b(?:specific|exact|particular|actual|concrete|pretrained|pre-trained|base)\s+"
                                r"(?:[\w-]+\s+){0,2}?(?:models?|backbones?|checkpoints?|LLMs?|MLLMs?)\s+"
                                r"(?:[\w-]+\s+){0,3}?(?:are|is|were|was|get|gets|being)\s+(?:\w+\s+)?named\b",
                                re.IGNORECASE)
# What the asker needs an answer for, "For a rebuttal I need the exact numbers: ...", "For my slides I want ...":
# no abstract need write "rebuttal" (RISE's had been said not to mention it, while quoting the numbers asked for).
_PURPOSE = re.compile(r"(?:\bfor\s+(?:a|an|my|our)|^\W*for)\s+((?:[\w-]+\s+){0,2}?[\w-]+),?\s+(?:I|we)"
                      r"(?:\s+(?:need|want|would\s+like|am\s+looking|are\s+looking|have\s+to)|['\u2019]d\s+like)\b"
                      # (and the wish to know: "For novelty checking I'd like to know which abstracts ...")
                      r"(?:\s+to\s+(know|find\s+out|learn))?",
                      re.IGNORECASE)
# Whose word an answer gives: "According to the authors, what drives the degradation?" asks what the abstract says;
# it had been told the abstract does not mention "authors" (probe107 qz017). "Who are the authors?" stays a question
# about authors.
_ACCORDING_TO = re.compile(r"\baccording\s+to\s+(?:the\s+|its\s+|their\s+)?"
                           r"(?:authors?|paper|abstract|study|work|them|it)\b", re.IGNORECASE)
# Experiments on something frame it: "Which papers run experiments on medical or clinical data?" asks for medical or
# clinical data ("run experiments medical" had kept the medical-imaging papers below the patient-data one).
_EXPERIMENTS_ON = re.compile(r"\b((?:run|runs|ran|running|conduct(?:s|ed|ing)?|perform(?:s|ed|ing)?)"
                             r"\s+(?:(?:their|its|any|the)\s+)?(?:experiments?|evaluations?|tests?))"
                             r"\s+(?:on|with|using)\b", re.IGNORECASE)
# A cause described, not papers set aside: "good scores explained by something other than the capability measured"
# (it had asked for the papers explained ... minus those writing "capability", and none was left).
_OTHER_CAUSE = re.compile(r"\b(?:by|to|from)\s+(?:something|anything)\s+other\s+than\b", re.IGNORECASE)
# A requirement waived, not papers set aside: "Doesn't have to be the main focus", "video or image, doesn't matter",
# "I don't care about the application" (read as negations, the two lists had been the 15 and 16 papers not about
# what was asked, probe100 qs001, probe103 qv011).
# ("doesn't need to retrain" is no waiver: it asks for the training-free papers)
# The asker saying what they do not count or mean: their own exclusion, no property of the papers ("- but I don't
# count RLHF or DPO here" had asked for the papers not about RL, probe124 rq007); waived here, an aside in _CONTRAST.
_ASKER_DOES_NOT = r"(?:I|we)\s+(?:do\s*not|don['\u2019]?t)\s+"
# A correction, "not A but B" ("Not about accuracy, but about cost: which papers ...", "Which papers aren't theoretical
# but empirical?"): B is asked, A only set aside. Read as a negation, the first had listed the 17 papers not about
# any of it (probe154 tn013). Not "not only A but also B", which asks for both.
_NOT_BUT = (r"(?:\bnot|n['\u2019]t)\s+(?!(?:only|just|merely|simply|necessarily)\b)[^,;:?.!()]*?,?\s+but"
            r"(?:\s+rather)?(?=\s+(?!(?:not|also)\b))")  # (up to the space before B: "aren't X but" + " empirical")
_CORRECTION = re.compile(_NOT_BUT, re.IGNORECASE)
# ... nor does an elliptical one closing its clause, the other side of a split asked for ("Which papers decide which
# token positions get full processing and which don't?", "identifiable (or not)"): it negates nothing of its own, and
# the first had listed the 19 papers not deciding anything of the sort (probe175 uk008)
_WAIVED = re.compile(r"\b(?:does|do|did)\s*(?:not|n['\u2019]?t)\s+(?:(?:have|need)\s+to\s+be|matter|care)\b"
                     rf"|\b{_ASKER_DOES_NOT}(?:count|include|mean)\b"
                     r"|\bnot\s+necessarily\b|\bno\s+matter\b"
                     r"|\b(?:and|or)\s+(?:which|those\s+that|the\s+ones\s+that|who)(?:\s+ones)?\s+"
                     r"(?:do|does|did|are|is|were|was|have|has)\s*(?:not|n['\u2019]?t)\s*(?=[?.!,;:)]|$)"
                     r"|\bor\s+not\s*(?=[?.!,;:)]|$)", re.IGNORECASE)
# A negation inside a clause saying where or when ("situations where the relationships are not constant") is the
# criterion's, not a complement asked for; so is one a reason is asked for ("Why do the cancer methods not transfer
# well?" had listed the 16 papers not about it, probe97 qo015).
_CIRCUMSTANCE = re.compile(r"\b(?:where|when|whenever|whose|why|in\s+which|under\s+which)\b[^,;:?!()]*?"
                           r"(?=\s[-\u2013\u2014]\s|[,;:?!()]|$)", re.IGNORECASE)
# (its words are no set noun, relative or possessive: "list the papers that apply their methods to medical data" had
# read "apply" as the set the papers are of; nor "the" or "of": "the results of the RL papers" are of "RL"; nor "a":
# "which pieces of the scan a model studies" is a clause, whose verb is no set of studies; nor a preposition: "Some of
# these read like math papers" says what some papers are like, and "read like math" had been the set, which no paper
# matched)
_NOT_IN_SET_PHRASE = (r"(?!(?:that|which|who|whose|where|their|its|the|a|an|of|like|as|in|on|for|with|by|from|to|about"
                      rf"|at|{_SET_NOUN})\b)")


def _set_phrase_pattern(head: str) -> re.Pattern[str]:
    """ "the vision papers", "each LLM paper": up to four words describing a set, before its head noun."""
    described = rf"((?:{_NOT_IN_SET_PHRASE}[\w&+-]+\s+){{0,3}}?{_NOT_IN_SET_PHRASE}[\w&+-]+)"
    return re.compile(rf"\b(?:the|these|those|all)\s+{described}\s+{head}\b"
                      rf"|\b(?:each|every)\s+{described}\s+{_PAPER_NOUN}\b",
                      re.IGNORECASE)


_SET_PHRASE = _set_phrase_pattern(_SET_NOUN)
_PAPER_SET = _set_phrase_pattern(_PAPER_NOUNS)  # a set of papers by name, not "the easy ones", "the proposed methods"
# The auxiliary verbs: one opening a question asks whether ("Did the genomic papers ...?"); one after the wh-word
# makes what follows its subject ("What do the abstracts report?")
_AUXILIARY = r"(?:did|do|does|is|are|was|were|can|could|has|have|had|will|would|should)"
_YES_NO = re.compile(rf"\W*{_AUXILIARY}\b", re.IGNORECASE)
_SET_ON = re.compile(rf"\b(?:(?:among|of|across)\s+)?(?:the|these|those|all)\s+{_SET_NOUN}\s+(?:on|about)\s+"
                     r"([^,;:?(]+(?:\([^)]*\))?)", re.IGNORECASE)
_LIST_COMMA = re.compile(r",\s+")
# A clause opening the question with one of these says when or why, and the comma after it ends it: "When a chain of
# agents goes wrong, is there work on finding which step or which agent is to blame?" lists no items, and its
# circumstance had been an alternative of its own, matching any paper on agents (probe135 sb009)
_SUBORDINATE = re.compile(r"\W*(?:when|whenever|if|while|because|although|though|since|once|whereas|unless)\b",
                          re.IGNORECASE)
# An item ending in an article and words saying nothing ("releases a new, named benchmark or dataset") is no item: its
# comma joins two adjectives of one noun, and "releases" alone had listed the papers releasing code (probe139 sf001)
_ARTICLE_TAIL = re.compile(r"\b(?:a|an|the)\s+([\w-]+(?:\s+[\w-]+)?)$", re.IGNORECASE)
# "the two papers on text-to-image diffusion: the one that ...", the set a comparison's descriptions pick from
_COMPARED_ON = re.compile(rf"\b(?:the|these|those)\s+(?:two|three|four|both)\s+{_SET_NOUN}\s+(?:on|about)\s+"
                          r"([^,;:?(.]+)", re.IGNORECASE)
_BOTH = re.compile(r"\bboth\s+([^?.;]+?)\s+and\s+([^?.;]+)", re.IGNORECASE)
LIST_ITEM_TERMS = 3  # an item of "A, B, or C" is a short noun phrase
ALTERNATIVE_TERMS = 4  # longer criterion parts are one criterion, not alternatives (dev+probe list F1: 0.81 -> 0.83)
# ("synthetic/controlled data", "genomic / genetic data": either; "w/" and "w/o" are "with" and "without")
_SLASH = re.compile(r"(?<=[a-z])(?<!\bw)\s?/\s?(?=[a-z])", re.IGNORECASE)
# The words that introduce examples: "such as", "e.g.", "for instance", "including" (one set for every reading of
# examples: a criterion's alternatives, a description among them, the methods a paper is measured against)
_EXAMPLE_MARKER = r"(?:such\s+as|e\.g\.,?|for\s+(?:instance|example),?|including)"
_ALTERNATIVE = re.compile(rf",?\s+(?:or|{_EXAMPLE_MARKER}|incl\.?|(?<!\bnot\s)counting|especially)\s+|\s*\("
                          r"|,\s+like,?\s+", re.IGNORECASE)  # (", like proofs, ...": as "e.g.")
# "or" joining two tenses of one verb, "code is (or will be) made available": no alternative (it had split the
# criterion into "code" and "made available")
# (not between two predicates, "code is available or will be released": two alternatives)
_AUXILIARY_OR = re.compile(r"\b(is|are|was|were)\s+\(?\s*or\s+(?:will|would|may|might|could|can|should|shall)"
                           r"\s+be\b\s*\)?"
                           # nor between a verb and its negation: "what can or cannot be determined from data" (its
                           # last "or" had ended the list "proofs, bounds, or statements ...", probe77 ps009)
                           r"|\b(can|could|do|does|did|is|are|was|were|will|would|should|has|have)\s+or\s+"
                           r"(?:\2\s*not|\2n['\u2019]?t|won['\u2019]?t|can['\u2019]?t)\b", re.IGNORECASE)
# An optional prefix in parentheses, "(non-)identifiability": the word it qualifies (the parenthesis had split
# "a proof, a bound, or an (non-)identifiability theorem" there, probe79 pu009)
_OPTIONAL_PREFIX = re.compile(r"\(\s*[A-Za-z]+-\s*\)(?=\w)")
# A suspended hyphen shares the second word's tail: "sequence- or variant-level input" is "sequence-level or
# variant-level input" ("sequence" alone had listed the papers on sequence length, probe102 qu012).
_SUSPENDED = re.compile(r"\b([A-Za-z]+)-\s+(or|and)\s+([A-Za-z]+)-([A-Za-z]+)\b", re.IGNORECASE)
# A restatement: what follows says the same in other words ("training-free, i.e., can be bolted onto a model"), as
# one dash may ("with zero training \u2014 you just bolt them onto a model").
# ... or an appositive "something ..." ("explicitly training-free, something you bolt on at the point of use without
# retraining": joined, the two listed neither training-free paper, probe150 ti005)
_RESTATED = re.compile(r",?\s+i\.e\.,?\s+|,\s+(?:meaning|namely|that\s+is|in\s+other\s+words),?\s+"
                       r"|,\s+(?:something|anything|stuff|(?:the\s+)?(?:kind|sort)\s+of\s+thing)\s+(?:(?:that|which)\s+)?"
                       r"(?=(?:you|we|one|I|that|which|where)\b)", re.IGNORECASE)
# A waiver ending a sentence, what follows "whatever" included: "diffusion models, whatever the angle", "scans,
# patient samples, health records, whatever counts" ask for any of them; "angle" and "counts" had been criterion
# words, and the first list held one of the two diffusion papers (probe106 qy003, probe107 qz004). The words are
# blanked and "whatever" kept, so "A, B, C, whatever" still lists alternatives (_LIST_TAIL).
_WAIVER_TAIL = re.compile(r"(?<=[,\u2013\u2014-]\swhatever)(?:\s+[\w-]+){1,2}(?=\s*(?:[.?!)]|$))", re.IGNORECASE)
# What the asker keeps coming across: "Identifiability is a theme I keep seeing", "I keep hearing about large language
# models", "A pattern I've noticed: ...". What is seen is the topic; "seeing" had joined the criterion, and the
# identifiability list held one of its two papers (probe191 va012, probe136 sg014).
_ASKER_PERCEIVES = re.compile(r"\b(?:I|we)(?:['\u2019]ve)?(?:\s+(?:keep|kept|have|been|often|always|also|still))*\s+"
                              r"(?:see|seeing|saw|seen|hear|hearing|heard|notice|noticing|noticed|come\s+across"
                              r"|coming\s+across|came\s+across|run\s+into|running\s+into|ran\s+into)(?:\s+about)?\b",
                              re.IGNORECASE)
# What the asker is not after, opening a sentence before what they are after: "not looking for accuracy gains, tbh i
# want stuff that makes big models cheaper to run" asks for the cheaper-to-run papers; read as a negation, the list
# had been all 19 papers not about "accuracy gains ... cheaper run train" (probe143 sk014).
_DISCLAIMER = re.compile(r"(?:^|(?<=[.?!]\s))\s*not\s+(?:(?:really\s+)?(?:looking|interested|asking|searching)"
                         r"\s+(?:for|in|about)|after)\b[^,;:?.!\u2013\u2014]*(?:[,;:\u2013\u2014]|\s-\s)",
                         re.IGNORECASE)
# The asker introducing themselves or their situation: "Field scientist here: is there work that ...?", "Busy
# professor here.", "Zero training budget here." (the role had joined the criterion, and the list held a paper for
# "scientist", probe63 pd010); not papers said to be here ("Two diffusion papers here: ...")
_ASKER_HERE = re.compile(r"^\W*(?!(?:anything|something|everything|nothing|what|which|who|is|are|any|all|stuff)\b)"
                         rf"(?:(?!{_SET_NOUN}\b)[\w-]+\s+){{0,3}}?(?!{_SET_NOUN}\b)[\w-]+\s+here\s*"
                         r"(?:[:.,!;\u2013\u2014]|\s-\s)", re.IGNORECASE)
_ANY_DASH = re.compile(r"\s+[-\u2013\u2014]\s+")  # a dash between words, typed as a hyphen or not
# A list ending "..., that kind of thing" (or "etc.", "and so on", "and the like") lists alternatives as "..., or"
# would: "proofs, bounds, identifiability results, that kind of thing" had been one criterion of four words
# ... or saying any of them will do, or to list them all ("Motion data, field imagery, recordings - any of it counts",
# "Multi-agent RL, LLM agent pipelines, agentic systems, I want all of them listed": "counts" and "listed" had been
# alternatives, probe102 qu010, probe104 qw009, qw010)
_LIST_TAIL = re.compile(r"(,[^,;:?.!]+)(?:,|\s+[-\u2013\u2014])?\s+"
                        r"(?:(?:that|this)\s+(?:kind|sort)\s+of\s+(?:thing|stuff)|etc\.?|and\s+so\s+on|and\s+the\s+like"
                        r"|(?:or\s+)?whatever"
                        r"|or\s+(?:similar|the\s+like)|(?:or\s+)?(?:anything|something|stuff)\s+like\s+that"
                        r"|any\s+(?:of\s+(?:it|them|these|those)|(?:[\w-]+\s+)?(?:kind|type|sort|modality|form)s?)"
                        r"\s+(?:counts?|will\s+do|is\s+fine)"
                        r"|(?:I|we)\s+(?:want|need)\s+(?:all|each|every\s+one)\s+of\s+them(?:\s+listed)?)"
                        r"(?=\s*(?:[;:?.!)]|$))", re.IGNORECASE)
# A description runs until its clause ends: a word followed by punctuation, or by "and"/"with"/"vs" and the next
# "the ..." description, is its last word. Words are whole ("Qwen2.5" is one word, "model." is "model").
_WORD_WHOLE = r"[\w&+'-]+(?:\.[\w&+'-]+)*(?![\w&+'-])"
# Where a description of one compared paper ends and the comparison goes on: "the study on X differ from the ...",
# "the paper on X use RL differently from RISE", "... have in common", "is the paper on X different from ...",
# "what sets the paper on X apart from the paper on Y" (a paper is not described as being from another paper: the
# first side had run on to the end, and the question quoted one paper).
# ("the paper arguing that moving motion between differently built bodies ...": "differently" modifies there)
_COMPARISON_GOES_ON = (r"(?:differ|differs|differed|compared?|versus|vs)\b|(?:have|has)\s+in\s+common\b"
                       r"|differently(?:\s+(?:from|than)\b|\s*[,;:?.!]|\s*$)"
                       r"|(?:different|distinct|apart)\s+from\b|from\s+the\s+(?:paper|work|study|abstract|one)\b")
# ("on genes, ancestry and ...": a list; not "the one on X, the one on Y": two descriptions)
# (a list's item opens with no auxiliary or wh-word: "When the whole thing gets it wrong, is there work on X and
# Y?" had read "whole thing gets it wrong, is there" as a described paper)
_DESCRIPTION_WORD = (rf"{_WORD_WHOLE}(?:,(?!\s+(?:the|{_AUXILIARY}|which|what|how|who|where|when|why)\b)"
                     r"(?=\s+[\w&+'\s-]+?\s(?:and|or)\s))?"
                     rf"(?![,;:?.]|\s+(?:and|with|vs\.?|versus|or)\s+(?:the|a)\b|\s+(?:{_COMPARISON_GOES_ON}))")
_ON = (r"(?:\s+(?:on|about|where|that\s+\w+|which\s+\w+)\s+((?:(?!and\b|or\b|both\b|with\s+the\b"
       rf"|(?:{_COMPARISON_GOES_ON}))[\w&+.'-]+\s*){{1,6}}))?")
_OPENING_WORDS = (r"(?:which|what|whose|any|each|every|a|an|one|this|that|these|those|some|no|the|is|are|does|do|did"
                  r"|in|for|of|on|how|why|who|where|when|please|and|or|but|my|our|your|another|other|its|their"
                  # (a subject opens a clause, not a description: "I'm a biologist interested in when animals copy
                  # others versus working things out alone" had been two papers compared)
                  r"|i|i['\u2019](?:m|ve|d)|we|we['\u2019](?:re|ve)|you|they)")
_THE_PAPER = r"the\s+(?:paper|abstract|article|study|work|one)\b"
_POINTING_WORD = r"(?:this|that|these|those)\b"
_THE_DESCRIBED_PAPER = r"the\s+(?:[\w-]+\s+){1,5}?(?:paper|abstract|article|study|work)\b"
# The parts of a paper a description may name ("the benchmark for ...", "the dataset of ...", "the method that ...").
_PART_NOUNS = r"(?:benchmark|dataset|method|approach|framework|technique|trick)"
_PARTICIPLE = r"\s+(?!during\b)[a-z]+(?:-[a-z]+)*ing\s+"  # "the paper questioning ...", not "the paper during training"
_DESCRIBED_AFTER = rf"((?:{_DESCRIPTION_WORD}\s+){{0,11}}{_WORD_WHOLE})"  # what a paper is said to be on or do
_DESCRIBED = re.compile(
    # ("the dataset built to work out ...": "work" after "to" is a verb, not the head noun)
    # ("the tabular foundation model / ancestry paper": a slash joins two words of one description)
    # (not across "the paper": "the goals of the paper about X" describes by "about X", while "the flood maps of
    # the coastal paper" is one description)
    # ("the theory work explaining why X": the word before the head noun and what the participle says)
    rf"(?i:\bthe\s+(?!{_THE_PAPER})([\w-]+)\s+(?:paper|work|study){_PARTICIPLE}){_DESCRIBED_AFTER}|"
    # (not opening with a paper noun: "as far as the abstract says they are purely pen-and-paper work" is what the
    # abstract says)
    # (nor across another "the" opening a paper's description, unless "of" makes it the owner: "the experiments run
    # on in the diffusion token-merging paper" describes by "diffusion token-merging", while "the flood maps of the
    # coastal paper" and "the accuracies on the synthetic benchmark" are one description each)
    rf"(?i:\bthe\s+(?!{_PAPER_NOUN}s?\s)((?:(?!{_THE_PAPER}|(?<!\bof\s){_THE_DESCRIBED_PAPER}){_DESCRIPTION_WORD}"
    rf"(?:\s+|\s*/\s*)){{0,6}}?"
    rf"(?!{_THE_PAPER}){_WORD_WHOLE})"
    r"\s+(?<!\bto\s)"
    # (nor after a demonstrative, whose noun it is: "only retraining that one" is the team member just named, "the
    # root cause per that study" is of the study asked about)
    r"(?<!\bthat\s)(?<!\bthis\s)"
    # ("the system does each one touch", "the paper arguing that only (just) one role": a count, not a head noun; nor
    # after a preposition: "the immediate upstream drivers of one outcome" counts outcomes)
    r"(?:paper|abstract|article|study|work|benchmark|(?<!only\s)(?<!just\s)(?<!each\s)(?<!every\s)(?<!any\s)"
    r"(?<!no\s)"
    r"(?<!\bof\s)(?<!\bin\s)(?<!\bon\s)(?<!\bto\s)(?<!\bfor\s)(?<!\bfrom\s)(?<!\bwith\s)(?<!\bby\s)one)\b)"
    rf"{_ON}"
    # "the benchmark for blaming failures", "the dataset of birds calling", "the training method that decides"
    rf"|(?i:\bthe\s+(?:(?!the\b)[\w-]+\s+)??(?:paper|work|study|one|{_PART_NOUNS})"
    r"\s+(?:on|about|of|for|that\s+\w+|which\s+\w+)\s+"
    # "the paper questioning random crops", "the method wiring every layer": a participle describes too
    rf"|\bthe\s+(?:paper|work|study|one|method|approach|framework){_PARTICIPLE}"
    # and "the one where" a second paper compared is: "The zebra finch paper and the one where video LLMs can't tell
    # left from right" (one paper sought, "looking for the one where ...", is found from the whole question)
    r"|(?:(?<=\band\s)|(?<=\bvs\s)|(?<=\bversus\s)|(?<=,\s))the\s+one\s+where\s+)"
    rf"{_DESCRIBED_AFTER}"
    # "the zebra finch calling dataset": a dataset described by two words or more ("the training dataset" is
    # a part of a paper)
    rf"|(?i:\bthe\s+((?:(?!the\b){_DESCRIPTION_WORD}\s+){{1,5}}?{_WORD_WHOLE})\s+dataset\b)"
    # "the ASD prompting method": a method/model/benchmark described by a name-like word (a parameter count
    # such as "7B" is not one: "the base 7B model" is a model inside a paper; nor across a sentence's end: "the stored
    # intermediate values. Is there a method" had been a description; nor "AI", any model: "whose trick works without
    # retraining the AI model" had been answered from the one paper "AI" found, probe190 uz006)
    rf"|(?i:\bthe\s+)((?:[\w&+.'-]*[\w&+'-]\s+){{0,4}}?(?!\d+(?:\.\d+)?[BMKT]\b|AI\b)[\w&+.'-]*[A-Z][\w&+.'-]*"
    rf"(?:\s+[\w&+.'-]*[\w&+'-]){{0,3}}?)\s+"
    rf"(?i:method|approach|model|framework|benchmark|dataset|system|procedure|technique|trick)\b"
    # a description opening the question without "the": "DPO curation paper vs. the Token Hypothesis paper." (no
    # demonstrative inside: "Per that study, why ...?" points at a study, and "Per that" had been a description of
    # the cfDNA paper, probe176 ul023)
    rf"|(?i:^\s*(?!{_OPENING_WORDS}\b)((?:(?!{_POINTING_WORD}){_DESCRIPTION_WORD}\s+){{0,5}}?(?!{_POINTING_WORD})"
    rf"{_WORD_WHOLE})\s+(?:paper|abstract|study)\b"
    r"(?=\s*(?:vs\b|versus\b|and\b|,|:|\s+(?:compared|against)\b)))"
    # and after "vs" without "the": "speaker bounding box paper vs motion direction paper vs DGP"
    rf"|(?i:\b(?:vs\.?|versus)\s+(?!the\b|a\b)((?:{_DESCRIPTION_WORD}\s+){{0,4}}?{_WORD_WHOLE})\s+(?:paper|abstract|study)\b)",
)
_TOKEN = re.compile(r"(?<![\w&+.-])[A-Za-z][\w&+-]*(?:\.\d+[\w-]*)?[\w+]?")
# Verbs whose "how much" asks for an amount ("how much does X reduce latency"), unlike "how much does X depend on".
_FIGURE = re.compile(
    # ("choosing what to merge by how much each region is still changing": a clause after it, no amount asked)
    r"\bhow\s+many\b|\bby\s+how\s+much\b(?!\s+(?:each|every|the|a|an|this|that|its|their)\b)"
    r"|\bby\s+what\s+(?:margin|factor|amount|percentage)\b"
    # ("based on how much the picture changes": a determiner after "how much" starts a clause, not an amount asked)
    r"|\bhow\s+much\s+(?!(?:does|do|did|is|are|was|were|can|could|should|will|would|the|a|an|this|that|its|their"
    r"|each|every)\b)\w+"
    rf"|\bhow\s+much\s+(?:does|do|did|can|could|will|would)\s+(?:[\w&+.-]+\s+){{1,4}}?{CHANGE_VERBS}\b"
    # ("what wall-clock speedup DaTMe get": a measure after up to two modifiers, not a "kind of" one)
    r"|\bwhat\s+(?:is\s+the\s+|are\s+the\s+|was\s+the\s+)?(?:[\w-]+'s\s+)?(?:(?!(?:kind|type|sort)s?\b)[\w-]+\s+){0,2}?"
    r"(?:percentage|number|fraction|proportion|count"
    r"|amount|size|margin|speedup|speed-up|ratio)\b|\bpercentage\s+points?\b"
    r"|\b(?:what|how\s+much)\s+(?:[\w-]+\s+){0,2}?(?:speedup|speed-up|reduction|improvement|gain|increase|decrease"
    r"|drop|saving|savings)s?(?:\s+(?:factor|ratio|rate))?\s+(?:does|do|did|is|are|was|were|can|could)\b"
    # ("What is the largest total GPU memory reduction reported ...?": the amount, however modified, probe142 si034)
    r"|\bwhat\s+(?:is|was|are|were)\s+the\s+(?:[\w-]+\s+){0,4}?(?:speedup|speed-up|reduction|improvement|gain"
    r"|increase|decrease|drop|saving|savings)s?\s+(?:reported|achieved|obtained|measured|observed|claimed)\b"
    r"|\bhow\s+(?:large|big|long|fast|small)\b",
    re.IGNORECASE,
)
# A count as a question writes it: a number word or digits ("three", "3").
_COUNT_WORD = rf"({'|'.join(NUMBER_WORDS.values())}|\d+)"
_COUNT_OF = {name: count for count, name in NUMBER_WORDS.items()}  # "three" -> 3
_COUNT_LIST = re.compile(
    r"\b(?:which|what|name)\s+(?:(?:are|were|is|was)\s+)?(?:the\s+)?(?:names\s+of\s+(?:the\s+)?)?"
    rf"{_COUNT_WORD}\s+((?:[\w-]+\s+){{0,4}}[\w-]+)",
    re.IGNORECASE,
)
# ... or counted first and asked for by name after: "SSL is tested on three MARL environments - what are their names?"
# (read as "what are ...", the answer had quoted the sentence saying "three MARL environments" as if it named them,
# where the dev question asking "the names of the three ..." was told the abstract does not name them, probe97 qo037)
# (or asked "Which ones?" alone: "tests on three MARL environments. Which ones?", probe102 qu038; not of papers
# counted, "two of these prove a lower bound. Which ones?", which asks for the papers)
_COUNTED_THEN_NAMED = re.compile(
    rf"\b{_COUNT_WORD}\s+((?:[\w-]+\s+){{0,4}}[\w-]+)[^?]*?"
    r"\b(?:what\s+(?:are|were)\s+(?:their|the)\s+names|(?:can\s+you\s+)?name\s+them"
    # (the counted noun restated: "in three MARL environments - which environments were they?", probe118 rk039)
    r"|(?:what|which)\s+(?:ones\s+|[\w-]+s\s+)?(?:are|were)\s+they(?:\s+called)?)\b"
    rf"|\b{_COUNT_WORD}\s+(?!of\b|(?:[\w-]+\s+){{0,2}}?(?:{_SET_NOUN}|{_PAPER_NOUN})\b)((?:[\w-]+\s+){{0,4}}[\w-]+)"
    r"[^?]*?[.;:]\s*which\s+ones\s*\?",
    re.IGNORECASE,
)
_HOW_MANY = re.compile(r"\b(?:how\s+many|what\s+number\s+of|number\s+of)\s+((?:[\w&+.-]+\s*){1,4})", re.IGNORECASE)
# The pronouns and ordinals by which a question points back at the conversation's papers.
_PRONOUNS = (r"they|them|their|it|its|these|those|either|neither|which\s+one|each\s+one|of\s+the\s+(?:two|three|four)"
             r"|the\s+(?:one|ones|former|latter|first|second|third|last)")
# ... and "the paper"-like phrases, "this", "that": a cue that a question leans on the conversation.
_REFERENCE = re.compile(rf"\b(?:{_PRONOUNS}|the\s+(?:paper|method|model|authors|work|other|same)|this|that)\b"
                        r"|^\s*(?:and|also|what\s+about|how\s+about|what\s+else)\b", re.IGNORECASE)
# A "which papers" question, or one naming a paper, points back only by these: "the paper", "the authors" mostly lead
# up to a name there ("the authors of CoCHI"), "that" and "this" start a clause ("papers that use RL").
_PRONOUN = re.compile(rf"\b(?:{_PRONOUNS})\b", re.IGNORECASE)
_SINGULAR_POINTER = re.compile(r"\b(?:it|its|the\s+(?:paper|method|model|work|one|former|latter|first|second|third"
                               r"|last))\b", re.IGNORECASE)
# A question without content words asks about the whole collection with these ("What are the main themes?"), and
# otherwise, in a conversation, continues it ("Tell me more", "Go on").
_COLLECTION_WIDE = re.compile(r"\b(?:collection|corpus|conference|proceedings|overview|themes?|topics?|trends?|areas?"
                              r"|fields?|landscape|directions|everything|all\s+(?:the\s+)?(?:papers|abstracts)"
                              r"|(?:kinds?|types?|sorts?)\s+of\s+(?:research|work|papers|problems|questions|topics)"
                              r"|bird'?s[- ]eye|big\s+picture|lay\s+of\s+the\s+land)\b", re.IGNORECASE)
# The words in which a question asks what a collection holds ("the hot topics", "the main research trends of this
# year's conference"): none of them is a subject a paper could be about, so a question with only these (beside the
# form words) asks for the overview.
COLLECTION_TALK = frozenset(
    "collection corpus conference proceedings venue track year years overview theme themes topic topics trend "
    "trends area areas field fields landscape direction directions kind kinds type types sort sorts hot popular "
    "current recent emerging recurring big biggest broad research work view picture land cluster group organize "
    "organise categorize categorise".split()) | frozenset(CORPUS_NOUNS.split("|"))  # ("the themes of this batch")
# The question's own wh-word asks for papers ("Which papers ...", "List the recent works ..."), not for something
# about them ("What topics do the papers cover?").
# (not "What do the abstracts report ...": the wh-word is what they report, the papers its subject)
_NOT_AUXILIARY = rf"(?!{_AUXILIARY}\b)"
_WANTS_PAPERS = re.compile(rf"\b(?:which|what|list|name|find|show|are\s+there|any)\s+(?:(?:of|among)\s+"
                           rf"(?:the|these|those)\s+)?(?:{_NOT_AUXILIARY}[\w-]+\s+){{0,2}}?{_SET_NOUN}\b"
                           rf"|\b(?:any|a|some)\s+{_PAPER_NOUN}\b"
                           # opening the question: "Submissions where multimodal LLMs are studied?"
                           rf"|^\W*{_SET_NOUN}(?=\s+(?:where|that|which|on|about|with)\b)"
                           # or all of a set a clause restricts: "I need all papers which release a new benchmark"
                           # (it had been read as asking for the collection's overview)
                           rf"|\b(?:all|every)\s+(?:(?:of\s+)?the\s+)?(?:{_SET_NOUN}|{_PAPER_NOUN})"
                           rf"(?=\s+(?:where|that|which|whose|with)\b)"
                           rf"|(?<=\bneed\s|want\s|like\s){_THE_ONES}(?=\s+{_RELATIVE})"
                           # or all of it, typed as a noun phrase: "medical papers", "any rl papers?" (it had been
                           # taken for an overview request)
                           rf"|^\W*(?:any\s+)?(?!(?:the|these|those|all|some|other|my|our)\b)(?:[\w/&+.-]+\s+){{1,4}}"
                           rf"{_PAPER_NOUNS}\W*$", re.IGNORECASE)
# Asking for papers without saying how many ("Which paper ...", "What work ...", "Is anyone ...", "papers dealing
# with X?", "Who's working on X?", "every paper where ..."): the evidence decides between one paper's answer and a
# list (several clear the list's membership bar). A singular paper noun on its own ("I recall a paper on ...",
# "There's a study using ...") introduces a description of one paper: among 10k abstracts, taken as asking for
# papers, nine such paraphrases became lists of look-alikes (gold paper first, probe14 0.33 -> 0.17). Nor is a
# plural that is also a verb ("works", "studies") a cue on its own, except opening a sentence, where it is the
# subject a criterion describes ("Studies that use patient data.", "Works reporting code"). "Apart from that one,
# who else ...?" asks too.
_SEEKS_PAPERS = re.compile(r"\b(?:which|what|find|show|any|some|every|all)\s+(?:(?:of|among)\s+(?:the|these|those)\s+)?"
                           r"(?:[\w-]+\s+){0,2}?(?:papers?|works?|stud(?:y|ies)|research|articles?|abstracts?"
                           r"|submissions?)\b(?!\s+(?:is|was|does|did)\s+(?:the|this|that|it)\b)"
                           r"|\b(?:papers|articles|abstracts|submissions|publications)\b"
                           # (and the mass nouns opening a typed query: "work dealing with audio / sound recordings"
                           # had been one paper's fact answer, probe180 up014)
                           r"|(?:^|[.?!:]\s)\W*(?:studies|works?|research)\b"
                           # ("someone" asked about, not the subject describing one paper: "Someone argued
                           # that's the weak link - what did they propose instead?", probe106 qy017)
                           r"|\b(?:any(?:one|body)|(?:is|are|was|were|has|have|did|does|do)\s+some(?:one|body)"
                           r"|(?:any|some)thing)\b|(?:^|[.?!:]\s)\W*who\b|\bwho\s+else\b"
                           r"|\bstuff\b"  # ("show me the diffusion model stuff", probe116 ri003)
                           # (a mass noun after "is there": "Is there work whose primary object of study is a
                           # multimodal LLM?", probe142 si009)
                           r"|\b(?:is|are)\s+there\s+(?:any\s+)?(?:work|research)\b", re.IGNORECASE)
# A contribution verb before what is contributed, up to the clause's end: "introduce a new benchmark for ...",
# "propose and release a dataset that ...", "a new, named benchmark", "whose contribution includes a new ...".
_CONTRIBUTING = re.compile(r"\b(?:introduc|propos|present|buil[dt]|releas|contribut|develop|creat|design|construct"
                           r"|offer|provid|publish|curat|assembl|compil|mak|made|put(?:s|ting)?\s+(?:out|forward))\w*\s+"
                           r"(?:and\s+\w+\s+|(?:(?<=contribution\s)|(?<=contributions\s))(?:is|are|includes?|being)\s+)?"
                           r"(?P<what>(?:an?|new|novel|their\s+own|any)\b"
                           r"[^;:?.!()]*?)(?=\s+(?:for|that|which|to|in|of|with|where|whose|as|on)\b|[;:?.!()]|$)",
                           re.IGNORECASE)
# Asking for the papers like one paper: phrases that ask for papers themselves ("Anything similar?", "What else is
# like V33DA?", "similar papers"), or a relation ("similar to", "related to") in a question asking for papers.
_LIKE_REQUEST = re.compile(r"\b(?:papers?|works?|ones?|anything|something|else)\s+(?:(?:is|are)\s+)?(?:like|similar)\b"
                           r"|\bmore\s+like\b|\bsimilar\s+(?:papers?|works?|ones?|stud(?:y|ies)|abstracts?)\b",
                           re.IGNORECASE)
_RELATED = re.compile(r"\b(?:similar|related|comparable|closest|close|akin|analogous)\s+(?:to|with)\b", re.IGNORECASE)
_ASKING_ELSE = re.compile(r"\b(?:else|other|recommend|suggest)\b", re.IGNORECASE)
# A definite plural set of papers ("the diffusion papers", "the papers about RL") that a question asks something of
# ("Summarize the papers about diffusion", "tl;dr of the causal inference papers?"); not a counted one ("the two").
_DEFINITE_SET = re.compile(rf"\b(?:the|these|those|all(?:\s+the)?)\s+(?!(?:two|three|four|five|most)\b)"
                           rf"(?:[\w&+-]+\s+){{0,3}}?{_SET_NOUN}\b"
                           r"|\b(?:each|every)\s+(?:paper|work|study|article|abstract)\s+(?:on|about|that|which)\b",
                           re.IGNORECASE)
# "the main conclusion of the | paper": a description cut off before "paper" at "of the" is what is asked of it.
_ASKED_OF_THE = re.compile(r"\b(?:of|in|from|by)\s+(?:the|this|that)$", re.IGNORECASE)
# A question that opens by asking for a listing: "List the work that ..." asks for a set, not one paper.
_LIST_VERB = re.compile(r"\s*(?:please\s+)?(?:list|enumerate|show(?:\s+me)?|find(?:\s+me)?|name|give\s+me)\s",
                        re.IGNORECASE)
# ... the set itself: "Show me the diffusion model papers", not "Give me an overview of the medical papers"
_LISTS_THE_SET = re.compile(_LIST_VERB.pattern + r"\s*(?:the|these|those|all)\b", re.IGNORECASE)
_OF_THESE_PAPERS = re.compile(r"\b(?:of|among)\s+(?:these|those)\s+(?:papers|abstracts|works|studies)\b",
                              re.IGNORECASE)
_ELLIPSIS = re.compile(r"^\s*(?:(?:and\s+)?(?:what|how)\s+about|and)\s+\w", re.IGNORECASE)
_SELECTING = re.compile(r"\bwhich\s+(?:one|of)\b", re.IGNORECASE)
# "this collection", "these papers": the corpus itself, not something said earlier
_COLLECTION = re.compile(rf"\b(?:this|these|the)\s+(?:collection|corpus|set|papers|abstracts|conference)\b"
                         rf"|\bthis\s+(?:{CORPUS_NOUNS})\b", re.IGNORECASE)
# ("on top of" is no winner: "what's it built on top of", "what does V33DA++ add on top of V33DA" had been told the
# abstract "does not say which one is the top", probe120 rm022, probe73 pn004)
_WINNER = re.compile(r"\b(?:which|what|who)\b.*\b((?:best|worst|highest|lowest|strongest|weakest|fastest"
                     r"|top(?!\s+of\b)|largest|biggest|smallest|greatest|longest|shortest|fewest|hardest|easiest|toughest"
                     r"|(?:most|least)\s+(?:accurate|effective|efficient|successful|robust)"
                     # (or closing its clause, said of a verb: "In which environment did SSL gain the most?")
                     r"|(?:most|least)(?=\s*(?:[?.!,;]|$)))\b)",
                     re.IGNORECASE)
_DEFINITION = re.compile(r"\b(?:stand\s+for|acronym|abbreviation|short\s+for"
                         # (not after a preposition, where "what" opens a clause the question is about: "a formal
                         # limit on what is achievable" had asked for a definition, and a list had become one paper,
                         # probe145 sm007)
                         r"|(?<!\bon\s)(?<!\bof\s)(?<!\babout\s)(?<!\bin\s)(?<!\bto\s)(?<!\bfor\s)(?<!\bfrom\s)"
                         r"(?<!\bwith\s)(?<!\bby\s)what\s+(?:is|are)\b(?!\s+the\s+(?:[\w-]+\s+){1,3}of\b))",
                         re.IGNORECASE)
_REASON = re.compile(r"^\s*why\b|\bwhat\s+is\s+the\s+reason\b|\bwhat\s+makes\b", re.IGNORECASE)
_CLAUSE_BREAK = re.compile(
    r",?\s+and\s+(?=(?:(?:across|in|on|by|from|for|at|to|under|with)\s+)?(?:which|what|how|where|when|why|who)\b)"
    # ("..., and over how many task families was it evaluated?": after a comma any preposition may lead the second
    # question; without one, "the biggest improvement reported and over which baseline" asks one thing)
    r"|,\s+and\s+(?=(?:over|between|among|against|within|through|during|into|of|after|before|about)\s+"
    r"(?:which|what|how|where|when|why|who)\b)"
    # a yes/no question after a comma: "On what puzzles was it tested, and did accuracy matter for learning?"
    r"|,\s+and\s+(?=(?:did|does|do|is|are|was|were|can|could|has|have|had)\s)"
    r"|\?\s+(?=\S)",
    re.IGNORECASE,
)
_ID_TOKEN = re.compile(r"[\w][\w.:/-]*[\w]|\w")
_ORDINAL = {"first": 0, "second": 1, "third": 2, "former": 0, "latter": -1, "last": -1}
_ORDINAL_REF = re.compile(r"\bthe\s+(first|second|third|former|latter|last)\b(?:\s+(two|three|four|[234])\b)?"
                          r"(?:\s+ones?)?", re.IGNORECASE)
_ASKED_VERB_WORK = re.compile(r"(?:^|[.?!:;]\s+)(?:did|does|do|can|could|will|would|should|might)\s+$", re.IGNORECASE)
_EXCLUDING = re.compile(r"\bthe\s+(?:one|paper|work|study)\s+(?:(?:that|which)\s+)?(?:isn'?t|is\s+not|doesn'?t"
                        r"|does\s+not|wasn'?t|not)\s+(?:about\s+)?([^,?.;:]+)", re.IGNORECASE)
# "one work that built X, and another that uses Y", "one targets X, the other Y": two papers, each described by
# its half, up to the clause's end. "One" of "only one role", "each one", "which one" counts, it does not describe;
# nor does "from one creature to another" (a bare "one" describes only at a clause's start).
_ONE_AND_ANOTHER = re.compile(
    r"(?:(?<!only\s)(?<!each\s)(?<!which\s)(?<!any\s)(?<!no\s)\bone\s+(?:(?:paper|work|study|abstract|article)\s+"
    r"(?:that\s+|which\s+|on\s+|about\s+)?|(?:that|which)\s+)|(?:^|[:;,]\s*)one\s+)"
    # (the halves may be two clauses: "One paper picks which answer pairs to rate; another picks which chunks")
    r"([^;:?.]+?)[,;]?\s+(?:and\s+|while\s+|whereas\s+|but\s+)?"
    # (or "one about X and one about Y", probe77 ps027)
    r"(?:another|the\s+other|a\s+second|(?<=\band\s)one(?=\s+(?:that|which|on|about)\b))"
    r"(?:\s+(?:one|paper|work|study|abstract|article))?\s+"
    # (up to a question asked of both: "..., one about speed and one about failures, which generators does each
    # test?")
    r"(?:that\s+|which\s+|on\s+|about\s+)?([^;:?.]+?)(?=,\s*(?:which|what|how|why|where|when)\b|[;:?.]|$)",
    re.IGNORECASE,
)
# A side of a comparison described definitely ("the picture-generator study"), and where a side said to compare with or
# differ from another ends: at a clause going on ("when ...", "in ...") or at punctuation
_DEFINITE_SIDE = r"the\s+[^:;?,.]+?"
_SIDE_END = r"\s*(?=\s(?:when|in|on|for|regarding|as)\s|[:;?,.]|$)"
# "Compare/contrast A with B" and "How do A and B differ": the two sides, each up to its clause's end.
_COMPARED = re.compile(
    # (the second side a definite description or a name: "compare the approach that adapts a model to scientific
    # imagery ... with the approach that ..." is not split at "to scientific")
    r"\b(?:compare|contrast)\s+([^:;?]+?)\s+(?:with|to|against|and|vs\.?|versus)\s+(?=the\s|(?-i:[A-Z\d]))([^:;?]+?)\s*"
    r"(?=[:;?.(]|,\s|\s+(?:in|on)\s+"
    r"(?:what|how|which|terms)\b|$)"
    r"|\bhow\s+(?:do|does|did)\s+(.+?)\s+and\s+(.+?)\s+(?:differ|compare|relate)\b"
    # "SIF versus the Compositional Stress Index: what does each measure?"
    r"|(?:^|[:;?.]\s*)(?P<vs_first>[^:;?,.]+?)\s+(?:vs\.?|versus)\s+(?P<vs_second>[^:;?,.]+?)\s*(?=[:;?,.]|$)"
    # "SIF and the Compositional Stress Index are both diagnostics": two things said alike, set side by side
    rf"|\b([^:;?,.]+?)\s+and\s+({_DEFINITE_SIDE})\s+(?:are|were)\s+(?:both|each)\b"
    # "Both the chatbot overconfidence fix and the causal-discovery paper ...": the paper noun heads both sides,
    # or opens the second ("Both the songbird-calls dataset and the paper on video AIs ...")
    rf"|\bboth\s+({_DEFINITE_SIDE})\s+and\s+(the\s+(?:[^:;?,.]+?\s+)?(?:paper|work|study|abstract))\b"
    # "How does the overconfidence-fixing method compare with the picture-generator study when ...?"
    rf"|\bhow\s+(?:do|does|did)\s+({_DEFINITE_SIDE})\s+(?:compare|stack\s+up|differ)\s+(?:with|to|against|from)\s+"
    rf"({_DEFINITE_SIDE}){_SIDE_END}"
    # "How is the failure-attribution benchmark different from the role-update method?": one said to differ from
    # the other, as "differ from" says
    rf"|\b(?:is|are|was|were)\s+({_DEFINITE_SIDE})\s+(?:so\s+|really\s+)?(?:different|distinct)\s+from\s+"
    rf"({_DEFINITE_SIDE}){_SIDE_END}"
    # "the DPO curation and the social learning papers": a plural paper noun after two definite descriptions heads
    # both, one paper each
    rf"|\b({_DEFINITE_SIDE})\s+and\s+({_DEFINITE_SIDE})\s+(?:papers|works|studies|abstracts)\b"
    # "Zebra finch caller attribution and the genetic tabular-model study both seem to ...": a bare side opening
    # the sentence (after an opening word and comma too: "So, ...") beside a described paper, the two said alike
    # (probe149 th031, probe98 qp028, probe110 rc028)
    r"|(?:^|(?<=[.?!]\s))(?:\w+,\s+)?(?P<alike_first>[^:;?,.]+?)\s+and\s+"
    r"(?P<alike_second>the\s+[^:;?,.]+?\s+(?:paper|work|study|abstract|one))"
    r"\s+(?:(?:are|were)\s+)?(?:both|each)\b",
    re.IGNORECASE,
)
_THE = re.compile(r"^the\s+|\s+(?:paper|work|study|abstract|one|benchmark|dataset|method|model|approach)$",
                  re.IGNORECASE)
_REFERENCE_WORDS = frozenset(
    ["first", "second", "third", "fourth", "last", "latter", "former", "same", "other", "above", "previous", "next",
     "one", "two", "three", "four", "this", "that", "these", "those",
     # size and rank words compare papers rather than describe one ("the larger benchmark")
     "larger", "largest", "smaller", "smallest", "bigger", "biggest", "better", "best", "worse", "worst",
     "newer", "newest", "older", "oldest", "earlier", "later", "stronger", "strongest", "weaker", "weakest"]
)
# The size of the collection the papers are drawn from ("Which of the 19 papers ...", "among all 50 abstracts"):
# not a criterion ("No paper in the corpus clearly matches "19"" had been the answer).
_COLLECTION_SIZE = re.compile(rf"\b(?:of|among|in|across)\s+(?:the|these|those|all)\s+(?:(?:the|these|those)\s+)?"
                              rf"(\d+)\s+{_SET_NOUN}\b", re.IGNORECASE)


@dataclass
class QuestionPlan:
    """What a question names and asks; ``kind`` is the suggestion the evidence then confirms."""

    question: str
    kind: Kind
    query: str
    terms: list[str] = field(default_factory=list)
    targets: list[str] = field(default_factory=list)
    # a target named by a label that many abstracts use as a word ("DNA"): those papers, any of which may be meant
    ambiguous: dict[str, list[str]] = field(default_factory=dict)
    # targets linked only by a word their abstract uses, not a name it introduces ("ViT"): meant only if the question
    # retrieves them best
    mentioned_only: list[str] = field(default_factory=list)
    described: list[str] = field(default_factory=list)
    # the descriptions joined to a name as another side ("DaTMe vs the paper on rare combinations"), each with the
    # papers that side names: other papers than those
    beside_named: dict[str, list[str]] = field(default_factory=dict)
    # the set the described papers are of: "Compare the two papers on diffusion: the one that ..." -> "diffusion"
    described_among: str = ""
    set_valued: bool = False
    negated: bool = False
    alternatives: list[str] = field(default_factory=list)
    conjuncts: list[list[str]] = field(default_factory=list)  # "both A and B": a member must match A and B
    carried: list[str] = field(default_factory=list)
    avoided: list[str] = field(default_factory=list)  # "another paper": the conversation's papers are not the answer
    excluded_phrase: str | None = None
    # papers a list sets aside by description: "Other than the ones built around language models, which ..."
    set_aside: list[str] = field(default_factory=list)  # its alternatives ("language models")
    expects: Expects = "any"
    count: int | None = None
    count_noun: str = ""
    followup: bool = False
    mentions: int = 0  # distinct names in the question (one name may fit several papers)
    refers: bool = False  # uses a pronoun or "the paper": a cue that it leans on the conversation
    points_back: bool = False  # refers by a pronoun or an ordinal, not "the paper" or "that" ("Which of them ...?")
    selects: bool = False  # "Which one ...", "Which of them is ...": picks among the papers rather than asks each
    collection_wide: bool = False  # asks about the collection ("the main themes", "this conference", "the trends")
    wants_papers: bool = False  # its wh-word asks for papers: "Which papers ...", not "What topics do the papers ..."
    of_a_set: bool = False  # asks something of a set of papers it describes: "Summarize the papers about diffusion"
    seeks_papers: bool = False  # what it asks for is papers, however many: "What work ...?", "Is anyone ...?"
    contributed: str = ""  # what it asks papers to contribute: "a new named benchmark" of "introduce a new named ..."
    similar: bool = False  # asks for the papers like the one it names: "Find papers similar to DaTMe"
    continues: bool = False  # nothing to look up, asked in a conversation, not of the collection: "Tell me more"
    clauses: list[str] = field(default_factory=list)
    set_phrase: str = ""  # "the vision papers" -> "vision": the set a question asks something of
    criterion_terms: list[str] = field(default_factory=list)  # a list's criterion, when a preamble surrounds it
    # the asking sentence points back ("... pop up - which abstracts derive one?"): the criterion is the whole
    # question's words, the asker's chatter among them, so the list's header names only the words its papers write
    said_before: bool = False
    # the whole question's alternatives when the criterion is its asking sentence's: read when that sentence alone
    # matches no paper ("Is there a paper that tells you which positions you can get away with?" after "I want to
    # cut fine-tuning memory by pushing gradients through a few sequence positions.")
    whole_alternatives: list[str] = field(default_factory=list)
    # words said beside what is asked: what the papers asked for do not do ("rather than ..."), the asker's preamble
    # ("Our lab is short on GPUs. Anything about ...?"); no answer need find them
    aside_terms: list[str] = field(default_factory=list)
    compared_count: int = 0  # "Two papers find that ...": how many papers the description is about
    asks_size: bool = False  # "Which contains more items, X or Y?": the counts each abstract states answer it
    compared_phrase: str = ""  # and the description: the sentence that counts them
    compared_noun: str = ""  # and what it counts them as, when not as papers: "benchmarks" of "Two of the new ..."
    asked_count: int = 0  # "Which two biomedical papers argue ...?": how many papers it asks for
    quoted: list[str] = field(default_factory=list)  # phrases it quotes: "... as a question of 'where to look'"
    asks_several: bool = False  # it asks for papers in the plural: "Which papers ...", not "Is there a paper ...?"
    no_experiments: bool = False  # it asks for the papers whose abstracts report no experiment ("theory only")
    asks_figures: bool = False  # it asks for the papers whose abstracts state measured figures ("actual numbers")
    asks_models_named: bool = False  # ... or name the models they use ("actually name the pretrained models")
    versus: bool = False  # it asks whether one named paper beats another: "Does VolumeProbe beat META-DINO?"

    @property
    def criterion(self) -> str:
        """What a listed paper must be about, as text: "diffusion models"."""
        return self.set_phrase or " ".join(self.criterion_terms or self.terms)

    @property
    def by_property(self) -> bool:
        """It asks for papers by a property of their abstracts, whose words may all be form words: "I need all
        papers that actually name the specific pretrained models they run their experiments on" had been the
        collection's overview."""
        return self.seeks_papers and self.asks_several and (self.no_experiments or self.asks_models_named)

    @property
    def counted_anew(self) -> bool:
        """ "Two abstracts frame their problem as 'where to look', but they mean ...": the count describes papers
        of its own, and "they" points at them, not at the conversation's ("Two of these papers ..." points back)."""
        return bool(self.compared_count) and not _OF_THE_LAST.search(self.compared_phrase)

    @property
    def describing_words(self) -> set[str]:
        """The words of the descriptions saying which paper is meant ("the bottleneck-role multi-agent RL paper"),
        lowercased: they pick the paper, so they are not what is asked of it."""
        return {w.lower() for phrase in self.described for w in words(phrase)}

    @property
    def asked_quotes(self) -> list[str]:
        """The quoted phrases that say what is asked about ("both use the idea of 'where to look'"), not which
        paper is meant ("the audio-visual 'who says what' paper")."""
        return [q for q in self.quoted if not any(q in d for d in self.described)]

    @property
    def topical_terms(self) -> list[str]:
        """The terms that name something to look up, not only a kind of sentence ("results", "code", "data"):
        without any, a question in a conversation asks about the conversation's papers."""
        return [t for t in self.terms if t.lower() not in ROLE_CUES]

    @property
    def topic_terms(self) -> list[str]:
        """The terms that could say what papers are about: those of a question asking about the collection
        ("What are the hot topics of this conference?") lose the words of that asking."""
        if not self.collection_wide:
            return self.terms
        return [t for t in self.terms if t.lower() not in COLLECTION_TALK]

    @property
    def about_its_set(self) -> bool:
        """Asks about the papers of the set it describes, not for them: "Tell me about the medical papers", not
        "Show me the diffusion model papers" nor "Which of the LLM papers ...?"."""
        return bool(self.set_phrase) and not self.wants_papers and not _LISTS_THE_SET.match(self.question)

    @property
    def pointed_back(self) -> list[str]:
        """The one paper a pronoun points back at when the question names none: "it" of "How does it compare to
        the other diffusion paper?", one of the two compared."""
        return list(self.carried) if self.points_back and len(self.carried) == 1 and not self.mentions else []

    @property
    def asks_made_now(self) -> bool:
        """Whether it asks for what is there now ("code already out", "right now"), so a promise does not count;
        not when it asks for promises too ("already out or just promised", "... or commit to releasing it")."""
        return bool(_NOW.search(self.question)) and not _OR_PROMISED.search(self.question)

    @property
    def asks_for_a_paper(self) -> bool:
        """Its wh-word asks for a paper: "Which paper is the most theoretical?". The evidence decides how many
        answer, as for "What work ...?" (it had been refused, three abstracts describing theory), and it is never
        the collection's overview ("Which paper has the strongest theoretical results?" had been one)."""
        return bool(_WHICH_PAPER.search(self.question))

    @property
    def roles_asked(self) -> set[Role]:
        """The sentence roles the question asks for by its words, a leading list verb and the words describing
        which paper is meant aside: "find" of "What did CoCHI find?", not "show" of "Show me the diffusion model
        papers" nor "datasets" of "the main contribution of the paper on curating DPO preference datasets"."""
        asking = self.question[listing.end():] if (listing := _LIST_VERB.match(self.question)) else self.question
        describing = self.describing_words
        return asked_roles(" ".join(w for w in words(asking) if w.lower() not in describing))

    @property
    def roles_asked_of_set(self) -> set[Role]:
        """The sentence roles asked of each paper of the set the question describes: "find" of "What do the
        diffusion papers find?", not "benchmark" of "the benchmark papers"."""
        if not self.set_phrase:
            return set()
        return self.roles_asked - asked_roles(self.set_phrase)

    @property
    def asked_terms(self) -> list[str]:
        """What the question asks of each member of a described set ("datasets" of "the vision papers")."""
        if not self.set_phrase:
            return []
        in_set = {w.lower() for w in words(self.set_phrase)}
        asked = [t for t in self.terms if t.lower() not in in_set]
        if not self.negated:
            return asked
        # negated, what the members lack is what each negation's phrase says, a list of items included ("Which papers
        # involve creatures other than humans, in their data or evaluation domains?": humans; it had set aside the
        # papers writing "data"; "with no images, video or audio anywhere": all three)
        lacked = {w.lower() for m in _NEGATED.finditer(self.question)
                  for w in words(_NEGATED_PHRASE_END.split(self.question[m.end():], maxsplit=1)[0])}
        return [t for t in asked if t.lower() in lacked] or asked


_AUTHORSHIP = re.compile(r"\bwho\s+(?:(?:really|actually|originally)\s+)?"
                         r"(?:wrote|authored|(?:is|are|was|were)\s+behind)\b", re.IGNORECASE)


def plan_question(question: str, papers: Sequence[Paper] | NameIndex, history: Sequence[Message] = (),
                  acronyms: Acronyms | None = None) -> QuestionPlan:
    """Read the question's names, terms and cues; suggest a kind.

    With the corpus's ``acronyms``, a label spelled out ("Dynamic Gated Pathways" for DGP) names its paper too.
    ``papers`` may come as the corpus's ``NameIndex``, built once (a large corpus needs it).
    """
    names = NameIndex.of(papers)
    question = names.as_papers(names.recased(_typos_mended(question)))
    # papers asked for, with or without "which" (see below); not when two papers are pointed at by description, as
    # names would point ("the paper on video LLMs that can't tell which way things move and the one on image
    # generators botching rare combos: ... what kind of fix actually works?" asks of those two)
    set_cue = bool(_SET_VALUED.search(question)) and len(described_parts(question, [], names)) < 2
    linked, by_use = _links(question, names, coined_only=set_cue, by_acronym=True)
    mentioned_only = list(linked) if by_use else []  # (a paper linked by a word its abstract uses)
    unnamed = _blanked_all(_COLLECTION, question)  # "this collection" points at nothing said
    spelled: dict[str, int] = {}  # where a long form naming a paper ends
    if acronyms:  # "Dynamic Gated Pathways" -> DGP; a label that is itself a long form still matches as written
        for pid, at in _linked(acronyms.shorten(question), names, coined_only=set_cue).items():
            if pid not in linked and (span := _spelled_out(question, names.by_id[pid].label, acronyms)):
                linked[pid], spelled[pid] = span
            linked.setdefault(pid, at)
    named = sorted(linked, key=lambda pid: linked[pid])
    excluded, question_kept = _excluded_names(question, linked, names, spelled)
    # papers asked for, with or without "which" ("LLM-centric papers ...; don't count ones that only say X"):
    # a set-aside clause sets papers aside; read as a negation, the list had been one paper's answer (probe29 a028)
    seeks_cue = bool(_SEEKS_PAPERS.search(question))
    asks_set = set_cue or seeks_cue and not linked
    set_aside, question_kept = _set_aside(question_kept, set_cue) if asks_set else ("", question_kept)
    if asks_set:
        question_kept = _blanked_all(_DISCLAIMER, question_kept)
    question_kept = _blanked_all(_ASKER_PERCEIVES, _blanked_all(_ASKER_HERE, question_kept))
    question_kept = _method_free(_NO_EXTRA.sub(_free_in_place, _SPACED_FREE.sub(_hyphened_free, question_kept)))
    question_kept = _blanked_all(_WAIVER_TAIL, question_kept)
    # Coined names the corpus holds are pointers, not content; one it lacks ("ToMeSD", "ImageNet") stays a term,
    # so an answer can say no abstract mentions it.
    # (in a question asking for papers, a name no paper is linked by is what they are asked to write: "Which papers
    # evaluate on CoastBench?")
    labels = [names.by_id[pid].label for pid in named] + list(mistyped_names(question, names)) + [
        t for t in name_tokens(question) if (holders := names.containing(t))
        and (not set_cue or set(holders) & set(linked))]
    # Not asked about either: the noun a question asks for ("Which submissions study pruning?") is the answer's.
    answer_nouns = [m.group(0).split()[-1] for m in _WANTS_PAPERS.finditer(question)]
    # (nor what the asker needs it for, "For my class I want ...": the criterion had been "class examples ...")
    unasked = (labels + answer_nouns + [m.group(1) for m in _COLLECTION_SIZE.finditer(question)]  # ("of the 19 papers")
               + [w for m in _PURPOSE.finditer(question) for w in words(f"{m.group(1)} {m.group(2) or ''}")]
               + [w for m in _EXPERIMENTS_ON.finditer(question) for w in words(m.group(1))]
               + [w for m in _ACCORDING_TO.finditer(question) for w in words(m.group(0))])
    named = [pid for pid in named if pid not in excluded]  # "Which papers besides DaTMe ...": asked of the others
    described = described_parts(question_kept, named, names)
    # (nor are the words pointing at papers, "them", "the second")
    dropped = unasked + referring_words(question)
    terms = content_terms(question_kept, drop=dropped)
    if _AUTHORSHIP.search(question):  # "Who wrote the cfDNA paper?" asks for its authors, a field abstracts lack
        terms = ["authors", *(t for t in terms if t.lower() not in ("wrote", "authored", "behind"))]
    count, noun = listed_count(question)
    noun = noun or next(iter(counted_nouns(question)), "")  # (the first "how many" noun)
    plan = QuestionPlan(
        question=question, kind="fact", query=question, terms=terms, targets=named, described=described,
        beside_named=_beside_a_name(question_kept, described, named, names),
        ambiguous={pid: holders for pid in named if (holders := _ambiguous(pid, question, names))},
        mentioned_only=[pid for pid in mentioned_only if pid in named],
        set_valued=set_cue and not named,
        negated=bool(_NEGATED.search(_CIRCUMSTANCE.sub(" ", _OTHER_CAUSE.sub(" ", _WAIVED.sub(
            " ", _CORRECTION.sub(" ", _set_sentence(question_kept))))))),
        alternatives=_alternatives_of(question_kept, dropped),
        carried=conversation_papers(history, names, _set_needed(question))
        if history and (not named or _points_back_first(unnamed, linked)) else [],
        excluded_phrase=exclusion_phrase(question), expects=expected_answer(question), count=count, count_noun=noun,
        clauses=asked_clauses(question, pointers(question)),
        refers=bool(_REFERENCE.search(unnamed)),
        points_back=bool(_PRONOUN.search(unnamed)),
        selects=bool(_SELECTING.search(question)),
        collection_wide=bool(_COLLECTION_WIDE.search(question)),
        asks_size=bool(_SIZE_ASKED.search(question)),
        wants_papers=bool(answer_nouns),
        of_a_set=bool(_DEFINITE_SET.search(question)) and not named,
        seeks_papers=seeks_cue and not named,
        contributed=contributed_phrase(question),
        similar=bool(_LIKE_REQUEST.search(question) or _RELATED.search(question)
                     and (answer_nouns or _ASKING_ELSE.search(question))),
        mentions=len({at for pid, at in linked.items() if pid not in excluded}),  # (not the names set aside)
        quoted=quoted_phrases(question),
        asks_several=bool(_SEVERAL.search(question)),
        no_experiments=bool(_NO_EXPERIMENTS.search(_method_free(question))),
        asks_figures=bool(_ASKS_FIGURES.search(question)),
        asks_models_named=bool(_ASKS_MODELS_NAMED.search(question)),
        versus=_one_beats_another(question, [linked[pid] for pid in named]),
    )
    if not named:
        plan.compared_count, plan.compared_phrase, plan.compared_noun = described_count(question)
        plan.asked_count = asked_count(question)
    if plan.asked_count and plan.expects == "enumeration":  # a number of papers, not of items a paper names
        plan.expects, plan.count, plan.count_noun = "any", None, ""
    if plan.carried and _ANOTHER.search(question):  # "Does another paper here study ...?"
        plan.carried, plan.avoided = [], plan.carried
    plan.avoided += excluded
    plan.set_aside = alternatives(set_aside, unasked) if plan.set_valued or plan.seeks_papers else []
    if plan.carried:  # "the second one" points at a paper of the conversation: "second" is not asked about
        ordinals = {m.group(1).lower() for m in _ORDINAL_REF.finditer(question)}
        plan.terms = [t for t in plan.terms if t.lower() not in ordinals]
    if plan.carried and named:  # "How does it compare to RISE?": the conversation's paper beside the named one
        earlier = [pid for pid in narrow_carried(question, plan.carried) if pid not in named]
        earlier = earlier[:1] if _SINGULAR_POINTER.search(question) else earlier  # (a comparison takes the first few)
        plan.targets, plan.mentions = earlier + plan.targets, plan.mentions + len(earlier)
        plan.followup = bool(earlier)
    if len(plan.carried) > 1 and _OF_THESE_PAPERS.search(question):  # after a list, "these papers" are its papers
        plan.points_back = True
    plan.continues = bool(plan.carried and not plan.topical_terms
                          and (plan.refers or not _COLLECTION_WIDE.search(question)))
    if _ELLIPSIS.match(question) and not named and _asked_for_papers(history):
        plan.set_valued = True  # "What about diffusion models?" after a "which papers" question asks the same of it
    if plan.negated and plan.selects and plan.of_a_set and not named and not plan.carried:
        # "Of the papers that put out a benchmark, which one does not involve language models?" selects within a set
        # as "which ones" does; read as one paper's fact, the answer had been the 12 papers about neither
        plan.set_valued = True
    # (the set the asking sentence names: "Identifiability keeps coming up in the theory submissions. Which abstracts
    # make identifiability a central result?" asks of every abstract, and had listed the theory papers, probe95 qm006)
    plan.set_phrase = set_phrase(_asking_sentence(question)[0] or question) if plan.set_valued else ""
    if not plan.set_valued and not named and not _YES_NO.match(question) \
            and (described_set := set_phrase(question, _PAPER_SET)):
        # asks about a set of papers it describes ("Tell me about the medical papers", "the main contribution of each
        # LLM paper"), not for them: the set's papers answer it, compared when few (Gatherer.gather). "Did the genomic
        # papers apply differential privacy?" asks whether, which the fact answer or "not stated" says.
        plan.set_phrase, plan.of_a_set = described_set, True
    if described:
        plan.described_among = _described_among(question, described)
    asking, plan.said_before, preamble = _asking_sentence(question_kept) \
        if plan.set_valued and not plan.set_phrase and not plan.negated else ("", False, "")
    if plan.seeks_papers and not plan.set_valued and not plan.set_phrase and not plan.negated:
        plan.aside_terms = _asker_preamble_terms(question_kept, dropped)
    if asking and (own := content_terms(asking, drop=dropped)):
        plan.whole_alternatives = [] if plan.said_before else plan.alternatives
        plan.criterion_terms, plan.alternatives = own, _alternatives_of(asking, unasked)
        plan.contributed = contributed_phrase(asking)  # (not the preamble's "the way we'd assemble a task battery")
        plan.aside_terms = [t for t in terms if t not in own]
        plan.alternatives = _named_before(content_terms(preamble, drop=dropped), own) + plan.alternatives
        # ("I'm trying to separate the math-heavy work from the benchmark-chasing. Which papers ...?": the
        # preamble describes kinds of work, and "the math-heavy work" had made the list one paper's answer)
        plan.described = [d for d in plan.described if d in asking]
    contrasted = _CONTRAST.sub("", asking or question_kept)  # "... rather than only experiments": not the criterion
    if (plan.set_valued or plan.seeks_papers) and contrasted != (asking or question_kept) \
            and (own := content_terms(contrasted, drop=dropped)):
        plan.criterion_terms, plan.alternatives = own, _alternatives_of(contrasted, unasked)
        plan.contributed = contributed_phrase(contrasted)  # ("instead of proposing a new model": not contributed)
        contrast = " ".join(m.group(0) for m in _CONTRAST.finditer(question_kept))
        plan.aside_terms += [t for t in content_terms(contrast) if t not in own]
        if not plan.whole_alternatives and (conceded := _CONCEDED.search(asking or question_kept)):
            plan.whole_alternatives = alternatives(conceded.group(1), unasked)  # (read when the rest matches none)
    if plan.set_valued and plan.negated and not plan.set_phrase:
        plan.set_phrase = _negated_set(question)
    if plan.set_phrase:
        plan.alternatives = alternatives(plan.set_phrase, unasked)
    if plan.set_valued and not plan.negated and not plan.set_phrase:
        plan.conjuncts = conjuncts(question, unasked)
    if (plan.set_valued or plan.seeks_papers) and not plan.negated and not plan.set_phrase:
        counted, uncounted = _counted_too(question_kept)  # (also of "Who uses RL? And I'd count RLHF too.")
        plan.alternatives += [a for text in counted for a in alternatives(text, unasked) if a not in plan.alternatives]
        plan.set_aside += [a for text in uncounted for a in alternatives(text, unasked)]
    plan.kind = suggested_kind(plan)
    return plan


def _alternatives_of(text: str, unasked: Sequence[str]) -> list[str]:
    """The alternatives of the criterion a text states in its first clause."""
    return alternatives((clauses(text) or [text])[0], unasked)


def _asking_sentence(question: str) -> tuple[str, bool, str]:
    """The sentence asking for the set, when the question has others: "I'm reviewing for a workshop on ML for
    healthcare. Which papers have a medical or clinical application?" -> its second sentence. The preamble had
    joined the criterion ("reviewing workshop ML healthcare medical clinical application"), and the list held one
    of the four medical papers. A colon ends a preamble too ("Quick check before I go hunting on GitHub: which
    abstracts say code is released?"); one after the asking ("Which papers contribute theory: proofs, bounds
    ...?") details it. Empty for a question of one sentence ("i.e." and "e.g." end none). With it, whether the
    asking points back at the sentences before it, and so is all of them, and the preamble before it (none when it
    points back)."""
    sentences = [part for s in question_sentences(question) for part in _after_preamble(s)]
    asking = [s for s in sentences if _SET_VALUED.search(s)] or _asked_alone(sentences)
    if len(sentences) < 2 or not asking:
        return "", False, ""
    # one pointing back, "Is there a paper that explains this?", asks about the sentences before it: all of them,
    # read as one, since the dash of "lower bounds pop up - which abstracts derive one?" restates nothing
    # (of several, the first that is a question: "any work introducing a new benchmark or dataset? need the ones
    # that actually build eval data" asks the first and restates it, and the restatement alone had listed six papers)
    asked = asking[0] if len(asking) > 1 and asking[0].rstrip().endswith("?") else asking[-1]
    at = sentences.index(asked)
    # (the first sentence has nothing before it to point at; what the papers need not be, "even if it comes bundled
    # with a method", points at nothing said)
    if at and _points_back(_CONTRAST.sub("", asked)):
        return " ".join(sentences), True, ""
    preamble = " ".join(sentences[:at])
    after = sentences[at + 1:]
    if after and (items := _listed_items(after[0])):  # ("Which lean on theory? Proofs, bounds, that kind of
        return f"{asked.rstrip(' ?.!')} - {items}", False, preamble  # thing.": its examples)
    return asked, False, preamble


def _typos_mended(question: str) -> str:
    """The question with the function words typed transposed written right: "CoCHI and teh paper on rare
    attribute-object compositions" had compared one paper, "teh paper on ..." being no description (probe58 pz019,
    probe71 pl027)."""
    return _TYPO.sub(lambda m: _TYPOS[m.group(0).lower()], question)


# Function words (and "papers") as commonly mistyped by a transposition or a dropped letter; no abstract or question
# means them
_TYPOS = {"teh": "the", "hte": "the", "adn": "and", "taht": "that", "waht": "what", "wich": "which",
          "whcih": "which", "papres": "papers"}
_TYPO = re.compile(rf"\b(?:{'|'.join(_TYPOS)})\b", re.IGNORECASE)


def _asker_preamble_terms(question: str, dropped: Sequence[str]) -> list[str]:
    """The words of a preamble in which the asker speaks of themselves, before a question seeking a paper: "I like
    a Monte Carlo before the empirical application. Is there work that ...?" (probe152 tl012) does not ask the paper
    to write "Monte Carlo", which had been said missing. They still find the paper: a first-person preamble may
    describe it ("We have a retrieve-then-answer pipeline ... Is there a paper that ...?", probe91 qi015)."""
    sentences = question_sentences(question)
    asked = _asked_alone(sentences)
    preamble = sentences[:sentences.index(asked[0])] if asked else []
    if not preamble or not all(_FIRST_PERSON.search(s) for s in preamble):
        return []
    own = {t.lower() for t in content_terms(asked[0], drop=dropped)}
    return [t for t in content_terms(" ".join(preamble), drop=dropped) if t.lower() not in own]


def _asked_alone(sentences: Sequence[str]) -> list[str]:
    """With no sentence cueing a set, the question's one sentence ending in "?" (``_set_sentence`` reads it too):
    "Any work that treats identifiability ... as a central object of study? I'm collecting these for a reading
    group, so be strict ..." had taken "collecting reading group" and "strict" for criteria (probe115 rh005)."""
    asked = [s for s in sentences if s.rstrip().endswith("?")]
    return asked if len(asked) == 1 else []


def _named_before(preamble: Sequence[str], own: Sequence[str]) -> list[str]:
    """The preamble's word for what the asking sentence restates in another form of it: "Identifiability seems to be a
    buzzword this year. Which of these abstracts grapple with whether something can be identified from the data?"
    asks for identifiability, and "grapple whether identified data" alone had cleared no paper (probe106 qy007,
    probe105 qx004; eight lists of the tuning sets gained, two lost). A word the asking writes as is already its
    criterion's; a generic one ("modelling" beside "diffusion models", "limits" beside "limit") names no topic, and
    had widened four lists. Only the words before the asking: a sentence after it sets papers aside or adds to
    them ("Image generation doesn't count.")."""
    forms = {t.lower() for t in own}
    stems = {stem(t.lower()) for t in own} - GENERIC_STEMS
    return list(dict.fromkeys(t for t in preamble if t.lower() not in forms and stem(t.lower()) in stems))[:1]


def _listed_items(sentence: str) -> str:
    """The items of a sentence that only lists short ones, as "A, B, or C": "Proofs, bounds, identifiability results,
    that kind of thing." and "Count LLMs, multimodal LLMs and LLM agents." give examples of the criterion asked
    before them, and had been left out of the list's alternatives (probe84 qb006, probe89 qg011); "" for any other
    sentence, or one of the asker's own, or one asking for papers itself (a restatement, whose "the theory-heavy
    ones" had become the set the papers were chosen from, and no paper matched it)."""
    text = _tail_as_or(sentence.strip(" .!?"))
    counting = _COUNTING_IN.match(text)  # (after "Count ...", "and" joins items too; else it may join a clause's)
    separator = rf"{_EXAMPLE_SEPARATOR.pattern}|\s+and\s+" if counting else _EXAMPLE_SEPARATOR.pattern
    items = [item.strip() for item in re.split(separator, text[counting.end():] if counting else text,
                                               flags=re.IGNORECASE) if item and item.strip()]
    listed = len(items) >= 2 and all(0 < len(content_terms(item)) <= LIST_ITEM_TERMS and not _YES_NO.match(item)
                                     for item in items) and not _FIRST_PERSON.search(text) \
        and not _SET_VALUED.search(text)  # ("Want the theory-heavy ones w/ hard limits." restates what is asked)
    return f"{', '.join(items[:-1])}, or {items[-1]}" if listed else ""


# The asker speaking of themselves: "I'm collecting these for a reading group, so be strict ..." lists nothing (its
# clauses had become the criteria "collecting reading group" and "strict", probe115 rh005)
# (a capital "I" alone: "i.e." opens no such sentence)
_FIRST_PERSON = re.compile(r"\b(?:(?-i:I)|I['\u2019](?:m|d|ve|ll)|me|my|we|we['\u2019](?:re|d|ve|ll)|our|us)\b",
                           re.IGNORECASE)


_COUNTING_IN = re.compile(r"^(?:count|counting|include|including|incl\.?)\s+", re.IGNORECASE)


def _tail_as_or(text: str) -> str:
    """ "A, B, C, that kind of thing" -> "A, B, or C": the list's alternatives, as an "or" would join them."""
    return _LIST_TAIL.sub(lambda m: f", or{m.group(1)[1:]}", text)


def _points_back(asking: str) -> bool:
    """Whether a sentence asking for papers points at the sentences before it ("Is there a paper that explains
    this?", "Which ones do that?"). "these papers" is the collection, and a pronoun after the papers asked for is
    theirs ("which papers say their code is shared?")."""
    # (the asked noun is found before "these papers" is blanked: blanked first, "Which of these papers say their
    # code ...?" had hidden "papers", and "their" looked like pointing back)
    # ("which of these studies ...": the collection, pointing at nothing said; nor does a list's tail: "birds,
    # wildlife, animal movement, anything like that?", probe140 sg004)
    text = _OF_THESE_SET.sub(" ", _tail_as_or(asking))
    # (opening the sentence, "which of these involve animals?" asks of the collection, probe98 qp012; "..., and which
    # of those also combine ...?" of the papers just asked for)
    text = _WHICH_OF_THESE.sub(r"\1", text)
    if noun := _ASKED_SET_NOUN.search(text):
        after = text[noun.end():]
        if _STANDS_FOR_SAID.search(after) and len(content_terms(after)) <= MAX_POINTING_TERMS:
            return True
        # ("Which ones contain a real theoretical result ...?": the papers asked for, with a criterion of their own;
        # "Which ones?" alone asks for those said before)
        asked = noun.group() if noun.group().lower() != "ones" or not content_terms(after) else ""
        text = text[:noun.start()] + asked + _PERSONAL_PRONOUN.sub("", after)
    return bool(_POINTING_BACK.search(_COLLECTION.sub("", text)) or _FITS_WHAT_WAS_SAID.match(asking))


def _after_preamble(sentence: str) -> list[str]:
    """The sentence as a preamble and what follows its colon, when the asking comes after the colon."""
    parts = _PREAMBLE_COLON.split(sentence)
    asking = [i for i, part in enumerate(parts) if _SET_VALUED.search(part)]
    return [": ".join(parts[:asking[-1]]), ": ".join(parts[asking[-1]:])] if asking and asking[-1] > 0 else [sentence]


_PREAMBLE_COLON = re.compile(r":\s+|\s+[-\u2013\u2014]\s+")  # (a spaced dash too: "... animals - which ...")
_OF_THE_LAST = re.compile(r"\b(?:of|among)\s+(?:them|these|those)\b", re.IGNORECASE)
# (or one paper of every: "Show me every paper ... that sells its method as training-free": "its" is the paper's)
_ASKED_SET_NOUN = re.compile(rf"\b(?:{_SET_NOUN}|(?:every|each|any)\s+{_PAPER_NOUN})\b", re.IGNORECASE)
_OF_THESE_SET = re.compile(rf"\b(?:of|among)\s+(?:these|those)\s+(?=(?:[\w-]+\s+){{0,2}}?{_SET_NOUN}\b)", re.IGNORECASE)
# (after an auxiliary too: "Do any of these prove a lower bound ...?" asks of the collection, probe135 sb004)
_WHICH_OF_THESE = re.compile(rf"^\W*(?:{_AUXILIARY}\s+)?(which|any|how\s+many)\s+(?:of|among)\s+(?:these|those)\b",
                             re.IGNORECASE)
_PERSONAL_PRONOUN = re.compile(r"\b(?:it|its|they|them|their)\b", re.IGNORECASE)
# "Which abstracts derive one?", "which papers bring it up?", "study them": a pronoun standing for what was said
# before, when beside it the asking says too little to be a criterion (MAX_POINTING_TERMS words); "Which papers say
# their code is available, or promise to release it?" says its own: without the bound, 3 of the 5 tuning lists the
# pronoun changed were of that kind and fell, with it none (chosen, not searched: one verb beside the pronoun)
# ("Diffusion models. Which papers deal with them directly?": "them" as an object is what was said, probe141 sh004)
_STANDS_FOR_SAID = re.compile(r"\bit\b|\bthem\b|\bone\W*$", re.IGNORECASE)
MAX_POINTING_TERMS = 1
_POINTING_BACK = re.compile(r"\b(?:this|these|those|such(?!\s+as\b)|it|its|they|them|their|ones)\b"
                            r"|\bthat(?:\s+[a-z]+)?\W*$", re.IGNORECASE)  # ("... follow that recipe?", "do that?")
# An asking sentence that only says the papers fit what was said before: "I want everything involving reinforcement
# learning, RLHF included. Which papers qualify?" had been read as papers about "qualify" (none).
_FITS_WHAT_WAS_SAID = re.compile(rf"\W*(?:so\s+)?(?:which|what)\s+(?:of\s+the\s+)?(?:[\w-]+\s+)?{_SET_NOUN}\s+"
                                 r"(?:(?:would|do|does|might)\s+)?(?:qualify|fit|count|match|belong|apply"
                                 r"|fit\s+the\s+bill|make\s+the\s+cut)\W*$", re.IGNORECASE)


def _points_back_first(unnamed: str, linked: Mapping[str, int]) -> bool:
    """Does the question (``unnamed``: its collection phrases blanked, positions kept) point at the conversation by
    a pronoun before it names a paper ("How does it compare to RISE?")? A pronoun after the name mostly refers to
    that name ("What does RISE say about its baselines?"), and "the paper", "the authors" before one mostly lead
    up to it ("the authors of CoCHI")."""
    pointer = _PRONOUN.search(unnamed)
    return bool(pointer and linked and pointer.start() < min(linked.values()))


_ANOTHER = re.compile(r"(?<!\bthe\s)\b(?:another|other|a\s+different)\s+(?:paper|work|study|article|abstract|one)s?\b"
                      r"|\b(?:paper|work|study|article|abstract)s?\s+other\s+than\s+(?:this|that|these|those|it|them)\b",
                      re.IGNORECASE)
# A period ending an abbreviation ends no sentence: "not backed by experiments, i.e. pure theory".
_ABBREVIATED = ("i.e", "e.g", "vs", "cf", "incl", "approx")
_SENTENCE_END = re.compile("".join(rf"(?<!\b{re.escape(a)})" for a in _ABBREVIATED) + r"[.?!](?:\s+|$)|\s*[()]",
                           re.IGNORECASE)


def _spelled_out(question: str, label: str, acronyms: Acronyms) -> tuple[int, int] | None:
    """Where the question spells out a paper's acronym label ("the Dynamic Gated Pathways paper" for DGP)."""
    long = acronyms.long_of.get(label.lower())
    found = re.search(re.escape(long), question, re.IGNORECASE) if long else None
    return found.span() if found else None


def _excluded_names(question: str, linked: dict[str, int], names: NameIndex, spelled: Mapping[str, int]
                    ) -> tuple[list[str], str]:
    """The named papers the question sets aside ("Which papers besides DaTMe study diffusion?"), and the question
    without those phrases: the name is no paper asked about, and "other than DaTMe" negates no criterion. It
    had been read as a question about DaTMe and answered from DaTMe alone. ``spelled``: where a name spelled out
    ends ("Besides the Dynamic Gated Pathways paper": all three words, not "Gated Pathways" left as a description).
    A paper named before "apart from that one" or "besides it" is set aside too, its naming taken out as well
    ("I already have the DGP paper. Apart from that one, who else ...": "the DGP paper" describes none asked about)."""
    excluded, kept = [], question
    end = -1  # where the last name set aside ends: "besides DaTMe and DGP" sets both aside
    for pid, at in sorted(linked.items(), key=lambda item: item[1]):
        before = _SETTING_ASIDE.search(question[:at])
        joined = end >= 0 and _NAMES_JOINED.fullmatch(question[end:at])
        if before or joined:
            excluded.append(pid)
            start = before.start() if before else end
            end = _name_end(question, at, names.by_id[pid].label, spelled.get(pid))
            kept = _blanked(kept, start, end)
        else:
            end = -1
    for match in _ASIDE_REFERRING.finditer(question):
        earlier = [pid for pid, at in linked.items() if at < match.start() and pid not in excluded]
        for pid in earlier:
            at = linked[pid]
            kept = _blanked(kept, at, _name_end(question, at, names.by_id[pid].label, spelled.get(pid)))
        excluded += earlier
        kept = _blanked(kept, match.start(), match.end()) if earlier else kept
    return excluded, kept


def _name_end(question: str, at: int, label: str, spelled_end: int | None) -> int:
    """Where the naming of a paper that starts at ``at`` ends: its label, spelled-out long form or coined name,
    with a following "paper", "work", "study" or "abstract"."""
    if spelled_end is not None:
        return spelled_end
    name = re.match(r"[\w&+.'-]+(?:\s+(?:paper|work|study|abstract)\b)?", question[at:])
    return at + (len(label) if question.startswith(label, at) else len(name.group(0)) if name else 0)


def _counted_too(question: str) -> tuple[list[str], list[str]]:
    """What a sentence beside the asking adds to a list's criterion ("Which papers use RL? Count RLHF-style
    preference tuning too.", "... counting RLHF and preference tuning too") and what it sets aside ("A project web
    page on its own doesn't count.")."""
    counted, uncounted = [], []
    for text in (s.strip("() ") for s in question_sentences(question)):
        if text.endswith("?"):  # (the asking itself: "Which papers report a token count?")
            continue
        if match := _DOES_NOT_COUNT.match(text):
            uncounted.append(match.group("what"))
        elif match := _COUNTS_TOO.match(text):
            # (what "I mean" says counts when it lists items, each one: "clinical data, scans, or biobank records";
            # a clause restating the asking, "I mean a formal limit on what is achievable", had listed look-alikes)
            said = match.group("what") or match.group("also") or match.group("as") or _listed_items(match.group("mean"))
            counted += [said] if said else []
    return counted, uncounted


# (the break after a sentence, its mark kept: the asking is known by its "?")
_SENTENCE_BREAK = re.compile(r"(?<=[?.!])" + "".join(rf"(?<!\b{re.escape(a)}\.)" for a in _ABBREVIATED) + r"\s+",
                             re.IGNORECASE)


def question_sentences(question: str) -> list[str]:
    """A question's sentences, one typed in lower case too: "we r starting an animal behaviour collab. which of
    these involve animals?" asks in its second (an abstract's sentence opens with a capital, a quick question's
    often not: the preamble had joined the criterion, probe98 qp012), "anything on RL? counting RLHF too" adds to it.
    """
    return [part for s in split_sentences(question) for part in _SENTENCE_BREAK.split(s.text) if part.strip()]


# (said of the asker, "I'd count RLHF-style preference tuning too, not just classic RL.", probe106 qy006)
_COUNTS_TOO = re.compile(r"(?:and\s+)?(?:(?:I|we)(?:['\u2019]d|\s+would)\s+)?(?:also\s+)?"
                         r"(?:count(?:ing)?|includ(?:e|ing))\s+"
                         # (a reason after it: "..., since my professor says DPO is basically RL")
                         r"(?P<what>.+?)\s+(?:too|as\s+well)(?:,\s+(?:not\s+(?:just|only)|since|because|as)\s+[^?]+)?\W*$"
                         # ("RLHF counts.", "RLHF also counts"; not "The survey counts.", which does the counting)
                         r"|(?!(?:the|this|that|these|those|its|their|a|an)\b)(?P<also>.+?)\s+(?:also\s+)?counts?"
                         r"(?:\s+(?:too|as\s+well))?\W*$"
                         # ("For this purpose I count preference-based fine-tuning ... as reinforcement learning.")
                         r"|(?:[^,]+,?\s+)?(?:I|we)\s+(?:also\s+)?count\s+(?P<as>.+?)\s+as\s+[^?]+$"
                         # ("Anything that uses patient material? I mean clinical data, scans, biobank records, not
                         # just a passing mention of healthcare.": what the asking means, said again, probe150 ti001)
                         r"|(?:I|we)\s+mean\s+(?P<mean>[^?]+?)(?:,?\s+(?:and\s+|but\s+)?not\s+(?:just|only|merely)\b[^?]*)?"
                         r"\W*$", re.IGNORECASE)
_DOES_NOT_COUNT = re.compile(r"(?P<what>.+?)\s+(?:on\s+(?:its|their)\s+own\s+|alone\s+)?(?:does|do)(?:n't|\s+not)"
                             r"\s+count\W*$", re.IGNORECASE)


def _set_aside(question: str, plural: bool) -> tuple[str, str]:
    """The papers a question sets aside by description ("Other than the ones built around language models, which
    papers are about pictures?" -> "language models"), and the question without that clause: it had negated the
    whole question, and the list was every paper not about language models or pictures. "but not ..." sets papers
    aside only when papers are asked for in the plural: describing one ("blood tests that work for tumors but not
    for organ scarring. Which paper?") it contrasts."""
    match = _SET_ASIDE_CLAUSE.search(question) or (_BUT_NOT.search(question) if plural else None)
    if not match:
        return "", question
    kept = _blanked(question, match.start(), match.end())
    if match.group(0)[:1] != ",":  # the clause opened a sentence, which now starts at the next word
        end = len(kept) - len(kept[match.end():].lstrip())
        kept = kept[:end] + kept[end:end + 1].upper() + kept[end + 1:]
    return match.group("what"), kept


def _blanked(text: str, start: int, end: int) -> str:
    """The text with a span taken out as spaces, so positions found in it still point into the question."""
    return text[:start] + " " * (end - start) + text[end:]


def _blanked_all(pattern: re.Pattern[str], text: str) -> str:
    """The text with every match of a pattern taken out as spaces (positions kept, as ``_blanked``)."""
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


# Words setting papers aside: "other than DaTMe", "apart from the ones on LLMs".
_ASIDE = (r"(?:other\s+than|besides|beside|apart\s+from|aside\s+from|except(?:\s+for)?|excluding|not\s+counting"
          r"|(?:setting|leaving|putting)\s+aside|leaving\s+out|not\s+including|do(?:\s+not|n['\u2019]t)\s+count)")
# (at the start of a sentence or after a comma, semicolon or dash: "... work. Setting aside the paper on X, which ...",
# "LLM-centric papers; don't count ones that only say 'transformers'", to a comma or the end, with or without "?")
_SET_ASIDE_CLAUSE = re.compile(rf"(?:^|[,;]|(?<=[.?!\u2013\u2014]))\s*{_ASIDE}\s+(?:the\s+)?"
                               r"(?:ones?|papers?|works?|studies|abstracts)?\s*(?:(?:that|which)\s+(?:are|is)\s+)?"
                               r"(?:built\s+)?(?:around|on|about|using|with)?\s*(?P<what>[^,;:?.!]+?)\s*(?:,|(?=[?.!]?\s*$))",
                               re.IGNORECASE)
# ... or after "but not": "Which papers use medical or health data but not medical imaging?" (the whole had been one
# criterion, and the imaging papers were listed, probe79 pu011)
_BUT_NOT = re.compile(r",?\s+but\s+not\s+(?:(?:the\s+)?ones?\s+)?(?:(?:on|about|using|with)\s+)?"
                      r"(?P<what>[^,;:?.!]+?)\s*(?=[,;:?.!]|$)", re.IGNORECASE)
# ... just before a set's description: "not counting the ones on kelp"
# (and a set counted in beside it is no set asked about either: "LLMs, also counting the multimodal ones" had listed
# only the two papers writing "multimodal", probe76 pr009)
_SET_ASIDE_BEFORE = re.compile(rf"\b(?:{_ASIDE}|not|counting|including)\s+$", re.IGNORECASE)
# ... or by pointing back at a paper named before: "Apart from that one", "Besides it".
_ASIDE_REFERRING = re.compile(rf"\b{_ASIDE}\s+(?:(?:that|this)\s+(?:one|paper|work|study|abstract)|it|them)\b",
                              re.IGNORECASE)
# ... names joined to one set aside: "besides DaTMe and DGP", "other than CoCHI, RISE or Who&When Pro".
_NAMES_JOINED = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+)(?:the\s+)?", re.IGNORECASE)
# ... a named paper, right before its name ("other than (the) DaTMe (paper)").
_SETTING_ASIDE = re.compile(rf"\b(?:{_ASIDE}|beyond)\s+(?:the\s+)?$", re.IGNORECASE)


def _set_sentence(question: str) -> str:
    """The sentence that asks for the set: a negation elsewhere ("(Video-only work doesn't count.)")
    qualifies the set, it does not ask for its complement. Asked with no "which ... papers" ("Papers where several
    agents are trained with RL? Single-agent stuff I don't need.", "Multi-agent setups trained with RL - anything?
    Single-agent RLHF doesn't count."), it is the question's one sentence ending in "?": read whole, both had been
    negated, and answered with one paper (probe105 qx009, probe108 ra007)."""
    cue = next(reversed(list(_SET_VALUED.finditer(question))), None)  # the last: "Among the papers on X (...), which"
    if not cue:
        return next(iter(_asked_alone(question_sentences(question))), question)
    starts = [0] + [m.end() for m in _SENTENCE_END.finditer(question) if m.end() <= cue.start()]
    end = next((m.start() for m in _SENTENCE_END.finditer(question, cue.end())), len(question))
    return question[starts[-1]:end]


# What a negated list says its papers are instead: ", just theory", ", i.e. pure theory with no results",
# ", presenting purely theoretical contributions" (up to what it says they lack), unless that too is negated
# (", i.e. no empirical results reported").
_ONLY_INSTEAD = re.compile(r"(?:[,;]|\s[\u2013\u2014-])\s*(?:(?:i\.\s?e\.|that\s+is|namely)\s*,?\s*"
                           r"(?![\s,]|(?:no|not|none|without)\b)(?:\w+ing\s+)?"
                           r"(?:(?:just|only|purely|merely)\s+)?|(?:\w+ing\s+)?(?:just|only|purely|merely)\s+)"
                           r"([^,;:?!()]+?)(?=\s+(?:with\s+no|without|and\s+no)\b|[,;:?.!()]|$)", re.IGNORECASE)


# (a comma before a word of the list goes on: ", video or audio"; before a function word it ends: ", in their data")
_NEGATED_PHRASE_END = re.compile(rf"[;:?!()]|,\s*(?=(?!(?:and|or)\b)(?:{'|'.join(sorted(STOPWORDS))})\b)",
                                 re.IGNORECASE)


def _negated_set(question: str) -> str:
    """"Which health-related papers don't use images?" -> "health": what a negated list question says of
    its papers before the negation is the set the negation is taken within, or what it says they are instead
    after it (", just theory"). Nothing there ("Which papers are not about LLMs?") leaves the whole collection,
    and the list is its complement."""
    sentence = _set_sentence(question)
    negation = _NEGATED.search(sentence)
    if not negation:
        return ""
    if before := _phrase_terms(sentence[:negation.start()]):
        return before
    # ("Which ones don't report any experiments at all, just theory?": what they are instead is the set)
    instead = _ONLY_INSTEAD.search(sentence, negation.end())
    return _phrase_terms(instead.group(1)) if instead else ""


def set_phrase(question: str, phrases: re.Pattern[str] = _SET_PHRASE) -> str:
    """"across the vision papers" -> "vision", "among the papers on robotics, ..." -> "robotics";
    pointers like "these two papers" and the collection's size ("the 19 papers") are not a set description."""
    for match in [*phrases.finditer(question), *_SET_ON.finditer(question)]:
        if _SET_ASIDE_BEFORE.search(question, 0, match.start()):
            continue  # ("Other than the papers about LLMs, which ...": a set aside, not the set asked about)
        phrase = match.group(1) or match.group(2)
        if content_terms(phrase) and not all(w.lower() in _REFERENCE_WORDS or w.isdigit() for w in phrase.split()):
            return _phrase_terms(phrase)
    return ""


def _described_among(question: str, described: Sequence[str]) -> str:
    """The set a question's described papers are of: "Compare the two papers on text-to-image diffusion: the one
    that speeds up generation ... and the one that studies failures on rare attribute-object combinations" (alone,
    "failures on rare ..." had found the failure-attribution paper, not the diffusion one)."""
    if compared := _COMPARED_ON.search(question):
        return " ".join(content_terms(compared.group(1)))
    phrase = set_phrase(question) or _counted_head(question)
    own = {t.lower() for t in content_terms(phrase)}
    if any(own <= {t.lower() for t in content_terms(part)} for part in described):
        return ""  # "the metadata-guided adaptation and the 3D medical crop-selection pretraining papers": the
        # set named is the last description itself, and had sent both descriptions to the crop-selection paper
    return phrase


def _phrase_terms(phrase: str) -> str:
    """A set description's content words, a slash kept between two of them: "the health/medicine-related
    papers" -> "health/medicine", either of which, as alternatives read a slash ("health medicine" had matched
    one paper)."""
    return "/".join(" ".join(terms) for side in _SLASH.split(phrase) if (terms := content_terms(side)))



# The roles a question about one paper can ask for instead of its gist: its results, its data, its problem. Asked
# alone ("What did CoCHI find?", "What data does V33DA use?"), they are a fact answer about the paper, not its
# summary (contribution, then main result), which had answered "What did CoCHI find?" with what CoCHI is.
PART_ROLES: frozenset[Role] = frozenset(["result", "data", "problem"])


def asks_gist(plan: QuestionPlan) -> bool:
    """Whether a question about a paper asks for its gist (a summary): nothing asked of it but the paper itself,
    nor one of its parts ("What did CoCHI find?" asks for its results: a fact answer, result sentences first)."""
    return not subject_terms(plan) and plan.expects == "any" and not plan.roles_asked & PART_ROLES


def suggested_kind(plan: QuestionPlan) -> Kind:
    """The answer shape the wording suggests; the assistant may change it from evidence."""
    pointed = len(plan.targets) + len(plan.described)
    if plan.mentions + len(plan.pointed_back) + len(plan.described) >= 2 or plan.compared_count:
        return "compare"
    if pointed == 1 and asks_gist(plan):
        return "summary"
    if not pointed and not plan.topic_terms and not plan.continues and words(plan.question) \
            and not plan.by_property:
        return "overview"  # (a question in a script we can't read has no words at all: not an overview)
    if (plan.set_valued or plan.by_property) and not pointed:
        return "list"  # ("Theory-only papers: the ones that don't report any experiments")
    return "fact"


def quoted_phrases(question: str) -> list[str]:
    """The phrases of several words a question quotes ("frame their problem as 'where to look'"): the words
    the papers use, to be found as written. An apostrophe inside a word ("model's") opens no quote, and a quote
    declined is no phrase asked for: "Any work that actually proves a lower bound? Not just 'theoretical
    analysis', I mean a real lower bound." had listed the paper writing "theoretical analysis" (probe105 qx003)."""
    quoted = [m.group(1).strip() for m in _QUOTED.finditer(question) if len(words(m.group(1))) >= 2
              and not _DECLINED.search(question[:m.start()])]
    return quoted + [m.group(1) for m in _CALLED.finditer(question) if m.group(1) not in quoted]


# ("I need every abstract that is purely theoretical": "every" with a singular noun asks for all of them too; it
# had listed the papers resembling "theoretical" instead of those reporting no experiment, probe61 pb106)
_SEVERAL = re.compile(rf"\b(?:{_PAPER_NOUNS}|ones|how\s+many)\b"
                      rf"|^\W*(?:list|name)\b|\bevery\s+{_PAPER_NOUN}\b", re.IGNORECASE)
# A compound the papers are said to call themselves is theirs as written, like a quote: "ones the authors themselves
# call training-free", "tricks the authors pitch as training-free" (read by its words beside "bolt onto a model",
# the lists had held the label-free and social-learning papers)
_CALLED = re.compile(r"\b(?:call(?:s|ed)?(?:\s+(?:them|it|themselves|itself))?"
                     r"|(?:describ|pitch|bill|brand|label|market|present)(?:es|ed|e|s|d|ing|led)?"
                     r"\s+(?:[\w-]+\s+){0,3}?as)\s+(?:being\s+)?['\"\u2018\u201c]?([A-Za-z]+(?:-[A-Za-z]+)+)\b",
                     re.IGNORECASE)  # (quoted or not: "the ones that call themselves 'training-free'", probe140 sg002)
_DECLINED = re.compile(r"\b(?:not|no|never)\s+(?:(?:just|only|merely|simply|a|an|the)\s+)?$", re.IGNORECASE)
_QUOTED = re.compile(r"(?<![\w'\"])['\"\u2018\u201c]([^'\"\u2019\u201d]{3,80}?)['\"\u2019\u201d](?![\w])")


def described_count(question: str) -> tuple[int, str, str]:
    """How many papers a question describes together, when it states it, the sentence describing them and what
    it counts them as, when not as papers: "Two papers find that X. How do they differ?" -> (2, "Two papers find
    that X.", ""); "Two of the new benchmarks ..." -> (2, ..., "benchmarks"). Not when it asks for them ("Which
    two papers ...?": a list), nor for more papers than a comparison table holds."""
    for sentence, word, noun, asking in _counted_papers(question):
        # what papers contribute, counted ("Two of the new benchmarks stress ..."); not "both datasets", maybe one's
        if not asking and not (noun and word == "both"):
            return 2 if word == "both" else _number(word), sentence, noun
    return 0, "", ""


def asked_count(question: str) -> int:
    """How many papers a question asks for when it says so: "Which two biomedical papers argue ...?" -> 2."""
    for _, word, noun, asking in _counted_papers(question):
        if asking and not noun and word != "both":
            return _number(word)
    return 0


def _counted_papers(question: str) -> Iterator[tuple[str, str, str, bool]]:
    """Each sentence that counts papers ("Two papers ...", "Which two ... papers", "the two that ..."), its count
    word, the noun counted when not papers ("benchmarks"), and whether it asks for them (``_ASKING_FOR`` before the
    count) rather than describing them."""
    for sentence in split_sentences(question):
        found = [m for m in (_DESCRIBED_COUNT.search(sentence.text), _THE_COUNT_THAT.search(sentence.text)) if m]
        if found:
            match = min(found, key=lambda m: m.start())
            noun = (match.group(2) or "") if match.re is _DESCRIBED_COUNT else ""
            # ("Social life shows up twice here: ... How do the two papers differ?": described before they are counted)
            definite = _DEFINITE_BEFORE.search(sentence.text[:match.start()]) or match.group(1).lower() == "both"
            yield (question[:sentence.end] if definite else sentence.text, match.group(1).lower(), noun.lower(),
                   bool(_ASKING_FOR.search(sentence.text[:match.start()])))


_DESCRIBED_COUNT = re.compile(r"(?<!these\s)(?<!those\s)\b(two|three|four|both|[234])\s+"  # not "these two": a pointer
                              # ("Two of these are about ...": of the papers in view, no noun said)
                              r"(?:of\s+(?:these|those|them)\s+(?=(?:are|were|do|did|have)\b)"
                              r"|(?:of\s+(?:the|these)\s+)?(?:[\w-]+\s+){0,2}?(?:papers|abstracts|works|studies|articles|submissions"
                              r"|posters|projects|(benchmarks|datasets|methods|frameworks))\b)",
                              re.IGNORECASE)
# "Of these, the two that prove a lower bound: ...": the count with its clause stands for papers too
_THE_COUNT_THAT = re.compile(r"\bthe\s+(two|three|four|[234])\s+(?:that|which|who)\b", re.IGNORECASE)
_DEFINITE_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)
_ASKING_FOR = re.compile(r"\b(?:which|what|name|list|find|show|give|are\s+there|any)\W+(?:\w+\W+){0,2}$", re.IGNORECASE)


def subject_terms(plan: QuestionPlan) -> list[str]:
    """Content terms that are not part of a description of the target paper."""
    describing = plan.describing_words
    return [t for t in plan.terms if t.lower() not in describing]


# A concession to the sentence's end, ", whether A, B, or C": set aside as a contrast (``_CONTRAST``), its items (the
# group) read as examples of the criterion (``_CONCEDED``).
# So is ", whatever the goal is, speed or failures": "speed" and "failures" alone had listed eight papers beside the two
# diffusion ones (probe124 rq003).
# So are ", either as A or B" and ", in A or as B", both sides led by a preposition: "audio signals, either as model
# input or benchmark modality" and "animals or wildlife data, in experiments or as the main subject" had listed
# every paper with a "model" or "experiments" (probe191 va010, va006); ", either at inference or during fine-tuning"
# every paper that fine-tunes (probe193 vc013).
_ROLE_PREPOSITION = r"(?:in|as|via|through|for|by|from|on|with|at|during|under)"
_CONCESSION = (r",\s+(?:whether\b|whatever\s+(?:the\s+|its\s+|their\s+)?[\w-]+(?:\s+(?:is|are|was|were))?\s*,"
               rf"|either(?=\s+{_ROLE_PREPOSITION}\s)"
               rf"|(?={_ROLE_PREPOSITION}\s+[^,;:?.!()]*?\bor\s+{_ROLE_PREPOSITION}\s+[^,;:?.!()]*(?:[?.!]|$)))\s*"
               rf"(?:{_ROLE_PREPOSITION}\s+)?([^;:?.!()]*)")
# What a list's papers do instead of something ("formal results rather than only experiments", "diagnose models
# instead of proposing a method"): the something is what they are not, and its words ("experiments") match every
# paper ("a real theory part, not just experiments"). So is a concession ("a medical angle, even if medicine is only
# one of several application domains", "code being shared, whether it's already out or just promised").
# A parenthesis pointing back at the topic, "identifiability (or its failure)", is the same topic: "failure" alone
# had listed the failure papers; so is one set off by commas.
_CONTRAST = re.compile(r"(?:,?\s+(?:rather\s+than|instead\s+of|as\s+opposed\s+to|even\s+(?:if|when|though))"
                       # (joined by "and" or "but" too: "causal mechanisms - and not just correlations", probe149
                       # th006)
                       r"|(?:,|\s[-\u2013\u2014]|(?=\s(?:and|but)\s+not\b))\s+(?:(?:and|but)\s+)?not\s+"
                       r"(?:just|only|merely|simply))\b[^,;:?.!()]*"
                       # (a bare ", not X" ending the sentence: "anything using animal data, not humans?")
                       r"|,\s+not\s+(?!(?:just|only|merely|simply)\b)[^,;:?.!()]*(?=[?.!]|$)"
                       # (what the asker does not count: "- but I don't count RLHF or DPO preference stuff here")
                       rf"|(?:,|\s[-\u2013\u2014])?\s+(?:but\s+)?{_ASKER_DOES_NOT}(?:count|include)\b[^,;:?.!()]*"
                       # (after a dash up to a comma too: "Genomic data \u2014 not imaging, actual sequence-level input"
                       # had listed the imaging papers, probe102 qu012; in lower case, as typed: a sentence opening
                       # "Not" is joined to the asking by a dash, "Not sure if it's one paper or several")
                       r"|\s[-\u2013\u2014]\s*(?-i:not)\s+(?!(?:just|only|merely|simply)\b)[^,;:?.!()\u2013\u2014]*"
                       r"(?=[,;?.!\u2013\u2014]|$)"
                       rf"|{_CONCESSION}"  # (to the sentence's end: ", whether in people, animals or AI")
                       rf"|{_NOT_BUT}"  # (the A of "not A but B")
                       r"|\s*\((?:rather\s+than|instead\s+of|as\s+opposed\s+to|(?:so\s+|but\s+|and\s+)?not|except"
                       r"|excluding|or\s+(?:its|their|the\s+lack\s+of|lack)\b"
                       # ("(so not 'causal' as in attention masks)", "(I don't mean 'causal' as in ...)": the causal
                       # attention mask had joined the criterion, probe146 sn014, probe149 th006)
                       r"|i\s+(?:do\s+not|don['\u2019]?t)\s+mean\b"
                       # (an analogy the asker draws, no criterion: "(akin to a lab study followed by an in-the-wild
                       # deployment)" had been said missing for "lab", probe154 tn014; not a bare "like", which gives
                       # examples: "(like GPT-4)")
                       r"|(?:akin|analogous|similar|comparable)\s+to|(?:much|just|kind\s+of|sort\s+of|a\s+bit)\s+like"
                       r"|the\s+(?:equivalent|analogue)\s+of)[^()]*\)"
                       # (or between commas: "make identifiability, or its failure, a central question", probe107)
                       r"|,\s+or\s+(?:its|their|the\s+lack\s+of|lack)\b[^,;:?.!()]*(?=,)"
                       # (an analogy drawn in a clause of its own, up to its end: ", kind of like a knockout screen?",
                       # "Kind of like dropping a cache in front of a service.", ", the way a mechanic might ...";
                       # probe188 ux009 and probe94 ql001 had been told no paper matches "knockout screen", "exam": of
                       # the 7,878 tuning questions 3 better, 0 worse. Not "similar to": papers similar to one asked)
                       # (and "something like", "a little like": ", something like a standardized exam", probe194 vd008)
                       r"|(?:,\s*|(?<=[.?!])\s*|^)(?:(?:much|just|kind\s+of|sort\s+of|a\s+bit|a\s+little|rather|something)"
                       r"\s+like"
                       r"|(?:akin|analogous)\s+to|the\s+way\s+(?:we|you|one|people|a|an)\b)[^,;:?.!()]*",
                       re.IGNORECASE)  # (also in a parenthesis: "(as opposed to classic multi-agent RL)")
# The items a concession accepts alike, ", whether A, B, or C": examples of the criterion, which only stand in for
# it when it matches no paper ("a direct bearing on healthcare, whether clinical diagnosis, medical imaging, or
# patient-level risk prediction": no abstract writes "healthcare", probe113 rf002). While the criterion matches,
# they stay aside: "code being shared, whether it's already out or just promised".
_CONCEDED = re.compile(_CONCESSION, re.IGNORECASE)
# ("(A, B)", "— A, B —", "— A, B?" at the end, ": A, B." at the end: "clinical or medical data of some kind: patients,
# medical scans, health records" had been one criterion of all eight words, probe139 sf006; not a question after the
# colon, "Regarding X: who gets hurt when they fail, and what ...?")
_EXAMPLES = re.compile(r"\s*\((?P<a>[^()]*)\)"
                       r"|\s+[\u2013\u2014]\s*(?P<b>[^\u2013\u2014]+?)\s*(?:[\u2013\u2014](?=[\s?.!,;:]|$)|(?=[?.!]*\s*$))"
                       r"|\s*:\s*(?P<c>(?![^:?.!]*\b(?:which|what|who|whom|whose|how|why|where|when)\b)[^:?.!]+?)"
                       r"\s*(?=[?.!]*\s*$)", re.IGNORECASE)
_CLAUSE_END = re.compile(r"\s*(?:[,;:?.!]|$)")
_EXAMPLE_SEPARATOR = re.compile(r",?\s+or\s+|,\s+|\s*/\s*|^(?:e\.g\.|i\.e\.|such\s+as)\s*,?\s*", re.IGNORECASE)
# (of a criterion's content words, one word ending the phrase: not "without proposing method fix", "without human
# labels"; an amount before it and the model it leaves alone after it are no other words: "without extra training",
# "without retraining the model", probe179 uo009, probe182 ur008, and five tuning lists, had matched no abstract)
# (nor "any" before it, nor the model named with its article, nor "at all" after: "without any training at all",
# "without retraining the AI model at all", probe190 uz006)
_WITHOUT = re.compile(r"\b(?:without|zero)\s+(?:(?:any|extra|additional|further)\s+)?(?:re-?(?=train))?([a-z]{4,})"
                      r"(?:\s+(?:extra|additional))?(?:\s+(?:the|a|an|its|their|your))?"
                      r"(?:\s+(?:ai|base|pretrained|underlying|existing))?(?:\s+(?:model|models|network|networks|weights))?"
                      r"(?:\s+at\s+all)?(?=$|\s+(?:or|and)\b)", re.IGNORECASE)


def alternatives(question: str, drop: Sequence[str] = ()) -> list[str]:
    """Criterion alternatives: "medical or clinical data" -> ["medical", "clinical data"]; none that only says which
    way a result goes ("positive or negative results")."""
    parts = _alternatives(question, drop)
    return [part for part in parts if not _only_polarity(part)] or parts


def _alternatives(question: str, drop: Sequence[str] = ()) -> list[str]:
    """The criterion's alternatives as written.

    A parenthesis listing short items after a short criterion names examples of it, each an alternative beside
    the words around it: "cheaper or more tractable (speed, memory, approximation)". After a long description
    the items only detail it ("look inside a model (heads, layers, hidden states) to find why it fails"): alone,
    "layers" listed papers that merely have layers (on the tuning sets F1 fell on four such lists).
    """
    question = _SUSPENDED.sub(r"\1-\4 \2 \3-\4", question)
    question = _OPTIONAL_PREFIX.sub("", _AUXILIARY_OR.sub(lambda m: f"{m.group(1) or m.group(2)} ", question))
    question = _THE_KIND_THAT.sub("", _tail_as_or(question))
    if restated := _restated(question, _RESTATED.split(question, maxsplit=1), drop):
        return restated
    for match in _EXAMPLES.finditer(question):
        listed = next(group for group in match.groups() if group is not None)
        items = [i for i in _EXAMPLE_SEPARATOR.split(listed) if content_terms(i, drop)]  # (not "etc.")
        outside = question[:match.start()] + question[match.end():]
        if _CLAUSE_END.match(question, match.end()) and (restated := _named_in_parentheses(outside, items, drop)):
            return restated
        if len(items) >= 2 and all(len(content_terms(i, drop)) <= LIST_ITEM_TERMS for i in items):
            around = alternatives(outside, drop)
            if around and max(len(part.split()) for part in around) <= ALTERNATIVE_TERMS:
                return list(dict.fromkeys([*around, *(" ".join(content_terms(i, drop)) for i in items)]))
    # (one dash, not a pair around examples; typed as a hyphen or not)
    if restated := _restated(question, _ANY_DASH.split(question), drop):
        return restated
    split = _ALTERNATIVE.split(question)
    pieces = _shared_lead(split, drop)
    led = pieces != split
    if len(pieces) >= 2 and not led:  # "A, B, or C": the commas of the list that ends in the last "or" separate
        listed = _LIST_COMMA.split(pieces[-2])  # alternatives too ("X, e.g. A, B, C or D": A, B and C)
        if all(len(content_terms(item, drop)) <= LIST_ITEM_TERMS for item in [*listed[1:], pieces[-1]]) \
                and _leads_a_list(listed[0]):
            pieces = [*pieces[:-2], *listed, pieces[-1]]
            # (a long part after a comma is a clause: "no experiments, only theory or proofs")
    # a slash joins alternatives inside a piece, once the list's commas are read ("proofs, bounds, or
    # identifiability / sample-complexity analysis": four, not "proofs bounds")
    pieces = [side for piece in pieces for side in _SLASH.split(piece)]
    parts = _generic_joined([p for p in (" ".join(content_terms(part, drop)) for part in pieces) if p])
    if (either := _EITHER_OR.search(question)) and len(parts) == 2:  # ("agents, either A or B": two, however long)
        lead = " ".join(content_terms(question[:either.start()], drop))
        sides = [" ".join(content_terms(side, drop)) for side in either.groups()]
        if all(sides):
            return [f"{lead} {side}".strip() for side in sides]
    if len(parts) > 1 and max(len(p.split()) for p in parts) > ALTERNATIVE_TERMS:
        # "or" joins parts of one long criterion, not alternatives: keep it whole, a shared lead once ("adapt a
        # model to scientific or medical data" had read "adapt model scientific adapt model medical data")
        whole = [" ".join(content_terms(part, drop)) for part in split] if led else parts
        parts = [" ".join(p for p in whole if p)]
    return parts + [free for part in parts if (free := _free_form(part)) != part]


# "either A or B" says the two are alternatives, however long each side: "systems of agents, either several learning
# agents interacting or language-model agents chained into a pipeline" had been one criterion of all its words, and
# listed two of the four papers (probe150 ti008)
_EITHER_OR = re.compile(r"\beither\s+([^,;:?.!()]+?)\s+or\s+([^,;:?.!()]+)", re.IGNORECASE)


# Which way a result goes: "identifiability - positive or negative results" asks for identifiability results of
# either sign, and "positive" alone had listed the papers writing it of anything (probe110 rc005, probe118 rk003)
_POLARITY_STEMS = frozenset(stem(w) for w in ("positive", "positively", "negative", "negatively"))
_POLARITY_OR_GENERIC = _POLARITY_STEMS | GENERIC_STEMS


def _only_polarity(part: str) -> bool:
    """Whether an alternative says only which way a result goes, with nothing of what the result is about."""
    stems = {stem(w.lower()) for w in part.split()}
    return bool(stems & _POLARITY_STEMS) and stems <= _POLARITY_OR_GENERIC


def _shared_lead(pieces: list[str], drop: Sequence[str]) -> list[str]:
    """ "self-supervised learning for pretraining or domain adaptation": an "or" after a preposition's short object
    joins two objects of it, so the words up to the preposition lead both sides ("domain adaptation" alone had
    listed the motion-retargeting and bird papers beside the two self-supervised ones)."""
    if len(pieces) != 2 or ("," in pieces[0] and not _AFTER_COMMA_OBJECT.search(pieces[0])) \
            or len(content_terms(pieces[1], drop)) > 2:  # (not "A, B, or C")
        return pieces
    lead = _LEAD_TO_OBJECT.match(pieces[0])
    # (a lead of generic words only frames: "applications in medicine or healthcare")
    leading = [t for t in content_terms(lead.group(1), drop) if stem(t) not in GENERIC_STEMS] if lead else []
    return [pieces[0], f"{lead.group(1)} {pieces[1]}"] if lead and leading else pieces


# (one home for both patterns below; "at", "via" ...: "chatbots that look at pictures or videos", probe179 uo010)
_OBJECT_PREPOSITION = r"(?:for|on|to|in|with|from|of|about|at|into|across|over|via|using)"
_LEAD_TO_OBJECT = re.compile(rf"(.*\b{_OBJECT_PREPOSITION})\s+(?:[\w-]+\s+){{0,1}}[\w-]+\s*$", re.IGNORECASE)
# ... also after a comma that opens the preposition's phrase, no list's comma: "kernel methods, in the theory or the
# experiments" asks for kernel methods in either; "the experiments" alone had listed ten papers (probe176 ul003)
_AFTER_COMMA_OBJECT = re.compile(rf",\s*{_OBJECT_PREPOSITION}\s+[^,]*$", re.IGNORECASE)


def _leads_a_list(first: str) -> bool:
    """Whether the words before a list's first comma can hold its first item: not a clause saying when or why
    (_SUBORDINATE), nor an article and form words the comma's next adjective goes on with (_ARTICLE_TAIL)."""
    tail = _ARTICLE_TAIL.search(first)
    return not _SUBORDINATE.match(first) and not (tail and not content_terms(tail.group(1)))


def _generic_joined(parts: list[str]) -> list[str]:
    """A part that is one generic word ("train" of "cheaper to run or train") is no alternative alone, which would
    list every paper that trains something: it joins the part before it. (Two generic words can name a thing:
    "complexity results".)"""
    out: list[str] = []
    for part in parts:
        if out and " " not in part and stem(part) in GENERIC_STEMS:
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out




_SAYS_NOT = re.compile(r"\b(?:no|not|none|never|nothing)\b|n['\u2019]t\b", re.IGNORECASE)


# What restates a criterion by the kind of thing it is, up to its sentence's end: "multimodal LLMs - the kind that
# take in video, images or audio alongside text": the criterion named, its examples no alternatives ("images" alone
# had listed seven papers, probe126 rs007, probe128 ru011). The kind may take a few words ("diffusion models, the kind
# of image generators that start from noise ...") and, after a comma, be "the ones" ("diffusion image generators, the
# ones that start from noise ..."): the restatement's words had joined the criterion, and one of the two diffusion
# papers was listed (probe145 sm002, probe149 th002). After a dash "the ones that ..." can be the criterion itself
# ("Not accuracy papers - the ones that are about making things cheaper"), and "the ones" restate to the sentence's
# end: in "... models, the ones that take in video, images or audio along with text, and specifically how ..." they
# define what the question goes on asking about, and without them one of three multimodal papers was listed.
_THE_KIND_THAT = re.compile(r"(?:,|\s[-\u2013\u2014]+|\()\s*(?:the|that|this)\s+(?:kind|sort|type)s?\s+"
                            r"(?:of(?:\s+[\w-]+){1,3}\s+)?(?:that|which|where|with)\b[^?.;!)]*\)?"
                            r"|,\s*the\s+ones\s+(?:that|which|where|with)\b(?:(?!,\s+(?:and|but)\b)[^?.;!)])*(?=[?.;!)]|$)",
                            re.IGNORECASE)


def _restated(question: str, sides: Sequence[str], drop: Sequence[str]) -> list[str]:
    """When the question states its criterion twice ("training-free, i.e., can be bolted onto a model ..."): a
    short side is an alternative of its own, beside the whole; joined to the long side, "training-free" had
    listed one of the two training-free papers. A long side is no alternative alone: among 10k abstracts "whether
    the quantity can be uniquely pinned down from the data" listed look-alikes of identifiability papers."""
    if len(sides) != 2 or not all(content_terms(side, drop) for side in sides):
        return []
    positive = [side for side in sides if not _SAYS_NOT.search(side)]
    if len(positive) == 1:  # ("purely theoretical, i.e. their abstract reports no experiments": what they lack
        return alternatives(positive[0], drop)  # is no alternative to match)
    each = [alternatives(side, drop) for side in sides]  # (a side listing short examples is short)
    short = [parts for parts in each if max(len(part.split()) for part in parts) <= ALTERNATIVE_TERMS]
    if not short:
        return []
    whole = [] if len(short) == 2 else alternatives(" ".join(sides), drop)
    return list(dict.fromkeys([*(part for parts in short for part in parts), *whole]))


def _named_in_parentheses(around: str, items: Sequence[str], drop: Sequence[str]) -> list[str]:
    """A long description naming its criterion in a short parenthesis that ends the clause ("whether the target
    quantity can be uniquely recovered from the available data at all (identifiability)?") states it twice: the
    name is an alternative beside the whole, as after "i.e.". Read as one criterion, the name was a word of a long
    query, and one of the two identifiability papers was listed. Inside the description ("a pretrained
    (multimodal) LLM's internal components") it qualifies a word, and beside a short criterion ("large language
    models (LLMs)") it is read as before."""
    if len(items) != 1 or len(content_terms(items[0], drop)) > LIST_ITEM_TERMS \
            or len(content_terms(around, drop)) <= ALTERNATIVE_TERMS:
        return []
    return _restated(around, [around, items[0]], drop)


def _free_form(part: str) -> str:
    """ "without training extra" -> "training-free", "adapt models without labels" -> "adapt models
    label-free": how abstracts write it. Written out, the criterion matched no abstract ("Any methods in here that
    work without training anything extra?" quoted the social-learning paper), while "training-free" is in the two
    papers' method sentences."""
    return _WITHOUT.sub(lambda m: f"{_singular(m.group(1).lower())}-free", part)


# "with no extra training at all", "no additional labels", "approaches that need no training at all": the X-free
# property in plain words, not a negation ("no images at all" stays a negation: the papers without images). Read
# as one, "need no training" had listed all 19 papers as not about "need training apply".
_NO_EXTRA = re.compile(r"\b(?:(?:needs?|needing|requires?|requiring)\s+no\s+(?:(?:extra|additional)\s+)?"
                       r"|(?:with\s+)?no\s+(?:extra|additional)\s+)([a-z]{4,})(?:\s+at\s+all)?(?![\w-])", re.IGNORECASE)
# "Any paper that tunes an image backbone to science imagery using side info, with no annotations?": ", with no"
# after what the one paper asked for does is how it does it (annotation-free). Read as a negation, the two tuning
# questions so worded (probe23 f026, probe48 rr029) had asked for the papers not about "annotations" and found none.
# Asking for papers in the plural, it filters them ("Which papers run experiments on language models using only text
# tasks, with no images, video or audio?": read as X-free, the list had held the video papers, probe63 pd014), as
# it does without the comma ("satellite imagery with no sonar").
_WITH_NO = re.compile(r",\s*with\s+no\s+([a-z]{4,})(?![\w-])", re.IGNORECASE)


def _method_free(question: str) -> str:
    """ "..., with no annotations" -> "..., annotation-free" in place, when one paper is asked for."""
    def free(match: re.Match[str]) -> str:
        said = f", {_singular(match.group(1).lower())}-free"
        return said + " " * (len(match.group(0)) - len(said))  # (the same length: found positions still hold)
    return question if _SEVERAL.search(question) else _WITH_NO.sub(free, question)


# "training free methods??": "training-free" typed with a space, which had matched any "-free" ("label-free",
# "Cell-free DNA"); not "feel free to", "free of", "for free", nor after an adverb ("completely free")
_SPACED_FREE = re.compile(r"\b([A-Za-z]{3,})\sfree\b(?!\s+(?:to|of|from)\b)", re.IGNORECASE)


def _hyphened_free(match: re.Match[str]) -> str:
    """ "training free" -> "training-free" (the same length: positions found in the question still hold)."""
    word = match.group(1)
    if word.lower() in STOPWORDS or word.lower() == "feel" or word.lower().endswith("ly"):
        return match.group(0)
    return f"{word}-free"


def _free_in_place(match: re.Match[str]) -> str:
    """ "with no extra training at all" -> "training-free", padded to the same length (positions found in the
    question still point into it). It had been a negation: the papers improving results, minus those writing
    "training", left CoCHI alone where the two training-free papers were asked for."""
    free = f"{_singular(match.group(1).lower())}-free"
    return free + " " * (len(match.group(0)) - len(free))


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def conjuncts(question: str, drop: Sequence[str] = ()) -> list[list[str]]:
    """ "Which papers use both audio and video?" -> [["audio"], ["video"]]: each side's alternatives, or
    nothing when the question joins no two criteria with "both ... and"."""
    match = _BOTH.search(question)
    if not match:
        return []
    sides = [alternatives(side, drop) for side in match.groups()]
    return sides if all(sides) else []


def name_tokens(text: str) -> list[str]:
    """Coined names: DaTMe, cfDNA, V33DA, Who&When, META-DINO, Qwen2.5-7B (plain acronyms left out)."""
    return list(dict.fromkeys(t for t in (m.group(0).rstrip("-") for m in _TOKEN.finditer(text)) if _is_coined(t)))


def _is_coined(token: str) -> bool:
    return bool(
        re.search(r"[a-z][A-Z]", token)
        or "&" in token
        or (re.search(r"[A-Za-z]\d|\d[A-Za-z]", token) and re.search(r"[A-Z]", token))
        or re.fullmatch(r"[A-Z]{2,}(?:-[A-Z0-9]{2,})+", token)
    )


def link_names(question: str, papers: Sequence[Paper] | NameIndex) -> list[str]:
    """Papers the question names, in the order it names them: by label, or by a coined name in few abstracts."""
    linked = _linked(question, NameIndex.of(papers))
    return sorted(linked, key=lambda pid: linked[pid])


class NameIndex:
    """Where a name can stand among many papers, so naming a paper does not scan the corpus.

    A label or coined name found in a text starts at a word boundary, so its first
    run of word characters is a whole run of that text: labels are kept by their
    first run, and papers by the runs of their label and abstract that hold a
    capital or digit (the first run of a coined name does, unless it is "x&y":
    those still scan). Scanning every label and abstract took 28 ms a question at
    10k papers, the index 0.3 ms; building it takes about 1 s per 10k papers at open (with the casings of
    names typed in lower case, ~0.2 s more).
    """

    def __init__(self, papers: Sequence[Paper], whole_words: frozenset[str] = frozenset()) -> None:
        self.papers = list(papers)
        self.by_id = {p.id: p for p in self.papers}
        self._labels: dict[str, list[int]] = defaultdict(list)
        self._postings: dict[str, list[int]] = defaultdict(list)
        written_lower: Counter[str] = Counter()  # papers writing each all-lower-case word
        for i, paper in enumerate(self.papers):
            first = _RUN.match(paper.label)
            if first and len(paper.label) >= 3 and _is_name(paper.label):
                self._labels[first.group()].append(i)
            runs = set(_RUN.findall(f"{paper.label} {paper.text}"))
            lower = {r for r in runs if r.islower() and r.isalpha()}
            for run in runs - lower:
                self._postings[run].append(i)  # runs with a capital or digit (and a few harmless others)
            written_lower.update({r for r in _RUN.findall(without_links(paper.text)) if r.islower() and r.isalpha()}
                                 if "://" in paper.text else lower)  # (prose: "www.dgp.toronto.edu" writes no "dgp")
        self._cased = self._casings(whole_words, written_lower) if whole_words else {}
        self._spaced = [low for low in self._cased if " " in low]  # labels of several words, recased first
        self._posters_are_papers = not (written_lower["poster"] or written_lower["posters"]
                                        or "Poster" in self._postings or "Posters" in self._postings)

    def _casings(self, whole_words: frozenset[str], written_lower: Counter[str]) -> dict[str, str]:
        """How the corpus writes each name that may be typed in lower case: the reviewer's "cochi vs dgp" had
        compared nothing (labels are matched as written). A name qualifies when its lower-case form is no
        ordinary word (``whole_words``, the embedder's tokenizer words: "rise" stays "rise", not RISE) and
        abstracts rarely write it in lower case outside links (LOWER_CASE_SHARE; among 10k abstracts "dgp" is
        in one URL): the corpus's most frequent casing of a word, a label's coined name ("Who&When",
        "META-DINO") and a label holding one ("Who&When Pro"; not "Audio-Visual LLMs", which typed in lower
        case is a topic)."""
        found = {run.lower(): run for run in sorted(self._postings, key=lambda run: len(self._postings[run]))}
        for paper in self.papers:
            coined = name_tokens(paper.label)
            found.update({token.lower(): token for token in [*coined, *([paper.label] if coined else [])]})
        return {low: name for low, name in found.items() if low != name and re.search(r"[A-Z]", name)
                and low not in whole_words
                and written_lower[low] <= LOWER_CASE_SHARE * len(self._postings.get(name, ()))}

    def as_papers(self, text: str) -> str:
        """The text with a conference's "poster" written "paper", unless an abstract writes the word (then it may be
        what a paper is about, as in poster generation): "The liquid-biopsy poster and the one about tabular
        foundation models" had compared one paper, "poster" being no word that points at a paper (probe78)."""
        if not self._posters_are_papers:
            return text
        return _POSTER.sub(lambda m: f"{m.group(1)}aper{m.group(2)}", text)

    def recased(self, text: str) -> str:
        """The text with the corpus's names typed in lower case written as the corpus writes them ("cochi vs
        dgp" -> "CoCHI vs DGP", "who&when pro" -> "Who&When Pro", "rl papers" -> "RL papers")."""
        if not self._cased:
            return text
        for label in self._spaced:
            if label in text:
                text = re.sub(rf"(?<![\w&+-]){re.escape(label)}(?![\w&+-])", self._cased[label], text)

        def case(match: re.Match[str]) -> str:
            token = match.group(0)
            return self._cased.get(token) or _RUN.sub(lambda run: self._cased.get(run.group(0), run.group(0)), token)
        return _LOWER_TOKEN.sub(case, text)

    @classmethod
    def of(cls, papers: Sequence[Paper] | NameIndex) -> NameIndex:
        return papers if isinstance(papers, NameIndex) else cls(papers)

    def labelled(self, text: str) -> list[Paper]:
        """Papers whose name label may stand in the text (the caller checks where), in corpus order."""
        rows = {i for run in set(_RUN.findall(text)) for i in self._labels.get(run, ())}
        return [self.papers[i] for i in sorted(rows)]

    def mistyped(self, token: str) -> str:
        """The one paper whose coined label the token misspells ("Metadata-DINO" for META-DINO): a label that is a
        name, sharing a run of capitals with the token and as close to it as TYPO_RATIO; "" when none or several.
        Only papers holding one of the token's runs are compared, so this reads a few labels, not the corpus."""
        rows = {i for run in _RUN.findall(token) if _INDEXED_RUN.search(run) for i in self._postings.get(run, ())}
        close = [self.papers[i].id for i in sorted(rows)
                 if _is_name(label := self.papers[i].label) and _close_spelling(token.lower(), label.lower())]
        return close[0] if len(close) == 1 else ""

    def containing(self, token: str) -> list[str]:
        """Papers whose label is the token or whose abstract holds it as a whole word, in corpus order."""
        first = _RUN.match(token)
        rows = self._postings.get(first.group(), []) if first and _INDEXED_RUN.search(first.group()) \
            else range(len(self.papers))
        pattern = re.compile(rf"(?<![\w-]){re.escape(token)}(?![\w])")
        return [p.id for p in (self.papers[i] for i in rows)
                if (token in p.text and pattern.search(p.text)) or token == p.label]


_RUN = re.compile(r"\w+")
_POSTER = re.compile(r"\b([Pp])oster(s?)\b")
_LOWER_TOKEN = re.compile(r"(?<![\w&+-])[a-z0-9][a-z0-9&+-]*(?![\w&+-])")  # a token typed all in lower case
_INDEXED_RUN = re.compile(r"[A-Z0-9]")


def _linked(question: str, names: NameIndex, coined_only: bool = False, by_acronym: bool = False) -> dict[str, int]:
    """Each named paper and where in the question its name stands (one name may fit several papers).

    A name only used in an abstract ("the ViT and LLM hierarchies") points at that paper only when nothing
    in the question names a paper by its label or by a name an abstract introduces: "Which ViT backbone does
    META-DINO adapt?" is about META-DINO, not a comparison with the one abstract that mentions ViT. In a
    question asking for papers (``coined_only``) it never does: it is what the papers are asked to write ("Which
    abstracts quantify their gains (accuracy, F1/EM) with numbers?" had been asked of the one abstract writing F1).
    """
    return _links(question, names, coined_only, by_acronym)[0]


def _links(question: str, names: NameIndex, coined_only: bool = False,
           by_acronym: bool = False) -> tuple[dict[str, int], bool]:
    """``_linked``'s papers, and whether they are linked only by a word their abstract uses (no name links any).

    A run of capitalised words an abstract introduces ("a Compositional Stress Index") names its paper too, and
    (``by_acronym``, in a question) the acronym an abstract defines for its label; not in an answer's quotes, where
    "3D medical SSL" is the medical paper's.
    """
    labelled = [p for p in names.labelled(question) if p.label in question
                and re.search(rf"(?<![\w-]){re.escape(p.label)}(?![\w-])", question)]
    # (each label may be held by up to MAX_NAME_PAPERS papers, and four labels may be named: "Compare CoCHI, RISE, DGP
    # and the Token Hypothesis" had linked none of the four, as more than MAX_NAME_PAPERS papers)
    held = Counter(p.label for p in labelled)
    linked = {p.id: question.find(p.label) for p in labelled if held[p.label] <= MAX_NAME_PAPERS} \
        if len(held) <= MAX_LABELS_NAMED else {}
    used: dict[str, int] = {}
    for token in [*name_tokens(question), *_title_cased(question, names)]:
        holders = names.containing(token)
        if 0 < len(holders) <= MAX_NAME_PAPERS:
            for pid in holders:
                text = names.by_id[pid].text
                introduced = any(defines(s.text, token) for s in split_sentences(text)) \
                    or " " in token and re.search(rf"\b(?:a|an)\s+{re.escape(token)}\b", text) is not None
                (linked if introduced else used).setdefault(pid, question.find(token))
    # ("SSL" for "Selective Social Learning (SSL)"; asked for papers, "Which are SSL in the self-supervised sense?",
    # it is what they are asked to be; in more than MAX_NAME_PAPERS abstracts, a term)
    for token in _ACRONYM.findall(question) if by_acronym and not coined_only else []:
        holders = names.containing(token)
        for pid in holders if len(holders) <= MAX_NAME_PAPERS else []:
            if _label_acronym(names.by_id[pid], token):
                linked.setdefault(pid, question.find(token))
    for typed, pid in mistyped_names(question, names).items():
        linked.setdefault(pid, question.find(typed))
    return (linked, False) if linked or coined_only else (used, bool(used))


def _close_spelling(typed: str, label: str) -> bool:
    """Whether two spellings are TYPO_RATIO alike; the bounds difflib computes cheaply first ("DINO" of a mistyped
    name is in many abstracts of a large corpus, each with a label to compare)."""
    matcher = SequenceMatcher(None, typed, label)
    return matcher.real_quick_ratio() >= TYPO_RATIO and matcher.quick_ratio() >= TYPO_RATIO \
        and matcher.ratio() >= TYPO_RATIO


def mistyped_names(question: str, names: NameIndex) -> dict[str, str]:
    """Tokens written like a name (a capital after the first letter) that no abstract holds but that misspell one
    paper's label, each with that paper: "How does Metadata-DINO adapt its backbone?" had been told META-DINO's
    abstract does not mention "Metadata-DINO"."""
    tokens = (m.group(0) for m in _TOKEN.finditer(question))
    typed = [t for t in dict.fromkeys(tokens) if any(c.isupper() for c in t[1:]) and not names.containing(t)]
    return {t: pid for t in typed if (pid := names.mistyped(t))}


def _label_acronym(paper: Paper, token: str) -> bool:
    """Whether the paper's abstract defines ``token`` as the acronym of its label: "Selective Social Learning (SSL)"."""
    return re.search(rf"{re.escape(paper.label)}\s*\(\s*{re.escape(token)}\s*\)", paper.text) is not None


def _ambiguous(pid: str, question: str, names: NameIndex) -> list[str]:
    """The papers a question's name for this paper may stand for, when more than one may: those holding its label
    when many do (MAX_NAME_PAPERS), or all holding the acronym of its label the question writes ("SSL": the
    social-learning paper defines it, the 3D medical paper's "SSL" is self-supervised learning). The question's
    wording decides among them (Gatherer._disambiguated)."""
    paper = names.by_id[pid]
    written = [t for t in _ACRONYM.findall(question) if paper.label not in question and _label_acronym(paper, t)]
    holders = names.containing(written[0] if written else paper.label)
    return holders if len(holders) > (1 if written else MAX_NAME_PAPERS) else []


def _title_cased(question: str, names: NameIndex) -> list[str]:
    """Runs of capitalised words that may name a paper's construct: "Compositional Stress Index" of "the headline
    number from each of DGP, DeltaDirect and the Compositional Stress Index" (the text-to-image paper's diagnostic,
    which it introduces as "a Compositional Stress Index" and never abbreviates), without the question's opening
    word ("Which Stable Diffusion ..." -> "Stable Diffusion"). Not a long form an abstract defines an acronym by
    ("DGP (Dynamic Gated Pathways)"): the corpus's acronyms link those, and know where they stand in the question
    ("Besides the Dynamic Gated Pathways paper, which ...?" sets DGP aside)."""
    runs = [m.group() for m in CAPITALISED_RUN.finditer(question)]
    runs = [run.split(maxsplit=1)[1] if run.split()[0].lower() in STOPWORDS else run for run in runs
            if len(run.split()) > 1 + (run.split()[0].lower() in STOPWORDS)]
    return [run for run in runs if not any(re.search(rf"{re.escape(run)}\s*\(|\(\s*{re.escape(run)}\s*\)",
                                                      names.by_id[pid].text) for pid in names.containing(run))]


def _is_name(label: str) -> bool:
    """A label that is a name (CoCHI, Who&When Pro, Token Hypothesis), not a descriptive phrase."""
    label_words = label.split()
    return len(label_words) <= 3 and all(w[:1].isupper() or w[:1].isdigit() for w in label_words)


def _pointing(question: str) -> list[re.Match[str]]:
    """Matches of phrases that point at a paper, by name or description; "the paper that isn't about X"
    excludes rather than points ("the paper that can't X" does point). In "Did the internal intervention work
    in each case?" the question's verb is "work": nothing is described (after "How do the ...", "the ... adaptation
    work and the ... study" are two descriptions)."""
    return [m for m in _DESCRIBED.finditer(question) if not _EXCLUDING.match(m.group(0))
            and not (_ASKED_VERB_WORK.search(question[:m.start()]) and re.search(r"\bwork$", m.group(0)))]


def pointers(question: str) -> list[str]:
    """The question's phrases that point at a paper ("the cfDNA liquid-biopsy paper", "the paper on X"),
    by name or by description: they say which paper, not what is asked of it."""
    return [m.group(0) for m in _pointing(question)]


def described_parts(question: str, named: Sequence[str], papers: Sequence[Paper] | NameIndex) -> list[str]:
    """Descriptions of papers ("the audio-visual LLM trimodal-binding paper", "the paper on X") that name none;
    and the compared phrases of "compare/contrast A with B" that are definite ("the ...") and not found so."""
    names = NameIndex.of(papers)
    question = _antecedents_filled(question)
    parts: list[str] = []
    of_one: set[str] = set()  # (described as a part of a paper: a dataset, benchmark or method)
    for match in _pointing(question):
        phrase = " ".join(g for g in match.groups() if g).strip(" ,?.")
        if _only_pointing(phrase) or re.match(rf"{_SET_NOUN}\b", phrase, re.IGNORECASE) \
                or _LIST_VERB.match(question) and re.match(r"the\s+(?:work|research)\b", match.group(0), re.I):
            continue  # "the paper", "the second paper": a pointer; "the submissions that ...", "List the work
            # that ...": the asked-for set
        if _names_one_of(phrase, named, names):
            continue  # "the IndRM causal-parents paper", "the cfDNA study": already linked by name
        if _RESTATED_ASK.search(question[:match.start()]):
            continue  # "Which variant of it is the one that reliably helps?": the variant asked for, not a paper
        if _EACH_OF_A_SET.search(match.group(0)):
            continue  # "the main contribution of each LLM paper": asked of every paper of a set, not of one
        if _AMONG_EXAMPLES.search(question[:match.start()]):
            continue  # "... life sciences - e.g. clinical diagnosis, genetics, or the study of animal communication":
            # an example of the criterion, a field, not a paper pointed at (it had made the list one paper's answer,
            # probe87 qe010)
        if _ASKED_OF_THE.search(phrase) or not content_terms(match.group(0)):
            continue  # "the main conclusion of the paper": what is asked of a paper, not a description of one;
            # "... are the main object of study", framing whole: what the asked-for papers study (it had pointed at
            # the DPO paper)
        parts.append(phrase)
        if _PART_OF_A_PAPER.search(match.group(0)):
            of_one.add(phrase)
    for phrase in [*_compared_phrases(question), *_one_and_another(question), *_counted_items(question),
                   *_described_series(question)]:
        terms = {t.lower() for t in content_terms(phrase)}
        if not _only_pointing(phrase) and not any(_same_description(terms, part) for part in parts) \
                and not _names_one_of(phrase, named, names) and not _names_only_unknown(phrase, names):
            parts.append(phrase)  # "Contrast the label-free adaptation of X with the work that ...": both compared
    # A dataset, benchmark or method described ("the zebra finch dataset", "the method for finite samples") is
    # mostly a part of the one paper a question asks about, whose whole wording retrieves it better: among 10k
    # abstracts three such questions were answered from look-alikes (probe18 v041, probe26 i028, probe28 o021).
    # Beside another paper, it is the side of a comparison ("the benchmark for blaming failures and the bird-call
    # attribution dataset").
    return parts if len(named) + len(parts) >= 2 else [part for part in parts if part not in of_one]


def _beside_a_name(question: str, described: Sequence[str], named: Sequence[str],
                   names: NameIndex) -> dict[str, list[str]]:
    """The descriptions a question joins to a paper it names, as the other side of a pair: "DaTMe vs the paper on
    image generators failing rare combinations", "Both DaTMe and the paper on rare attribute-object combinations".
    They describe another paper, though the named one may match them best (DaTMe writes "image" and "generation"):
    the comparison had had one side (probe188 ux026, probe110 sm025). A description the question opens with
    ("In the study of text-to-image failures ..., how well does the Compositional Stress Index ...?") or sets in
    parentheses is of the named paper itself, and stays free to find it."""
    lower = question.lower()
    beside = {}
    for phrase in described:
        at = lower.find(phrase.lower())
        joined = _JOINED_SIDE.search(question[:at]) if at > 0 else None
        side = " ".join(_CLAUSE_START.split(question[:joined.start()])[-1].split()[-SIDE_WORDS:]) if joined else ""
        if side_named := [pid for pid in named if _names_one_of(side, [pid], names)]:
            beside[phrase] = side_named  # (only those: "SIF and the Compositional Stress Index" is of a named paper)
    return beside


# The words before the joining word that the named side ends within: "How does RISE compare with the ...", "Contrast
# DeltaDirect's training recipe with the ..."; further back the pair is something else, "what AUROC did the
# architecture hit vs the standard-of-care test" (of the cfDNA paper named at the sentence's start, probe178 uh040)
SIDE_WORDS = 4


# What joins a described side to the side before it: a conjunction or comparison word, then "the", then any paper
# noun and what opens the description ("vs the paper on ", "and the ", "with the study that uses ")
_JOINED_SIDE = re.compile(rf"\b(?:and|vs\.?|versus|with|against|from|to|or)\s+the\s+(?:(?:{_PAPER_NOUN}|one|"
                          rf"{_PART_NOUNS})\s+(?:(?:on|about|of|for|in|with|where)\s+|(?:that|which)\s+(?:[\w-]+\s+)?))?$",
                          re.IGNORECASE)
_CLAUSE_START = re.compile(r"[.?!:;]\s")


def _names_only_unknown(phrase: str, names: NameIndex) -> bool:
    """A side set against a paper, headed by acronyms no abstract writes, is what the paper is measured against,
    not another paper: "IndRM vs PC / GES on standard causal discovery benchmarks" had compared IndRM with the Token
    Hypothesis in their place; the answer now says the IndRM abstract does not mention them. ("the SwiftBee paper"
    still describes a paper, one the corpus lacks, and "the adaptation of image AI for science pictures" one it
    has.)"""
    acronyms = _ACRONYM.findall(phrase)
    return bool(acronyms) and phrase.startswith(acronyms[0]) \
        and not any(names.containing(a) or names.containing(f"{a}s") for a in acronyms)


_ACRONYM = re.compile(r"(?<![\w-])[A-Z][\w&+.-]*[A-Z][\w&+.-]*(?![\w-])")  # two capitals or more: "PC", "ToMeSD"


# Asking for what is there now ("code already out", "code i can grab now": "now" after a word, not a sentence-opening
# "Now, ..."), and asking for what is promised too ("... or just promised", "available now or will be shared").
_NOW = re.compile(r"\b(?:already|(?<=\w\s)now|today|currently|at\s+the\s+moment)\b", re.IGNORECASE)
_OR_PROMISED = re.compile(r"\bor\s+(?:[\w-]+\s+){0,3}?(?:promis\w*|commit\w*|plan\w*|will)\b", re.IGNORECASE)
# A wh-word asking for a paper: "Which paper ...", "What study ..."
_WHICH_PAPER = re.compile(rf"\b(?:which|what)\s+(?:one\s+)?{_PAPER_NOUN}\b", re.IGNORECASE)
_EACH_OF_A_SET = re.compile(rf"\b(?:each|every)\s+(?:[\w&+-]+\s+){{0,3}}{_PAPER_NOUN}$",
                            re.IGNORECASE)
# "Which <noun> ... is the one that ...": "the one" restates what the question asks for, a paper only when the noun
# is one ("Which paper is the one that ...")
# ... or a thing named just before the copula: "even when a different component is the one that visibly went wrong"
# (it had pointed the answer at the paper best matching "visibly went wrong", probe69 pj017)
_RESTATED_ASK = re.compile(rf"(?:^|.*[.?!:]\s+)\W*(?:which|what)\s+(?!(?:{_PAPER_NOUN}|one)s?\b)\w+\b[^.?!]*\b"
                           r"(?:is|are|was|were)\s+$"
                           rf"|\b(?:a|an|the|another|some)\s+(?:[\w-]+\s+){{0,2}}?(?!(?:{_PAPER_NOUN}|one)s?\b)[\w-]+\s+"
                           r"(?:is|are|was|were)\s+$", re.IGNORECASE)
_AMONG_EXAMPLES = re.compile(rf"\b{_EXAMPLE_MARKER}[^.?!;:()]*$", re.IGNORECASE)
_PART_OF_A_PAPER = re.compile(rf"^the\s+(?:[\w-]+\s+)?{_PART_NOUNS}\s+(?:on|about|of|for|that|which)\b|\sdataset$",
                              re.IGNORECASE)


# "those/these/such" before a noun: a noun the question said before, with what it said of it there
_DEMONSTRATIVE = re.compile(r"\b(?:those|these|such)\s+([A-Za-z][\w-]*)", re.IGNORECASE)
_ANTECEDENT_MODIFIERS = 2  # words kept before the earlier noun: "text-to-image diffusion models"


def _antecedents_filled(question: str) -> str:
    """The question with "those X"/"such X" written as the earlier "<modifiers> X" they point back to.

    "Compare the paper about making text-to-image generators faster and the paper about why those generators
    break on rare attribute-object combos": the second description alone ("why those generators break ...")
    retrieved the motion-generation paper; its generators are the text-to-image ones. A paper noun ("these
    papers") points at papers, not at a thing said, and a noun said nowhere before stays as written.
    """
    def filled(match: re.Match[str]) -> str:
        noun = match.group(1)
        if re.fullmatch(rf"{_PAPER_NOUN}s?|{_SET_NOUN}", noun, re.IGNORECASE):
            return match.group(0)
        modifiers = _modifiers_before(question[:match.start()], noun)
        return f"{modifiers} {noun}" if modifiers else match.group(0)
    return _DEMONSTRATIVE.sub(filled, question)


def _modifiers_before(text: str, noun: str) -> str:
    """The words right before the last mention of ``noun`` (either number) in ``text``, up to a stopword or a
    verb's -ing form ("making text-to-image generators": "text-to-image")."""
    tokens, said = words(text), _singular(noun.lower())
    for at in range(len(tokens) - 1, -1, -1):
        if _singular(tokens[at].lower()) == said:
            kept: list[str] = []
            for token in reversed(tokens[max(0, at - _ANTECEDENT_MODIFIERS):at]):
                if token.lower() in STOPWORDS or (token.lower().endswith("ing") and "-" not in token):
                    break
                kept.insert(0, token)
            return " ".join(kept)
    return ""


def _described_series(question: str) -> list[str]:
    """The descriptions of a series sharing one plural paper noun: "the causes-finding, DPO data-choice, and
    logic-counting papers" -> three, each a paper's ("the A and the B papers" are two, read by ``_compared_phrases``).
    Read as one description, the three had been one paper's fact answer (probe178 un032, probe179 uo032)."""
    match = _DESCRIPTION_SERIES.search(question)
    if not match:
        return _typed_series(question)
    items = [*_LIST_COMMA.split(match.group(1)), match.group(2)]
    return [_THE.sub("", item).strip() for item in items]


def _typed_series(question: str) -> list[str]:
    """The descriptions of a series typed without articles, each with its own paper noun, opening the question or
    its clause after a colon: "causal parents paper, DPO data curation paper, sudoku logic one - which ...?" -> three
    (the first had been one paper's fact answer, probe184 ut030)."""
    match = _TYPED_SERIES.search(question)
    return [m.group(1) for m in _TYPED_ITEM.finditer(match.group(0))] if match else []


_WH_WORDS = "what|which|how|who|whom|whose|where|when|why"
_SERIES_ITEM = r"(?:[\w&+-]+\s+){0,3}?[\w&+-]+"  # (a description of up to four words)
_TYPED_ITEM = re.compile(rf"\b(?:the\s+)?(?!(?:and|or|vs|{_WH_WORDS}|is|are|was|were|do|does|did|there)\b)"
                         rf"({_SERIES_ITEM})\s+(?:paper|study|one)\b", re.IGNORECASE)
_TYPED_SERIES = re.compile(rf"(?:^|:)\s*{_TYPED_ITEM.pattern}"
                           rf"(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+){_TYPED_ITEM.pattern})+", re.IGNORECASE)
_DESCRIPTION_SERIES = re.compile(rf"\bthe\s+({_SERIES_ITEM}(?:\s*,\s*(?:the\s+)?{_SERIES_ITEM})+),?\s+(?:and|or)\s+"
                                 rf"(?:the\s+)?({_SERIES_ITEM})\s+(?:papers|works|studies|abstracts|ones)\b",
                                 re.IGNORECASE)


def _one_and_another(question: str) -> list[str]:
    """The two halves of "one paper shows X, another that Y": each describes a paper."""
    match = _ONE_AND_ANOTHER.search(question)
    return [side.strip(" ,") for side in match.groups()] if match else []


def _counted_head(question: str) -> str:
    """What a sentence counting papers says of them all before the colon that lists them: "Two of these papers
    deal with text-to-picture generators: one about ..., the other about ..." -> "text-to-picture generators"."""
    return next((" ".join(content_terms(head)) for head, _ in _counted_lists(question)), "")


def _counted_items(question: str) -> list[str]:
    """The items of a list after a colon, in a sentence counting that many papers: "three papers about spending a
    limited budget: cfDNA classification, DPO dataset curation, approximate WMC compilation" or "Three projects
    ...: one for failing AI agents, one for a team of AI roles, and one for birds" describe one paper each (bare,
    the items had not been read as descriptions, and the comparison had one paper). Another number of items is a
    list of something else, not read."""
    return next((items for _, items in _counted_lists(question)), [])


def _counted_lists(question: str) -> Iterator[tuple[str, list[str]]]:
    """Each sentence's words between its count and its colon, and the items after the colon, when they are as many
    as it counts (a sentence typed on in lower case is one of its own: "... compilation. what's ...")."""
    for sentence in question_sentences(question):
        count = _listing_count(sentence)
        colon = sentence.find(":", count.end()) if count else -1
        if count is None or colon < 0 or _ASKING_FOR.search(sentence[:count.start()]):
            continue
        listed = sentence[colon + 1:].strip(" .?!")
        word = next(g for g in count.groups() if g).lower()
        wanted = 2 if word == "both" else _number(word)
        items = [i for i in _ITEM_SEPARATOR.split(listed) if i]
        if wanted == 2 and len(items) == 1:  # ("A and B")
            items = _LIST_AND.split(listed, maxsplit=1)
        items = [_THE.sub("", _ITEM_HEAD.sub("", item).strip(" ,")) for item in items]
        if len(items) == wanted and all(content_terms(item) and not _ASKS.match(item) for item in items):
            yield sentence[count.end():colon], items  # (not "..., the one on X: which models did each test?")


def _listing_count(sentence: str) -> re.Match[str] | None:
    """Where a sentence counts the papers a colon then lists: "Three papers ...", "These two are ...", "Two ways
    to save money on big models: ..." (ways, approaches: each a paper's)."""
    return _DESCRIBED_COUNT.search(sentence) or _COUNTED_OTHERWISE.search(sentence)


_COUNTED_OTHERWISE = re.compile(r"\b(?:these|those)\s+(two|three|four|both|[234])\b|\b(two|three|four|[234])\s+"
                                r"(?:[\w-]+\s+){0,2}?(?:ways|approaches|techniques|takes|angles)\b", re.IGNORECASE)
_ITEM_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+)?|\s*;\s*")
_LIST_AND = re.compile(r"\s+and\s+")
# what opens an item without describing it: "one for X", "the other about Y", "another on Z"
_ITEM_HEAD = re.compile(r"^(?:and\s+)?(?:(?:the\s+)?other|another|a\s+(?:second|third)|one)"
                        r"(?:\s+(?:one|paper|work|study))?(?:\s+(?:for|about|on|in|that|which|where|with))?\s+",
                        re.IGNORECASE)
# an item that asks (a wh-word and an auxiliary soon after, or the auxiliary first), not one describing by an embedded
# clause ("why they botch unusual combinations", "where to look inside a medical volume")
_ASKS = re.compile(r"(?:(?:which|what|whose|how|why|who|when|where)(?:['\u2019]s\b|(?:\s+[\w-]+){0,3}?\s+"
                   r"(?:is|are|was|were|does|do|did|can|could)\b)|(?:is|are|was|were|does|do|did|can|could)\s)",
                   re.IGNORECASE)


def _only_pointing(phrase: str) -> bool:
    """"the paper", "the second one", "the larger benchmark": which paper, not what it is about."""
    return not content_terms(phrase) or all(w.lower() in _REFERENCE_WORDS for w in phrase.split())


def _same_description(terms: set[str], part: str) -> bool:
    """Whether a compared phrase is a description already found (half its content words or more in common)."""
    other = {t.lower() for t in content_terms(part)}
    return len(terms & other) >= 0.5 * min(len(terms), len(other))


def _names_one_of(phrase: str, named: Sequence[str], names: NameIndex) -> bool:
    return any(names.by_id[pid].label.lower() in phrase.lower() for pid in named) \
        or any(set(names.containing(token)) & set(named) for token in name_tokens(phrase))


def _compared_phrases(question: str) -> list[str]:
    """The two definite noun phrases a comparison sets side by side, "the" and a trailing "paper" removed.

    Two bare noun phrases opening a question around "vs" are its sides too: "Audio-visual LLM speaker binding
    vs. Video-LLM motion direction: ..." (the second up to a dash: "... on genotype data - what real-world data
    does each validate on?"); not a question's own words ("How much is theory vs empirical work?"), nor a contrast
    inside a description that a dash set off before it ("paper where you only backprop ... - which positions for
    decoder-only vs encoder models").
    """
    match = _COMPARED.search(question)
    if not match:
        return []
    sides = [side for side in match.groups() if side and side.lower().startswith("the ")]
    alike = match.group("alike_first") is not None  # (the pair said alike opens its sentence by its pattern)
    first, second = (match.group("alike_first"), match.group("alike_second")) if alike \
        else (match.group("vs_first"), match.group("vs_second"))
    if first and (alike or match.start("vs_first") == 0) and not re.match(rf"{_OPENING_WORDS}\b", first, re.I) \
            and not _ANY_DASH.search(first):
        # (a bare side beside a definite one: "finch call benchmark vs the AV-LLM multi-speaker video paper")
        sides = [first, _ANY_DASH.split(second, maxsplit=1)[0]]
    return [_THE.sub("", side).strip(" ,") for side in sides]



_SIZE_ASKED = re.compile(r"\b(?:larger|bigger|smaller|largest|biggest|smallest|how\s+(?:many|big|large)|sizes?"
                         r"|counts?|(?:contains?|has|have|holds?)\s+more|more\s+(?:items|examples|samples|instances"
                         r"|events|entries)|fewer)\b", re.IGNORECASE)


def winner_among(question: str) -> str:
    """What a winner is asked among: "In which of its three MARL environments did SSL gain the most?" ->
    "environments". A sentence naming a winner of another kind ("SSL outperforms baselines") does not say which of
    those it is; "" when the question names no such set."""
    match = _AMONG.search(question)  # (not of the papers themselves: "Which of these papers reports the most?")
    return match.group(1) if match and _WINNER.search(question) and not re.fullmatch(_SET_NOUN, match.group(1), re.I) \
        else ""


_AMONG = re.compile(r"\bwhich\s+of\s+(?:the|its|their|these|those|all)\s+(?:(?:\d+|two|three|four|five|six|seven"
                    r"|eight|nine|ten|many|several)\s+)?(?:[\w&+-]+\s+){0,3}?([\w-]+s)\b", re.IGNORECASE)


def superlative(question: str) -> str:
    """What a winner question asks for: "Which benchmark is the largest?" -> "the largest"."""
    match = _WINNER.search(question)
    return f"the {match.group(1).lower()}" if match else "the best"


# "How does RISE estimate how much blame each role deserves?": an amount a verb of estimating takes asks how it is
# estimated, not for a figure (the answer had said the abstract "gives no figure" while quoting the method); so does
# one a choice is based on or looks at, with the amounts joined to it up to the clause's end ("fusing patches based
# on how much each region is still changing and how much fine edge detail it carries": the DaTMe abstract had been
# said to give "no figure for this", probe75 pq017, probe76 pr017; "depends on how much", "picks what to fuse by
# how much", probe85 qc017, probe88 qf017, where "By how much ...?" and "..., and by how much?" still ask for one);
# and so does one an argument or bound is about
# ("the paper ... with an argument about how many samples each strategy needs" had been told the abstract gives no
# figure, probe83 qa013)
_ESTIMATED_AMOUNT = re.compile(r"\b(?:(?:estimat|measur|determin|decid|quantif|comput|calculat|assess|judg|gaug|infer"
                               r"|predict|choos|chose|control|learn|track|monitor|check|weigh|observ|look)\w*"
                               r"(?:\s+at)?|(?:based|depend|depends|depended|depending|conditioned|relying)\s+on"
                               r"|(?:argument|analys[ie]s|theory|theories|bound|limit|claim|insight)s?\s+(?:about|of|on))"
                               r"\s+how\s+(?:much|many)\b"
                               r"[^,;:.?!]*"
                               # ("by how much" inside a clause, a subject after it: "beats it by how much?" asks)
                               r"|(?<![,;:]\s)(?<!\band\s)(?<!\bor\s)(?<=\w\s)by\s+how\s+(?:much|many)\s+"
                               r"(?=(?:a|an|the|each|every|it|its|they|their|this|that|these|those)\b)[^,;:.?!]*",
                               re.IGNORECASE)


# A figure asked as a difference: "by what margin over the runner-up", "by how much did it lower ECE", "how much
# faster", "what speedup"
_DIFFERENCE = re.compile(r"\bby\s+(?:what\s+margin|how\s+much)\b|\bhow\s+much\s+(?:faster|slower|better|worse|higher"
                         r"|lower|more|less|smaller|larger|bigger)\b|\bwhat\s+(?:[\w-]+\s+){0,2}?(?:speedup|speed-up"
                         r"|improvement|gain|reduction|margin|drop)s?\b", re.IGNORECASE)


def asks_difference(question: str) -> bool:
    """Whether the figure a question asks for is a difference (a margin, gain, speedup), not any number."""
    return bool(_DIFFERENCE.search(question))


def expected_answer(question: str) -> Expects:
    # (the value of a measure asked is a figure: "What exact attribution accuracy does the accelerometer oracle
    # achieve?", probe62 pc034; "what's" and a typed "whats" ask as "what is" does: "whats the actual speedup
    # DaTMe gets on FLUX?" had been answered with a sentence giving none, probe143 sk037)
    spelled = _WHAT_IS.sub("what is", question)
    if _FIGURE.search(_ESTIMATED_AMOUNT.sub(" ", spelled)) or asked_measures(spelled):
        return "figure"
    if _COUNT_LIST.search(question) or _COUNTED_THEN_NAMED.search(question):
        return "enumeration"
    if _WINNER.search(question):
        return "winner"
    if _REASON.search(question):
        return "reason"
    if _DEFINITION.search(question):
        return "definition"
    return "any"


_WHAT_IS = re.compile(r"\bwhat(?:['\u2019]s|s)\b", re.IGNORECASE)


def contributed_phrase(question: str) -> str:
    """What a question asks papers to contribute: "Which papers introduce a new named benchmark for evaluating
    models?" -> "a new named benchmark"; empty when it asks for none."""
    match = _CONTRIBUTING.search(question) or _CONTRIBUTED.search(question) or _NEW_RESOURCE.search(question)
    return match.group("what") if match else ""


# ... or the verb after it: "Any new benchmarks or datasets introduced here?"
_CONTRIBUTED = re.compile(r"\b(?P<what>(?:new|novel)\b[^;:?.!()]*?)\s+(?:being\s+)?(?:introduc|propos|present|releas"
                          r"|contribut|buil[dt]|creat|construct|develop|design|curat|assembl|compil)ed\b",
                          re.IGNORECASE)


# ... or no verb at all: a new data resource is one a paper contributes ("Any new benchmarks or datasets in this
# batch?"); the list had held the papers evaluating on benchmarks
# (the data resources evidence knows, and the spellings a question adds: "data set", "corpora")
_RESOURCE_NOUN = rf"(?:[\w-]+\s+){{0,2}}?(?:{'|'.join(sorted(DATA_RESOURCES))}|data\s+set|corpora)s?\b"
_NEW_RESOURCE = re.compile(rf"\b(?P<what>(?:new|novel)\s+{_RESOURCE_NOUN}(?:\s*(?:,|or|and)\s+{_RESOURCE_NOUN})*)",
                           re.IGNORECASE)


def defined_term(question: str) -> str:
    """The term a "What is X?" question asks to have defined ("What is token merging?" -> "token merging"); empty
    for anything longer than a name or a short phrase, which asks something else of it."""
    match = _WHAT_IS_TERM.match(question)
    return match.group(1) if match and len(match.group(1).split()) <= DEFINED_TERM_WORDS else ""


DEFINED_TERM_WORDS = 4  # "What is X?" with X of at most this many words asks what X is (chosen, not tuned)
_WHAT_IS_TERM = re.compile(r"^\W*what(?:'s|\s+is|\s+are)\s+(?:an?\s+|the\s+)?([^?.!,;:]+?)\s*[?.!]*\s*$", re.IGNORECASE)


def asked_part(question: str, pointing: Sequence[str] = ()) -> str:
    """What the question asks, without what only identifies the paper: its sentences that end in "?"
    (not a preamble such as "I remember a study where ...") with the ``pointing`` phrases taken out."""
    # (a period inside a token ends nothing: "with Qwen2.5-7B?" had asked only "5-7B?")
    asked = " ".join(re.findall(r"(?:[^.?!]|[.!](?=\S))*\?", question)).strip() or question
    for phrase in pointing:
        asked = asked.replace(phrase, " ")
    return " ".join(asked.split())


def asked_clauses(question: str, pointing: Sequence[str] = ()) -> list[str]:
    """The parts an answer must each quote for: the asked part's clauses, or the asked part itself
    when a preamble or a phrase pointing at the paper was taken out of the question."""
    asked = asked_part(question, pointing)
    return clauses(asked) or ([asked] if asked != question else [])


def clauses(question: str) -> list[str]:
    """The parts of a multi-part question: "From what ..., and which two signals ...?" -> two parts."""
    parts = [p.strip(" ,?") for p in _CLAUSE_BREAK.split(question)]
    return [p for p in parts if len(p.split()) >= 3] if len(parts) > 1 else []


def counted_nouns(question: str) -> list[str]:
    """Everything a question counts, each "how many" its own, in the question's order: "How many birds are in V33DA,
    and how many audio channels and camera views?" -> birds, audio channels. A sentence counting any of them
    answers: the V33DA abstract had been said to give "no figure" while quoting its "5-channel audio with three
    camera views"."""
    nouns = (_noun_phrase(match.group(1).split(), plural=True) for match in _HOW_MANY.finditer(question))
    return [noun for noun in nouns if noun]


def _noun_phrase(tokens: Sequence[str], plural: bool = False) -> str:
    """Words up to the first stopword or form word, without a trailing name ("regimes V33DA uses" -> "regimes").

    With ``plural`` (a count of two or more), the phrase ends at its first plural noun:
    "signals go into it" -> "signals", "multi-agent reinforcement learning environments were" -> "... environments".
    """
    noun: list[str] = []
    for token in _after_name(tokens):
        if token.lower() in STOPWORDS or token.lower() in FORM_WORDS:
            break
        noun.append(token)
        if plural and len(token) > 3 and token.lower().endswith("s") and not token.lower().endswith("ss"):
            break
    while len(noun) > 1 and any(c.isupper() or c.isdigit() for c in noun[-1]):
        noun.pop()  # a name after the noun is its owner, not the noun (one alone is the noun: "GPU-hours")
    return " ".join(noun)


def _after_name(tokens: Sequence[str]) -> Sequence[str]:
    """The tokens after a name that opens them and begins with a capitalised stopword ("All of Us participants" ->
    "participants"): the noun after it is what is counted, and the name's "All" had ended the phrase before it began,
    so any number the abstract wrote counted as the answer to how many participants (four tuning sets)."""
    if not tokens or not tokens[0][:1].isupper() or tokens[0].lower() not in STOPWORDS:
        return tokens
    end = 1
    while end < len(tokens) and (tokens[end][:1].isupper() or _joins_name(tokens, end)):
        end += 1
    return tokens[end:] if end < len(tokens) else tokens


def _joins_name(tokens: Sequence[str], at: int) -> bool:
    """Whether a stopword joins two capitalised words of one name ("of" in "All of Us")."""
    return tokens[at].lower() in STOPWORDS and at + 1 < len(tokens) and tokens[at + 1][:1].isupper()


def listed_count(question: str) -> tuple[int | None, str]:
    """"Which three evaluation regimes ..." -> (3, "evaluation regimes ..."), as does "... three evaluation regimes -
    what are they?"."""
    match = _COUNT_LIST.search(question) or _COUNTED_THEN_NAMED.search(question)
    if not match:
        return None, ""
    count, noun = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
    number = _number(count.lower())
    return number, _noun_phrase(noun.split(), plural=number >= 2)


def _number(word: str) -> int:
    """"three" -> 3, "3" -> 3 (the count words a question uses: two to ten, or digits)."""
    return _COUNT_OF[word] if word in _COUNT_OF else int(word)


# --- the conversation ---------------------------------------------------------------

def conversation_papers(history: Sequence[Message], papers: Sequence[Paper] | NameIndex,
                        at_least: int = 1) -> list[str]:
    """Papers of the last exchange that has ``at_least`` of them: those its answer cited or named, else those its
    question named (the last exchange with any, if none has that many).

    An exchange that found no paper ("None of these 2 papers clearly matches ...") leaves the conversation
    on the papers before it: "How does the first one compare to V33DA?" still means the list asked about;
    and "And the first?" after a question about the second one means the first of that list.
    """
    names = NameIndex.of(papers)
    latest: list[str] = []
    for message in reversed(history):  # an answer, then the question it answered, then the exchange before
        found = (_papers_in(message.content, names) if message.role == "assistant"
                 else link_names(message.content, names) if message.role == "user" else [])
        if len(found) >= at_least:
            return found
        latest = latest or found
    return latest


def _asked_for_papers(history: Sequence[Message]) -> bool:
    """Did the last question ask for a set of papers, itself or through the elliptic ones before it
    ("Which papers use RL?" -> "What about diffusion?" -> "And GANs?")?"""
    for message in reversed(history):
        if message.role == "user":
            if _SET_VALUED.search(message.content):
                return True
            if not _ELLIPSIS.match(message.content):
                return False
    return False


def previous_question(history: Sequence[Message]) -> str:
    return next((m.content for m in reversed(history) if m.role == "user"), "")


def _papers_in(text: str, names: NameIndex) -> list[str]:
    """Paper ids and names mentioned in a previous answer, in order of mention."""
    found: dict[str, int] = {}
    for m in _ID_TOKEN.finditer(text):
        if m.group(0) in names.by_id:
            found.setdefault(m.group(0), m.start())
    for pid in link_names(text, names):
        found.setdefault(pid, text.find(names.by_id[pid].label))
    return sorted(found, key=lambda pid: found[pid])


def _set_needed(question: str) -> int:
    """How many papers an earlier answer must hold for the question to pick from it: an ordinal needs a set
    ("the second one": two), "the first three" three."""
    match = _ORDINAL_REF.search(question)
    return 1 if not match else max(2, _number(match.group(2).lower()) if match.group(2) else 2)


def narrow_carried(question: str, carried: Sequence[str]) -> list[str]:
    """"the second one" / "the latter" pick one of the carried papers by position; "the first two" / "the last
    three" that many from that end."""
    match = _ORDINAL_REF.search(question)
    if match and carried and match.group(2) and match.group(1).lower() in ("first", "last"):
        count = _number(match.group(2).lower())
        return list(carried[:count] if match.group(1).lower() == "first" else carried[-count:])
    if match and carried:
        index = _ORDINAL[match.group(1).lower()]
        if -len(carried) <= index < len(carried):
            return [carried[index]]
    return list(carried)


def compared_against(question: str) -> list[str]:
    """What a question measures a paper against: "How does CoCHI compare with temperature scaling in ECE?" ->
    ["temperature scaling"]. Its absence from the paper's abstract is what the answer must say."""
    phrases = []
    for m in [*_AGAINST.finditer(question), *_BEATEN.finditer(question)]:
        # (methods named as examples are what is compared against: "beat classic causal discovery methods like PC or
        # GES" had been answered from IndRM's abstract, which names neither, probe106 qy039)
        example = _NAMED_EXAMPLES.match(question, m.start(1))
        if m.re is _BEATEN and not example and not _written_as_name(m.group(1)):
            continue
        first, end = (example.group(1), example.end(1)) if example else (m.group(1), m.end(1))
        phrases += [first, *_joined_names(question, end)]
    return [" ".join(content_terms(phrase)) for phrase in phrases if content_terms(phrase)]


def _joined_names(question: str, at: int) -> list[str]:
    """The names joined on after position ``at``: " / GES / LiNGAM" -> ["GES", "LiNGAM"] ("IndRM vs PC / GES" had
    been said to lack "PC" alone), and " or GES", ", GES and LiNGAM" the same."""
    names = []
    while match := _JOINED_NAME.match(question, at):
        names.append(match.group(1))
        at = match.end()
    return names


_JOINED_NAME = re.compile(r"\s*(?:/|,|\bor\b|\band\b)\s*(?:(?:or|and)\s+)?([A-Z][\w&+.-]*[\w&+-])")
# Named examples a few words on, of what is compared against: "classic methods like PC", "baselines such as GES".
_NAMED_EXAMPLES = re.compile(rf"[^?.;:]{{0,60}}?\b(?:like|{_EXAMPLE_MARKER})\s+([A-Z][\w&+.-]*[\w&+-])")


def offered_choices(question: str) -> list[str]:
    """The answers a "which" question offers to choose from: "which modality was it: chest radiographs, CT,
    histopathology?" -> the three; "..., and which organ (liver, kidney, or lung) was it run on?", "Which was it, A
    or B?" the same. An abstract writing none of them does not say which (the META-DINO abstract, which writes
    "medical imaging" and no modality, had been quoted as the answer, probe150 ti039). Only of a "which" opening a
    clause, and a parenthesis right after its noun: elsewhere a parenthesis gives examples ("a team of workers (a
    coordinator, a search helper, a writer)", "working out which of several candidates (people, animals or ...)")."""
    for match in _CHOICES.finditer(question):
        items = [item.strip() for item in _CHOICE_SPLIT.split(match.group("inside") or match.group("after"))
                 if item.strip()]
        if MIN_CHOICES <= len(items) <= MAX_CHOICES and all(len(item.split()) <= CHOICE_WORDS for item in items):
            return items
    return []


# (chosen, not tuned: two offered make a choice, and a longer run than six is a description's list; an offered answer
# is a name or short noun phrase, "chest radiographs", not a clause)
MIN_CHOICES, MAX_CHOICES = 2, 6
CHOICE_WORDS = 3
_OFFERED = r"[^?:;()]+?(?:,|\bor\b)[^?:;()]+?"  # (items joined by commas or "or")
_CHOICES = re.compile(r"(?:^|[.?!;:,]\s+|\band\s+)\W*(?:which|what)\s+"
                      rf"(?:(?:[\w'-]+\s+){{1,3}}?\(\s*(?!(?:e\.g|i\.e|such\s+as|like|including)\b)(?P<inside>{_OFFERED})\s*\)"
                      rf"|[^?:;()]*?(?::\s*|\b(?:was|is)\s+it,?\s+)(?P<after>{_OFFERED})\s*\?\s*$)", re.IGNORECASE)
_CHOICE_SPLIT = re.compile(r"\s*,\s*(?:or\s+)?|\s+or\s+", re.IGNORECASE)


def asked_quantities(question: str) -> list[str]:
    """The settings a question asks the value of: "What learning rate and batch size did RISE use?" -> ["learning
    rate", "batch size"]. An abstract that never writes one has no value for it, whatever figures it states. Only
    a setting the wh-word's clause asks for, or one typed as the question ("learning rate for X?"): "Which
    abstracts put a number on their gains - not dataset sizes?" asks for papers, and sets sizes aside. Nor the size
    of what a paper is or builds ("What model size does DGP use?", "the dataset size"): its counts ("7B and 13B",
    "33,625 events") answer that."""
    asked: list[str] = []
    # where the settings typed as the question end: "learning rate and batch size used for X?" asks both (not "RL
    # roundup time, and yes, RLHF counts. What have we got?", whose wh-word asks)
    after = len(question) if _ANY_WH.search(question) else 0
    for m in _QUANTITY.finditer(question):
        typed = after <= m.start() and (not question[after:m.start()].strip(" ,")
                                        or bool(_SERIES_JOIN.fullmatch(question[after:m.start()])))
        if (typed or _ASKS_QUANTITY.search(question[:m.start()])) and not _BUILT_THING.search(m.group(1)):
            qualifier = m.group(1).split()
            named = typed and len(qualifier) > 1 and _ACRONYM.fullmatch(qualifier[0])  # ("DGP inference overhead")
            asked.append(" ".join([*(qualifier[1:] if named else qualifier), m.group(2)]))
        after = m.end() if typed else len(question)
    return asked


def names_measure(text: str) -> bool:
    """Whether a text names an evaluation measure ("accuracy rate", "word error rate"), by the field's lexicon."""
    return bool(re.search(_MEASURE, text, re.IGNORECASE))


def asked_measures(question: str) -> list[str]:
    """The evaluation measures a question asks the value of: "What accuracy or F1 does IndRM achieve ...?" ->
    ["accuracy", "F1"]. An abstract that never writes one has no value of it: IndRM's, which states no result, had
    answered with its identifiability theorem, and the cfDNA one, asked its "sensitivity and specificity", with
    "exceeds ... clinical tests" (probe75 pq037, probe79 pu039)."""
    return [found for match in _MEASURE_ASKED.finditer(question)
            for found in re.findall(_MEASURE, next(g for g in match.groups() if g), re.IGNORECASE)]


# Names of evaluation measures (a lexicon of the field's metrics, not of any question); "mAP" only so written ("what is
# the importance map computed from" had asked a figure, tests/test_rewordings.py q011)
_MEASURE = (r"\b(?:accuracy|accuracies|precision|recall|F1|F-score|AUC|AUROC|AUPRC|sensitivity|specificity|BLEU"
            r"|ROUGE|perplexity|(?-i:mAP)|IoU|Dice|error\s+rate|exact\s+match|win[- ]?rates?"
            # (calibration and image measures: "What exact Expected Calibration Error does CoCHI get?", probe21 b042)
            r"|(?:expected\s+)?calibration\s+error|ECE|NLL|(?:negative\s+)?log-likelihood|Brier\s+score|FID|PSNR|SSIM"
            r"|R?MSE|MAE)\b")
# ("sensitivity and specificity", "accuracy or F1")
_MEASURES_LISTED = rf"((?:{_MEASURE})(?:\s*(?:,|/|\band\b|\bor\b)\s*(?:{_MEASURE}))*)"
_MEASURE_ASKED = re.compile(rf"\b(?:what|which)\s+(?:[\w-]+\s+){{0,3}}?"  # ("what exact attribution accuracy")
                            rf"{_MEASURES_LISTED}"
                            # (or passive: "what sensitivity and specificity were achieved", probe85 qc035)
                            r"\s+(?:scores?\s+|values?\s+)?(?:does|do|did|is|was|were|are|can|could|would)\b"
                            # (or asked after the verb: "what were the sensitivity and specificity on the real
                            # patient cohort?", probe100 qs035)
                            r"|\b(?:what|which)\s+(?:is|was|are|were)\s+(?:the|its|their)\s+(?:[\w-]+\s+){0,2}?"
                            rf"{_MEASURES_LISTED}(?![\w-])"
                            # (or asked alone, ending the question: "Which dataset, and what accuracy?", probe141
                            # sh039)
                            # (not "with what accuracy?" of a winner asked: "which model came out best, and with
                            # what accuracy?" asks for the winner first)
                            rf"|(?<!\bwith\s)(?<!\bat\s)\b(?:what|which)\s+(?:[\w-]+\s+){{0,2}}?{_MEASURES_LISTED}\s*\?",
                            re.IGNORECASE)


def asks_duration(question: str) -> bool:
    """Whether the question asks how long something takes or how much faster it is: "How long does the pipeline
    take to run on the largest Sudoku?", "How much faster are the pipelines than exact compilation?". An abstract
    writing no word of time or speed (``TIME_WORDS``) has no such figure, whatever else it measures: the Sudoku
    paper's "orders-of-magnitude more accurate" had answered both. ("How long is the fine-tuning?" asks a length,
    which "fewer than 300 steps" gives.)"""
    return bool(_DURATION.search(question))


# (or a time measure asked the value of: "what is the wall-clock cost relative to exact compilation?", "whats the
# param / latency overhead?", "I'd like the inference latency overhead", probe104 qw036, probe98 qp037, probe96 qn039)
# (an aside may come first, "How long, in wall-clock time, do ... take", or the unit of work, "how long per run?",
# probe113 rf040, probe112 re038)
_DURATION = re.compile(r"\bhow\s+long\b(?:\s*,[^,?.;]*,)?\s+(?:does|did|do|would|will|can)\b[^?.;]*?"
                       r"\b(?:take|takes|run|runs|train)\b"
                       r"|\bhow\s+long\s+(?:per|for\s+(?:a|each|one))\s+(?:(?:training\s+)?run|epoch|step|iteration)\b"
                       r"|\bhow\s+much\s+(?:faster|slower|quicker)\b"
                       r"|\b(?:what(?:['\u2019]?s)?|how\s+much|(?:['\u2019]d|would)\s+like)\s+[^?.;]{0,40}?"
                       r"\b(?:wall[- ]?clock|run[- ]?times?|latency|latencies|inference\s+time|training\s+time"
                       r"|throughput)\b", re.IGNORECASE)
# The words an abstract states a time or a speed with (their stems match other forms: "faster", "speeds", "hours")
TIME_WORDS = ("time", "runtime", "second", "minute", "hour", "day", "fast", "faster", "speed", "speedup", "quick",
              "latency", "wall-clock", "throughput", "accelerate", "slow")
TIME_STEMS = frozenset(stem(w) for w in TIME_WORDS)  # (a missing term already of time: not said twice)


# A setting's name: one or two words before a quantity noun ("batch size", "LoRA rank", "audio sampling rate")
# (or what it costs, asked "how much": "How much extra parameter count or inference latency does DGP add?" had been
# answered with DGP's gains, "+4.2 on SQA"; "How much faster in wall-clock time is the Token Hypothesis?" with its
# memory savings)
_QUANTITY = re.compile(r"\b((?:(?!(?:what|which|how|much|the|a|an|and|or|of|its|their|this|that|these|those|is|are"
                       r"|was|were|at|in|on|for|with|by|to)\b)[\w-]+\s+){1,2})(sizes?|rates?|ranks?|ratios?|counts?"
                       r"|latency|latencies|overheads?|footprints?|times?|runtimes?|speedups?|throughputs?)\b",
                       re.IGNORECASE)
_ANY_WH = re.compile(rf"\b(?:{_WH_WORDS})\b", re.IGNORECASE)
_SERIES_JOIN = re.compile(r"\s*(?:,\s*)?(?:and|or|,)\s+", re.IGNORECASE)
_BUILT_THING = re.compile(rf"\b(?:{_PART_NOUNS}|models?|data|corpus|network)s?\b", re.IGNORECASE)
_ASKS_QUANTITY = re.compile(r"\b(?:what|which|how\s+much)\b(?:(?!\s-\s)[^,;:.?!()\u2013\u2014])*$",  # (its clause)
                            re.IGNORECASE)


def _one_beats_another(question: str, mentions: Sequence[int]) -> bool:
    """Whether the words between two named papers rank one over the other: "Does VolumeProbe beat META-DINO?",
    "does VolumeProbe do better or worse than META-DINO", or measure one on the other: "How does RISE do when
    evaluated on Who&When Pro?" (asked in three tuning sets; RISE's own benchmarks had been quoted as if they were
    it). Not "compare META-DINO and VolumeProbe: how does each make learning better", where nothing between the
    names relates them."""
    at = sorted(mentions)
    between = [question[start:end] for start, end in zip(at, at[1:], strict=False)]
    return any((_OUTDOES.search(b) or _MEASURED_ON.search(b)) and not _CLAUSE_MARK.search(b)
               and len(b.split()) <= VERSUS_WORDS for b in between)


# Both names in one short clause: "How does DaTMe make diffusion faster and better, and how does the Token Hypothesis
# ...?" asks each about itself. (Searched from the first name's first letter: a name holds none of these words.)
VERSUS_WORDS = 8  # the first name and "do better or worse than" with a word to spare
_CLAUSE_MARK = re.compile(r"[,;:?!]|\.\s")
# ... and measured on the second name: "evaluated on", "try their method on the" right before it
_MEASURED_ON = re.compile(r"\b(?:evaluat|test|tri|try|run|ran|benchmark|assess|appl|validat)\w*\b.*\bon\s+(?:the\s+)?$",
                          re.IGNORECASE)
_OUTDOES = re.compile(r"\b(?:beats?|beaten|outperform\w*|surpass\w*|better|worse|stronger|weaker|superior|inferior)"
                      r"\b", re.IGNORECASE)


def beaten_unnamed(question: str) -> list[str]:
    """What a question asks a paper to beat, written without a capital: "Does CoCHI beat plain temperature scaling
    ...?" -> ["plain temperature scaling"]. It may be a method the abstract never mentions, or the paper's own
    finding in other words ("peer learning beats learning alone"): only a paper writing none of its words lacks it.
    Not after "versus": "which 3D chunks you feed the model, versus just grabbing pieces at random" contrasts
    the paper's own idea with what it replaces, in other words."""
    return [" ".join(terms) for m in _BEATEN.finditer(question)
            if not _written_as_name(m.group(1)) and not _VERSUS.match(m.group(0)) and not _activities(question, m)
            and (terms := content_terms(m.group(1)))]


def _activities(question: str, beaten: re.Match[str]) -> bool:
    """Whether "A beats B" sets two activities side by side, a gerund opening either ("when copying peers beats
    solo trial-and-error", "imitation beats going solo"): a finding retold in the asker's words, not a method the
    paper is measured against. Three paraphrases of the social-learning question had been told the abstract does
    not mention "going solo" or "figuring", while quoting its "rely on information from others rather than
    experiment" (tuning sets); every method asked to be beaten there is a noun phrase ("plain temperature scaling",
    "uniformly random pair selection")."""
    return bool(_GERUND.match(beaten.group(1)) or _GERUND_BEFORE.search(question[:beaten.start()]))


# a gerund, not a noun that ends so ("during", "thing", "something", "string"), nor a name's word ("Selective Social
# Learning beat its baselines": a method named)
_GERUND_WORD = r"(?!(?:during|thing|things|something|nothing|anything|everything|string|strings|spring|bring)\b)" \
    r"[a-z]{2,}ing\b"
_GERUND = re.compile(rf"\s*{_GERUND_WORD}")
_GERUND_BEFORE = re.compile(rf"\b{_GERUND_WORD}(?:\s+[\w'-]+){{0,3}}\s*$")


def _written_as_name(phrase: str) -> bool:
    """A beaten phrase with a capital names a method ("the PC algorithm"); one without may be a finding retold."""
    return bool(re.search(r"[A-Z]", phrase))


# A word of the phrase may hold periods ("LLaVA-1.5-7B") but not end at one: "compared to plain LLaVA-1.5-7B. What's
# the number?" had read "plain LLaVA-1.5-7B What's the number" as the method compared against, and said it was missing.
_AGAINST_PHRASE = (r"((?:(?!(?:in|on|for|at|across|under|when|by|regarding|and|or)\b(?!-))"
                   r"[\w&+'-]+(?:\.[\w&+'-]+)*\s*){1,5})")
# (or tested against: "Which datasets is IndRM benchmarked against PC, GES ... on?" had been answered from IndRM's
# abstract, which names neither)
# ("compare its memory savings against gradient checkpointing": three words between, probe89 qg038)
_AGAINST = re.compile(r"\b(?:(?:compare[sd]?|comparing|fares?|stacks?\s+up)\s+(?:\w+\s+){0,3}?(?:with|to|against)"
                      r"|(?:benchmark(?:s|ed|ing)?|evaluated|tested|measured|pitted|validated|do|does|did|perform(?:s|ed)?)"
                      r"\s+against)\s+"  # ("How does IndRM do against PC or GES?", probe75 pq039)
                      + _AGAINST_PHRASE, re.IGNORECASE)
# "Does IndRM beat the PC algorithm?": a method beaten, when named ("peer learning beats learning alone" describes
# a finding in other words, and its absent words are no missing method).
_VERSUS = re.compile(r"(?:versus|vs)\b", re.IGNORECASE)
_BEATEN = re.compile(r"\b(?:beats?|outperform(?:s|ed)?|surpass(?:es|ed)?|versus|vs\.?)\s+(?:the\s+)?" + _AGAINST_PHRASE,
                     re.IGNORECASE)


def exclusion_phrase(question: str) -> str | None:
    """"the one that isn't about speeding up generation" -> "speeding up generation"."""
    match = _EXCLUDING.search(question)
    return match.group(1).strip() if match else None
