import pytest
from conftest import paper

from catalogue.content import yamltext
from catalogue.content.keys import described
from catalogue.content.loader import load_catalogue
from catalogue.report import ContentError, Report


def errors_for(scratch, files: dict[str, str]) -> list[str]:
    for name, text in files.items():
        scratch.write(f"content/papers/{name}", text)
    with pytest.raises(ContentError) as error:
        load_catalogue(scratch.content, Report())
    return [str(d).replace(f"{scratch.content}/", "") for d in error.value.diagnostics]


def test_valid_papers_load_sorted_by_venue_then_title(small_site):
    catalogue = load_catalogue(small_site.content, Report())
    assert [p.slug for p in catalogue.papers] == ["samba", "icv", "rocketkv"]
    assert [v.label for v in catalogue.venues] == ["ICLR 2025", "ICML 2024"]


@pytest.mark.parametrize("text, expected", [  # more in test_check_hostile.py, through a whole build
    ("Just text, no front matter.\n",
     "papers/a.md:1: no front matter — start the file with a `---` line"),
    (paper("a", "A").replace("tags:", "tgas:"),
     "papers/a.md:6: unknown key `tgas` — did you mean `tags`?"),
    (paper("a", "A", tags="[kv-cache, kv-cahce]"),
     "papers/a.md:6: unknown tag `kv-cahce` — did you mean `kv-cache`?"),
    (paper("a", "A").replace('title: "A"\n', ""),
     "papers/a.md:1: `title` is missing — add a `title:` line"),
    (paper("a", "A", venue="ICML"),
     "papers/a.md:5: venue 'ICML' has no year"),
    (paper("a", "A", extra="project: ftp://example.org/x\n"), "papers/a.md:7: `project` is not an http(s) URL"),
    (paper("a", "A", extra="authors: Ada Lovelace\n"), "papers/a.md:7: `authors` must be a list"),
    (paper("a", "A", venue="ICLR 2024"), "papers/a.md:5: unknown venue `ICLR 2024` — ICLR 2024 is a new edition of "
     "ICLR (content/venues.yaml lists ICLR 2025): add it under `venues:`, with its proceedings, first day and "
     "booktitle if known —\n  - name: ICLR\n    year: 2024\n    title: International Conference on Learning "
     "Representations"),
    (paper("a", "A", venue="ICML 2023"), "papers/a.md:5: unknown venue `ICML 2023` — ICML 2023 is a new edition of "
     "ICML (content/venues.yaml lists ICML 2024, ICML 2025): add it under `venues:`"),  # every edition it lists
])
def test_each_problem_names_file_line_and_fix(scratch, text, expected):
    assert errors_for(scratch, {"a.md": text})[0].startswith(expected)


def test_all_errors_are_collected_before_failing(scratch):
    errors = errors_for(scratch, {
        "a.md": paper("a", "A", tags="[nope]"),
        "b.md": paper("b", "B", venue="ICML"),
        "c.md": "---\ntitle: x\n",
    })
    assert len(errors) == 3
    assert any(e.startswith("papers/b.md:5: venue 'ICML' has no year") for e in errors)
    assert any(e.startswith("papers/a.md:6: unknown tag `nope`") for e in errors)
    assert any(e.startswith("papers/c.md:1: the front matter is never closed") for e in errors)


def test_duplicate_slugs_are_reported_with_both_files(scratch):
    errors = errors_for(scratch, {"a.md": paper("same", "A"), "b.md": paper("same", "B")})
    assert errors == ["papers/b.md:4: slug `same` is the slug of papers/a.md"
                      " — give one of the two papers another slug"]


def test_a_copied_paper_is_blamed_not_the_file_named_after_the_slug(scratch):
    errors = errors_for(scratch, {"samba.md": paper("samba", "Samba"), "samba (copy).md": paper("samba", "Samba"),
                                  "a-samba-copy.md": paper("samba", "Samba")})
    assert errors == ["papers/a-samba-copy.md:4: slug `samba` is the slug of papers/samba.md — give one of the two "
                      "papers another slug",
                      "papers/samba (copy).md:4: slug `samba` is the slug of papers/samba.md — give one of the two "
                      "papers another slug"]


