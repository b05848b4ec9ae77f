"""What a raw list does not say: a provisional title, a slug, and the paper's links.

A derived title is `Name: What it is` when the abstract names its own method
(`Samba: Simple hybrid architecture …`), else a short phrase for what the paper does
(`Training dynamics of in-context learning in linear attention`). Long titles end at a phrase
boundary, never with an ellipsis.
"""

from __future__ import annotations

import re
import unicodedata

from .cleaning import MATH

MAX_TITLE = 90
MAX_SLUG_WORDS = 6
MAX_SLUG_LENGTH = 60
MIN_WHAT_WORDS = 3
CODE_HOSTS = ("github.com", "gitlab.com", "huggingface.co", "bitbucket.org", "codeberg.org")


def method_name(abstract: str) -> tuple[str, str]:
    """The name an abstract gives its own method, and what it says the method is."""
    sentences = _sentences(_plain(abstract))
    for find in (_introduced, _named_in_sentence, _introduced_acronym):
        for index, sentence in enumerate(sentences):
            name, what = find(sentence, sentences[:index])
            if name:
                return name, what or _described(name, sentences)
    name = _emphasised(abstract) or _concept(abstract)
    return (name, _described(name, sentences)) if name else ("", "")


def derived_title(abstract: str) -> str:
    """`Samba: Simple hybrid architecture …`, else a phrase for what the paper does."""
    name, what = method_name(abstract)
    sentences = _sentences(_plain(abstract))
    topic = _topic(sentences)
    if name:
        return _named_title(name, what or topic)
    if topic and re.search(r"\bposition paper\b", abstract, re.IGNORECASE):
        return _fit(f"Position: {topic}")
    return _fit(topic or (_phrase(sentences[0]) if sentences else ""))


# Finding the name

# One word of a name: `Samba`, `miniCTX`, `SELF-PARAM`, `M+`, `$\infty$-Video`, `AD$^\varepsilon$`.
_WORD = (r"(?:(?:\$[^$\s]{1,24}\$|∞)-?[A-Z][\w+-]*"
         r"|(?:[A-Z][\w+-]*|[a-z]+[A-Z][\w+-]*)(?:\.\d+)?(?:\$[^$\s]{1,24}\$)?)")
_NAME = rf"(?P<name>{_WORD}(?: (?:{_WORD}|\d+)){{0,3}})"
# Who states a contribution: `we`, `this paper`, `our work`, with `also`, `further`, `first`.
_SUBJECT = (r"(?:\b[Ww]e|\b(?:[Tt]his|[Oo]ur|[Tt]he present) (?:position )?(?:paper|work|article|study|research))"
            r"(?:,? (?:also|further|first|then|thus|hence|therefore|now|here|instead|\w+ly),?){0,2}")
_INTRO_VERB = (r"(?:propos|introduc|creat|devis)(?:e|es|ed|ing)"
               r"|(?:present|develop|design|construct|unveil)(?:s|ed|ing)?|build(?:s|ing)?|built")
# Words that may describe the method before its name: `a comprehensive benchmark VL-ICL Bench`.
_DESCRIBER = (r"(?!(?:that|which|to|of|for|in|on|with|by|from|as|is|are|can|it|its|their|this|these"
              r"|both|called|named|dubbed|termed|designated|coined)\b)[a-z][\w-]*")
_INTRO = re.compile(rf"(?:{_SUBJECT} |\b(?:by|to) |\b[Oo]ur )(?:{_INTRO_VERB}) (?:(?:a|an|the|our) )?"
                    rf"(?P<describer>(?:{_DESCRIBER},? ){{0,6}}?){_NAME}")
_CALLED = re.compile(rf"(?:\b(?:a|an|the) (?P<describer>(?:[\w-]+ ){{0,6}}?[\w-]+),? )?"
                     rf"\b(?:called|named|dubbed|termed|designated as|coined) {_NAME}")
_IN_NAME = re.compile(rf"^In {_NAME}, we\b")
_SUBJECT_NAME = re.compile(rf"^{_NAME}, (?=(?:a|an) )")
_EXPANSION_BEFORE = re.compile(
    r"(?P<expansion>[A-Z][\w-]*(?: [\w-]+){1,6}?) \((?P<name>[A-Z][\w+-]*[A-Z][\w+-]*)\)")
