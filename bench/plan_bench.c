/*
 * plan_bench — how long carfit_visits_plan takes on a generated day.
 *
 *   make -C bench && bench/plan_bench [stops=200] [runs=21] [windows=0|1] [start=0|1]
 *
 * Imports one day of `stops` open visits around Copenhagen (deterministic positions, 10-60
 * minutes of work each, windows on about half of them when windows=1), then times `runs`
 * calls of carfit_visits_plan (the whole call: request parsing, reading the visits, the
 * distance matrix, the search and the response) and prints wall-clock min / median / max and
 * the median process CPU time in ms (the CPU time is the steadier figure on a busy machine).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "carfit.h"
#include "timing.h"

static unsigned long long state = 88172645463325252ULL;

static double uniform(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (double)(state >> 11) / 9007199254740992.0;
}

/* The integer after "key": in a response, or -1. */
static long member(const char *json, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *p = strstr(json, pattern);
    return p ? strtol(p + strlen(pattern), NULL, 10) : -1;
}

int main(int argc, char **argv) {
    int stops = argc > 1 ? atoi(argv[1]) : 200;
    int runs = argc > 2 ? atoi(argv[2]) : 21;
    int windows = argc > 3 ? atoi(argv[3]) : 0;
    int start = argc > 4 ? atoi(argv[4]) : 0;
    if (stops < 0 || stops > 100000 || runs < 1 || runs > 10000) {
        fprintf(stderr, "usage: plan_bench [stops] [runs] [windows 0|1] [start 0|1]\n");
        return 2;
    }

    size_t cap = 256 + (size_t)stops * 300;
    char *doc = malloc(cap);
    if (!doc) return 1;
    size_t len = (size_t)snprintf(doc, cap, "{\"data\":[");
    for (int i = 0; i < stops; i++) {
        int minute = 7 * 60 + (i * 600) / (stops ? stops : 1); /* 07:00 .. 17:00, start order */
        char window[32] = "null";
        if (windows && uniform() < 0.5) {
            int h = minute / 60 - (uniform() < 0.5 ? 1 : 0);
            if (h < 7) h = 7;
            snprintf(window, sizeof window, "\"%02d:00/%02d:00\"", h, h + 2);
        }
        len += (size_t)snprintf(doc + len, cap - len,
            "%s{\"visitId\":\"v%d\",\"startTimeUtc\":\"2020-09-10T%02d:%02d:00Z\",\"visitState\":\"ToDo\","
            "\"houseOwnerFirstName\":\"Owner\",\"houseOwnerLastName\":\"%d\",\"expectedTime\":%s,"
            "\"houseOwnerLatitude\":%.6f,\"houseOwnerLongitude\":%.6f,"
            "\"tasks\":[{\"title\":\"Wash\",\"timesInMinutes\":%d}]}",
            i ? "," : "", i, minute / 60, minute % 60, i, window,
            55.6 + 0.2 * uniform(), 12.4 + 0.2 * uniform(), 10 + (int)(uniform() * 51));
    }
    len += (size_t)snprintf(doc + len, cap - len, "]}");

    carfit_core *core = NULL;
    char *response = NULL;
    if (carfit_open("{\"timeZone\":\"UTC\"}", &core, &response) != CARFIT_OK) {
        fprintf(stderr, "open: %s\n", response ? response : "?");
        return 1;
    }
    carfit_free(response);
    int status = carfit_visits_import(core, doc, &response);
    if (status != CARFIT_OK) {
        fprintf(stderr, "import: %s\n", response ? response : "?");
        return 1;
    }
    carfit_free(response);
    free(doc);

    const char *request = start
        ? "{\"date\":\"2020-09-10\",\"start\":{\"latitude\":55.7,\"longitude\":12.5},\"startTime\":\"06:30\"}"
        : "{\"date\":\"2020-09-10\"}";
    double *times = malloc(sizeof(double) * (size_t)runs);
    double *cpu = malloc(sizeof(double) * (size_t)runs);
    if (!times || !cpu) return 1;
    long distance = 0, original = 0, late = 0, original_late = 0;
    for (int r = 0; r < runs; r++) {
        double t0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
        status = carfit_visits_plan(core, request, &response);
        times[r] = clock_ms(CLOCK_MONOTONIC) - t0;
        cpu[r] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
        if (status != CARFIT_OK) {
            fprintf(stderr, "plan: %s\n", response ? response : "?");
            return 1;
        }
        /* The day's totals follow the stops array. */
        const char *totals = strstr(response, "],\"distanceMeters\"");
        if (totals) {
            distance = member(totals, "distanceMeters");
            original = member(totals, "originalDistanceMeters");
            late = member(totals, "lateStops");
            original_late = member(totals, "originalLateStops");
        }
        carfit_free(response);
    }
    qsort(times, (size_t)runs, sizeof(double), compare);
    qsort(cpu, (size_t)runs, sizeof(double), compare);
    printf("%d stops%s%s, %d runs: wall min %.1f / median %.1f / max %.1f ms, cpu median %.1f ms; "
           "%ld m planned vs %ld m in start-time order (%.1f%% shorter), late %ld vs %ld\n",
           stops, windows ? ", windows" : "", start ? ", start point" : "", runs,
           times[0], times[runs / 2], times[runs - 1], cpu[runs / 2], distance, original,
           original > 0 ? 100.0 * (double)(original - distance) / (double)original : 0.0, late, original_late);
    free(times);
    free(cpu);
    carfit_close(core);
    return 0;
}
