"""What the site publishes beside its pages, which pages name before the build writes it: the files' names, and
the date and versions every page and file is stamped with."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from html import escape

import numpy

import attnlab

GUIDE = "attention-lab"
NAME = "attnlab"
TAG = "py3-none-any"
"""The wheel's tag: pure Python, any interpreter the package supports, any platform."""
COMPUTED_BY = f"attnlab {attnlab.__version__} with numpy {numpy.__version__}"  # every number a page or file shows


def archive_name(version: str = attnlab.__version__) -> str:
    """The offline copy's file name: ``attention-lab-0.1.0.zip`` (:mod:`attnlab.site.build.offline`)."""
    return f"{GUIDE}-{version}.zip"


def wheel_name(version: str = attnlab.__version__) -> str:
    """The wheel's file name: ``attnlab-0.1.0-py3-none-any.whl`` (:mod:`attnlab.site.build.wheel`)."""
    return f"{NAME}-{version}-{TAG}.whl"


def build_date() -> str:
    """Today's UTC date as ``YYYY-MM-DD``, or the date of ``SOURCE_DATE_EPOCH`` when set."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return datetime.now(UTC).date().isoformat()
    if not epoch.isdigit():
        raise ValueError(f"SOURCE_DATE_EPOCH must be a whole number of seconds since 1970-01-01 UTC, "
                         f"got {epoch[:40]!r}")
    try:
        return datetime.fromtimestamp(int(epoch), UTC).date().isoformat()
    except (OverflowError, OSError, ValueError) as error:
        raise ValueError(f"SOURCE_DATE_EPOCH={epoch[:40]} is not a date this build can write ({error})") from error


def provenance() -> str:
    """The folded line at the foot of every page: the versions that computed its numbers, the build date."""
    text = f"Numbers computed by {COMPUTED_BY} · built {build_date()} (UTC)"
    return f'<details class="attn-provenance"><summary>About these numbers</summary><p>{escape(text)}</p></details>'
