/*
 * plan.c — the washer's day plan: in which order to drive the day's open visits, when the
 * washer gets to each, and how much shorter that is than driving them in start-time order.
 *
 *   make && ./bin/plan                                   the sample on 2020-09-10
 *   ./bin/plan examples/data/carfit.json --date 2020-09-10 --start 55.77,12.52 --at 07:30
 *   ./bin/plan visits.json --tz UTC --date 2020-09-03 --employee ID --speed 25 --detour 1.4
 *
 * Options: [data.json] --date YYYY-MM-DD --tz ZONE --employee ID --start LAT,LON --at HH:MM
 *          --speed KMH --detour FACTOR
 *
 * Every call's status is checked; on failure the error document is printed. Every response
 * is freed with carfit_free, every jansson value released, the core closed.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "example.h"

/* Print UTF-8 text padded with spaces to `width` columns (one column per code point). */
static void print_padded(const char *text, size_t width)
{
    size_t columns = 0;
    for (const char *c = text; *c; c++)
        if (((unsigned char)*c & 0xC0) != 0x80)
            columns++;
    printf("%s%*s", text, columns < width ? (int)(width - columns) : 0, "");
}

static long long int_of(json_t *object, const char *key)
{
    return (long long)json_integer_value(json_object_get(object, key));
}

/* Run one operation with a request object (taken over and released here). On success store
 * the parsed result in *result (release with json_decref) and return CARFIT_OK; on failure
 * print the error document and return the status. */
static int run(carfit_core *core, const char *what,
               int (*op)(carfit_core *, const char *, char **), json_t *request, json_t **result)
{
    char *text = request != NULL ? json_dumps(request, JSON_COMPACT) : NULL;
    char *response = NULL;
    int status;
    json_error_t error;

    json_decref(request);
    *result = NULL;
    if (text == NULL) {
        fprintf(stderr, "plan: %s: out of memory\n", what);
        return CARFIT_INTERNAL;
    }
    status = op(core, text, &response);
    free(text);
    if (status != CARFIT_OK) {
        fprintf(stderr, "plan: %s failed: %s\n%s\n", what, carfit_status_name(status),
                response != NULL ? response : "(no response)");
        carfit_free(response);
        return status;
    }
    *result = response != NULL ? json_loads(response, 0, &error) : NULL;
    carfit_free(response);
    return *result != NULL ? CARFIT_OK : CARFIT_INTERNAL;
}

static void usage(void)
{
    fprintf(stderr, "usage: plan [data.json] [--date YYYY-MM-DD] [--tz ZONE] [--employee ID]\n"
                    "            [--start LAT,LON] [--at HH:MM] [--speed KMH] [--detour FACTOR]\n");
}

int main(int argc, char **argv)
{
    const char *data = sample_path("carfit.json"), *date = "2020-09-10";
    const char *tz = "Europe/Copenhagen", *employee = NULL, *start = NULL, *at = NULL;
    double speed = 0, detour = 0;
    json_t *request, *result = NULL, *stop, *skipped;
    carfit_core *core = NULL;
    char *document, *response = NULL;
    size_t i;
    int status;

    for (int k = 1; k < argc; k++) {
        const char *value = k + 1 < argc ? argv[k + 1] : NULL;
        if (argv[k][0] != '-') {
            data = argv[k];
            continue;
        }
        if (value == NULL) {
            usage();
            return 2;
        }
        if (strcmp(argv[k], "--date") == 0) date = value;
        else if (strcmp(argv[k], "--tz") == 0) tz = value;
        else if (strcmp(argv[k], "--employee") == 0) employee = value;
        else if (strcmp(argv[k], "--start") == 0) start = value;
        else if (strcmp(argv[k], "--at") == 0) at = value;
        else if (strcmp(argv[k], "--speed") == 0) speed = atof(value);
        else if (strcmp(argv[k], "--detour") == 0) detour = atof(value);
        else {
            usage();
            return 2;
        }
        k++;
    }

    if ((document = read_file(data)) == NULL) {
        fprintf(stderr, "plan: cannot read %s\n", data);
        return 2;
    }
    request = json_pack("{s:s}", "timeZone", tz);
    {
        char *config = json_dumps(request, JSON_COMPACT);
        json_decref(request);
        status = carfit_open(config, &core, &response);
        free(config);
    }
    if (status != CARFIT_OK) {
        fprintf(stderr, "plan: open failed: %s\n", response != NULL ? response : "(no response)");
        carfit_free(response);
        free(document);
        return 1;
    }
    carfit_free(response);

    status = carfit_visits_import(core, document, &response);
    free(document);
    if (status != CARFIT_OK) {
        fprintf(stderr, "plan: import failed: %s\n", response != NULL ? response : "(no response)");
        carfit_free(response);
        carfit_close(core);
        return 1;
    }
    carfit_free(response);

    request = json_pack("{s:s}", "date", date);
    if (employee != NULL) json_object_set_new(request, "employeeId", json_string(employee));
    if (start != NULL) {
        double latitude, longitude;
        if (sscanf(start, "%lf,%lf", &latitude, &longitude) != 2) {
            fprintf(stderr, "plan: --start wants LAT,LON\n");
            json_decref(request);
            carfit_close(core);
            return 2;
        }
        json_object_set_new(request, "start", json_pack("{s:f,s:f}", "latitude", latitude, "longitude", longitude));
    }
    if (at != NULL) json_object_set_new(request, "startTime", json_string(at));
    if (speed != 0) json_object_set_new(request, "speedKmh", json_real(speed));
    if (detour != 0) json_object_set_new(request, "detourFactor", json_real(detour));

    status = run(core, "visits.plan", carfit_visits_plan, request, &result);
    if (status == CARFIT_OK) {
        json_t *stops = json_object_get(result, "stops");
        long long planned = int_of(result, "distanceMeters");
        long long original = int_of(result, "originalDistanceMeters");

        printf("Plan for %s, setting out %s\n\n", str_or(result, "date", "?"), str_or(result, "startTime", "-"));
        if (json_array_size(stops) == 0)
            printf("  Nothing to drive to.\n");
        json_array_foreach(stops, i, stop) {
            const char *window = str_or(stop, "window", NULL);
            printf("%3zu  %s-%s  ", i + 1, str_or(stop, "arrival", "?"), str_or(stop, "departure", "?"));
            print_padded(str_or(stop, "name", "(no name)"), 24);
            printf(" %5.1f km", (double)int_of(stop, "distanceMeters") / 1000);
            if (window != NULL) printf("  window %s", window);
            if (int_of(stop, "waitMinutes") > 0) printf("  waits %lld min", int_of(stop, "waitMinutes"));
            if (int_of(stop, "lateMinutes") > 0) printf("  LATE %lld min", int_of(stop, "lateMinutes"));
            printf("\n");
        }
        printf("\nDriving %.1f km; in start-time order %.1f km: %.1f km saved.\n",
               (double)planned / 1000, (double)original / 1000, (double)(original - planned) / 1000);
        printf("Late stops: %lld (start-time order: %lld).\n",
               int_of(result, "lateStops"), int_of(result, "originalLateStops"));
        json_array_foreach(json_object_get(result, "skipped"), i, skipped)
            printf("Not planned: %s (%s)\n", str_or(skipped, "name", "(no name)"), str_or(skipped, "reason", "?"));
        json_decref(result);
    }
    carfit_close(core);
    return status == CARFIT_OK ? 0 : 1;
}
