"""`build.py import`: paper lists in the formats curators have (raw lists, BibTeX, CSV,
OpenReview JSON, arXiv Atom) → one Markdown file a paper in `content/papers/`."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from .. import urls
from ..config import LEDGER_FILE, PAPERS_DIR, SOURCES_DIR, VENUES_FILE
from ..content.loader import Identities, read_identities
from ..content.model import URL_PATTERN, Venue
from ..content.paperlinks import placeholder
from ..content.schema import LONGEST_ABSTRACT
from ..content.source import PageSource, read_source, with_fields
from ..content.taxonomy import load_taxonomy
from ..content.venues import load_venues, new_edition, other_edition, unknown_venue_hint
from ..files import write_atomic, write_new
from ..ledger import read_ledger
from ..relate.tagging import TagSuggester
from ..report import ContentError, Report, shown_path
from ..text import character_name, unseen_characters
from .cleaning import clean_abstract
from .formats import read_entries
from .identities import identities, papers_of, remember, twice_in_content
from .metadata import PaperFacts, match_facts, read_metadata
from .record import Entry
from .slugs import slug_source, slugify, unique_slug
from .venuematch import NOT_ACCEPTED, match_venue, named_edition
from .writing import front_matter, known_facts, write_paper


@dataclass
class ImportResult:
    added: list[Path] = field(default_factory=list)
    skipped: list[tuple[Entry, Path | str]] = field(default_factory=list)
    updated: list[Path] = field(default_factory=list)


@dataclass
class _Run:
    """One import: what content/ holds, the options, and what was done so far."""

    content_dir: Path
    tagger: TagSuggester  # built before this run's papers are written: never their neighbours
    venues: dict[str, Venue]
    known: Identities
    published: set[str]  # slugs whose pages the ledger says were published: they never change
    facts: list[PaperFacts]
    report: Report
    venue: Venue | None = None  # --venue, over what the files say
    update: bool = False
    dry_run: bool = False
    matched: set[int] = field(default_factory=set)
    result: ImportResult = field(default_factory=ImportResult)


def import_lists(lists: list[Path], content_dir: Path, metadata: Path | None, report: Report,
                 update: bool = False, venue: str | None = None, dry_run: bool = False) -> ImportResult:
    """Add every paper not yet in `content/`; never touch a file that exists, except, with
    `update`, to give a paper whose title is still derived what the file (or the metadata)
    knows of it.
    A dry run reads and matches everything and writes nothing."""
    run = _start(content_dir, metadata, report, update, dry_run)
    run.venue = _given_venue(venue, run) if venue is not None else None
    if venue is not None and run.venue is None:
        _summarise(run)
        return run.result
    for path in lists:
        placed = _placed(read_entries(path, report), run)
        if placed:
            _import_file(placed, run)
    if metadata:
        _report_unmatched(run, {path.name for path in lists}, metadata)
    _summarise(run)
    return run.result


def _start(content_dir: Path, metadata: Path | None, report: Report, update: bool, dry_run: bool) -> _Run:
    taxonomy = load_taxonomy(content_dir, report)
    venues = load_venues(content_dir, report)
    facts = read_metadata(metadata, report) if metadata else []
    known = read_identities(content_dir, report)
    _refuse_papers_outside(content_dir, report)
    if report.errors:
        raise ContentError(report.errors)  # an unreadable content file could be a duplicate
    assert taxonomy is not None and venues is not None
    tagger = TagSuggester.from_content(content_dir, taxonomy, report)
    return _Run(content_dir, tagger, venues, known, _published_slugs(content_dir), facts, report,
                update=update, dry_run=dry_run)


def _given_venue(text: str, run: _Run) -> Venue | None:
    """`--venue "ICML 2024"`, which must be one content/venues.yaml describes."""
    parsed = Venue.parse(text)
    if parsed and parsed.label in run.venues:
        return run.venues[parsed.label]
    run.report.error("--venue", 0, f"`{text}` is not a venue content/{VENUES_FILE} lists",
                     unknown_venue_hint(parsed.label if parsed else text, run.venues))
    return None


def _placed(entries: list[Entry], run: _Run) -> list[tuple[Entry, Venue | None]]:
    """Each entry with its venue, as `_venues_of` tells it; with --update, an entry that is a
    paper of content/ needs none (it only updates that paper, whose venue stays), so a file of
    titles that names no venue updates without `--venue`."""
    if not run.update:
        return list(_venues_of(entries, run))
    updating = {id(entry) for entry in entries if papers_of(identities(entry, clean_abstract(entry.text)), run.known)}
    venues = {id(entry): venue for entry, venue in _venues_of([e for e in entries if id(e) not in updating], run)}
    return [(entry, venues.get(id(entry))) for entry in entries if id(entry) in updating or id(entry) in venues]


def _venues_of(entries: list[Entry], run: _Run) -> list[tuple[Entry, Venue]]:
    """Each entry with its venue: --venue, a raw list's header, or what the entry says; the
    entries whose venue cannot be told are reported."""
    if not entries:
        return []
    if run.venue:
        return [(entry, run.venue) for entry in entries if _given_venue_fits(entry, run)]
    if entries[0].venue is not None:  # a raw list: its header names the venue
        return [(entry, run.venues[entry.venue.label]) for entry in entries] if _venue_known(entries[0], run) else []
    if not any(entry.venue_text for entry in entries):
        run.report.error(entries[0].path, 0, "this file names no venue",
                         f'pass the venue of its papers, like `--venue "{next(iter(run.venues))}"` '
                         f"(one of content/{VENUES_FILE}: {', '.join(run.venues)})")
        return []
    placed, unplaced = [], {}
    for entry in entries:
        venue = _entry_venue(entry, run)
        if venue:
            placed.append((entry, venue))
        elif not (entry.venue_text and NOT_ACCEPTED.search(entry.venue_text)):
            edition = named_edition(entry.venue_text, run.venues) if entry.venue_text else None
            unplaced.setdefault(edition or entry.venue_text, []).append(entry)
    for unknown in unplaced.values():
        _unknown_venue(unknown, run)
    return placed


def _given_venue_fits(entry: Entry, run: _Run) -> bool:
    """--venue places every entry but a submission not accepted (no option makes one a paper);
    an entry that names another venue of content/venues.yaml is placed, and warned about."""
    text = entry.venue_text
    if text and NOT_ACCEPTED.search(text):
        _not_accepted(entry, run)
        return False
    named = match_venue(text, run.venues) if text else None
    if named and named != run.venue:
        run.report.warning(entry.path, entry.line, f"the entry says `{text}`, and --venue makes it {run.venue.label}",
                           f"if it is a paper of {named.label}, import it without --venue, or leave it out")
    return True


def _not_accepted(entry: Entry, run: _Run) -> None:
    run.report.error(entry.path, entry.line, f"`{entry.venue_text}` is no accepted paper's venue",
                     "leave it out: only accepted papers join the catalogue (an export after the decisions "
                     "names its venue)")


def _entry_venue(entry: Entry, run: _Run) -> Venue | None:
    """The venue of content/venues.yaml the entry names; None if it names none (the caller
    reports those once a file) or is no accepted paper (reported here)."""
    text = entry.venue_text
    if text and NOT_ACCEPTED.search(text):
        _not_accepted(entry, run)
        return None
    return match_venue(text, run.venues) if text else None


def _unknown_venue(entries: list[Entry], run: _Run) -> None:
    """One error for all the entries of a file that name the same unknown venue (or none)."""
    lines = ", ".join(str(entry.line) for entry in entries[:8]) + (", …" if len(entries) > 8 else "")
    one = len(entries) == 1
    count = f"{len(entries)} entr{'y' if one else 'ies'} (line{'' if one else 's'} {lines}) name{'s' if one else ''}"
    texts = list(dict.fromkeys(entry.venue_text for entry in entries))
    edition = named_edition(texts[0], run.venues) if texts[0] else None
    if edition:
        message, hint = f"{count} {' or '.join(f'`{text}`' for text in texts)}", new_edition(*edition, run.venues)
    else:
        message = f"{count} `{texts[0]}`" if texts[0] else f"{count} no venue"
        hint = (f"add its venue to content/{VENUES_FILE}, or pass `--venue VENUE` for the whole file "
                f"(one of {', '.join(run.venues)})")
    first = entries[0]
    run.report.error(first.path, first.line, message + (f", which content/{VENUES_FILE} does not list"
                                                        if texts[0] else ""), hint)


def _venue_known(entry: Entry, run: _Run) -> bool:
    """A list's venue must be one content/venues.yaml describes, as every paper's must."""
    label = entry.venue.label
    if label in run.venues:
        return True
    edition = other_edition(entry.venue, run.venues)
    hint = new_edition(entry.venue.year, edition, run.venues) if edition else \
        unknown_venue_hint(label, run.venues) + " (or pass `--venue VENUE` for the whole file)"
    run.report.error(entry.path, entry.header_line, f"the header names venue `{label}`, "
                     f"which content/{VENUES_FILE} does not list", hint)
    return False


def _import_file(placed: list[tuple[Entry, Venue | None]], run: _Run) -> None:
    kept = False  # the file is copied into content/sources/ before its first paper is written
    seen: dict[str, int] = {}  # this file's identities (abstract, arXiv id, DOI) → line
    for entry, venue in placed:
        body = clean_abstract(entry.text)
        keys = identities(entry, body)
        twin = next((seen[key] for key in keys if key in seen), 0)
        seen.update({key: entry.line for key in keys if key not in seen})
        if twin:
            run.report.warning(entry.path, entry.line, f"the same paper as line {twin} of this file",
                               "delete one of the two entries")
            run.result.skipped.append((entry, f"{entry.path}:{twin}"))
            continue
        papers = papers_of(keys, run.known)
        existing = papers[0][0] if papers else None
        if len(papers) > 1:  # updating either would make them two papers with one identity
            twice_in_content(entry, papers, run.report)
            run.result.skipped.append((entry, existing))
            continue
        if not (existing and not run.update) and not _readable(entry, body, run.report):
            continue  # an entry imported already is only checked if it may update its paper
        fact = None if entry.title else match_facts(entry, run.facts, run.report)
        run.matched.update([fact.line] if fact else [])
        if existing:
            if not (run.update and _update_paper(existing, entry, fact, body, run)):
                run.result.skipped.append((entry, existing))
            continue
        if not kept and not (kept := _keep_source(entry.path, run)):
            return
        meta, suggested = front_matter(entry, venue, body, fact, run.tagger, run.known.slugs)
        path = write_paper(entry, meta, body, run.content_dir, run.report, run.dry_run, suggested)
        remember(keys, path, run.known)
        run.result.added.append(path)


def _readable(entry: Entry, body: str, report: Report) -> bool:
    """Whether the entry's text is all visible (an error at its line otherwise: the paper is
    left out until the file is fixed); an abstract longer than any real one is a warning."""
    fields = [("title", entry.title), *(("authors", name) for name in entry.authors), ("abstract", entry.text)]
    unseen = [(name, found) for name, text in fields for found in unseen_characters(text)]
    for name, (_, char, what) in unseen:
        report.error(entry.path, entry.line, f"the entry's {name} holds {character_name(char)}, {what}",
                     "delete it from the file, then import it again (the other entries are imported)")
    if len(body) > LONGEST_ABSTRACT:
        report.warning(entry.path, entry.line, f"the abstract is {len(body):,} characters long, longer than any real "
                       f"abstract ({LONGEST_ABSTRACT:,})", "check that the entry holds its own abstract only")
    return not unseen


def _keep_source(path: Path, run: _Run) -> bool:
    """Copy the file into content/sources/, where each paper's `source:` points; False (and
    an error) if another file of that name is there already. A dry run only checks."""
    target = run.content_dir / SOURCES_DIR / path.name
    data = path.read_bytes()
    if target.exists():
        if target.read_bytes() == data:
            return True
        run.report.error(path, 0, f"{shown_path(target)} holds another list of this name",
                         "rename this list (its papers' `source:` will name it), then import it again")
        return False
    if not run.dry_run:
        write_new(target, data)
        run.report.info(f"kept {shown_path(path)} as {shown_path(target)}")
    return True


def _refuse_papers_outside(content_dir: Path, report: Report) -> None:
    """New files go into content/papers/ only: never through a link to a folder elsewhere."""
    folder = content_dir / PAPERS_DIR
    if (folder.exists() or folder.is_symlink()) and not folder.resolve().is_relative_to(content_dir.resolve()):
        report.error(folder, 0, f"the papers folder is a link to {folder.resolve()}, outside content/",
                     "make content/papers/ a real folder inside content/")


def _update_paper(path: Path, entry: Entry, facts: PaperFacts | None, body: str, run: _Run) -> bool:
    """Give a paper whose title is still derived the title, authors, ids and links the import
    file (or else the metadata) knows, filling only fields it lacks; False (nothing done) if
    neither knows a title, or a person has curated it. A slug not yet published follows the
    new title, keeping the old one as an alias; a published slug stays."""
    title = entry.title or (facts.title if facts else "")
    source = read_source(path)
    meta = source.meta
    if not title or meta.get("title_source") != "derived":
        return False
    changes: dict[str, object] = {"title": title, "title_source": "metadata", **known_facts(entry, facts, meta)}
    if entry.code and not meta.get("code") and URL_PATTERN.match(entry.code) and not placeholder(entry.code):
        changes["code"] = entry.code
    slug = meta["slug"]
    new_slug = unique_slug(slugify(slug_source(title, body)), run.known.slugs - {slug})
    if new_slug != slug and slug not in run.published:
        changes.update(slug=new_slug, aliases=[*(meta.get("aliases") or []), slug])
        run.known.slugs.add(new_slug)
    elif new_slug != slug:
        run.report.note(entry.path, entry.line, f"`{slug}` keeps its address /{urls.paper(slug)}: {LEDGER_FILE} lists "
                        f"it as published (the new title would make it `{new_slug}`)",
                        f"if it was only built here, never deployed, delete its lines from {LEDGER_FILE} and "
                        "run this again")
    target = path.with_name(f"{changes.get('slug', slug)}.md")
    if run.dry_run:
        run.report.info(f"would update {shown_path(target)} ← {entry.where}\n{_diff(source, target, changes)}")
    else:
        _rewrite(source, target, changes)
        run.report.info(f"updated {shown_path(target)} ← {entry.where}: “{meta.get('title')}” → “{title}”"
                        + (f" (was {path.name})" if target != path else ""))
    known = run.known.fingerprints
    known.update({key: target for key, value in known.items() if value == path})
    run.result.updated.append(target)
    return True


def _diff(source: PageSource, target: Path, changes: dict[str, object]) -> str:
    """The change `--update` would make, as a unified diff of the file's front matter."""
    before = source.path.read_text(encoding="utf-8-sig").splitlines()
    after = with_fields(source, changes).removeprefix("\ufeff").splitlines()
    return "\n".join(difflib.unified_diff(before, after, shown_path(source.path), shown_path(target), n=0,
                                           lineterm=""))


