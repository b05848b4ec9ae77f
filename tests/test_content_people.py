"""content/authors.yaml: one person's spellings made one author page, the other page redirected;
names sorted by family name; the authors index's A–Z jumps."""

from __future__ import annotations

import re

import pytest

from catalogue.config import AUTHORS_FILE
from catalogue.content.loader import load_catalogue
from catalogue.content.names import family_initial, family_name, name_order
from catalogue.content.people import load_author_names
from catalogue.pipeline import build_site
from catalogue.report import ContentError, Report


def test_other_spellings_are_shown_under_the_first_and_their_page_redirects(small_site):
    small_site.write("content/papers/icv.md", small_site.papers()["icv.md"].replace(
        "title_source:", "authors: [Ada King Lovelace, Grace Hopper]\ntitle_source:", 1))
    small_site.write(f"content/{AUTHORS_FILE}", "authors:\n  - [Ada King Lovelace, Ada Lovelace]\n")
    build_site(small_site.config(search=False, social_images=False), Report())
    person = (small_site.site / "authors/ada-king-lovelace/index.html").read_text()
    assert person.count('class="paper-item"') == 2  # samba's "Ada Lovelace" and icv's own spelling
    moved = (small_site.site / "authors/ada-lovelace/index.html").read_text()
    assert 'http-equiv="refresh" content="0; url=/authors/ada-king-lovelace/"' in moved
    assert "/authors/ada-lovelace/ /authors/ada-king-lovelace/ 301" in (small_site.site / "_redirects").read_text()
    assert 'href="/authors/ada-king-lovelace/">Ada King Lovelace<' in (small_site.site / "papers/samba/index.html").read_text()
    assert "Ada Lovelace" in small_site.papers()["samba.md"]  # the paper file keeps its spelling


@pytest.mark.parametrize("text, line, words", [
    ("authors:\n  - [Ada Lovelace]\n", 2, "two or more names"),
    ("authors:\n  - [A B, C D]\n  - [E F, C D]\n", 3, "`C D` is listed twice"),
    ("authors:\n  - [A B, C D]\n  - [C D, E F]\n", 2, "`C D` is both shown and merged"),
    ("people:\n  - [A B, C D]\n", 1, "expected `authors:` list"),
])
def test_a_wrong_authors_file_is_refused_at_its_line(tmp_path, text, line, words):
    (tmp_path / AUTHORS_FILE).write_text(text)
    report = Report()
    assert load_author_names(tmp_path, report) is None
    assert (report.errors[0].line, words in report.errors[0].message) == (line, True), report.errors[0]


def test_a_wrong_authors_file_stops_the_load_naming_it(small_site):
    small_site.write(f"content/{AUTHORS_FILE}", "authors:\n  - Ada Lovelace\n")
    with pytest.raises(ContentError) as raised:
        load_catalogue(small_site.content, Report())
    assert str(raised.value.diagnostics[0].path).endswith(AUTHORS_FILE)


def test_family_names_sort_without_accents_or_suffixes():
    assert family_name("André F. T. Martins") == "Martins" and family_name("Martin Luther King Jr.") == "King"
    names = ["Zoë Öztürk", "Amy Zhu", "Bo Ozaki", "Cy Adams"]
    assert sorted(names, key=name_order) == ["Cy Adams", "Bo Ozaki", "Zoë Öztürk", "Amy Zhu"]
    assert (family_initial("Zoë Öztürk"), family_initial("李 明")) == ("O", "#")
    assert (family_initial("Anders Øberg"), family_initial("Łukasz Łopata")) == ("O", "L")  # letters of their own


def test_the_real_authors_index_jumps_to_every_letter_and_merges_the_variants(frozen_site, frozen_catalogue):
    index = (frozen_site / "authors/index.html").read_text()
    jumps = re.findall(r'<a href="/authors/#(letter-[a-z]+)">([A-Z])</a>', index)
    assert len(jumps) > 15
    for anchor, letter in jumps:
        first = re.search(rf'<li id="{anchor}" class="letter-start" data-letter="{letter}"><a href="[^"]+">([^<]+)<', index)
        assert first and family_initial(first[1]) == letter
    martins = (frozen_site / "authors/andre-f-t-martins/index.html").read_text()
    assert martins.count('class="paper-item"') == 2  # AdaSplash's "Andre Martins" and ∞-Video's own
    assert "url=/authors/andre-f-t-martins/" in (frozen_site / "authors/andre-martins/index.html").read_text()
    coauthors = re.findall(r'<li><a href="/authors/[^"]+">([^<]+)</a>', martins.split("Co-authors here")[1])
    assert coauthors == sorted(coauthors, key=name_order) and len(coauthors) >= 4
