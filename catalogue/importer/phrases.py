"""What a paper does, as a title-like phrase: `Training dynamics of in-context learning …`.

The grammar of contribution statements (`we study X`, `this paper shows that S`) and of
turning prose into a title: noun phrases, `-ing` clauses, questions.
"""

from __future__ import annotations

import re

from ..text import outside_math
from .fitting import MAX_TITLE, STOP_TAIL

# Words that may come between who states a contribution and its verb: `we also`, `we empirically`.
_ADVERBIALS = r"(?:,? (?:also|further|first|then|thus|hence|therefore|now|here|instead|\w+ly),?){0,2}"
# Who states a contribution: `we`, `this paper`, `our work`, with `also`, `further`, `first`.
SUBJECT = (r"(?:\b[Ww]e|\b(?:[Tt]his|[Oo]ur|[Tt]he present) (?:position )?(?:paper|work|article|study|research))"
           + _ADVERBIALS)
# How it states a contribution that has a name: `we propose`, `introducing`, `we build`.
INTRO_VERB = (r"(?:propos|introduc|creat|devis)(?:e|es|ed|ing)"
              r"|(?:present|develop|design|construct|unveil)(?:s|ed|ing)?|build(?:s|ing)?|built")

_MAIN_SENTENCE = re.compile(r"^(?:In this (?:position )?(?:paper|work|study|article)"
                            r"|This (?:position )?(?:paper|work|study|article)|Here)\b")
# `In this paper we show`, `In this paper, we empirically examine`.
_CONTRIBUTION = re.compile(rf"{SUBJECT}(?:,? we{_ADVERBIALS})? (?P<verb>[a-z]+)(?P<rest>(?: about)? .+)")
_STUDY_VERBS = re.compile(r"(?:stud(?:y|ies)|investigates?|explores?|analy[sz]es?|examines?|characteri[sz]es?"
                          r"|revisits?|considers?|address(?:es)?|tackles?|discuss(?:es)?|probes?"
                          r"|quantif(?:y|ies)|reviews?)$")
_NAMING_VERBS = re.compile(rf"(?:{INTRO_VERB}|provid\w+|offer\w*|deriv\w+|establish\w*|describ\w+|outlin\w+|is|are)$")
_CLAUSE_VERBS = re.compile(r"(?:show|demonstrate|find|prove|argue|discover|reveal|observe|disclose"
                           r"|hypothesi[sz]e|conclude|discuss|establish|report|confirm|verif(?:y|ie))s?$")
_AUXILIARIES = {"is", "are", "was", "were", "has", "have", "had", "does", "do", "did", "can",
                "could", "will", "would", "may", "might", "must", "should", "need", "needs"}
_SKIP_VERBS = _AUXILIARIES | {"call", "dub", "name", "term", "coin", "refer", "believe", "hope",
                              "expect", "want", "note", "see",
                              "know", "use", "define", "evaluate", "conduct", "perform", "compare"}
# Verbs of the paper's own course, not of what it studies: `we take the first steps toward…`,
# `we answer this question`, `we shed light on…` make no title.
_DISCOURSE_VERBS = {"take", "answer", "fill", "bridge", "close", "shed", "pave", "make", "go", "step", "turn",
                    "move", "aim", "seek", "try", "attempt", "set", "begin", "start", "highlight", "raise",
                    "pose", "give", "put", "bring", "lay", "open", "draw", "respond"}
_FOCUS_VERBS = {"focus", "focuses", "concentrate", "concentrates", "center", "centers"}
# Words between `that` and its verb that are no verb themselves: `that better reflects`.
_ADVERBS = r"(?:[\w-]+(?:ly|-wise)|better|more|less|also|still|further|often|even|only|always|never|rather|thus) "
# Small words that are no verb to turn into `-ing`: a title's dangling words and a few more.
_NOT_VERBS = _AUXILIARIES | STOP_TAIL | {"be", "this", "these", "we", "it", "why", "what", "how", "when", "s",
                                         "they", "them", "not", "no", "only", "all", "each"}
_ANAPHORA = re.compile(r"^(?:\w+ ){0,3}?(?:this|these|those|such|it|its|their|them|our|both|above"
                       r"|aforementioned|said)\b", re.IGNORECASE)
