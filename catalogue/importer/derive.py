"""What a raw list does not say about a paper: a provisional title, derived from its abstract.

A derived title is `Name: What it is` when the abstract names its own method
(`Samba: Simple hybrid architecture …`), else a short phrase for what the paper does
(`Training dynamics of in-context learning in linear attention`, from phrases.py). Long titles
end at a phrase boundary, never with an ellipsis (fitting.py).
"""

from __future__ import annotations

import re

from ..text import MATH, outside_math, unlink
from .fitting import fit
from .phrases import (
    INTRO_VERB,
    SUBJECT,
    as_gerund,
    capitalise,
    is_generic,
    noun_phrase,
    title_phrase,
    topic_of,
)

MIN_WHAT_WORDS = 3


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
    topic = topic_of(sentences)
    if name:
        return _named_title(name, what or topic)
    if topic and re.search(r"\bposition paper\b", abstract, re.IGNORECASE):
        return fit(f"Position: {topic}")
    return fit(topic or (title_phrase(sentences[0]) if sentences else ""))


# Finding the name

# One word of a name: `Samba`, `miniCTX`, `SELF-PARAM`, `M+`, `$\infty$-Video`, `AD$^\varepsilon$`.
_WORD = (r"(?:(?:\$[^$\s]{1,24}\$|∞)-?[A-Z][\w+-]*"
         r"|(?:[A-Z][\w+-]*|[a-z]+[A-Z][\w+-]*)(?:\.\d+)?(?:\$[^$\s]{1,24}\$)?)")
_NAME = rf"(?P<name>{_WORD}(?: (?:{_WORD}|\d+)){{0,3}})"
# Words that may describe the method before its name: `a comprehensive benchmark VL-ICL Bench`.
_DESCRIBER = (r"(?!(?:that|which|to|of|for|in|on|with|by|from|as|is|are|can|it|its|their|this|these"
              r"|both|called|named|dubbed|termed|designated|coined)\b)[a-z][\w-]*")
_INTRO = re.compile(rf"(?:{SUBJECT} |\b(?:by|to) |\b[Oo]ur )(?:{INTRO_VERB}) (?:(?:a|an|the|our) )?"
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
    intro = re.search(rf"{SUBJECT} (?:{INTRO_VERB}) (?P<object>.+)", sentence)
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
    return capitalise(match.group("name").strip()) if match else ""


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
        return name, as_gerund(match.group("verb"), match.group("rest"))
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
        return as_gerund(*purpose.groups()) if purpose else what
    if not what or is_generic(what):
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
        if acts and as_gerund(acts.group("verb"), acts.group("rest")):
            return as_gerund(acts.group("verb"), acts.group("rest"))
    return ""


def _named_title(name: str, what: str) -> str:
    """`Name: What it is`, the description shortened; just the name if too little of it is left."""
    what = noun_phrase(what) if what else ""
    if what.lower().startswith(name.lower()):  # `we propose X, which …` read as what X is
        what = re.sub(r"^[\s,:–—-]*(?:is |are )?", "", what[len(name):])
    what = capitalise(noun_phrase(what))
    if not what or what.lower() == name.lower() or is_generic(what):  # `RankRAG`, not `RankRAG: Method`
        return fit(name)
    title = fit(f"{name}: {what}")
    kept = len(title.split()) - len(name.split())
    return title if kept >= min(MIN_WHAT_WORDS, len(what.split())) else fit(name)


# Text handling

# Unlike the pages' `plain_text` (catalogue/text.py), a title keeps its formulas as TeX, so marks go
# only outside them, `_emphasis_` too, and every `*` of `***x***`: a title must not read `_Name_`.
_MARKS = re.compile(r"\*\*|(?<!\w)\*|\*(?!\w)|`|(?<![\w\\])_(?=\S)|(?<=\S)_(?!\w)")
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\bet al)(?<!\bvs)(?<!\bcf)(?<!\bFig)(?<!\bEq)"
                           r"[.!?](?= [A-Z0-9$(\"“]| [a-z]+[A-Z]|$)")


def _plain(markdown: str) -> str:
    """Markdown to plain text for finding names: links to their words, marks gone, `$…$` kept."""
    return outside_math(unlink(markdown), lambda prose: _MARKS.sub("", prose))


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
