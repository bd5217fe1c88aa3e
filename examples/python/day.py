#!/usr/bin/env python3
"""The washer's day, as the CarFit app shows it: a month calendar and the selected day's cards.

Usage (from any directory, after `make` at the repository root):

    python3 examples/python/day.py                       # the sample on 2020-09-10
    python3 examples/python/day.py --date 2020-09-11     # another day
    python3 examples/python/day.py --date 2020-09-10 --date 2020-09-11 --12h
    python3 examples/python/day.py path/to/visits.json --tz UTC --now 2020-09-30T06:00:00Z

Every rule (local days, times, distances, the calendar grid) comes from libcarfit; this
program only renders what the core answers.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from typing import Any, Dict, List, Optional

from common.start import DATA, open_core, read_json, run
from carfit import CarfitError

DEFAULT_DATA = DATA / "carfit.json"
WIDTH = 56
CELL = 6  # characters per calendar column


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Show a CarFit washer's day from a visits document.")
    p.add_argument("data", nargs="?", default=str(DEFAULT_DATA),
                   help="visits API document (default: the bundled sample)")
    p.add_argument("--now", default="2020-09-10T07:00:00Z",
                   help="the core's clock, an ISO 8601 instant (default: %(default)s)")
    p.add_argument("--tz", default="Europe/Copenhagen",
                   help="IANA time zone of local days and times (default: %(default)s)")
    p.add_argument("--date", action="append", default=[], metavar="YYYY-MM-DD",
                   help="select this day instead of today; repeat to select several")
    p.add_argument("--employee", help="show only this employee's visits (homeBobEmployeeId)")
    p.add_argument("--database", help="SQLite file to keep the visits in (default: in memory)")
    clock = p.add_mutually_exclusive_group()
    clock.add_argument("--12h", dest="hour24", action="store_false", default=None,
                       help="12-hour times (10:05 AM)")
    clock.add_argument("--24h", dest="hour24", action="store_true", help="24-hour times (10:05)")
    p.add_argument("--sunday", action="store_true", help="weeks start on Sunday")
    return p.parse_args(argv)


# -- rendering ------------------------------------------------------------------------------


def render_month(cal: Dict[str, Any]) -> str:
    """The month grid: title, weekday header, then each week as a row of days with a row of
    visit markers beneath (one dot per visit, like a phone calendar)."""
    lines = [cal["title"].center(CELL * 7).rstrip(), ""]
    lines.append("".join(name.rjust(CELL - 1) + " " for name in cal["weekdays"]).rstrip())

    cells: List[Optional[Dict[str, Any]]] = [None] * cal["leadingDays"] + list(cal["days"])
    while len(cells) % 7:
        cells.append(None)
    for week in range(0, len(cells), 7):
        days, marks = "", ""
        for entry in cells[week:week + 7]:
            if entry is None:
                days += " " * CELL
                marks += " " * CELL
                continue
            number = str(entry["day"])
            if entry["isSelected"]:
                number = f"[{number}]"
            else:
                number = f"{number} "
            if entry["isToday"]:
                number += "*"
            else:
                number += " "
            days += number.rjust(CELL)
            n = entry["visits"]
            dots = "•" * min(n, 3) + ("+" if n > 3 else "")
            marks += dots.rjust(CELL - 2) + "  "
        lines.append(days.rstrip())
        lines.append(marks.rstrip())
    lines.append("[d] selected   d* today   • a visit")
    return "\n".join(lines)


def pluralise(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def day_heading(date: str) -> str:
    day = datetime.date.fromisoformat(date)
    return f"{day:%A} {day.day} {day:%B} {day.year}"


def render_card(card: Dict[str, Any]) -> str:
    """One visit card: name and state, time and window, tasks, address and distance."""
    name = card["name"] or "(no name)"
    state = card["state"] or "No state"
    lines = [name.ljust(WIDTH - len(state) - 4) + f"[ {state} ]"]
    when = card["startTime"]
    if card["expectedTime"]:
        when += f"   expected {card['expectedTime']}"
    lines.append(f"  {when}")
    tasks = card["tasks"] or "No tasks"
    minutes = f"{card['taskMinutes']} min"
    lines.append(f"  {tasks}".ljust(WIDTH - len(minutes)) + minutes)
    distance = "" if card["distanceKm"] is None else f"{card['distanceKm']:.1f} km"
    address = card["address"] or "(no address)"
    lines.append((f"  {address}".ljust(WIDTH - len(distance)) + distance).rstrip())
    if card["phone"]:
        lines.append(f"  {card['phone']}")
    return "\n".join(lines)


def render_summary(summary: Dict[str, Any]) -> str:
    return (f"{pluralise(summary['visits'], 'visit')} · {summary['taskMinutes']} min of tasks · "
            f"{summary['distanceKm']:.1f} km between visits ({summary['distanceMeters']} m)")


def render_days(result: Dict[str, Any]) -> str:
    out: List[str] = []
    for day in result["days"]:
        out.append("")
        out.append(day_heading(day["date"]))
        out.append("─" * WIDTH)
        if not day["visits"]:
            out.append("No visits.")
        for card in day["visits"]:
            out.append(render_card(card))
            out.append("")
        out.append(render_summary(day["summary"]))
    if len(result["days"]) > 1:
        out.append("")
        out.append("All selected days: " + render_summary(result["summary"]))
    return "\n".join(out)


# -- main -----------------------------------------------------------------------------------


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    document = read_json(args.data)

    config: Dict[str, Any] = {"now": args.now, "timeZone": args.tz}
    if args.hour24 is not None:
        config["hour24"] = args.hour24
    if args.sunday:
        config["firstWeekday"] = "sunday"
    if args.database:
        config["database"] = args.database

    try:
        with open_core(config) as core:
            imported = core.import_visits(document)
            for rejected in imported["rejected"]:
                print(f"skipped record {rejected['index']}: {rejected['message']}", file=sys.stderr)
            for i, date in enumerate(args.date):
                core.select_day(date, mode="single" if i == 0 else "toggle")
            print(render_month(core.calendar()))
            print(render_days(core.list_visits(employee_id=args.employee)))
    except CarfitError as exc:
        print(f"day.py: {exc}", file=sys.stderr)
        print(json.dumps(exc.response, ensure_ascii=False), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    run(main)
