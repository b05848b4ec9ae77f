"""Properties that must hold for any input, checked on many generated ones (hypothesis)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogue.importer.cleaning import clean_abstract
from catalogue.importer.derive import derived_title
from catalogue.importer.rawlist import read_list
from catalogue.importer.slugs import slug_source, slugify
from catalogue.render.markup import Markup
from catalogue.report import Report
from catalogue.urls import SLUG_PATTERN

# Text that looks like what reaches us: prose, math, Markdown, HTML, URLs, any Unicode.
FRAGMENTS = st.sampled_from([
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<svg onload=alert(1)>", "<iframe src=x>",
    "[a](javascript:alert(1))", "<a href='java\tscript:x'>y</a>", '<p style="color:red">', "$x^2$", "$$\\sum_i$$",
    "\\textbf{bold}", "**b**", "`c`", "<math><mi>x</mi></math>", "https://example.org/a_b", "<", ">", "&", "\"",
    "\n\n", "---", "M+", "∞-Video", "ICLR 2025", "\t", "\r\n", "\ufeff",
])
TEXT = st.lists(st.one_of(st.text(max_size=40), FRAGMENTS), max_size=12).map("".join)
DANGEROUS_TAGS = {"script", "iframe", "svg", "img", "style", "object", "embed", "form", "base", "link", "meta"}


class _Tags(HTMLParser):
    """The elements and attributes a browser would build (escaped text is text, not a tag)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, attrs))


@given(TEXT)
def test_a_slug_is_always_safe_and_never_empty(text):
    slug = slugify(text)
    assert slug and SLUG_PATTERN.match(slug) and len(slug) <= 60


@given(TEXT, TEXT)
def test_titles_and_slug_sources_never_fail(title, abstract):
    assert isinstance(derived_title(abstract), str)
    assert SLUG_PATTERN.match(slugify(slug_source(title, abstract)))


@given(TEXT)
@settings(max_examples=300)
def test_rendered_markup_never_carries_script(text):
    parser = _Tags()
    parser.feed(Markup().render(text))
    for tag, attributes in parser.found:
        assert tag not in DANGEROUS_TAGS, tag
        for name, value in attributes:
            assert not name.startswith("on") and name != "style", (tag, name)
            url = re.sub(r"[\t\n\r]", "", (value or "").strip("".join(map(chr, range(33)))))  # as browsers read it
            scheme, colon, _ = url.lower().partition(":")
            assert not (name in ("href", "src") and colon and scheme in ("javascript", "data", "vbscript")), value


@given(TEXT)
def test_cleaning_never_fails(text):
    assert isinstance(clean_abstract(text), str)


@given(st.lists(TEXT, max_size=6))
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_reading_any_raw_list_never_fails(tmp_path: Path, paragraphs):
    path = tmp_path / "list.txt"
    path.write_text("ICML 2024\n\n" + "\n\n".join(paragraphs), encoding="utf-8")
    report = Report()
    papers = read_list(path, report)
    assert all(p.text.strip() for p in papers)
