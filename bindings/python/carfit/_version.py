"""The binding's version: the version of the header it was made from.

The number is written once, in the ``CARFIT_VERSION_*`` macros of ``include/carfit.h``. In a
source checkout the binding reads that header; an installed package (a wheel or ``pip
install``) was built from it, and its metadata carries the same version.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional, Tuple

__all__ = ["HEADER_NAME", "header_version", "binding_version"]

HEADER_NAME = "carfit.h"

_MACRO = re.compile(r"^#define\s+CARFIT_VERSION_(MAJOR|MINOR|PATCH)\s+(\d+)\s*$", re.M)


def header_version(header: Path) -> Tuple[int, int, int]:
    """(major, minor, patch) from the ``CARFIT_VERSION_*`` macros of ``header``.

    Raises ``ValueError`` when one of the three macros is missing.
    """
    found = dict(_MACRO.findall(header.read_text(encoding="utf-8")))
    try:
        return int(found["MAJOR"]), int(found["MINOR"]), int(found["PATCH"])
    except KeyError as exc:
        raise ValueError(f"{header} has no CARFIT_VERSION_{exc.args[0]} macro") from exc


def _source_header() -> Optional[Path]:
    """``include/carfit.h`` of the checkout this package sits in (``bindings/python/carfit``),
    if it does; an installed copy, even inside a checkout, has none."""
    package = Path(__file__).resolve().parent
    repository = package.parents[2]
    candidate = repository / "include" / HEADER_NAME
    if package.parent == repository / "bindings" / "python" and candidate.is_file():
        return candidate
    return None


def binding_version() -> str:
    """``"MAJOR.MINOR.PATCH"`` of this binding: the source header's, else the installed metadata's."""
    header = _source_header()
    if header is not None:
        return "%d.%d.%d" % header_version(header)
    from importlib import metadata

    try:
        return metadata.version("carfit")
    except metadata.PackageNotFoundError:  # copied by hand, without metadata or header
        return "0.0.0"
