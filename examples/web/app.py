#!/usr/bin/env python3
"""The CarFit reference app in the browser: the command line that starts it.

Usage (from the repository root, after `swift build -c release`):

    python3 examples/web/app.py                          # http://127.0.0.1:8080/
    python3 examples/web/app.py --port 0                 # any free port (printed at start)
    python3 examples/web/app.py --now 2020-09-10T07:00:00Z --time-zone Europe/Copenhagen
    python3 examples/web/app.py --database carfit.sqlite # keep the data in a file

Without --database the app opens a temporary database filled with the bundled sample data
(examples/data); a --database file that does not exist yet starts with the sample too. The
core's sources are the app's own sample sources (sample_sources.py), so the refresh and sync
controls work without a network; `--offline` starts them unreachable. The sample update server
(the reference one, examples/servers/sync_server.py) is the planner's back end: it takes the
washer's changes only with the token of --planner-token (printed at start).

The modules, one job each: app.py (this: arguments, start-up), web_server.py (the HTTP server
and its routes), core_api.py (the API over the core), sample_sources.py (the sample sources and
planner), static_files.py (the page).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Dict, List, Optional

HERE = Path(__file__).resolve().parent
BINDING = HERE.parent.parent / "bindings" / "python"

try:
    import carfit  # noqa: F401  (an installed binding wins)
except ImportError:
    sys.path.insert(0, str(BINDING))

from carfit import CarfitError, Core, load_library  # noqa: E402

from core_api import CoreAPI  # noqa: E402
from sample_sources import SAMPLE_PLANNER_TOKEN, SampleSources, fill_with_samples, source_urls  # noqa: E402
from web_server import Handler, Server  # noqa: E402


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Serve the CarFit reference app over libcarfit.")
    p.add_argument("--port", type=int, default=8080, help="port to listen on, 0 for any (%(default)s)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (%(default)s)")
    p.add_argument("--now", help="fixed instant for the core's clock (default: the system clock)")
    p.add_argument("--time-zone", help="IANA zone of local days and times (default: the core's, UTC)")
    p.add_argument("--locale", help="language of times, dates, month titles, amounts and name order: en, en-GB, "
                   "da, nb, sv or de (default: none, the English texts of old)")
    p.add_argument("--currency", help="currency of the amounts with --locale: USD, DKK, NOK, SEK, EUR or GBP (USD)")
    p.add_argument("--database", help="SQLite file to keep the data in; a file that does not exist yet is "
                   "created with the sample data (default: a temporary database with the sample data)")
    p.add_argument("--offline", action="store_true", help="start with the sample sources unreachable "
                   "(POST /sample/network {\"offline\": false} brings them back)")
    p.add_argument("--planner-token", default=SAMPLE_PLANNER_TOKEN,
                   help="the token the sample update server wants (%(default)s); sign in with it on the page")
    p.add_argument("--verbose", action="store_true", help="log every request")
    return p.parse_args(argv)


def library_present() -> bool:
    """Whether the binding finds and loads libcarfit (CARFIT_LIBRARY, the build folder, or the
    system's library)."""
    try:
        load_library()
    except OSError:
        return False
    return True


def stop_on_sigterm(signum: int, frame: Any) -> None:
    """SIGTERM stops the app as Ctrl-C does, so the temporary database is removed."""
    raise KeyboardInterrupt


def open_core(args: argparse.Namespace, base_url: str, database: str) -> Core:
    """The core over database, its sources pointing at this server's sample sources."""
    config: Dict[str, Any] = {"database": database, "sources": source_urls(base_url), "http": {"timeoutMs": 5000}}
    if args.now:
        config["now"] = args.now
    if args.time_zone:
        config["timeZone"] = args.time_zone
    if args.locale:
        config["locale"] = args.locale
    if args.currency:
        config["currency"] = args.currency
    return Core(config)


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    if not library_present():
        print("build the library first: swift build -c release", file=sys.stderr)
        return 2
    if ":" in args.host:
        Server.address_family = socket.AF_INET6
    try:
        server = Server((args.host, args.port), Handler)
    except OSError as exc:
        print(f"cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    server.verbose = args.verbose
    host, port = server.server_address[:2]
    base_url = f"http://{'[' + host + ']' if ':' in str(host) else host}:{port}"

    scratch = None if args.database else tempfile.mkdtemp(prefix="carfit-web-")
    try:
        database = args.database or os.path.join(scratch, "carfit.sqlite")  # type: ignore[arg-type]
        fresh = not os.path.exists(database)
        try:
            core = open_core(args, base_url, database)
        except CarfitError as exc:
            print(f"cannot open the core: {exc}", file=sys.stderr)
            server.server_close()
            return 1
        with core:
            if fresh:
                fill_with_samples(core)
            server.api = CoreAPI(core)
            server.samples = SampleSources(base_url, offline=args.offline, token=args.planner_token)
            signal.signal(signal.SIGTERM, stop_on_sigterm)
            print(f"CarFit web app on {base_url}/ (Ctrl-C stops it)", flush=True)
            print(f"The sample planner's token (sign in with it to send changes): {args.planner_token}", flush=True)
            thread = threading.Thread(target=server.serve_forever, name="carfit-web", daemon=True)
            thread.start()
            try:
                thread.join()
            except KeyboardInterrupt:
                pass
            finally:
                server.shutdown()
                server.server_close()
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
