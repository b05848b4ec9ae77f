"""A build's stages: timed, shown while a large catalogue builds (one live line on a terminal,
plain lines elsewhere), and summed up in a table at the end."""

from __future__ import annotations

import io
import re
import sys

from helpers import build_py

from catalogue.config import PROJECT_ROOT
from catalogue.progress import SHOWN_FROM_PAPERS, Stages, summary_table

sys.path.insert(0, str(PROJECT_ROOT / "scripts"))
from synthetic import generate  # noqa: E402 -- the benchmark's own synthetic catalogue


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_small_catalogue_shows_no_stages_and_a_large_one_shows_each_as_it_ends():
    stream = io.StringIO()
    stages = Stages(stream)
    with stages("load"):
        pass
    stages.show_for(SHOWN_FROM_PAPERS - 1)
    with stages("relate"):
        pass
    assert stream.getvalue() == "" and set(stages.seconds) == {"load", "relate"}
    stages.show_for(SHOWN_FROM_PAPERS)  # the stages before it knew are shown at once
    with stages("render"):
        pass
    assert re.fullmatch(r"load: \d+\.\d s\nrelate: \d+\.\d s\nrender: \d+\.\d s\n", stream.getvalue())


def test_on_a_terminal_the_stages_run_on_one_line_with_a_bar_cleared_at_the_end():
    terminal = Terminal()
    stages = Stages(terminal)
    stages.show_for(SHOWN_FROM_PAPERS)
    with stages("render"):
        assert terminal.getvalue().endswith("\r\x1b[2K[" + "#" * 10 + "." * 14 + "] 5/9 render…")
    stages.finish()
    assert terminal.getvalue().endswith("\r\x1b[2K") and "\n" not in terminal.getvalue()


def test_the_summary_table_lines_up_and_adds_the_stages():
    table = summary_table({"pages": 685, "papers": 95}, {"render": 1.25, "load": 0.5})
    lines = table.splitlines()
    assert len({line.index("|") for line in lines if "|" in line}) == 1  # one column of bars
    assert [line.split("|")[0].strip() for line in lines[-3:]] == ["load", "render", "total"]  # pipeline order
    assert lines[-1].endswith("1.75") and lines[2].endswith("685")


def test_the_cli_shows_the_stages_of_a_large_build_and_ends_with_the_table(tmp_path, code):
    generate(SHOWN_FROM_PAPERS, tmp_path / "content")
    done = build_py(code, "--content", str(tmp_path / "content"), "--out", str(tmp_path / "site"),
                    "--no-images", "--no-search")
    assert done.returncode == 0, done.stderr[-2000:]
    shown = [line.split(":")[0] for line in done.stderr.splitlines()]
    assert shown == ["restore", "load", "relate", "plan", "render", "links", "swap", "save"]  # no search asked for
    assert re.search(r"^  papers +\| +1000$", done.stdout, re.M)
    assert re.search(r"^  total +\| +\d+\.\d\d$", done.stdout, re.M)
    assert not re.search(r"^  rendered now +\| +0$", done.stdout, re.M)
    again = build_py(code, "--content", str(tmp_path / "content"), "--out", str(tmp_path / "site"),
                     "--no-images", "--no-search")
    assert re.search(r"^  rendered now +\| +0$", again.stdout, re.M), again.stdout  # all from .cache/
