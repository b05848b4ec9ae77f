from pathlib import Path

import pytest

from catalogue.content.loader import load_catalogue
from catalogue.importer.lists import import_lists
from catalogue.report import ContentError, Report

SAMBA = ("Efficiently modeling sequences with infinite context length has long been a challenging "
         "problem. In this work, we present Samba, a simple hybrid architecture that layer-wise "
         "combines Mamba, a selective State Space Model (SSM), with sparse attention. Code is "
         "available at https://github.com/microsoft/Samba.")
ICV = ("Large language models demonstrate emergent in-context learning capabilities, where they "
       "adapt to new tasks based on examples. We recast in-context learning as \\textbf{in-context "
       "vectors} (ICV) computed with $x_1 * y_2$ weights, which shrink the KV cache and the prompt "
       "while keeping the long- tail of the un- derstanding.")
LONGTAIL = ("The fine-tuning paradigm in addressing long-tail learning tasks has sparked significant "
            "interest since the emergence of foundation models; heavy fine-tuning hurts tail classes, "
            "so we develop a lightweight long-tail learning algorithm.")
METADATA = ("file\tpara\tabstract_start\ttitle\tauthors\tarxiv_id\tsource_url\tconfidence\n"
            "icml.txt\t1\tLarge language models demonstrate emergent in-context\t"
            "In-context Vectors: Making In Context Learning More Effective\t"
            "Sheng Liu; Haotian Ye; Lei Xing\t2311.06668\thttps://arxiv.org/abs/2311.06668\thigh\n")


@pytest.fixture
def lists(scratch):
    scratch.write("lists/iclr.txt", f"ICLR 2025 论文列表\n\n{SAMBA}\n")
    scratch.write("lists/icml.txt", f"ICML 2024 Papers\n\n{ICV}\n\n{LONGTAIL}\n\nOnly three words\n")
    scratch.write("lists/metadata.tsv", METADATA)
    return [scratch.root / "lists/iclr.txt", scratch.root / "lists/icml.txt"]


def run_import(scratch, lists, metadata=True) -> tuple[Report, object]:
    report = Report()
    result = import_lists(lists, scratch.content, scratch.root / "lists/metadata.tsv" if metadata else None, report)
    return report, result


def test_import_writes_one_valid_page_per_paper(scratch, lists):
    report, result = run_import(scratch, lists)
    assert sorted(p.name for p in result.added) == [
        "in-context-vectors.md", "lightweight-long-tail-learning-algorithm.md", "samba.md"]
    catalogue = load_catalogue(scratch.content, Report())
    papers = catalogue.by_slug
    samba = papers["samba"]
    assert samba.venue.label == "ICLR 2025"
    assert samba.title_source == "derived" and samba.title.startswith("Samba: Simple hybrid architecture")
    assert samba.code == "https://github.com/microsoft/Samba"
    assert set(samba.tags) == {"state-space-models", "sparse-attention"}
    assert "<https://github.com/microsoft/Samba>" in samba.body


def test_import_cleans_text_and_keeps_math(scratch, lists):
    run_import(scratch, lists)
    icv = load_catalogue(scratch.content, Report()).by_slug["in-context-vectors"]
    assert "**in-context vectors**" in icv.body and "\\textbf" not in icv.body
    assert "$x_1 * y_2$" in icv.body
    assert "long- tail" not in icv.body and "understanding" in icv.body


def test_metadata_gives_real_title_authors_and_arxiv(scratch, lists):
    run_import(scratch, lists)
    icv = load_catalogue(scratch.content, Report()).by_slug["in-context-vectors"]
    assert icv.title == "In-context Vectors: Making In Context Learning More Effective"
    assert icv.title_source == "metadata"
    assert icv.authors == ("Sheng Liu", "Haotian Ye", "Lei Xing")
    assert icv.arxiv_url == "https://arxiv.org/abs/2311.06668"


def test_import_reports_added_skipped_and_unparsed_with_lines(scratch, lists):
    report, _ = run_import(scratch, lists)
    assert [str(d) for d in report.errors] == [
        f"{lists[1]}:7: a paragraph of 3 words is too short for an abstract"
        " — join it to the abstract it belongs to, or delete it"]
    assert report.lines[-1] == "import: 3 added, 0 skipped, 1 could not be parsed"


def test_second_import_changes_no_byte(scratch, lists):
    run_import(scratch, lists)
    before = scratch.papers()
    report, result = run_import(scratch, lists)
    assert scratch.papers() == before
    assert result.added == [] and len(result.skipped) == 3
    assert report.lines[-1].startswith("import: 0 added, 3 skipped")


