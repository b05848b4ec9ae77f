"""Pages → bytes: each page through its Jinja template, with the context every page shares."""

from __future__ import annotations

import functools
import json
import re
from typing import Any, NamedTuple

import jinja2
import markupsafe

from ..config import SiteConfig
from ..content.model import Taxonomy
from ..content.prose import Written
from ..content.names import author_slug
from ..pages.page import Page
from ..pages.papers import SOCIAL_IMAGE_TEMPLATE
from ..report import ContentError, Diagnostic
from ..state import BuildState, digest
from ..text import plain_text
from .cite import conference, unwritable_in_bibtex
from .cite_formats import Citations
from .environment import Templates, make_environment, runtime_diagnostic, syntax_diagnostic
from .fragments import (
    DOT_TEMPLATE,
    FRAGMENTS,
    ITEM_TEMPLATE,
    NAV_TEMPLATE,
    MapDots,
    Navigation,
    PaperItems,
)
from .markup import Markup, excerpt
from .searchwords import search_words
from .social import social_image

TEXT_MEMO = 65536
_PRE = re.compile(r"(<pre\b.*?</pre>)", re.DOTALL)
_INDENT = re.compile(r"\n[ \t]+")


class Rendered(NamedTuple):
    """A page's bytes, and what went wrong rendering it, at the line of the paper it is about."""

    data: bytes
    warnings: tuple[Diagnostic, ...] = ()


