/*
 * day.c — the washer's day, as the CarFit app shows it: a month calendar and the selected
 * day's cards, rendered from what libcarfit answers.
 *
 *   make && ./bin/day                                  the sample on 2020-09-10
 *   ./bin/day --date 2020-09-11 --date 2020-09-30 --12h
 *   ./bin/day path/to/visits.json --tz UTC --now 2020-09-30T06:00:00Z
 *
 * Options: [data.json] --now INSTANT --tz ZONE --date YYYY-MM-DD (repeatable) --employee ID
 *          --database FILE --12h --24h --sunday
 *
 * Every call's status is checked; on failure the error document is printed. Every response
 * is freed with carfit_free, every jansson value released, every core closed.
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "example.h"

#define WIDTH 56   /* characters per card line */
#define CELL 6     /* characters per calendar column */
#define MAX_DATES 64

typedef int (*carfit_op)(carfit_core *core, const char *request, char **response);

struct options {
    const char *data;
    const char *now;
    const char *tz;
    const char *employee;
    const char *database;
    const char *dates[MAX_DATES];
    int date_count;
    int hour24;        /* -1: the core's default */
    int sunday;
};

/* ---- utilities ----------------------------------------------------------------------- */

/* Display width of UTF-8 text: one column per code point. */
static size_t utf8_width(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
    return n;
}

static void spaces(size_t n)
{
    while (n-- > 0)
        putchar(' ');
}

/* Print left, then right flush with column `width` (at least one space between). */
static void print_split(const char *left, const char *right, size_t width)
{
    size_t used = utf8_width(left) + utf8_width(right);
    fputs(left, stdout);
    if (*right != '\0') {
        spaces(used < width ? width - used : 1);
        fputs(right, stdout);
    }
    putchar('\n');
}

