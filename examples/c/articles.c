/*
 * articles.c — the Cars news feed, offline first: refresh from a URL when it answers, else
 * show the articles cached by the last successful refresh; or import a document from a file.
 *
 *   make && ./bin/articles                                  the bundled sample
 *   ./bin/articles https://example.com/articles.json        refresh, or fall back to the cache
 *   ./bin/articles path/to/articles.json --tz Europe/Oslo --12h
 *
 * Options: [URL | file.json] --database FILE --now INSTANT --tz ZONE --timeout MS --12h --24h
 *
 * With a URL, a failed refresh for want of a connection shows the "[offline]" banner from
 * carfit_sources_status above the cached articles. The cache is kept in --database (default: carfit-articles.sqlite in $TMPDIR or
 * /tmp), so a later run without network still shows the last articles. With a file the
 * database is in memory unless --database is given.
 *
 * Every call's status is checked; every response is freed with carfit_free, every jansson
 * value released, the core closed.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "example.h"

#define WIDTH 72 /* characters per line */

typedef int (*carfit_op)(carfit_core *core, const char *request, char **response);

struct options {
    const char *source;   /* URL or file; NULL: the bundled sample */
    const char *database;
    const char *now;
    const char *tz;
    const char *timeout;
    int hour24;           /* -1: the core's default */
};

/* ---- small helpers ------------------------------------------------------------------- */

/* Print `text` word-wrapped to WIDTH columns (counted in bytes), each line after `indent`. */
static void print_wrapped(const char *indent, const char *text)
{
    size_t room = WIDTH - strlen(indent);

    while (*text == ' ')
        text++;
    while (*text != '\0') {
        size_t len = strlen(text), cut = len;
        if (len > room) {
            cut = room;
            while (cut > 0 && text[cut] != ' ')
                cut--;
            if (cut == 0) /* one long word: cut it, but not inside a UTF-8 sequence */
                for (cut = room; cut > 1 && ((unsigned char)text[cut] & 0xC0) == 0x80; cut--)
                    ;
        }
        while (cut > 0 && text[cut - 1] == ' ')
            cut--;
        printf("%s%.*s\n", indent, (int)cut, text);
        text += cut;
        while (*text == ' ')
            text++;
    }
}

static void rule(void)
{
    int i;
    for (i = 0; i < WIDTH; i++)
        fputs("\xE2\x94\x80", stdout); /* U+2500 */
    putchar('\n');
}

/* ---- calling the core ---------------------------------------------------------------- */

/* The message of an error document, or the whole text when it has none. */
static void report(const char *what, int status, const char *response)
{
    json_t *doc = response != NULL ? json_loads(response, 0, NULL) : NULL;
    const char *message = str_or(json_object_get(doc, "error"), "message", response);

    fprintf(stderr, "articles: %s failed: %s: %s\n", what, carfit_status_name(status),
            message != NULL ? message : "(no response)");
    json_decref(doc);
}

/*
 * Run `op` with `request` (JSON text or NULL) and return its status. On success *result is
 * the parsed response; on failure it is the parsed error document when `quiet`, else NULL and
 * the error is printed. Release *result with json_decref.
 */
static int run(carfit_core *core, const char *what, carfit_op op, const char *request,
               json_t **result, int quiet)
{
    char *response = NULL;
    int status = op(core, request, &response);

    *result = NULL;
    if (status != CARFIT_OK) {
        if (quiet)
            *result = response != NULL ? json_loads(response, 0, NULL) : NULL;
        else
            report(what, status, response);
        carfit_free(response);
        return status;
    }
    *result = response != NULL ? json_loads(response, 0, NULL) : NULL;
    carfit_free(response);
    if (*result == NULL) {
        fprintf(stderr, "articles: %s: unreadable response\n", what);
        return CARFIT_INTERNAL;
    }
    return CARFIT_OK;
}

/* ---- rendering ----------------------------------------------------------------------- */

static void print_article(json_t *article)
{
    json_t *blocks = json_object_get(article, "content");
    const char *ingress = str_or(article, "ingress", NULL);
    const char *image = str_or(article, "imageUrl", NULL);
    size_t i;

    print_wrapped("", str_or(article, "title", "(untitled)"));
    printf("%s\n", str_or(article, "published", ""));
    if (ingress != NULL && *ingress != '\0')
        print_wrapped("  ", ingress);
    if (image != NULL)
        printf("  [image] %s\n", image);
    for (i = 0; i < json_array_size(blocks); i++) {
        json_t *block = json_array_get(blocks, i);
        const char *subject = str_or(block, "subject", NULL);
        if (subject != NULL && *subject != '\0')
            printf("  %s\n", subject);
        print_wrapped("    ", str_or(block, "description", ""));
    }
}

static void print_feed(json_t *list)
{
    json_t *articles = json_object_get(list, "articles");
    size_t i;

    for (i = 0; i < json_array_size(articles); i++) {
        rule();
        print_article(json_array_get(articles, i));
    }
    rule();
    printf("%zu article%s\n", json_array_size(articles), json_array_size(articles) == 1 ? "" : "s");
}

/*
 * The "no connection" banner a screen shows while the core says it is offline
 * (carfit_sources_status): the latest network failure of any source came after the last
 * success. It names each source whose last attempt failed, with the reason.
 */
static void print_banner(carfit_core *core)
{
    json_t *status = NULL, *sources, *entry;
    const char *name;

    if (run(core, "carfit_sources_status", carfit_sources_status, NULL, &status, 0) != CARFIT_OK)
        return;
    if (json_is_true(json_object_get(status, "offline"))) {
        printf("[offline] No connection: showing the stored articles.\n");
        sources = json_object_get(status, "sources");
        json_object_foreach(sources, name, entry) {
            json_t *error = json_object_get(entry, "lastError");
            if (json_is_object(error))
                printf("[offline] %s: %s, %lld failed attempt%s in a row\n", name, str_or(error, "reason", "?"),
                       (long long)json_integer_value(json_object_get(entry, "consecutiveFailures")),
                       json_integer_value(json_object_get(entry, "consecutiveFailures")) == 1 ? "" : "s");
        }
    }
    json_decref(status);
}

