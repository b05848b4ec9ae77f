"""Pagefind's index made byte-stable: the CBOR codec it rests on, and the rewrite's guards."""

from __future__ import annotations

import gzip

import pytest
from helpers import tree
from hypothesis import given
from hypothesis import strategies as st

from catalogue.output import cbor
from catalogue.output.search import make_stable

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.text() | st.binary(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=5),
    max_leaves=30)


@pytest.mark.parametrize("value, encoded", [  # examples from RFC 8949, appendix A
    (0, "00"), (23, "17"), (24, "1818"), (1000000, "1a000f4240"), (18446744073709551615, "1bffffffffffffffff"),
    (-1000, "3903e7"), ("IETF", "6449455446"), ("ü", "62c3bc"), (b"\x01\x02\x03\x04", "4401020304"),
    ([1, [2, 3], [4, 5]], "8301820203820405"), ({"a": 1, "b": [2, 3]}, "a26161016162820203"),
    (False, "f4"), (True, "f5"), (None, "f6"),
])
def test_cbor_matches_the_standard(value, encoded):
    assert cbor.encode(value).hex() == encoded
    assert cbor.decode(bytes.fromhex(encoded)) == value


@given(VALUES)
def test_cbor_reads_back_what_it_writes(value):
    assert cbor.decode(cbor.encode(value)) == value


@pytest.mark.parametrize("data, complaint", [
    ("83010203ff", "bytes after the value"), ("8301", "ends inside a value"), ("6449", "ends inside a string"),
    ("1a000f", "ends inside a number"), ("9f01ff", "indefinite lengths"), ("f97e00", "simple value"),
    ("c11a514b67b0", "major type 6"),
])
def test_cbor_refuses_what_it_cannot_read(data, complaint):
    with pytest.raises(cbor.CBORError, match=complaint):
        cbor.decode(bytes.fromhex(data))


def index_files(site):
    return tree(site / "pagefind")


@pytest.fixture
def site(small_built_copy):
    """A copy of the session's small site, Pagefind's index included: one Pagefind run for all."""
    return small_built_copy.project.site


def test_a_stable_index_is_left_as_it_is_and_still_names_its_files(site):
    before = index_files(site)
    assert make_stable(site / "pagefind")
    assert index_files(site) == before
    filters = [p for p in before if p.endswith(".pf_filter")]
    for path in filters:
        name, values = cbor.decode(gzip.decompress(before[path])[len(b"pagefind_dcd"):])
        assert [v[0] for v in values] == sorted(v[0] for v in values) and name in ("tag", "theme", "venue")
    assert len(filters) == 3


def test_an_index_in_any_order_is_put_in_the_one_stable_order(site):
    stable = index_files(site)
    index = site / "pagefind"
    meta_path = next(index.glob("*.pf_meta"))
    meta = cbor.decode(gzip.decompress(meta_path.read_bytes())[len(b"pagefind_dcd"):])
    for name, filter_hash in meta[3]:  # as another run of Pagefind might write them: reversed
        path = index / "filter" / f"{filter_hash}.pf_filter"
        filter_name, values = cbor.decode(gzip.decompress(path.read_bytes())[len(b"pagefind_dcd"):])
        path.write_bytes(gzip.compress(b"pagefind_dcd" + cbor.encode([filter_name, values[::-1]])))
    meta[3].reverse()
    meta[4].reverse()
    meta_path.write_bytes(gzip.compress(b"pagefind_dcd" + cbor.encode(meta)))
    assert index_files(site) != stable
    assert make_stable(index)
    assert index_files(site) == stable


@pytest.mark.parametrize("entry", ['{"version":"9"}', '{"languages":{"en":{}}}', "not json", '{"languages":[1]}'])
def test_an_entry_file_of_another_layout_is_not_touched(site, entry):
    (site / "pagefind/pagefind-entry.json").write_text(entry)
    before = index_files(site)
    assert not make_stable(site / "pagefind")
    assert index_files(site) == before


def test_an_index_in_an_unknown_layout_is_not_touched(site):
    meta = next((site / "pagefind").glob("*.pf_meta"))
    meta.write_bytes(gzip.compress(b"pagefind_dcd" + cbor.encode({"another": "layout"})))
    before = index_files(site)
    assert not make_stable(site / "pagefind")
    assert index_files(site) == before