/* Append formatted text to row[0..size), keeping *len at the end (truncating, never past). */
static void append(char *row, size_t size, size_t *len, const char *format, ...)
{
    va_list args;
    int n;

    if (*len + 1 >= size)
        return;
    va_start(args, format);
    n = vsnprintf(row + *len, size - *len, format, args);
    va_end(args);
    if (n > 0)
        *len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

/* Print the first `len` bytes of `row` without trailing spaces, then a newline. */
static void print_trimmed(const char *row, size_t len)
{
    while (len > 0 && row[len - 1] == ' ')
        len--;
    printf("%.*s\n", (int)len, row);
}

static long long int_of(json_t *object, const char *key)
{
    return (long long)json_integer_value(json_object_get(object, key));
}

/* ---- calling the core ---------------------------------------------------------------- */

/* Report a failed call: the status and the library's error document. */
static void report(const char *what, int status, const char *response)
{
    fprintf(stderr, "day: %s failed: %s (%d)\n", what, carfit_status_name(status), status);
    if (response != NULL)
        fprintf(stderr, "%s\n", response);
}

/*
 * Run `op` with `request` (JSON text or NULL). On success parse the response into *result
 * (release with json_decref) and return CARFIT_OK; on failure print the error document and
 * return the status. The response text is freed either way.
 */
static int run(carfit_core *core, const char *what, carfit_op op, const char *request,
               json_t **result)
{
    char *response = NULL;
    json_error_t error;
    int status = op(core, request, &response);

    *result = NULL;
    if (status != CARFIT_OK) {
        report(what, status, response);
        carfit_free(response);
        return status;
    }
    *result = response != NULL ? json_loads(response, 0, &error) : NULL;
    carfit_free(response);
    if (*result == NULL) {
        fprintf(stderr, "day: %s: unreadable response (%s)\n", what,
                response != NULL ? error.text : "none");
        return CARFIT_INTERNAL;
    }
    return CARFIT_OK;
}

/* As run(), with the request built from a jansson value (which this releases). */
static int run_json(carfit_core *core, const char *what, carfit_op op, json_t *request,
                    json_t **result)
{
    char *text = NULL;
    int status;

    if (request == NULL || (text = json_dumps(request, JSON_COMPACT)) == NULL) {
        json_decref(request);
        fprintf(stderr, "day: %s: out of memory\n", what);
        *result = NULL;
        return CARFIT_INTERNAL;
    }
    json_decref(request);
    status = run(core, what, op, text, result);
    free(text);
    return status;
}

/* ---- rendering ----------------------------------------------------------------------- */

static const char *const MONTHS[12] = {
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
};
static const char *const WEEKDAYS[7] = {
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
};

/* "Thursday 10 September 2020" for "2020-09-10" (proleptic Gregorian). */
static void print_day_heading(const char *date)
{
    int y, m, d;
    long era, yoe, doy, doe, days;

    if (sscanf(date, "%4d-%2d-%2d", &y, &m, &d) != 3 || m < 1 || m > 12) {
        printf("%s\n", date);
        return;
    }
    /* Days since 1970-01-01 (H. Hinnant's days_from_civil); 1970-01-01 was a Thursday. */
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    days = era * 146097 + doe - 719468;
    y += m <= 2;
    printf("%s %d %s %d\n", WEEKDAYS[((days % 7) + 7 + 3) % 7], d, MONTHS[m - 1], y);
}

/* The month grid: title, weekday header, then each week as a row of days with a row of
 * visit markers beneath (one dot per visit, like a phone calendar). */
static void print_month(json_t *cal)
{
    json_t *days = json_object_get(cal, "days");
    json_t *weekdays = json_object_get(cal, "weekdays");
    const char *title = str_or(cal, "title", "");
    size_t count = json_array_size(days);
    size_t lead = (size_t)int_of(cal, "leadingDays");
    size_t cells = lead + count, week, col, i;

    spaces((CELL * 7 - utf8_width(title)) / 2);
    printf("%s\n\n", title);
    for (i = 0; i < json_array_size(weekdays); i++) {
        const char *name = json_string_value(json_array_get(weekdays, i));
        name = name != NULL ? name : "";
        spaces(CELL - 1 - utf8_width(name));
        printf("%s%s", name, i + 1 < json_array_size(weekdays) ? " " : "\n");
    }

    for (week = 0; week < cells; week += 7) {
        char row[256], text[32];
        size_t len = 0;

        /* Row of day numbers: "[10]*" selected and today, "11 " plain. */
        for (col = 0; col < 7 && week + col < cells; col++) {
            json_t *day;
            if (week + col < lead) {
                append(row, sizeof row, &len, "%*s", CELL, "");
                continue;
            }
            day = json_array_get(days, week + col - lead);
            snprintf(text, sizeof text,
                     json_is_true(json_object_get(day, "isSelected")) ? "[%lld]%s" : "%lld %s",
                     int_of(day, "day"),
                     json_is_true(json_object_get(day, "isToday")) ? "*" : " ");
            append(row, sizeof row, &len, "%*s", CELL, text);
        }
        print_trimmed(row, len);

        /* Row of markers: one dot per visit, "+" past three. */
        len = 0;
        for (col = 0; col < 7 && week + col < cells; col++) {
            long long visits = week + col < lead
                ? 0 : int_of(json_array_get(days, week + col - lead), "visits");
            int dots = visits > 3 ? 3 : (int)visits, more = visits > 3, k;
            append(row, sizeof row, &len, "%*s", CELL - 2 - dots - more, "");
            for (k = 0; k < dots; k++)
                append(row, sizeof row, &len, "\xE2\x80\xA2"); /* U+2022 BULLET */
            append(row, sizeof row, &len, "%s  ", more ? "+" : "");
        }
        print_trimmed(row, len);
    }
    printf("[d] selected   d* today   \xE2\x80\xA2 a visit\n");
}

/* One visit card: name and state, time and window, tasks, address and distance. */
static void print_card(json_t *card)
{
    char left[512], right[64];
    json_t *km = json_object_get(card, "distanceKm");
    const char *phone = str_or(card, "phone", NULL);
    const char *expected = str_or(card, "expectedTime", NULL);
    const char *name = str_or(card, "name", "");

    snprintf(right, sizeof right, "[ %s ]", str_or(card, "state", "No state"));
    print_split(*name ? name : "(no name)", right, WIDTH);

    if (expected != NULL)
        printf("  %s   expected %s\n", str_or(card, "startTime", ""), expected);
    else
        printf("  %s\n", str_or(card, "startTime", ""));

    snprintf(left, sizeof left, "  %s", *str_or(card, "tasks", "") ? str_or(card, "tasks", "") : "No tasks");
    snprintf(right, sizeof right, "%lld min", int_of(card, "taskMinutes"));
    print_split(left, right, WIDTH);

    snprintf(left, sizeof left, "  %s", *str_or(card, "address", "") ? str_or(card, "address", "") : "(no address)");
    if (json_is_number(km))
        snprintf(right, sizeof right, "%.1f km", json_number_value(km));
    else
        right[0] = '\0';
    print_split(left, right, WIDTH);

    if (phone != NULL)
        printf("  %s\n", phone);
}

static void print_summary(json_t *summary)
{
    long long visits = int_of(summary, "visits");
    printf("%lld visit%s \xC2\xB7 %lld min of tasks \xC2\xB7 %.1f km between visits (%lld m)\n",
           visits, visits == 1 ? "" : "s", int_of(summary, "taskMinutes"),
           json_number_value(json_object_get(summary, "distanceKm")),
           int_of(summary, "distanceMeters"));
}

static void print_days(json_t *list)
{
    json_t *days = json_object_get(list, "days");
    size_t i, j;

    for (i = 0; i < json_array_size(days); i++) {
        json_t *day = json_array_get(days, i);
        json_t *cards = json_object_get(day, "visits");
        putchar('\n');
        print_day_heading(str_or(day, "date", "?"));
        for (j = 0; j < WIDTH; j++)
            fputs("\xE2\x94\x80", stdout); /* U+2500 BOX DRAWINGS LIGHT HORIZONTAL */
        putchar('\n');
        if (json_array_size(cards) == 0)
            printf("No visits.\n");
        for (j = 0; j < json_array_size(cards); j++) {
            print_card(json_array_get(cards, j));
            putchar('\n');
        }
        print_summary(json_object_get(day, "summary"));
    }
    if (json_array_size(days) > 1) {
        printf("\nAll selected days: ");
        print_summary(json_object_get(list, "summary"));
    }
}

/* ---- main ---------------------------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr,
            "usage: day [data.json] [--now INSTANT] [--tz ZONE] [--date YYYY-MM-DD]...\n"
            "           [--employee ID] [--database FILE] [--12h | --24h] [--sunday]\n");
    return 2;
}

static int parse_args(int argc, char **argv, struct options *o)
{
    int i;

    o->data = NULL;
    o->now = "2020-09-10T07:00:00Z";
    o->tz = "Europe/Copenhagen";
    o->employee = NULL;
    o->database = NULL;
    o->date_count = 0;
    o->hour24 = -1;
    o->sunday = 0;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **value = NULL;
        if (strcmp(a, "--12h") == 0) {
            o->hour24 = 0;
        } else if (strcmp(a, "--24h") == 0) {
            o->hour24 = 1;
        } else if (strcmp(a, "--sunday") == 0) {
            o->sunday = 1;
        } else if (strcmp(a, "--now") == 0) {
            value = &o->now;
        } else if (strcmp(a, "--tz") == 0) {
            value = &o->tz;
        } else if (strcmp(a, "--employee") == 0) {
            value = &o->employee;
        } else if (strcmp(a, "--database") == 0) {
            value = &o->database;
        } else if (strcmp(a, "--date") == 0) {
            if (o->date_count == MAX_DATES)
                return usage();
            value = &o->dates[o->date_count++];
        } else if (a[0] == '-' || o->data != NULL) {
            return usage();
        } else {
            o->data = a;
        }
        if (value != NULL) {
            if (++i == argc)
                return usage();
            *value = argv[i];
        }
    }
    return 0;
}

/* The visits document: the path given, else the bundled sample. */
static char *load_data(const char **path)
{
    if (*path == NULL)
        *path = sample_path("carfit.json");
    return read_file(*path);
}

int main(int argc, char **argv)
{
    struct options o;
    carfit_core *core = NULL;
    char *data = NULL, *config_text = NULL, *response = NULL;
    json_t *config, *result = NULL, *request, *rejected;
    int status, i, rc = 1;
    size_t k;

    if (parse_args(argc, argv, &o) != 0)
        return 2;
    data = load_data(&o.data);
    if (data == NULL) {
        fprintf(stderr, "day: cannot read %s\n", o.data);
        return 2;
    }

    /* Open a core with the demo's clock and zone. */
    config = json_pack("{s:s, s:s}", "now", o.now, "timeZone", o.tz);
    if (config != NULL && o.hour24 >= 0)
        json_object_set_new(config, "hour24", json_boolean(o.hour24));
    if (config != NULL && o.sunday)
        json_object_set_new(config, "firstWeekday", json_string("sunday"));
    if (config != NULL && o.database != NULL)
        json_object_set_new(config, "database", json_string(o.database));
    config_text = config != NULL ? json_dumps(config, JSON_COMPACT) : NULL;
    json_decref(config);
    if (config_text == NULL) {
        fprintf(stderr, "day: out of memory\n");
        goto done;
    }
    status = carfit_open(config_text, &core, &response);
    if (status != CARFIT_OK) {
        report("carfit_open", status, response);
        carfit_free(response);
        goto done;
    }
    carfit_free(response);
    response = NULL;

    /* Import the visits document as it is: the library parses the API's shape. */
    if (run(core, "carfit_visits_import", carfit_visits_import, data, &result) != CARFIT_OK)
        goto done;
    rejected = json_object_get(result, "rejected");
    for (k = 0; k < json_array_size(rejected); k++) {
        json_t *r = json_array_get(rejected, k);
        fprintf(stderr, "skipped record %lld: %s\n", int_of(r, "index"), str_or(r, "message", ""));
    }
    json_decref(result);
    result = NULL;

    /* Select the days asked for: the first alone, the others added. */
    for (i = 0; i < o.date_count; i++) {
        request = json_pack("{s:s, s:s}", "date", o.dates[i], "mode", i == 0 ? "single" : "toggle");
        if (run_json(core, "carfit_calendar_select", carfit_calendar_select, request, &result) != CARFIT_OK)
            goto done;
        json_decref(result);
        result = NULL;
    }

    /* The displayed month. */
    if (run(core, "carfit_calendar_get", carfit_calendar_get, NULL, &result) != CARFIT_OK)
        goto done;
    print_month(result);
    json_decref(result);
    result = NULL;

    /* The selected days' cards. */
    request = o.employee != NULL ? json_pack("{s:s}", "employeeId", o.employee) : json_object();
    if (run_json(core, "carfit_visits_list", carfit_visits_list, request, &result) != CARFIT_OK)
        goto done;
    print_days(result);
    rc = 0;

done:
    json_decref(result);
    carfit_close(core);
    free(config_text);
    free(data);
    return rc;
}
