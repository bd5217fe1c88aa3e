#!/usr/bin/env python3
"""The libcarfit benchmark: libcarfit from Python (a), a plain Python program (b) and jansson
alone (c), on the same generated visits, each measurement in its own fresh process.

    python3 bench/run.py                 # 10k, 100k and 300k visits; goals checked on 100k
    python3 bench/run.py --smoke         # 2k visits, no goals, a few seconds
    python3 bench/run.py --sizes 100000 --repeat 3
    python3 bench/run.py --sizes 100000 --million      # and 1,000,000 visits over ten years
    python3 bench/run.py --sizes 100000 --encryption   # and the same with an encryption key

Prints markdown tables and PASS/FAIL per goal, and writes them to bench/results.md (with
--smoke, to bench/data/results-smoke.md). See bench/README.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from zoneinfo import ZoneInfo

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
DATA = BENCH / "data"
ZONE = ZoneInfo("Europe/Copenhagen")

#: Generator arguments besides --visits (the issue's 100k data set: about 143 MB).
GENERATOR = ["--clients", "10000", "--days", "365", "--washers", "30", "--seed", "42"]
GOAL_SIZE = 100_000
QUERY_SEED = 8
#: The large data set of --million: ten times the visits over ten times the days, so the same
#: cards a day as the 100k set.
MILLION = 1_000_000
MILLION_GENERATOR = ["--clients", "10000", "--days", "3650", "--washers", "30", "--seed", "42"]
#: The key of the --encryption comparison (a fixed test key: nothing secret is stored).
BENCH_KEY = "5a" * 32


# -- running jobs -----------------------------------------------------------------------------

def library_path() -> Path:
    env = os.environ.get("CARFIT_LIBRARY")
    path = Path(env) if env else ROOT / ".build" / "release" / "libcarfit.so"
    if not path.is_file():
        sys.exit(f"libcarfit not found at {path}: build it with 'swift build -c release' "
                 f"or set CARFIT_LIBRARY to its full path")
    return path


def run_json(argv: list[str], env: dict | None = None) -> dict:
    """Runs one job in a fresh process and returns the JSON line it prints, with the CPU time
    (user + system) the process used in all, start-up included, as "cpuSeconds"."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, capture_output=True, text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(map(str, argv))} failed ({done.returncode}):\n{done.stderr}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["cpuSeconds"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return result


def build_jansson() -> Path:
    out = DATA / "jansson_parse"
    source = BENCH / "jansson_parse.c"
    if not out.exists() or out.stat().st_mtime < source.stat().st_mtime:
        subprocess.run(["gcc", "-O2", "-o", str(out), str(source), "-ljansson"], check=True)
    return out


def generate(visits: int, generator: list[str] = GENERATOR, name: str | None = None) -> Path:
    path = DATA / (name or f"visits-{visits}.json")
    if not path.exists():
        print(f"generating {visits} visits into {path.relative_to(ROOT)} ...", flush=True)
        partial = path.with_suffix(".partial")
        subprocess.run([sys.executable, str(BENCH / "gen_visits.py"), "--visits", str(visits),
                        *generator, "--out", str(partial)], check=True)
        partial.rename(path)
    return path


def pick_days(path: Path, count: int) -> list[str]:
    """`count` random local days (Europe/Copenhagen) that have visits, the same for (a) and (b).
    The file is read in pieces (the 1M-visit file is 1.4 GB)."""
    starts = set()
    pattern = re.compile(rb'"startTimeUtc":"([^"]+)"')
    with open(path, "rb") as f:
        tail = b""
        while True:
            piece = f.read(1 << 24)
            text = tail + piece
            # The last key of a piece may be cut: it is read with the next piece.
            cut = text.rfind(b'"startTimeUtc"') if piece else len(text)
            cut = len(text) if cut < 0 else cut
            starts.update(m.group(1) for m in pattern.finditer(text, 0, cut))
            tail = text[cut:]
            if not piece:
                break
    days = set()
    for start in starts:
        moment = dt.datetime.fromisoformat(start.decode())
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=dt.timezone.utc)
        days.add(moment.astimezone(ZONE).date().isoformat())
    ordered = sorted(days)
    rng = random.Random(QUERY_SEED)
    return rng.sample(ordered, count) if len(ordered) >= count else rng.choices(ordered, k=count)