class PageRenderer:
    """Renders pages to bytes. `prepare` reads the templates that changed and sets what every
    page shares (the navigation, the taxonomy, the fingerprinted assets, the fragment
    templates); `rendered_with` is the key of what a page is rendered with beside its own data
    (its templates' versions and the shared context): equal pages rendered with equal keys are
    equal bytes."""

    def __init__(self, config: SiteConfig, state: BuildState):
        self.config = config
        self.markup = Markup()
        # Text made from the same input again and again (a title in every list): remembered for
        # as long as this renderer lives, and no more than TEXT_MEMO of each.
        self.plain = functools.lru_cache(TEXT_MEMO)(plain_text)
        self.citations = Citations(self.plain)
        self.excerpt = functools.lru_cache(TEXT_MEMO)(functools.partial(excerpt, plain_of=self.plain))
        self._abstracts: dict[str, tuple[markupsafe.Markup, tuple[str, ...]]] = {}  # see `abstract`
        self.env = make_environment(config)
        self.env.globals.update(
            title_html=lambda item: self.markup.inline(item if isinstance(item, str) else item.title),
            abstract_html=lambda body: self.abstract(body)[0],
            markdown_html=lambda text: markupsafe.Markup(self.markup.render(text)),
            plain=self.plain, excerpt=self.excerpt, author_slug=author_slug, **self.citations.template_globals(),
            asset=lambda name: config.base_path + self._assets.get(name, f"static/{name}"))
        self.templates = Templates(self.env, config.templates_dir, state)
        self.shared = b""
        self._assets: dict[str, str] = {}
        self._shared_context: dict[str, Any] = {}
        self._rendered_with: dict[frozenset[str], bytes] = {}

    def prepare(self, nav: dict[str, tuple], taxonomy: Taxonomy, assets: dict[str, str]) -> None:
        """Read the templates that changed, and renew the shared context if anything in it moved."""
        self.templates.refresh()
        self._assets = assets
        shared = digest((nav, taxonomy, self.config, [self.templates.version(f) for f in FRAGMENTS],
                         sorted(assets.items())))
        if shared != self.shared:
            self.citations.use(taxonomy)
            self._shared_context = {
                "nav": nav, "tags": taxonomy.tags,
                "nav_html": Navigation(self.env.get_template(NAV_TEMPLATE), nav),
                "paper_item": PaperItems(self.env.get_template(ITEM_TEMPLATE), tags=taxonomy.tags),
                "map_dots": MapDots(self.env.get_template(DOT_TEMPLATE))}
            self.shared = shared
        self._rendered_with = {}

    def forget(self) -> None:
        """Drop every text remembered for the pages to come (a build done rendering frees them);
        the next `prepare` sets the shared context anew."""
        for memo in (self.plain, self.excerpt):
            memo.cache_clear()
        self.citations.forget()
        self._abstracts.clear()
        self._shared_context, self.shared, self._rendered_with = {}, b"", {}

    def rendered_with(self, templates: frozenset[str]) -> bytes:
        """The key of what pages made with `templates` are rendered with, beside their own data."""
        known = self._rendered_with.get(templates)
        if known is None:
            known = self._rendered_with[templates] = digest(
                (self.shared, [(name, self.templates.version(name)) for name in sorted(templates)]))
        return known

    def render(self, page: Page) -> Rendered:
        """The page's bytes; raises ContentError naming the template line that failed."""
        if page.template == SOCIAL_IMAGE_TEMPLATE:
            context = page.context
            return Rendered(social_image(context["title"], context["venue"], list(context["tags"]), self.config.title,
                                         self.config.cache_dir / "social" if self.config.cache_dir else None))
        self.markup.failed_math.clear()
        self.markup.left_out.clear()
        try:
            html = self.env.get_template(page.template).render(
                page=page, **self._shared_context, **page.context, **self._derived(page))
        except jinja2.TemplateSyntaxError as error:
            raise ContentError([syntax_diagnostic(error, self.config.templates_dir)]) from error
        except Exception as error:  # a template that raises: name its line, keep serving
            raise ContentError([runtime_diagnostic(error, page, self.config.templates_dir)]) from error
        paper = page.context.get("paper") if page.template == "paper.html" else None
        warnings = failed_math(_written_in(page), self.markup.failed_math)
        warnings += left_out(_curators_markdown(page), self.markup.left_out)
        warnings += unwritable_in_bibtex(paper) if paper else ()
        if page.template.endswith(".html"):
            html = unindented(html)
        return Rendered(html.encode("utf-8"), warnings)

    def _derived(self, page: Page) -> dict[str, Any]:
        """Expensive values computed only when a page is actually rendered."""
        paper = page.context.get("paper")
        if page.template != "paper.html" or paper is None:
            return {}
        description = self.excerpt(paper.body)
        if paper.withdrawn:  # a link preview says so before anything else
            description = f"Withdrawn{': ' if paper.withdrawn_reason else ''}{paper.withdrawn_reason.rstrip('.')}. {description}"
        abstract_html, failed = self.abstract(paper.body)
        self.markup.failed_math.extend(failed)
        notes_html = markupsafe.Markup(self.markup.render(paper.notes)) if paper.notes else ""
        return {"abstract_html": abstract_html, "notes_html": notes_html, "description": description,
                "json_ld": self._json_ld(page), "search_words": search_words(self.plain(paper.title), paper.slug)}

    def abstract(self, body: str) -> tuple[markupsafe.Markup, tuple[str, ...]]:
        """An abstract as HTML, and the formulas in it that could not be converted: typeset once
        for a paper's page and every list that shows it (the last TEXT_MEMO are remembered)."""
        known = self._abstracts.get(body)
        if known is None:
            known = self._abstract(body)
            self.remember_abstracts({body: known})
        return known

    def abstracts_in(self, pages: list[Page]) -> list[str]:
        """The abstracts the paper pages among `pages` show, each once, in order."""
        return list(dict.fromkeys(page.context["paper"].body for page in pages
                                  if page.template == "paper.html" and "paper" in page.context))

    def typeset_abstracts(self, bodies: list[str]) -> dict[str, tuple[markupsafe.Markup, tuple[str, ...]]]:
        """The abstracts, typeset (one process's part of a big build's, see `SiteWriter.write`)."""
        return {body: self.abstract(body) for body in bodies}

    def remember_abstracts(self, typeset: dict[str, tuple[markupsafe.Markup, tuple[str, ...]]]) -> None:
        self._abstracts.update(typeset)
        for _ in range(len(self._abstracts) - TEXT_MEMO):
            del self._abstracts[next(iter(self._abstracts))]

    def _abstract(self, body: str) -> tuple[markupsafe.Markup, tuple[str, ...]]:
        failed, start = self.markup.failed_math, len(self.markup.failed_math)
        left_out = len(self.markup.left_out)
        html = markupsafe.Markup(self.markup.render(body))
        formulas = tuple(failed[start:])
        del failed[start:], self.markup.left_out[left_out:]  # an abstract is the paper's own text, sanitised quietly
        return html, formulas

    def _json_ld(self, page: Page) -> markupsafe.Markup:
        """schema.org ScholarlyArticle, for search engines and citation tools: what the page's
        head does not say already (its description is there, its abstract in the page)."""
        paper, absolute = page.context["paper"], self.config.absolute
        data = {
            "@context": "https://schema.org", "@type": "ScholarlyArticle",
            "headline": page.title, "url": absolute(page.path),
            "author": [{"@type": "Person", "name": name} for name in paper.authors],
            "datePublished": str(paper.venue.year),
            "isPartOf": {"@type": "PublicationEvent", "name": conference(paper.venue)},
        }
        if paper.withdrawn:  # no longer a paper published at its venue
            del data["datePublished"], data["isPartOf"]
            data["creativeWorkStatus"] = "Withdrawn"
        same_as = [link for link in (paper.arxiv_url, paper.openreview_url, paper.url) if link]
        if same_as:
            data["sameAs"] = same_as
        if page.context["image"]:
            data["image"] = absolute(page.context["image"])
        text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        return markupsafe.Markup(text.replace("<", "\\u003c"))  # no `</script>` can close it