def test_taxonomy_errors_name_their_line(scratch):
    scratch.write("content/taxonomy.yaml", scratch.content.joinpath("taxonomy.yaml").read_text()
                  .replace("tags: [in-context-learning]", "tags: [in-context-learnin]"))
    errors = errors_for(scratch, {"a.md": paper("a", "A")})
    assert errors[0].startswith("taxonomy.yaml:") and "unknown tag `in-context-learnin`" in errors[0]


@pytest.mark.parametrize("written, expected", [
    ("id: kv-cache\n    label: true", ["taxonomy.yaml:3: tag `kv-cache`: `label` must be text, not true"]),
    ("id: [kv-cache]\n    label: KV cache", ["taxonomy.yaml:2: tag id a list ['kv-cache'] is not a valid id",
                                           "taxonomy.yaml:26: theme `efficient-inference` names unknown tag `kv-cache`"]),
])
def test_a_tag_entry_of_the_wrong_kind_is_named_at_its_line(scratch, written, expected):
    """Not a crash; a tag whose id is written is not named again by the theme that names it."""
    taxonomy = scratch.content.joinpath("taxonomy.yaml").read_text()
    scratch.write("content/taxonomy.yaml", taxonomy.replace("id: kv-cache\n    label: KV cache", written, 1))
    assert [error.split(" — ")[0] for error in errors_for(scratch, {"a.md": paper("a", "A")})] == expected


def test_editor_backup_and_hidden_files_are_ignored(small_site):
    small_site.write("content/papers/.samba.md.swp", "binary junk")
    small_site.write("content/papers/samba.md~", "old copy")
    small_site.write("content/papers/.#samba.md", "lock")
    assert len(load_catalogue(small_site.content, Report()).papers) == 3


def test_bom_and_crlf_are_accepted(scratch):
    scratch.write("content/papers/a.md", "\ufeff" + paper("a", "A").replace("\n", "\r\n"))
    assert load_catalogue(scratch.content, Report()).papers[0].title == "A"


def test_one_venue_has_one_spelling(scratch):
    errors = errors_for(scratch, {"a.md": paper("a", "A", venue="ICML 2024"),
                                  "b.md": paper("b", "B", venue="Icml 2024")})
    assert errors == ["papers/b.md:5: unknown venue `Icml 2024` — did you mean `ICML 2024`?"]


def test_a_venue_typo_is_refused_with_a_suggestion_not_made_a_venue(scratch):
    errors = errors_for(scratch, {"a.md": paper("a", "A", venue="ICRL 2025"),
                                  "b.md": paper("b", "B", venue="COLT 2024")})
    assert errors == ["papers/a.md:5: unknown venue `ICRL 2025` — did you mean `ICLR 2025`?",
                      "papers/b.md:5: unknown venue `COLT 2024` — add it to content/venues.yaml "
                      "(name, year, title), or use one listed there"]


def test_the_venues_file_gives_full_names_and_is_validated(scratch):
    scratch.write("content/papers/a.md", paper("a", "A", venue="ICLR 2025"))
    venue = load_catalogue(scratch.content, Report()).by_slug["a"].venue
    assert (venue.title, venue.proceedings) == ("International Conference on Learning Representations",
                                                "https://proceedings.iclr.cc/paper_files/paper/2025")
    scratch.write("content/venues.yaml", "venues:\n  - name: ICLR\n    year: '2025'\n    title: X\n"
                                         "  - name: ICML\n    year: 2024\n    titel: Y\n"
                                         "  - name: ICML\n    year: 2025\n    title: Z\n    date: July\n")
    how = ("see docs/reference.md, content/venues.yaml: each venue has a name, a year, a title, and maybe a "
           "proceedings URL, its first day (`date: 2024-07-21`) and what citations write of its proceedings")
    errors = errors_for(scratch, {})
    assert errors[:4] == [f"venues.yaml:3: venue: `year` must be a whole number, not the text '2025' — {how}",
                          f"venues.yaml:7: venue: unknown key `titel` — {how}",  # each problem at its key's line
                          f"venues.yaml:5: venue: `title` is missing — {how}",  # and a missing key at the entry's
                          f"venues.yaml:11: venue: `date` must be a date like 2024-07-21, not the text 'July' — {how}"]


