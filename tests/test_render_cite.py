"""Citations as reference managers read them: BibTeX through two parsers (bibtexparser and
pybtex), RIS through rispy, CSL-JSON against the official CSL schema (tests/schemas/, vendored),
for every paper of the frozen catalogue, the whole catalogue, each venue and each tag; and titles,
names and venues that citation formats get wrong."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import bibtexparser
import jsonschema
import pybtex.database
import pytest
import rispy
from conftest import paper
from test_builder_incremental import live  # noqa: F401 -- a builder kept across edits, compared with clean builds

from catalogue import urls
from catalogue.config import SiteConfig
from catalogue.content.citekeys import cite_keys, own_key
from catalogue.content.model import Paper, Venue
from catalogue.pipeline import build_site
from catalogue.render.cite import split_name
from catalogue.report import ContentError, Report

SCHEMA = json.loads((Path(__file__).parent / "schemas/csl-data.json").read_text(encoding="utf-8"))
CSL = jsonschema.Draft7Validator(SCHEMA)


def read_all(site: Path, folder: str, bib: str, ris: str, csl: str) -> dict[str, list[str]]:
    """The cite keys in a folder's three files, each as its parser read them; the BibTeX must
    read the same in both parsers, with nothing left over."""
    bib_text = (site / folder / bib).read_text(encoding="utf-8")
    parsed = bibtexparser.parse_string(bib_text)
    assert not parsed.failed_blocks, folder
    pybtex_keys = list(pybtex.database.parse_string(bib_text, "bibtex").entries.keys())
    records = rispy.loads((site / folder / ris).read_text(encoding="utf-8"))
    items = json.loads((site / folder / csl).read_text(encoding="utf-8"))
    CSL.validate(items)
    assert all(r["type_of_reference"] == "CPAPER" and r["title"] and "end_of_reference" not in r for r in records)
    return {"bibtexparser": [e.key for e in parsed.entries], "pybtex": pybtex_keys,
            "rispy": [r["id"] for r in records], "csl": [i["id"] for i in items]}


def same_keys(found: dict[str, list[str]], expected: list[str]) -> None:
    for parser, keys in found.items():
        assert keys == expected, parser


def key_of(path: Path) -> str:
    """The cite key a paper page states in its BibTeX block."""
    return re.search(r"@inproceedings\{([^,]+),", path.read_text(encoding="utf-8")).group(1)


@pytest.fixture(scope="module")
def papers(frozen_site) -> dict[str, str]:
    """slug → cite key, for every paper page of the frozen catalogue."""
    pages = sorted((frozen_site / "papers").glob("*/index.html"))
    found = {page.parent.name: key_of(page) for page in pages if "@inproceedings" in page.read_text()}
    assert len(found) > 90
    return found


def test_every_paper_has_three_citation_files_that_parsers_read(frozen_site, papers):
    for slug, key in papers.items():
        folder = f"papers/{slug}"
        same_keys(read_all(frozen_site, folder, urls.CITATION, urls.CITATION_RIS, urls.CITATION_CSL_JSON), [key])


def test_the_whole_catalogue_cites_every_paper_once_in_each_format(frozen_site, papers):
    found = read_all(frozen_site, ".", urls.BIBTEX, urls.RIS, urls.CSL_JSON)
    for parser, keys in found.items():
        assert sorted(keys) == sorted(papers.values()) and len(keys) == len(papers), parser


def test_each_venue_and_tag_cites_its_papers_and_its_page_says_how_many(frozen_site, papers):
    per_venue: Counter = Counter()
    for kind, section in (("venue", "venues"), ("tag", "tags")):
        folders = sorted(p.parent for p in (frozen_site / section).glob("*/papers.bib"))
        assert len(folders) >= (3 if kind == "venue" else 20)
        for folder in folders:
            found = read_all(frozen_site, f"{section}/{folder.name}", urls.BIBTEX, urls.RIS, urls.CSL_JSON)
            keys = found["csl"]
            same_keys(found, keys)
            assert set(keys) <= set(papers.values()) and len(set(keys)) == len(keys)
            page = (folder / "index.html").read_text(encoding="utf-8")
            count = int(re.search(r"<h2>(\d+) papers?</h2>" if kind == "tag" else r"<p class=\"lead\">(\d+) paper",
                                  page).group(1))
            wording = "the paper" if count == 1 else f"all {count} papers"
            assert len(keys) == count and f'<p class="cite-all">Cite {wording}:' in page
            assert f'href="/{section}/{folder.name}/papers.ris" download="{folder.name}.ris"' in page
            if kind == "venue":
                per_venue.update(keys)
    assert sorted(per_venue) == sorted(papers.values()) and set(per_venue.values()) == {1}


def test_entries_carry_what_the_venue_and_the_paper_say(frozen_site, papers):
    bib = bibtexparser.parse_string((frozen_site / urls.BIBTEX).read_text(encoding="utf-8"))
    csl = {item["id"]: item for item in json.loads((frozen_site / urls.CSL_JSON).read_text(encoding="utf-8"))}
    for entry in bib.entries:
        fields, item = entry.fields_dict, csl[entry.key]
        venue = re.search(r"\((\w+ (\d{4}))\)$", item["event-title"])  # `… (ICML 2024)`
        volume = {"ICML 2024": "235", "ICML 2025": "267"}.get(venue.group(1))
        assert (fields["volume"].value if "volume" in fields else None) == volume, entry.key
        assert ("publisher" in fields) == (volume is not None) and ("series" in fields) == (volume is not None)
        assert fields["year"].value == venue.group(2)
        assert item["container-title"] == fields["booktitle"].value and item["issued"] == {"date-parts": [[int(venue.group(2))]]}
        # The url is the paper's own page (proceedings, else OpenReview); arXiv is the eprint, never the url.
        own_page = item.get("URL", "") if not item.get("URL", "").startswith("https://arxiv.org/") else ""
        assert (fields["url"].value if "url" in fields else "") == own_page, entry.key
        assert ("eprint" in fields) == ("archive_location" in item) and "note" not in fields
        if "eprint" in fields:
            assert fields["archiveprefix"].value == "arXiv" and item["archive_location"] == fields["eprint"].value
    iclr = bibtexparser.parse_string((frozen_site / "papers/samba/cite.bib").read_text()).entries[0]
    assert iclr["booktitle"] == "The Thirteenth International Conference on Learning Representations"


def test_keys_are_unique_and_as_google_scholar_writes_them(papers):
    assert all(re.fullmatch(r"[a-z]+\d{4}[a-z0-9]+|[a-z0-9]+\d{4}", key) for key in papers.values())
    assert len(set(papers.values())) == len(papers)
    assert (papers["longrope"], papers["samba"]) == ("ding2024longrope", "ren2025samba")


def cited(title: str, authors: tuple[str, ...] = (), slug: str = "x", added: str = "2025-01-01") -> Paper:
    return Paper(title=title, slug=slug, venue=Venue(2024, "ICML"), authors=authors, added=added, tags=(), body="",
                 path=Path(f"{slug}.md"))


@pytest.mark.parametrize(("title", "authors", "key"), [
    ("LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens", ("Yiran Ding",), "ding2024longrope"),
    ("How Powerful are Graph Neural Networks?", ("Keyulu Xu",), "xu2024powerful"),  # minor words skipped
    ("Transformers Learn In-Context by Gradient Descent", ("Johannes von Oswald",), "vonoswald2024transformers"),
    ("$\\infty$-Video: Memory", ("Saul Santos",), "santos2024video"),  # math and symbols are no word
    ("The Self-Attention Trick", ("Gizem Yüce", "Ada Lovelace"), "yuce2024self"),  # ASCII, as Scholar splits it
    ("On Søren", ("Søren Hauberg",), "hauberg2024soren"),
    ("A Study", ("Jan Łukasiewicz", "Grace Hopper"), "lukasiewicz2024study"),
    ("RetroInText: A Framework", (), "retrointext2024"),  # no authors: no `anonymous` beside every other
    ("中文", ("王伟",), "x2024"),  # nothing in ASCII: the slug's first word
])
def test_a_key_is_the_first_authors_family_name_the_year_and_the_first_significant_title_word(title, authors, key):
    assert own_key(cited(title, authors)) == key


def test_a_later_paper_whose_key_collides_takes_the_next_suffix_and_leaves_published_keys_alone():
    first = cited("Samba: Hybrid", ("Ada Lovelace",), "samba", "2024-05-01")
    second = cited("Samba Again", ("Ada Lovelace",), "again", "2024-06-01")
    same_day = cited("Samba Too", ("Ada Lovelace",), "too", "2024-06-01")  # same day: slug order
    odd = cited("Sambab: Other", ("Ada Lovelace",), "other", "2024-07-01")  # own key taken by a suffixed one
    keys = cite_keys([odd, same_day, second, first])
    assert keys == {"samba": "lovelace2024samba", "again": "lovelace2024sambab", "too": "lovelace2024sambac",
                    "other": "lovelace2024sambabb"}
    later = cited("Samba Later", ("Ada Lovelace",), "later", "2025-01-01")
    assert cite_keys([first, second, same_day, odd, later]) == keys | {"later": "lovelace2024sambad"}


def test_a_collision_remakes_the_pages_it_moves_as_a_clean_build_makes_them(live):
    project, root, rebuild = live
    papers, site = project.content / "papers", root / "live"
    samba = (site / "papers/samba/cite.bib").read_text(encoding="utf-8")
    assert samba.startswith("@inproceedings{lovelace2025samba,")
    project.write("content/papers/samba-two.md", paper("samba-two", "Samba Two", "ICLR 2025", extra=(
        "authors: [Ada Lovelace]\nadded: 2025-06-01\n")))
    rebuild(papers / "samba-two.md")  # added later: a suffix for it, samba's files as they were
    assert (site / "papers/samba/cite.bib").read_text(encoding="utf-8") == samba
    assert "@inproceedings{lovelace2025sambab," in (site / "papers/samba-two/cite.bib").read_text(encoding="utf-8")
    project.write("content/papers/a-samba.md", paper("a-samba", "Samba First", "ICLR 2025", extra=(
        "authors: [Ada Lovelace]\n")))
    rebuild(papers / "a-samba.md")  # no date, before samba's in slug order: it moves samba's key, and samba is made again
    assert (site / "papers/samba/cite.bib").read_text(encoding="utf-8").startswith("@inproceedings{lovelace2025sambab,")
    assert "{lovelace2025samba," in (site / "papers.bib").read_text(encoding="utf-8")


def test_names_split_into_given_and_family_names_with_their_particles():
    assert split_name("Johannes von Oswald") == ("Johannes", "von Oswald", "")
    assert split_name("Benjamin Van Roy") == ("Benjamin", "Van Roy", "")
    assert split_name("Di Liu") == ("Di", "Liu", "")  # a first word is a given name, even `Di` or `De`
    assert split_name("Ludwig van der Beethoven") == ("Ludwig", "van der Beethoven", "")
    assert split_name("André F. T. Martins") == ("André F. T.", "Martins", "")
    assert split_name("Martin Luther King, Jr.") == ("Martin Luther", "King", "Jr.")
    assert split_name("Plato") == ("", "Plato", "")


PMLR_VENUE = """\
venues:
  - name: ICML
    year: 2024
    title: International Conference on Machine Learning
    booktitle: Proceedings of the 41st International Conference on Machine Learning
    publisher: PMLR
    series: Proceedings of Machine Learning Research
    volume: 235