_DEFINED = re.compile(r"\((?P<name>[A-Z][A-Za-z]*[A-Z][A-Za-z]*)\)")
_EMPHASIS = re.compile(
    r"(?<![\w*])(?:_\*\*|\*\*|\*|`|_)(?P<name>[^\s*_`][^*_`]{0,30}?)(?:\*\*_|\*\*|\*|`|_)(?![\w*])")
_CONCEPT = re.compile(r"\b(?:call|term|name|dub|refer to) (?:this|these|the|it|such)(?: \w+)? "
                      r"(?:as )?(?:the )?\*\*(?P<name>[a-z][\w -]{2,40})\*\*")
_COINED = re.compile(r"[A-Za-z][a-z0-9-]*[A-Z]|[A-Za-z]-?\d|[$∞+]")
# Acronyms of the field's problems and tools: what papers work on, never a paper's own name.
_FIELD_ACRONYMS = {"LLM", "LM", "VLM", "VLLM", "MLLM", "ICL", "IWL", "SSM", "KV", "RAG", "NLP", "AI",
                   "ML", "RL", "GPU", "CNN", "RNN", "GNN", "GT", "MLP", "SFT", "PPL", "QA", "VQA",
                   "GPT", "LSTM", "MoE", "LoRA", "RoPE", "SGD", "GD", "CoT", "TSF", "LTI", "IFT"}
# What may follow a name: `(Expansion)`, `, a …`, `, leveraging …`, `, which V …`, `for …`; or a
# lower-case noun, which makes the capitalised word an adjective (`a KV cache paradigm`).
_AFTER_NAME = re.compile(
    r" ?\((?P<paren>[^()]+)\)"
    r"|(?:,|:| [–—-]) (?:i\.e\., )?(?P<what>(?:a|an|the) .+)"
    r"|, (?P<gerund>[a-z]+ing\b[^,]*)"
    r"|,? (?:that|which)(?:,[^,]+,)?(?: is able to| can| could| allows? us to)? (?P<verb>[a-z]+) (?P<rest>.+)"
    r"|(?P<prep>,? (?:for|to|with|via|on|in) .+)"
    r"|(?P<lowercase> (?!(?:and|or) [A-Z$])(?!(?:is|are|was|were|has|can|the|a|an|as|at|by|from)\b)[a-z])")


def _introduced(sentence: str, before: list[str]) -> tuple[str, str]:
    """`we present Samba, a …`, `we propose a new paradigm called LaCache`, `Expansion (X)`."""
    for intro in [*_CALLED.finditer(sentence), *_INTRO.finditer(sentence)]:
        start, end = intro.span("name")
        expanded = _EXPANSION_BEFORE.match(sentence, start)
        if expanded and _acceptable(expanded.group("name")):
            return expanded.group("name"), expanded.group("expansion")
        name, what = _what_after(intro.group("name"), sentence[end:])
        if name and _acceptable(name):
            return name, _with_describer(intro.group("describer"), what)
    return "", ""


def _named_in_sentence(sentence: str, before: list[str]) -> tuple[str, str]:
    """`In MagicDec, we show …`, or a sentence opening `MambaExtend, a …`."""
    match = _IN_NAME.match(sentence) or _SUBJECT_NAME.match(sentence)
    if not match or not _coined(match.group("name")) or not _acceptable(match.group("name")):
        return "", ""
    return _what_after(match.group("name"), sentence[match.end("name"):])


def _introduced_acronym(sentence: str, before: list[str]) -> tuple[str, str]:
    """`we propose an approach that recasts ICL as in-context vectors (ICV)`."""
    intro = re.search(rf"{_SUBJECT} (?:{_INTRO_VERB}) (?P<object>.+)", sentence)
    defined = _DEFINED.search(sentence)
    if not intro or not defined or not _acceptable(defined.group("name")):
        return "", ""
    name = defined.group("name")
    if any(name in earlier for earlier in before):
        return "", ""  # the problem's acronym, defined before the paper says what it does
    return name, intro.group("object").replace(f" ({name})", "")


