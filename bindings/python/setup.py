"""Builds the carfit wheel: the ctypes binding with libcarfit.so inside the package.

    swift build -c release                        (or make, at the repository root)
    python3 -m pip wheel bindings/python -w DIST  -> carfit-1.4.0-py3-none-linux_x86_64.whl

The version is read from the CARFIT_VERSION_* macros of include/carfit.h; the schema
include/carfit.schema.json is shipped as carfit/carfit.schema.json. The library copied
into the package is $CARFIT_LIBRARY if set, else the repository's .build/release/libcarfit.so;
it is stripped of debug information on the way (when ``strip`` is there). The wheel holds no
Python extension, but the library makes it specific to the platform: it is tagged
py3-none-<platform>.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

try:  # setuptools 70.1 and later carry bdist_wheel; before that it comes with wheel.
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # pragma: no cover
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
HEADER = REPO / "include" / "carfit.h"
SCHEMA = REPO / "include" / "carfit.schema.json"
LIBRARY_NAME = "libcarfit.so"


def header_version() -> str:
    """MAJOR.MINOR.PATCH from the header's macros."""
    if not HEADER.is_file():
        raise SystemExit(f"{HEADER} is missing: build the carfit package from a libcarfit checkout")
    found = dict(re.findall(r"^#define\s+CARFIT_VERSION_(MAJOR|MINOR|PATCH)\s+(\d+)\s*$", HEADER.read_text(), re.M))
    if set(found) != {"MAJOR", "MINOR", "PATCH"}:
        raise SystemExit(f"{HEADER} lacks a CARFIT_VERSION_MAJOR, _MINOR or _PATCH macro")
    return f"{found['MAJOR']}.{found['MINOR']}.{found['PATCH']}"


def library_source() -> Path:
    """The built library to ship: $CARFIT_LIBRARY, else .build/release/libcarfit.so."""
    path = Path(os.environ.get("CARFIT_LIBRARY") or REPO / ".build" / "release" / LIBRARY_NAME)
    if not path.is_file():
        raise SystemExit(
            f"{path} is missing: build the library first: 'make' (or 'swift build -c release') at {REPO}, "
            f"or set CARFIT_LIBRARY to a built libcarfit.so"
        )
    return path


class BuildWithLibrary(build_py):
    """build_py that also puts the library and the schema (carfit.schema.json) into the package."""

    def run(self) -> None:
        super().run()
        if not SCHEMA.is_file():
            raise SystemExit(f"{SCHEMA} is missing: build the carfit package from a libcarfit checkout")
        schema = Path(self.build_lib) / "carfit" / SCHEMA.name
        schema.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SCHEMA, schema)
        target = Path(self.build_lib) / "carfit" / LIBRARY_NAME
        target.parent.mkdir(parents=True, exist_ok=True)
        source = library_source()
        strip = shutil.which("strip")
        if strip:
            subprocess.run([strip, "--strip-unneeded", "-o", str(target), str(source)], check=True)
        else:
            shutil.copyfile(source, target)
        target.chmod(0o755)


class PlatformWheel(bdist_wheel):
    """A wheel for any Python 3 on this platform: py3-none-<platform>."""

    def finalize_options(self) -> None:
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):  # type: ignore[no-untyped-def]
        _, _, platform = super().get_tag()
        return "py3", "none", platform


class BinaryDistribution(Distribution):
    """The package carries a native library, so it is not pure Python."""

    def has_ext_modules(self) -> bool:
        return True


setup(
    version=header_version(),
    distclass=BinaryDistribution,
    cmdclass={"build_py": BuildWithLibrary, "bdist_wheel": PlatformWheel},
)