def fresh(path: Path) -> str:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    return str(path)


def measure(size: int, days_count: int, jansson: Path, env: dict) -> dict:
    """One round at one size: every job once, each in its own process."""
    data = generate(size)
    days = pick_days(data, days_count)
    py = sys.executable
    carfit_db = fresh(DATA / f"carfit-{size}.sqlite")
    baseline_db = fresh(DATA / f"baseline-{size}.sqlite")
    loads = [os.getloadavg()[0]]
    result = {"bytes": data.stat().st_size}
    result["c"] = run_json([str(jansson), str(data)])
    loads.append(os.getloadavg()[0])
    result["b_ingest"] = run_json([py, str(BENCH / "baseline.py"), "ingest", str(data), baseline_db])
    loads.append(os.getloadavg()[0])
    result["a_ingest"] = run_json([py, str(BENCH / "carfit_job.py"), "ingest", str(data), carfit_db], env)
    loads.append(os.getloadavg()[0])
    # The same import on the calling thread alone (importThreads 0): what one core does.
    single_db = fresh(DATA / f"carfit-single-{size}.sqlite")
    result["a1_ingest"] = run_json([py, str(BENCH / "carfit_job.py"), "ingest", str(data), single_db, "0"], env)
    loads.append(os.getloadavg()[0])
    result["b_query"] = run_json([py, str(BENCH / "baseline.py"), "query", baseline_db, *days])
    loads.append(os.getloadavg()[0])
    result["a_query"] = run_json([py, str(BENCH / "carfit_job.py"), "query", carfit_db, *days], env)
    loads.append(os.getloadavg()[0])
    # The re-render after a change (these change the databases: last).
    result["b_rerender"] = run_json([py, str(BENCH / "baseline.py"), "rerender", baseline_db, *days])
    loads.append(os.getloadavg()[0])
    result["a_rerender"] = run_json([py, str(BENCH / "carfit_job.py"), "rerender", carfit_db, *days], env)
    loads.append(os.getloadavg()[0])
    result["load"] = loads
    return result


def rss_mib(job: dict) -> float:
    """How far `RssAnon` rose during an import job above its level before it, MiB."""
    return (job["rssAnonPeakKiB"] - job["rssAnonBeforeKiB"]) / 1024


def measure_million(days_count: int, env: dict) -> dict:
    """The 1M-visit data set (ten years) against the 100k one (one year), the same cards a day:
    each imported from its file (`{"file"}`) with `RssAnon` sampled, then the day query on each."""
    py = sys.executable
    out = {}
    for size, data in ((GOAL_SIZE, generate(GOAL_SIZE)),
                       (MILLION, generate(MILLION, MILLION_GENERATOR, f"visits-{MILLION}-3650d.json"))):
        db = fresh(DATA / f"carfit-file-{size}.sqlite")
        print(f"  {size:,} visits from the file ...", flush=True)
        ingest = run_json([py, str(BENCH / "carfit_job.py"), "ingest-file", str(data), db], env)
        query = run_json([py, str(BENCH / "carfit_job.py"), "day-query", db, *pick_days(data, days_count)], env)
        out[size] = {"ingest": ingest, "query": query, "bytes": data.stat().st_size}
    return out