def _emphasised(markdown: str) -> str:
    """A coined word in bold, italics or code: `**LongPPL**`, `_**MambaExtend**_`, `` `miniCTX` ``."""
    prose = MATH.sub(lambda formula: " " * len(formula.group(0)), markdown)
    for match in _EMPHASIS.finditer(prose):
        words = match.group("name").split()
        if (len(words) <= 3 and _coined(words[0]) and all(_acceptable(w) for w in words)
                and not any(w[0].islower() and not _coined(w) for w in words)):
            return " ".join(words)
    return ""


def _concept(markdown: str) -> str:
    """A phenomenon the paper names: `We call this phenomenon the **context-parametric inversion**`."""
    match = _CONCEPT.search(markdown)
    return _capitalise(match.group("name").strip()) if match else ""


def _acceptable(name: str) -> bool:
    """Not a field's acronym (`LLMs`, `KV`) and short enough to be a name."""
    return re.sub(r"s$", "", name) not in _FIELD_ACRONYMS and name not in _FIELD_ACRONYMS and len(name) <= 40


def _coined(name: str) -> bool:
    """Looks made up (`HiP`, `miniCTX`, `ChatQA 2`, `∞-Video`), unlike `Efficacy` or `Mamba`."""
    return bool(_COINED.search(name)) and not name.isdigit()


def _what_after(name: str, after: str) -> tuple[str, str]:
    """The name as finally spelled, and what the words right after it say it is."""
    match = _AFTER_NAME.match(after)
    if not match:
        return name, ""
    if match.group("lowercase"):
        return "", ""  # `we propose a KV cache paradigm`: a capitalised adjective, no name
    if match.group("paren"):
        return _paren(name, match.group("paren"), after[match.end():])
    if match.group("verb"):
        return name, _as_gerund(match.group("verb"), match.group("rest"))
    return name, match.group("what") or match.group("gerund") or match.group("prep") or ""


def _paren(name: str, paren: str, after: str) -> tuple[str, str]:
    """`Metalic (Meta-Learning In-Context)`, `Learning Principles (LEAP)`, `X (Y), a …`."""
    paren = paren.strip()
    if " " not in paren and " " in name:
        return paren, name
    if " " not in paren:
        return name, _what_after(name, after)[1] or paren
    return name, paren


def _with_describer(describer: str | None, what: str) -> str:
    """`a comprehensive benchmark VL-ICL Bench for …` says what it is before the name."""
    describer, what = (describer or "").strip(" ,"), what.strip(" ,")
    purpose = re.match(r"to ([a-z]+) (.+)", what)
    if not describer:
        return _as_gerund(*purpose.groups()) if purpose else what
    if not what or _generic(what):
        return describer
    return f"{describer} {what}" if re.match(r"(?:for|to|with|via|on|in) ", what) else what


def _described(name: str, sentences: list[str]) -> str:
    """What the rest of the abstract says the name is: `X, a …`, `X is a …`, `X (Expansion)`, `X does …`."""
    named = re.escape(name)
    pattern = re.compile(rf"(?<![\w-]){named}(?:,| is)(?= (?:a|an) )|(?<![\w-]){named}(?= \()")
    for sentence in sentences:
        for match in pattern.finditer(sentence):
            rest = sentence[match.end():]
            what = _what_after(name, rest if rest.startswith(" (") else ", " + rest.lstrip(" ,"))[1]
            if what:
                return what
    for sentence in sentences:
        acts = re.match(rf"{named} (?P<verb>[a-z]+s) (?P<rest>.+)", sentence)
        if acts and _as_gerund(acts.group("verb"), acts.group("rest")):
            return _as_gerund(acts.group("verb"), acts.group("rest"))
    return ""


# What the paper does, without a name

_MAIN_SENTENCE = re.compile(r"^(?:In this (?:position )?(?:paper|work|study|article)"
                            r"|This (?:position )?(?:paper|work|study|article)|Here)\b")
_CONTRIBUTION = re.compile(rf"{_SUBJECT} (?P<verb>[a-z]+)(?P<rest>(?: about)? .+)")
_STUDY_VERBS = re.compile(r"(?:stud(?:y|ies)|investigates?|explores?|analy[sz]es?|examines?|characteri[sz]es?"
                          r"|revisits?|considers?|address(?:es)?|tackles?|discuss(?:es)?|probes?"
                          r"|quantif(?:y|ies)|reviews?)$")