def test_an_alias_may_not_repeat_the_slug(scratch):
    text = paper("a", "A", extra="aliases: [a]\n")
    assert errors_for(scratch, {"a.md": text}) == [
        "papers/a.md:7: `a` is listed twice among slug and aliases — an alias is an earlier slug:"
        " list each once, and never the current slug"]


def test_a_key_given_twice_is_an_error(scratch):
    text = paper("a", "A").replace("slug: a\n", "slug: a\ntitle: Again\n")
    assert errors_for(scratch, {"a.md": text}) == [
        "papers/a.md:5: `title` appears twice (first on line 2) — keep one of the two"]


def test_lines_count_blank_lines_after_the_opening_dashes(scratch):
    text = paper("a", "A").replace("---\n", "---\n\n\n", 1).replace('title: "A"', "title: 42")
    assert errors_for(scratch, {"a.md": text})[0].startswith("papers/a.md:4: `title` must be text")


def test_drafts_are_loaded_only_when_asked(scratch):
    scratch.write("content/papers/a.md", paper("a", "A", extra="draft: true\n"))
    scratch.write("content/papers/b.md", paper("b", "B"))
    assert [p.slug for p in load_catalogue(scratch.content, Report()).papers] == ["b"]
    assert [p.slug for p in load_catalogue(scratch.content, Report(), drafts=True).papers] == ["a", "b"]


def test_an_impossible_date_is_named_at_its_line_not_an_internal_error(scratch):
    text = paper("a", "A", extra="added: 2026-13-45\n")
    assert errors_for(scratch, {"a.md": text}) == [
        "papers/a.md:7: `2026-13-45` is not a real date (month must be in 1..12) — write the date as "
        "YYYY-MM-DD, like 2024-07-21"]


KINDS_IN_WORDS = "text, a whole number, true or false, a list like [a, b], or a date like 2024-07-21"


@pytest.mark.parametrize("extra, expected", [
    ("added: !!timestamp soon\n", f"papers/a.md:7: `soon` cannot be read as `!!timestamp` — remove `!!timestamp` "
                                  f"and write the value as {KINDS_IN_WORDS}"),
    ("added: !!timestamp 2026-02-30\n", "papers/a.md:7: `2026-02-30` is not a real date (day is out of range for "
                                        "month) — write the date as YYYY-MM-DD, like 2024-07-21"),
    ("code: x\n<<: 3\n", "papers/a.md:8: YAML cannot make this value (expected a mapping or list of mappings for "
                         f"merging, but found scalar) — write plain `key: value` lines, each value {KINDS_IN_WORDS}"),
    ("aliases: &a [x, *a]\n", "papers/a.md:7: this value contains itself (an `*alias` inside its own `&anchor`) — "
                              "write the value out in full instead of the alias"),
    ("code: 'a\x07b'\n", "papers/a.md:7: U+0007 cannot be written in YAML (control characters are not allowed) — "
                         "delete it: it shows as nothing, or as a box, in most editors"),
    ("authors: [Zoë Müller, 王芳]\ncode: 'a\x07b'\n", "papers/a.md:8: U+0007 cannot be written in YAML (control "
     "characters are not allowed) — delete it: it shows as nothing, or as a box, in most editors"),  # bytes ≠ chars
])
def test_a_value_yaml_cannot_make_is_named_at_its_line_with_a_fix_never_a_crash(scratch, extra, expected):
    assert errors_for(scratch, {"a.md": paper("a", "A", extra=extra)}) == [expected]


def aliases_of_aliases(depth: int) -> str:
    """A YAML mapping whose last value, written in a few lines, is 9 ** depth items long."""
    chain = ["l0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    chain += [f"l{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, depth)]
    return "{" + ", ".join(chain) + "}"


