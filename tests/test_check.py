import json
import shutil
from pathlib import Path

from conftest import paper
from helpers import build_py, tree

from catalogue.check import FOLD_FROM, curation_report
from catalogue.check import run_check as run_check_in_process
from catalogue.config import PROJECT_ROOT
from catalogue.content.loader import load_catalogue
from catalogue.pipeline import check_site
from catalogue.relate.duplicates import near_duplicates
from catalogue.render.renderer import PageRenderer
from catalogue.report import Report, shown_path

LONG = ("We compress the key-value cache of long-context language models by keeping the tokens "
        "that attention needs most, which cuts memory eight times at equal accuracy on long tasks.")


def curate(scratch) -> list[str]:
    report = Report()
    curation_report(load_catalogue(scratch.content, report, drafts=True),
                    scratch.content / "taxonomy.yaml", report)
    return [str(d).replace(f"{scratch.content}/", "") for d in report.diagnostics]


def test_curation_report_lists_what_needs_a_curator(scratch):
    scratch.write("content/papers/kvpress.md", paper(
        "kvpress", "KVPress: Pressing the Cache", tags="[kv-cache]", body=LONG,
        extra="code: https://github.com/x/kvpress\n").replace("title_source: curated", "title_source: derived"))
    scratch.write("content/papers/kv-copy.md", paper(
        "kv-copy", "A Copy", tags="[kv-cache, sparse-attention]", body=LONG + " Same paper, again."))
    lines = curate(scratch)
    assert "papers/kvpress.md:2: warning: title still derived from the abstract — check it against the paper, then set `title_source: curated`" in lines
    assert "papers/kvpress.md:6: warning: only 1 tag — add at least one more tag from content/taxonomy.yaml" in lines
    assert ("papers/kvpress.md:10: warning: maybe the same paper as kv-copy.md: abstracts 90% alike — "
            "if they are the same paper: python build.py merge kv-copy kvpress") in lines
    assert "papers/kv-copy.md:1: note: no code link — add `code: https://…` if the authors published code" in lines
    assert "papers/kv-copy.md:4: note: slug `kv-copy` differs from the title's (`a-copy`) — fine: slugs are permanent; rename only with the old slug kept in `aliases:`" in lines
    assert any(line.startswith("taxonomy.yaml:10: warning: tag `state-space-models` is used by no paper") for line in lines)
    assert any(line.startswith("taxonomy.yaml:6: note: tag `sparse-attention` is used by one paper only") for line in lines)
    assert not any("kv-cache` is used" in line for line in lines)


def test_near_duplicates_need_most_words_in_common(scratch):
    scratch.write("content/papers/a.md", paper("a", "A", body=LONG))
    scratch.write("content/papers/b.md", paper("b", "B", body=LONG.replace("eight", "nine")))
    scratch.write("content/papers/c.md", paper("c", "C", body="An unrelated abstract about sampling in physics "
                                              "with many words that share nothing with the other papers here."))
    pairs = near_duplicates(load_catalogue(scratch.content, Report()).papers)
    assert [(a.slug, b.slug) for a, b, _ in pairs] in ([("a", "b")], [("b", "a")])
    assert 0.5 <= pairs[0][2] < 1


def run_check(code: Path, *args: str):
    """`build.py check ARGS` run as a process from the session's copy of the code (its .cache/ is the copy's)."""
    return build_py(code, "check", *args)


def test_check_exits_zero_on_warnings_and_one_with_strict(code, scratch):
    scratch.write("content/papers/a.md", paper("a", "A", tags="[kv-cache]"))
    relaxed = run_check(code, "--content", str(scratch.content))
    assert relaxed.returncode == 0
    assert "only 1 tag" in relaxed.stderr and "Checked 1 papers: 0 errors," in relaxed.stderr
    strict = run_check(code, "--strict", "--content", str(scratch.content))
    assert strict.returncode == 1 and "--strict: warnings count as errors." in strict.stderr


def test_check_fails_on_errors_and_writes_nothing(code, scratch):
    scratch.write("content/papers/a.md", paper("a", "A", tags="[nope]"))
    before = tree(scratch.root, mtimes=True)
    done = run_check(code, "--content", str(scratch.content))
    assert done.returncode == 1 and f"{scratch.content}/papers/a.md:6: unknown tag `nope`" in done.stderr
    assert tree(scratch.root, mtimes=True) == before and sorted(p.name for p in scratch.root.iterdir()) == ["content"]