def encryption_accepted(env: dict) -> str | None:
    """None when the library opens a database with `{"encryption": {"key"}}`, else why not."""
    import tempfile
    probe = ("import sys, json; sys.path.insert(0, sys.argv[1]); import carfit\n"
             "try:\n"
             "    carfit.Core({'encryption': {'key': sys.argv[3]}}, database=sys.argv[2]).close()\n"
             "except carfit.CarfitError as e:\n"
             "    print(json.dumps({'refused': str(e)}))\n"
             "else:\n"
             "    print(json.dumps({'refused': None}))\n")
    with tempfile.TemporaryDirectory(prefix="carfit-probe-") as scratch:
        done = subprocess.run([sys.executable, "-c", probe, str(ROOT / "bindings" / "python"),
                               str(Path(scratch) / "probe.sqlite"), BENCH_KEY],
                              capture_output=True, text=True, env=env)
    if done.returncode != 0:
        return f"the probe failed: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}"
    return json.loads(done.stdout.strip().splitlines()[-1])["refused"]


def measure_encryption(days_count: int, env: dict, rounds: int = 3) -> dict:
    """The 100k import from the file and the day query without and with a key, alternated."""
    py = sys.executable
    data = generate(GOAL_SIZE)
    days = pick_days(data, days_count)
    keyed = {**env, "CARFIT_BENCH_KEY": BENCH_KEY}
    out = {"plain": [], "keyed": []}
    for i in range(rounds):
        for name, job_env in (("plain", env), ("keyed", keyed)):
            db = fresh(DATA / f"carfit-{name}-{GOAL_SIZE}.sqlite")
            print(f"  encryption round {i + 1}/{rounds}: {name} ...", flush=True)
            ingest = run_json([py, str(BENCH / "carfit_job.py"), "ingest-file", str(data), db], job_env)
            query = run_json([py, str(BENCH / "carfit_job.py"), "day-query", db, *days], job_env)
            out[name].append({"ingest": ingest["seconds"], "query": median(query["raw"])})
    return out


# -- statistics -------------------------------------------------------------------------------

def median(values):
    return statistics.median(values) if values else None


def p99(values):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.99 * len(ordered)) - 1))]


def summarize(rounds: list[dict]) -> dict:
    """Medians over rounds for one-shot figures; pooled samples for per-call times."""
    def pooled(key, *path):
        out = []
        for r in rounds:
            value = r[key]
            for p in path:
                value = None if value is None else value.get(p)
            if value is None:
                return None
            out += value
        return out

    s = {"bytes": rounds[0]["bytes"],
         "visits": rounds[0]["a_ingest"]["visits"],
         "b_visits": rounds[0]["b_ingest"]["visits"],
         "c_visits": rounds[0]["c"]["visits"],
         "cards": rounds[0]["a_query"]["cards"],
         "b_cards": rounds[0]["b_query"]["cards"],
         "days": len(rounds[0]["a_query"]["raw"]),
         "load": [x for r in rounds for x in r["load"]]}
    for who, key in (("a", "a_ingest"), ("a1", "a1_ingest"), ("b", "b_ingest"), ("c", "c")):
        s[f"{who}_ingest"] = median([r[key]["seconds"] for r in rounds])
        s[f"{who}_cpu"] = median([r[key]["cpuSeconds"] for r in rounds])
        s[f"{who}_rss"] = median([r[key]["peakRssMiB"] for r in rounds])
    s["a_read"] = median([r["a_ingest"]["readSeconds"] for r in rounds])
    for name, values in (("a_raw", pooled("a_query", "raw")), ("a_decoded", pooled("a_query", "decoded")),
                         ("b_query", pooled("b_query", "times"))):
        s[f"{name}_median"], s[f"{name}_p99"] = median(values), p99(values)
    for name, values in (("a_rerender", pooled("a_rerender", "times")), ("b_rerender", pooled("b_rerender", "times"))):
        s[f"{name}_median"], s[f"{name}_p99"] = median(values), p99(values)
    s["rerender_changes"] = rounds[0]["a_rerender"]["changes"]
    s["calendar_cold"] = median([r["a_query"]["calendar"]["cold"] for r in rounds])
    for name, values in (("calendar_get", pooled("a_query", "calendar", "get")),
                         ("calendar_get_decoded", pooled("a_query", "calendar", "getDecoded")),
                         ("calendar_next", pooled("a_query", "calendar", "next")),
                         ("cart_get", pooled("a_query", "cart", "raw")),
                         ("cart_get_decoded", pooled("a_query", "cart", "decoded")),
                         ("floor", pooled("a_query", "floor"))):
        s[name] = median(values)
    return s


