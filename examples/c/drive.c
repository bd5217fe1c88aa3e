/*
 * drive.c — the washer on the road: replays a recorded drive through the sample day, reporting
 * each position to the core, and prints the arrivals and departures it decides and, every ten
 * minutes, the live arrival estimates for the rest of the day.
 *
 *   make && ./bin/drive                                  the bundled drive (examples/data/drive.json)
 *   ./bin/drive examples/data/carfit.json my-drive.json   another day and drive
 *
 * The drive is {"points": [{"latitude", "longitude", "accuracyMeters", "at"}, ...]}, oldest
 * first. The core runs in UTC, so its times are the drive's; "autoStart" starts a visit on
 * arrival, and the example marks it Done when the washer leaves (the card then suggests
 * "finish"). The core's clock is fixed at the drive's first instant, so the minutes a visit
 * took are not measured here. Runs offline. Every response is
 * freed with carfit_free, every jansson value released, the core closed.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "example.h"

/* The name of the card with `key` on the day `date`, copied into `out`. */
static void name_of(carfit_core *core, const char *date, const char *key, char *out, size_t size)
{
    char request[64];
    snprintf(request, sizeof request, "{\"dates\": [\"%s\"]}", date);
    json_t *list = call(core, "visits.list", request);
    json_t *cards = json_object_get(json_array_get(json_object_get(list, "days"), 0), "visits");
    size_t i;
    json_t *card;
    snprintf(out, size, "%s", key);
    json_array_foreach(cards, i, card) {
        if (strcmp(text(card, "key"), key) == 0) snprintf(out, size, "%s", text(card, "name"));
    }
    json_decref(list);
}

/* The suggestion on the card with `key` ("start", "finish" or "none"): a static string. */
static const char *suggestion_of(carfit_core *core, const char *date, const char *key)
{
    char request[64];
    snprintf(request, sizeof request, "{\"dates\": [\"%s\"]}", date);
    json_t *list = call(core, "visits.list", request);
    json_t *cards = json_object_get(json_array_get(json_object_get(list, "days"), 0), "visits");
    const char *answer = "none";
    size_t i;
    json_t *card;
    json_array_foreach(cards, i, card) {
        const char *suggestion = json_string_value(json_object_get(card, "suggestion"));
        if (strcmp(text(card, "key"), key) == 0 && suggestion != NULL)
            answer = strcmp(suggestion, "finish") == 0 ? "finish" : "start";
    }
    json_decref(list);
    return answer;
}

/* Prints the stops of today's plan in start-time order from the reported position at `hhmm`. */
static void print_estimates(carfit_core *core, const char *date, const char *hhmm)
{
    char request[128];
    snprintf(request, sizeof request, "{\"date\": \"%s\", \"keepOrder\": true, \"startTime\": \"%s\"}", date, hhmm);
    json_t *plan = call(core, "visits.plan", request);
    json_t *stops = json_object_get(plan, "stops");
    size_t i;
    json_t *stop;
    printf("%s  estimates:", hhmm);
    if (json_array_size(stops) == 0) printf(" no open visits left");
    json_array_foreach(stops, i, stop) {
        printf("%s %s at %s (%lld m)", i == 0 ? "" : ",", text(stop, "name"), text(stop, "arrival"),
               integer(stop, "distanceMeters"));
    }
    printf("\n");
    json_decref(plan);
}

int main(int argc, char **argv)
{
    char data[4096], drive_path[4096];
    /* sample_path answers a static buffer: each path is copied before the next is asked. */
    snprintf(data, sizeof data, "%s", argc > 1 ? argv[1] : sample_path("carfit.json"));
    snprintf(drive_path, sizeof drive_path, "%s", argc > 2 ? argv[2] : sample_path("drive.json"));
    json_error_t error;
    json_t *drive = json_load_file(drive_path, 0, &error);
    json_t *points = json_object_get(drive, "points");
    if (!json_is_array(points) || json_array_size(points) == 0) {
        fprintf(stderr, "drive: %s: no points (%s)\n", drive_path, drive ? "no points array" : error.text);
        json_decref(drive);
        return 1;
    }
    const char *first_at = text(json_array_get(points, 0), "at");
    char date[11] = "";
    char config[256];
    snprintf(date, sizeof date, "%.10s", first_at);
    snprintf(config, sizeof config,
             "{\"now\": \"%s\", \"timeZone\": \"UTC\", \"hour24\": true, \"road\": {\"autoStart\": true}}", first_at);
    carfit_core *core = open_or_exit(config);

    char *visits = read_file_or_exit(data);
    json_decref(call(core, "visits.import", visits));
    free(visits);

    /* Only Todo visits arrive. The sample day has a visit already InProgress (the washer's
     * start recorded by the planner): undone here, so that the drive starts it on arrival. */
    char list_request[64];
    snprintf(list_request, sizeof list_request, "{\"dates\": [\"%s\"]}", date);
    json_t *list = call(core, "visits.list", list_request);
    json_t *cards = json_object_get(json_array_get(json_object_get(list, "days"), 0), "visits");
    size_t c;
    json_t *card;
    json_array_foreach(cards, c, card) {
        if (strcmp(text(card, "state"), "InProgress") != 0) continue;
        json_t *undo = json_pack("{s:s,s:s}", "key", text(card, "key"), "state", "Todo");
        char *undo_text = json_dumps(undo, JSON_COMPACT);
        json_decref(undo);
        if (undo_text != NULL) json_decref(call(core, "visits.set_state", undo_text));
        free(undo_text);
        printf("%s: InProgress undone to Todo\n", text(card, "name"));
    }
    json_decref(list);

    size_t i, ignored = 0, stored = 0;
    json_t *point;
    printf("Replaying %zu positions of %s\n", json_array_size(points), date);
    json_array_foreach(points, i, point) {
        char *report = json_dumps(point, JSON_COMPACT);
        json_t *answer = call(core, "location.report", report);
        free(report);
        const char *at = text(point, "at");
        char hhmm[6];
        snprintf(hhmm, sizeof hhmm, "%.5s", strlen(at) >= 16 ? at + 11 : "00:00");
        if (number(point, "accuracyMeters") > 100) ignored++;
        if (json_is_true(json_object_get(answer, "stored"))) stored++;
        size_t j;
        json_t *key;
        char name[256];
        json_array_foreach(json_object_get(answer, "departed"), j, key) {
            name_of(core, date, json_string_value(key), name, sizeof name);
            printf("%s  left %s (suggestion: %s)", hhmm, name, suggestion_of(core, date, json_string_value(key)));
            json_t *done = json_pack("{s:s,s:s}", "key", json_string_value(key), "state", "Done");
            char *done_text = json_dumps(done, JSON_COMPACT);
            json_decref(done);
            char *response = NULL;
            if (done_text != NULL && carfit_visits_set_state(core, done_text, &response) == CARFIT_OK) printf(": marked Done");
            carfit_free(response);
            free(done_text);
            printf("\n");
        }
        json_array_foreach(json_object_get(answer, "arrived"), j, key) {
            name_of(core, date, json_string_value(key), name, sizeof name);
            printf("%s  arrived at %s (started on arrival)\n", hhmm, name);
        }
        json_decref(answer);
        if (i % 30 == 0) print_estimates(core, date, hhmm);
    }
    json_t *status = call(core, "location.status", "{}");
    json_t *trail = json_object_get(status, "trail");
    printf("%zu positions: %zu kept on the trail (%lld waiting for the planner), %zu too inaccurate to count\n",
           json_array_size(points), stored, integer(trail, "pending"), ignored);
    json_decref(status);
    json_decref(drive);
    carfit_close(core);
    return 0;
}
