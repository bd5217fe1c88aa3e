#!/usr/bin/env python3
"""The CarFit reference app in the browser: the command line that starts it.

Usage (from the repository root, after `swift build -c release`):

    python3 examples/web/app.py                          # http://127.0.0.1:8080/
    python3 examples/web/app.py --port 0                 # any free port (printed at start)
    python3 examples/web/app.py --now 2020-09-10T07:00:00Z --time-zone Europe/Copenhagen
    python3 examples/web/app.py --database carfit.sqlite # keep the data in a file
    python3 examples/web/app.py --planner-server         # the real planner (server/, built) behind it

Without --database the app opens a temporary database filled with the bundled sample data
(examples/data); a --database file that does not exist yet starts with the sample too. The
core's sources are the app's own sample sources (sample_sources.py), so the refresh and sync
controls work without a network; `--offline` starts them unreachable. The sample update server
(the reference one, examples/servers/sync_server.py) is the planner's back end: it takes the
washer's changes only with the token of --planner-token (printed at start). With
--planner-server (or --planner URL) the visits come from the real planner server instead
(planner.py): the app starts it with a SQLite database, adds a washer, loads the sample visits
for them from today on and prints the washer's token to sign in with on the day screen.

The modules, one job each: app.py (this: arguments, start-up), web_server.py (the HTTP server
and its routes), core_api.py (the API over the core), sample_sources.py (the sample sources and
planner), static_files.py (the page).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
BINDING = HERE.parent.parent / "bindings" / "python"

try:
    import carfit  # noqa: F401  (an installed binding wins)
except ImportError:
    sys.path.insert(0, str(BINDING))

from carfit import CarfitError, Core, load_library  # noqa: E402

import planner as planner_server  # noqa: E402
from core_api import CURRENCIES, LOCALES, CoreAPI  # noqa: E402
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
    p.add_argument("--planner-server", nargs="?", const="", metavar="EXECUTABLE",
                   help="start the real planner server (carfit-planner; default: the one built in server/.build) "
                   "with a SQLite database, add a washer and load the sample visits for them from today on")
    p.add_argument("--planner-database", metavar="FILE",
                   help="the started planner's SQLite file (default: beside the app's temporary database)")
    p.add_argument("--planner", metavar="URL",
                   help="a planner server already running at URL (its washer's API as the visits' sources); "
                   "with --washer-id and CARFIT_PLANNER_ADMIN_TOKEN in the environment, the sample visits "
                   "are loaded for that washer")
    p.add_argument("--washer-id", help="with --planner: the washer to load the sample visits for")
    p.add_argument("--verbose", action="store_true", help="log every request")
    args = p.parse_args(argv)
    if args.locale is not None and args.locale not in LOCALES:
        p.error("--locale is one of " + ", ".join(LOCALES))
    if args.currency is not None and args.currency not in CURRENCIES:
        p.error("--currency is one of " + ", ".join(CURRENCIES))
    if args.planner is not None and args.planner_server is not None:
        p.error("--planner and --planner-server name two planners: choose one")
    return args


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


def open_core(args: argparse.Namespace, base_url: str, database: str,
              planner: Optional[planner_server.Planner] = None,
              language: Optional[Dict[str, Optional[str]]] = None) -> Core:
    """The core over database, its sources pointing at this server's sample sources (the
    visits' and the washer's at the planner server when there is one); language's "locale" and
    "currency" in place of the arguments' when given."""
    sources = source_urls(base_url)
    if planner is not None:
        sources.update(planner.sources())
    config: Dict[str, Any] = {"database": database, "sources": sources, "http": {"timeoutMs": 5000}}
    if args.now:
        config["now"] = args.now
    if args.time_zone:
        config["timeZone"] = args.time_zone
    locale, currency = (language["locale"], language["currency"]) if language else (args.locale, args.currency)
    if locale:
        config["locale"] = locale
    if currency:
        config["currency"] = currency
    return Core(config)


def start_planner(args: argparse.Namespace, scratch: str) -> Tuple[Optional[planner_server.Planner], List[str]]:
    """The planner server of --planner-server (started, a washer added, the sample loaded) or of
    --planner, and the lines to print about it (its board, the washer's token); None without
    either."""
    today = dt.datetime.now(dt.timezone.utc).date()
    lines: List[str] = []
    if args.planner is not None:
        admin = os.environ.get("CARFIT_PLANNER_ADMIN_TOKEN", "")
        planner = planner_server.Planner(args.planner, admin)
        if args.washer_id and admin:
            planner.load_sample(args.washer_id, today)
            lines.append(f"The sample visits are loaded for washer {args.washer_id}.")
        return planner, lines + [f"The planner's board: {planner.board()}"]
    if args.planner_server is None:
        return None, lines
    executable = Path(args.planner_server) if args.planner_server else planner_server.find_executable()
    if executable is None:
        raise planner_server.PlannerError("the planner server is not built: swift build --package-path server")
    database = "sqlite:" + (args.planner_database or os.path.join(scratch, "planner.sqlite"))
    planner = planner_server.start(executable, database, Path(scratch) / "planner.log")
    try:
        washer = planner.add_washer("Ada Lovelace")
        planner.load_sample(washer["washerId"], today)
    except planner_server.PlannerError:
        planner.stop()
        raise
    return planner, [f"The planner server on {planner.url}/ (its board: {planner.board()})",
                      f"The washer's token (sign in with it on the day screen): {washer['token']}"]


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

    scratch = tempfile.mkdtemp(prefix="carfit-web-")
    planner: Optional[planner_server.Planner] = None
    signal.signal(signal.SIGTERM, stop_on_sigterm)  # from here on, a stop removes what was made
    try:
        database = args.database or os.path.join(scratch, "carfit.sqlite")
        fresh = not os.path.exists(database)
        try:
            planner, planner_lines = start_planner(args, scratch)
            core = open_core(args, base_url, database, planner)
        except (CarfitError, planner_server.PlannerError) as exc:
            print(f"cannot start: {exc}", file=sys.stderr)
            server.server_close()
            return 1
        def reopen(language: Dict[str, Optional[str]]) -> Core:
            return open_core(args, base_url, database, planner, language)

        settings = {"locale": args.locale, "currency": args.currency,
                    "planner": {"url": planner.url, "board": planner.board()} if planner else None}
        server.api = CoreAPI(core, reopen, settings)
        try:
            if fresh:
                # With a planner server the visits come from it (a refresh once signed in).
                fill_with_samples(core, skip_visits=planner is not None)
            server.samples = SampleSources(base_url, offline=args.offline, token=args.planner_token)
            print(f"CarFit web app on {base_url}/ (Ctrl-C stops it)", flush=True)
            if planner is None:
                print(f"The sample planner's token (sign in with it to send changes): {args.planner_token}", flush=True)
            for line in planner_lines:
                print(line, flush=True)
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
            server.api.core.close()
    finally:
        if planner is not None:
            planner.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