_GENERIC_HEADS = {"approach", "method", "framework", "technique", "strategy", "tool", "way",
                  "setting", "model", "phenomenon", "observation", "question", "problem", "issue",
                  "limitation", "challenge", "solution", "idea", "system", "algorithm", "task"}
_INTERJECTION = re.compile(
    r"(?:^|,? )(?:for the first time|to our knowledge|to the best of our knowledge|while effective"
    r"|in particular|for example|for instance|in turn|e\.g\.|i\.e\.)[^,]*, ?")
_INNER_APPOSITIVE = re.compile(r"(?<=[A-Za-z0-9]), (?:a|an) [^,]{1,60},(?= )")


def topic_of(sentences: list[str]) -> str:
    """A phrase for the paper's contribution, from the sentence that states it."""
    main = [s for s in sentences if _MAIN_SENTENCE.match(s)]
    for sentence in main + [s for s in sentences if s not in main]:
        for clause in _CONTRIBUTION.finditer(sentence):
            rest = _antecedent(clause.group("rest").strip(), sentences)
            phrase = _contribution_phrase(clause.group("verb"), rest)
            if phrase and not _ANAPHORA.match(phrase) and not is_generic(phrase):
                return capitalise(phrase)
    return ""


def _contribution_phrase(verb: str, rest: str) -> str:
    """`we investigate the X` → `X`; `we show that S` → `S`; `we enhance X` → `Enhancing X`."""
    if rest.startswith("about "):
        return noun_phrase(rest[len("about "):])
    if verb in _FOCUS_VERBS and rest.startswith("on "):
        return noun_phrase(rest[len("on "):])
    if (verb.endswith("ed") or verb in _SKIP_VERBS or verb in _NOT_VERBS or verb in _DISCOURSE_VERBS
            or not verb.isalpha()):
        return ""  # the past tells what others did; `we use`, `we call`, `we take` state no contribution
    if _CLAUSE_VERBS.match(verb):
        clause = re.match(r"that,? (.+)|[^:]{0,40}: (.+)", rest)
        if clause or not _STUDY_VERBS.match(verb):
            return title_phrase(clause.group(1) or clause.group(2)) if clause else ""
    if verb == "ask":
        return _question(rest.split(" ", 1)[1]) if rest.startswith(("whether ", "if ")) else ""
    if _STUDY_VERBS.match(verb) or _NAMING_VERBS.match(verb):
        return noun_phrase(rest)
    return f"{_gerund(verb)} {title_phrase(rest)}"


def _antecedent(rest: str, sentences: list[str]) -> str:
    """`we study this observation` → what an earlier sentence said the observation is."""
    match = re.match(r"(?:this|these) (\w+)", rest)
    for sentence in sentences if match else []:
        stated = re.search(rf"\b{match.group(1)} (?:is|are) that (.+)", sentence)
        if stated:
            return stated.group(1)
    return rest


def noun_phrase(text: str) -> str:
    """`a novel memory architecture designed …` → `memory architecture designed …`."""
    text = re.sub(r"^(?:a|an|the) (?:first,? )?", "", title_phrase(text))
    return re.sub(r"^(?:novel|new|alternative) ", "", text)


def title_phrase(text: str) -> str:
    """A title-like phrase: no parentheses, quotes or asides; a relative clause as `-ing`."""
    text = outside_math(text, lambda prose: re.sub(r" ?\([^()]*\)|[\"“”]|''|``", "", prose))
    text = re.sub(r" [–—] [^–—]+ [–—](?= )", "", text)
    text = _INTERJECTION.sub(lambda aside: " " if aside.start() else "", text)
    text = _INNER_APPOSITIVE.sub("", text)
    text = re.sub(r", (?:which|where|who) (?:we|is|are|was|were)\b.*|, [a-z]+ing\b.*", "", text)
    text = re.sub(r"^(?:[\w-]+ )*?(?:evidence|proof)s? that ", "", text.strip())
    text = _main_clause(text)
    text = re.sub(r" (?:in|for|of|on|to) (?:such|these|this|those) \w+$", "", text)
    head, colon, tail = text.partition(": ")
    if colon:  # `an intriguing phenomenon: the reliance decreases …` says it after the colon
        text = tail if is_generic(head) or _ANAPHORA.match(head) or "phenomenon" in head else head
    return _gerund_clause(text.strip(" ,;"))