def test_aliases_of_aliases_are_read_once_and_named_short(scratch):
    """Nine lines of `*alias` inside `&anchor` stand for 9 ** 9 values: each is walked once, and
    an error shows the value cut short, never writes it out."""
    data, lines = yamltext.parse(f"x: {aliases_of_aliases(6)}\ny: *a5\n", "a.yaml")
    assert len(data["y"]) == 9 and len(lines) < 100  # 9 ** 6 key paths, were each walked
    assert len(described(data["y"])) < 300  # 3.7 MB, were it written out
    extra = f"source: {aliases_of_aliases(9)}\nauthors: *a8\n"
    errors = errors_for(scratch, {"a.md": paper("a", "A", extra=extra)})
    assert [error.split(" — ")[0] for error in errors] == [
        "papers/a.md:7: `source` must be text, not a mapping {'l0': ['lol', 'lol', 'lol', 'lol', 'lol', ...], "
        "'l1': [[...], [...], [...], [...], [...], ...], 'l2': [[...], [...], [...], [...], [...], ...], "
        "'l3': [[...], [...], [...], [...], [...], ...], 'l4': [[...], [...], [...], [...], [...], ...], ...}",
        "papers/a.md:8: every entry of `authors` must be text"]


def test_a_venue_written_as_its_address_is_told_its_name(scratch):
    assert errors_for(scratch, {"a.md": paper("a", "A", venue="iclr-2025")}) == [
        "papers/a.md:5: venue 'iclr-2025' is not a conference and a year — write it as `venue: ICLR 2025`"]


def test_a_key_written_as_a_number_or_a_yes_is_named_at_its_own_line(scratch):
    errors = errors_for(scratch, {"a.md": paper("a", "A", extra="2024: x\nyes: 1\n")})
    assert [error.split(" — ")[0] for error in errors] == ["papers/a.md:7: unknown key `2024`",
                                                           "papers/a.md:8: unknown key `True`"]


def test_a_quoted_date_is_told_to_lose_its_quotes(scratch):
    assert errors_for(scratch, {"a.md": paper("a", "A", extra="added: '2026-12-03'\n")}) == [
        "papers/a.md:7: `added` must be a date like 2024-07-21, not the text '2026-12-03' — remove the quotes: "
        "`added: 2026-12-03` (quoted, YAML reads it as text)"]


def test_a_venue_key_written_as_a_number_or_left_empty_is_named_at_its_line(scratch):
    scratch.write("content/papers/a.md", paper("a", "A", venue="ICLR 2025"))
    scratch.write("content/venues.yaml", "venues:\n  - name: ICLR\n    year: 2025\n    title: X\n"
                                         "  - name: ICML\n    year:\n    title: Y\n    2024: Z\n")
    errors = [error.split(" — ")[0] for error in errors_for(scratch, {})]
    assert errors[:2] == ["venues.yaml:8: venue: unknown key `2024`", "venues.yaml:6: venue: `year` must be a whole "
                          "number, not empty"]


def test_an_unclosed_quote_is_reported_where_it_opens(scratch):
    """YAML notices only at the next quoted value, lines later; the message names the opening line."""
    text = paper("a", "A", extra="arxiv: \"2406.07522\"\n").replace('title: "A"', 'title: "Unclosed')
    assert errors_for(scratch, {"a.md": text}) == [
        "papers/a.md:2: invalid YAML: this quote is never closed — close the quote at the end of the value, "
        "or remove it"]


def test_an_alias_clashing_with_another_alias_names_the_alias_line(scratch):
    errors = errors_for(scratch, {"a.md": paper("a", "A", extra="aliases: [old]\n"),
                                  "b.md": paper("b", "B", extra="aliases: [old]\n")})
    assert errors == ["papers/b.md:7: alias `old` is already an alias of papers/a.md — an old address can lead "
                      "to one paper only: remove it from this paper's `aliases:`"]


def test_an_alias_that_is_another_papers_slug_blames_the_alias_not_the_slug(scratch):
    errors = errors_for(scratch, {"a.md": paper("a", "A", extra="aliases: [zeta]\n"), "zeta.md": paper("zeta", "Zeta")})
    assert errors == ["papers/a.md:7: alias `zeta` is the slug of papers/zeta.md — an old address can lead to "
                      "one paper only: remove it from this paper's `aliases:`"]