_NAMING_VERBS = re.compile(rf"(?:{_INTRO_VERB}|provid\w+|offer\w*|deriv\w+|establish\w*|is|are)$")
_CLAUSE_VERBS = re.compile(r"(?:show|demonstrate|find|prove|argue|discover|reveal|observe|disclose"
                           r"|hypothesi[sz]e|conclude|discuss|establish|report|confirm|verif(?:y|ie))s?$")
_AUXILIARIES = {"is", "are", "was", "were", "has", "have", "had", "does", "do", "did", "can",
                "could", "will", "would", "may", "might", "must", "should", "need", "needs"}
_SKIP_VERBS = _AUXILIARIES | {"call", "dub", "name", "term", "coin", "refer", "believe", "hope",
                              "expect", "want", "note", "see",
                              "know", "use", "define", "evaluate", "conduct", "perform", "compare"}
_ANAPHORA = re.compile(r"^(?:\w+ ){0,3}?(?:this|these|those|such|it|its|their|them|our|both|above"
                       r"|aforementioned|said)\b", re.IGNORECASE)
_GENERIC_HEADS = {"approach", "method", "framework", "technique", "strategy", "tool", "way",
                  "setting", "model", "phenomenon", "observation", "question", "problem", "issue",
                  "limitation", "challenge", "solution", "idea", "system", "algorithm", "task"}
_INTERJECTION = re.compile(
    r"(?:^|,? )(?:for the first time|to our knowledge|to the best of our knowledge|while effective"
    r"|in particular|for example|for instance|in turn|e\.g\.|i\.e\.)[^,]*, ?")
_INNER_APPOSITIVE = re.compile(r"(?<=[A-Za-z0-9]), (?:a|an) [^,]{1,60},(?= )")


def _topic(sentences: list[str]) -> str:
    """A phrase for the paper's contribution, from the sentence that states it."""
    main = [s for s in sentences if _MAIN_SENTENCE.match(s)]
    for sentence in main + [s for s in sentences if s not in main]:
        for clause in _CONTRIBUTION.finditer(sentence):
            rest = _antecedent(clause.group("rest").strip(), sentences)
            phrase = _contribution_phrase(clause.group("verb"), rest)
            if phrase and not _ANAPHORA.match(phrase) and not _generic(phrase):
                return _capitalise(phrase)
    return ""


def _contribution_phrase(verb: str, rest: str) -> str:
    """`we investigate the X` → `X`; `we show that S` → `S`; `we enhance X` → `Enhancing X`."""
    if rest.startswith("about "):
        return _noun_phrase(rest[len("about "):])
    if verb.endswith("ed") or verb in _SKIP_VERBS or not verb.isalpha():
        return ""  # the past tells what others did; `we use`, `we call` state no contribution
    if _CLAUSE_VERBS.match(verb):
        clause = re.match(r"that,? (.+)|[^:]{0,40}: (.+)", rest)
        if clause or not _STUDY_VERBS.match(verb):
            return _phrase(clause.group(1) or clause.group(2)) if clause else ""
    if verb == "ask":
        return _question(rest.split(" ", 1)[1]) if rest.startswith(("whether ", "if ")) else ""
    if _STUDY_VERBS.match(verb) or _NAMING_VERBS.match(verb):
        return _noun_phrase(rest)
    return f"{_gerund(verb)} {_phrase(rest)}"


def _antecedent(rest: str, sentences: list[str]) -> str:
    """`we study this observation` → what an earlier sentence said the observation is."""
    match = re.match(r"(?:this|these) (\w+)", rest)
    for sentence in sentences if match else []:
        stated = re.search(rf"\b{match.group(1)} (?:is|are) that (.+)", sentence)
        if stated:
            return stated.group(1)
    return rest


def _noun_phrase(text: str) -> str:
    """`a novel memory architecture designed …` → `memory architecture designed …`."""
    text = re.sub(r"^(?:a|an|the) (?:first,? )?", "", _phrase(text))
    return re.sub(r"^(?:novel|new|alternative) ", "", text)


