"""Print the size of what a maintainer carries: lines per folder, test items, README + CONTRIBUTING.

Run ``.venv/bin/python benchmarks/size.py`` from the repository (``--items``
also counts the test items, by ``pytest --collect-only -q``: about half a
minute). Targets (issue 31): ``attnlab/site`` at most 5,000 lines, the
maths (``attnlab/*.py``) 2,800, the tests 11,000 and 2,500 items, README
and CONTRIBUTING 30 KB together. It prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"attnlab/site": ("attnlab/site", "**/*.py", 5000), "attnlab/*.py": ("attnlab", "*.py", 2800),
           "docs/assets JS": ("docs/assets", "*.js", None), "tests": ("tests", "**/*.py", 11000)}
"""Label: (folder, glob, target lines or None)."""


def lines(folder: str, pattern: str) -> int:
    """The lines of every file matching ``pattern`` under ``folder`` (vendored files aside)."""
    return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in (ROOT / folder).glob(pattern)
               if "vendor" not in p.parts)


def items() -> int:
    """How many test items pytest collects."""
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                         cwd=ROOT, capture_output=True, text=True).stdout
    return sum(1 for line in out.splitlines() if "::" in line)


def main() -> None:
    """Print one line per measure, with its target."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", action="store_true", help="also count the test items (runs pytest --collect-only)")
    args = parser.parse_args()
    for label, (folder, pattern, target) in FOLDERS.items():
        print(f"{label:<16} {lines(folder, pattern):>7} lines" + (f"   target <= {target}" if target else ""))
    kb = sum((ROOT / name).stat().st_size for name in ("README.md", "CONTRIBUTING.md")) / 1000
    print(f"{'README+CONTRIB':<16} {kb:>7.1f} KB      target <= 30")
    if args.items:
        print(f"{'test items':<16} {items():>7}         target <= 2500")


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # piped into head: stop quietly, as other tools do
    main()
