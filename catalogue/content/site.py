"""The site file, `content/site.yaml`: the site's own address, name and description, kept with
the catalogue (as Hugo's and MkDocs' configuration files are) so that a plain `python build.py`
writes the real address into canonical links, previews, feeds and citations.

Where the site is served is decided in this order: `--base-url`; on Netlify, its variables
(`URL` for the production site, `DEPLOY_PRIME_URL` for previews and branch deploys); the
file's `url`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..config import SITE_FILE
from ..files import read_text
from ..report import ContentError, Report
from . import yamltext
from .keys import Key, KeyTable
from .model import URL_PATTERN

SITE_KEYS = KeyTable("The site", "content/site.yaml", "The site's own settings, kept with the catalogue.", (
    Key("url", str, "The address the site is served from, written into canonical links, previews, feeds and "
                    "citations; `--base-url`, or on Netlify its `URL` and `DEPLOY_PRIME_URL`, take its place.",
        required=True),
    Key("title", str, "The site's name, in every page's title and header.", required=True),
    Key("description", str, "One sentence on what the site is: its tagline, on the home page, in feeds and "
                            "in preview images.",
        required=True),
))
HOW = "see docs/reference.md, content/site.yaml: the site file has `url`, `title` and `description`"


@dataclass(frozen=True)
class SiteSettings:
    url: str
    title: str
    description: str
    preview: bool = False  # a Netlify deploy preview or branch deploy: kept out of search engines


def read_site_settings(content_dir: Path, environ: dict[str, str] | None = None) -> SiteSettings:
    """The settings, with the address Netlify gives this deploy if it gives one; ContentError
    naming the file and line if the file is missing or wrong."""
    report = Report()
    settings = _read(content_dir / SITE_FILE, report)
    if settings is None:
        raise ContentError(report.errors)
    return _on_netlify(settings, os.environ if environ is None else environ)


def _read(path: Path, report: Report) -> SiteSettings | None:
    if not path.is_file():
        report.error(path, 0, "the site file is missing",
                     "create it with `url: https://…/`, `title:` and `description:` lines")
        return None
    try:
        data, lines = yamltext.parse(read_text(path), path)
    except ContentError as error:
        report.extend(error.diagnostics)
        return None
    if not isinstance(data, dict):
        report.error(path, 1, "expected `url:`, `title:` and `description:`", HOW)
        return None
    for key in data:
        if key not in SITE_KEYS.kinds:
            report.error(path, lines.get((key,), 1), f"unknown key `{key}`", HOW)
    for key in SITE_KEYS.required:
        if not isinstance(data.get(key), str) or not data[key].strip():
            report.error(path, lines.get((key,), 1), f"`{key}:` must be given, as text", HOW)
    if not report.errors and not URL_PATTERN.match(data["url"]):
        report.error(path, lines[("url",)], f"`url: {data['url']}` is not an http(s) address",
                     "write the address the site is served from, like `url: https://example.org/`")
    if report.errors:
        return None
    return SiteSettings(_with_slash(data["url"].strip()), data["title"].strip(), data["description"].strip())


def _on_netlify(settings: SiteSettings, environ) -> SiteSettings:
    if environ.get("NETLIFY") != "true":
        return settings
    production = environ.get("CONTEXT", "production") == "production"
    address = environ.get("URL" if production else "DEPLOY_PRIME_URL")
    if not address:
        return settings
    return SiteSettings(_with_slash(address), settings.title, settings.description, preview=not production)


def _with_slash(url: str) -> str:
    return url if url.endswith("/") else url + "/"
