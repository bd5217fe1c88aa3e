/*
 * stress_threads.c — THREADS threads × CALLS mixed calls on one core, then a consistency check.
 *
 *   stress_threads [sample-visits.json]
 *
 * Built by scripts/check-hardening three ways: against the release library, and with
 * -fsanitize=thread / -fsanitize=address against the sanitizer builds of the library, so
 * ThreadSanitizer watches the real library under real contention.
 *
 * Each thread mixes calendar.next / calendar.previous (counted), transactions.pin on its own
 * four transactions (last value remembered), visits.list, insights.get, transactions.list,
 * calendar.get and refused calls (bad JSON, unknown method, invalid member). Every call must
 * answer with the expected status and a response. Afterwards the displayed month must equal
 * the start month moved by the net navigation of all threads, and every transaction's pin the
 * last value its thread set; insights must count exactly the pinned ones.
 *
 * Exit status 0 when every check holds; prints "threads: T x C calls, ok".
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carfit.h"

#define THREADS 8
#define CALLS 1000
#define PINS 4 /* transactions per thread */

static carfit_core *core;
static atomic_int failures;
static atomic_long calls_made;

struct worker {
    int index;
    long nexts, previouses;
    int pinned[PINS];
};

static void complain(const char *what, const char *method, int status, const char *response) {
    atomic_fetch_add(&failures, 1);
    fprintf(stderr, "stress: %s: %s gave %d: %.200s\n", what, method, status, response ? response : "(null)");
}

/* One call; the status must be `want`, and a response must come back. */
static json_t *call(const char *method, const char *request, int want) {
    char *response = NULL;
    int status = carfit_call(core, method, request, &response);
    atomic_fetch_add(&calls_made, 1);
    if (status != want) complain("unexpected status", method, status, response);
    if (!response) complain("no response", method, status, NULL);
    json_t *doc = response ? json_loads(response, 0, NULL) : NULL;
    if (response && !json_is_object(doc)) complain("response is not a JSON object", method, status, response);
    carfit_free(response);
    return doc;
}

static void *run(void *arg) {
    struct worker *w = arg;
    char request[128];
    for (int i = 0; i < CALLS; i++) {
        json_t *doc = NULL;
        switch ((i * 7 + w->index) % 10) {
        case 0:
        case 5:
            doc = call("calendar.next", NULL, CARFIT_OK);
            w->nexts++;
            break;
        case 1:
            doc = call("calendar.previous", "", CARFIT_OK);
            w->previouses++;
            break;
        case 2:
        case 7: {
            int slot = (i / 10) % PINS;
            int pinned = ((i / 10) / PINS + w->index) % 2;
            snprintf(request, sizeof request, "{\"id\": %d, \"pinned\": %s}", w->index * PINS + slot + 1,
                     pinned ? "true" : "false");
            doc = call("transactions.pin", request, CARFIT_OK);
            w->pinned[slot] = pinned;
            break;
        }
        case 3:
            doc = call("visits.list", "{\"dates\": [\"2020-09-10\", \"2020-09-11\"]}", CARFIT_OK);
            break;
        case 4:
            doc = call("insights.get", NULL, CARFIT_OK);
            break;
        case 6:
            doc = call("transactions.list", "{\"category\": \"food\"}", CARFIT_OK);
            break;
        case 8:
            doc = call("calendar.get", NULL, CARFIT_OK);
            break;
        default:
            switch (i % 3) {
            case 0: doc = call("calendar.select", "{\"date\": ", CARFIT_BAD_JSON); break;
            case 1: doc = call("no.such_method", "{}", CARFIT_MISUSE); break;
            default: doc = call("transactions.pin", "{\"id\": 999999, \"pinned\": true}", CARFIT_NOT_FOUND); break;
            }
        }
        json_decref(doc);
    }
    return NULL;
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (text && fread(text, 1, (size_t)n, f) == (size_t)n) {
        text[n] = 0;
    } else {
        free(text);
        text = NULL;
    }
    fclose(f);
    return text;
}

