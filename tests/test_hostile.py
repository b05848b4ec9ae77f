"""Every kind of bad content file the issue lists, against a site already built: the build
refuses it naming the file, the line and a fix, writes nothing into content/, and leaves the
last good site/ whole. And the inputs that look bad but are fine build, with warnings where due."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from catalogue.pipeline import build_site
from catalogue.report import ContentError, Report
from conftest import TAXONOMY, VENUES, Scratch, paper

GOOD = paper("good", "Good")
THEME_LINE = TAXONOMY.split("\n").index("    tags: [in-context-learning]") + 1
HOSTILE = {  # name → (files to write under content/, the file:line the first error must name)
    "invalid YAML": ({"papers/x.md": "---\ntitle: [unclosed\nslug: x\n---\n\nText.\n"}, "papers/x.md:2"),
    "no front matter": ({"papers/x.md": "Just an abstract.\n"}, "papers/x.md:1"),
    "tags as one string": ({"papers/x.md": paper("x", "X", tags='"kv-cache, sparse-attention"')}, "papers/x.md:6"),
    "a number as title": ({"papers/x.md": paper("x", "X").replace('title: "X"', "title: 42")}, "papers/x.md:2"),
    "an unknown key": ({"papers/x.md": paper("x", "X", extra="tilte: Y\n")}, "papers/x.md:7"),
    "no title": ({"papers/x.md": paper("x", "X").replace('title: "X"\n', "")}, "papers/x.md:1"),
    "no venue": ({"papers/x.md": paper("x", "X").replace("venue: ICML 2024\n", "")}, "papers/x.md:1"),
    "a duplicate slug": ({"papers/x.md": paper("samba", "X")}, "papers/x.md:4"),
    "a slash in the slug": ({"papers/x.md": paper("a/b", "X")}, "papers/x.md:4"),
    "a dot-dot slug": ({"papers/x.md": paper("..", "X")}, "papers/x.md:4"),
    "capitals in the slug": ({"papers/x.md": paper("Samba2", "X")}, "papers/x.md:4"),
    "a space in the slug": ({"papers/x.md": paper("a b", "X")}, "papers/x.md:4"),
    "a non-ASCII slug": ({"papers/x.md": paper("ñandú", "X")}, "papers/x.md:4"),
    "an unknown tag": ({"papers/x.md": paper("x", "X", tags="[kv-cahce]")}, "papers/x.md:6"),
    "an empty file": ({"papers/x.md": ""}, "papers/x.md:1"),
    "non-UTF-8 bytes": ({"papers/x.md": paper("x", "Café").encode("latin-1")}, "papers/x.md:2"),
    "non-UTF-8 bytes after a BOM and CRLF": ({"papers/x.md": b"\xef\xbb\xbf" + paper("x", "Caf\xe9").replace(
        "\n", "\r\n").encode("latin-1")}, "papers/x.md:2"),
    "an unknown tag in a CRLF file": ({"papers/x.md": paper("x", "X", tags="[kv-cahce]").replace("\n", "\r\n")},
                                      "papers/x.md:6"),
    "a binary file": ({"papers/x.md": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"}, "papers/x.md:1"),
    "a code link that is not http(s)": ({"papers/x.md": paper("x", "X", extra="code: javascript:alert(1)\n")},
                                        "papers/x.md:7"),
    "a link to no page in an abstract": ({"papers/x.md": paper("x", "X", body="Intro.\n\nSee [y](/papers/y/).")},
                                         "papers/x.md:11"),
    "a theme naming an unknown tag": ({"taxonomy.yaml": TAXONOMY.replace("tags: [in-context-learning]",
                                                                         "tags: [in-context-learnin]")},
                                      f"taxonomy.yaml:{THEME_LINE}"),
    "a merge conflict in a paper": ({"papers/x.md": paper("x", "X").replace(
        'title: "X"\n', '<<<<<<< HEAD\ntitle: "X"\n=======\ntitle: "X, retitled"\n>>>>>>> retitle\n')},
        "papers/x.md:2: an unresolved merge conflict"),
    "a merge conflict in an abstract": ({"papers/x.md": paper("x", "X", body="Intro.\n<<<<<<< HEAD\nOne.\n"
                                                                            "=======\nTwo.\n>>>>>>> b\n")},
                                        "papers/x.md:10: an unresolved merge conflict"),
    "a merge conflict in the taxonomy": ({"taxonomy.yaml": TAXONOMY.replace("themes:\n", "<<<<<<< ours\nthemes:\n", 1)},
                                         f"taxonomy.yaml:{TAXONOMY.split(chr(10)).index('themes:') + 1}: an unresolved"),
    "a merge conflict in the redirects": ({"redirects.txt": "<<<<<<< HEAD\n/a/ /b/\n=======\n/a/ /c/\n>>>>>>> x\n"},
                                          "redirects.txt:1: an unresolved merge conflict"),
    "an unknown venue": ({"papers/x.md": paper("x", "X", venue="ICRL 2025")}, "papers/x.md:5: unknown venue"),
    "a date that does not exist": ({"papers/x.md": paper("x", "X", extra="added: 2026-13-45\n")},
                                   "papers/x.md:7: `2026-13-45` is not a real date"),
    "a placeholder code link": ({"papers/x.md": paper("x", "X", extra="code: https://github.com/...\n")},
                                "papers/x.md:7: `code` is a placeholder"),
    "a summary site as the paper's link": ({"papers/x.md": paper("x", "X", extra="url: https://chatpaper.com/paper/1\n")},
                                           "papers/x.md:7: `url` is not the paper's own page"),
    "a paper saved as .markdown": ({"papers/x.markdown": paper("x", "X")}, "papers/x.markdown: not read"),
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


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file's bytes and modification time, and every symlink's target."""
    return {str(p.relative_to(folder)): (p.read_bytes() if not p.is_symlink() else str(p.readlink()).encode(),
                                          p.lstat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file() or p.is_symlink()}


def write(content: Path, files: dict[str, str | bytes]) -> None:
    for name, data in files.items():
        (content / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


@pytest.mark.parametrize("case", HOSTILE)
def test_bad_content_is_refused_at_its_line_and_loses_nothing(built_once, tmp_path, case):
    project = Scratch(tmp_path / "project")
    shutil.copytree(built_once, project.root, symlinks=True)
    files, where = HOSTILE[case]
    write(project.content, files)
    content, site = snapshot(project.content), snapshot(project.site)
    with pytest.raises(ContentError) as error:
        build_site(project.config(), Report())
    diagnostics = error.value.diagnostics
    assert str(diagnostics[0]).startswith(f"{project.content}/{where}"), str(diagnostics[0])
    assert all(d.hint and (d.line >= 1 or d.message.startswith("not read")) for d in diagnostics), \
        [str(d) for d in diagnostics]  # a file that is read not at all has no line to name
    assert snapshot(project.content) == content
    assert snapshot(project.site) == site
    assert sorted(p.name for p in project.root.iterdir()) == [".cache", "content", "site"]


def test_a_symlink_out_of_content_is_refused_and_loses_nothing(built_once, tmp_path):
    project = Scratch(tmp_path / "project")
    shutil.copytree(built_once, project.root, symlinks=True)
    secret = tmp_path / "secret.md"
    secret.write_text(paper("secret", "Secret"))
    (project.content / "papers/secret.md").symlink_to(secret)
    content, site = snapshot(project.content), snapshot(project.site)
    with pytest.raises(ContentError, match="points outside content/") as error:
        build_site(project.config(), Report())
    assert error.value.diagnostics[0].path == project.content / "papers/secret.md"  # a link has no lines
    assert snapshot(project.content) == content and snapshot(project.site) == site
    assert "Secret" not in (project.site / "papers/index.html").read_text()


@pytest.mark.parametrize("case, text", [
    ("a UTF-8 BOM", "\ufeff" + paper("odd", "Odd")),
    ("CRLF line ends", paper("odd", "Odd").replace("\n", "\r\n")),
    ("a five-megabyte abstract", paper("odd", "Odd", body="word " * 1_000_000)),
    ("malformed LaTeX", paper("odd", "Odd", body="Fine.\n\nA broken $\\frac{a}{$ formula.")),
])
def test_odd_but_valid_content_builds(built_once, tmp_path, case, text):
    project = Scratch(tmp_path / "project")
    shutil.copytree(built_once, project.root, symlinks=True)
    write(project.content, {"papers/odd.md": text})
    content = snapshot(project.content)
    report = Report()
    build_site(project.config(search=False), report)
    page = (project.site / "papers/odd/index.html").read_text()
    assert "<h1" in page and "Odd" in page
    assert snapshot(project.content) == content
    if case == "malformed LaTeX":
        assert "<code" in page and "\\frac{a}{" in page
        assert [str(w) for w in report.warnings] == [
            f"{project.content}/papers/odd.md:11: warning: formula shown as TeX code: \\frac{{a}}{{ — fix the LaTeX"]
