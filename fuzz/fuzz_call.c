/*
 * fuzz_call.c — libFuzzer harness for libcarfit: every operation, through carfit_call.
 *
 * Built and run by fuzz/run (read it for the build: an AddressSanitizer build of libcarfit.so
 * with coverage, this file with clang -fsanitize=fuzzer,address).
 *
 * Input format. The first byte s chooses what to do; the rest is the request text (cut at the
 * first NUL, as a C host's string would be). With M methods (carfit_fuzz_methods, generated
 * from include/carfit.h at build time):
 *
 *   s == 255   carfit_call with the method named in the input: "<method>\0<request>"
 *   s == 254   carfit_open(config = request), and carfit_close on success
 *   s == 253   carfit_images_data(core, request, &bytes, &length, &response), the one function
 *              of another shape (found with dlsym; skipped when the library has none)
 *   otherwise  carfit_call(core, methods[s % M], request, &response), and v = s / M chooses
 *              variants: v & 1 and an empty request: NULL instead of ""; v & 2: a NULL
 *              response pointer; v & 4: the named export carfit_<area>_<verb> instead of
 *              carfit_call.
 *
 * The first two forms do not depend on the method list, so inputs kept in fuzz/regressions/
 * keep their meaning when operations are added.
 *
 * One core (":memory:") is opened per process and reused, so state built by one input
 * (an import) is read by later ones (a list). Error statuses are answers, not bugs: the
 * harness only stops on what the sanitizers report (crashes, memory errors, leaks) and on a
 * broken contract: a status outside 0..9, a missing response, a response that is not a JSON
 * object, or an error document whose code is not the status's name.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "carfit.h"
#include "methods.h" /* generated: carfit_fuzz_methods[], CARFIT_FUZZ_METHOD_COUNT */

_Static_assert(CARFIT_FUZZ_METHOD_COUNT > 0 && CARFIT_FUZZ_METHOD_COUNT < 253, "selectors 253 to 255 are taken");

static carfit_core *core;
static char work_dir[4096];
static char database_path[4200];
static char images_path[4200];

static void fail(const char *what, const char *method, const char *request, const char *response) {
    fprintf(stderr, "\ncontract broken: %s\n  method: %s\n  request: %.300s\n  response: %.300s\n",
            what, method ? method : "(null)", request ? request : "(null)", response ? response : "(null)");
    abort();
}

/* A response must be a JSON object; an error document's code must be the status's name. */
static void check(int status, const char *response, int wanted, const char *method, const char *request) {
    if (status < CARFIT_OK || status > CARFIT_INTERNAL) fail("status out of range", method, request, response);
    if (!wanted) {
        if (response) fail("a response was written through a NULL pointer", method, request, response);
        return;
    }
    if (!response) fail("no response", method, request, NULL);
    json_error_t error;
    json_t *doc = json_loads(response, 0, &error);
    if (!doc || !json_is_object(doc)) fail("the response is not a JSON object", method, request, response);
    json_t *err = json_object_get(doc, "error");
    if (status != CARFIT_OK) {
        const char *code = json_string_value(json_object_get(err, "code"));
        const char *message = json_string_value(json_object_get(err, "message"));
        if (!json_is_object(err) || !code || strcmp(code, carfit_status_name(status)) != 0)
            fail("the error document's code is not the status name", method, request, response);
        if (!message || !*message) fail("the error document has no message", method, request, response);
    }
    json_decref(doc);
}

static int call(const char *method, int named, const char *request, char **response) {
    if (named) {
        char symbol[160];
        int n = snprintf(symbol, sizeof symbol, "carfit_%s", method);
        if (n > 0 && (size_t)n < sizeof symbol) {
            char *dot = strchr(symbol, '.');
            if (dot) *dot = '_';
            int (*fn)(carfit_core *, const char *, char **) =
                (int (*)(carfit_core *, const char *, char **))dlsym(RTLD_DEFAULT, symbol);
            if (fn) return fn(core, request, response);
        }
    }
    return carfit_call(core, method, request, response);
}

/*
 * The config of carfit_open, made safe to open: a "database" that names a file is replaced
 * by a file in the work directory, and "images.directory" likewise, so the fuzzer never
 * creates or opens files elsewhere. Values the library refuses before touching the file
 * system (not a string, "", a NUL inside) are kept, to exercise those checks. Text that is not
 * a JSON object is passed as it is: it is parsed by the same jansson with the same flags, so
 * the library refuses it as well.
 */
static char *safe_config(const char *text) {
    json_error_t error;
    json_t *config = json_loads(text, JSON_DECODE_ANY, &error);
    if (!config) return strdup(text);
    if (json_is_object(config)) {
        json_t *db = json_object_get(config, "database");
        if (json_is_string(db) && json_string_length(db) > 0 && !memchr(json_string_value(db), 0, json_string_length(db))
            && strcmp(json_string_value(db), ":memory:") != 0)
            json_object_set_new(config, "database", json_string(database_path));
        json_t *images = json_object_get(config, "images");
        json_t *dir = json_object_get(images, "directory");
        if (json_is_string(dir) && json_string_length(dir) > 0 && !memchr(json_string_value(dir), 0, json_string_length(dir)))
            json_object_set_new(images, "directory", json_string(images_path));
    }
    char *out = json_dumps(config, JSON_ENCODE_ANY | JSON_COMPACT);
    json_decref(config);
    return out ? out : strdup(text);
}

