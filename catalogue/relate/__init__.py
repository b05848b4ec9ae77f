"""Catalogue → related papers and the topic map."""