def _main_clause(text: str) -> str:
    """`while GSSMs are promising…, they are limited…` → `GSSMs are limited…`: the finding, not
    what it concedes."""
    match = re.match(r"(?:while|although|though|whereas|even though) (?P<subject>[^,]+?) (?:is|are|was|were|can|"
                     r"could|may|might|have|has|do|does|seem|seems|appear|appears)\b[^,]*, (?P<main>.+)", text,
                     re.IGNORECASE)
    if not match:
        return text
    return re.sub(r"^(?:they|it|these|this) ", lambda _: f"{match.group('subject')} ", match.group("main"))


def _gerund_clause(text: str) -> str:
    """`mechanism that leverages buffers` → `mechanism leveraging buffers`, or just its `by …` if anaphoric."""
    match = re.search(rf",? (?:that|which) (?P<adverb>{_ADVERBS})?(?P<verb>[a-z]+) (?P<rest>.*)", text)
    if not match or not _verb_like(match.group("verb")) or re.match(r"(?:and|or) ", match.group("rest")):
        return text  # `sub-circuits that memorize and generalize` stays as it is
    rest = match.group("rest")
    means = re.search(r"\bby (?P<how>[a-z]+ing .*)", rest)
    if _ANAPHORA.match(rest) and means:  # `that overcomes these issues by combining X` → `combining X`
        return f"{text[:match.start()]} {means.group('how')}"
    return f"{text[:match.start()]} {match.group('adverb') or ''}{_gerund(match.group('verb'))} {rest}"


def as_gerund(verb: str, rest: str) -> str:
    """`LongGen, which finetunes an LLM …` → `Finetuning an LLM …`; nothing if `verb` is none."""
    return f"{_gerund(verb)} {rest}" if _verb_like(verb) else ""


def _verb_like(word: str) -> bool:
    """After `that` or `to`: a verb to turn into `-ing`, not `the`, `we`, `can` or `not`."""
    return word not in _NOT_VERBS and not word.endswith(("ed", "ly", "ing"))


def _gerund(verb: str) -> str:
    """`extends` → `extending`, `reduces` → `reducing`, `applies` → `applying`."""
    if verb.endswith("ies"):
        stem = verb[:-3] + "y"
    elif re.search(r"(?:ss|sh|ch|x|z)es$", verb):
        stem = verb[:-2]
    elif verb.endswith("s") and not verb.endswith(("ss", "us", "is")):
        stem = verb[:-1]
    else:
        stem = verb
    if stem.endswith("e") and not stem.endswith(("ee", "ye", "oe")):
        stem = stem[:-1]
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgmnpt]", stem):  # `dub` → `dubbing`, `map` → `mapping`
        stem += stem[-1]
    return stem + "ing"


def _question(clause: str) -> str:
    """`whether models can alter X` → `Can models alter X?`."""
    match = re.match(r"(?P<subject>(?:[\w-]+ ){1,4}?)(?P<aux>can|could|do|does|is|are|will|would) (?P<rest>.+)",
                     clause)
    if not match:
        return ""
    question = f"{match.group('aux')} {match.group('subject').strip()} {title_phrase(match.group('rest'))}"
    return question + "?" if len(question) < MAX_TITLE else ""


def is_generic(phrase: str) -> bool:
    """`training-free method`, `two stylized settings`: says nothing about this paper."""
    words = re.sub(r"^(?:(?:a|an|the|both|two|three|several|novel|new) )+", "", phrase.strip(" .")).split()
    if not words:
        return True
    head = words[-1].lower()
    return len(words) <= 3 and (head in _GENERIC_HEADS or re.sub(r"e?s$", "", head) in _GENERIC_HEADS)


def capitalise(phrase: str) -> str:
    """`samba` → `Samba`; the rest as it is."""
    return phrase[:1].upper() + phrase[1:]
