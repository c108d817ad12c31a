"""Commit the math font's cut for the guide's pages: the characters their formulas draw, cut from the font in docs/.

    make build && .venv/bin/python scripts/math_font.py

reads the built pages in ``site/`` (or the folder named as the argument) and writes ``attnlab/site/build/data/
math-font.woff2`` and ``math-font.txt``, its characters. The build ships that cut when it has every character
the pages draw and cuts the font itself otherwise; ``tests/site/build/test_mathfont.py`` then turns red.
"""

from __future__ import annotations

import sys
from pathlib import Path

from attnlab.site.build.mathfont import CUT, FONT, formula_characters, subset

ROOT = Path(__file__).resolve().parent.parent


def main(site: Path) -> None:
    """Cut ``docs/``'s font to the characters the pages in ``site`` draw, and write the cut and its characters."""
    pages = sorted(site.rglob("*.html"))
    if not pages:
        sys.exit(f"no built pages in {site}: run make build first, or name the built site's folder")
    characters = "".join(sorted(formula_characters(page.read_text(encoding="utf-8") for page in pages)))
    CUT.write_bytes(subset((ROOT / "docs" / FONT).read_bytes(), characters))
    CUT.with_suffix(".txt").write_text(characters, encoding="utf-8")
    print(f"{CUT.relative_to(ROOT)}: {len(characters)} characters, {CUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "site")