def unindented(html: str) -> str:
    """The page without the templates' indentation, which every reader would download again on
    every page; a `<pre>` keeps its own."""
    parts = _PRE.split(html)
    parts[::2] = [_INDENT.sub("\n", part) for part in parts[::2]]
    return "".join(parts)


def _written_in(page: Page) -> list[Written]:
    """What a curator wrote that the page shows as its own: a paper's title and abstract on its
    page, and the curator's Markdown."""
    paper = page.context.get("paper") if page.template == "paper.html" else None
    written = [Written(paper.title, paper.path, paper.line_of("title")),
               Written(paper.body, paper.path, paper.body_start)] if paper else []
    return written + _curators_markdown(page)


def _curators_markdown(page: Page) -> list[Written]:
    """The curator's own Markdown on the page: a paper's notes, a guide's text, an introduction."""
    context = page.context
    paper = context.get("paper") if page.template == "paper.html" else None
    written = [Written(paper.notes, paper.path, paper.notes_start)] if paper else []
    written += [context["guide"].body] if "guide" in context else []
    return written + ([context["intro"]] if context.get("intro") else [])


def failed_math(written: list[Written], formulas: list[str]) -> tuple[Diagnostic, ...]:
    """A warning at each line of a curator's file holding a formula that could not be converted
    while the page was rendered (a formula from another paper's title, in its related list, is
    that paper's to report)."""
    found = []
    for tex in dict.fromkeys(formulas):
        found += [Diagnostic(text.path, line, f"formula shown as TeX code: {tex}", "fix the LaTeX", "warning")
                  for text in written if (line := text.line_of(tex))]
    return tuple(found)


# Where a curator's Markdown makes an element the page leaves out, and what to write instead. A
# heading's `#` counts as Python-Markdown reads it: no space needed, inside a quote or a list too.
_BLOCK_START = r"\s{0,3}(?:(?:>|[-+*]|\d+[.)])\s*)*"
_DEEPER = "headings go three levels deep: use `##`, `###` or `####`"
_LEFT_OUT = {
    "h1": (_BLOCK_START + r"#(?!#)|\s{0,3}=+\s*$|.*<h1\b",
           "the page's title is its only top heading: start this one with `##`"),
    "h5": (_BLOCK_START + r"#{5}(?!#)|.*<h5\b", _DEEPER),
    "h6": (_BLOCK_START + r"#{6}(?!#)|.*<h6\b", _DEEPER),
    "img": (r".*(!\[|<img\b)", "images are not shown: link to it instead, `[what it shows](https://…)`"),
}
_PART_OF = {part: "table" for part in ("thead", "tbody", "tfoot", "tr", "th", "td", "caption", "colgroup", "col")}
_OTHER_HTML = ("this HTML is not shown: write it in Markdown (paragraphs, lists, links, emphasis, code, "
               "quotes, headings)")
_CODE_SPAN = re.compile(r"(`+).*?\1")


def left_out(written: list[Written], tags: list[str]) -> tuple[Diagnostic, ...]:
    """A warning for each element the sanitiser removed from a curator's Markdown (notes, a guide,
    an introduction: one on a page): a `# heading`, an image, raw HTML; at the first line that
    makes it outside code, else at the text's first line, never silent. A table is one warning,
    not one a cell."""
    found = []
    for tag in dict.fromkeys(_PART_OF.get(tag, tag) for tag in tags):
        pattern, fix = _LEFT_OUT.get(tag, (rf".*<{re.escape(tag)}(?![\w.:-])", _OTHER_HTML))
        matched = [(text.path, line) for text in written if (line := _line_matching(text, pattern))]
        where = matched or [(text.path, text.start) for text in written[:1]]
        found += [Diagnostic(path, line, f"`<{tag}>` is left out of the page", fix, "warning") for path, line in where]
    return tuple(found)


def _line_matching(text: Written, pattern: str) -> int:
    """The file's line of the first line of `text` outside code (a fenced or indented block, a code
    span) that `pattern` matches at its start; 0 if none."""
    fenced = False
    for number, line in enumerate(text.text.split("\n")):
        if re.match(r"\s{0,3}(```|~~~)", line):
            fenced = not fenced
        elif not fenced and not re.match(r"( {4}|\t)", line) and \
                re.match(pattern, _CODE_SPAN.sub("", line), re.IGNORECASE):
            return text.start + number
    return 0
