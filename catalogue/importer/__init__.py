"""Raw paper lists (and the metadata found for them) → Markdown pages in content/papers/."""
