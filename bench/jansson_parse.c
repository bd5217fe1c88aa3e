/* Reference (c) of the benchmark: jansson alone parsing a visits file, as fast as it goes:
 * read the file, json_loadb the whole document, free the tree. Prints seconds and peak RSS.
 *
 * With "elements" after the file: parse the data array's elements one at a time on one thread
 * (json_loadb with JSON_DISABLE_EOF_CHECK, each freed at once), the jansson work of a streamed
 * import without the tree. */
#include <string.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buffer = malloc((size_t)size);
    if (!buffer || fread(buffer, 1, (size_t)size, f) != (size_t)size) { fprintf(stderr, "read failed\n"); return 1; }
    fclose(f);

    double start = now();
    size_t count = 0;
    if (argc > 2 && strcmp(argv[2], "elements") == 0) {
        const char *p = strstr(buffer, "\"data\":[");
        if (!p) { fprintf(stderr, "no \"data\":[ in the file\n"); return 1; }
        p += 8;
        const char *end = buffer + size;
        while (p < end && *p != ']') {
            json_error_t error;
            json_t *element = json_loadb(p, (size_t)(end - p), JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK, &error);
            if (!element) { fprintf(stderr, "%s at element %zu\n", error.text, count); return 1; }
            p += error.position;
            json_decref(element);
            count++;
            if (p < end && *p == ',') p++;
        }
    } else {
        json_error_t error;
        json_t *root = json_loadb(buffer, (size_t)size, 0, &error);
        if (!root) { fprintf(stderr, "%s at line %d\n", error.text, error.line); return 1; }
        count = json_array_size(json_object_get(root, "data"));
        json_decref(root);
    }
    double seconds = now() - start;

    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("{\"visits\": %zu, \"seconds\": %.4f, \"peakRssMiB\": %.1f}\n", count, seconds, usage.ru_maxrss / 1024.0);
    free(buffer);
    return 0;
}
