#!/usr/bin/env python3
"""The articles and catalog imports: where their time goes.

    python3 bench/documents.py                         # 50k articles, 100k products
    python3 bench/documents.py --articles 10000 --products 20000 --repeat 3
    python3 bench/documents.py --previous /tmp/base.so  # the same jobs with another build, A/B

Generates (once, into bench/data/) an articles API document ``{"status": "success",
"content": [...]}`` shaped like ``examples/data/articles.json`` and a wine.com catalog
``{"Status": ..., "Products": {"List": [...], "Offset", "Total"}}`` shaped like
``examples/data/catalog.json``. Each job runs in its own process (its peak RSS is its own):

- ``articles.import`` / ``catalog.import`` through the Python binding (``call_text`` with the
  file's bytes), on a database file;
- the plain-Python reference: ``json.loads``, the same validation, the rows inserted with
  ``sqlite3`` in one transaction;
- with ``--refresh``: ``articles.refresh`` / ``catalog.refresh`` of the same document served on
  127.0.0.1 (``bench/refresh.py``'s server), downloaded to a temporary file and imported;
- jansson alone: ``bench/data/jansson_parse FILE`` (``json_loadb`` of the whole document into
  one tree and freeing it), the tree the library builds today before any record is read.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
DATA = BENCH / "data"

sys.path.insert(0, str(BENCH))
from refresh import FileServer  # noqa: E402

CONFIG = {"now": "2020-09-10T07:00:00Z", "timeZone": "Europe/Copenhagen", "hour24": True}

WORDS = ("audi quattro comfort drive engine space light power style road city winter summer "
         "service wash polish interior leather wheel glass shine clean premium care fast").split()
VARIETALS = [("Cabernet Sauvignon", "Red Wines"), ("Chardonnay", "White Wines"), ("Pinot Noir", "Red Wines"),
             ("Riesling", "White Wines"), ("Champagne", "Champagne & Sparkling"), ("Rosé", "Rosé Wine")]


def words(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def articles_document(n, seed=7):
    rng = random.Random(seed)
    content = []
    for i in range(n):
        day, month, year = rng.randint(1, 28), rng.randint(1, 12), rng.randint(2015, 2020)
        content.append({
            "id": 100000 + i if i % 10 else f"a-{i}",
            "title": words(rng, 6).capitalize() + ".",
            "dateTime": f"{day:02d}.{month:02d}.{year} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}",
            "tags": [] if i % 3 else [rng.choice(WORDS), rng.choice(WORDS)],
            "content": [{"type": "text", "subject": words(rng, 2),
                         "description": words(rng, 40)} for _ in range(1 + i % 2)],
            "ingress": words(rng, 15) if i % 7 else None,
            "image": f"https://www.example.no/sites/default/files/car_{i}.jpg",
            "created": 1511968425 + i,
            "changed": 1534311497 + i,
        })
    return {"status": "success", "content": content}


def catalog_document(n, seed=11):
    rng = random.Random(seed)
    products = []
    for i in range(n):
        varietal, kind = rng.choice(VARIETALS)
        price = rng.randint(500, 20000) / 100
        products.append({
            "Id": 100 + i,
            "Name": f"{words(rng, 2).title()} {varietal} {rng.randint(2000, 2021)}",
            "Url": f"http://www.wine.com/V6/product/{100 + i}",
            "Varietal": {"Id": VARIETALS.index((varietal, kind)), "Name": varietal,
                         "WineType": {"Id": 1 + len(kind) % 5, "Name": kind}},
            "PriceRetail": price if i % 5 else f"{price:.2f}",
            "PriceMin": price, "PriceMax": price,
            "Description": words(rng, 12) if i % 4 else "",
            "Labels": [{"Id": f"{100 + i}m", "Name": "thumbnail", "Url": f"http://cache.wine.com/labels/{100 + i}m.jpg"}],
        })
    return {"Status": {"Messages": [], "ReturnCode": 0},
            "Products": {"List": products, "Offset": 0, "Total": n}}


def data_file(kind, n):
    DATA.mkdir(exist_ok=True)
    path = DATA / f"{kind}-{n}.json"
    if not path.exists():
        doc = articles_document(n) if kind == "articles" else catalog_document(n)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.rename(path)
    return path


def jansson_program():
    out = DATA / "jansson_parse"
    source = BENCH / "jansson_parse.c"
    if not out.exists() or out.stat().st_mtime < source.stat().st_mtime:
        subprocess.run(["gcc", "-O2", "-o", str(out), str(source), "-ljansson"], check=True)
    return out


def peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- the jobs (each in its own process) ---------------------------------------------------

def job_library(kind, path, db):
    sys.path.insert(0, str(ROOT / "bindings" / "python"))
    import carfit  # noqa: E402
    size = os.path.getsize(path)
    with carfit.Core(CONFIG, database=db, maxRequestBytes=max(size + 1, 1 << 29)) as core:
        cpu0 = time.process_time()
        started = time.perf_counter()
        document = Path(path).read_bytes()
        answer = json.loads(core.call_text(f"{kind}.import", document))
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu0
    count = answer["imported"] if kind == "articles" else answer["imported"]
    return {"records": count, "rejected": len(answer["rejected"]), "seconds": seconds, "cpu": cpu,
            "peakRssMiB": peak_rss_mib()}


def job_refresh(kind, url, db):
    sys.path.insert(0, str(ROOT / "bindings" / "python"))
    import carfit  # noqa: E402
    with carfit.Core({**CONFIG, "sources": {kind: url}}, database=db) as core:
        cpu0 = time.process_time()
        started = time.perf_counter()
        answer = json.loads(core.call_text(f"{kind}.refresh", "{}"))
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu0
    return {"records": answer["imported"], "rejected": len(answer.get("rejected", [])), "seconds": seconds,
            "cpu": cpu, "peakRssMiB": peak_rss_mib()}


def parse_date(text):
    try:
        return datetime.strptime(text, "%d.%m.%Y %H:%M")
    except (TypeError, ValueError):
        return None


def cents(value):
    if isinstance(value, bool) or value is None:
        raise ValueError
    try:
        d = Decimal(str(value).strip())
    except InvalidOperation:
        raise ValueError
    c = d * 100
    if c != c.to_integral_value() or c < 0:
        raise ValueError
    return int(c)


def text(record, key):
    v = record.get(key)
    if v is None:
        return None
    if not isinstance(v, str):
        raise ValueError
    v = v.strip()
    return v or None


def job_python(kind, path, db):
    cpu0 = time.process_time()
    started = time.perf_counter()
    doc = json.loads(Path(path).read_bytes())
    rows, rejected = [], []
    if kind == "articles":
        if doc.get("status", "success") != "success" or not isinstance(doc.get("content"), list):
            raise SystemExit("invalid")
        for i, r in enumerate(doc["content"]):
            try:
                if not isinstance(r, dict):
                    raise ValueError
                rid = r.get("id")
                if not (isinstance(rid, int) and not isinstance(rid, bool) or isinstance(rid, str) and rid):
                    raise ValueError
                if not isinstance(r.get("title"), str) or parse_date(r.get("dateTime")) is None:
                    raise ValueError
                blocks = r.get("content") or []
                if not isinstance(blocks, list):
                    raise ValueError
                for b in blocks:
                    if not isinstance(b, dict) or any(b.get(k) is not None and not isinstance(b.get(k), str)
                                                      for k in ("type", "subject", "description")):
                        raise ValueError
                tags = r.get("tags") or []
                if not isinstance(tags, list):
                    raise ValueError
                rows.append((str(rid), r["title"], r.get("ingress"), r.get("image"), r["dateTime"],
                             json.dumps(tags), json.dumps(blocks)))
            except ValueError:
                rejected.append(i)
        sql = "INSERT INTO articles VALUES (?,?,?,?,?,?,?)"
        schema = "CREATE TABLE articles (id TEXT PRIMARY KEY, title, ingress, image, published, tags, content)"
    else:
        records = doc["Products"]["List"]
        for i, r in enumerate(records):
            try:
                rid = r["Id"]
                name = text(r, "Name")
                if name is None:
                    raise ValueError
                labels = r.get("Labels") or []
                image = text(labels[0], "Url") if labels else None
                kind_name = text(((r.get("Varietal") or {}).get("WineType") or {}), "Name")
                rows.append((str(rid), name, kind_name, text(r, "Description"), image, cents(r["PriceRetail"])))
            except (ValueError, KeyError, TypeError, AttributeError):
                rejected.append(i)
        sql = "INSERT OR REPLACE INTO products VALUES (?,?,?,?,?,?)"
        schema = "CREATE TABLE products (id TEXT PRIMARY KEY, name, category, description, image, cents)"
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute(schema)
    with con:
        con.executemany(sql, rows)
    con.close()
    seconds = time.perf_counter() - started
    return {"records": len(rows), "rejected": len(rejected), "seconds": seconds,
            "cpu": time.process_time() - cpu0, "peakRssMiB": peak_rss_mib()}


def run_job(args, env=None):
    out = subprocess.run([sys.executable, __file__, "--job", *args], capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise SystemExit(f"job {args} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def jansson_job(path):
    out = subprocess.run([str(jansson_program()), str(path)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def median(rows, key):
    return statistics.median(r[key] for r in rows)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--articles", type=int, default=50000)
    p.add_argument("--products", type=int, default=100000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--refresh", action="store_true",
                   help="also the refreshes: the document served over loopback, downloaded and imported")
    p.add_argument("--previous", help="another build of the library, measured alternately (A/B)")
    p.add_argument("--generate", nargs=2, metavar=("KIND", "N"), help=argparse.SUPPRESS)
    p.add_argument("--job", nargs=3, metavar=("WHO", "KIND", "FILE"), help=argparse.SUPPRESS)
    a = p.parse_args()

    if a.generate:
        data_file(a.generate[0], int(a.generate[1]))
        return
    if a.job:
        who, kind, path = a.job
        with tempfile.TemporaryDirectory(prefix="carfit-docbench-") as scratch:
            db = str(Path(scratch) / "db.sqlite")
            job = {"library": job_library, "refresh": job_refresh, "python": job_python}[who]
            result = job(kind, path, db)
        print(json.dumps(result))
        return

    current = os.environ.get("CARFIT_LIBRARY") or str(ROOT / ".build" / "release" / "libcarfit.so")
    libraries = [("library", current)] + ([("previous", a.previous)] if a.previous else [])
    lines = [f"{datetime.utcnow():%Y-%m-%d %H:%M} UTC; {os.cpu_count()} CPUs; load average "
             f"{os.getloadavg()[0]:.2f}; medians of {a.repeat}", ""]
    lines += ["| document | size | job | records | rejected | wall s | CPU s | peak RSS MiB |",
              "|---|---|---|---|---|---|---|---|"]
    for kind, n in (("articles", a.articles), ("catalog", a.products)):
        path = DATA / f"{kind}-{n}.json"
        if not path.exists():  # generated in a process of its own: the driver's RSS stays small
            subprocess.run([sys.executable, __file__, "--generate", kind, str(n)], check=True)
        size = f"{path.stat().st_size / 1e6:.0f} MB"
        results = {name: [] for name, _ in libraries}
        if a.refresh:
            results.update({"refresh-" + name: [] for name, _ in libraries})
            server = FileServer(path)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            url = f"http://127.0.0.1:{server.server_address[1]}/{kind}.json"
        results["python"], results["jansson"] = [], []
        for _ in range(a.repeat):
            for name, lib in libraries:
                env = {**os.environ, "CARFIT_LIBRARY": lib}
                results[name].append(run_job(["library", kind, str(path)], env=env))
                if a.refresh:
                    results["refresh-" + name].append(run_job(["refresh", kind, url], env=env))
            results["python"].append(run_job(["python", kind, str(path)]))
            results["jansson"].append(jansson_job(path))
        for name, rows in results.items():
            label = {"library": f"{kind}.import ({Path(current).name})", "previous": f"{kind}.import (previous: {a.previous})",
                     "refresh-library": f"{kind}.refresh over loopback ({Path(current).name})",
                     "refresh-previous": f"{kind}.refresh over loopback (previous: {a.previous})",
                     "python": "plain Python (json + validation + sqlite3)",
                     "jansson": "jansson alone: json_loadb tree + free"}[name]
            if name == "jansson":
                lines.append(f"| {kind} {n} | {size} | {label} |  |  | {median(rows, 'seconds'):.3f} |  | "
                             f"{median(rows, 'peakRssMiB'):.0f} |")
            else:
                lines.append(f"| {kind} {n} | {size} | {label} | {rows[0]['records']} | {rows[0]['rejected']} | "
                             f"{median(rows, 'seconds'):.3f} | {median(rows, 'cpu'):.3f} | {median(rows, 'peakRssMiB'):.0f} |")
    text = "\n".join(lines)
    print(text)


if __name__ == "__main__":
    main()
