"""MkDocs hook: the theme's storage helpers must not throw where site data is blocked.

Material for MkDocs defines ``__md_get`` and ``__md_set`` in an inline
script whose default argument reads ``localStorage`` outside any
``try``. Where the browser blocks site data, reading it throws, and every
page then reports uncaught errors from the palette script and the theme's
bundle. This hook wraps both helpers right after the theme defines them:
a read that fails returns nothing and a write that fails is dropped, which
is what the theme does anyway when an entry is missing.
"""

from __future__ import annotations

from typing import Any

DEFINITION = "__md_set=(e,_,t=localStorage,a=__md_scope)=>{try{t.setItem(a.pathname+\".\"+e,JSON.stringify(_))}catch(e){}}</script>"
"""The end of the theme's inline script that defines the two helpers."""

GUARD = (
    "<script>(function(get,set){"
    "__md_get=function(){try{return get.apply(this,arguments)}catch(e){return null}};"
    "__md_set=function(){try{set.apply(this,arguments)}catch(e){}}"
    "})(__md_get,__md_set)</script>"
)
"""Both helpers again, each inside a ``try`` that turns a storage error into "nothing stored"."""


def guarded(html: str) -> str:
    """``html`` with the guard placed right after the theme's definition of the helpers.

    Raises ``ValueError`` if the theme's definition is not found, so a theme
    update that changes it is noticed at build time instead of in a reader's browser.
    """
    if DEFINITION not in html:
        raise ValueError("theme_storage: the theme's __md_get/__md_set definition has changed; update DEFINITION")
    return html.replace(DEFINITION, DEFINITION + GUARD, 1)


def on_post_page(output: str, **kwargs: Any) -> str:
    """Guard the storage helpers on every Markdown page."""
    return guarded(output)


def on_post_template(output_content: str, **kwargs: Any) -> str:
    """Guard them on the theme's own pages (the 404 page)."""
    return guarded(output_content) if "__md_get" in output_content else output_content
