"""What every example program does first: find the Python binding (bindings/python) and the
library, the bundled sample data (examples/data), and open a core, on a temporary database
when asked.

    from common.start import DATA, carfit, open_core, read_json, run

Import it before `carfit`: importing it puts the binding on the path and loads the library; without one it ends the program with the build step
to do (`make`), as a missing library is not a problem of the data.
"""

from __future__ import annotations

import contextlib
import json
import signal
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, Optional

REPO_ROOT = Path(__file__).resolve().parents[3]
DATA = REPO_ROOT / "examples" / "data"
PROGRAM = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "example"

sys.path.insert(0, str(REPO_ROOT / "bindings" / "python"))

import carfit  # noqa: E402

try:
    carfit.load_library()
except OSError as exc:
    sys.exit(f"{PROGRAM}: {exc}")


@contextlib.contextmanager
def open_core(config: Optional[Dict[str, Any]] = None, *, temporary_database: bool = False) -> Iterator[carfit.Core]:
    """A core on `config`; with `temporary_database`, on a database in a new temporary directory
    (its attachments directory beside it), removed with everything in it when the core closes.
    Without either a `database` in the config or `temporary_database`, the core keeps its data
    in memory."""
    config = dict(config or {})
    with contextlib.ExitStack() as stack:
        if temporary_database:
            work = stack.enter_context(tempfile.TemporaryDirectory(prefix="carfit-example-"))
            config["database"] = str(Path(work) / "carfit.db")
        yield stack.enter_context(carfit.Core(config))


def read_json(path: Any) -> Any:
    """The JSON document in the file `path`; one that cannot be read or parsed ends the program
    with status 2 and says why."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as exc:
        print(f"{PROGRAM}: cannot read {path}: {exc}", file=sys.stderr)
        sys.exit(2)


def run(main: Callable[[], Optional[int]]) -> None:
    """Run `main` as the program: its result is the exit status; piped into `head`, the program
    ends quietly when the pipe closes."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