# -- formatting -------------------------------------------------------------------------------

def fmt(value, unit):
    if value is None:
        return "n/a"
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "ms":
        return f"{value * 1e3:.2f} ms"
    if unit == "us":
        return f"{value * 1e6:.1f} µs"
    if unit == "MiB":
        return f"{value:.0f} MiB"
    if unit == "rate":
        return f"{value:,.0f}/s"
    if unit == "MB/s":
        return f"{value:.1f} MB/s"
    return str(value)


def ratio(x, y, suffix="×"):
    if x is None or y is None or y == 0:
        return ""
    return f"{x / y:.2f}{suffix}"


def size_table(s: dict) -> str:
    mb = s["bytes"] / 1e6
    per_day = s["cards"] / max(1, s["days"])
    rows = [
        "| measure | (a) libcarfit via Python | (b) plain Python | (c) jansson alone | (b)/(a) | (a)/(c) |",
        "|---|---|---|---|---|---|",
        f"| ingest time | {fmt(s['a_ingest'], 's')} | {fmt(s['b_ingest'], 's')} | {fmt(s['c_ingest'], 's')} (parse only) "
        f"| {ratio(s['b_ingest'], s['a_ingest'])} | {ratio(s['a_ingest'], s['c_ingest'])} |",
        f"| ingest on the calling thread alone (importThreads 0) | {fmt(s['a1_ingest'], 's')} | | "
        f"| {ratio(s['b_ingest'], s['a1_ingest'])} | {ratio(s['a1_ingest'], s['c_ingest'])} |",
        f"| ingest process CPU time (user + sys, whole process) | {fmt(s['a_cpu'], 's')} | {fmt(s['b_cpu'], 's')} "
        f"| {fmt(s['c_cpu'], 's')} (read + parse + free) | {ratio(s['b_cpu'], s['a_cpu'])} | {ratio(s['a_cpu'], s['c_cpu'])} |",
        f"| ingest rate | {fmt(s['visits'] / s['a_ingest'], 'rate')} | {fmt(s['b_visits'] / s['b_ingest'], 'rate')} "
        f"| {fmt(s['c_visits'] / s['c_ingest'], 'rate')} | | |",
        f"| ingest throughput | {fmt(mb / s['a_ingest'], 'MB/s')} | {fmt(mb / s['b_ingest'], 'MB/s')} "
        f"| {fmt(mb / s['c_ingest'], 'MB/s')} | | |",
        f"| peak RSS of the ingest | {fmt(s['a_rss'], 'MiB')} | {fmt(s['b_rss'], 'MiB')} | {fmt(s['c_rss'], 'MiB')} "
        f"| {ratio(s['b_rss'], s['a_rss'])} | {ratio(s['a_rss'], s['c_rss'])} |",
        f"| day query median (text) | {fmt(s['a_raw_median'], 'ms')} | {fmt(s['b_query_median'], 'ms')} | "
        f"| {ratio(s['b_query_median'], s['a_raw_median'])} | |",
        f"| day query p99 (text) | {fmt(s['a_raw_p99'], 'ms')} | {fmt(s['b_query_p99'], 'ms')} | "
        f"| {ratio(s['b_query_p99'], s['a_raw_p99'])} | |",
        f"| day query right after a card of the day changed, median (text) | {fmt(s['a_rerender_median'], 'ms')} "
        f"| {fmt(s['b_rerender_median'], 'ms')} | | {ratio(s['b_rerender_median'], s['a_rerender_median'])} | |",
        f"| day query right after a card of the day changed, p99 (text) | {fmt(s['a_rerender_p99'], 'ms')} "
        f"| {fmt(s['b_rerender_p99'], 'ms')} | | {ratio(s['b_rerender_p99'], s['a_rerender_p99'])} | |",
        f"| day query median (decoded to dicts) | {fmt(s['a_decoded_median'], 'ms')} | | "
        f"| {ratio(s['b_query_median'], s['a_decoded_median'])} | |",
        f"| day query p99 (decoded to dicts) | {fmt(s['a_decoded_p99'], 'ms')} | | "
        f"| {ratio(s['b_query_p99'], s['a_decoded_p99'])} | |",
        f"| calendar.get median (text / decoded) | {fmt(s['calendar_get'], 'us')} / {fmt(s['calendar_get_decoded'], 'us')} | | | | |",
        f"| calendar.get first call (month counted) | {fmt(s['calendar_cold'], 'us')} | | | | |",
        f"| calendar.next/previous median (text) | {fmt(s['calendar_next'], 'us')} | | | | |",
        f"| cart.get median (text / decoded) | {fmt(s['cart_get'], 'us')} / {fmt(s['cart_get_decoded'], 'us')} | | | | |",
        f"| floor: carfit_call of no operation | {fmt(s['floor'], 'us')} | | | | |",
    ]
    notes = (f"{s['visits']:,} visits, {mb:.0f} MB; {s['days']} random days with visits "
             f"({per_day:.0f} cards a day on average; (b) built {s['b_cards']:,} cards, (a) {s['cards']:,}). "
             f"(a) ingest includes reading the file ({fmt(s['a_read'], 's')}); (c) times json_loadb only. "
             f"After a change: {s['rerender_changes']} days, each with one Todo card set to InProgress "
             f"((a) `visits.set_state`, (b) an UPDATE committed), not timed, then the day asked again.")
    return notes + "\n\n" + "\n".join(rows)


