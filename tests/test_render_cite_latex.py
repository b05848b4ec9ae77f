"""BibTeX that compiles: every entry of the frozen catalogue cited in a document that pdflatex and
BibTeX (Debian's TeX Live) make with no error and no warning, in the plain and natbib styles and
LaTeX's default fonts (no T1, no package for symbols), then read back through bibtexparser's LaTeX
decoding to the text RIS and CSL-JSON carry; a paper of hostile characters; and every character
the LaTeX writer may be given."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import bibtexparser
import pytest
import rispy
from bibtexparser.middlewares import LatexDecodingMiddleware
from conftest import new_project
from test_render_cite import PMLR_VENUE

from catalogue import urls
from catalogue.config import SiteConfig
from catalogue.pipeline import build_site
from catalogue.render.latex import UNWRITABLE, latex, unwritable
from catalogue.report import Report

PDFLATEX, BIBTEX = shutil.which("pdflatex"), shutil.which("bibtex")
STYLES = ("plain", "plainnat")
DOCUMENT = r"""\documentclass{article}
\usepackage{natbib}
\usepackage{url}
\begin{document}
%s
\end{document}
"""


@pytest.fixture(scope="module", autouse=True)
def tex():
    """Skips the module here without TeX Live, fails it in CI."""
    if not (PDFLATEX and BIBTEX):
        if os.environ.get("CI"):
            raise RuntimeError("CI must compile the citations: install TeX Live (see .ci/run)")
        pytest.skip("no pdflatex or bibtex here (apt-get install texlive-latex-recommended texlive-fonts-recommended)")


def run(folder: Path, *command: str, ok: tuple[int, ...] = (0,)) -> None:
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, errors="replace", timeout=600, check=False)
    assert done.returncode in ok, (command, done.stdout[-4000:])


def pdflatex(folder: Path, body: str) -> str:
    """`doc.tex` with `body` made by pdflatex (stopping at the first error): its log."""
    (folder / "doc.tex").write_text(DOCUMENT % body, encoding="ascii")
    run(folder, PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "doc.tex")
    return (folder / "doc.log").read_text(encoding="latin-1")


def compiled(folder: Path, bib: str, style: str) -> tuple[str, str]:
    """A document citing every entry of `bib` in `style`, made as people make it (pdflatex,
    bibtex, pdflatex twice): BibTeX's log and LaTeX's last. BibTeX exits 1 on a warning."""
    folder.mkdir(parents=True)
    (folder / "cited.bib").write_text(bib, encoding="ascii")  # raises on anything not ASCII
    body = f"\\nocite{{*}}\n\\bibliographystyle{{{style}}}\n\\bibliography{{cited}}"
    pdflatex(folder, body)
    run(folder, BIBTEX, "doc", ok=(0, 1))
    pdflatex(folder, body)
    log = pdflatex(folder, body)
    return (folder / "doc.blg").read_text(encoding="latin-1"), log


def warnings(log: str) -> list[str]:
    """Lines of a LaTeX or BibTeX log that warn, or say a character is missing from a font."""
    return [line for line in log.splitlines() if re.search(r"warning|missing character", line, re.IGNORECASE)
            and not re.match(r"\(There w|warning\$ --", line)]  # BibTeX's counts of its warnings


def test_every_entry_of_the_catalogue_compiles_with_no_error_or_warning(frozen_site, tmp_path):
    bib = (frozen_site / urls.BIBTEX).read_text(encoding="utf-8")
    entries = bibtexparser.parse_string(bib).entries
    assert len(entries) > 90 and bib.isascii()
    authorless = [entry.key for entry in entries if "author" not in entry.fields_dict]
    for style in STYLES:
        blg, log = compiled(tmp_path / style, bib, style)
        # A paper whose file names no authors is BibTeX's one complaint: a fact of the content, not the writer.
        assert warnings(blg) == [f"Warning--empty author in {key}" for key in authorless], style
        assert warnings(log) == [], style
        assert (tmp_path / style / "doc.bbl").read_text(encoding="ascii").count("\\bibitem") == len(entries)


def test_every_entry_reads_back_as_the_text_that_ris_and_csl_json_carry(frozen_site):
    library = bibtexparser.parse_string((frozen_site / urls.BIBTEX).read_text(encoding="utf-8"),
                                        append_middleware=[LatexDecodingMiddleware()])
    items = {item["id"]: item for item in json.loads((frozen_site / urls.CSL_JSON).read_text(encoding="utf-8"))}
    records = {record["id"]: record for record in rispy.loads((frozen_site / urls.RIS).read_text(encoding="utf-8"))}
    assert not library.failed_blocks and len(library.entries) == len(items) == len(records)
    for entry in library.entries:
        item, record = items[entry.key], records[entry.key]
        title = entry["title"].removeprefix("{").removesuffix("}")
        assert "$" in title or title == item["title"] == record["title"], entry.key
        assert [_words(name) for name in _names(entry.fields_dict.get("author"))] == [
            _words(f"{person.get('given', '')} {person['family']}") for person in item.get("author", [])], entry.key


def _names(field) -> list[str]:
    return field.value.split(" and ") if field else []


def _words(name: str) -> list[str]:
    return sorted(name.replace(",", " ").split())


HOSTILE_TITLE = ("∞-Video: “Ünïcode” — Søren’s Łódź, Dąbrowski and Ștefan at $O(n \\log n)$ "
                 "for 100% & #1 {of} 中文 🤖 costs $5")
HOSTILE_AUTHORS = ("Łukasz Kaiser", "Søren Hauberg", "Jürgen Schmidhuber", "Ștefan Dąbrowski", "王伟")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> tuple[Path, Report]:
    """A site of one paper whose title and authors hold every kind of character BibTeX meets."""
    root = tmp_path_factory.mktemp("hostile")
    project = new_project(root)
    project.write("content/venues.yaml", PMLR_VENUE)
    authors = "".join(f"  - '{name}'\n" for name in HOSTILE_AUTHORS)
    project.write("content/papers/hostile.md", (
        f"---\ntitle: '{HOSTILE_TITLE}'\nslug: hostile\nvenue: ICML 2024\ntags: [kv-cache]\nauthors:\n{authors}"
        "arxiv: '2401.00001'\nurl: https://proceedings.mlr.press/v235/kaiser24a.html\npages: '12345--12367'\n"
        "code: https://github.com/example/hostile\n---\n\nAn abstract.\n"))
    report = Report()
    build_site(SiteConfig(content_dir=project.content, out_dir=root / "out", search=False, social_images=False), report)
    return root / "out" / "papers/hostile", report


def test_hostile_characters_compile_and_read_back(hostile, tmp_path):
    folder, _ = hostile
    bib = (folder / urls.CITATION).read_text(encoding="utf-8")
    assert bib.isascii()
    for style in STYLES:
        blg, log = compiled(tmp_path / style, bib, style)
        assert warnings(blg) == warnings(log) == [], style
    entry = bibtexparser.parse_string(bib, append_middleware=[LatexDecodingMiddleware()]).entries[0]
    assert entry.key == "kaiser2024video"
    assert entry["title"] == ("∞-Video: “Ünïcode” — Søren's Łódź, Dabrowski and Ştefan at $O(n \\log n)$ "
                              "for 100% & #1 of ?? ? costs $5")  # ą: no ogonek in LaTeX's own fonts; ș: their cedilla
    assert entry["author"] == "Łukasz Kaiser and Søren Hauberg and Jürgen Schmidhuber and Ştefan Dabrowski and ??"
    raw = bibtexparser.parse_string(bib).entries[0]
    assert {name: raw[name] for name in ("pages", "url", "eprint", "archiveprefix")} == {
        "pages": "12345--12367", "url": "https://proceedings.mlr.press/v235/kaiser24a.html",
        "eprint": "2401.00001", "archiveprefix": "arXiv"}
    assert "note" not in raw.fields_dict and "Code" not in bib


def test_ris_and_csl_json_keep_the_characters_and_give_the_pages(hostile):
    folder, _ = hostile
    record = rispy.loads((folder / urls.CITATION_RIS).read_text(encoding="utf-8"))[0]
    item = json.loads((folder / urls.CITATION_CSL_JSON).read_text(encoding="utf-8"))[0]
    title = ("∞-Video: “Ünïcode” — Søren’s Łódź, Dąbrowski and Ștefan at O(n log n) for 100% & #1 {of} 中文 🤖 "
             "costs $5")
    assert record["title"] == item["title"] == title
    assert record["authors"][3] == "Dąbrowski, Ștefan" and item["author"][4] == {"family": "王伟"}
    assert (record["start_page"], record["end_page"], item["page"]) == ("12345", "12367", "12345-12367")
    assert record["id"] == item["id"] == "kaiser2024video" and "Code" not in str(record) + str(item)
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "(Proceedings of Machine Learning Research, Vol. 235). PMLR, 12345–12367." in page


def test_what_latex_cannot_write_is_a_question_mark_and_a_warning_at_its_line(hostile):
    _, report = hostile
    found = [(Path(d.path).name, d.line, d.message) for d in report.warnings]
    cannot = "as `?`: LaTeX has no way to write it without a package"
    assert found == [("hostile.md", 2, "the title holds an emoji (🤖)"),  # a title's own emoji is the curator's call
                     ("hostile.md", 2, f"BibTeX writes 中, 文, 🤖 in the title {cannot}"),
                     ("hostile.md", 6, f"BibTeX writes 王, 伟 in the authors {cannot}")]


def test_every_character_the_writer_is_given_compiles(tmp_path):
    """Latin, Greek, Cyrillic, symbols, math alphabets, CJK, emoji: each is LaTeX that compiles
    with no warning, or the `?` of a character `unwritable` names."""
    characters = [chr(code) for code in (*range(0xA0, 0x3100), *range(0x1D400, 0x1D800), *range(0x1F600, 0x1F650))
                  if unicodedata.category(chr(code)) not in ("Cn", "Co", "Cs")]
    written = [latex(char) for char in characters]
    assert all(text.isascii() for text in written)
    assert [c for c, text in zip(characters, written) if text == UNWRITABLE] == [c for c in characters if unwritable(c)]
    assert {"é": "{\\'e}", "ø": "{\\o}", "∞": "{\\ensuremath{\\infty}}", "—": "---", "“": "``"}.items() <= dict(
        zip(characters, written)).items()
    lines = ["X" + "".join(written[start:start + 40]) + "X\\par" for start in range(0, len(written), 40)]
    folder = tmp_path / "all"
    folder.mkdir()
    assert warnings(pdflatex(folder, "\n".join(lines))) == []