@pytest.mark.parametrize("line", ["code: https://github.com/...", "project: https://example.com/x",
                                  "code: https://github.com/x/…"])
def test_placeholder_addresses_from_examples_are_refused(scratch, line):
    assert errors_for(scratch, {"a.md": paper("a", "A", extra=line + "\n")})[0].startswith(
        f"papers/a.md:7: `{line.split(':')[0]}` is a placeholder, not an address")


def test_a_copied_fingerprint_is_refused_in_the_copy(scratch):
    """The file whose abstract the fingerprint is keeps it, whatever the files are called."""
    from catalogue.content.source import fingerprint
    body = "We compress the KV cache with sparse attention."
    print_of_z = fingerprint(body)
    errors = errors_for(scratch, {"a.md": paper("a", "A", body="Another abstract.", extra=f"fingerprint: {print_of_z}\n"),
                                  "z.md": paper("z", "Z", body=body, extra=f"fingerprint: {print_of_z}\n")})
    assert errors == [f"papers/a.md:7: fingerprint `{print_of_z}` is also papers/z.md's — a fingerprint "
                      "identifies one imported abstract: delete this line if you copied it, or delete the "
                      "paper if it is the same one"]


def test_paper_files_with_other_endings_are_reported_not_skipped_quietly(scratch):
    scratch.write("content/papers/a.md", paper("a", "A"))
    scratch.write("content/papers/b.markdown", paper("b", "B"))
    scratch.write("content/papers/c.MD", paper("c", "C"))
    scratch.write("content/papers/a.md.orig", paper("a", "A"))
    scratch.write("content/papers/more/d.md", paper("d", "D"))
    scratch.write("content/papers/.c.md.swp", "swap")
    scratch.write("content/papers/a.md~", "backup")
    assert errors_for(scratch, {}) == [
        "papers/a.md.orig: not read: a copy of a paper file, it seems — delete it, or move it out of content/papers/",
        "papers/b.markdown: not read: only `.md` files in content/papers/ are papers — rename it to `b.md`, "
        "or move it out of content/papers/",
        "papers/c.MD: not read: only `.md` files in content/papers/ are papers — rename it to `c.md`, "
        "or move it out of content/papers/",
        "papers/more: not read: papers in folders inside content/papers/ are not papers — move its .md files up "
        "into content/papers/, and the folder out"]


def test_a_tag_removed_from_the_taxonomy_is_said_to_be_removed(scratch):
    """The ledger remembers the tag pages that were published, so the loader knows it existed."""
    ledger = scratch.root / "published-urls.txt"
    ledger.write_text("/tags/sparse-attention/\n/tags/kv-cache/\n")
    scratch.write("content/papers/a.md", paper("a", "A", tags="[sparse-attention, state-space-models]"))
    taxonomy = scratch.content / "taxonomy.yaml"
    text = taxonomy.read_text()
    start = text.index("  - id: sparse-attention")
    taxonomy.write_text(text[:start] + text[text.index("  - id: state-space-models"):]
                        .replace("tags: [kv-cache, sparse-attention]", "tags: [kv-cache]")
                        .replace("tags: [state-space-models, sparse-attention]", "tags: [state-space-models]"))
    with pytest.raises(ContentError) as error:
        load_catalogue(scratch.content, Report(), ledger=ledger)
    assert [str(d).replace(f"{scratch.content}/", "") for d in error.value.diagnostics] == [
        "papers/a.md:6: tag `sparse-attention` no longer exists — it was removed from content/taxonomy.yaml: "
        "take it off this paper's tags, or restore it there"]
    with pytest.raises(ContentError) as error:  # without the ledger it could as well be a typo
        load_catalogue(scratch.content, Report())
    assert "unknown tag `sparse-attention`" in str(error.value)