int main(int argc, char **argv) {
    char *response = NULL;
    if (carfit_open("{\"now\": \"2020-09-10T07:00:00Z\", \"timeZone\": \"Europe/Copenhagen\"}", &core, &response)) {
        fprintf(stderr, "stress: carfit_open failed: %s\n", response ? response : "");
        return 1;
    }
    carfit_free(response);

    if (argc > 1) {
        char *sample = read_file(argv[1]);
        if (!sample) {
            fprintf(stderr, "stress: cannot read %s\n", argv[1]);
            return 1;
        }
        json_decref(call("visits.import", sample, CARFIT_OK));
        free(sample);
    }

    /* Each thread's transactions, pinned at first. */
    char import[THREADS * PINS * 96 + 64] = "{\"transactions\": [";
    for (int id = 1; id <= THREADS * PINS; id++) {
        char record[96];
        snprintf(record, sizeof record, "%s{\"id\": %d, \"category\": \"food\", \"amount\": \"1.25\", \"date\": \"2020-09-%02d\"}",
                 id > 1 ? ", " : "", id, 1 + id % 28);
        strcat(import, record);
    }
    strcat(import, "]}");
    json_decref(call("transactions.import", import, CARFIT_OK));

    struct worker workers[THREADS];
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++) {
        memset(&workers[t], 0, sizeof workers[t]);
        workers[t].index = t;
        for (int s = 0; s < PINS; s++) workers[t].pinned[s] = 1;
        if (pthread_create(&threads[t], NULL, run, &workers[t])) {
            perror("pthread_create");
            return 1;
        }
    }
    long net = 0;
    int expected_pinned = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        net += workers[t].nexts - workers[t].previouses;
        for (int s = 0; s < PINS; s++) expected_pinned += workers[t].pinned[s];
    }

    /* Navigation: September 2020 moved by `net` months. */
    long months = 2020L * 12 + (9 - 1) + net;
    json_t *month = call("calendar.get", NULL, CARFIT_OK);
    long year = (long)json_integer_value(json_object_get(month, "year"));
    long m = (long)json_integer_value(json_object_get(month, "month"));
    if (year != months / 12 || m != months % 12 + 1) {
        fprintf(stderr, "stress: displayed %ld-%02ld, expected %ld-%02ld after a net %+ld months\n", year, m,
                months / 12, months % 12 + 1, net);
        atomic_fetch_add(&failures, 1);
    }
    json_decref(month);

    /* Pins: each transaction as its thread last set it. */
    json_t *list = call("transactions.list", NULL, CARFIT_OK);
    json_t *rows = json_object_get(list, "transactions");
    size_t n = json_array_size(rows);
    if (n != THREADS * PINS) {
        fprintf(stderr, "stress: %zu transactions listed, expected %d\n", n, THREADS * PINS);
        atomic_fetch_add(&failures, 1);
    }
    for (size_t i = 0; i < n; i++) {
        json_t *row = json_array_get(rows, i);
        long id = (long)json_integer_value(json_object_get(row, "id"));
        int pinned = json_is_true(json_object_get(row, "pinned"));
        if (id < 1 || id > THREADS * PINS) continue;
        int want = workers[(id - 1) / PINS].pinned[(id - 1) % PINS];
        if (pinned != want) {
            fprintf(stderr, "stress: transaction %ld is %s, its thread last set %s\n", id, pinned ? "pinned" : "unpinned",
                    want ? "pinned" : "unpinned");
            atomic_fetch_add(&failures, 1);
        }
    }
    json_decref(list);

    json_t *insights = call("insights.get", NULL, CARFIT_OK);
    long counted = (long)json_integer_value(json_object_get(insights, "count"));
    double total = json_number_value(json_object_get(insights, "total"));
    if (counted != expected_pinned || total * 100 + 0.5 < expected_pinned * 125 || total * 100 - 0.5 > expected_pinned * 125) {
        fprintf(stderr, "stress: insights count %ld total %.2f, expected %d pinned totalling %.2f\n", counted, total,
                expected_pinned, expected_pinned * 1.25);
        atomic_fetch_add(&failures, 1);
    }
    json_decref(insights);

    carfit_close(core);
    if (atomic_load(&failures)) {
        fprintf(stderr, "stress: %d checks failed\n", atomic_load(&failures));
        return 1;
    }
    printf("threads: %d x %d calls (%ld in all), net navigation %+ld months, %d pinned: ok\n", THREADS, CALLS,
           atomic_load(&calls_made), net, expected_pinned);
    return 0;
}
