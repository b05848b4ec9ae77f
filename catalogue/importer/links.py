"""The links an abstract mentions that a paper's page shows: its code and its project page."""

from __future__ import annotations

import re

from ..text import URL

CODE_HOSTS = ("github.com", "gitlab.com", "huggingface.co", "bitbucket.org", "codeberg.org")


def find_links(abstract: str) -> tuple[str, str]:
    """The first code repository and the first project page mentioned in the abstract."""
    code = project = ""
    for url in URL.findall(abstract):
        host = re.sub(r"^https?://(www\.)?", "", url).split("/")[0].lower()
        if host in CODE_HOSTS and not code:
            code = url
        elif host not in CODE_HOSTS and not project:
            project = url
    return code, project