@pytest.mark.parametrize("url, expected", [
    ("https://chatpaper.com/fr/paper/112667", "`url` is not the paper's own page: https://chatpaper.com/fr/paper/112667"
     " — give its page in the proceedings (an OpenReview forum goes in `openreview:`), or delete the line"),
    ("https://arxiv.org/abs/2406.07522v2", "`url` is an arXiv address — write `arxiv: '2406.07522'` instead"),
])
def test_a_url_that_is_not_the_paper_itself_is_refused(scratch, url, expected):
    assert errors_for(scratch, {"a.md": paper("a", "A", extra=f"url: {url}\n")})[0].startswith(f"papers/a.md:7: {expected}")


def test_the_papers_own_pages_are_accepted_with_their_pdf(scratch):
    scratch.write("content/papers/a.md", paper("a", "A", extra="openreview: 'SPS6HzVzyt'\n"))
    scratch.write("content/papers/b.md", paper("b", "B", extra="url: https://proceedings.mlr.press/v267/hu25f.html\n"))
    scratch.write("content/papers/c.md", paper("c", "C", extra="arxiv: '2406.07522'\n"))
    papers = load_catalogue(scratch.content, Report()).by_slug
    assert [(papers[s].own_page, papers[s].pdf_url) for s in "abc"] == [
        ("https://openreview.net/forum?id=SPS6HzVzyt", "https://openreview.net/pdf?id=SPS6HzVzyt"),
        ("https://proceedings.mlr.press/v267/hu25f.html", "https://proceedings.mlr.press/v267/hu25f/hu25f.pdf"),
        ("", "https://arxiv.org/pdf/2406.07522")]


def test_an_openreview_address_in_url_asks_for_its_forum_id(scratch):
    text = paper("a", "A", extra="url: https://openreview.net/forum?id=SPS6HzVzyt&noteId=x\n")
    assert errors_for(scratch, {"a.md": text}) == [
        "papers/a.md:7: `url` is an OpenReview address — write `openreview: 'SPS6HzVzyt'` instead "
        "(`url` is the proceedings page, once there is one)"]


def test_presentation_pages_and_forum_ids_are_checked(scratch):
    text = paper("a", "A", extra="presentation: keynote\nopenreview: 'https://openreview.net/forum?id=SPS6HzVzyt'\n"
                                 "pages: '12-14'\n")
    assert errors_for(scratch, {"a.md": text}) == [
        "papers/a.md:8: `openreview` is not an OpenReview forum id: 'https://openreview.net/forum?id=SPS6HzVzyt' — "
        "write the id alone, in quotes, like `openreview: 'SPS6HzVzyt'`",
        "papers/a.md:7: presentation 'keynote' is not one of oral, spotlight, poster — "
        "write how the venue presented the paper, like `presentation: spotlight`, or delete the line",
        "papers/a.md:9: `pages` is not a page range: '12-14' — "
        "write the first and last page as the proceedings give them, like `pages: '1234--1250'`"]


def test_a_valid_multi_line_quote_is_not_blamed_for_a_later_error(scratch):
    text = paper("a", "A").replace('title: "A"', 'title: "A long title\n  continued here"').replace(
        "tags: [kv-cache, sparse-attention]", "tags: [kv-cache, sparse-attention")
    assert errors_for(scratch, {"a.md": text})[0].startswith("papers/a.md:7: invalid YAML: did not find expected")


def test_the_same_venue_twice_in_the_venues_file_is_named_at_its_line(scratch):
    scratch.write("content/venues.yaml", "venues:\n  - {name: ICLR, year: 2025, title: A}\n"
                                         "  - {name: Iclr, year: 2025, title: B}\n")
    assert errors_for(scratch, {}) == ["venues.yaml:3: venue `Iclr 2025` is listed twice (as `ICLR 2025` too) — "
                                       "remove one of them"]


def test_a_volume_index_is_no_papers_page(scratch):
    assert errors_for(scratch, {"a.md": paper("a", "A", extra="url: https://proceedings.mlr.press/v267/\n")})[0] \
        .startswith("papers/a.md:7: `url` is not the paper's own page")