def test_curated_edit_survives_reimport(scratch, lists):
    run_import(scratch, lists)
    samba = scratch.content / "papers/samba.md"
    edited = samba.read_text().replace("title_source: derived", "title_source: curated") \
        .replace("efficiently", "EFFICIENTLY").replace("Efficiently", "Efficiently (edited)")
    samba.write_text(edited)
    run_import(scratch, lists)
    assert samba.read_text() == edited
    assert len(scratch.papers()) == 3


def test_paper_recognised_by_abstract_even_when_renamed(scratch, lists):
    run_import(scratch, lists)
    samba = scratch.content / "papers/samba.md"
    samba.rename(scratch.content / "papers/hybrid.md")
    text = (scratch.content / "papers/hybrid.md").read_text().replace("slug: samba", "slug: hybrid")
    (scratch.content / "papers/hybrid.md").write_text(text)
    _, result = run_import(scratch, lists)
    assert result.added == []
    assert not samba.exists()


def test_same_abstract_twice_is_imported_once(scratch):
    scratch.write("lists/a.txt", f"ICLR 2025 Papers\n\n{SAMBA}\n\n{SAMBA}\n")
    scratch.write("lists/b.txt", f"ICLR 2025 Papers\n\n{SAMBA.replace('un- ', 'un')}\n")
    report = Report()
    result = import_lists([scratch.root / "lists/a.txt", scratch.root / "lists/b.txt"],
                          scratch.content, None, report)
    assert len(result.added) == 1 and len(result.skipped) == 2


def test_new_paper_never_overwrites_a_file_with_its_slug(scratch, lists):
    scratch.write("content/papers/samba.md", "---\ntitle: Another Samba\nslug: samba\nvenue: ICML 2024\n"
                  "tags: [kv-cache]\n---\n\nA different abstract about dancing.\n")
    run_import(scratch, lists)
    assert "dancing" in (scratch.content / "papers/samba.md").read_text()
    assert "Mamba" in (scratch.content / "papers/samba-2.md").read_text()


def test_import_refuses_while_content_is_unreadable(scratch, lists):
    scratch.write("content/papers/broken.md", "---\ntitle: [unclosed\n---\n\nText.\n")
    with pytest.raises(ContentError) as error:
        run_import(scratch, lists)
    assert str(error.value.diagnostics[0]).startswith(f"{scratch.content / 'papers/broken.md'}:2: invalid YAML")
    assert sorted(scratch.papers()) == ["broken.md"]


def test_every_paper_gets_tags_from_the_vocabulary(scratch, lists):
    run_import(scratch, lists)
    catalogue = load_catalogue(scratch.content, Report())
    tail = next(p for p in catalogue.papers if "fine-tuning" in p.body)
    assert tail.tags == ("long-tailed-learning",)
    assert [t.id for t in catalogue.themes_of(tail)] == ["long-tail"]