def _phrase(text: str) -> str:
    """A title-like phrase: no parentheses, quotes or asides; a relative clause as `-ing`."""
    text = _outside_math(text, lambda prose: re.sub(r" ?\([^()]*\)|[\"“”]", "", prose))
    text = re.sub(r" [–—] [^–—]+ [–—](?= )", "", text)
    text = _INTERJECTION.sub(lambda aside: " " if aside.start() else "", text)
    text = _INNER_APPOSITIVE.sub("", text)
    text = re.sub(r", (?:which|where|who) (?:we|is|are|was|were)\b.*|, [a-z]+ing\b.*", "", text)
    text = re.sub(r"^(?:[\w-]+ )*?(?:evidence|proof)s? that ", "", text.strip())
    text = re.sub(r" (?:in|for|of|on|to) (?:such|these|this|those) \w+$", "", text)
    head, colon, tail = text.partition(": ")
    if colon:  # `an intriguing phenomenon: the reliance decreases …` says it after the colon
        text = tail if _generic(head) or _ANAPHORA.match(head) or "phenomenon" in head else head
    return _gerund_clause(text.strip(" ,;"))


def _gerund_clause(text: str) -> str:
    """`mechanism that leverages buffers` → `mechanism leveraging buffers`, or just its `by …` if anaphoric."""
    match = re.search(r",? (?:that|which) (?P<adverb>[\w-]+(?:ly|-wise) )?(?P<verb>[a-z]+) (?P<rest>.*)", text)
    if not match or not _verb_like(match.group("verb")) or re.match(r"(?:and|or) ", match.group("rest")):
        return text  # `sub-circuits that memorize and generalize` stays as it is
    rest = match.group("rest")
    means = re.search(r"\bby (?P<how>[a-z]+ing .*)", rest)
    if _ANAPHORA.match(rest) and means:  # `that overcomes these issues by combining X` → `combining X`
        return f"{text[:match.start()]} {means.group('how')}"
    return f"{text[:match.start()]} {match.group('adverb') or ''}{_gerund(match.group('verb'))} {rest}"


def _as_gerund(verb: str, rest: str) -> str:
    """`LongGen, which finetunes an LLM …` → `Finetuning an LLM …`; nothing if `verb` is none."""
    return f"{_gerund(verb)} {rest}" if _verb_like(verb) else ""


def _verb_like(word: str) -> bool:
    """After `that` or `to`: a verb to turn into `-ing`, not `the`, `we`, `can` or `not`."""
    return (word not in _AUXILIARIES and word not in _SLUG_STOPWORDS and word not in _STOP_TAIL
            and word not in {"they", "them", "not", "no", "only", "all", "each"}
            and not word.endswith(("ed", "ly", "ing")))


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
    question = f"{match.group('aux')} {match.group('subject').strip()} {_phrase(match.group('rest'))}"
    return question + "?" if len(question) < MAX_TITLE else ""


def _generic(phrase: str) -> bool:
    """`training-free method`, `two stylized settings`: says nothing about this paper."""
    words = re.sub(r"^(?:(?:a|an|the|both|two|three|several|novel|new) )+", "", phrase.strip(" .")).split()
    if not words:
        return True
    head = words[-1].lower()
    return len(words) <= 3 and (head in _GENERIC_HEADS or re.sub(r"e?s$", "", head) in _GENERIC_HEADS)


# Fitting a title

# Where a long title may end: before a clause (best), or before a preposition or participle.
_CLAUSE_CUT = re.compile(r"[,;:] | [–—-] | (?=(?:that|which|where|whereas|while|thereby|thus|so|but)\b(?!-))")
_PHRASE_CUT = re.compile(
    r",? (?=(?:and|or|to|by|via|for|of|with|without|in|on|from|through|using|under|across|within"
    r"|over|at|as|into|towards?|between|during|about|against|beyond|after|before|among|based"
    r"|such|when|since|because|compared|rather|instead)\b(?!-)"
    r"|[a-z]+(?:ing|ed) (?:by|to|for|from|with|on|in|the|a|an)\b|[a-z]+ly [a-z]+ing\b)")
# `… by dynamically searching`, `… involving learning`, `a series`, `the goal`: cut off from what they govern.
_CUT_OFF = re.compile(r"(?:\bby|\bfor|\w+ly|\w+ing) \w+ing$|\w+ly$|\w{3,}ed$"
                      r"|\b(?:depending|relying|focusing|leading|resulting|according|corresponding|belonging"
                      r"|pertaining|referring|contributing|series|set|number|range|variety"
                      r"|mixture|family|class|kind|type|suite|collection|amount|sequence|goal|aim|purpose"
                      r"|means|part|use|way|lot|couple|pair)$")