def scaling_table(summaries: dict[int, dict]) -> str:
    sizes = sorted(summaries)
    head = "| measure | " + " | ".join(f"{n:,} visits" for n in sizes) + " |"
    rows = [head, "|---|" + "---|" * len(sizes)]

    def line(label, fn):
        rows.append(f"| {label} | " + " | ".join(fn(summaries[n]) for n in sizes) + " |")

    line("(a) ingest", lambda s: f"{fmt(s['a_ingest'], 's')} ({s['a_ingest'] / s['visits'] * 1e6:.1f} µs/visit)")
    line("(b) ingest", lambda s: f"{fmt(s['b_ingest'], 's')} ({s['b_ingest'] / s['b_visits'] * 1e6:.1f} µs/visit)")
    line("(c) parse", lambda s: f"{fmt(s['c_ingest'], 's')} ({s['c_ingest'] / s['c_visits'] * 1e6:.1f} µs/visit)")
    line("(a) peak RSS / (b) peak RSS", lambda s: f"{fmt(s['a_rss'], 'MiB')} / {fmt(s['b_rss'], 'MiB')}")
    line("cards a day (average)", lambda s: f"{s['cards'] / max(1, s['days']):.0f}")
    line("(a) day query median (text)",
         lambda s: f"{fmt(s['a_raw_median'], 'ms')} ({s['a_raw_median'] / max(1, s['cards'] / s['days']) * 1e6:.2f} µs/card)")
    line("(b) day query median",
         lambda s: f"{fmt(s['b_query_median'], 'ms')} ({s['b_query_median'] / max(1, s['b_cards'] / s['days']) * 1e6:.2f} µs/card)")
    line("(a) calendar.get median", lambda s: fmt(s["calendar_get"], "us"))
    line("(a) cart.get median", lambda s: fmt(s["cart_get"], "us"))
    return "\n".join(rows)


