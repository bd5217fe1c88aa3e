#!/usr/bin/env python3
"""The Cars news feed, offline first: refresh from a URL when it answers, else show the
articles cached by the last successful refresh; or import a document from a file.

Usage (from any directory, after `make` at the repository root):

    python3 examples/python/articles.py                          # the bundled sample
    python3 examples/python/articles.py https://example.com/articles.json
    python3 examples/python/articles.py path/to/articles.json --tz Europe/Oslo --12h

With a URL the cache is kept in --database (default: carfit-articles.sqlite in the temporary
directory), so a later run without network still shows the last articles.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any, Dict, List, Optional

from common.start import DATA, open_core
from carfit import CarfitError, UnavailableError

DEFAULT_DATA = DATA / "articles.json"
WIDTH = 72


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Show the Cars news feed, refreshed or from the cache.")
    p.add_argument("source", nargs="?", default=str(DEFAULT_DATA),
                   help="an http(s) URL to refresh from, or an articles document to import "
                        "(default: the bundled sample)")
    p.add_argument("--database", help="SQLite file of the cache")
    p.add_argument("--now", help="the core's clock, an ISO 8601 instant (default: the system clock)")
    p.add_argument("--tz", help="IANA time zone of the dates (default: UTC)")
    p.add_argument("--timeout", type=int, metavar="MS", help="network timeout in milliseconds")
    clock = p.add_mutually_exclusive_group()
    clock.add_argument("--12h", dest="hour24", action="store_false", default=None, help="12-hour times")
    clock.add_argument("--24h", dest="hour24", action="store_true", help="24-hour times")
    return p.parse_args(argv)


def render(article: Dict[str, Any]) -> str:
    """One article as the feed shows it: title, date, ingress, image and body blocks."""
    lines = textwrap.wrap(article["title"], WIDTH) or ["(untitled)"]
    lines.append(article["published"])
    if article["ingress"]:
        lines += textwrap.wrap(article["ingress"], WIDTH, initial_indent="  ", subsequent_indent="  ")
    if article["imageUrl"]:
        lines.append(f"  [image] {article['imageUrl']}")
    for block in article["content"]:
        if block["subject"]:
            lines.append(f"  {block['subject']}")
        lines += textwrap.wrap(block["description"] or "", WIDTH, initial_indent="    ", subsequent_indent="    ")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    is_url = args.source.startswith(("http://", "https://"))
    config: Dict[str, Any] = {}
    if args.database or is_url:
        config["database"] = args.database or str(Path(tempfile.gettempdir()) / "carfit-articles.sqlite")
    if args.now:
        config["now"] = args.now
    if args.tz:
        config["timeZone"] = args.tz
    if args.hour24 is not None:
        config["hour24"] = args.hour24
    if args.timeout:
        config["http"] = {"timeoutMs": args.timeout}
    if is_url:
        config["sources"] = {"articles": args.source}

    try:
        with open_core(config) as core:
            online = True
            if is_url:
                try:
                    print(f"Refreshed {core.refresh_articles()['imported']} articles from {args.source}")
                except UnavailableError as exc:
                    online = False
                    print(f"Offline ({exc.document.get('reason', 'unavailable')}): {exc.message}")
            else:
                try:
                    with open(args.source, encoding="utf-8") as f:
                        document = json.load(f)
                except (OSError, ValueError) as exc:
                    print(f"articles.py: cannot read {args.source}: {exc}", file=sys.stderr)
                    return 2
                result = core.import_articles(document)
                for r in result["rejected"]:
                    print(f"skipped article {r['index']} ({r['field']}): {r['message']}", file=sys.stderr)
                print(f"Imported {result['imported']} articles from {args.source}")

            feed = core.list_articles()
            if feed["updatedAt"] is None:
                print("No articles cached yet.")
                return 0 if online else 1
            if not online:
                print(f"Showing the articles cached at {feed['updatedAt']}")
            for article in feed["articles"]:
                print("─" * WIDTH)
                print(render(article))
            print("─" * WIDTH)
            print(f"{len(feed['articles'])} article{'' if len(feed['articles']) == 1 else 's'}")
    except CarfitError as exc:
        print(f"articles.py: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
