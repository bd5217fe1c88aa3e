/*
 * day_query — the day query of bench/run.py from C, for profiling the library alone.
 *
 *   make -C bench day_query
 *   bench/day_query DATABASE ROUNDS DAY [DAY ...]
 *   bench/day_query --rerender DATABASE ROUNDS DAY [DAY ...]
 *
 * Opens DATABASE (as bench/run.py's job leaves it: Europe/Copenhagen, the clock at
 * 2020-09-10T07:00:00Z), asks visits.list once for the first DAY (the statement cache warm), then
 * ROUNDS times asks each DAY in turn, each a whole carfit_call with its response freed, and
 * prints per round the median, the 99th percentile and the largest time in ms, and the minor
 * page faults of the round. Under `valgrind --tool=callgrind` its instruction counts are the
 * steady figure on a busy machine.
 *
 * With --rerender, each DAY is asked, one of its Todo cards is set to InProgress with
 * visits.set_state, and the day is asked again: only that last call is timed, and only it is
 * counted under `valgrind --tool=callgrind --collect-atstart=no` (the re-render a host does
 * after every change). The database is changed: use a copy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <jansson.h>
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_TOGGLE_COLLECT /* valgrind's headers are absent: nothing to toggle */
#endif

#include "carfit.h"
#include "timing.h"

static long minor_faults(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

/* Asks visits.list for `day`; 0 on success. */
static int ask(carfit_core *core, const char *day) {
    char request[64];
    snprintf(request, sizeof request, "{\"dates\":[\"%.10s\"]}", day);
    char *response = NULL;
    int status = carfit_call(core, "visits.list", request, &response);
    if (status != 0) fprintf(stderr, "day_query: %s: %s\n", day, response ? response : "(no response)");
    carfit_free(response);
    return status;
}

/* Sets a Todo card of `day` to InProgress; 1 when one was changed, 0 when the day has none,
 * -1 on failure. */
static int change_one(carfit_core *core, const char *day) {
    char request[64];
    snprintf(request, sizeof request, "{\"dates\":[\"%.10s\"]}", day);
    char *response = NULL;
    if (carfit_call(core, "visits.list", request, &response) != 0) {
        carfit_free(response);
        return -1;
    }
    json_t *list = json_loads(response, 0, NULL);
    carfit_free(response);
    json_t *cards = json_object_get(json_array_get(json_object_get(list, "days"), 0), "visits");
    const char *key = NULL;
    for (size_t i = 0; i < json_array_size(cards) && key == NULL; i++) {
        json_t *card = json_array_get(cards, i);
        const char *state = json_string_value(json_object_get(card, "state"));
        if (state != NULL && strcmp(state, "Todo") == 0) key = json_string_value(json_object_get(card, "key"));
    }
    int changed = 0;
    if (key != NULL) {
        json_t *change = json_pack("{s:s, s:s}", "key", key, "state", "InProgress");
        char *text = json_dumps(change, JSON_COMPACT);
        response = NULL;
        changed = carfit_call(core, "visits.set_state", text, &response) == 0 ? 1 : -1;
        if (changed < 0) fprintf(stderr, "day_query: set_state: %s\n", response ? response : "(no response)");
        carfit_free(response);
        free(text);
        json_decref(change);
    }
    json_decref(list);
    return changed;
}

int main(int argc, char **argv) {
    int rerender = argc > 1 && strcmp(argv[1], "--rerender") == 0;
    if (rerender) {
        argv++;
        argc--;
    }
    if (argc < 4) {
        fprintf(stderr, "usage: day_query [--rerender] DATABASE ROUNDS DAY [DAY ...]\n");
        return 2;
    }
    int rounds = atoi(argv[2]);
    int days = argc - 3;
    char config[4096];
    snprintf(config, sizeof config,
             "{\"now\":\"2020-09-10T07:00:00Z\",\"timeZone\":\"Europe/Copenhagen\",\"hour24\":true,\"database\":\"%s\"}",
             argv[1]);
    carfit_core *core = NULL;
    char *error = NULL;
    if (carfit_open(config, &core, &error) != 0) {
        fprintf(stderr, "day_query: %s\n", error ? error : "carfit_open failed");
        carfit_free(error);
        return 1;
    }
    double *times = malloc(sizeof *times * (size_t)days);
    int failed = times == NULL || ask(core, argv[3]) != 0;
    for (int r = 0; r < rounds && !failed; r++) {
        long faults = minor_faults();
        for (int i = 0; i < days && !failed; i++) {
            if (rerender) {
                /* The host shows the day, then one of its cards changes (neither counted). */
                failed = ask(core, argv[3 + i]) != 0 || change_one(core, argv[3 + i]) < 0;
                if (failed) break;
                /* A large allocation makes malloc merge the small blocks freed so far (jansson's
                 * above), which the next large one would otherwise do inside the counted call. */
                free(malloc(1 << 20));
                CALLGRIND_TOGGLE_COLLECT;
            }
            double started = clock_ms(CLOCK_MONOTONIC);
            failed = ask(core, argv[3 + i]) != 0;
            times[i] = clock_ms(CLOCK_MONOTONIC) - started;
            if (rerender) CALLGRIND_TOGGLE_COLLECT;
        }
        faults = minor_faults() - faults;
        if (failed) break;
        qsort(times, (size_t)days, sizeof *times, compare);
        int p99 = (int)(0.99 * days + 0.5) - 1;
        printf("round %d: median %.3f ms, p99 %.3f ms, max %.3f ms, %ld minor faults\n", r + 1, times[days / 2],
               times[p99 < 0 ? 0 : p99], times[days - 1], faults);
    }
    free(times);
    carfit_close(core);
    return failed ? 1 : 0;
}
