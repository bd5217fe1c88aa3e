"""Child-process side of the hardening tests: one command per process, on one database file.

    worker.py pins <database> <first-id> <last-id> <rounds> <all-ids>
    worker.py snapshots <database> <tag> <size> <rounds> <sizes as JSON {tag: size}>
    worker.py cart <database> <pin> <product-id> <adds>
    worker.py import <database> <document.json>
    worker.py deep <database> <stack-kib>

With CARFIT_START_AT (a time.time() value) set, the command starts at that moment, after the
core is open: two workers started together then really run at the same time.
Prints its results as one JSON line on stdout; any unexpected error ends it with status 1 and
the error on stderr.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bindings" / "python"))

import carfit  # noqa: E402

CONFIG = {"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "hour24": True}


def snapshot(tag: str, size: int) -> dict:
    """`size` visits on 2020-09-10 whose ids all start with `tag`."""
    return {"data": [{"visitId": f"{tag}-{i}", "startTimeUtc": f"2020-09-10T{6 + i % 10:02d}:{i % 60:02d}:00Z",
                      "houseOwnerFirstName": tag, "houseOwnerLatitude": 55.7 + i / 1000,
                      "houseOwnerLongitude": 12.5} for i in range(size)]}


def pins(core: carfit.Core, first: int, last: int, rounds: int, every: int) -> dict:
    """Flips the pins of transactions first..last; every 7th round re-imports all of 1..every
    without "pinned", which must keep every pin, also those the other process is flipping at
    the same time. Returns the last value set per id."""
    ids = list(range(first, last + 1))
    final = {}
    for r in range(rounds):
        tid = ids[r % len(ids)]
        value = (r // len(ids)) % 2 == 1
        got = core.pin_transaction(tid, value)["transaction"]
        assert got["id"] == tid and got["pinned"] is value, got
        final[tid] = value
        if r % 7 == 0:
            records = [{"id": i, "category": "food", "amount": "2.50", "date": "2020-09-10"} for i in range(1, every + 1)]
            assert core.import_transactions({"transactions": records})["imported"] == every
    return {str(k): v for k, v in final.items()}


def snapshots(core: carfit.Core, tag: str, size: int, rounds: int, sizes: dict) -> dict:
    """Imports its snapshot and reads the day in between: every read must see one whole
    snapshot (the ids of one tag only, as many as that tag's snapshot has)."""
    seen: dict = {}
    for _ in range(rounds):
        answer = core.import_visits(snapshot(tag, size))
        assert (answer["imported"], answer["rejected"]) == (size, [])
        cards = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]
        tags = {c["visitId"].split("-")[0] for c in cards}
        assert len(tags) == 1, f"a read saw {len(cards)} visits of {sorted(tags)}"
        (seen_tag,) = tags
        assert len(cards) == sizes[seen_tag], f"a read saw {len(cards)} of the {sizes[seen_tag]} visits of {seen_tag}"
        seen[seen_tag] = seen.get(seen_tag, 0) + 1
    return {"seen": seen}


def cart(core: carfit.Core, pin: str, product: str, adds: int) -> dict:
    core.call("session.login", {"pin": pin})
    for _ in range(adds):
        core.call("cart.add", {"productId": product, "quantity": 1})
    return {"added": adds}


def import_document(core: carfit.Core, path: str) -> dict:
    text = Path(path).read_bytes()
    print("start", flush=True)
    result = core.call("visits.import", text)
    return {"imported": result["imported"], "rejected": len(result["rejected"])}


def deep(core: carfit.Core, stack_kib: int) -> dict:
    """Every method of the header with requests at the deepest nesting jansson reads (2048
    values, arrays and objects, at the top and inside "data"), called from a thread with a
    stack of `stack_kib` KiB."""
    import re
    import threading

    header = (ROOT / "include" / "carfit.h").read_text(encoding="utf-8")
    methods = sorted(set(re.findall(r'method "([a-z0-9_]+\.[a-z0-9_]+)"', header)))
    requests = [
        ('{"data": ' + "[" * 2047 + "]" * 2047 + "}").encode(),
        ('{"data": ' + "[" * 2046 + "1" + "]" * 2046 + "}").encode(),
        ('{"data": ' + '{"a": ' * 2046 + "1" + "}" * 2046 + "}").encode(),
        ('{"data": [' + '{"a": ' * 2045 + "1" + "}" * 2045 + "]}").encode(),
    ]
    statuses: dict = {}

    def run() -> None:
        for method in methods:
            for request in requests:
                try:
                    core.call(method, request)
                    status = 0
                except carfit.CarfitError as exc:
                    status = exc.status
                statuses[method] = sorted(set(statuses.get(method, [])) | {status})

    threading.stack_size(stack_kib * 1024)
    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return statuses


if __name__ == "__main__":
    command, database, *args = sys.argv[1:]
    with carfit.Core(CONFIG, database=database) as core:
        time.sleep(max(0.0, float(os.environ.get("CARFIT_START_AT", "0")) - time.time()))
        if command == "pins":
            out = pins(core, int(args[0]), int(args[1]), int(args[2]), int(args[3]))
        elif command == "snapshots":
            out = snapshots(core, args[0], int(args[1]), int(args[2]), json.loads(args[3]))
        elif command == "cart":
            out = cart(core, args[0], args[1], int(args[2]))
        elif command == "deep":
            out = deep(core, int(args[0]))
        elif command == "import":
            out = import_document(core, args[0])
        else:
            raise SystemExit(f"unknown command {command}")
    print(json.dumps(out), flush=True)
