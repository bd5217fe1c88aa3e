/*
 * transactions.c — the transactions and insights screens on a data file.
 *
 *   cc -std=c99 -Iinclude examples/c/transactions.c -Lpath/to/lib -lcarfit -ljansson -o transactions
 *   ./transactions [examples/data/transactions.json]   (the bundled sample by default)
 *
 * Imports the file, shows the category bar, the food list with its floating sum, unpins one
 * transaction, and shows the insights screen. Responses are read with jansson.
 */
#include "example.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    const char *path = argc == 2 ? argv[1] : sample_path("transactions.json");
    carfit_core *core = open_or_exit(NULL);

    char *document = read_file_or_exit(path);
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
