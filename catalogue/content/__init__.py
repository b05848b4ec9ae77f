"""content/ → a validated Catalogue: paper files, the taxonomy, the venues and the redirects."""