def test_check_groups_by_file_worst_first_and_quiet_drops_notes(code, scratch):
    scratch.write("content/papers/a.md", paper("a", "A", extra="code: https://github.com/x/a\n"))
    scratch.write("content/papers/b.md", paper("b", "B", tags="[kv-cache]"))
    scratch.write("content/papers/c.md", paper("c", "C"))
    out = run_check(code, "--content", str(scratch.content)).stderr
    blocks = [block.splitlines() for block in out.strip().split("\n\n")]
    files = [block[0].split(":")[0] for block in blocks[:-1]]
    assert files[0].endswith("papers/b.md")  # the only file with a warning comes first
    assert len(files) == len(set(files))  # one block a file
    assert all(len({line.split(":")[0] for line in block}) == 1 for block in blocks[:-1])
    assert "note:" in out
    quiet = run_check(code, "--quiet", "--content", str(scratch.content)).stderr
    assert "note:" not in quiet and "warning: only 1 tag" in quiet and "(notes not shown)." in quiet


def test_check_speaks_json_for_machines(code, scratch):
    scratch.write("content/papers/a.md", paper("a", "A", tags="[kv-cache, nope]"))
    done = run_check(code, "--format", "json", "--content", str(scratch.content))
    report = json.loads(done.stdout)
    assert done.returncode == 1 and report["ok"] is False and report["errors"] == 1
    assert report["diagnostics"][0] == {
        "path": str(scratch.content / "papers/a.md"), "line": 6, "severity": "error",
        "message": "unknown tag `nope`", "hint": "use a tag id from content/taxonomy.yaml, or add the tag there"}


def test_check_finds_what_only_rendering_finds(code, scratch, tmp_path):
    """A template that fails, and a link to no page, are build errors: check reaches them too."""
    scratch.write("content/papers/a.md", paper("a", "A", body="See [b](/papers/b/)."))
    done = run_check(code, "--content", str(scratch.content))
    assert done.returncode == 1 and "papers/a.md:9: the link /papers/b/ leads to no page" in done.stderr
    scratch.write("content/papers/a.md", paper("a", "A"))
    templates = tmp_path / "templates"
    shutil.copytree(PROJECT_ROOT / "templates", templates)
    (templates / "tag.html").write_text("{% extends 'base.html' %}{% block content %}{{ nope.x }}{% endblock %}")
    done = run_check(code, "--content", str(scratch.content), "--templates", str(templates))
    assert done.returncode == 1 and f"{templates}/tag.html:1: template failed on /tags/" in done.stderr
    assert not (scratch.root / "site").exists()


def test_check_notices_a_source_that_points_at_nothing(scratch):
    scratch.write("content/sources/list.txt", "ICML 2024 Papers\n\nAn abstract.\n")
    scratch.write("content/papers/a.md", paper("a", "A", extra="source: list.txt:3\n"))
    scratch.write("content/papers/b.md", paper("b", "B", extra="source: gone.txt:3\n"))
    scratch.write("content/papers/c.md", paper("c", "C", extra="source: list.txt:2\n"))
    lines = [line for line in curate(scratch) if "source:" in line]
    assert lines == [
        "papers/b.md:7: warning: `source: gone.txt:3` names no list in content/sources/ — copy the raw list "
        "into content/sources/, or delete the line",
        "papers/c.md:7: warning: `source: list.txt:2`: no abstract starts at that line — write the line the "
        "abstract starts on in that list"]


def test_a_merge_conflict_in_a_template_or_a_stylesheet_is_an_error(code, scratch, tmp_path):
    scratch.write("content/papers/a.md", paper("a", "A"))
    for folder, name in (("templates", "paper.html"), ("static", "style.css")):
        copy = tmp_path / folder
        shutil.copytree(PROJECT_ROOT / folder, copy)
        text = (copy / name).read_text()
        (copy / name).write_text("<<<<<<< HEAD\n" + text + "=======\n" + text + ">>>>>>> theirs\n")
        done = run_check(code, "--content", str(scratch.content), f"--{folder}", str(copy))
        assert done.returncode == 1 and f"{copy / name}:1: an unresolved merge conflict" in done.stderr
        shutil.rmtree(copy)


def test_check_starts_from_the_state_the_last_check_left(small_site, monkeypatch):
    """A second check renders nothing; one after an edit renders what the edit reaches; each
    reports what a check from scratch reports."""
    rendered: list[str] = []
    render = PageRenderer.render
    monkeypatch.setattr(PageRenderer, "render", lambda self, page: rendered.append(page.file) or render(self, page))

    def check(cache: str) -> list[str]:
        report = Report()
        rendered.clear()
        check_site(small_site.config(social_images=False, cache_dir=small_site.root / cache), report)
        return [str(d) for d in report.diagnostics]
    samba = small_site.content / "papers/samba.md"
    samba.write_text(samba.read_text().replace("$x_1 * y_2$", "$\\frac{x$"))  # a warning to report again
    first = check(".cache")
    everything = len(rendered)
    assert any("formula shown as TeX code" in line for line in first) and everything > 30
    assert check(".cache") == first and rendered == []
    samba.write_text(samba.read_text().replace("hybrid of Mamba", "hybrid of Mamba 2"))
    again, incremental = check(".cache"), list(rendered)
    assert again == check(".fresh-cache") and 0 < len(incremental) < everything
    assert "papers/samba/index.html" in incremental


