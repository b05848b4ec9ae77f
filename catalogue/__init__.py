"""Static catalogue of research papers: import raw lists, load content, render, index."""