def test_import_never_writes_through_a_link_out_of_content(scratch, lists, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (scratch.content / "papers").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(ContentError, match="outside content/"):
        run_import(scratch, lists)
    assert list(elsewhere.iterdir()) == []


def test_tabs_crlf_and_a_bom_in_a_list_import_as_clean_text(scratch):
    tabbed = ICV[80:].replace(" ", "\t", 3)
    messy = f"\ufeffICML 2024 Papers\r\n\t\r\n\t{ICV[:80]}\r\n{tabbed}\r\n \t \r\n{LONGTAIL}"
    scratch.write("lists/messy.txt", messy)
    report = Report()
    result = import_lists([scratch.root / "lists/messy.txt"], scratch.content, None, report)
    assert len(result.added) == 2 and not report.errors
    bodies = {p.body for p in load_catalogue(scratch.content, Report()).papers}
    assert not any("\t" in body or "\r" in body or "\ufeff" in body or "  " in body for body in bodies)
    assert any(body.startswith("Large language models demonstrate") for body in bodies)
    assert sorted(p.source for p in load_catalogue(scratch.content, Report()).papers) == ["messy.txt:3", "messy.txt:6"]


def test_metadata_matches_by_opening_text_whatever_the_list_is_called(scratch, lists):
    renamed = scratch.root / "lists/icml-2024-renamed.txt"
    lists[1].rename(renamed)
    report, _ = run_import(scratch, [renamed])
    icv = load_catalogue(scratch.content, Report()).by_slug["in-context-vectors"]
    assert icv.title_source == "metadata" and icv.arxiv == "2311.06668"
    assert not [w for w in report.warnings if "begins no abstract" in w.message]


def test_metadata_rows_that_match_nothing_are_reported(scratch, lists):
    metadata = scratch.root / "lists/metadata.tsv"
    metadata.write_text(METADATA + "icml.txt\t9\tNo abstract begins with these words at all\tGhost\t\t\t\thigh\n")
    report, _ = run_import(scratch, lists)
    assert [str(w) for w in report.warnings if "begins no abstract" in w.message] == [
        f"{metadata}:3: warning: this row's abstract_start begins no abstract in these lists — compare it with "
        "paragraph 9 of icml.txt, or import the list it belongs to"]


def test_only_the_papers_own_addresses_are_written_never_provenance(scratch, lists):
    metadata = scratch.root / "lists/metadata.tsv"
    metadata.write_text(
        "file\tpara\tabstract_start\ttitle\tauthors\tarxiv_id\tsource_url\tconfidence\n"
        "x\t1\tEfficiently modeling sequences\tSamba: Hybrid\tA B\t\thttps://chatpaper.com/fr/paper/112667\thigh\n"
        "x\t2\tLarge language models demonstrate\tICV\tC D\t\thttps://openreview.net/forum?id=dJTChKgv3a&noteId=x\thigh\n"
        "x\t3\tThe fine-tuning paradigm\tLong tails\tE F\t\thttps://ar5iv.labs.arxiv.org/html/2501.12766\thigh\n")
    run_import(scratch, lists)
    papers = {p.title: p for p in load_catalogue(scratch.content, Report()).papers}
    assert (papers["Samba: Hybrid"].url, papers["Samba: Hybrid"].arxiv) == ("", "")
    assert "chatpaper" not in (scratch.content / "papers/samba.md").read_text()
    assert papers["ICV"].openreview == "dJTChKgv3a" and not papers["ICV"].url
    assert (papers["Long tails"].arxiv, papers["Long tails"].url) == ("2501.12766", "")


def test_an_import_keeps_its_list_in_content_sources(scratch, lists):
    run_import(scratch, lists)
    for path in lists:
        assert (scratch.content / "sources" / path.name).read_bytes() == path.read_bytes()
    samba = load_catalogue(scratch.content, Report()).by_slug["samba"]
    assert samba.source == "iclr.txt:3"
    lists[0].write_text(lists[0].read_text().replace("ICLR 2025", "ICLR 2025 (edited)"))
    scratch.write("lists/iclr.txt", lists[0].read_text() + "\n" + LONGTAIL.replace("lightweight", "light") + "\n")
    report = Report()
    import_lists([lists[0]], scratch.content, None, report)
    assert [str(e) for e in report.errors] == [
        f"{lists[0]}: {scratch.content / 'sources/iclr.txt'} holds another list of this name — rename this list "
        "(its papers' `source:` will name it), then import it again"]


@pytest.mark.parametrize("venue, hint", [
    ("NeurIPS 2026", "NeurIPS 2026 is a new edition of NeurIPS (content/venues.yaml lists NeurIPS 2023): add it "
                     "under `venues:`, with its proceedings, first day and booktitle if known —\n"
                     "  - name: NeurIPS\n    year: 2026\n    title: Advances in Neural Information Processing Systems"),
    ("COLM 2024", "add it to content/venues.yaml (name, year, title), or use one listed there "
                  "(or pass `--venue VENUE` for the whole file)"),
])
def test_a_list_for_a_venue_not_in_the_venues_file_is_refused_at_its_header_with_what_to_add(scratch, venue, hint):
    listed = scratch.write("lists/new.txt", f"\n{venue} accepted papers\n\n{SAMBA}\n")
    report = Report()
    result = import_lists([listed], scratch.content, None, report)
    assert result.added == [] and [str(e) for e in report.errors] == [
        f"{listed}:2: the header names venue `{venue}`, which content/venues.yaml does not list — {hint}"]


def paper_file(scratch, words: str) -> Path:
    return next(p for p in (scratch.content / "papers").glob("*.md") if words in p.read_text())


def test_update_gives_derived_papers_their_metadata_and_leaves_curated_ones_alone(scratch, lists):
    run_import(scratch, lists, metadata=False)
    samba, icv = scratch.content / "papers/samba.md", paper_file(scratch, "We recast in-context learning")
    samba.write_text(samba.read_text().replace("title_source: derived", "title_source: curated"))
    curated = samba.read_text()
    derived = icv.read_text()
    metadata = scratch.root / "lists/metadata.tsv"
    metadata.write_text(METADATA + "iclr.txt\t1\tEfficiently modeling sequences\tSamba: Real Title\tA B\t2406.07522\t\thigh\n")
    report = Report()
    result = import_lists(lists, scratch.content, metadata, report, update=True)
    assert result.added == [] and [p.name for p in result.updated] == ["in-context-vectors.md"]
    assert samba.read_text() == curated
    assert not icv.exists()  # not yet published: its slug follows the real title, the old one kept
    updated = (scratch.content / "papers/in-context-vectors.md").read_text()
    assert "title: 'In-context Vectors: Making In Context Learning More Effective'" in updated
    assert "title_source: metadata" in updated and "arxiv: '2311.06668'" in updated
    assert "authors: [Sheng Liu, Haotian Ye, Lei Xing]" in updated
    assert "slug: in-context-vectors" in updated and f"aliases: [{icv.stem}]" in updated
    changed = ("title", "arxiv", "authors", "slug", "aliases")
    assert [line for line in updated.splitlines() if not line.startswith(changed)] == \
        [line for line in derived.splitlines() if not line.startswith(changed)]  # every other line kept
    paper = load_catalogue(scratch.content, Report()).by_slug["in-context-vectors"]
    assert paper.title_source == "metadata" and paper.aliases == (icv.stem,)


def test_update_never_moves_a_published_slug(scratch, lists):
    run_import(scratch, lists, metadata=False)
    icv = paper_file(scratch, "We recast in-context learning")
    (scratch.root / "published-urls.txt").write_text(f"/papers/{icv.stem}/\n")
    report = Report()
    import_lists(lists, scratch.content, scratch.root / "lists/metadata.tsv", report, update=True)
    text = icv.read_text()
    assert f"slug: {icv.stem}\n" in text and "aliases: []" in text
    assert "title: 'In-context Vectors: Making In Context Learning More Effective'" in text
    [kept] = [d for d in report.diagnostics if "keeps its address" in d.message]  # said, for a local build's ledger
    assert kept.message == (f"`{icv.stem}` keeps its address /papers/{icv.stem}/: published-urls.txt lists it as "
                            "published (the new title would make it `in-context-vectors`)")
    assert kept.hint.startswith("if it was only built here, never deployed, delete its lines from published-urls.txt")


def test_rows_for_lists_imported_before_are_not_reported_as_unmatched(scratch, lists):
    scratch.write("content/sources/older.txt", "ICML 2024 Papers\n\nAn older list.\n")
    metadata = scratch.root / "lists/metadata.tsv"
    metadata.write_text(METADATA + "older.txt\t1\tAn older abstract begins here\tOld\t\t\t\thigh\n")
    report, _ = run_import(scratch, lists)
    assert not [w for w in report.warnings if "begins no abstract" in w.message]


def test_an_entry_with_an_invisible_character_is_an_error_at_its_line_and_the_rest_imported(scratch):
    hidden = ICV.replace("shrink", "shr\u200bink")
    pasted = " ".join([SAMBA] * 300)
    scratch.write("lists/icml.txt", f"ICML 2024 Papers\n\n{hidden}\n\n{LONGTAIL}\n\n{pasted}\n")
    report = Report()
    result = import_lists([scratch.root / "lists/icml.txt"], scratch.content, None, report)
    assert [str(e) for e in report.errors] == [
        f"{scratch.root / 'lists/icml.txt'}:3: the entry's abstract holds U+200B ZERO WIDTH SPACE, an invisible "
        "character — delete it from the file, then import it again (the other entries are imported)"]
    assert len(result.added) == 2 and not any("in-context" in path.name for path in result.added)
    assert [w.message for w in report.warnings if "characters long" in w.message] == [
        "the abstract is 92,699 characters long, longer than any real abstract (5,000)"]


def test_an_entry_imported_already_is_skipped_whatever_its_characters(scratch, lists):
    run_import(scratch, lists, metadata=False)
    icml = scratch.root / "lists/icml.txt"
    icml.write_text(icml.read_text().replace("long-tail learning algorithm", "long-tail learning\u200b algorithm"))
    report = Report()
    result = import_lists([icml], scratch.content, None, report)
    assert not [e for e in report.errors if "U+200B" in e.message]  # (the list's three-word line is its own error)
    assert not result.added and len(result.skipped) == 2
