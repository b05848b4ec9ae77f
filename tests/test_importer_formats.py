"""`build.py import` reads the formats curators have: BibTeX, CSV (Mini-Conf), OpenReview JSON
(API v1 and v2), arXiv Atom and raw lists with titles, each recognised by its content, with the
raw lists' guarantees: never overwrites, idempotent, duplicates by abstract, arXiv id or DOI,
file:line for what it cannot read, and a dry run that writes nothing."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import bibtexparser
import frontmatter
import pytest
from conftest import new_project, paper
from helpers import FROZEN, copy_project, run, tree

from catalogue.config import PROJECT_ROOT
from catalogue.content.loader import load_catalogue
from catalogue.importer.cleaning import clean_abstract
from catalogue.importer.formats import detect_format, read_entries
from catalogue.importer.lists import import_lists
from catalogue.importer.record import arxiv_of, doi_of, latex_accents, plain_latex
from catalogue.render.cite import bibtex
from catalogue.render.cite_formats import csl_item, ris
from catalogue.report import ContentError, Report

FIXTURES = Path(__file__).parent / "fixtures" / "import"
BIB, CSV, V2, V1 = "icml2024.bib", "iclr2025-papers.csv", "iclr2025-openreview.json", "iclr2025-openreview-v1.json"
ATOM, TITLED = "arxiv-query.xml", "icml2025-titled.txt"


def body_of(slug: str) -> str:
    """The abstract of a paper of the frozen catalogue, which the fixtures repeat as duplicates."""
    return frontmatter.load(FROZEN / "content" / "papers" / f"{slug}.md").content


def fixture(scratch, name: str, as_name: str = "") -> Path:
    target = scratch.root / "lists" / (as_name or name)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(FIXTURES / name, target)
    return target


def run_import(scratch, *names: str, venue: str | None = None, dry_run: bool = False):
    report = Report()
    result = import_lists([fixture(scratch, name) for name in names], scratch.content, None, report,
                          venue=venue, dry_run=dry_run)
    return report, result


def meta(scratch, slug: str) -> dict:
    return frontmatter.load(scratch.content / "papers" / f"{slug}.md").metadata


def summary(report: Report) -> str:
    return next(line for line in report.lines if line.startswith("import:"))


@pytest.fixture
def known(scratch):
    """A catalogue that already holds four of the fixtures' papers: one by its abstract, one by
    its arXiv id alone, one by its DOI alone, and one by both abstract and arXiv id."""
    scratch.write("content/papers/longrope.md", paper("longrope", "LongRoPE", body=body_of("longrope"),
                                                      extra="arxiv: '2402.13753'\n"))
    scratch.write("content/papers/icv.md", paper("icv", "In-context Vectors", extra="arxiv: '2311.06668'\n",
                                                 body="Shifting latent states instead of demonstrations."))
    scratch.write("content/papers/kivi.md", paper("kivi", "KIVI", body="Two-bit keys and values, quantised.",
                                                  extra="doi: 10.48550/arxiv.2402.02750\n"))
    scratch.write("content/papers/hip.md", paper("hip", "HiP", "ICLR 2025", body=body_of("hip")))
    scratch.write("content/papers/samba.md", paper("samba", "Samba", "ICLR 2025", extra="arxiv: '2406.07522'\n",
                                                   body="A hybrid of Mamba and sliding windows."))
    scratch.write("content/papers/rocketkv.md", paper("rocketkv", "RocketKV", "ICML 2025", body=body_of("rocketkv")))
    return scratch


@pytest.mark.parametrize("name, as_name, format_name", [
    (BIB, "", "bibtex"), (CSV, "", "csvlist"), (V2, "", "openreview"), (V1, "", "openreview"),
    (ATOM, "", "atom"), (TITLED, "", "titled"), ("../../../content/sources/003_bdca9e460bbc4f34.txt", "raw.txt", "rawlist"),
    (ATOM, "results.txt", "atom"), (BIB, "papers.csv", "bibtex"), (V2, "notes.bib", "openreview"),
    (CSV, "list.txt", "csvlist"), (TITLED, "titled.json", "titled"), ("icml2024-wrapped.txt", "", "rawlist"),
])
def test_each_format_is_recognised_by_its_content_not_its_name(scratch, name, as_name, format_name):
    path = fixture(scratch, name, as_name)
    assert detect_format(path, path.read_text(encoding="utf-8")).__name__.rsplit(".", 1)[1] == format_name


def test_a_hard_wrapped_raw_list_keeps_each_abstract_whole(scratch):
    """Its first lines are short and capitalised, like titles, but run on: no title is taken from them."""
    report, _ = run_import(scratch, "icml2024-wrapped.txt")
    assert summary(report) == "import: 2 added, 0 skipped, 0 could not be parsed", report.diagnostics
    papers = list(scratch.papers().values())
    assert all("title_source: derived" in text for text in papers)
    assert any("\nState Space Models (SSMs) such as Mamba have recently emerged as an alternative" in text
               for text in papers)


def test_bibtex_fields_become_front_matter(scratch):
    report, _ = run_import(scratch, BIB)
    assert summary(report) == "import: 4 added, 0 skipped, 0 could not be parsed", report.diagnostics
    kivi = meta(scratch, "kivi")
    assert kivi["title"] == "KIVI: A Tuning-Free Asymmetric 2bit Quantization for KV Cache"
    assert kivi["title_source"] == "metadata" and kivi["venue"] == "ICML 2024"
    assert kivi["authors"][:3] == ["Zirui Liu", "Jiayi Yuan", "Hongye Jin"] and len(kivi["authors"]) == 8
    assert (kivi["arxiv"], kivi["doi"]) == ("2402.02750", "10.48550/arXiv.2402.02750")
    assert kivi["code"] == "https://github.com/jy-yuan/KIVI" and kivi["source"] == "icml2024.bib:4"
    assert list(kivi) == ["title", "title_source", "slug", "venue", "added", "authors", "arxiv", "doi", "tags",
                          "code", "aliases", "fingerprint", "source"]
    text = (scratch.content / "papers/kivi.md").read_text()
    assert "develop **KIVI**, a tuning-free $2$bit KV cache" in text and "$4\\times$ larger" in text
    repeat = meta(scratch, "repeat-after-me")  # DBLP's booktitle names `ICML 2024`; its url is PMLR's page
    assert repeat["venue"] == "ICML 2024" and repeat["url"] == "https://proceedings.mlr.press/v235/jelassi24a.html"
    assert meta(scratch, "in-context-vectors")["arxiv"] == "2311.06668"  # `eprint = {2311.06668v3}`
    assert (scratch.content / "sources" / BIB).read_bytes() == (FIXTURES / BIB).read_bytes()
    assert len(load_catalogue(scratch.content, Report()).papers) == 4  # every page valid


def test_csv_rows_with_their_columns_and_the_venue_given(scratch):
    report, _ = run_import(scratch, CSV, venue="ICLR 2025")
    assert summary(report) == "import: 4 added, 0 skipped, 0 could not be parsed"
    duo = meta(scratch, "duoattention")
    assert duo["authors"][:2] == ["Guangxuan Xiao", "Jiaming Tang"] and len(duo["authors"]) == 8
    assert duo["openreview"] == "cFu7ze7xUm" and "url" not in duo  # the paper's forum, from its PDF's address
    assert duo["code"] == "https://github.com/mit-han-lab/duo-attention" and duo["source"] == f"{CSV}:2"
    assert meta(scratch, "samba")["arxiv"] == "2406.07522" and "url" not in meta(scratch, "samba")
    # Rows span one line each, but the one holding a quoted, comma-full abstract is still one row.
    assert meta(scratch, "hip")["source"] == f"{CSV}:5" and "attention locality" in \
        (scratch.content / "papers/hip.md").read_text()


def test_a_file_that_names_no_venue_needs_one_given(scratch):
    report, result = run_import(scratch, ATOM)
    assert result.added == [] and [str(e) for e in report.errors] == [
        (f"{scratch.root / 'lists' / ATOM}: this file names no venue — pass the venue of its papers, like "
        '`--venue "ICLR 2025"` (one of content/venues.yaml: ICLR 2025, ICML 2025, ICML 2024, NeurIPS 2023)')]
    report, _ = run_import(scratch, ATOM, venue="ICRL 2025")
    assert [str(e) for e in report.errors] == [
        "--venue: `ICRL 2025` is not a venue content/venues.yaml lists — did you mean `ICLR 2025`?"]
    assert not (scratch.content / "papers").exists() and not (scratch.content / "sources").exists()


def test_openreview_notes_v2_and_v1_with_their_venues(scratch):
    report, _ = run_import(scratch, V2, V1)
    assert summary(report) == "import: 4 added, 0 skipped, 1 could not be parsed"
    diff = meta(scratch, "diff-transformer")
    assert diff["title"] == "Differential Transformer" and diff["venue"] == "ICLR 2025"  # `ICLR 2025 Oral`
    assert diff["openreview"] == "OvoCm1gGhN" and diff["source"] == f"{V2}:4"
    fox = meta(scratch, "forgetting-transformer")
    assert fox["authors"] == ["Zhixuan Lin", "Evgenii Nikishin", "Xu Owen He", "Aaron Courville"]
    assert fox["source"] == f"{V1}:2"
    assert [str(e) for e in report.errors] == [
        (f"{scratch.root / 'lists' / V1}:23: `Submitted to ICLR 2025` is no accepted paper's venue — leave it out: "
         "only accepted papers join the catalogue (an export after the decisions names its venue)")]


def test_venue_never_makes_a_submission_a_paper_and_says_when_it_overrides_the_file(scratch):
    report, _ = run_import(scratch, V1, venue="ICLR 2025")
    assert summary(report) == "import: 1 added, 0 skipped, 1 could not be parsed"
    assert [e.line for e in report.errors] == [23] and "is no accepted paper's venue" in report.errors[0].message
    other = new_project(scratch.root / "other")
    report, _ = run_import(other, V2, venue="ICML 2024")
    assert "the entry says `ICLR 2025 Oral`, and --venue makes it ICML 2024" in [w.message for w in report.warnings]
    assert meta(other, "diff-transformer")["venue"] == "ICML 2024"


def test_arxiv_atom_entries_with_ids_without_their_version(scratch):
    report, _ = run_import(scratch, ATOM, venue="ICML 2024")
    assert summary(report) == "import: 3 added, 0 skipped, 0 could not be parsed"
    quest = meta(scratch, "quest")
    assert quest["title"] == "Quest: Query-Aware Sparsity for Efficient Long-Context LLM Inference"
    assert (quest["arxiv"], quest["doi"], quest["venue"]) == ("2406.10774", "10.48550/arXiv.2406.10774", "ICML 2024")
    assert quest["authors"][0] == "Jiaming Tang" and quest["code"] == "https://github.com/mit-han-lab/Quest"
    assert quest["source"] == f"{ATOM}:10" and meta(scratch, "less")["source"] == f"{ATOM}:51"


def test_a_raw_list_with_titles_gives_each_abstract_its_title(scratch):
    report, _ = run_import(scratch, TITLED)
    assert summary(report) == "import: 3 added, 0 skipped, 0 could not be parsed"
    rocket = meta(scratch, "rocketkv")  # the title on the abstract's first line
    assert rocket["title"].startswith("RocketKV: Accelerating") and rocket["title_source"] == "metadata"
    assert rocket["source"] == f"{TITLED}:3" and rocket["venue"] == "ICML 2025"
    cite = meta(scratch, "cite-while-you-answer-verifiable")  # the title a paragraph of its own
    assert cite["title"] == "Cite While You Answer: Verifiable Long-Context Question Answering"
    text = (scratch.content / "papers/rocketkv.md").read_text()
    assert "Transformer-based Large Language Models rely" in text and "Accelerating" not in text.split("---")[2]


def test_papers_already_there_are_recognised_by_abstract_arxiv_id_or_doi(known):
    _, result = run_import(known, BIB)
    skipped = {entry.line: Path(path).name for entry, path in result.skipped}
    assert skipped == {4: "kivi.md", 41: "longrope.md", 49: "icv.md"}  # by DOI, abstract, arXiv id
    assert [p.name for p in result.added] == ["repeat-after-me.md"]
    _, result = run_import(known, CSV, venue="ICLR 2025")
    assert {e.line: Path(p).name for e, p in result.skipped} == {4: "samba.md", 5: "hip.md"}
    _, result = run_import(known, ATOM, venue="ICML 2024")
    assert {e.line: Path(p).name for e, p in result.skipped} == {89: "longrope.md"}  # its arXiv id, a shorter abstract
    _, result = run_import(known, TITLED)
    assert {e.line: Path(p).name for e, p in result.skipped} == {3: "rocketkv.md"}
    assert (known.content / "papers/kivi.md").read_text().startswith('---\ntitle: "KIVI"')


def test_the_same_paper_twice_in_one_file_is_imported_once_and_the_second_named(scratch):
    text = (FIXTURES / BIB).read_text()
    again = text[text.index("@inproceedings{liu2024icv"):].replace("liu2024icv", "liu2024icv-again")
    again = again.replace("We recast in-context learning", "Recast: in-context learning")
    scratch.write("lists/twice.bib", text + "\n" + again)
    report = Report()
    result = import_lists([scratch.root / "lists/twice.bib"], scratch.content, None, report)
    assert len(result.added) == 4 and len(result.skipped) == 1
    line = text.count("\n") + 2
    assert [str(w) for w in report.warnings if "same paper" in w.message] == [
        (f"{scratch.root / 'lists/twice.bib'}:{line}: warning: the same paper as line 49 of this file — "
        "delete one of the two entries")]


def test_a_second_import_adds_nothing_and_changes_no_byte(known):
    names = (BIB, V2, V1, TITLED)
    run_import(known, *names)
    run_import(known, CSV, venue="ICLR 2025")
    before = tree(known.content, mtimes=True)
    report, result = run_import(known, *names)
    assert result.added == [] and summary(report) == "import: 0 added, 11 skipped, 1 could not be parsed"
    report, _ = run_import(known, CSV, venue="ICLR 2025")
    assert summary(report) == "import: 0 added, 4 skipped, 0 could not be parsed"
    assert tree(known.content, mtimes=True) == before


def test_a_dry_run_shows_each_file_and_front_matter_and_writes_nothing(known):
    before = tree(known.content, mtimes=True)
    report, result = run_import(known, BIB, CSV, venue="ICML 2024", dry_run=True)
    assert tree(known.content, mtimes=True) == before
    assert summary(report) == ("import: 3 would be added, 5 skipped, 0 could not be parsed "
                               "(a dry run: nothing was written)")
    shown = "\n".join(report.lines)
    assert re.search(re.escape(f"would add {known.content / 'papers/repeat-after-me.md'} ← {known.root / 'lists' / BIB}:24")
                     + r"\n  tags: [a-z-]+ \(\d\.\d\d\)(?:, [a-z-]+ \(\d\.\d\d\))*; next: .+\n---\n"
                     + re.escape("title: 'Repeat After Me: Transformers are Better than State Space Models at Copying'\n"),
                     shown)
    assert "source: iclr2025-papers.csv:2\n---" in shown and "kept" not in shown
    report, real = run_import(known, BIB, CSV, venue="ICML 2024")
    assert real.added == result.added  # what it showed is what it then writes


def test_an_unknown_format_is_named_not_mistaken_for_a_header_error(scratch):
    ris = scratch.write("lists/export.ris", "TY  - CPAPER\nTI  - Samba\nAU  - Ren, Liliang\nPY  - 2025\nER  - \n")
    notes = scratch.write("lists/other.json", json.dumps({"papers": [{"title": "Samba"}]}))
    report = Report()
    import_lists([ris, notes], scratch.content, None, report)
    messages = [str(e) for e in report.errors]
    assert len(messages) == 2 and all(": format not recognised — import reads " in m for m in messages)
    assert messages[0].startswith(f"{ris}: format not recognised") and "BibTeX" in messages[0] and "Atom" in messages[0]
    assert "the header names" not in " ".join(messages)


BROKEN = [
    ("bad.bib", "@inproceedings{a,\n  title = {No abstract here},\n  year = 2024\n}\n\n"
                "@inproceedings{b,\n  title = {Broken\n\n@misc{c, title = {x}, abstract = {" + "word " * 30 + "}}\n",
     ["bad.bib:1: entry `a` has no abstract — add an `abstract = {…}` field (the catalogue shows it), or delete the entry",
      ("bad.bib:6: BibTeX cannot read this entry (a brace, quote or comma missing?) — compare it with the entries "
      "around it, fix it, and import the file again")]),
    ("bad.csv", "title,abstract,authors\nSamba," + "word " * 30 + ",A|B\nShort row\nNo abstract,,C\n",
     [("bad.csv:3: this row has 1 columns, the header 3 — quote cells that hold the delimiter, and give every row the "
      "header's columns"), "bad.csv:4: the row of 'No abstract' has no abstract — fill its abstract cell, or delete the row"]),
    ("bad.json", '[\n  {"content": {"title": "A",\n    "abstract": "x"}\n  {"content": {}}\n]\n',
     [("bad.json:4: malformed JSON: Expecting ',' delimiter (column 3) — fix the JSON there (a missing comma, quote "
      "or bracket?), then import again")]),
    ("bad.xml", '<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n<entry>\n<id>http://arxiv.org/abs/'
                "2406.07522v1</id>\n<title>Samba</title>\n</entry>\n<entry>\n<id>http://arxiv.org/abs/2402.13753</id>\n"
                "<title>LongRoPE</title>\n<summary>" + "word " * 30 + "</summary>\n</entry>\n</feed>\n",
     ["bad.xml:3: the entry 'Samba' has no <summary> — add its abstract as <summary>, or delete the entry"]),
]


@pytest.mark.parametrize("name, text, expected", BROKEN, ids=[b[0] for b in BROKEN])
def test_what_cannot_be_read_is_named_at_its_line_and_the_rest_imported(scratch, name, text, expected):
    path = scratch.write(f"lists/{name}", text)
    report = Report()
    result = import_lists([path], scratch.content, None, report, venue="ICML 2024")
    assert [str(e).removeprefix(f"{scratch.root / 'lists'}/") for e in report.errors] == expected
    assert len(result.added) == (0 if name == "bad.json" else 1)


def test_bibtex_text_names_and_identifiers_are_read_as_people_write_them():
    assert plain_latex(r"{M}{\"u}ller and {\'E}mile: \emph{Long} {C}ontext \& $O(n)$") == \
        "Müller and Émile: Long Context & $O(n)$"
    assert [plain_latex(name) for name in (r"Z\'{\i}", r"{\o}degaard", r"\v{S}ediv\'y", r"Stra{\ss}e")] == \
        ["Zí", "ødegaard", "Šedivý", "Straße"]
    assert latex_accents(r"\textbf{Caf\'e} ``quoted''") == "\\textbf{Café} “quoted”"  # the command stays whole
    assert arxiv_of("", "arXiv:2406.07522v2") == "2406.07522"
    assert arxiv_of("https://arxiv.org/pdf/2402.13753v1") == "2402.13753"
    assert doi_of("https://doi.org/10.48550/arXiv.2402.02750") == "10.48550/arXiv.2402.02750"
    assert doi_of("not a doi") == ""


def test_a_doi_is_checked_and_cited(scratch):
    scratch.write("content/papers/kivi.md", paper("kivi", "KIVI", extra="doi: 10.48550/arXiv.2402.02750\n"))
    scratch.write("content/papers/bad.md", paper("bad", "Bad", extra="doi: https://doi.org/10.1/x\n"))
    report = Report()
    with pytest.raises(ContentError):
        load_catalogue(scratch.content, report)
    assert [str(e) for e in report.errors] == [
        (f"{scratch.content / 'papers/bad.md'}:7: `doi` is not a DOI: 'https://doi.org/10.1/x' — write the DOI alone, "
        "like `doi: 10.1145/3600006.3613165` (no https://doi.org/)")]
    (scratch.content / "papers/bad.md").unlink()
    kivi = load_catalogue(scratch.content, Report()).by_slug["kivi"]
    entry = bibtexparser.parse_string(bibtex(kivi)).entries[0]
    assert entry["doi"] == "10.48550/arXiv.2402.02750"
    assert "DO  - 10.48550/arXiv.2402.02750\n" in ris(kivi) and csl_item(kivi)["DOI"] == "10.48550/arXiv.2402.02750"


@pytest.mark.slow
@pytest.mark.slow  # the project copied and run as a process
def test_importing_a_bib_into_the_frozen_catalogue_then_check_and_build(tmp_path):
    project = copy_project(tmp_path / "project")
    shutil.copytree(FIXTURES, project / "tests/fixtures/import")
    dry = run(project, "import", f"tests/fixtures/import/{BIB}", "--venue", "ICML 2024", "--dry-run")
    assert dry.returncode == 0 and "import: 2 would be added, 2 skipped" in dry.stderr, dry.stderr[-2000:]
    done = run(project, "import", f"tests/fixtures/import/{BIB}", "--venue", "ICML 2024")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "import: 2 added, 2 skipped, 0 could not be parsed" in done.stderr
    assert f"skipped tests/fixtures/import/{BIB}:41: already in content/papers/longrope.md" in done.stderr
    check = run(project, "check")
    assert check.returncode == 0 and "Checked 97 papers: 0 errors" in check.stderr, check.stderr[-2000:]
    built = run(project, "--no-search", "--no-images")
    assert built.returncode == 0 and "97 papers" in built.stdout, built.stderr[-2000:]
    page = (project / "site/papers/kivi/index.html").read_text()
    assert "KIVI: A Tuning-Free Asymmetric 2bit Quantization" in page and "Zirui Liu" in page
    assert "doi = {10.48550/arXiv.2402.02750}" in (project / "site/papers/kivi/cite.bib").read_text()


def test_a_paper_whose_arxiv_id_has_a_version_is_still_recognised(scratch):
    scratch.write("content/papers/icv.md", paper("icv", "In-context Vectors", extra="arxiv: '2311.06668v2'\n",
                                                 body="Shifting latent states instead of demonstrations."))
    _, result = run_import(scratch, BIB)
    assert [Path(path).name for entry, path in result.skipped] == ["icv.md"] and len(result.added) == 3


def raw_list_of(scratch, name: str, venue: str) -> Path:
    """The fixture's abstracts as a raw list (a venue header, an abstract a paragraph): what a
    curator imports first, before the file with the real titles turns up."""
    entries = read_entries(FIXTURES / name, Report())
    text = f"{venue} papers\n\n" + "\n\n".join(clean_abstract(entry.text) for entry in entries) + "\n"
    return scratch.write(f"lists/raw-{Path(name).stem}.txt", text)


@pytest.mark.parametrize("name, venue", [
    (BIB, "ICML 2024"), (CSV, "ICLR 2025"), (V2, "ICLR 2025"), (ATOM, "ICML 2024"), (TITLED, "ICML 2025"),
])
def test_update_gives_papers_imported_from_a_raw_list_the_real_titles_of_any_format(scratch, name, venue):
    report = Report()
    import_lists([raw_list_of(scratch, name, venue)], scratch.content, None, report)
    for path in (scratch.content / "papers").glob("*.md"):  # a curator's notes, which no import touches
        path.write_text(path.read_text() + "\n## Notes\n\nRead with the benchmark papers.\n")
    first = {path.name: path.read_text() for path in sorted((scratch.content / "papers").glob("*.md"))}
    assert first and all("title_source: derived" in text for text in first.values())
    curated_name = sorted(first)[0]
    curated = scratch.content / "papers" / curated_name
    curated.write_text(first[curated_name].replace("title_source: derived", "title_source: curated"))
    given = None  # a file of titles need not name a venue to update papers that have theirs (CSV, Atom)
    source = fixture(scratch, name)
    dry = Report()
    result = import_lists([source], scratch.content, None, dry, update=True, venue=given, dry_run=True)
    assert len(result.updated) == len(first) - 1 and not result.added
    diffs = [line for line in dry.lines if line.startswith("would update")]
    assert len(diffs) == len(first) - 1 and all("\n+title_source: metadata" in d for d in diffs)
    assert any("\n-title: " in d and "\n+title: " in d for d in diffs)  # some derived titles were right
    assert {path.name for path in (scratch.content / "papers").glob("*.md")} == set(first)  # nothing written

    result = import_lists([source], scratch.content, None, Report(), update=True, venue=given)
    assert curated.read_text() == first[curated_name].replace("title_source: derived", "title_source: curated")
    authors = {entry.title: entry.authors for entry in read_entries(FIXTURES / name, Report())}
    catalogue = load_catalogue(scratch.content, Report())
    for path in result.updated:
        paper = catalogue.by_slug[path.stem]
        assert paper.title in authors and paper.title_source == "metadata" and paper.slug == path.stem
        assert paper.authors == authors[paper.title]
        old = first[f"{paper.aliases[0]}.md" if paper.aliases else path.name]  # never published: the slug follows
        kept = ("title", "slug", "aliases", "authors", "arxiv", "doi", "openreview", "url", "code")
        assert [line for line in path.read_text().splitlines() if not line.startswith(kept)] == \
            [line for line in old.splitlines() if not line.startswith(kept)]  # every other line as it was
    again = Report()
    assert not import_lists([source], scratch.content, None, again, update=True, venue=given).updated


def test_update_needs_a_venue_only_for_the_papers_it_would_add(scratch):
    import_lists([raw_list_of(scratch, CSV, "ICLR 2025")], scratch.content, None, Report())
    first, *_ = list((scratch.content / "papers").glob("*.md"))
    first.unlink()  # its entry is now a new paper, and the CSV names no venue for it
    report = Report()
    result = import_lists([fixture(scratch, CSV)], scratch.content, None, report, update=True)
    assert len(result.updated) == 3 and not result.added
    assert [d.message for d in report.errors] == ["this file names no venue"]  # for the paper it would add


def test_an_entry_that_is_two_papers_of_content_is_named_with_the_merge_not_updated(scratch):
    """A raw list's copy of a paper already in content/ (its abstract worded a little
    differently, so not recognised) and the paper itself: the BibTeX entry is the one by its
    abstract and the other by its arXiv id; giving the copy the title and id would make it a
    second paper with one identity."""
    scratch.write("content/papers/kivi.md", paper("kivi", "KIVI", extra="arxiv: '2402.02750'\n",
                                                  body="A tuning-free 2bit quantization of the KV cache."))
    import_lists([raw_list_of(scratch, BIB, "ICML 2024")], scratch.content, None, Report())
    copy = next(path for path in (scratch.content / "papers").glob("*.md")
                if "title_source: derived" in path.read_text() and "KIVI" in path.read_text())
    before = tree(scratch.content)
    report = Report()
    result = import_lists([fixture(scratch, BIB)], scratch.content, None, report, update=True)
    assert copy not in result.updated and len(result.updated) == 3
    [warning] = [str(d) for d in report.warnings if "files?" in d.message]
    assert warning == (f"{scratch.root / 'lists' / BIB}:4: warning: this entry is {copy} by its abstract, "
                       f"{scratch.content / 'papers' / 'kivi.md'} by its arXiv id: one paper in 2 files? — if so, "
                       f"merge them (`python build.py merge kivi {copy.stem}`), then import this file again; "
                       "if not, correct the entry's arXiv id (it was skipped)")
    assert (scratch.content / "papers" / "kivi.md").read_bytes() == before["papers/kivi.md"]
    assert copy.read_bytes() == before[copy.relative_to(scratch.content).as_posix()]


def test_the_merge_named_for_an_entry_that_is_two_papers_says_to_unwithdraw_first(scratch):
    """`merge` refuses a withdrawn paper: the hint says what to do before it, or it could not be applied."""
    scratch.write("content/papers/kivi.md", paper("kivi", "KIVI", body="A tuning-free 2bit quantization of the KV cache.",
                                                  extra="arxiv: '2402.02750'\nwithdrawn: 2025-01-10\n"))
    import_lists([raw_list_of(scratch, BIB, "ICML 2024")], scratch.content, None, Report())
    report = Report()
    import_lists([fixture(scratch, BIB)], scratch.content, None, report, update=True)
    [warning] = [d for d in report.warnings if "files?" in d.message]
    assert warning.hint.startswith(f"if so, remove `withdrawn:` from {scratch.content / 'papers' / 'kivi.md'} "
                                   "(merge refuses a withdrawn paper), merge them (`python build.py merge kivi ")


def test_a_dry_run_names_a_paper_it_would_have_added_among_the_two(scratch):
    """The second file's entry is the first file's new paper (by arXiv id) and a paper of content/
    (by DOI): a dry run wrote no file for the first, and must not read one."""
    scratch.write("content/papers/memo.md", paper("memo", "Memo", extra="doi: 10.1234/memo\n",
                                                  body="Memory slots for long inputs."))
    entry = "@inproceedings{{{key},\n  title = {{{title}}},\n  abstract = {{{abstract}}},\n{ids}}}\n"
    first = scratch.write("lists/a.bib", entry.format(key="a", title="Memory Slots", ids="  eprint = {2401.00001},\n",
                                                      abstract="We keep a few memory slots for long inputs, and more."))
    second = scratch.write("lists/b.bib", entry.format(key="b", title="Slots Again", abstract="Another text entirely.",
                                                       ids="  eprint = {2401.00001},\n  doi = {10.1234/memo},\n"))
    report = Report()
    import_lists([first, second], scratch.content, None, report, venue="ICML 2024", dry_run=True)
    [warning] = [d for d in report.warnings if "files?" in d.message]
    assert warning.hint.startswith("if so, merge them (`python build.py merge memo memory-slots`)")


def test_an_entry_whose_ids_name_three_papers_merges_into_the_one_check_would_keep(scratch):
    """The curated paper is kept whichever id found it, the others merged into it by their slugs
    (a file may be named otherwise than its slug)."""
    entry = read_entries(FIXTURES / BIB, Report())[0]
    scratch.write("content/papers/kivi-copy.md", paper("quantised-cache", "KIVI", body=entry.text,
                                                       extra="title_source: derived\n").replace(
        "title_source: curated\n", ""))
    scratch.write("content/papers/by-arxiv.md", paper("by-arxiv", "KIVI (arXiv)", body="One text.",
                                                      extra=f"arxiv: '{entry.arxiv}'\n"))
    scratch.write("content/papers/by-doi.md", paper("by-doi", "KIVI (DOI)", body="Another text.",
                                                    extra=f"doi: {entry.doi}\nadded: 2024-01-01\n"))
    report = Report()
    result = import_lists([fixture(scratch, BIB)], scratch.content, None, report, update=True)
    [warning] = [d for d in report.warnings if "files?" in d.message]
    assert warning.message.endswith("by its arXiv id, " f"{scratch.content / 'papers' / 'by-doi.md'} by its DOI: "
                                    "one paper in 3 files?")
    assert warning.hint == ("if so, merge them (`python build.py merge by-doi by-arxiv`, then `python build.py merge "
                            "by-doi quantised-cache`), then import this file again; if not, correct the entry's "
                            "arXiv id or DOI (it was skipped)")
    assert not result.updated


@pytest.mark.slow  # build.py run as a process
def test_import_update_from_the_command_line_shows_a_diff_then_writes_it(scratch):
    import subprocess
    import sys
    command = [sys.executable, str(PROJECT_ROOT / "build.py"), "import", "--content", str(scratch.content)]
    raw = raw_list_of(scratch, BIB, "ICML 2024")
    assert subprocess.run([*command, str(raw)], capture_output=True, text=True).returncode == 0
    bib = fixture(scratch, BIB)
    before = tree(scratch.content)
    dry = subprocess.run([*command, "--update", "--dry-run", str(bib)], capture_output=True, text=True)
    assert dry.returncode == 0, dry.stderr
    assert "\n+title: 'KIVI: A Tuning-Free Asymmetric 2bit Quantization for KV Cache'" in dry.stderr
    assert "import: 0 would be added, 4 would be updated, 0 skipped" in dry.stderr and tree(scratch.content) == before
    done = subprocess.run([*command, "--update", str(bib)], capture_output=True, text=True)
    assert done.returncode == 0 and "import: 0 added, 4 updated, 0 skipped" in done.stderr, done.stderr
    assert meta(scratch, "kivi")["title"] == "KIVI: A Tuning-Free Asymmetric 2bit Quantization for KV Cache"


def test_entries_of_a_new_edition_get_one_message_a_file_with_the_venue_to_add(scratch):
    notes = fixture(scratch, V2)
    notes.write_text(notes.read_text().replace("ICLR 2025", "ICLR 2024"))
    report = Report()
    result = import_lists([notes], scratch.content, None, report)
    assert not result.added and [str(e) for e in report.errors] == [
        f"{notes}:4: 3 entries (lines 4, 43, 83) name `ICLR 2024 Oral` or `ICLR 2024 Poster`, which content/venues.yaml "
        "does not list — ICLR 2024 is a new edition of ICLR (content/venues.yaml lists ICLR 2025): add it under "
        "`venues:`, with its proceedings, first day and booktitle if known —\n  - name: ICLR\n    year: 2024\n"
        "    title: International Conference on Learning Representations"]
