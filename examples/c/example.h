/* Helpers shared by the short C examples: run an operation and parse its answer with jansson,
 * read members, read a file. Each program includes this once; a host would have its own. */
#ifndef CARFIT_EXAMPLE_H
#define CARFIT_EXAMPLE_H

#include <carfit.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

/* Runs one operation through carfit_call; prints the error document and exits on failure;
 * returns the parsed result (release it with json_decref). */
static inline json_t *call(carfit_core *core, const char *method, const char *request) {
    char *response = NULL;
    int status = carfit_call(core, method, request, &response);
    json_error_t error;
    json_t *result = response ? json_loads(response, 0, &error) : NULL;
    if (status != CARFIT_OK || !result) {
        fprintf(stderr, "%s: %s %s\n", method, carfit_status_name(status), response ? response : "");
        carfit_free(response);
        exit(1);
    }
    carfit_free(response);
    return result;
}

/* A string member, or "" when it is null or missing. */
static inline const char *text(json_t *object, const char *key) {
    const char *s = json_string_value(json_object_get(object, key));
    return s ? s : "";
}

static inline long long integer(json_t *object, const char *key) {
    return (long long)json_integer_value(json_object_get(object, key));
}

static inline double number(json_t *object, const char *key) {
    return json_number_value(json_object_get(object, key));
}

/* The whole file as a NUL-terminated string (free it); exits when it cannot be read. */
static inline char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *data = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) { fprintf(stderr, "cannot read %s\n", path); exit(1); }
    data[size] = '\0';
    fclose(f);
    return data;
}

#endif
