"""content/site.yaml: the site's address, name and description, and Netlify's address for a deploy."""

from __future__ import annotations

import pytest

from catalogue.config import SITE_FILE
from catalogue.content.site import read_site_settings
from catalogue.report import ContentError

GOOD = "url: https://papers.example.org\ntitle: Context Window\ndescription: Long context papers\n"


def settings(tmp_path, text=GOOD, **environ):
    (tmp_path / SITE_FILE).write_text(text, encoding="utf-8")
    return read_site_settings(tmp_path, environ)


def test_the_file_gives_the_address_with_a_closing_slash(tmp_path):
    site = settings(tmp_path)
    assert (site.url, site.title, site.description, site.preview) == (
        "https://papers.example.org/", "Context Window", "Long context papers", False)


def test_netlify_production_uses_its_url_and_a_preview_its_own_address_kept_from_search_engines(tmp_path):
    production = settings(tmp_path, NETLIFY="true", CONTEXT="production", URL="https://cw.netlify.app",
                          DEPLOY_PRIME_URL="https://deploy-preview-3--cw.netlify.app")
    assert (production.url, production.preview) == ("https://cw.netlify.app/", False)
    preview = settings(tmp_path, NETLIFY="true", CONTEXT="deploy-preview", URL="https://cw.netlify.app",
                       DEPLOY_PRIME_URL="https://deploy-preview-3--cw.netlify.app")
    assert (preview.url, preview.preview) == ("https://deploy-preview-3--cw.netlify.app/", True)
    assert settings(tmp_path, URL="https://elsewhere.org").url == "https://papers.example.org/"  # not on Netlify


@pytest.mark.parametrize("text, line, words", [
    ("url: https://x.org/\ntitle: T\ndescription: D\nbase_url: y\n", 4, "unknown key `base_url`"),
    ("url: x.org\ntitle: T\ndescription: D\n", 1, "is not an http(s) address"),
    ("url: https://x.org/\ntitle:\ndescription: D\n", 2, "`title:` must be given"),
    ("url: https://x.org/\ntitle: [T\n", 2, ""),
])
def test_a_wrong_site_file_is_refused_at_its_line(tmp_path, text, line, words):
    with pytest.raises(ContentError) as raised:
        settings(tmp_path, text)
    problem = raised.value.diagnostics[0]
    assert (problem.line, str(problem.path)) == (line, str(tmp_path / SITE_FILE))
    assert words in problem.message


def test_a_missing_site_file_says_how_to_write_one(tmp_path):
    with pytest.raises(ContentError) as raised:
        read_site_settings(tmp_path, {})
    assert "url: https://" in raised.value.diagnostics[0].hint


def test_a_site_file_that_is_not_text_or_holds_a_conflict_is_an_error_at_its_line(tmp_path):
    (tmp_path / SITE_FILE).write_bytes(b"url: https://x.org/\ntitle: Caf\xe9\ndescription: D\n")
    with pytest.raises(ContentError) as raised:
        read_site_settings(tmp_path, {})
    assert raised.value.diagnostics[0].line == 2
    (tmp_path / SITE_FILE).write_text("<<<<<<< HEAD\nurl: https://x.org/\n=======\nurl: https://y.org/\n>>>>>>> b\n")
    with pytest.raises(ContentError) as raised:
        read_site_settings(tmp_path, {})
    assert raised.value.diagnostics[0].line == 1 and "merge conflict" in raised.value.diagnostics[0].message