/* ---- main ---------------------------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr, "usage: articles [URL | file.json] [--database FILE] [--now INSTANT] [--tz ZONE]\n"
                    "                [--timeout MS] [--12h | --24h]\n");
    return 2;
}

static int parse_args(int argc, char **argv, struct options *o)
{
    int i;

    memset(o, 0, sizeof *o);
    o->hour24 = -1;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **value = NULL;
        if (strcmp(a, "--12h") == 0)
            o->hour24 = 0;
        else if (strcmp(a, "--24h") == 0)
            o->hour24 = 1;
        else if (strcmp(a, "--database") == 0)
            value = &o->database;
        else if (strcmp(a, "--now") == 0)
            value = &o->now;
        else if (strcmp(a, "--tz") == 0)
            value = &o->tz;
        else if (strcmp(a, "--timeout") == 0)
            value = &o->timeout;
        else if (a[0] == '-' || o->source != NULL)
            return usage();
        else
            o->source = a;
        if (value != NULL) {
            if (++i == argc)
                return usage();
            *value = argv[i];
        }
    }
    return 0;
}

static int is_url(const char *s)
{
    return s != NULL && (strncmp(s, "http://", 7) == 0 || strncmp(s, "https://", 8) == 0);
}

/* The bundled sample. */
static char *load_sample(const char **path)
{
    *path = sample_path("articles.json");
    return read_file(*path);
}

int main(int argc, char **argv)
{
    struct options o;
    carfit_core *core = NULL;
    char *document = NULL, *config_text = NULL, *response = NULL, cache_path[4096];
    json_t *config, *result = NULL;
    int status, rc = 1, online = 0;
    const char *updated;

    if (parse_args(argc, argv, &o) != 0)
        return 2;
    if (is_url(o.source) && o.database == NULL) {
        const char *tmp = getenv("TMPDIR");
        snprintf(cache_path, sizeof cache_path, "%s/carfit-articles.sqlite", tmp != NULL && *tmp ? tmp : "/tmp");
        o.database = cache_path;
    }
    if (!is_url(o.source)) {
        document = o.source != NULL ? read_file(o.source) : load_sample(&o.source);
        if (document == NULL) {
            fprintf(stderr, "articles: cannot read %s\n", o.source);
            return 2;
        }
    }

    /* Open a core; with a URL, that URL is the articles source. */
    config = json_object();
    if (o.database != NULL)
        json_object_set_new(config, "database", json_string(o.database));
    if (o.now != NULL)
        json_object_set_new(config, "now", json_string(o.now));
    if (o.tz != NULL)
        json_object_set_new(config, "timeZone", json_string(o.tz));
    if (o.hour24 >= 0)
        json_object_set_new(config, "hour24", json_boolean(o.hour24));
    if (is_url(o.source))
        json_object_set_new(config, "sources", json_pack("{s:s}", "articles", o.source));
    if (o.timeout != NULL)
        json_object_set_new(config, "http", json_pack("{s:I}", "timeoutMs", (json_int_t)atol(o.timeout)));
    config_text = json_dumps(config, JSON_COMPACT);
    json_decref(config);
    if (config_text == NULL) {
        fprintf(stderr, "articles: out of memory\n");
        goto done;
    }
    status = carfit_open(config_text, &core, &response);
    if (status != CARFIT_OK) {
        report("carfit_open", status, response);
        carfit_free(response);
        goto done;
    }
    carfit_free(response);

    if (document != NULL) {
        /* A file: import it as the new snapshot. */
        json_t *rejected;
        size_t k;
        if (run(core, "carfit_articles_import", carfit_articles_import, document, &result, 0) != CARFIT_OK)
            goto done;
        rejected = json_object_get(result, "rejected");
        for (k = 0; k < json_array_size(rejected); k++) {
            json_t *r = json_array_get(rejected, k);
            fprintf(stderr, "skipped article %lld (%s): %s\n",
                    (long long)json_integer_value(json_object_get(r, "index")),
                    str_or(r, "field", "record"), str_or(r, "message", ""));
        }
        printf("Imported %lld articles from %s\n",
               (long long)json_integer_value(json_object_get(result, "imported")), o.source);
        online = 1;
    } else {
        /* A URL: refresh, and when that fails say why and carry on with the cache. */
        status = run(core, "carfit_articles_refresh", carfit_articles_refresh, NULL, &result, 1);
        if (status == CARFIT_OK) {
            printf("Refreshed %lld articles from %s\n",
                   (long long)json_integer_value(json_object_get(result, "imported")), o.source);
            online = 1;
        } else {
            printf("Offline (%s): %s\n", carfit_status_name(status),
                   str_or(json_object_get(result, "error"), "message", "no details"));
        }
        print_banner(core);
    }
    json_decref(result);
    result = NULL;

    if (run(core, "carfit_articles_list", carfit_articles_list, NULL, &result, 0) != CARFIT_OK)
        goto done;
    updated = str_or(result, "updatedAt", NULL);
    if (updated == NULL) {
        printf("No articles cached yet.\n");
        rc = online ? 0 : 1;
        goto done;
    }
    if (!online)
        printf("Showing the articles cached at %s\n", updated);
    print_feed(result);
    rc = 0;

done:
    json_decref(result);
    carfit_close(core);
    free(config_text);
    free(document);
    return rc;
}
