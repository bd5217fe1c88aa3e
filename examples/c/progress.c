/*
 * progress.c — a progress bar for a long import, the way a UI does it: one thread imports a
 * large visits document while the "UI" thread waits for the core's events and draws what they
 * say. No callback comes from the library: the UI thread asks (carfit_events_wait), and the
 * wait holds up no other call on the core.
 *
 *   make && ./bin/progress              a generated document of about 2 MiB
 *   ./bin/progress 20                   about 20 MiB
 *
 * Every call's status is checked; on failure the error document is printed. Every response
 * is freed with carfit_free, every jansson value released, the core closed.
 */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "example.h"

#define BAR 40 /* characters of the bar */

/* What the import thread shares with the UI thread. */
struct import {
    carfit_core *core;
    char *document;
    int status;
    char *response;
    pthread_mutex_t lock;
    int finished;
};

/* A visits document of at least `bytes` bytes: records of a made-up day in September 2020. */
static char *generate(size_t bytes) {
    size_t capacity = bytes + 4096, length = 0;
    char *text = malloc(capacity);
    if (!text) return NULL;
    length += (size_t)snprintf(text, capacity, "{\"success\": true, \"data\": [");
    for (unsigned i = 0; length < bytes; i++) {
        char record[512];
        int n = snprintf(record, sizeof record,
                         "%s{\"visitId\": \"visit-%u\", \"homeBobEmployeeId\": \"washer-%u\", "
                         "\"startTimeUtc\": \"2020-09-%02uT%02u:%02u:00\", \"houseOwnerFirstName\": \"Ann\", "
                         "\"houseOwnerLastName\": \"Jensen\", \"houseOwnerAddress\": \"Akademivej %u\", "
                         "\"houseOwnerZip\": \"2800\", \"houseOwnerCity\": \"Kgs. Lyngby\", "
                         "\"houseOwnerLatitude\": 55.77883, \"houseOwnerLongitude\": 12.52124, "
                         "\"visitState\": \"ToDo\", \"expectedTime\": \"08:00/10:00\", \"tasks\": "
                         "[{\"title\": \"Pudsning indvendig\", \"timesInMinutes\": 25}]}",
                         i ? ", " : "", i, i % 7, 1 + i % 30, 6 + i % 12, i % 60, i % 200);
        if (n < 0 || length + (size_t)n + 64 > capacity) break;
        memcpy(text + length, record, (size_t)n);
        length += (size_t)n;
    }
    snprintf(text + length, capacity - length, "], \"code\": 200}");
    return text;
}

static void *run_import(void *argument) {
    struct import *job = argument;
    char *response = NULL;
    int status = carfit_visits_import(job->core, job->document, &response);
    pthread_mutex_lock(&job->lock);
    job->status = status;
    job->response = response;
    job->finished = 1;
    pthread_mutex_unlock(&job->lock);
    return NULL;
}

static int finished(struct import *job) {
    pthread_mutex_lock(&job->lock);
    int done = job->finished;
    pthread_mutex_unlock(&job->lock);
    return done;
}

/* Draws the bar on one line, redrawn in place. */
static void draw(long long done, long long total) {
    int filled = total > 0 ? (int)(done * BAR / total) : BAR;
    printf("\r[%.*s%*s] %3lld%%  %lld / %lld bytes", filled, "########################################",
           BAR - filled, "", total > 0 ? done * 100 / total : 100, done, total);
    fflush(stdout);
}

int main(int argc, char **argv) {
    size_t mebibytes = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 2;
    if (mebibytes < 1) mebibytes = 1;
    if (mebibytes > 512) mebibytes = 512;
    struct import job = {.status = -1};
    pthread_mutex_init(&job.lock, NULL);
    job.document = generate(mebibytes << 20);
    if (!job.document) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    job.core = open_or_exit("{\"now\": \"2020-09-10T07:00:00Z\", \"timeZone\": \"Europe/Copenhagen\"}");
    printf("importing %zu bytes\n", strlen(job.document));

    pthread_t importer;
    if (pthread_create(&importer, NULL, run_import, &job) != 0) {
        fprintf(stderr, "cannot start a thread\n");
        return 1;
    }

    /* The UI loop: wait for events after the last seen, draw them; stop once the import has
     * ended and a look finds nothing more. */
    long long after = 0, progress_events = 0;
    for (;;) {
        int ended = finished(&job);
        char request[64];
        snprintf(request, sizeof request, "{\"after\": %lld, \"timeoutMs\": %d}", after, ended ? 0 : 100);
        json_t *answer = call(job.core, "events.wait", request);
        json_t *events = json_object_get(answer, "events");
        size_t i;
        json_t *event;
        json_array_foreach(events, i, event) {
            const char *kind = text(event, "kind");
            if (strcmp(kind, "progress") == 0) {
                draw(integer(event, "done"), integer(event, "total"));
                progress_events++;
            } else if (strcmp(kind, "changed") == 0) {
                printf("\nchanged:");
                size_t j;
                json_t *area;
                json_array_foreach(json_object_get(event, "areas"), j, area) printf(" %s", json_string_value(area));
                printf("\n");
            } else if (strcmp(kind, "gap") == 0) {
                printf("\n(events were missed: read everything again)\n");
            }
        }
        after = integer(answer, "last");
        size_t count = json_array_size(events);
        json_decref(answer);
        if (ended && count == 0) break;
    }
    pthread_join(importer, NULL);
    printf("\n");

    int ok = job.status == CARFIT_OK;
    if (ok) {
        json_error_t error;
        json_t *result = json_loads(job.response, 0, &error);
        printf("imported %lld visits (%lld progress events)\n", integer(result, "imported"), progress_events);
        json_decref(result);
    } else {
        fprintf(stderr, "visits.import: %s %s\n", carfit_status_name(job.status), job.response ? job.response : "");
    }
    carfit_free(job.response);
    free(job.document);
    carfit_close(job.core);
    pthread_mutex_destroy(&job.lock);
    return ok && progress_events > 0 ? 0 : 1;
}
