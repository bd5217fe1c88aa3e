/*
 * shop.c — the wine club's shop screens on a catalog file.
 *
 *   cc -std=c99 -Iinclude examples/c/shop.c -Lpath/to/lib -lcarfit -ljansson -o shop
 *   ./shop [examples/data/catalog.json]   (the bundled sample by default)
 *
 * Creates an employee, logs in with the PIN, imports the catalog, shows the red wines and one
 * product, fills the cart (the same wine twice goes into one line) and checks out.
 * Responses are read with jansson.
 */
#include "example.h"
#include <stdio.h>
#include <stdlib.h>

static void show_cart(json_t *result) {
    json_t *cart = json_object_get(result, "cart");
    size_t i;
    json_t *line;
    printf("Cart\n");
    json_array_foreach(json_object_get(cart, "lines"), i, line) {
        printf("  %3lld x %s\n", integer(line, "quantity"), text(line, "name"));
    }
    printf("  %lld bottles\n\n", integer(cart, "totalQuantity"));
}

int main(int argc, char **argv) {
    if (argc > 2) { fprintf(stderr, "usage: %s [catalog.json]\n", argv[0]); return 2; }
    const char *path = argc == 2 ? argv[1] : sample_path("catalog.json");
    carfit_core *core = open_or_exit(NULL);

    json_t *created = call(core, "employees.create",
                           "{\"pin\": \"4821\", \"firstName\": \"Ada\", \"lastName\": \"Lovelace\","
                           " \"email\": \"ada@example.com\"}");
    json_t *ada = json_object_get(created, "employee");
    printf("New employee %s %s, hired %s\n", text(ada, "firstName"), text(ada, "lastName"), text(ada, "hiredOn"));
    json_decref(created);

    /* A wrong PIN is refused; the right one logs in. */
    char *response = NULL;
    int status = carfit_session_login(core, "{\"pin\": \"0000\"}", &response);
    printf("Login with 0000: %s\n", carfit_status_name(status));
    carfit_free(response);
    json_t *login = call(core, "session.login", "{\"pin\": \"4821\"}");
    printf("Login with 4821: welcome, %s\n\n", text(json_object_get(login, "employee"), "firstName"));
    json_decref(login);

    char *document = read_file_or_exit(path);
    json_t *imported = call(core, "catalog.import", document);
    free(document);
    printf("Imported %lld wines, %zu rejected\n\n", integer(imported, "imported"),
           json_array_size(json_object_get(imported, "rejected")));
    json_decref(imported);

    json_t *list = call(core, "catalog.list", "{\"category\": \"Red Wines\", \"sort\": \"name\"}");
    size_t i;
    json_t *item;
    printf("Red Wines\n");
    json_array_foreach(json_object_get(list, "products"), i, item) {
        printf("  %-40s %8.2f\n", text(item, "name"), json_number_value(json_object_get(item, "price")));
    }
    json_decref(list);

    json_t *detail = call(core, "catalog.product", "{\"id\": 103}");
    json_t *product = json_object_get(detail, "product");
    printf("\n%s\n  %s\n\n", text(product, "name"), text(product, "description"));
    json_decref(detail);

    json_decref(call(core, "cart.add", "{\"productId\": 101}"));
    json_decref(call(core, "cart.add", "{\"productId\": 110, \"quantity\": 2}"));
    json_t *cart = call(core, "cart.add", "{\"productId\": 101, \"quantity\": 4}");
    show_cart(cart);
    json_decref(cart);

    json_t *done = call(core, "cart.checkout", NULL);
    json_t *order = json_object_get(done, "order");
    printf("Order %lld placed at %s: %lld bottles. %s\n", integer(order, "id"), text(order, "placedAt"),
           integer(order, "totalQuantity"), text(done, "message"));
    show_cart(done);
    json_decref(done);

    carfit_close(core);
    return 0;
}
