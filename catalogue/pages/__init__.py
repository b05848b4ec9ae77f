"""Catalogue + related papers → the list of pages the site is made of (no I/O)."""