def goals(s: dict) -> list[tuple[str, str, str]]:
    """(goal, measured, PASS/FAIL/n/a) on the goal size."""
    def check(ok):
        return "n/a" if ok is None else ("PASS" if ok else "FAIL")

    out = [
        ("ingest at least 3× faster than (b)", f"{s['b_ingest'] / s['a_ingest']:.2f}× faster",
         check(s["b_ingest"] >= 3 * s["a_ingest"])),
        ("ingest on the calling thread alone at least 2× faster than (b)", f"{s['b_ingest'] / s['a1_ingest']:.2f}× faster",
         check(s["b_ingest"] >= 2 * s["a1_ingest"])),
        ("ingest process CPU time at most half of (b)'s", f"{s['a_cpu']:.2f} vs {s['b_cpu']:.2f} s ({s['a_cpu'] / s['b_cpu']:.2f})",
         check(2 * s["a_cpu"] <= s["b_cpu"])),
        ("ingest no more than 1.5× the time of (c)", f"{s['a_ingest'] / s['c_ingest']:.2f}× (c)",
         check(s["a_ingest"] <= 1.5 * s["c_ingest"])),
        ("day query p99 at least 15× faster than (b) (text)", f"{s['b_query_p99'] / s['a_raw_p99']:.1f}× faster",
         check(s["b_query_p99"] >= 15 * s["a_raw_p99"])),
        ("day query median at least 20× faster than (b) (text)", f"{s['b_query_median'] / s['a_raw_median']:.1f}× faster",
         check(s["b_query_median"] >= 20 * s["a_raw_median"])),
        ("day query right after a change of that day at least 30× faster than (b)'s after its UPDATE (median, text)",
         f"{s['b_rerender_median'] / s['a_rerender_median']:.1f}× faster",
         check(s["b_rerender_median"] >= 30 * s["a_rerender_median"])),
        ("peak RSS of the ingest no more than (b)'s", f"{s['a_rss']:.0f} vs {s['b_rss']:.0f} MiB",
         check(s["a_rss"] <= s["b_rss"])),
        ("calendar.get under 20 µs median from Python (text)", fmt(s["calendar_get"], "us"),
         check(s["calendar_get"] < 20e-6)),
        ("calendar.next under 20 µs median from Python (text)", fmt(s["calendar_next"], "us"),
         check(s["calendar_next"] < 20e-6)),
        ("cart.get under 20 µs median from Python (text)", fmt(s["cart_get"], "us"),
         check(None if s["cart_get"] is None else s["cart_get"] < 20e-6)),
    ]
    return out


