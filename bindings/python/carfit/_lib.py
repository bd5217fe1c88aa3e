"""Loading libcarfit and declaring the C signatures of its functions.

Every function the library exports is declared here with its argtypes and restype, so ctypes
never guesses (a guessed ``int`` restype would truncate pointers on 64-bit hosts).

Ownership: response texts are new references that the caller must hand back to
``carfit_free``. They are therefore received as ``c_void_p`` (an address), copied with
``ctypes.string_at`` and freed; ``c_char_p`` is used only for the static strings of
``carfit_version`` and ``carfit_status_name``, which must not be freed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
from pathlib import Path
from typing import Iterator, Optional

__all__ = [
    "ENV_VAR",
    "OPERATIONS",
    "candidate_paths",
    "find_library",
    "load_library",
    "take_string",
]

#: Environment variable naming the library's full path; it wins over every other place.
ENV_VAR = "CARFIT_LIBRARY"

_LIB_NAME = "libcarfit.so"
_SONAME = "libcarfit.so.1"

#: The C functions of the operation shape
#: ``int carfit_<area>_<verb>(carfit_core *core, const char *request, char **response)``.
#: Names the loaded library does not export (an older build) are skipped; ``carfit_call``
#: reaches every operation by its method name regardless.
OPERATIONS = (
    "carfit_visits_import",
    "carfit_visits_list",
    "carfit_visits_refresh",
    "carfit_visits_plan",
    "carfit_calendar_get",
    "carfit_calendar_next",
    "carfit_calendar_previous",
    "carfit_calendar_select",
    "carfit_calendar_month",
    "carfit_patterns_import",
    "carfit_carousel_generate",
    "carfit_images_prefetch",
    "carfit_images_cancel",
    "carfit_images_stats",
)

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
    2. ``.build/release/libcarfit.so`` then ``.build/debug/libcarfit.so`` in the nearest
       ancestor directory of this package that has one;
    3. the system search: ``ctypes.util.find_library("carfit")``, else ``libcarfit.so.1``.
    """
    env = os.environ.get(ENV_VAR)
    if env:
        return env
    for path in candidate_paths():
        if path.is_file():
            return str(path)
    return ctypes.util.find_library("carfit") or _SONAME


def _declare(lib: ctypes.CDLL) -> None:
    """Set argtypes and restype on every function the library exports."""
    c_int, c_void_p, c_char_p = ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p
    out_ptr = ctypes.POINTER(c_void_p)

    lib.carfit_open.argtypes = [c_char_p, out_ptr, out_ptr]
    lib.carfit_open.restype = c_int

    lib.carfit_close.argtypes = [c_void_p]
    lib.carfit_close.restype = None

    lib.carfit_free.argtypes = [c_void_p]
    lib.carfit_free.restype = None

    # Static strings, never freed: c_char_p is right for these two only.
    lib.carfit_version.argtypes = []
    lib.carfit_version.restype = c_char_p

    lib.carfit_version_number.argtypes = []
    lib.carfit_version_number.restype = c_int

    lib.carfit_status_name.argtypes = [c_int]
    lib.carfit_status_name.restype = c_char_p

    lib.carfit_call.argtypes = [c_void_p, c_char_p, c_char_p, out_ptr]
    lib.carfit_call.restype = c_int

    for name in OPERATIONS:
        try:
            fn = getattr(lib, name)
        except AttributeError:
            continue
        fn.argtypes = [c_void_p, c_char_p, out_ptr]
        fn.restype = c_int

    # int carfit_images_data(core, request, unsigned char **bytes, size_t *length, char **response)
    try:
        fn = lib.carfit_images_data
    except AttributeError:
        pass
    else:
        fn.argtypes = [c_void_p, c_char_p, out_ptr, ctypes.POINTER(ctypes.c_size_t), out_ptr]
        fn.restype = c_int


def load_library(path: Optional[str] = None) -> ctypes.CDLL:
    """Load libcarfit once per process and return the ``ctypes.CDLL``.

    ``path`` overrides the search of :func:`find_library` on the first call; later calls
    return the library already loaded. Raises ``OSError`` when it cannot be loaded.
    """
    global _loaded
    with _lock:
        if _loaded is None:
            target = path or find_library()
            try:
                lib = ctypes.CDLL(target)
            except OSError as exc:
                raise OSError(
                    f"cannot load libcarfit from {target!r} ({exc}); build it with "
                    f"'swift build -c release' or set {ENV_VAR} to its full path"
                ) from exc
            _declare(lib)
            _loaded = lib
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
