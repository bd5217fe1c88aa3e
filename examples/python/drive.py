#!/usr/bin/env python3
"""The washer on the road: replays a recorded drive through the sample day, reporting each
position to the core, and prints the arrivals and departures the core decides and, every ten
minutes, the live arrival estimates for the rest of the day.

Usage (from any directory, after `make` at the repository root):

    python3 examples/python/drive.py                               # the bundled drive
    python3 examples/python/drive.py visits.json my-drive.json     # another day and drive

The drive is {"points": [{"latitude", "longitude", "accuracyMeters", "at"}, ...]}, oldest first.
The core runs in UTC with its clock at the drive's first instant; "autoStart" starts a visit on
arrival, and this program marks it Done when the washer leaves. Arrivals, departures and
estimates come from libcarfit; this program only prints them. Runs offline.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Dict

from common.start import DATA, open_core, read_json, run

def main() -> int:
    visits_path = Path(sys.argv[1]) if len(sys.argv) > 1 else DATA / "carfit.json"
    drive_path = Path(sys.argv[2]) if len(sys.argv) > 2 else DATA / "drive.json"
    points = read_json(drive_path)["points"]
    if not points:
        print(f"{drive_path}: no points", file=sys.stderr)
        return 1
    day = points[0]["at"][:10]
    with open_core({"now": points[0]["at"], "timeZone": "UTC", "hour24": True, "road": {"autoStart": True}}) as core:
        core.import_visits_file(str(visits_path))
        names: Dict[str, str] = {}
        for card in core.list_visits(dates=[day])["days"][0]["visits"]:
            names[card["key"]] = card["name"]
            # Only Todo visits arrive: a visit the planner already shows InProgress is undone,
            # so that the drive starts it on arrival.
            if card["state"] == "InProgress":
                core.set_visit_state(card["key"], "Todo")
                print(f"{card['name']}: InProgress undone to Todo")
        print(f"Replaying {len(points)} positions of {day}")
        next_estimate = -1  # minute of the day of the next estimate
        for point in points:
            answer = core.report_location(point["latitude"], point["longitude"], point["accuracyMeters"],
                                          at=point["at"])
            hhmm = point["at"][11:16]
            for key in answer["arrived"]:
                print(f"{hhmm}  arrived at {names.get(key, key)}")
            for key in answer["departed"]:
                core.set_visit_state(key, "Done")
                print(f"{hhmm}  left {names.get(key, key)}: marked Done")
            minute = int(hhmm[:2]) * 60 + int(hhmm[3:])
            if minute >= next_estimate:
                plan = core.plan_day(day, start_time=hhmm, keep_order=True)
                stops = ", ".join(f"{s['name']} at {s['arrival']}" for s in plan["stops"]) or "no open visits left"
                print(f"{hhmm}  estimates: {stops}")
                next_estimate = (minute // 10 + 1) * 10
        status = core.location_status()
        print(f"Trail: {status['trail']['stored']} points kept, {status['trail']['pending']} waiting for the planner")
    return 0


if __name__ == "__main__":
    run(main)
