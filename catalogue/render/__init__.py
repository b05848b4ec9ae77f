"""Pages → bytes: Jinja templates, Markdown and math, citations, preview images."""
