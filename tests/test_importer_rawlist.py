from pathlib import Path

import pytest

from catalogue.content.model import Venue
from catalogue.importer.rawlist import parse_header, read_list
from catalogue.report import Report

ABSTRACT = ("We study how transformers use long inputs and propose a simple method that keeps "
            "the important tokens of the context while dropping the rest, saving memory and time.")


@pytest.mark.parametrize("header, venue", [
    ("ICML 2024 Papers", Venue(2024, "ICML")),
    ("ICLR 2025 论文列表", Venue(2025, "ICLR")),
    ("Accepted papers — NeurIPS 2023", Venue(2023, "NeurIPS")),
    ("Articles acceptés à l'ICML 2025", Venue(2025, "ICML")),
    ("ICLR'24 accepted", Venue(2024, "ICLR")),
    ("Proceedings of TMLR 2024", Venue(2024, "TMLR")),
])
def test_header_names_venue_and_year_in_any_words(header, venue):
    assert parse_header(header) == (venue, "")


@pytest.mark.parametrize("header, complaint", [
    ("ICML Papers", "no year"),
    ("Papers of 2024", "no venue"),
])
def test_header_without_venue_or_year_is_refused(header, complaint):
    found, message = parse_header(header)
    assert found is None and complaint in message


def test_paragraphs_become_papers_with_their_lines(tmp_path: Path):
    path = tmp_path / "list.txt"
    path.write_text(f"\ufeffICML 2024 Papers\r\n\r\n{ABSTRACT}\r\n\r\n\r\n{ABSTRACT[:60]}\r\n"
                    f"{ABSTRACT[60:]}\r\n\r\nToo short.\r\n", encoding="utf-8")
    report = Report()
    papers = read_list(path, report)
    assert [(p.line, p.paragraph) for p in papers] == [(3, 1), (6, 2)]
    assert papers[0].text == ABSTRACT
    assert papers[1].text == f"{ABSTRACT[:60].strip()} {ABSTRACT[60:].strip()}"
    assert all(p.venue == Venue(2024, "ICML") for p in papers)
    assert [str(d) for d in report.errors] == [
        f"{path}:9: a paragraph of 2 words is too short for an abstract"
        " — join it to the abstract it belongs to, or delete it"]


@pytest.mark.parametrize("first, complaint", [
    ("ICML Papers", "the header names no year"),
    ("Since 2023, state space models (SSM) " + ABSTRACT, "the first line reads like an abstract"),
])
def test_list_without_header_names_the_line(tmp_path: Path, first, complaint):
    path = tmp_path / "list.txt"
    path.write_text(f"\n{first}\n\n{ABSTRACT}\n", encoding="utf-8")
    report = Report()
    assert read_list(path, report) == []
    assert str(report.errors[0]).startswith(f"{path}:2: {complaint}")


def test_header_alone_is_reported(tmp_path: Path):
    path = tmp_path / "list.txt"
    path.write_text("ICML 2024 Papers\n", encoding="utf-8")
    report = Report()
    assert read_list(path, report) == []
    assert "header but no abstracts" in str(report.errors[0])


def test_form_feeds_do_not_shift_lines_and_bad_bytes_are_named_at_theirs(tmp_path: Path):
    path = tmp_path / "list.txt"
    path.write_text(f"ICML 2024 Papers\n\n{ABSTRACT[:50]}\f{ABSTRACT[50:]}\n\f\n{ABSTRACT}\n", encoding="utf-8")
    report = Report()
    papers = read_list(path, report)
    assert [p.line for p in papers] == [3, 5] and not report.errors
    assert papers[0].text == f"{ABSTRACT[:50]} {ABSTRACT[50:]}".replace("  ", " ")
    path.write_bytes(f"ICML 2024 Papers\n\n{ABSTRACT}\n\nCaf".encode() + b"\xe9 au lait\n")
    report = Report()
    assert read_list(path, report) == []
    assert str(report.errors[0]).startswith(f"{path}:5: not UTF-8 text")