def million_section(m: dict) -> tuple[str, list]:
    """The --million table and its goals: per-visit import time and the day query at 1M against
    100k, and how far `RssAnon` rose during each import."""
    small, large = m[GOAL_SIZE], m[MILLION]
    per_visit = {n: m[n]["ingest"]["seconds"] / m[n]["ingest"]["visits"] for n in m}
    query = {n: median(m[n]["query"]["raw"]) for n in m}
    q99 = {n: p99(m[n]["query"]["raw"]) for n in m}
    rows = ["| measure | 100,000 visits (365 days) | 1,000,000 visits (3,650 days) | 1M / 100k |",
            "|---|---|---|---|",
            f"| import from the file (`{{\"file\"}}`) | {fmt(small['ingest']['seconds'], 's')} "
            f"| {fmt(large['ingest']['seconds'], 's')} | |",
            f"| import time per visit | {per_visit[GOAL_SIZE] * 1e6:.2f} µs | {per_visit[MILLION] * 1e6:.2f} µs "
            f"| {ratio(per_visit[MILLION], per_visit[GOAL_SIZE])} |",
            f"| `RssAnon` before the import | {small['ingest']['rssAnonBeforeKiB'] / 1024:.0f} MiB "
            f"| {large['ingest']['rssAnonBeforeKiB'] / 1024:.0f} MiB | |",
            f"| `RssAnon` rise during the import (largest sample above before; samples) "
            f"| {rss_mib(small['ingest']):.0f} MiB ({small['ingest']['rssSamples']}) "
            f"| {rss_mib(large['ingest']):.0f} MiB ({large['ingest']['rssSamples']}) | |",
            f"| peak RSS of the import | {fmt(small['ingest']['peakRssMiB'], 'MiB')} | {fmt(large['ingest']['peakRssMiB'], 'MiB')} | |",
            f"| day query median (text) | {fmt(query[GOAL_SIZE], 'ms')} | {fmt(query[MILLION], 'ms')} "
            f"| {ratio(query[MILLION], query[GOAL_SIZE])} |",
            f"| day query p99 (text) | {fmt(q99[GOAL_SIZE], 'ms')} | {fmt(q99[MILLION], 'ms')} "
            f"| {ratio(q99[MILLION], q99[GOAL_SIZE])} |",
            f"| cards a day (average) | {small['query']['cards'] / len(small['query']['raw']):.0f} "
            f"| {large['query']['cards'] / len(large['query']['raw']):.0f} | |"]
    verdict = [
        ("1M import's time per visit within 1.25× of the 100k import's", ratio(per_visit[MILLION], per_visit[GOAL_SIZE]),
         "PASS" if per_visit[MILLION] <= 1.25 * per_visit[GOAL_SIZE] else "FAIL"),
        ("day query at 1M within 1.25× of its time at 100k (median)", ratio(query[MILLION], query[GOAL_SIZE]),
         "PASS" if query[MILLION] <= 1.25 * query[GOAL_SIZE] else "FAIL"),
        ("`RssAnon` of the 1M import never more than 128 MiB above its level before it", f"{rss_mib(large['ingest']):.0f} MiB",
         "PASS" if rss_mib(large["ingest"]) <= 128 else "FAIL"),
    ]
    return "\n".join(rows), verdict


def encryption_section(e: dict) -> tuple[str, list]:
    """The --encryption table and its goals: each figure the median of its rounds."""
    figures = {name: {k: median([r[k] for r in rounds]) for k in ("ingest", "query")} for name, rounds in e.items()}
    plain, keyed = figures["plain"], figures["keyed"]
    rows = ["| measure (100k visits) | without a key | with a key | speed with / without |", "|---|---|---|---|",
            f"| import from the file | {fmt(plain['ingest'], 's')} | {fmt(keyed['ingest'], 's')} "
            f"| {ratio(plain['ingest'], keyed['ingest'])} |",
            f"| day query median (text) | {fmt(plain['query'], 'ms')} | {fmt(keyed['query'], 'ms')} "
            f"| {ratio(plain['query'], keyed['query'])} |"]
    verdict = [
        ("import with a key at least 0.8× as fast as without", ratio(plain["ingest"], keyed["ingest"]),
         "PASS" if plain["ingest"] >= 0.8 * keyed["ingest"] else "FAIL"),
        ("day query with a key at least 0.8× as fast as without", ratio(plain["query"], keyed["query"]),
         "PASS" if plain["query"] >= 0.8 * keyed["query"] else "FAIL"),
    ]
    return "\n".join(rows), verdict


def goals_table(rows) -> str:
    lines = ["| goal (100k visits) | measured | result |", "|---|---|---|"]
    lines += [f"| {g} | {m} | {r} |" for g, m, r in rows]
    return "\n".join(lines)


def machine() -> str:
    model = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = "unknown"
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                break
    except OSError:
        pass
    return (f"{os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), {model}, {memory} RAM; "
            f"{platform.system()} {platform.release()}; Python {platform.python_version()}")


