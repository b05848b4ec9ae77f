"""The one build state (catalogue/state.py): keys that are the same for equal values in every
process, values worked out again only when their arguments move, files read again only when
their signature moves, what changed on disk told by kind, and a state saved by one process that
the next one takes up, unless it is for other code or settings."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import pytest
from conftest import Scratch, paper
from helpers import built

from catalogue import state as state_module
from catalogue.changeset import ChangeSet
from catalogue.config import PROJECT_ROOT, SiteConfig
from catalogue.content.model import Listing, Venue
from catalogue.state import BuildState, digest, identity, state_file

PROBE = """
import sys
sys.path.insert(0, {root!r})
from catalogue.content.model import Listing, Venue
from catalogue.state import digest
venue = Venue(2024, "ICML", "International Conference on Machine Learning")
venue.label  # a cached property, set in this process only
value = (("b", "a"), Listing("x", "X", venue, ("Ada",), ("kv-cache",), False), {{"k": [1.5, None]}})
print(digest(value).hex())
"""


@dataclass(frozen=True)
class Point:
    x: int
    y: int
    note: str = field(default="", compare=False)

    @cached_property
    def length(self) -> float:
        return (self.x ** 2 + self.y ** 2) ** 0.5


def test_equal_values_have_one_digest_in_every_process():
    """A string's hash and a cached property differ from process to process; the digest does not."""
    found = {subprocess.run([sys.executable, "-c", PROBE.format(root=str(PROJECT_ROOT))], capture_output=True,
                            text=True, check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
             for seed in ("1", "2", "3")}
    venue = Venue(2024, "ICML", "International Conference on Machine Learning")
    here = digest((("b", "a"), Listing("x", "X", venue, ("Ada",), ("kv-cache",), False), {"k": [1.5, None]}))
    assert found == {here.hex() + "\n"}


def test_a_digest_follows_equality():
    shared = Point(1, 2)
    shared.length  # noqa: B018 (a cached property: not part of the value)
    assert digest(shared) == digest(Point(1, 2, note="compare=False: not part of the value"))
    assert digest((shared, shared)) == digest((Point(1, 2), Point(1, 2)))  # one object or two equal ones
    assert digest(Point(1, 2)) != digest(Point(2, 1)) != digest((1, 2))
    assert digest({"a": 1, "b": 2}) != digest({"a": 1, "b": 3})
    assert digest(Path("a/b")) != digest("a/b")


def test_a_state_saved_by_one_process_has_the_keys_the_next_works_out(small_site, code):
    """`python build.py` twice, each process with its own string hashes, the second made to plan
    every group: every key the first saved, of each group and each file, is the one the second
    works out (a set's order in a group's arguments, say, would not be)."""
    def build(seed: str) -> dict:
        done = subprocess.run([sys.executable, str(code / "build.py"), "--content", str(small_site.content),
                               "--out", str(small_site.root / "out"), "--no-search", "--no-images"],
                              capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": seed})
        assert done.returncode == 0, done.stderr
        path = state_file(SiteConfig(out_dir=small_site.root / "out", cache_dir=code / ".cache"), "build")
        with path.open("rb") as stream:
            pickle.load(stream)  # the identity
            pickle.load(stream)  # the glance
            state = pickle.load(stream)
        return {**{group: record.key for group, record in state.groups.items()},
                **{file: record.key for file, record in state.outputs.items()}}
    first = build("1")
    samba = small_site.content / "papers/samba.md"
    samba.write_bytes(samba.read_bytes())  # the same bytes saved again: not the fast path, a whole plan
    assert build("2") == first and len(first) > 60


def test_a_key_is_worked_out_again_only_for_other_arguments(monkeypatch):
    state = BuildState(b"")
    calls = []
    monkeypatch.setattr(state_module, "digest", lambda value: calls.append(value) or digest(value))
    first = state.key("group", Point, (1, 2))
    assert state.key("group", Point, (1, 2)) == first and len(calls) == 1  # equal arguments: the last key
    assert state.key("group", Point, (1, 3)) != first and len(calls) == 2
    assert state.key("group", Point, (1, 2)) == first  # the same value again, the same key


def test_a_derived_value_is_worked_out_again_only_when_its_arguments_move():
    state, calls = BuildState(b""), []

    def total(*numbers: int) -> int:
        calls.append(numbers)
        return sum(numbers)
    assert state.derive("total", total, 1, 2) == 3
    assert state.derive("total", total, 1, 2) == 3 and calls == [(1, 2)]
    assert state.derive("total", total, 1, 5) == 6 and calls == [(1, 2), (1, 5)]


def test_a_file_is_read_again_only_when_its_signature_moves(tmp_path):
    state, reads = BuildState(b""), []
    path = tmp_path / "notes.txt"
    path.write_text("one")

    def read(file: Path) -> tuple[str, tuple]:
        reads.append(file.read_text())
        return file.read_text(), ()
    assert state.read(path, read).value == "one"
    assert state.read(path, read).value == "one" and reads == ["one"]
    os.replace(_written(tmp_path / ".notes.txt.swp", "two"), path)  # an editor's save: a new file
    assert state.read(path, read).value == "two" and reads == ["one", "two"]
    assert state.read(path, read, force=True).value == "two" and len(reads) == 3


def _written(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_what_changed_on_disk_is_told_by_kind(small_site: Scratch):
    config = small_site.config(out_dir=small_site.root / "out", search=False, ledger=small_site.root / "published-urls.txt")
    state = built(config).state
    assert state.changes(config) == ChangeSet()
    small_site.write("content/papers/new.md", paper("new", "New"))
    (small_site.content / "papers/icv.md").unlink()
    small_site.write("content/papers/samba.md", (small_site.content / "papers/samba.md").read_text() + "\nMore.\n")
    small_site.write("content/taxonomy.yaml", (small_site.content / "taxonomy.yaml").read_text() + "\n")
    small_site.write("content/redirects.txt", "/old/ /tags/\n")
    small_site.write("content/sources/list.txt", "ICML 2024\n")  # a raw list: read by no build
    changes = state.changes(config)
    assert changes.papers == {small_site.content / "papers" / name for name in ("new.md", "icv.md", "samba.md")}
    assert changes.vocabulary and changes.site == {small_site.content / "redirects.txt"}
    assert not (changes.settings or changes.templates or changes.static)
    assert BuildState(b"").changes(config) == ChangeSet.everything()  # nothing known: everything


def test_a_saved_state_is_taken_up_only_by_the_same_code_and_settings(small_site: Scratch, monkeypatch):
    config = small_site.config(out_dir=small_site.root / "out", search=False)
    state = built(config).state
    state.key("group", Point, (1, 2))  # what this process remembers of arguments is not saved
    path = state_file(config, "build")
    state.save(path)
    again = BuildState.restore(path, identity(config))
    assert again.outputs == state.outputs and again.groups == state.groups and again.recent == {}
    assert again.sources.keys() == state.sources.keys()
    assert BuildState.restore(path, identity(replace(config, title="Another title"))).outputs == {}
    monkeypatch.setattr(state_module, "code_version", lambda: "other code")
    assert BuildState.restore(path, identity(config)).outputs == {}
    path.write_bytes(pickle.dumps(identity(config))[:-3])  # cut short
    assert BuildState.restore(path, identity(config)).outputs == {}


@pytest.mark.parametrize("mode", ["build", "watch", "check"])
def test_each_mode_and_output_folder_keeps_a_state_of_its_own(tmp_path, mode):
    config = Scratch(tmp_path).config()
    assert state_file(config, mode) != state_file(replace(config, out_dir=tmp_path / "elsewhere"), mode)
    assert len({state_file(config, other) for other in ("build", "watch", "check")}) == 3
    assert state_file(replace(config, cache_dir=None), mode) is None
