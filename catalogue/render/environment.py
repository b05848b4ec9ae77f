"""The Jinja environment, the versions of templates (what a page's bytes depend on), and
template errors as diagnostics that name the template line."""

from __future__ import annotations

import datetime
import sys
import traceback
from pathlib import Path

import jinja2
import jinja2.meta
import markupsafe

from .. import urls
from ..config import SiteConfig
from ..files import refuse_conflict
from ..pages.page import Page
from ..pages.papers import SOCIAL_IMAGE_TEMPLATE
from ..report import ContentError, Diagnostic
from ..state import BuildState, digest
from .social import VERSION as SOCIAL_VERSION


class CompiledTemplates(jinja2.BytecodeCache):
    """Each template compiled once a process, however many environments it makes (watch mode
    makes one a settings change, a test run hundreds): Jinja takes a template's code from here
    while its source is the same (the bucket's checksum), so an edited template is compiled again.
    Every environment is made with the same options, which the code depends on."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if (code := self._code.get(bucket.key)) is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledTemplates()
_REFERENCES: dict[bytes, frozenset[str]] = {}  # a template text's digest → the templates it names


def make_environment(config: SiteConfig) -> jinja2.Environment:
    """Templates from `config.templates_dir`, strict about undefined names, with the site's
    address helpers: `url(path)` for any site path, and `paths`, the layout itself (`urls`)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(config.templates_dir),
        autoescape=jinja2.select_autoescape(["html", "xml"]),
        undefined=jinja2.StrictUndefined, bytecode_cache=COMPILED,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    base = config.base_path
    env.globals.update(
        site=config, paths=urls,
        url=lambda path="": base + path.lstrip("/"),
        paper_url=lambda paper: base + urls.paper(paper.slug),
        tag_url=lambda tag: base + urls.tag(getattr(tag, "id", tag)),
        venue_url=lambda venue: base + urls.venue(venue.slug),
        theme_url=lambda theme: base + urls.theme(getattr(theme, "id", theme)))
    # Filters take nothing from the settings: Jinja may fold a filter of constants into a template's
    # code, which every environment of the process shares (CompiledTemplates). Settings go in globals.
    env.filters["long_date"] = long_date
    env.filters["code_spans"] = code_spans
    return env


def code_spans(text: str) -> markupsafe.Markup:
    """A message as the terminal prints it, `a field` in backticks, as HTML with <code>."""
    parts = str(markupsafe.escape(text)).split("`")
    if len(parts) % 2 == 0:  # an odd backtick: no spans
        return markupsafe.Markup("`".join(parts))
    return markupsafe.Markup("".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts)))


def long_date(iso: str) -> str:
    """`2026-12-01` → `1 December 2026`; what is not a date stays as it is."""
    try:
        day = datetime.date.fromisoformat(iso)
    except ValueError:
        return iso
    return f"{day.day} {day:%B %Y}"


class Templates:
    """Each template's version: the digest of its source and of the sources of everything it
    extends, includes or imports, which a page's bytes depend on. Each template file is read
    and parsed again only when its signature moved (the build state keeps them, as it keeps
    every file it reads); every file in the folder is looked at, so a build knows when one is
    added or removed."""

    def __init__(self, env: jinja2.Environment, templates_dir: Path, state: BuildState):
        self.env, self.templates_dir, self.state = env, templates_dir, state
        self._versions: dict[str, bytes] = {}

    def refresh(self) -> None:
        """Look at every template file again (a build's start)."""
        self._versions = {SOCIAL_IMAGE_TEMPLATE: digest(("social", SOCIAL_VERSION))}
        self.state.read_folder(self.templates_dir, self._read)

    def version(self, name: str) -> bytes:
        if name not in self._versions:
            closure: dict[str, bytes] = {}
            pending = [name]
            while pending:
                current = pending.pop()
                if current not in closure:
                    source, references = self._source(current)
                    closure[current] = source
                    pending.extend(references)
            self._versions[name] = digest(sorted(closure.items()))
        return self._versions[name]

    def _source(self, name: str) -> tuple[bytes, frozenset[str]]:
        path = self.templates_dir / name
        if not path.is_file():
            raise ContentError([Diagnostic(path, 0, f"template {name} is missing",
                                           "restore it from git, or fix the name")])
        return self.state.read(path, self._read).value

    def _read(self, path: Path) -> tuple[tuple[bytes, frozenset[str]], tuple]:
        """A template's digest and the templates it names; raises ContentError at a syntax error."""
        name = path.relative_to(self.templates_dir).as_posix()
        try:
            source, filename, _ = self.env.loader.get_source(self.env, name)
            refuse_conflict(Path(filename or path), source)
            key = digest(source)
            if key not in _REFERENCES:  # parsed once a process for each text a template has had
                found = jinja2.meta.find_referenced_templates(self.env.parse(source, name, filename))
                _REFERENCES[key] = frozenset(r for r in found if r)
        except jinja2.TemplateSyntaxError as error:
            raise ContentError([syntax_diagnostic(error, self.templates_dir)]) from error
        return (key, _REFERENCES[key]), ()


def syntax_diagnostic(error: jinja2.TemplateSyntaxError, templates_dir: Path) -> Diagnostic:
    path = error.filename or templates_dir / (error.name or "?")
    return Diagnostic(path, error.lineno or 0, f"template syntax error: {error.message}",
                      "fix the Jinja syntax on this line")


def runtime_diagnostic(error: Exception, page: Page, templates_dir: Path) -> Diagnostic:
    """Name the template line that raised, found in the traceback Jinja rewrites."""
    frames = traceback.extract_tb(sys.exc_info()[2])
    inside = [f for f in frames if f.filename.startswith(str(templates_dir))]
    where = inside[-1] if inside else None
    return Diagnostic(where.filename if where else templates_dir / page.template,
                      where.lineno if where else 0,
                      f"template failed on /{page.path}: {type(error).__name__}: {error}",
                      "fix the template, or the data it expects")
