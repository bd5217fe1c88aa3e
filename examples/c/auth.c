/*
 * auth.c — hand the core the planner's token, see who receives it, and react when the planner
 * refuses it (401/403): the "sign in again" flow of a washer app.
 *
 *   make && ./bin/auth                        offline: the default visits URL refuses the
 *                                             connection; shows setting, checking and clearing
 *                                             a token
 *   ./bin/auth http://127.0.0.1:8765/visits [TOKEN]
 *                                             refresh the visits from a planner that may
 *                                             require a token, e.g. the reference web app's
 *                                             sample planner (python3 examples/web/app.py)
 *
 * The token lives in the core's memory only: never in the database, a log, an error document
 * or an event. Every response is freed with carfit_free, every jansson value released, the
 * core closed.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "example.h"

/* Prints carfit_auth_status's document: whether a token is set, and whether the planner asked
 * for one. */
static void print_status(carfit_core *core, const char *when)
{
    json_t *answer = call(core, "auth.status", NULL);
    json_t *auth = json_object_get(answer, "auth");
    printf("%-28s token %-3s scheme %-7s required %-3s source %s\n", when,
           json_is_true(json_object_get(auth, "token")) ? "yes" : "no", str_or(auth, "scheme", "-"),
           json_is_true(json_object_get(auth, "required")) ? "yes" : "no", str_or(auth, "source", "-"));
    json_decref(answer);
}

/* Sets the token (NULL clears it) with the default scheme, "Bearer". */
static void set_token(carfit_core *core, const char *token)
{
    json_t *request = json_pack("{s:s?}", "token", token);
    char *text_request = json_dumps(request, JSON_COMPACT);
    json_decref(call(core, "auth.set", text_request));
    free(text_request);
    json_decref(request);
}

int main(int argc, char **argv)
{
    const char *visits = argc > 1 ? argv[1] : "http://127.0.0.1:1/visits";
    const char *token = argc > 2 ? argv[2] : "demo-token";

    /* The token goes to the origins of sources.visits and sources.visitUpdates (or to the
       config's "auth": {"origins": [...]}), never to other sources or to images. */
    json_t *config = json_pack("{s:s, s:s, s:{s:s}, s:{s:i}}", "now", "2020-09-10T07:00:00Z", "timeZone",
                               "Europe/Copenhagen", "sources", "visits", visits, "http", "timeoutMs", 3000);
    carfit_core *core = open_json_or_exit(config);

    print_status(core, "opened:");

    /* A token with a blank (or a line break, or non-ASCII) is refused and changes nothing. */
    json_t *refused = NULL;
    int status = try_call(core, "auth.set", "{\"token\": \"two words\"}", &refused);
    json_t *error = json_object_get(refused, "error");
    printf("%-28s %s, field \"%s\": %s\n", "a token with a blank:", carfit_status_name(status),
           text(error, "field"), text(error, "message"));
    json_decref(refused);

    set_token(core, token);
    print_status(core, "token set:");

    /* A refresh: with a planner that refuses the token, the answer is "unauthorized" with the
       HTTP status, the stored visits stay, and one "auth" event asks the host to sign in. */
    json_t *answer = NULL;
    status = try_call(core, "visits.refresh", NULL, &answer);
    if (status == CARFIT_OK) {
        printf("%-28s %lld visits\n", "refreshed:", integer(answer, "imported"));
    } else {
        json_t *failure = json_object_get(answer, "error");
        printf("%-28s %s (reason %s", "refresh failed:", carfit_status_name(status), text(failure, "reason"));
        if (json_is_integer(json_object_get(failure, "httpStatus")))
            printf(", HTTP %lld", integer(failure, "httpStatus"));
        printf(")\n");
    }
    json_decref(answer);

    json_t *feed = call(core, "events.wait", "{\"after\": 0, \"timeoutMs\": 0}");
    size_t i;
    json_t *event;
    json_array_foreach(json_object_get(feed, "events"), i, event) {
        if (strcmp(text(event, "kind"), "auth") == 0)
            printf("%-28s %s by %s (HTTP %lld): ask the washer to sign in again\n", "event auth:",
                   text(event, "status"), text(event, "source"), integer(event, "httpStatus"));
    }
    json_decref(feed);
    print_status(core, "after the refresh:");

    set_token(core, NULL);
    print_status(core, "token cleared:");

    carfit_close(core);
    return 0;
}