def _rewrite(source: PageSource, target: Path, changes: dict[str, object]) -> None:
    """Write the changed file; under a new name, the new file is in place before the old goes."""
    text = with_fields(source, changes)
    if target == source.path:
        write_atomic(target, text)
    else:
        write_new(target, text)
        source.path.unlink()


def _published_slugs(content_dir: Path) -> set[str]:
    """Slugs whose pages the ledger says were published: they never change."""
    return urls.ids(read_ledger(content_dir.resolve().parent / LEDGER_FILE), urls.PAPERS)


def _report_unmatched(run: _Run, names: set[str], metadata: Path) -> None:
    """Rows whose opening text begins no abstract of these lists deserve a look, if they may be
    meant for these lists: rows naming one, naming none, or naming a list not imported before
    (a renamed list); rows for the other lists in content/sources/ are simply for another day."""
    for fact in run.facts:
        elsewhere = fact.file not in names and (run.content_dir / SOURCES_DIR / fact.file).is_file()
        if fact.line not in run.matched and not (fact.file and elsewhere):
            run.report.warning(metadata, fact.line, "this row's abstract_start begins no abstract in these lists",
                               f"compare it with paragraph {fact.para} of {fact.file or 'its list'}, "
                               "or import the list it belongs to")


def _summarise(run: _Run) -> None:
    result, report = run.result, run.report
    for entry, existing in result.skipped:
        report.info(f"skipped {entry.where}: already in {shown_path(existing)}")
    problems = len(report.errors)
    updated = f"{len(result.updated)} {'would be updated' if run.dry_run else 'updated'}, " if result.updated else ""
    if run.dry_run:
        report.info(f"import: {len(result.added)} would be added, {updated}{len(result.skipped)} skipped, "
                    f"{problems} could not be parsed (a dry run: nothing was written)")
    else:
        report.info(f"import: {len(result.added)} added, {updated}{len(result.skipped)} skipped, "
                    f"{problems} could not be parsed")
