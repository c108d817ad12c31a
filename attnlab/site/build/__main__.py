"""``python -m attnlab.site.build``: the post-build pass, for a builder that does not run the guide's plugin.

Zensical reads ``mkdocs.yml`` and converts the pages with the guide's
extension, but ignores MkDocs plugins. After ``zensical build`` this
command does what the plugin does after ``mkdocs build``: it reads the
same configuration (``INHERIT`` and ``!ENV`` resolved by MkDocs' own
loader) and runs :func:`attnlab.site.build.publish.publish` on the built
site, the offline zip last. A problem is one line on stderr and exit status 1.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from attnlab.cli import Parser, run


def publish_site(config_file: Path, site: Path | None) -> int:
    """Run the post-build pass for ``config_file`` on ``site`` (default: its ``site_dir``); the exit status."""
    from mkdocs.config import load_config  # the docs extra; the command is for building the guide

    from attnlab.site.build.publish import publish
    from attnlab.site.pages.page import nav_pages

    prog = "python -m attnlab.site.build"
    if not config_file.is_file():
        print(f"{prog}: error: no configuration at {config_file}", file=sys.stderr)
        return 1
    config = load_config(str(config_file))
    target = site or Path(config.site_dir)
    if not (target / "index.html").is_file():
        print(f"{prog}: error: {target} holds no built site (no index.html): build it first", file=sys.stderr)
        return 1
    try:
        publish(target, Path(config.docs_dir), tuple(nav_pages(config.nav)))
    except ValueError as error:
        print(f"{prog}: error: {error}", file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the flags in ``argv`` (default: the command line) and run the pass; return the exit status."""
    parser = Parser(prog="python -m attnlab.site.build", description=__doc__)
    parser.add_argument("site", nargs="?", type=Path, help="the built site (default: the configuration's site_dir)")
    parser.add_argument("-f", "--config-file", type=Path, default=Path("mkdocs.yml"), help="default: mkdocs.yml")
    args = parser.parse_args(argv)
    return run(parser.prog, lambda: publish_site(args.config_file, args.site))


if __name__ == "__main__":
    sys.exit(main())
