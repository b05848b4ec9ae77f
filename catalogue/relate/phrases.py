"""Where the taxonomy's phrases occur in a title and an abstract, found in one pass over the
words: each phrase is tried only at the words it can start with, so 10,000 abstracts take
seconds, where a pattern a tag scanned over every character took a minute."""

from __future__ import annotations

import re

from ..content.model import Taxonomy
from ..content.taxonomy import phrase_pattern, singulars

Found = dict[str, list[tuple[str, str]]]  # tag → its phrases' mentions: (`title` or `abstract`, text matched)

_WORD = re.compile(r"[a-z0-9]+")


class Phrases:
    """The taxonomy's phrases, indexed by their first word, each matched as `phrase_pattern` says."""

    def __init__(self, taxonomy: Taxonomy):
        self._by_word: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
        self._by_prefix: dict[int, dict[str, list[tuple[str, re.Pattern[str]]]]] = {}
        self._candidates: dict[str, tuple[tuple[str, re.Pattern[str]], ...]] = {}  # by word, as met
        for tag in taxonomy.tags.values():
            for phrase in tag.phrases:
                self._index(tag.id, phrase)

    def _index(self, tag: str, phrase: str) -> None:
        stem = phrase.rstrip("*")
        first = _WORD.match(stem)
        if first is None:
            return  # every phrase starts with a letter or digit; one that does not can match nothing here
        pattern = phrase_pattern(phrase)
        if phrase.endswith("*") and first.group() == stem:  # `extrapolat*`: the first word itself is a prefix
            self._by_prefix.setdefault(len(stem), {}).setdefault(stem, []).append((tag, pattern))
        else:
            self._by_word.setdefault(first.group(), []).append((tag, pattern))

    def found(self, title: str, body: str) -> Found:
        """tag → each mention, in the order found (the longest of a tag's phrases at each word)."""
        found: Found = {}
        for where, text in (("title", title.lower()), ("abstract", body.lower())):
            for word in _WORD.finditer(text):
                candidates = self._candidates.get(word.group())
                if candidates is None:
                    candidates = self._candidates[word.group()] = self._starting(word.group())
                if candidates:
                    for tag, matched in _longest(text, word.start(), candidates).items():
                        found.setdefault(tag, []).append((where, matched))
        return found

    def _starting(self, word: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
        """The phrases that can start at this word (asked once a word: most words start none)."""
        candidates = [c for form in singulars(word) for c in self._by_word.get(form, ())]
        for length, stems in self._by_prefix.items():
            candidates += stems.get(word[:length], ()) if length <= len(word) else ()
        return tuple(candidates)


def _longest(text: str, start: int, candidates: tuple[tuple[str, re.Pattern[str]], ...]) -> dict[str, str]:
    """The tags whose phrases match at `start`, with the longest text each matches."""
    best: dict[str, str] = {}
    for tag, pattern in candidates:
        hit = pattern.match(text, start)
        if hit and len(hit.group()) > len(best.get(tag, "")):
            best[tag] = hit.group()
    return best