# -- main -------------------------------------------------------------------------------------

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smoke", action="store_true", help="2k visits, 20 days, no goals (seconds)")
    ap.add_argument("--sizes", help="comma-separated visit counts (default 10000,100000,300000)")
    ap.add_argument("--repeat", type=int, default=1, help="rounds per size (default 1)")
    ap.add_argument("--days", type=int, help="random days per day-query measurement (default 100)")
    ap.add_argument("--output", help="markdown file to write (default bench/results.md)")
    ap.add_argument("--million", action="store_true",
                    help="also 1,000,000 visits over ten years imported from the file, with RssAnon sampled")
    ap.add_argument("--encryption", action="store_true",
                    help="also the 100k import and day query with an encryption key (when the library has one)")
    args = ap.parse_args()

    sizes = [2000] if args.smoke else [10_000, 100_000, 300_000]
    if args.sizes:
        sizes = [int(x.replace("_", "")) for x in args.sizes.split(",") if x.strip()]
    days = args.days or (20 if args.smoke else 100)
    output = Path(args.output) if args.output else (DATA / "results-smoke.md" if args.smoke else BENCH / "results.md")

    DATA.mkdir(exist_ok=True)
    env = {**os.environ, "CARFIT_LIBRARY": str(library_path())}
    if shutil.which("gcc") is None:
        sys.exit("gcc is needed to build bench/jansson_parse.c")
    jansson = build_jansson()

    started = time.time()
    load_before = os.getloadavg()
    summaries = {}
    for size in sizes:
        rounds = []
        for i in range(args.repeat):
            print(f"{size:,} visits, round {i + 1}/{args.repeat} (load {os.getloadavg()[0]:.2f}) ...", flush=True)
            rounds.append(measure(size, days, jansson, env))
        summaries[size] = summarize(rounds)
    extra, extra_goals = [], []
    if args.million:
        print(f"1,000,000 visits over ten years (load {os.getloadavg()[0]:.2f}) ...", flush=True)
        table, verdict = million_section(measure_million(days, env))
        extra.append(f"## 1,000,000 visits (ten years) against 100,000 (one year), imported from the file\n\n{table}\n")
        extra_goals += verdict
    if args.encryption:
        refused = encryption_accepted(env)
        if refused is None:
            print(f"with and without an encryption key (load {os.getloadavg()[0]:.2f}) ...", flush=True)
            table, verdict = encryption_section(measure_encryption(days, env))
            extra.append(f"## Encrypted at rest (100,000 visits, rounds alternated)\n\n{table}\n")
            extra_goals += verdict
        else:
            extra.append(f"## Encrypted at rest\n\nSkipped: this library does not open a database with an "
                         f"`encryption` key ({refused}).\n")
    load_after = os.getloadavg()

    loads = [x for s in summaries.values() for x in s["load"]]
    parts = [f"# libcarfit benchmark\n",
             f"- Date: {dt.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}",
             f"- Machine: {machine()}",
             f"- Library: {env['CARFIT_LIBRARY']}",
             f"- Command: `python3 bench/run.py {' '.join(sys.argv[1:])}`".rstrip(),
             f"- Load average (1 min) during the run: {min(loads):.2f} to {max(loads):.2f} "
             f"(before {load_before[0]:.2f} / {load_before[1]:.2f} / {load_before[2]:.2f}, "
             f"after {load_after[0]:.2f} / {load_after[1]:.2f} / {load_after[2]:.2f}); "
             f"{len(os.sched_getaffinity(0))} CPUs",
             f"- Rounds per size: {args.repeat}; {time.time() - started:.0f} s in all\n"]
    for size in sizes:
        parts.append(f"## {size:,} visits\n\n{size_table(summaries[size])}\n")
    if len(sizes) > 1:
        parts.append(f"## Scaling\n\n{scaling_table(summaries)}\n")
    parts += extra
    verdict = None
    if not args.smoke and (GOAL_SIZE in summaries or extra_goals):
        verdict = (goals(summaries[GOAL_SIZE]) if GOAL_SIZE in summaries else []) + extra_goals
        parts.append(f"## Goals\n\n{goals_table(verdict)}\n")
    text = "\n".join(parts)
    print()
    print(text)
    output.write_text(text)
    print(f"written to {output.relative_to(ROOT) if output.is_relative_to(ROOT) else output}")
    if verdict and any(r == "FAIL" for _, _, r in verdict):
        sys.exit(1)


if __name__ == "__main__":
    main()
