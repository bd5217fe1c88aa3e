#!/usr/bin/env python3
"""The washer's day plan: in which order to drive the day's open visits, when the washer gets
to each, and how much shorter that is than driving them in start-time order.

Usage (from any directory, after `make` at the repository root):

    python3 examples/python/plan.py                               # the sample on 2020-09-10
    python3 examples/python/plan.py --start 55.77,12.52 --at 07:30
    python3 examples/python/plan.py visits.json --tz UTC --date 2020-09-03 --employee ID

The order, the times and the distances come from libcarfit; this program only prints them.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Optional

from common.start import DATA, open_core, read_json, run
from carfit import CarfitError


DEFAULT_DATA = DATA / "carfit.json"


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Plan a CarFit washer's day from a visits document.")
    p.add_argument("data", nargs="?", default=str(DEFAULT_DATA),
                   help="visits API document (default: the bundled sample)")
    p.add_argument("--date", default="2020-09-10", help="the day to plan (default: %(default)s)")
    p.add_argument("--tz", default="Europe/Copenhagen",
                   help="IANA time zone of local days and times (default: %(default)s)")
    p.add_argument("--employee", help="plan only this employee's visits (homeBobEmployeeId)")
    p.add_argument("--start", metavar="LAT,LON", help="where the washer sets out")
    p.add_argument("--at", metavar="HH:MM", help="when the washer sets out (default: first visit)")
    p.add_argument("--speed", type=float, help="km/h (default 30)")
    p.add_argument("--detour", type=float, help="road length over straight length (default 1.3)")
    return p.parse_args(argv)


def render(plan: Dict[str, Any]) -> str:
    lines = [f"Plan for {plan['date']}, setting out {plan['startTime'] or '-'}", ""]
    if not plan["stops"]:
        lines.append("  Nothing to drive to.")
    for number, stop in enumerate(plan["stops"], 1):
        line = (f"{number:3}  {stop['arrival']}-{stop['departure']}  {stop['name'] or '(no name)':24}"
                f" {stop['distanceMeters'] / 1000:5.1f} km")
        if stop["window"]:
            line += f"  window {stop['window']}"
        if stop["waitMinutes"]:
            line += f"  waits {stop['waitMinutes']} min"
        if stop["lateMinutes"]:
            line += f"  LATE {stop['lateMinutes']} min"
        lines.append(line)
    planned, original = plan["distanceMeters"], plan["originalDistanceMeters"]
    lines.append("")
    lines.append(f"Driving {planned / 1000:.1f} km; in start-time order {original / 1000:.1f} km: "
                 f"{(original - planned) / 1000:.1f} km saved.")
    lines.append(f"Late stops: {plan['lateStops']} (start-time order: {plan['originalLateStops']}).")
    for skipped in plan["skipped"]:
        lines.append(f"Not planned: {skipped.get('name') or skipped['visitId']} ({skipped['reason']})")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    start = None
    if args.start:
        try:
            latitude, longitude = (float(x) for x in args.start.split(","))
        except ValueError:
            print("plan.py: --start wants LAT,LON", file=sys.stderr)
            return 2
        start = (latitude, longitude)
    document = read_json(args.data)

    try:
        with open_core({"timeZone": args.tz}) as core:
            core.import_visits(document)
            plan = core.plan_day(args.date, employee_id=args.employee, start=start,
                                 start_time=args.at, speed_kmh=args.speed, detour_factor=args.detour)
    except CarfitError as exc:
        print(f"plan.py: {exc}", file=sys.stderr)
        print(json.dumps(exc.response, ensure_ascii=False), file=sys.stderr)
        return 1
    print(render(plan))
    return 0


if __name__ == "__main__":
    run(main)
