"""Zip files that are the same bytes for the same contents and date: the offline copy and the wheel.

A zip entry carries a modification time and permissions; taking them from
the files would make two builds of the same sources differ. Here every
entry is dated the build's day and marked a plain file, and entries go in
the order the caller gives.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable

COMPRESSION = 5
"""zlib's level for every entry: for this site's offline copy, 1 % larger than at zlib's default (6), in 60 % of
its time (most of the copy is text: the explorer's data, the search index, the pages)."""
EARLIEST = (1980, 1, 1)
"""The earliest date a zip entry can hold."""


def dated_zip(entries: Iterable[tuple[str, bytes]], date: str, compress: bool = True) -> bytes:
    """A zip of ``entries`` (name, bytes) in the order given, every entry dated ``date`` (``YYYY-MM-DD``).

    Deflated at :data:`COMPRESSION`, or stored as they are (``compress=False``), with fixed permissions (a
    regular file, rw-r--r--), so the same entries and date give the same bytes. A date before 1980 is
    written as 1980-01-01.
    """
    year, month, day = max(EARLIEST, tuple(int(part) for part in date.split("-")))
    moment = (year, month, day, 0, 0, 0)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive_file:
        for name, data in entries:
            entry = zipfile.ZipInfo(name, date_time=moment)
            entry.create_system = 3  # Unix, so the permissions below are read
            entry.external_attr = 0o100644 << 16  # a regular file, rw-r--r--
            if compress:
                archive_file.writestr(entry, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=COMPRESSION)
            else:
                archive_file.writestr(entry, data, compress_type=zipfile.ZIP_STORED)
    return buffer.getvalue()
