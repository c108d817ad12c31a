"""MkDocs hooks and page-building helpers for the Attention Lab site.

Each hook module is listed under ``hooks:`` in ``mkdocs.yml``; they import
the package by absolute name, so ``pip install -e .`` must have run.
"""
