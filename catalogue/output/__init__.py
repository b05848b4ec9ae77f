"""Bytes → the site folder: writing, static files, the link check, Pagefind, the swap."""