def test_paths_are_shown_from_the_working_folder_also_entered_through_a_link(tmp_path, monkeypatch):
    real = tmp_path / "real"
    (real / "content" / "papers").mkdir(parents=True)
    (tmp_path / "elsewhere.md").write_text("x")
    (real / "content" / "papers" / "linked.md").symlink_to(tmp_path / "elsewhere.md")
    (tmp_path / "link").symlink_to(real)
    monkeypatch.chdir(tmp_path / "link")  # the system names it tmp_path/real; the shell, tmp_path/link
    monkeypatch.setenv("PWD", str(tmp_path / "link"))
    assert shown_path(tmp_path / "link" / "content" / "papers" / "a.md") == "content/papers/a.md"
    assert shown_path(real / "content" / "papers" / "a.md") == "content/papers/a.md"
    assert shown_path(Path("content/papers/a.md")) == "content/papers/a.md"
    assert shown_path(real / "content" / "papers" / "linked.md") == "content/papers/linked.md"  # not where it leads
    assert shown_path(tmp_path / "elsewhere.md") == str(tmp_path / "elsewhere.md")
    monkeypatch.setenv("PWD", str(tmp_path))  # a stale $PWD, naming another folder, is not trusted
    assert shown_path(tmp_path / "link" / "content" / "a.md") == str(tmp_path / "link" / "content" / "a.md")
    assert shown_path("content/lnk/../papers/a.md") == "content/lnk/../papers/a.md"  # `lnk` may lead elsewhere
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    assert shown_path(real / "content" / "a.md") == str(real / "content" / "a.md")


def test_a_phrase_another_phrase_of_its_tag_finds_already_is_noted(scratch):
    taxonomy = (scratch.content / "taxonomy.yaml").read_text(encoding="utf-8")
    phrases = '"kv cache", "kv caches", "kv cache*", "kv cache eviction", "key-value cache", "key-value cache"'
    scratch.write("content/taxonomy.yaml", taxonomy.replace('"kv cache", "key-value cache"', phrases, 1))
    scratch.write("content/papers/a.md", paper("a", "A"))
    report = Report()
    curation_report(load_catalogue(scratch.content, Report()), scratch.content / "taxonomy.yaml", report)
    notes = [d.message for d in report.diagnostics if "tag `kv-cache`: the phrase" in d.message]
    assert notes == [  # `kv cache*` finds what `kv cache` does, not the other way round: it stays
        "tag `kv-cache`: the phrase `kv cache` adds nothing, as `kv cache*` finds it already",
        "tag `kv-cache`: the phrase `kv caches` adds nothing, as `kv cache*` finds it already",
        "tag `kv-cache`: the phrase `kv cache eviction` adds nothing, as `kv cache*` finds it already",
        "tag `kv-cache`: the phrase `key-value cache` is listed twice"]


def test_a_note_said_of_many_files_is_printed_once_with_the_files(scratch, capsys):
    """A conference's new papers have no code link yet: one line for all of them, naming the
    first files, so the notes that differ are not buried; JSON still has every one."""
    for number in range(FOLD_FROM + 1):
        scratch.write(f"content/papers/p{number:02}.md", paper(f"p{number:02}", f"P{number:02}"))
    scratch.write("content/papers/coded.md", paper("coded", "Coded", tags="[kv-cache]",
                                                   extra="code: https://github.com/x/coded\n"))
    config = scratch.config(search=False)
    assert run_check_in_process(config, strict=False) == 0
    err = capsys.readouterr().err
    assert "no code link —" not in err  # no line of its own for any paper
    assert (f"note: no code link, in {FOLD_FROM + 1} files — add `code: https://…` if the authors published code\n"
            f"  {shown_path(scratch.content / 'papers/p00.md')}, ") in err
    assert f", and {FOLD_FROM + 1 - 5} more (each one: `--format json`)" in err
    assert "papers/coded.md:6: warning: only 1 tag" in err  # the rest as before
    assert f"Checked {FOLD_FROM + 2} papers: 0 errors," in err
    run_check_in_process(config, strict=False, output="json")
    notes = [d for d in json.loads(capsys.readouterr().out)["diagnostics"] if d["message"] == "no code link"]
    assert len(notes) == FOLD_FROM + 1
