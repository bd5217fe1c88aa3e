/*
 * transactions.c — the transactions and insights screens on a data file.
 *
 *   cc -std=c99 -Iinclude examples/c/transactions.c -Lpath/to/lib -lcarfit -ljansson -o transactions
 *   ./transactions [examples/data/transactions.json]   (the bundled sample by default)
 *
 * Imports the file, shows the category bar, the food list with its floating sum, unpins one
 * transaction, and shows the insights screen. Responses are read with jansson.
 */
#include <carfit.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs one operation; prints the error and exits on failure; returns the parsed result. */
static json_t *call(carfit_core *core, const char *method, const char *request) {
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
static const char *text(json_t *object, const char *key) {
    const char *s = json_string_value(json_object_get(object, key));
    return s ? s : "";
}

static double number(json_t *object, const char *key) {
    return json_number_value(json_object_get(object, key));
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *text = malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) { fprintf(stderr, "cannot read %s\n", path); exit(1); }
    text[size] = '\0';
    fclose(f);
    return text;
}

static void show_list(carfit_core *core, const char *request) {
    json_t *list = call(core, "transactions.list", request);
    size_t i;
    json_t *value;
    printf("[");
    json_array_foreach(json_object_get(list, "categories"), i, value) {
        const char *name = json_string_value(value);
        int selected = name && strcmp(name, text(list, "category")) == 0;
        printf(selected ? " (%s)" : " %s", name);
    }
    printf(" ]\n");
    json_array_foreach(json_object_get(list, "transactions"), i, value) {
        printf("  %s %s  %-20s %-16s %10.2f\n",
               json_is_true(json_object_get(value, "pinned")) ? "*" : " ",
               text(value, "date"), text(value, "name"), text(value, "provider"), number(value, "amount"));
    }
    printf("  %lld transactions; pinned sum $%.2f\n\n",
           (long long)json_integer_value(json_object_get(list, "count")),
           number(list, "sum"));
    json_decref(list);
}

static void show_insights(carfit_core *core) {
    json_t *insights = call(core, "insights.get", NULL);
    size_t i;
    json_t *row;
    printf("Insights\n");
    json_array_foreach(json_object_get(insights, "categories"), i, row) {
        double share = number(row, "share");
        printf("  %-14s %10.2f  %2lld  %5.1f%%  ", text(row, "category"), number(row, "total"),
               (long long)json_integer_value(json_object_get(row, "count")), share * 100);
        for (int bar = 0; bar < (int)(share * 40 + 0.5) && bar < 40; bar++) putchar('#');
        putchar('\n');
    }
    printf("  %-14s %10.2f\n", "total", number(insights, "total"));
    json_decref(insights);
}

int main(int argc, char **argv) {
    if (argc > 2) { fprintf(stderr, "usage: %s [transactions.json]\n", argv[0]); return 2; }
    const char *path = argc == 2 ? argv[1] : "examples/data/transactions.json";
    carfit_core *core = NULL;
    char *response = NULL;
    if (carfit_open(NULL, &core, &response) != CARFIT_OK) {
        fprintf(stderr, "open: %s\n", response ? response : "");
        carfit_free(response);
        return 1;
    }
    carfit_free(response);

    char *document = read_file(path);
    json_t *imported = call(core, "transactions.import", document);
    free(document);
    printf("Imported %lld transactions, %zu rejected\n\n",
           (long long)json_integer_value(json_object_get(imported, "imported")),
           json_array_size(json_object_get(imported, "rejected")));
    json_decref(imported);

    show_list(core, "{\"category\": \"all\"}");
    show_list(core, "{\"category\": \"food\"}");
    show_insights(core);

    printf("\nUnpin \"Salad Mix\" (id 3):\n\n");
    json_decref(call(core, "transactions.pin", "{\"id\": 3, \"pinned\": false}"));
    show_list(core, "{\"category\": \"food\"}");
    show_insights(core);

    carfit_close(core);
    return 0;
}
