"""Loading libcarfit and declaring the C signatures of its functions.

Every function of the header is declared once, in :data:`FUNCTIONS`, with its argtypes and
restype, so ctypes never guesses (a guessed ``int`` restype would truncate pointers on 64-bit
hosts); the table is generated from include/carfit.h by ``scripts/gen-schema``. Loading checks the library's major version against the binding's.

Ownership: response texts are new references that the caller must hand back to
``carfit_free``. They are therefore received as ``c_void_p`` (an address), copied with
``ctypes.string_at`` (or, by ``take_text``, decoded in place) and freed; ``c_char_p`` is used only for the static strings of
``carfit_version``, ``carfit_status_name`` and ``carfit_schema``, which must not be freed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
from pathlib import Path
from typing import Dict, Iterator, Optional, Tuple

from . import _generated
from ._version import binding_version

__all__ = [
    "ENV_VAR",
    "FUNCTIONS",
    "LibraryVersionError",
    "OPERATIONS",
    "PACKAGED_LIBRARY",
    "check_version",
    "library_version",
    "open_library",
    "candidate_paths",
    "find_library",
    "load_library",
    "take_string",
    "take_text",
]

#: Environment variable naming the library's full path; it wins over every other place.
ENV_VAR = "CARFIT_LIBRARY"

_LIB_NAME = "libcarfit.so"
_SONAME = "libcarfit.so.1"
#: The library a wheel carries, next to this module.
PACKAGED_LIBRARY = Path(__file__).resolve().parent / _LIB_NAME

#: (restype, argtypes) of a C function; restype None is void.
Signature = _generated.Signature

#: ``int carfit_<area>_<verb>(carfit_core *core, const char *request, char **response)``.
_OPERATION: Signature = _generated.OPERATION

#: Every function of ``include/carfit.h``, declared once: name -> (restype, argtypes),
#: generated from the header by ``scripts/gen-schema`` (``_generated.py``). Response texts and
#: image bytes are received as addresses (``c_void_p``) and freed by the binding; ``c_char_p``
#: results are the library's static strings, never freed. A test compares this table with the
#: header's declarations both ways.
FUNCTIONS: Dict[str, Signature] = dict(_generated.FUNCTIONS)

#: The functions of the operation shape, in header order.
OPERATIONS = tuple(name for name, signature in FUNCTIONS.items() if signature is _OPERATION)

_lock = threading.Lock()
_loaded: Optional[ctypes.CDLL] = None


def candidate_paths(start: Optional[Path] = None) -> Iterator[Path]:
    """Yield the repository build outputs to try, walking up from ``start``.

    ``start`` defaults to this package's directory. For each ancestor, the release build comes
    before the debug build.
    """
    here = (start or Path(__file__)).resolve()
    if not here.is_dir():
        here = here.parent
    for directory in (here, *here.parents):
        for config in ("release", "debug"):
            yield directory / ".build" / config / _LIB_NAME


def find_library() -> str:
    """Return the path (or linker name) of libcarfit to load.

    1. ``$CARFIT_LIBRARY``, a full path;
    2. the ``libcarfit.so`` inside this package (an installed wheel carries one);
    3. ``.build/release/libcarfit.so`` then ``.build/debug/libcarfit.so`` in the nearest
       ancestor directory of this package that has one (a source checkout);
    4. the system search: ``ctypes.util.find_library("carfit")``, else ``libcarfit.so.1``.
    """
    env = os.environ.get(ENV_VAR)
    if env:
        return env
    if PACKAGED_LIBRARY.is_file():
        return str(PACKAGED_LIBRARY)
    for path in candidate_paths():
        if path.is_file():
            return str(path)
    return ctypes.util.find_library("carfit") or _SONAME


def _declare(lib: ctypes.CDLL) -> None:
    """Set argtypes and restype of every function of :data:`FUNCTIONS` the library exports.

    A function an older library of the same major version lacks is left undeclared; calling
    it raises ``AttributeError``, and ``carfit_call`` answers its method with a misuse error.
    """
    for name, (restype, argtypes) in FUNCTIONS.items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            continue
        fn.argtypes = list(argtypes)
        fn.restype = restype


def library_version(lib: ctypes.CDLL) -> Tuple[int, str]:
    """The loaded library's ``(carfit_version_number(), carfit_version())``.

    A library older than ``carfit_version_number`` has its number worked out from the text.
    """
    version_fn = lib.carfit_version
    version_fn.argtypes, version_fn.restype = [], ctypes.c_char_p
    raw = version_fn()
    text = raw.decode("ascii", "replace") if raw else ""
    try:
        number_fn = lib.carfit_version_number
    except AttributeError:
        parts = [int(p) if p.isdigit() else 0 for p in text.split(".")[:3]] + [0, 0, 0]
        return parts[0] * 10000 + parts[1] * 100 + parts[2], text
    number_fn.argtypes, number_fn.restype = [], ctypes.c_int
    return int(number_fn()), text


class LibraryVersionError(OSError):
    """The library found is of another major version than this binding."""


def check_version(lib: ctypes.CDLL, path: str) -> None:
    """Refuse a library whose major version differs from this binding's.

    Raises :class:`LibraryVersionError` naming both versions and the library's path.
    """
    number, text = library_version(lib)
    binding = binding_version()
    binding_major = int(binding.split(".")[0]) if binding.split(".")[0].isdigit() else 0
    if number // 10000 != binding_major:
        raise LibraryVersionError(
            f"libcarfit {text or number} at {path!r} is major version {number // 10000}, but this "
            f"carfit binding {binding} needs major version {binding_major}: install the binding "
            f"of that library, or set {ENV_VAR} to a libcarfit {binding_major}.x"
        )


def open_library(path: str) -> ctypes.CDLL:
    """Load the library at ``path`` (a new handle, not cached), check its version and declare
    its functions. Raises ``OSError`` (:class:`LibraryVersionError` for another major)."""
    try:
        lib = ctypes.CDLL(path)
    except OSError as exc:
        raise OSError(
            f"cannot load libcarfit from {path!r} ({exc}); build the library first: "
            f"'make' (or 'swift build -c release') at the repository root, or set {ENV_VAR} "
            f"to its full path"
        ) from exc
    check_version(lib, path)
    _declare(lib)
    return lib


def load_library(path: Optional[str] = None) -> ctypes.CDLL:
    """Load libcarfit once per process and return the ``ctypes.CDLL``.

    ``path`` overrides the search of :func:`find_library` on the first call; later calls
    return the library already loaded. Raises ``OSError`` when it cannot be loaded.
    """
    global _loaded
    with _lock:
        if _loaded is None:
            _loaded = open_library(path or find_library())
        return _loaded


def take_string(lib: ctypes.CDLL, ptr: ctypes.c_void_p) -> Optional[bytes]:
    """Copy the NUL-terminated text at ``ptr`` and free it with ``carfit_free``.

    Returns None for a NULL pointer. The text is freed even when copying fails.
    """
    address = ptr.value
    if not address:
        return None
    try:
        return ctypes.string_at(address)
    finally:
        lib.carfit_free(address)
        ptr.value = None


def _text_decoder() -> Optional[ctypes._CFuncPtr]:  # type: ignore[name-defined]
    """CPython's ``PyUnicode_FromString``: a NUL-terminated UTF-8 text decoded straight from
    the library's memory (no copy into a bytes object first); None where ctypes has no
    ``pythonapi`` (another Python implementation)."""
    api = getattr(ctypes, "pythonapi", None)
    decode = getattr(api, "PyUnicode_FromString", None) if api is not None else None
    if decode is None:
        return None
    decode.argtypes = [ctypes.c_void_p]
    decode.restype = ctypes.py_object
    return decode


_decode_text = _text_decoder()


def take_text(lib: ctypes.CDLL, ptr: ctypes.c_void_p) -> Optional[str]:
    """The NUL-terminated UTF-8 text at ``ptr`` as a str, freed with ``carfit_free``.

    The same text as ``take_string(...).decode("utf-8")`` (a ``UnicodeDecodeError`` likewise),
    decoded from the library's memory without a copy where CPython's API is at hand. Returns
    None for a NULL pointer. The text is freed even when decoding fails.
    """
    if _decode_text is None:
        raw = take_string(lib, ptr)
        return None if raw is None else raw.decode("utf-8")
    address = ptr.value
    if not address:
        return None
    try:
        return _decode_text(address)  # type: ignore[no-any-return]
    finally:
        lib.carfit_free(address)
        ptr.value = None