static void cleanup(void) {
    carfit_close(core);
    core = NULL;
    if (work_dir[0]) {
        char command[4200];
        snprintf(command, sizeof command, "rm -rf '%s'", work_dir);
        if (system(command) != 0) fprintf(stderr, "fuzz_call: could not remove %s\n", work_dir);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    /* No request may reach the network: every proxy is a closed local port. */
    setenv("http_proxy", "http://127.0.0.1:9", 1);
    setenv("https_proxy", "http://127.0.0.1:9", 1);
    setenv("HTTP_PROXY", "http://127.0.0.1:9", 1);
    setenv("HTTPS_PROXY", "http://127.0.0.1:9", 1);
    setenv("ALL_PROXY", "http://127.0.0.1:9", 1);
    unsetenv("no_proxy");
    unsetenv("NO_PROXY");

    const char *tmp = getenv("TMPDIR");
    snprintf(work_dir, sizeof work_dir, "%s/carfit-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(work_dir)) {
        perror("fuzz_call: mkdtemp");
        exit(1);
    }
    snprintf(database_path, sizeof database_path, "%s/open.db", work_dir);
    snprintf(images_path, sizeof images_path, "%s/images", work_dir);
    atexit(cleanup);

    char config[8600];
    snprintf(config, sizeof config,
             "{\"database\": \":memory:\", \"now\": \"2020-09-10T07:00:00Z\", \"timeZone\": \"Europe/Copenhagen\","
             " \"http\": {\"timeoutMs\": 200}, \"images\": {\"directory\": \"%s/core-images\", \"concurrency\": 1}}",
             work_dir);
    char *response = NULL;
    int status = carfit_open(config, &core, &response);
    if (status != CARFIT_OK || !core) {
        fprintf(stderr, "fuzz_call: carfit_open failed (%d): %s\n", status, response ? response : "");
        exit(1);
    }
    carfit_free(response);

    /* Every method the header names must be one the library knows: an unknown method is
       misuse with field "method", whatever the request. */
    for (size_t i = 0; i < CARFIT_FUZZ_METHOD_COUNT; i++) {
        response = NULL;
        status = carfit_call(core, carfit_fuzz_methods[i], "{", &response);
        if (status == CARFIT_MISUSE && response && strstr(response, "\"field\":\"method\"")) {
            fprintf(stderr, "fuzz_call: the header names method \"%s\" but carfit_call does not know it: %s\n",
                    carfit_fuzz_methods[i], response);
            exit(1);
        }
        carfit_free(response);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    enum { RAW = 255, CONFIG = 254, IMAGE = 253 };
    size_t kind = data[0];
    unsigned variant = 0;
    if (kind != RAW && kind != CONFIG && kind != IMAGE) {
        kind = data[0] % CARFIT_FUZZ_METHOD_COUNT;
        variant = (unsigned)(data[0] / CARFIT_FUZZ_METHOD_COUNT);
    }

    /* The request as a C string: a fresh allocation of exactly its size, so ASan sees any read
       past the terminator. */
    char *text = malloc(size);
    if (!text) return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;

    const char *request = text;
    if (!*request && (variant & 1)) request = NULL;
    const int wanted = !(variant & 2);
    char *response = NULL;
    char **out = wanted ? &response : NULL;

    if (kind < CARFIT_FUZZ_METHOD_COUNT) {
        const char *method = carfit_fuzz_methods[kind];
        int status = call(method, (variant & 4) != 0, request, out);
        check(status, response, wanted, method, request);
    } else if (kind == IMAGE) {
        typedef int (*images_data_fn)(carfit_core *, const char *, unsigned char **, size_t *, char **);
        images_data_fn images_data = (images_data_fn)dlsym(RTLD_DEFAULT, "carfit_images_data");
        if (images_data) {
            unsigned char *bytes = (unsigned char *)(uintptr_t)0x1;
            size_t length = 1;
            int status = images_data(core, request, &bytes, &length, &response);
            check(status, response, 1, "carfit_images_data", request);
            if (status == CARFIT_OK ? (!bytes || !length) : (bytes || length))
                fail("*bytes and *length do not match the status", "carfit_images_data", request, response);
            carfit_free(bytes);
        }
    } else if (kind == CONFIG) {
        char *config = request ? safe_config(request) : NULL;
        carfit_core *opened = (carfit_core *)(uintptr_t)0x1;
        int status = carfit_open(config, &opened, out);
        check(status, response, wanted, "carfit_open", config);
        if ((status == CARFIT_OK) != (opened != NULL)) fail("*core does not match the status", "carfit_open", config, response);
        carfit_close(opened);
        free(config);
    } else {
        /* "<method>\0<request>": the method is the text up to the first NUL of the input. */
        const char *method = (const char *)text;
        size_t length = strnlen(method, size - 1);
        const char *rest = length + 1 < size - 1 ? text + length + 1 : "";
        char *copy = strdup(rest);
        int status = carfit_call(core, method, copy, out);
        check(status, response, wanted, method, copy);
        free(copy);
    }
    carfit_free(response);
    free(text);
    return 0;
}
