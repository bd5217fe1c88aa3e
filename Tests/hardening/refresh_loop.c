/*
 * refresh_loop.c — every refresh, many times over, against the loopback fixture server
 * (Tests/servers/http_fixture.py), for valgrind's memcheck: each round refreshes the visits,
 * articles and catalog (a 200 the first time, then 304s, or a failure: a refused connection,
 * a 500, a redirect loop, a body cut off at the limit), the patterns, and reads
 * sources.status. Every response is freed and the core closed; valgrind must find nothing
 * definitely or indirectly lost.
 *
 *   refresh_loop http://127.0.0.1:PORT [REFRESHES]    (100 by default)
 *
 * Exits 0 when every call answered as expected.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carfit.h"

typedef int (*operation)(carfit_core *, const char *, char **);

static int expect(carfit_core *core, operation op, const char *request, int status, const char *needle)
{
    char *response = NULL;
    int got = op(core, request, &response);
    int ok = got == status && response != NULL && (needle == NULL || strstr(response, needle) != NULL);
    if (!ok)
        fprintf(stderr, "refresh_loop: status %d (wanted %d): %s\n", got, status, response ? response : "(null)");
    carfit_free(response);
    return ok;
}

int main(int argc, char **argv)
{
    const char *base = argc > 1 ? argv[1] : NULL;
    int refreshes = argc > 2 ? atoi(argv[2]) : 100, done = 0, failures = 0;
    char config[2048], *response = NULL;
    carfit_core *core = NULL;

    if (base == NULL || refreshes < 1 || strlen(base) > 200) {
        fprintf(stderr, "usage: refresh_loop http://127.0.0.1:PORT [REFRESHES]\n");
        return 2;
    }
    snprintf(config, sizeof config,
             "{\"now\": \"2020-09-10T07:00:00Z\", \"http\": {\"maxBodyBytes\": 1048576},"
             " \"sources\": {\"visits\": \"%s/data/carfit.json\", \"articles\": \"%s/data/articles.json\","
             " \"catalog\": \"%s/data/catalog.json\", \"patterns\": \"%s/data/patterns.json\"}}",
             base, base, base, base);
    if (carfit_open(config, &core, &response) != CARFIT_OK) {
        fprintf(stderr, "refresh_loop: carfit_open: %s\n", response ? response : "(null)");
        carfit_free(response);
        return 1;
    }
    carfit_free(response);

    /* Sources that fail, each with its reason, on a second core. */
    char failing[2048];
    carfit_core *broken = NULL;
    snprintf(failing, sizeof failing,
             "{\"now\": \"2020-09-10T07:00:00Z\", \"http\": {\"maxBodyBytes\": 1048576},"
             " \"sources\": {\"visits\": \"http://127.0.0.1:1/visits\", \"articles\": \"%s/status/500\","
             " \"catalog\": \"%s/loop\", \"patterns\": \"%s/endless\"}}",
             base, base, base);
    if (carfit_open(failing, &broken, &response) != CARFIT_OK) {
        fprintf(stderr, "refresh_loop: carfit_open: %s\n", response ? response : "(null)");
        carfit_free(response);
        carfit_close(core);
        return 1;
    }
    carfit_free(response);

    while (done < refreshes) {
        int first = done == 0;
        failures += !expect(core, carfit_visits_refresh, NULL, CARFIT_OK, first ? "\"imported\":7" : "notModified");
        failures += !expect(core, carfit_articles_refresh, NULL, CARFIT_OK, first ? "\"imported\":9" : "notModified");
        failures += !expect(core, carfit_catalog_refresh, NULL, CARFIT_OK, first ? "\"imported\"" : "notModified");
        failures += !expect(core, carfit_patterns_refresh, "{\"count\": 2}", CARFIT_OK, "\"failed\":0");
        failures += !expect(broken, carfit_visits_refresh, NULL, CARFIT_UNAVAILABLE, "refused");
        failures += !expect(broken, carfit_articles_refresh, NULL, CARFIT_UNAVAILABLE, "http_status");
        failures += !expect(broken, carfit_catalog_refresh, NULL, CARFIT_UNAVAILABLE, "redirects");
        failures += !expect(broken, carfit_patterns_refresh, "{\"count\": 1}", CARFIT_UNAVAILABLE, "too_large");
        failures += !expect(broken, carfit_sources_status, NULL, CARFIT_OK, "\"offline\":true");
        failures += !expect(core, carfit_sources_status, NULL, CARFIT_OK, "\"offline\":false");
        done += 8;
    }
    carfit_close(broken);
    carfit_close(core);
    printf("%d refreshes, %d unexpected answers\n", done, failures);
    return failures == 0 ? 0 : 1;
}
