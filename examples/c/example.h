/* Helpers shared by the short C examples: run an operation and parse its answer with jansson,
 * read members, read a file. Each program includes this once; a host would have its own. */
#ifndef CARFIT_EXAMPLE_H
#define CARFIT_EXAMPLE_H

#include <carfit.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The bundled samples' directory as the Makefile saw it (examples/data), for a program that
 * cannot tell where its own file is. */
#ifndef CARFIT_EXAMPLE_DATA
#define CARFIT_EXAMPLE_DATA "examples/data"
#endif

/* The path of a bundled sample, examples/data/<name>, found from the program's own file
 * (examples/c/bin/<program>), so that an example runs from any directory. A static buffer. */
static inline const char *sample_path(const char *name) {
    static char path[4096];
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    char *slash;
    if (n > 0) {
        self[n] = '\0';
        slash = strrchr(self, '/');
        if (slash != NULL) {
            *slash = '\0';
            int length = snprintf(path, sizeof path, "%s/../../data/%s", self, name);
            if (length > 0 && (size_t)length < sizeof path && access(path, R_OK) == 0) return path;
        }
    }
    snprintf(path, sizeof path, "%s/%s", CARFIT_EXAMPLE_DATA, name);
    return path;
}

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

/* Runs one operation through carfit_call and returns its status, without exiting on failure:
 * the parsed answer or error document goes to *result when result is not NULL (release it with
 * json_decref), else it is released here. */
static inline int try_call(carfit_core *core, const char *method, const char *request, json_t **result) {
    char *response = NULL;
    int status = carfit_call(core, method, request, &response);
    json_error_t error;
    json_t *parsed = response != NULL ? json_loads(response, 0, &error) : NULL;
    carfit_free(response);
    if (result != NULL)
        *result = parsed;
    else
        json_decref(parsed);
    return status;
}

/* Opens a core with `config` (NULL for the defaults); prints the error document and exits on
 * failure. Close it with carfit_close. */
static inline carfit_core *open_or_exit(const char *config) {
    carfit_core *core = NULL;
    char *response = NULL;
    if (carfit_open(config, &core, &response) != CARFIT_OK) {
        fprintf(stderr, "open: %s\n", response ? response : "");
        carfit_free(response);
        exit(1);
    }
    carfit_free(response);
    return core;
}

/* Opens a core with `config` (a jansson object, released here); exits on failure. */
static inline carfit_core *open_json_or_exit(json_t *config) {
    char *text = json_dumps(config, JSON_COMPACT);
    json_decref(config);
    if (text == NULL) {
        fprintf(stderr, "open: the config could not be written\n");
        exit(1);
    }
    carfit_core *core = open_or_exit(text);
    free(text);
    return core;
}

/* Makes a new empty file for a core's database, "/tmp/carfit-<name>-XXXXXX", its path in
 * `path` (`size` bytes); exits when it cannot. */
static inline void temporary_database(char *path, size_t size, const char *name) {
    int length = snprintf(path, size, "/tmp/carfit-%s-XXXXXX", name);
    int fd = length > 0 && (size_t)length < size ? mkstemp(path) : -1;
    if (fd < 0) {
        perror("mkstemp");
        exit(1);
    }
    close(fd);
}

/* A string member, or `fallback` when it is null, missing or not a string. */
static inline const char *str_or(json_t *object, const char *key, const char *fallback) {
    const char *s = json_string_value(json_object_get(object, key));
    return s ? s : fallback;
}

/* A string member, or "" when it is null or missing. */
static inline const char *text(json_t *object, const char *key) { return str_or(object, key, ""); }

static inline long long integer(json_t *object, const char *key) {
    return (long long)json_integer_value(json_object_get(object, key));
}

static inline double number(json_t *object, const char *key) {
    return json_number_value(json_object_get(object, key));
}

/* The whole file as a NUL-terminated string (free it), or NULL when it cannot be read. */
static inline char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long size;
    if (f == NULL) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        text = malloc((size_t)size + 1);
        if (text != NULL && fread(text, 1, (size_t)size, f) == (size_t)size) {
            text[size] = '\0';
        } else {
            free(text);
            text = NULL;
        }
    }
    fclose(f);
    return text;
}

/* read_file, or exit with a message naming the file. */
static inline char *read_file_or_exit(const char *path) {
    char *text = read_file(path);
    if (text == NULL) { perror(path); exit(1); }
    return text;
}

#endif
