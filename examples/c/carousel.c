/*
 * carousel.c — the carousel screen: a feed of rows of pattern tiles, and its images.
 *
 *   cc -std=c99 -Iinclude examples/c/carousel.c -Lpath/to/lib -lcarfit -ljansson -o carousel
 *   ./carousel [examples/data/patterns.json] [base-url]
 *
 * Imports the colourlovers patterns and shows a seeded feed. With a base URL (a server holding
 * the pattern images by file name, e.g. `python3 -m http.server -d images 8000` and
 * http://127.0.0.1:8000), the patterns' images are taken from there: the first screen is
 * prefetched, the first row is loaded, and the cache statistics are printed. Without one, no
 * network is touched. Responses are read with jansson.
 */
#include "example.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS = 6, COLUMNS = 8, SCREEN_ROWS = 2, SCREEN_COLUMNS = 4 };

/* The last path component of a URL ("1000.png"). */
static const char *file_name(const char *url) {
    const char *slash = strrchr(url, '/');
    return slash ? slash + 1 : url;
}

/* The patterns file, with every imageUrl moved to base_url when one is given. */
static char *patterns_request(const char *path, const char *base_url) {
    json_error_t error;
    json_t *patterns = json_load_file(path, 0, &error);
    if (!json_is_array(patterns)) {
        fprintf(stderr, "%s: not a colourlovers pattern array (%s)\n", path, error.text);
        exit(1);
    }
    size_t i;
    json_t *pattern;
    json_array_foreach(patterns, i, pattern) {
        const char *url = json_string_value(json_object_get(pattern, "imageUrl"));
        if (base_url && url) {
            char moved[1024];
            snprintf(moved, sizeof moved, "%s/%s", base_url, file_name(url));
            json_object_set_new(pattern, "imageUrl", json_string(moved));
        }
    }
    char *request = json_dumps(patterns, JSON_COMPACT);
    json_decref(patterns);
    return request;
}

static void show_feed(json_t *feed) {
    size_t r, c;
    json_t *row, *tile;
    json_array_foreach(json_object_get(feed, "rows"), r, row) {
        printf("%s\n", text(row, "title"));
        json_array_foreach(json_object_get(row, "tiles"), c, tile) {
            const char *url = text(tile, "imageUrl");
            printf("  %-7s %-18s %s  %s\n", text(tile, "id"), text(tile, "title"), text(tile, "color"),
                   *url ? file_name(url) : "(colour only)");
        }
    }
}

/* Prefetches the visible tiles (the first rows and columns), most urgent first. */
static void prefetch_first_screen(carfit_core *core, json_t *feed) {
    json_t *urls = json_array();
    for (size_t r = 0; r < SCREEN_ROWS; r++) {
        json_t *tiles = json_object_get(json_array_get(json_object_get(feed, "rows"), r), "tiles");
        for (size_t c = 0; c < SCREEN_COLUMNS; c++) {
            json_array_append(urls, json_object_get(json_array_get(tiles, c), "imageUrl"));
        }
    }
    json_t *request = json_pack("{s:o, s:s}", "urls", urls, "priority", "high");
    char *text_request = json_dumps(request, JSON_COMPACT);
    json_t *queued = call(core, "images.prefetch", text_request);
    printf("\nPrefetching the first screen: %lld images queued\n", integer(queued, "queued"));
    free(text_request);
    json_decref(queued);
    json_decref(request);
}

/* Loads every image of one row as the screen would, and says where each came from. */
static void load_row(carfit_core *core, json_t *row) {
    size_t c;
    json_t *tile;
    printf("\nLoading \"%s\"\n", text(row, "title"));
    json_array_foreach(json_object_get(row, "tiles"), c, tile) {
        json_t *request = json_pack("{s:s}", "url", text(tile, "imageUrl"));
        char *text_request = json_dumps(request, JSON_COMPACT);
        unsigned char *bytes = NULL;
        size_t length = 0;
        char *response = NULL;
        int status = carfit_images_data(core, text_request, &bytes, &length, &response);
        json_t *info = response ? json_loads(response, 0, NULL) : NULL;
        if (status == CARFIT_OK) {
            printf("  %-7s %6zu bytes  %-10s from %s\n", text(tile, "id"), length, text(info, "contentType"),
                   text(info, "source"));
        } else {
            json_t *err = json_object_get(info, "error");
            printf("  %-7s %s: %s (showing %s)\n", text(tile, "id"), carfit_status_name(status),
                   text(err, "message"), text(tile, "color"));
        }
        carfit_free(bytes);
        carfit_free(response);
        json_decref(info);
        free(text_request);
        json_decref(request);
    }
}

static void show_stats(carfit_core *core) {
    json_t *stats = call(core, "images.stats", NULL);
    json_t *memory = json_object_get(stats, "memory"), *disk = json_object_get(stats, "disk");
    json_t *requests = json_object_get(stats, "requests");
    printf("\nCache\n  memory  %lld images, %lld of %lld bytes\n", integer(memory, "count"), integer(memory, "bytes"),
           integer(memory, "limit"));
    printf("  disk    %lld images, %lld of %lld bytes\n", integer(disk, "count"), integer(disk, "bytes"),
           integer(disk, "limit"));
    printf("  requests: %lld network, %lld shared, %lld memory hits, %lld disk hits, %lld failed\n",
           integer(requests, "network"), integer(requests, "coalesced"), integer(requests, "memoryHits"),
           integer(requests, "diskHits"), integer(requests, "failures"));
    json_decref(stats);
}

int main(int argc, char **argv) {
    if (argc > 3) { fprintf(stderr, "usage: %s [patterns.json] [base-url]\n", argv[0]); return 2; }
    const char *path = argc >= 2 ? argv[1] : sample_path("patterns.json");
    const char *base_url = argc == 3 ? argv[2] : NULL;
    carfit_core *core = open_or_exit(NULL);

    char *patterns = patterns_request(path, base_url);
    json_t *imported = call(core, "patterns.import", patterns);
    printf("%lld patterns in the pool\n\n", integer(imported, "pool"));
    free(patterns);
    json_decref(imported);

    char feed_request[64];
    snprintf(feed_request, sizeof feed_request, "{\"rows\": %d, \"columns\": %d, \"seed\": 7}", ROWS, COLUMNS);
    json_t *feed = call(core, "carousel.generate", feed_request);
    show_feed(feed);

    if (base_url) {
        prefetch_first_screen(core, feed);
        load_row(core, json_array_get(json_object_get(feed, "rows"), 0));
        show_stats(core);
    }
    json_decref(feed);
    carfit_close(core);
    return 0;
}
