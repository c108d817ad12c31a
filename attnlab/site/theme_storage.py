"""MkDocs hook: the theme's storage helpers must not throw where site data is blocked.

Material for MkDocs defines ``__md_get`` and ``__md_set`` in an inline
script whose default argument reads ``localStorage`` outside any
``try``. Where the browser blocks site data, reading it throws, and every
page then reports uncaught errors from the palette script and the theme's
bundle; a stored palette of the wrong shape does the same. This hook wraps
both helpers right after the theme defines them: a read that fails, or a
palette that does not fit the page, returns nothing, and a write that
fails is dropped, which is what the theme does anyway when an entry is missing.
"""

from __future__ import annotations

from typing import Any

DEFINITION = "__md_set=(e,_,t=localStorage,a=__md_scope)=>{try{t.setItem(a.pathname+\".\"+e,JSON.stringify(_))}catch(e){}}</script>"
"""The end of the theme's inline script that defines the two helpers."""

GUARD = (
    "<script>(function(get,set){"
    "var COLOR=['media','scheme','primary','accent'];"
    "function fits(palette){"
    "var inputs=document.getElementsByName('__palette'),index=palette&&palette.index,color=palette&&palette.color;"
    "return Number.isInteger(index)&&index>=0&&index<inputs.length&&!!color&&typeof color==='object'"
    "&&Object.keys(color).length===COLOR.length&&COLOR.every(function(key){"
    "return color[key]===inputs[index].getAttribute('data-md-color-'+key)})}"
    "__md_get=function(key){var value;try{value=get.apply(this,arguments)}catch(e){return null}"
    "return key==='__palette'&&value!==null&&!fits(value)?null:value};"
    "__md_set=function(){try{set.apply(this,arguments)}catch(e){}}"
    "})(__md_get,__md_set)</script>"
)
"""Both helpers again: each inside a ``try`` that turns a storage error into "nothing stored", and
``__md_get`` handing out a stored palette only if it fits the page's palette inputs as the theme stores
it (``index`` of one input, ``color`` its four ``data-md-color-*`` attributes). The theme's inline
palette script and its bundle trust the stored palette; one they cannot use (an automatic palette
the page has no inputs for, a colour key that is no attribute name) would throw on every page.
Self-contained, so it can move into a template as it is."""


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
