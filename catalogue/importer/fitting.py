"""A derived title fitted into `MAX_TITLE` characters: cut at a phrase boundary, never an ellipsis."""

from __future__ import annotations

import re

from ..text import MATH, outside_math

MAX_TITLE = 90

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
# Small words a title may not end on.
STOP_TAIL = {"a", "an", "the", "of", "for", "to", "and", "or", "in", "on", "with", "by", "that",
             "which", "from", "at", "as", "via", "while", "is", "are", "its", "their", "our",
             "both", "such", "than", "more", "into", "not", "also", "between", "whether", "without",
             "within", "through", "using", "across", "over", "under", "about", "during", "against",
             "beyond", "after", "before", "among", "towards", "toward", "per", "like", "upon",
             "compared", "due", "according", "relative", "up", "thanks", "respect"}


def fit(title: str, limit: int = MAX_TITLE) -> str:
    """At most `limit` characters, shortened at a phrase boundary; no ellipsis, no dangling word."""
    title = outside_math(title.replace("…", " "), lambda prose: prose.replace("...", " "))
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
    while len(words) > 1 and (words[-1].lower().strip(",;:(") in STOP_TAIL or words[-1][-1] in ",;:(–—-"):
        words = words[:-1]
    return " ".join(words).rstrip(" ,;:–—-")
