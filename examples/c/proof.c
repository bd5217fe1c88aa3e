/*
 * proof.c — proof of work on a visit, offline first: attach a photo of the finished car and a
 * note for the next washer, see them counted on the card, then push them to the upload server;
 * while the van is offline they stay pending (with the push's backoff) and nothing is lost.
 *
 *   make && ./bin/proof                       offline: no server answers (the default URL
 *                                             refuses), the attachments stay pending
 *   ./bin/proof http://127.0.0.1:8766/attachments
 *                                             upload to a running server, e.g.
 *                                             python3 examples/servers/attachment_server.py --port 8766
 *
 * The database, its attachments directory and the photo are temporary files, removed at the
 * end. Every response is freed with carfit_free, every jansson value released, the core closed.
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "example.h"

/* Runs `method` with the request built by json_pack's `format`; exits on failure. */
static json_t *call_packed(carfit_core *core, const char *method, json_t *request)
{
    char *text_request = json_dumps(request, JSON_COMPACT);
    json_t *answer = call(core, method, text_request);
    free(text_request);
    json_decref(request);
    return answer;
}

/* Prints the attachment counts of the card `key` on 2020-09-10. */
static void print_counts(carfit_core *core, const char *key)
{
    json_t *list = call(core, "visits.list", "{\"dates\": [\"2020-09-10\"]}");
    json_t *cards = json_object_get(json_array_get(json_object_get(list, "days"), 0), "visits");
    size_t i;
    json_t *card;
    json_array_foreach(cards, i, card) {
        if (strcmp(text(card, "key"), key) != 0)
            continue;
        json_t *counts = json_object_get(card, "attachments");
        printf("card %s: %lld photo(s), %lld signature(s), %lld note(s), %lld waiting for upload\n",
               text(card, "name"), integer(counts, "photos"), integer(counts, "signatures"),
               integer(counts, "notes"), integer(counts, "pending"));
    }
    json_decref(list);
}

/* Writes a small JPEG-looking file (the core tells a photo by its first bytes). */
static int write_photo(const char *path)
{
    static const unsigned char head[] = {0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 'J', 'F', 'I', 'F', 0x00};
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    fwrite(head, 1, sizeof head, f);
    for (int i = 0; i < 4096; i++)
        fputc(i * 31 % 251, f);
    fputc(0xFF, f);
    fputc(0xD9, f);
    return fclose(f);
}

/* Removes the attachments directory the core made next to the database. */
static void remove_directory(const char *path)
{
    DIR *dir = opendir(path);
    if (dir == NULL)
        return;
    struct dirent *entry;
    char file[4096];
    while ((entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
            continue;
        snprintf(file, sizeof file, "%s/%s", path, entry->d_name);
        unlink(file);
    }
    closedir(dir);
    rmdir(path);
}

int main(int argc, char **argv)
{
    const char *url = argc > 1 ? argv[1] : "http://127.0.0.1:1/attachments";
    char database[64];
    temporary_database(database, sizeof database, "proof");
    char photo[sizeof database + 16];
    snprintf(photo, sizeof photo, "%s-photo.jpg", database);
    if (write_photo(photo) != 0) {
        perror("photo");
        unlink(database);
        return 1;
    }

    json_t *config = json_pack("{s:s, s:s, s:s, s:{s:s}, s:{s:i}}", "database", database,
                               "now", "2020-09-10T10:00:00Z", "timeZone", "Europe/Copenhagen",
                               "sources", "attachments", url, "http", "timeoutMs", 2000);
    carfit_core *core = open_json_or_exit(config);

    char *sample = read_file_or_exit(sample_path("carfit.json"));
    json_t *imported = call(core, "visits.import", sample);
    json_decref(imported);
    free(sample);

    json_t *list = call(core, "visits.list", "{\"dates\": [\"2020-09-10\"]}");
    json_t *first = json_array_get(json_object_get(json_array_get(json_object_get(list, "days"), 0), "visits"), 0);
    char key[1024];
    snprintf(key, sizeof key, "%s", text(first, "key"));
    json_decref(list);

    json_t *attached = call_packed(core, "visits.attach",
                                   json_pack("{s:s, s:s, s:s}", "key", key, "kind", "photo", "file", photo));
    json_t *a = json_object_get(attached, "attachment");
    printf("photo %s: %s, %lld bytes, sha256 %.16s...\n", text(a, "id"), text(a, "contentType"),
           integer(a, "bytes"), text(a, "sha256"));
    json_decref(attached);
    unlink(photo); /* the core keeps its own copy */

    attached = call_packed(core, "visits.attach",
                           json_pack("{s:s, s:s, s:s}", "key", key, "kind", "note", "text",
                                     "Customer asked for the rims too; gate code 4711."));
    printf("note %s: %lld bytes\n", text(json_object_get(attached, "attachment"), "id"),
           integer(json_object_get(attached, "attachment"), "bytes"));
    json_decref(attached);
    print_counts(core, key);

    json_t *result = NULL;
    int status = try_call(core, "sync.push", "{}", &result);
    if (status == CARFIT_OK) {
        json_t *uploads = json_object_get(result, "attachments");
        printf("pushed: %lld uploaded, %lld failed, %lld pending\n", integer(uploads, "uploaded"),
               integer(uploads, "failed"), integer(uploads, "pending"));
    } else {
        printf("push failed: %s (%s); the attachments stay pending\n", carfit_status_name(status),
               str_or(json_object_get(result, "error"), "reason", "?"));
    }
    json_decref(result);
    print_counts(core, key);

    json_t *listed = call_packed(core, "visits.attachments", json_pack("{s:s}", "key", key));
    size_t i;
    json_t *item;
    json_array_foreach(json_object_get(listed, "attachments"), i, item) {
        printf("  %-9s %-26s %s\n", text(item, "kind"), text(item, "contentType"),
               json_is_true(json_object_get(item, "uploaded")) ? "uploaded" : "pending");
    }
    json_decref(listed);

    carfit_close(core);
    char directory[sizeof database + 16];
    snprintf(directory, sizeof directory, "%s-attachments", database);
    remove_directory(directory);
    unlink(database);
    char lock[sizeof database + 16];
    snprintf(lock, sizeof lock, "%s-sync.lock", database);
    unlink(lock);
    return 0;
}
