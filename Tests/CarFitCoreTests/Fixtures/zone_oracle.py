"""Python's zoneinfo as the oracle of the library's time zone rules.

    zone_oracle.py DIRECTORY ZONE...

reads each zone from DIRECTORY (a zoneinfo tree) and prints one line per fact:
    offset ZONE SECOND OFFSET        the UTC offset (seconds) at a UTC instant
    next ZONE AFTER SECOND           the first instant after AFTER at which the offset changes
The instants: every transition found between 1850 and 2100 (and the seconds on either side),
years 1 and 9999, the years around 2037/2038, a far-future stretch the footer rule governs,
and pseudo-random instants over the years 1 to 9999.
"""
import random
import sys
import zoneinfo
from datetime import datetime, timedelta, timezone

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
FIRST = int((datetime(1, 1, 2, tzinfo=timezone.utc) - EPOCH).total_seconds())
LAST = int((datetime(9999, 12, 30, tzinfo=timezone.utc) - EPOCH).total_seconds())


def seconds(year, month=1, day=1):
    return int((datetime(year, month, day, tzinfo=timezone.utc) - EPOCH).total_seconds())


def main():
    directory, zones = sys.argv[1], sys.argv[2:]
    zoneinfo.reset_tzpath([directory])
    out = []
    for name in zones:
        zone = zoneinfo.ZoneInfo.no_cache(name)

        def offset(t):
            return int((EPOCH + timedelta(seconds=t)).astimezone(zone).utcoffset().total_seconds())

        def emit(t):
            if FIRST <= t <= LAST:
                out.append(f"offset {name} {t} {offset(t)}")

        # Transitions: a daily scan, each change narrowed to its second.
        transitions = []
        t, end = seconds(1850), seconds(2100)
        previous = offset(t)
        while t < end:
            nxt = t + 86_400
            current = offset(nxt)
            if current != previous:
                low, high = t, nxt  # offset(low) == previous, offset(high) != previous
                while high - low > 1:
                    mid = (low + high) // 2
                    if offset(mid) == previous:
                        low = mid
                    else:
                        high = mid
                transitions.append(high)
            previous, t = current, nxt
        for s in transitions:
            for d in (-3601, -1, 0, 1, 3600):
                emit(s + d)
        for a, b in zip(transitions, transitions[1:]):
            out.append(f"next {name} {a} {b}")
        # The far past and future, the 32-bit limit, and the footer's years.
        for t in [FIRST, FIRST + 43_200, seconds(1, 6, 1), seconds(100), seconds(1800, 7, 1), seconds(1900),
                  LAST, LAST - 43_200, seconds(9999, 6, 30), seconds(5000, 3, 1), seconds(2400, 2, 29)]:
            emit(t)
        for year in (2037, 2038, 2039, 2200, 2401, 9998):
            for month in range(1, 13):
                emit(seconds(year, month, 1))
                emit(seconds(year, month, 15) + 7_200)
        rng = random.Random(name)
        for _ in range(2000):
            emit(rng.randrange(FIRST, LAST))
    print("\n".join(out))


if __name__ == "__main__":
    main()