"""
AWKWARD = ("Ada Lovelace", "Benjamin Van Roy", "Johannes von Oswald", "Martin Luther King Jr.", "Grace {Brewster} Hopper")


def test_awkward_titles_and_names_stay_valid_and_split_alike_everywhere(scratch, tmp_path):
    scratch.write("content/venues.yaml", PMLR_VENUE)
    authors = "".join(f"  - '{name}'\n" for name in AWKWARD)
    scratch.write("content/papers/odd.md", (
        "---\ntitle: 'Caches & Costs: 100% of $O(n \\log n)$ #1 at_once ~ {braced} ^up \\ back'\nslug: odd\n"
        f"venue: ICML 2024\ntags: [kv-cache]\nauthors:\n{authors}arxiv: '2401.00001'\n"
        "url: https://proceedings.mlr.press/v235/odd24a.html\n---\n\nAn abstract with <b>markup</b> & $x^2$.\n"))
    out = tmp_path / "out"
    build_site(SiteConfig(content_dir=scratch.content, out_dir=out, search=False, social_images=False), Report())
    bib = (out / "papers/odd/cite.bib").read_text(encoding="utf-8")
    assert r"$O(n \log n)$" in bib and r"Caches \& Costs: 100\% of" in bib  # BibTeX keeps TeX
    entry = pybtex.database.parse_string(bib, "bibtex").entries["lovelace2024caches"]
    people = [(" ".join(p.first_names + p.middle_names), " ".join(p.prelast_names + p.last_names), " ".join(p.lineage_names))
              for p in entry.persons["author"]]
    item = json.loads((out / "papers/odd/cite.json").read_text(encoding="utf-8"))[0]
    record = rispy.loads((out / "papers/odd/cite.ris").read_text(encoding="utf-8"))[0]
    CSL.validate([item])
    assert [(a.get("given", ""), a["family"], a.get("suffix", "")) for a in item["author"]] == [
        ("Ada", "Lovelace", ""), ("Benjamin", "Van Roy", ""), ("Johannes", "von Oswald", ""),
        ("Martin Luther", "King", "Jr."), ("Grace {Brewster}", "Hopper", "")]
    assert [(g.replace("{\\textbraceleft}", "{").replace("{\\textbraceright}", "}"), f, s) for g, f, s in people] == [
        (a.get("given", ""), a["family"], a.get("suffix", "")) for a in item["author"]]
    assert record["authors"][1:4] == ["Van Roy, Benjamin", "von Oswald, Johannes", "King, Martin Luther, Jr."]
    assert item["title"] == record["title"] == r"Caches & Costs: 100% of O(n log n) #1 at_once ~ {braced} ^up \ back"
    assert item["URL"] == record["urls"][0] == "https://proceedings.mlr.press/v235/odd24a.html"
    assert record["urls"][1] == "https://arxiv.org/abs/2401.00001" and item["archive_location"] == "2401.00001"
    html = (out / "papers/odd/index.html").read_text(encoding="utf-8")
    reference = re.search(r'<p class="cite-block reference" id="reference">(.*?)</p>', html).group(1)
    assert reference.startswith("Ada Lovelace, Benjamin Van Roy, Johannes von Oswald, Martin Luther King Jr., and Grace")
    assert "2024. Caches &amp; Costs: 100% of O(n log n)" in reference
    assert ("In <i>Proceedings of the 41st International Conference on Machine Learning</i> "
            "(Proceedings of Machine Learning Research, Vol. 235). PMLR.") in reference


def test_a_venue_without_citation_fields_cites_its_full_name_and_a_volume_must_be_a_number(scratch, tmp_path):
    scratch.write("content/papers/plain.md", paper("plain", "Plain Paper", "ICML 2025"))
    out = tmp_path / "out"
    build_site(SiteConfig(content_dir=scratch.content, out_dir=out, search=False, social_images=False), Report())
    entry = bibtexparser.parse_string((out / "papers/plain/cite.bib").read_text()).entries[0]
    assert entry["booktitle"] == "International Conference on Machine Learning (ICML 2025)"
    assert not {"volume", "publisher", "series", "url"} & set(entry.fields_dict)
    scratch.write("content/venues.yaml", "venues:\n  - name: ICML\n    year: 2025\n    title: ICML\n    volume: v267\n")
    with pytest.raises(ContentError) as error:
        build_site(SiteConfig(content_dir=scratch.content, out_dir=tmp_path / "bad", search=False), Report())
    assert "venues.yaml:5: venue: `volume` must be a whole number, not the text 'v267'" in str(error.value)


def test_watch_previews_leave_out_the_list_citations_but_keep_each_papers():
    preview = SiteConfig(out_dir=Path("unused"), site_files=False)
    for path in ("papers.ris", "papers.json", "venues/icml-2024/papers.bib", "tags/kv-cache/papers.json"):
        assert preview.leaves_out(path), path
    for path in ("papers/samba/cite.ris", "papers/samba/cite.json", "venues/icml-2024/", "tags/x/page/papers.bib"):
        assert not preview.leaves_out(path), path
