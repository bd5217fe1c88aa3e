#!/usr/bin/env python3
"""Proof of work on a visit, offline first: attach a photo of the finished car and a note for the
next washer, see them counted on the card, then push them to the upload server. While the van
is offline they stay pending (with the push's backoff) and nothing is lost.

Usage (from any directory, after `make` at the repository root):

    python3 examples/python/proof.py                  # offline: nothing answers, all stays pending
    python3 examples/python/proof.py http://127.0.0.1:8766/attachments
        # upload to a running server, e.g. python3 examples/servers/attachment_server.py --port 8766

The database, its attachments directory and the photo are temporary files, removed at the end.
"""

from __future__ import annotations

import sys
import tempfile
import zlib
from pathlib import Path

from common.start import DATA, open_core, run
from carfit import CarfitError, Core


def png(width: int, height: int) -> bytes:
    """A small grey PNG: the photo of the finished car, as far as this example is concerned."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (len(data).to_bytes(4, "big") + kind + data
                + zlib.crc32(kind + data).to_bytes(4, "big"))
    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 0, 0, 0, 0])
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def counts(core: Core, key: str) -> str:
    for card in core.list_visits(dates=["2020-09-10"])["days"][0]["visits"]:
        if card["key"] == key:
            c = card["attachments"]
            return (f"card {card['name']}: {c['photos']} photo(s), {c['signatures']} signature(s), "
                    f"{c['notes']} note(s), {c['pending']} waiting for upload")
    return f"no card {key}"


def main() -> int:
    # Port 9 (discard) refuses on loopback: the van is offline.
    upload = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:9/attachments"
    with tempfile.TemporaryDirectory() as work:
        photo = Path(work) / "after.png"
        photo.write_bytes(png(64, 48))
        config = {"now": "2020-09-10T09:40:00Z",
                  "timeZone": "Europe/Copenhagen", "hour24": True,
                  "sources": {"attachments": upload}, "http": {"timeoutMs": 2000}}
        with open_core(config, temporary_database=True) as core:
            core.import_visits_file(str(DATA / "carfit.json"))
            key = core.list_visits(dates=["2020-09-10"])["days"][0]["visits"][0]["key"]
            for attached in (core.attach(key, "photo", file=photo)["attachment"],
                             core.attach(key, "note", text="Gate code 1234; the dog is friendly.")["attachment"]):
                print(f"attached {attached['kind']}: {attached['contentType']}, {attached['bytes']} bytes, "
                      f"sha256 {attached['sha256'][:16]}...")
            photo.unlink()  # the core keeps its own copy
            print(counts(core, key))
            try:
                answer = core.push()
                print(f"pushed: {answer['attachments']['uploaded']} uploaded, "
                      f"{answer['attachments']['pending']} pending")
            except CarfitError as error:
                print(f"push: {error.code} ({error.document.get('reason')}): every attachment stays pending")
            print(counts(core, key))
            for item in core.attachments(key)["attachments"]:
                state = "uploaded" if item["uploaded"] else "pending"
                print(f"  {item['kind']:<5} {item['bytes']:>6} bytes  {state}")
    return 0


if __name__ == "__main__":
    run(main)
