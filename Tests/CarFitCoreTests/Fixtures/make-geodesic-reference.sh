#!/bin/sh
# Regenerates geodesic-reference.txt, the reference data for GeodesicTests.swift.
#
# Each output line is "lat1 lon1 lat2 lon2 s12" (degrees, metres) where s12 is
# the WGS84 geodesic distance computed by GeographicLib's own GeodSolve
# (Debian/Ubuntu package geographiclib-tools).  The point pairs come from a
# fixed 32-bit linear congruential generator evaluated exactly in awk, so the
# inputs are the same on every run and every awk.
#
# Usage: sh make-geodesic-reference.sh > geodesic-reference.txt
set -eu

command -v GeodSolve >/dev/null 2>&1 || {
    echo "GeodSolve not found: apt-get install geographiclib-tools" >&2
    exit 1
}

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

awk 'BEGIN {
    seed = 20240601
    # Fixed points: equator, poles, meridians, coincident points.
    print "0 0 0 0"
    print "0 0 0 90"
    print "0 0 0 179"
    print "0 0 0 179.3"
    print "0 0 0 179.5"
    print "0 0 0 179.9"
    print "0 0 0 180"
    print "0 -180 0 180"
    print "0 -90 0 90"
    print "0 10 0 -170"
    print "0 45.5 0 -134.6"
    print "0 0 0.000001 179.999999"
    print "0 0 -0.5 179.7"
    print "90 0 -90 0"
    print "-90 0 90 0"
    print "90 0 90 0"
    print "90 10 90 170"
    print "-90 -45 -90 135"
    print "90 0 0 0"
    print "-90 0 0 0"
    print "90 0 0 123.456"
    print "-90 30 45 -120"
    print "90 -180 -89.999 0"
    print "89.9999 0 -89.9999 180"
    print "45 0 45 0"
    print "45 0 -45 0"
    print "45 0 -45 180"
    print "30 0 -30 180"
    print "-60 100 60 -80"
    print "10 0 -10 180"
    print "1 0 -1 180"
    print "0.001 0 -0.001 180"
    print "60 -180 -60 0"
    print "0 0 0 0.000001"
    print "55.676098 12.568337 55.676098 12.568337"
    # Classic hard cases from GeographicLib'"'"'s own regression tests.
    print "36.493349428792 0 36.49334942879201 0.0000008"
    print "88.202499451857 0 -88.202499451857 179.981022032992859592"
    print "89.262080389218 0 -89.262080389218 179.992207982775375662"
    print "89.333123580033 0 -89.333123580032997687 179.99295812360148422"
    print "56.320923501171 0 -56.320923501171 179.664747671772880215"
    print "52.784459512564 0 -52.784459512563990912 179.634407464943777557"
    print "48.522876735459 0 -48.52287673545898293 179.599720456223079643"
    print "5 0.00000000000001 10 180"
    print "54.1589 15.3872 54.1591 15.3877"
    print "-41.316666666666667 174.816666666666667 40.966666666666667 -5.5"
    print "27.2 0.0 -27.1 179.5"
    print "20.001 0 20.001 0"
    print "0 0 0.000001 0.000001"
    print "37.757540000000006 -122.47018 37.75754 -122.470177"
    for (i = 0; i < 25; i++) {
        # Equatorial pairs at assorted longitudes.
        printf "0 %.9f 0 %.9f\n", lon(), lon()
    }
    for (i = 0; i < 15; i++) {
        # One end at a pole.
        printf "%d %.9f %.9f %.9f\n", (i % 2 ? 90 : -90), lon(), lat(), lon()
    }
    for (i = 0; i < 400; i++) {
        # Worldwide pairs, uniform over the sphere.
        printf "%.9f %.9f %.9f %.9f\n", lat(), lon(), lat(), lon()
    }
    for (i = 0; i < 50; i++) {
        # Copenhagen box, kilometres apart.
        printf "%.9f %.9f %.9f %.9f\n", 55.6 + 0.3 * rnd(), 12.3 + 0.4 * rnd(), 55.6 + 0.3 * rnd(), 12.3 + 0.4 * rnd()
    }
    for (i = 0; i < 50; i++) {
        # Copenhagen box, centimetres to a few hundred metres apart.
        la = 55.6 + 0.3 * rnd(); lo = 12.3 + 0.4 * rnd()
        sc = 10 ^ (-7 + 5 * rnd())
        printf "%.9f %.9f %.9f %.9f\n", la, lo, la + sc * (2 * rnd() - 1), lo + sc * (2 * rnd() - 1)
    }
    for (i = 0; i < 50; i++) {
        # Nearly antipodal pairs (offsets from 1e-6 to 1 degree).
        la = lat(); lo = lon()
        dla = 10 ^ (-6 + 6 * rnd()) * (2 * rnd() - 1)
        dlo = 10 ^ (-6 + 6 * rnd()) * rnd()
        la2 = -la + dla
        if (la2 > 90) la2 = 90
        if (la2 < -90) la2 = -90
        lo2 = lo + 180 - dlo
        if (lo2 > 180) lo2 -= 360
        printf "%.9f %.9f %.9f %.9f\n", la, lo, la2, lo2
    }
}
function rnd() {
    seed = (1664525 * seed + 1013904223) % 4294967296
    return seed / 4294967296
}
function lon() { return 360 * rnd() - 180 }
function lat(   z) {
    z = 2 * rnd() - 1
    return atan2(z, sqrt(1 - z * z)) * 45 / atan2(1, 1)
}' > "$tmp"

# GeodSolve -i prints "azi1 azi2 s12"; keep s12 (micrometre resolution).
GeodSolve -i -p 6 < "$tmp" | awk '{ print $3 }' | paste -d ' ' "$tmp" -