_STOP_TAIL = {"a", "an", "the", "of", "for", "to", "and", "or", "in", "on", "with", "by", "that",
              "which", "from", "at", "as", "via", "while", "is", "are", "its", "their", "our",
              "both", "such", "than", "more", "into", "not", "also", "between", "whether", "without",
              "within", "through", "using", "across", "over", "under", "about", "during", "against",
              "beyond", "after", "before", "among", "towards", "toward", "per", "like", "upon",
              "compared", "due", "according", "relative", "up", "thanks", "respect"}


def _named_title(name: str, what: str) -> str:
    """`Name: What it is`, the description shortened; just the name if too little of it is left."""
    what = _noun_phrase(what) if what else ""
    if what.lower().startswith(name.lower()):  # `we propose X, which …` read as what X is
        what = re.sub(r"^[\s,:–—-]*(?:is |are )?", "", what[len(name):])
    what = _capitalise(_noun_phrase(what))
    if not what or what.lower() == name.lower():
        return _fit(name)
    title = _fit(f"{name}: {what}")
    kept = len(title.split()) - len(name.split())
    return title if kept >= min(MIN_WHAT_WORDS, len(what.split())) else _fit(name)


def _fit(title: str, limit: int = MAX_TITLE) -> str:
    """At most `limit` characters, shortened at a phrase boundary; no ellipsis, no dangling word."""
    title = _outside_math(title.replace("…", " "), lambda prose: prose.replace("...", " "))
    title = re.sub(r"\s+", " ", title).strip().rstrip(".,;: ")
    if len(title) > limit:  # titles do without adverbs: `designed to (significantly) enhance`
        title = re.sub(r" (?!early\b)[a-z]+(?:al|ive|ent|ant|ous|ar|ate|ed|ing|ss|ib|ab|ful)ly\b", "", title)
    if len(title) > limit:
        title = _shorten(title, limit)
    return _trim_tail(title)


def _shorten(title: str, limit: int) -> str:
    """The longest prefix that fits and ends at a boundary; a clause boundary if that keeps most of it."""
    keep = title.find(": ") + 2 if ": " in title[:45] else 0  # never cut into the name
    formulas = [m.span() for m in MATH.finditer(title)]

    def fitting(pattern: re.Pattern[str], clean: bool = True) -> list[int]:
        return [m.start() for m in pattern.finditer(title, keep) if m.start() <= limit
                and (_clean_cut(title, m.start()) if clean else _trim_tail(title[:m.start()]).count(" ") >= 2)
                and not any(a < m.start() < b for a, b in formulas)]

    clause, phrase = fitting(_CLAUSE_CUT), fitting(_PHRASE_CUT)
    if clause and (max(clause) >= 0.6 * limit or not phrase):
        return title[:max(clause)]
    cuts = phrase + clause or fitting(_CLAUSE_CUT, clean=False) + fitting(_PHRASE_CUT, clean=False)
    if cuts:
        return title[:max(cuts)]
    words = title[:limit + 1].split(" ")[:-1]  # no boundary fits: whole words, whole formulas
    while words and any(a < len(" ".join(words)) < b for a, b in formulas):
        words = words[:-1]
    return " ".join(words) or title[:limit]


def _clean_cut(title: str, at: int) -> bool:
    """Whether ending at `at` leaves a whole phrase: not `… involving | learning to`, not `a series | of`."""
    before, after = title[:at], title[at:]
    gerunds = before.endswith("ing") and re.match(r" \w+ing\b", after)
    return _trim_tail(before).count(" ") >= 2 and not _CUT_OFF.search(before) and not gerunds


def _trim_tail(title: str) -> str:
    """Drop dangling small words and punctuation from the end."""
    words = title.rstrip(" ,;:–—-").split(" ")
    while len(words) > 1 and (words[-1].lower().strip(",;:(") in _STOP_TAIL or words[-1][-1] in ",;:(–—-"):
        words = words[:-1]
    return " ".join(words).rstrip(" ,;:–—-")


# Text handling

_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\bet al)(?<!\bvs)(?<!\bcf)(?<!\bFig)(?<!\bEq)"
                           r"[.!?](?= [A-Z0-9$(\"“]| [a-z]+[A-Z]|$)")


