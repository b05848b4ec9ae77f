"""Every kind of bad content file the issue lists, against a site already built: the build
refuses it naming the file, the line and a fix, writes nothing into content/, and leaves the
last good site/ whole. And the inputs that look bad but are fine build, with warnings where due."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import TAXONOMY, VENUES, Scratch, paper
from helpers import tree

from catalogue.pipeline import build_site
from catalogue.report import ContentError, Report

GOOD = paper("good", "Good")
THEME_LINE = TAXONOMY.split("\n").index("    tags: [in-context-learning]") + 1
CONFLICT = "an unresolved merge conflict (git's `<<<<<<<` line) — keep what both sides meant"
HOSTILE = {  # name → (files to write under content/, how the first error begins: file:line: message)
    "invalid YAML": ({"papers/x.md": "---\ntitle: [unclosed\nslug: x\n---\n\nText.\n"},
                     "papers/x.md:2: invalid YAML: did not find expected ',' or ']'"),
    "no front matter": ({"papers/x.md": "Just an abstract.\n"}, "papers/x.md:1: no front matter"),
    "tags as one string": ({"papers/x.md": paper("x", "X", tags='"kv-cache, sparse-attention"')},
                           "papers/x.md:6: `tags` must be a list like [a, b], not the text"),
    "a number as title": ({"papers/x.md": paper("x", "X").replace('title: "X"', "title: 42")},
                         "papers/x.md:2: `title` must be text, not the number 42 — write `title:` as text (put it in quotes)"),
    "an unknown key": ({"papers/x.md": paper("x", "X", extra="tilte: Y\n")},
                       "papers/x.md:7: unknown key `tilte` — did you mean `title`?"),
    "no title": ({"papers/x.md": paper("x", "X").replace('title: "X"\n', "")}, "papers/x.md:1: `title` is missing"),
    "no venue": ({"papers/x.md": paper("x", "X").replace("venue: ICML 2024\n", "")}, "papers/x.md:1: `venue` is missing"),
    "a duplicate slug": ({"papers/x.md": paper("samba", "X")},
                          "papers/x.md:4: slug `samba` is the slug of papers/samba.md"),
    "a slash in the slug": ({"papers/x.md": paper("a/b", "X")}, "papers/x.md:4: slug 'a/b' is not a valid URL part"),
    "a dot-dot slug": ({"papers/x.md": paper("..", "X")}, "papers/x.md:4: slug '..' is not a valid URL part"),
    "capitals in the slug": ({"papers/x.md": paper("Samba2", "X")},
                             "papers/x.md:4: slug 'Samba2' is not a valid URL part"),
    "a space in the slug": ({"papers/x.md": paper("a b", "X")}, "papers/x.md:4: slug 'a b' is not a valid URL part"),
    "a non-ASCII slug": ({"papers/x.md": paper("ñandú", "X")}, "papers/x.md:4: slug 'ñandú' is not a valid URL part"),
    "an unknown tag": ({"papers/x.md": paper("x", "X", tags="[kv-cahce]")},
                       "papers/x.md:6: unknown tag `kv-cahce` — did you mean `kv-cache`?"),
    "an empty file": ({"papers/x.md": ""}, "papers/x.md:1: no front matter"),
    "non-UTF-8 bytes": ({"papers/x.md": paper("x", "Café").encode("latin-1")},
                        "papers/x.md:2: not UTF-8 text (invalid continuation byte at byte 15)"),
    "non-UTF-8 bytes after a BOM and CRLF": ({"papers/x.md": b"\xef\xbb\xbf" + paper("x", "Caf\xe9").replace(
        "\n", "\r\n").encode("latin-1")}, "papers/x.md:2: not UTF-8 text"),
    "an unknown tag in a CRLF file": ({"papers/x.md": paper("x", "X", tags="[kv-cahce]").replace("\n", "\r\n")},
                                      "papers/x.md:6: unknown tag `kv-cahce` — did you mean `kv-cache`?"),
    "a binary file": ({"papers/x.md": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"},
                      "papers/x.md:1: not UTF-8 text (invalid start byte at byte 0)"),
    "a code link that is not http(s)": ({"papers/x.md": paper("x", "X", extra="code: javascript:alert(1)\n")},
                                        "papers/x.md:7: `code` is not an http(s) URL: 'javascript:alert(1)'"),
    "a link to no page in an abstract": ({"papers/x.md": paper("x", "X", body="Intro.\n\nSee [y](/papers/y/).")},
                                         "papers/x.md:11: the link /papers/y/ leads to no page"),
    "a theme naming an unknown tag": ({"taxonomy.yaml": TAXONOMY.replace("tags: [in-context-learning]",
                                                                         "tags: [in-context-learnin]")},
                                      f"taxonomy.yaml:{THEME_LINE}: theme `icl` names unknown tag `in-context-learnin`"),
    "a merge conflict in a paper": ({"papers/x.md": paper("x", "X").replace(
        'title: "X"\n', '<<<<<<< HEAD\ntitle: "X"\n=======\ntitle: "X, retitled"\n>>>>>>> retitle\n')},
        f"papers/x.md:2: {CONFLICT}"),
    "a merge conflict in an abstract": ({"papers/x.md": paper("x", "X", body="Intro.\n<<<<<<< HEAD\nOne.\n"
                                                                            "=======\nTwo.\n>>>>>>> b\n")},
                                        f"papers/x.md:10: {CONFLICT}"),
    "a merge conflict in the taxonomy": ({"taxonomy.yaml": TAXONOMY.replace("themes:\n", "<<<<<<< ours\nthemes:\n", 1)},
                                         f"taxonomy.yaml:{TAXONOMY.split(chr(10)).index('themes:') + 1}: {CONFLICT}"),
    "a merge conflict in the redirects": ({"redirects.txt": "<<<<<<< HEAD\n/a/ /b/\n=======\n/a/ /c/\n>>>>>>> x\n"},
                                          f"redirects.txt:1: {CONFLICT}"),
    "an unknown venue": ({"papers/x.md": paper("x", "X", venue="ICRL 2025")},
                         "papers/x.md:5: unknown venue `ICRL 2025` — did you mean `ICLR 2025`?"),
    "a date that does not exist": ({"papers/x.md": paper("x", "X", extra="added: 2026-13-45\n")},
                                   "papers/x.md:7: `2026-13-45` is not a real date (month must be in 1..12)"),
    "a placeholder code link": ({"papers/x.md": paper("x", "X", extra="code: https://github.com/...\n")},
                                "papers/x.md:7: `code` is a placeholder, not an address: https://github.com/..."),
    "a summary site as the paper's link": ({"papers/x.md": paper("x", "X", extra="url: https://chatpaper.com/paper/1\n")},
                                           "papers/x.md:7: `url` is not the paper's own page: https://chatpaper.com/paper/1"),
    "a paper saved as .markdown": ({"papers/x.markdown": paper("x", "X")},
                                   "papers/x.markdown: not read: only `.md` files in content/papers/ are papers"),
}


@pytest.fixture(scope="module")
def built_once(tmp_path_factory) -> Path:
    project = Scratch(tmp_path_factory.mktemp("hostile"))
    project.write("content/taxonomy.yaml", TAXONOMY)
    project.write("content/venues.yaml", VENUES)
    project.write("content/papers/samba.md", paper("samba", "Samba", "ICLR 2025", "[state-space-models]"))
    project.write("content/papers/good.md", GOOD)
    build_site(project.config(), Report())
    return project.root


def write(content: Path, files: dict[str, str | bytes]) -> None:
    for name, data in files.items():
        (content / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


@pytest.mark.parametrize("case", HOSTILE)
def test_bad_content_is_refused_at_its_line_and_loses_nothing(built_once, tmp_path, case):
    project = Scratch(tmp_path / "project")
    shutil.copytree(built_once, project.root, symlinks=True)
    files, where = HOSTILE[case]
    write(project.content, files)
    content, site = tree(project.content, mtimes=True), tree(project.site, mtimes=True)
    with pytest.raises(ContentError) as error:
        build_site(project.config(), Report())
    diagnostics = error.value.diagnostics
    first = str(diagnostics[0]).replace(f"{project.content}/", "")
    assert first.startswith(where) and diagnostics[0].path.is_relative_to(project.content), first
    assert all(d.hint and (d.line >= 1 or d.message.startswith("not read")) for d in diagnostics), \
        [str(d) for d in diagnostics]  # a file that is read not at all has no line to name
    assert tree(project.content, mtimes=True) == content
    assert tree(project.site, mtimes=True) == site
    assert sorted(p.name for p in project.root.iterdir()) == [".cache", "content", "site"]


def test_a_symlink_out_of_content_is_refused_and_loses_nothing(built_once, tmp_path):
    project = Scratch(tmp_path / "project")
    shutil.copytree(built_once, project.root, symlinks=True)
    secret = tmp_path / "secret.md"
    secret.write_text(paper("secret", "Secret"))
    (project.content / "papers/secret.md").symlink_to(secret)
    content, site = tree(project.content, mtimes=True), tree(project.site, mtimes=True)
    with pytest.raises(ContentError, match="points outside content/") as error:
        build_site(project.config(), Report())
    assert error.value.diagnostics[0].path == project.content / "papers/secret.md"  # a link has no lines
    assert tree(project.content, mtimes=True) == content and tree(project.site, mtimes=True) == site
    assert "Secret" not in (project.site / "papers/index.html").read_text()


@pytest.mark.parametrize("case, text, abstract", [
    ("a UTF-8 BOM", "\ufeff" + paper("odd", "Odd"), "<p>We compress the KV cache with sparse attention.</p>"),
    ("CRLF line ends", paper("odd", "Odd").replace("\n", "\r\n"), "<p>We compress the KV cache with sparse attention.</p>"),
    ("a five-megabyte abstract", paper("odd", "Odd", body="word " * 1_000_000), "<p>" + "word " * 1_000_000 + "</p>"),
    ("malformed LaTeX", paper("odd", "Odd", body="Fine.\n\nA broken $\\frac{a}{$ formula."),
     '<p>A broken <code class="tex">\\frac{a}{</code> formula.</p>'),
])
def test_odd_but_valid_content_builds(built_once, tmp_path, case, text, abstract):
    project = Scratch(tmp_path / "project")
    shutil.copytree(built_once, project.root, symlinks=True)
    write(project.content, {"papers/odd.md": text})
    content = tree(project.content, mtimes=True)
    report = Report()
    build_site(project.config(search=False, social_images=False), report)
    page = (project.site / "papers/odd/index.html").read_text()
    assert re.search(r'<h1 [^>]*>Odd</h1>', page) and abstract in page  # no BOM, no \r, nothing cut
    assert "\r" not in page and "\ufeff" not in page
    assert tree(project.content, mtimes=True) == content
    if case == "malformed LaTeX":
        assert [str(w) for w in report.warnings] == [
            f"{project.content}/papers/odd.md:11: warning: formula shown as TeX code: \\frac{{a}}{{ — fix the LaTeX"]
