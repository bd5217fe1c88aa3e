/*
 * washer.c — a washer's day, offline first: start a visit, finish it, push the changes to the
 * update server, and keep them safely pending (with backoff) while the van is offline.
 *
 *   make && ./bin/washer                      offline: no server answers (the default URL
 *                                             refuses), the changes stay pending
 *   ./bin/washer http://127.0.0.1:8765/visit-updates
 *                                             push to a running update server, e.g.
 *                                             python3 examples/servers/sync_server.py --port 8765
 *
 * The database is a temporary file, removed at the end. Every response is freed with
 * carfit_free, every jansson value released, the core closed.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "example.h"

/* Prints `s` (UTF-8) left-aligned in `width` columns, counting characters (code points), not
 * bytes as printf's "%-18s" would: "Søren" is five characters in six bytes. */
static void print_padded(const char *s, int width)
{
    int shown = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++)
        if ((*p & 0xC0) != 0x80) /* not a continuation byte: a character starts here */
            shown++;
    printf("%s%*s", s, shown < width ? width - shown : 0, "");
}

/* Prints one card: name, state, whether it waits for the server, time used. */
static void print_card(json_t *card)
{
    json_t *used = json_object_get(card, "timeUsedMinutes");
    printf("  ");
    print_padded(text(card, "name"), 18);
    printf(" %-10s %-8s", text(card, "state"),
           json_is_true(json_object_get(card, "pending")) ? "pending" : "synced");
    if (json_is_integer(used))
        printf(" %lld min", (long long)json_integer_value(used));
    printf("\n");
}

/* Changes the state of the visit `key` and prints the card the core answers. */
static void set_state(carfit_core *core, const char *key, const char *state)
{
    json_t *request = json_pack("{s:s, s:s}", "key", key, "state", state);
    char *text_request = json_dumps(request, JSON_COMPACT);
    json_t *answer = call(core, "visits.set_state", text_request);
    printf("%s:\n", state);
    print_card(json_object_get(answer, "visit"));
    free(text_request);
    json_decref(request);
    json_decref(answer);
}

/* Pushes (ifDue when asked) and prints what happened. */
static void push(carfit_core *core, int if_due)
{
    json_t *result = NULL;
    int status = try_call(core, "sync.push", if_due ? "{\"ifDue\": true}" : "{}", &result);
    if (status == CARFIT_OK && json_object_get(result, "skipped") != NULL) {
        printf("push skipped (%s) until %s; %lld pending\n", text(result, "skipped"),
               str_or(result, "nextAttemptAt", "-"), integer(result, "pending"));
    } else if (status == CARFIT_OK) {
        printf("pushed %lld, rejected %lld, %lld pending\n", integer(result, "pushed"),
               integer(result, "rejected"), integer(result, "pending"));
    } else {
        json_t *error = json_object_get(result, "error");
        printf("push failed: %s (%s); everything stays pending\n", carfit_status_name(status),
               str_or(error, "reason", "?"));
    }
    json_decref(result);
}

int main(int argc, char **argv)
{
    const char *url = argc > 1 ? argv[1] : "http://127.0.0.1:1/visit-updates";
    char database[64];
    temporary_database(database, sizeof database, "washer");

    json_t *config = json_pack("{s:s, s:s, s:b, s:{s:s}, s:{s:i}}", "database", database,
                               "timeZone", "Europe/Copenhagen",
                               "hour24", 1, "sources", "visitUpdates", url, "http", "timeoutMs", 2000);
    carfit_core *core = open_json_or_exit(config);

    char *sample = read_file_or_exit(sample_path("carfit.json"));
    json_t *imported = call(core, "visits.import", sample);
    json_decref(imported);
    free(sample);

    json_t *list = call(core, "visits.list", "{\"dates\": [\"2020-09-10\"]}");
    json_t *cards = json_object_get(json_array_get(json_object_get(list, "days"), 0), "visits");
    json_t *todo = NULL;
    size_t i;
    json_t *card;
    printf("The day:\n");
    json_array_foreach(cards, i, card) {
        print_card(card);
        if (todo == NULL && strcmp(text(card, "state"), "Todo") == 0)
            todo = card;
    }
    if (todo == NULL) {
        fprintf(stderr, "washer: no visit to start\n");
        json_decref(list);
        carfit_close(core);
        unlink(database);
        return 1;
    }
    char key[1024];
    snprintf(key, sizeof key, "%s", text(todo, "key"));
    json_decref(list);

    set_state(core, key, "InProgress");
    set_state(core, key, "Done");
    push(core, 0);
    push(core, 1);

    json_t *status = call(core, "sync.status", NULL);
    printf("status: %lld pending, %lld failures in a row, next attempt %s\n", integer(status, "pending"),
           integer(status, "consecutiveFailures"), str_or(status, "nextAttemptAt", "now"));
    json_decref(status);

    carfit_close(core);
    unlink(database);
    char lock[sizeof database + 16];
    snprintf(lock, sizeof lock, "%s-sync.lock", database);
    unlink(lock);
    return 0;
}