def test_with_fields_keeps_comments_blank_lines_and_line_ends(scratch):
    from catalogue.content.source import read_source, with_fields
    text = ("---\ntitle: Old\n# checked by hand, keep\n\ntitle_source: derived\nslug: a\nvenue: ICML 2024\n"
            "tags: [kv-cache,\n  sparse-attention]\n# the end\n---\n\nBody.\n")
    path = scratch.write("content/papers/a.md", "")
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    new = with_fields(read_source(path), {"title": "New: A", "tags": ["kv-cache"], "arxiv": "2406.07522"})
    assert new == "\ufeff" + text.replace("title: Old", "title: 'New: A'").replace(
        "tags: [kv-cache,\n  sparse-attention]", "arxiv: '2406.07522'\ntags: [kv-cache]").replace("\n", "\r\n")


@pytest.mark.parametrize("text, expected", [
    (paper("a", "Ring\u200bAttention"),
     "papers/a.md:2: `title` holds U+200B ZERO WIDTH SPACE, an invisible character — delete it: it comes "
     "after “Ring”"),
    (paper("a", "A", extra="authors: [Ada\u202eLovelace]\n"),
     "papers/a.md:7: `authors` holds U+202E RIGHT-TO-LEFT OVERRIDE, a bidirectional control, which reorders "
     "what readers see — delete it: it comes after “Ada”"),
    (paper("a", "A", body="First line.\n\nWe compress\x07 the cache."),
     "papers/a.md:11: the abstract holds U+0007, a control character — delete it: it comes after “We compress”"),
    (paper("a", "A", body="\u2066Isolated text."),
     "papers/a.md:9: the abstract holds U+2066 LEFT-TO-RIGHT ISOLATE, a bidirectional control, which reorders "
     "what readers see — delete it: it comes at the start of the line"),
])
def test_invisible_control_and_bidirectional_characters_are_errors_at_their_line(scratch, text, expected):
    assert errors_for(scratch, {"a.md": text}) == [expected]


def test_an_emoji_title_and_an_abstract_longer_than_any_real_one_are_warnings(scratch):
    scratch.write("content/papers/a.md", paper("a", "Rocket 🚀 Attention", body="Words. " * 1000))
    scratch.write("content/papers/b.md", paper("b", "B", body="A family 👨\u200d👩\u200d👧 and a Persian word می\u200cخواهم."))
    report = Report()
    load_catalogue(scratch.content, report)
    assert [str(w).replace(f"{scratch.content}/", "") for w in report.warnings] == [
        "papers/a.md:2: warning: the title holds an emoji (🚀) — titles are cited and searched as the paper has them: take it "
        "out unless the paper's own title has it",
        "papers/a.md:9: warning: the abstract is 7,000 characters long, longer than any real abstract (5,000) — keep the "
        "paper's abstract only: a paste of more makes a heavy page and skews related papers"]


def test_notes_after_a_notes_heading_are_the_curators_not_the_abstract(scratch):
    text = paper("a", "A", body="The abstract.\n\n## Notes\n\nRead it *first*.\n\nThen the rest.")
    scratch.write("content/papers/a.md", text)
    scratch.write("content/papers/b.md", paper("b", "B", body="Another abstract.\n\n## Notes\n\nOdd\u200bly."))
    with pytest.raises(ContentError) as error:
        load_catalogue(scratch.content, Report())
    assert [str(d).replace(f"{scratch.content}/", "") for d in error.value.diagnostics] == [
        "papers/b.md:13: the notes holds U+200B ZERO WIDTH SPACE, an invisible character — delete it: it comes "
        "after “Odd”"]
    (scratch.content / "papers/b.md").unlink()
    found = load_catalogue(scratch.content, Report()).by_slug["a"]
    assert (found.body, found.notes, found.notes_start) == ("The abstract.", "Read it *first*.\n\nThen the rest.", 13)


def test_a_notes_heading_inside_fenced_code_is_part_of_the_abstract(scratch):
    body = "The abstract.\n\n```\n## Notes\n```\n\nStill the abstract.\n\n## Notes\n\nMine."
    scratch.write("content/papers/a.md", paper("a", "A", body=body))
    found = load_catalogue(scratch.content, Report()).by_slug["a"]
    assert found.body == "The abstract.\n\n```\n## Notes\n```\n\nStill the abstract." and found.notes == "Mine."
