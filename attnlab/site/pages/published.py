"""The names of the files the site publishes beside its pages, which pages link to before the build writes them."""

from __future__ import annotations

import attnlab

GUIDE = "attention-lab"
NAME = "attnlab"
TAG = "py3-none-any"
"""The wheel's tag: pure Python, any interpreter the package supports, any platform."""


def archive_name(version: str = attnlab.__version__) -> str:
    """The offline copy's file name: ``attention-lab-0.1.0.zip`` (:mod:`attnlab.site.build.offline`)."""
    return f"{GUIDE}-{version}.zip"


def wheel_name(version: str = attnlab.__version__) -> str:
    """The wheel's file name: ``attnlab-0.1.0-py3-none-any.whl`` (:mod:`attnlab.site.build.wheel`)."""
    return f"{NAME}-{version}-{TAG}.whl"