def _plain(markdown: str) -> str:
    """Markdown to plain text: links to their words, emphasis and code marks gone, math kept."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    text = re.sub(r"<(https?://[^>]+)>", r"\1", text)
    return _outside_math(text, lambda prose: re.sub(
        r"\*\*|(?<!\w)\*|\*(?!\w)|`|(?<![\w\\])_(?=\S)|(?<=\S)_(?!\w)", "", prose))


def _outside_math(text: str, change) -> str:
    """Apply `change` to the text between `$…$` formulas."""
    parts, last = [], 0
    for formula in MATH.finditer(text):
        parts += [change(text[last:formula.start()]), formula.group(0)]
        last = formula.end()
    return "".join(parts + [change(text[last:])])


def _sentences(text: str) -> list[str]:
    """Split at sentence ends, not after `e.g.`, `i.e.`, `et al.`, `vs.` or inside formulas."""
    text = re.sub(r"\s+", " ", text).strip()
    formulas = [m.span() for m in MATH.finditer(text)]
    sentences, start = [], 0
    for end in _SENTENCE_END.finditer(text):
        if not any(a <= end.start() < b for a, b in formulas):
            sentences.append(text[start:end.start()].strip())
            start = end.end()
    sentences.append(text[start:].strip())
    return [s for s in sentences if s]


def _capitalise(phrase: str) -> str:
    return phrase[:1].upper() + phrase[1:]


# Slugs and links

_SLUG_STOPWORDS = {"a", "an", "the", "of", "for", "to", "and", "or", "in", "on", "with", "by",
                   "from", "at", "as", "via", "is", "are", "be", "this", "that", "these", "we",
                   "our", "its", "it", "has", "have", "can", "do", "does", "why", "what", "how",
                   "when", "into", "not", "s"}
_SYMBOLS = {"∞": " infinity ", "+": " plus ", "&": " and ", "α": " alpha ", "ε": " epsilon ",
            "\\infty": " infinity ", "\\varepsilon": " epsilon ", "\\epsilon": " epsilon ",
            "\\alpha": " alpha "}
_URL = re.compile(r"https?://[^\s<>()\[\]{}\"]*[^\s<>()\[\]{}\".,;:!?'’”]")


def slugify(text: str, max_words: int = MAX_SLUG_WORDS) -> str:
    """Readable lower-case ASCII: `∞-Video` → `infinity-video`; `M+` → `m-plus`."""
    for symbol, spelled in _SYMBOLS.items():
        text = text.replace(symbol, spelled)
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    tokens = [t for t in re.split(r"[^a-z0-9-]+", ascii_text) if t.strip("-")]
    if len(tokens) > 3:  # a sentence, not a name: keep the words that carry meaning
        tokens = [t for t in tokens if t not in _SLUG_STOPWORDS] or tokens
    words = [w for t in tokens for w in re.findall(r"[a-z0-9]+", t)][:max_words]
    slug = "-".join(words)
    while len(slug) > MAX_SLUG_LENGTH and "-" in slug:
        slug = slug.rsplit("-", 1)[0]
    return slug[:MAX_SLUG_LENGTH] or "paper"


def slug_source(title: str, abstract: str) -> str:
    """What the slug is made from: a short name before the title's colon, the method's name, or the title."""
    prefix, _, rest = title.partition(":")
    if rest and prefix.strip().lower() == "position":
        return slug_source(rest.strip(), abstract)
    if rest and len(prefix.split()) <= 3:
        return prefix
    name, _ = method_name(abstract)
    return name if name and len(name.split()) <= 3 else title


def unique_slug(base: str, taken: set[str]) -> str:
    """`base`, or `base-2`, `base-3` … whichever is free."""
    slug, number = base, 2
    while slug in taken:
        slug, number = f"{base}-{number}", number + 1
    return slug


def find_links(abstract: str) -> tuple[str, str]:
    """The first code repository and the first project page mentioned in the abstract."""
    code = project = ""
    for url in _URL.findall(abstract):
        host = re.sub(r"^https?://(www\.)?", "", url).split("/")[0].lower()
        if host in CODE_HOSTS and not code:
            code = url
        elif host not in CODE_HOSTS and not project:
            project = url
    return code, project
