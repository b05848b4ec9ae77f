"""Where a paper itself lives: its arXiv entry, its OpenReview or proceedings page, its PDF.

Only these are ever published as a paper's link. The metadata's `source_url` says where a
title was found (a summary site, a mirror): that is provenance, and it stays out of the site.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

ARXIV_ID = re.compile(r"^(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$")
OPENREVIEW_ID = re.compile(r"^[\w-]{6,}$")  # a forum's id: `aMBSY2ebPw`
OPENREVIEW = "https://openreview.net"
# The paper's own page at its venue: by host, the name its button shows and the shape of a
# paper's address there (a volume's index or a search is no paper's page).
_PROCEEDINGS = r"/paper_files/paper/\d{4}/(?:hash|file)/[\w-]+\.(?:html|pdf)"
PAPER_HOSTS = {
    "proceedings.iclr.cc": ("Proceedings", _PROCEEDINGS),
    "proceedings.neurips.cc": ("Proceedings", _PROCEEDINGS),
    "papers.nips.cc": ("Proceedings", _PROCEEDINGS),
    "proceedings.mlr.press": ("PMLR", r"/v\d+/[\w-]+\.(?:html|pdf)"),
    "aclanthology.org": ("ACL Anthology", r"/[\w.-]+\d[\w.-]*/?"),
    "jmlr.org": ("JMLR", r"/papers/v\d+/[\w.-]+\.html"),
    "doi.org": ("DOI", r"/10\.\d{4,}/\S+"),
}
_ARXIV_HOSTS = ("arxiv.org", "www.arxiv.org", "export.arxiv.org", "ar5iv.labs.arxiv.org", "ar5iv.org")
_ARXIV_PATH = re.compile(r"^/(?:abs|pdf|html)/(?P<id>[a-z.-]*/?\d{4}\.?\d{3,5}(?:v\d+)?)(?:\.pdf)?/?$")
_PLACEHOLDER_HOSTS = ("example.com", "example.org", "example.net", "localhost")


def unversioned(arxiv: str) -> str:
    """An arXiv id without its version (`2406.10774v2` → `2406.10774`): one paper, every version."""
    return re.sub(r"v\d+$", "", arxiv)


def arxiv_id_in(url: str) -> str:
    """The arXiv id an arXiv (or ar5iv) address names, without its version; "" if none."""
    parts = urlsplit(url)
    match = _ARXIV_PATH.match(parts.path) if parts.hostname in _ARXIV_HOSTS else None
    return unversioned(match.group("id")) if match and ARXIV_ID.match(match.group("id")) else ""


def openreview_id_in(url: str) -> str:
    """The forum id an OpenReview address names (its forum or its PDF); "" if none."""
    parts = urlsplit(url)
    if parts.hostname != "openreview.net" or parts.path not in ("/forum", "/pdf"):
        return ""
    note = parse_qs(parts.query).get("id", [""])[0]
    return note if OPENREVIEW_ID.match(note) else ""


def openreview_url(forum: str) -> str:
    return f"{OPENREVIEW}/forum?id={forum}" if forum else ""


def paper_page(url: str) -> str:
    """`url` as the paper's own page in the proceedings (or a DOI), or "" if it is anything
    else: a mirror, a summary site, a search result. OpenReview's forum is a paper's own page
    too, kept by its id (`openreview_id_in`)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or parts.hostname not in PAPER_HOSTS \
            or not re.fullmatch(PAPER_HOSTS[parts.hostname][1], parts.path):
        return ""
    return url.replace("http://", "https://", 1)


def page_label(url: str) -> str:
    """What the button to a paper page says: PMLR, Proceedings, ACL Anthology…"""
    return PAPER_HOSTS.get(urlsplit(url).hostname or "", ("Paper",))[0]


def pdf_url(arxiv: str, page: str, openreview: str = "") -> str:
    """The PDF, where its address follows from what we know: arXiv's, the proceedings that name
    their PDFs after their pages (PMLR, ICLR's and NeurIPS's), OpenReview's."""
    if arxiv:
        return f"https://arxiv.org/pdf/{arxiv}"
    parts = urlsplit(page)
    pmlr = re.fullmatch(r"/(v\d+)/([\w-]+)\.html", parts.path) if parts.hostname == "proceedings.mlr.press" else None
    if pmlr:
        return f"https://proceedings.mlr.press/{pmlr[1]}/{pmlr[2]}/{pmlr[2]}.pdf"
    if parts.hostname in ("proceedings.iclr.cc", "proceedings.neurips.cc", "papers.nips.cc") \
            and "/hash/" in parts.path and parts.path.endswith("-Abstract-Conference.html"):
        return page.replace("/hash/", "/file/").replace("-Abstract-Conference.html", "-Paper-Conference.pdf")
    return f"{OPENREVIEW}/pdf?id={openreview}" if openreview else ""


def placeholder(url: str) -> bool:
    """An address copied from an example (`https://github.com/...`), not a real one."""
    host = urlsplit(url).hostname or ""
    return "..." in url or "…" in url or host in _PLACEHOLDER_HOSTS or host.endswith(
        tuple("." + h for h in _PLACEHOLDER_HOSTS))
