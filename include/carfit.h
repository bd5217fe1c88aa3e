/*
 * carfit.h — the C API of libcarfit, the headless core of the CarFit washer app.
 *
 * Link with -lcarfit (the library's SONAME is libcarfit.so.1). Plain C99.
 *
 * CONVENTIONS (read once; every function below follows them)
 *
 *   Operations. Every operation has one shape:
 *
 *       int carfit_<area>_<verb>(carfit_core *core, const char *request, char **response);
 *
 *   request   UTF-8 JSON text of an object. NULL or "" means {}. Unknown members are ignored.
 *             Borrowed: the library keeps no pointer the caller passed in after it returns.
 *   response  If not NULL, *response receives a new NUL-terminated UTF-8 JSON object: on success
 *             the result, on failure an error document. New reference: the caller frees it with
 *             carfit_free(). *response is set (possibly to NULL) on every return.
 *   returns   A status code (CARFIT_OK is 0).
 *
 *   Every operation is also reachable by name through carfit_call(core, "<area>.<verb>", ...);
 *   both paths run the same code.
 *
 *   Error document:
 *       {"error": {"code": "invalid", "message": "...", "field": "data[3].houseOwnerLatitude"}}
 *   code is carfit_status_name(status); message is one sentence a user could act on; field is
 *   the offending request member as a dotted path, where there is one. For CARFIT_BAD_JSON the
 *   error also has "line", "column" and "position" as jansson reports them.
 *
 *   Statuses every operation may give, besides those listed per function:
 *       CARFIT_BAD_JSON  the request is not valid JSON (syntax, invalid UTF-8, nesting deeper
 *                        than 2048, integers beyond 64 bits, a string holding U+0000)
 *                        or is not an object (an empty text is {});
 *       CARFIT_INVALID   a member is of the wrong type or out of range, or the request is larger
 *                        than the core's maxRequestBytes (default 512 MiB);
 *       CARFIT_MISUSE    core is NULL, closed, or not a core;
 *       CARFIT_STORAGE   the database failed (locked past the busy timeout, disk full, corrupt);
 *       CARFIT_INTERNAL  a bug in libcarfit; the message says what.
 *   No input, however malformed, crashes, traps or hangs the host.
 *
 *   Threads. One core may be used from several threads at once: calls on one core are
 *   serialised. Distinct cores are independent, also on the same database file (also from
 *   different processes: SQLite's locking, WAL journal, 10 s busy timeout).
 *
 *   Time. Rules that depend on "now" read the core's clock (the config's "now", else the system
 *   clock). Days are "YYYY-MM-DD" in the proleptic Gregorian calendar, years 1 to 9999.
 *   Instants are ISO 8601; source timestamps without a zone are UTC. Responses write instants
 *   as "2020-09-10T08:05:00Z".
 *
 *   Money is exact: at most two decimal places, sums in integer cents; a JSON number in a
 *   response is the double nearest to the exact decimal, written in its shortest form.
 */
#ifndef CARFIT_H
#define CARFIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Version
 * ------------------------------------------------------------------------------------------- */

#define CARFIT_VERSION_MAJOR 1
#define CARFIT_VERSION_MINOR 0
#define CARFIT_VERSION_PATCH 0
#define CARFIT_VERSION "1.0.0"

/* ---------------------------------------------------------------------------------------------
 * Status codes (values fixed forever)
 * ------------------------------------------------------------------------------------------- */

#define CARFIT_OK            0  /* ok */
#define CARFIT_BAD_JSON      1  /* request is not valid JSON, or not an object */
#define CARFIT_INVALID       2  /* a member is missing, of the wrong type, or out of range */
#define CARFIT_NOT_FOUND     3  /* the id, email, product, ... does not exist */
#define CARFIT_CONFLICT      4  /* a uniqueness rule would break */
#define CARFIT_UNAUTHORIZED  5  /* wrong PIN, nobody logged in, locked out */
#define CARFIT_UNAVAILABLE   6  /* a network source failed; cached data is untouched */
#define CARFIT_STORAGE       7  /* the database failed (cannot open, disk full, corrupt) */
#define CARFIT_MISUSE        8  /* NULL or closed core, NULL argument, unknown method */
#define CARFIT_INTERNAL      9  /* a bug; the message says what */

/* ---------------------------------------------------------------------------------------------
 * Lifecycle and utilities
 * ------------------------------------------------------------------------------------------- */

/* An open core: its database, clock, calendar state, session and caches. Opaque. */
typedef struct carfit_core carfit_core;

/*
 * carfit_open — open a core.
 *
 * Takes:   config, JSON object text or NULL (borrowed); every member is optional:
 *            "database"     SQLite file path, created with its schema if absent (":memory:")
 *            "now"          fixed instant for the core's clock (system clock)
 *            "timeZone"     IANA zone for local days and times ("UTC")
 *            "hour24"       true/false for 24h/12h times (from LC_ALL, LC_TIME, LANG, the
 *                           first set: en_US means 12h, en_GB or da_DK 24h; C/POSIX/none 24h)
 *            "firstWeekday" "monday" or "sunday" ("monday")
 *            "sources"      {"visits": url, "articles": url}, http or https (none)
 *            "http"         {"timeoutMs": 1..600000} (10000)
 *            "images"       {"directory": path, "memoryBytes": n, "diskBytes": n,
 *                            "concurrency": 1..64} (a temp dir of the core, 32 MiB, 256 MiB, 4)
 *            "maxRequestBytes" largest request accepted, in bytes (536870912)
 *          core, where the new core is stored (must not be NULL);
 *          response, as for operations (may be NULL).
 * Returns: CARFIT_OK and *core set; the response is {"version": "1.0.0", "database": path}.
 *          On failure *core is NULL and the response is an error document.
 * Owns:    the caller owns *core and closes it with carfit_close().
 * Errors:  CARFIT_BAD_JSON (config text), CARFIT_INVALID (a config member, named in field),
 *          CARFIT_STORAGE (the database cannot be opened or created, or is not a database, or
 *          was written by a newer libcarfit; field "database"), CARFIT_MISUSE (core is NULL).
 * Opening selects today (by the core's clock and zone) and displays its month.
 */
int carfit_open(const char *config, carfit_core **core, char **response);

/*
 * carfit_close — close a core: waits for a call in progress on it, then closes its database.
 * Takes:   core, or NULL (a no-op). Closing twice is a no-op.
 * After:   every call with this core returns CARFIT_MISUSE; stored data stays in the database.
 */
void carfit_close(carfit_core *core);

/*
 * carfit_free — free anything libcarfit returned (response texts, image bytes).
 * Takes:   p, or NULL (a no-op).
 */
void carfit_free(void *p);

/*
 * carfit_version — the library's version, "1.0.0" (equal to CARFIT_VERSION for this header).
 * Returns: a static string; do not free.
 */
const char *carfit_version(void);

/*
 * carfit_status_name — the lowercase name of a status ("ok", "bad_json", ... "internal").
 * Returns: a static string; "unknown" for a value that is not a status. Do not free.
 */
const char *carfit_status_name(int status);

/*
 * carfit_call — run an operation by its method name "<area>.<verb>" ("visits.list",
 *               "employees.recover_pin"); the same as calling carfit_<area>_<verb>.
 * Takes:   core, method (borrowed), request and response as for every operation.
 * Errors:  CARFIT_MISUSE for a NULL or unknown method (field "method"), and those of the
 *          operation.
 */
int carfit_call(carfit_core *core, const char *method, const char *request, char **response);

/* ---------------------------------------------------------------------------------------------
 * Visits: the washer's day
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_visits_import (method "visits.import") — replace the stored visits with a snapshot.
 *
 * Takes:   the visits API document {"success": true, "data": [visit...], "code": 200}, or
 *          {"data": [...]}. A record needs "startTimeUtc" (ISO 8601; no zone means UTC);
 *          every other member may be null or missing but must have its type when present.
 *          Latitude must lie in [-90, 90], longitude in [-180, 180], timesInMinutes in
 *          0..100000. Records with repeated visit ids are all kept.
 * Returns: {"imported": n, "rejected": [{"index": i, "field": "houseOwnerLatitude",
 *          "message": "..."}]}: rejected records are skipped, the others replace the stored
 *          snapshot in one transaction.
 * Errors:  CARFIT_INVALID (no "data" array; field "data"); nothing is changed.
 */
int carfit_visits_import(carfit_core *core, const char *request, char **response);

/*
 * carfit_visits_list (method "visits.list") — the cards of some days.
 *
 * Takes:   {"dates": ["2020-09-10", ...], "employeeId": "...", "hour24": bool}; all optional.
 *          Without "dates", the days selected in the calendar (ascending). "employeeId" keeps
 *          that employee's visits (homeBobEmployeeId); "hour24" overrides the core's clock style.
 * Returns: {"days": [{"date", "visits": [card...], "summary"}], "summary"} with days in the
 *          order asked, each once. A summary is {"visits", "taskMinutes", "distanceMeters",
 *          "distanceKm"}. A card is {"visitId", "name", "state", "stateColor", "startTime",
 *          "startTimeUtc", "expectedTime", "tasks", "taskMinutes", "address", "phone",
 *          "latitude", "longitude", "employeeId", "distanceMeters", "distanceKm"}:
 *            state        "Todo", "InProgress", "Done", "Rejected" in any source spelling and
 *                         case ("ToDo", "in_progress"); other values as given; null if absent
 *            stateColor   #4E77D6, #F5C709, #25A87B, #EF6565; #8E8E93 for others
 *            startTime    "HH:mm" (24h) or "hh:mm AM" (12h) in the core's zone
 *            distance...  geodesic (WGS84, Karney) metres from the previous card of the day,
 *                         rounded; km to one decimal; null for the first card or when either
 *                         end has no coordinates
 *          A visit belongs to the local day of its start in the core's zone; cards are in
 *          start order, equal starts in snapshot order.
 * Errors:  CARFIT_INVALID (a date that does not exist, e.g. "dates[1]" for "2020-02-30").
 */
int carfit_visits_list(carfit_core *core, const char *request, char **response);

/* ---------------------------------------------------------------------------------------------
 * Calendar: the month grid that drives the list
 *
 * The core holds the displayed month and the selected days (today selected when it opens).
 * Every calendar function answers the month document:
 *   {"year", "month", "title": "September 2020", "today": "2020-09-10",
 *    "selected": ["2020-09-10"], "firstWeekday": "monday", "leadingDays": 1,
 *    "weekdays": ["Mon", ... "Sun"], "days": [{"date", "day", "weekday", "isToday",
 *    "isSelected", "visits"}...], "previous": {"year", "month"} | null, "next": ... | null}
 * leadingDays counts the empty cells before day 1; visits counts stored visits per local day;
 * previous/next are null before January of year 1 and after December 9999. The calendar is the
 * proleptic Gregorian one of ISO 8601 (no 1582 cut-over).
 * ------------------------------------------------------------------------------------------- */

/* carfit_calendar_get (method "calendar.get") — the displayed month. Takes no members. */
int carfit_calendar_get(carfit_core *core, const char *request, char **response);

/* carfit_calendar_next (method "calendar.next") — display the next month (December 2020 →
 * January 2021); the selection is kept. At December 9999 the month stays. */
int carfit_calendar_next(carfit_core *core, const char *request, char **response);

/* carfit_calendar_previous (method "calendar.previous") — display the previous month; the
 * selection is kept. At January of year 1 the month stays. */
int carfit_calendar_previous(carfit_core *core, const char *request, char **response);

/*
 * carfit_calendar_select (method "calendar.select") — select a day.
 * Takes:   {"date": "2020-09-11", "mode": "single" | "toggle"} ("single" by default):
 *          single makes it the only selected day; toggle adds or removes it. A day that becomes
 *          selected in another month also becomes the displayed month.
 * Errors:  CARFIT_INVALID (date missing or not a day; mode not one of the two).
 */
int carfit_calendar_select(carfit_core *core, const char *request, char **response);

/*
 * carfit_calendar_month (method "calendar.month") — the document of any month, without
 * changing the state.
 * Takes:   {"year": 1..9999, "month": 1..12}, both required.
 * Errors:  CARFIT_INVALID (missing or out of range).
 */
int carfit_calendar_month(carfit_core *core, const char *request, char **response);

/* ---------------------------------------------------------------------------------------------
 * Day plan: the order to drive the washer's day in
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_visits_plan (method "visits.plan") — the order to drive a day's open visits in, with
 * arrival and departure times.
 *
 * Takes:   {"date": "2020-09-10", "employeeId": "...", "start": {"latitude": 55.77,
 *          "longitude": 12.52}, "startTime": "07:30", "speedKmh": 30, "detourFactor": 1.3};
 *          only "date" is required:
 *            date          a day, YYYY-MM-DD (years 1 to 9999)
 *            employeeId    plan only that employee's visits (homeBobEmployeeId)
 *            start         where the washer sets out; both members required, latitude in
 *                          [-90, 90], longitude in [-180, 180]. Without it the first stop's
 *                          travel is 0 and the route may begin at any stop.
 *            startTime     "HH:mm" (or "H:mm"), "00:00" to "23:59", local time of the day; by
 *                          default the start time of the day's earliest stop
 *            speedKmh      more than 0, at most 300 (30)
 *            detourFactor  1 to 10 (1.3): roads are longer than the geodesic
 * Stops:   the day's visits (local day of their start, in the core's zone) in state Todo or
 *          InProgress (any source spelling) that have both coordinates. Every other visit of
 *          the day is listed in "skipped", in start order, with a reason: "state Done",
 *          "state Rejected", "state <the state as given>", "no state", "no coordinates".
 * Times:   all in minutes of the local day. A stop's window is its expectedTime "HH:mm/HH:mm"
 *          (the end may be "24:00"); a null expectedTime, or one that does not read as such a
 *          window (malformed, or ending before it starts), gives no window: the stop is never
 *          late and never waits (the response shows "window": null next to its expectedTime).
 *          Travel minutes = geodesic metres x detourFactor / (speedKmh x 1000 / 60); service
 *          minutes = the visit's taskMinutes. arrival = max(previous departure + travel, window
 *          start), where the first stop's previous departure is startTime; departure = arrival
 *          + service. A stop is late when its arrival rounded to the minute is after the
 *          window's end, so "lateMinutes" > 0 exactly for late stops. Daylight-saving changes
 *          within the day are not applied to these wall-clock minutes.
 * Order:   the shortest total distance that can be found quickly with no more late stops than
 *          driving the stops in start-time order: days without windows of up to 12 stops get
 *          the shortest order exactly (dynamic programming); days with windows of up to 10
 *          stops get it by branch and bound; larger days a nearest-neighbour route improved by
 *          2-opt and or-opt moves with a bounded iterated local search. The route ends at the
 *          last stop (no return to the start). The plan is never longer than the start-time
 *          order: when nothing shorter is found (or as short with fewer late stops), that order
 *          is kept. Days of more than 1000 stops are not searched: they keep the start-time
 *          order ("optimized": false). The result is deterministic.
 * Returns: {"date", "startTime": "07:30" | null (no stops and no startTime),
 *           "stops": [{"visitId", "name", "arrival": "08:05", "departure": "09:05",
 *                      "waitMinutes", "lateMinutes", "distanceMeters", "travelMinutes",
 *                      "serviceMinutes", "window": "08:00/10:00" | null, "expectedTime",
 *                      "state", "latitude", "longitude"}],
 *           "distanceMeters", "originalDistanceMeters", "savedMeters", "lateStops",
 *           "originalLateStops", "optimized", "skipped": [{"visitId", "reason"}]}
 *          Stops are in the planned order. Times are local "HH:mm", always 24-hour whatever
 *          the hour24 setting, rounded to the nearest minute; a time past midnight keeps
 *          counting hours ("24:10" is 00:10 the next day) so a day's times always increase.
 *          waitMinutes, lateMinutes and travelMinutes are whole minutes (rounded). A stop's
 *          distanceMeters is the geodesic from the previous stop (from "start", or 0 for the
 *          first stop without one), rounded to whole metres; "distanceMeters" sums them;
 *          "originalDistanceMeters" and "originalLateStops" are the same for the stops in
 *          start-time order; "savedMeters" is their difference (never negative).
 * Errors:  CARFIT_INVALID with the field: "date" (missing, not a string, not a day),
 *          "employeeId" (not a string), "start" (not an object), "start.latitude" /
 *          "start.longitude" (missing, not a number, out of range), "startTime" (not "HH:mm"
 *          in 00:00-23:59), "speedKmh" (not in (0, 300], or so slow that the day would take
 *          more than 10,000,000 minutes), "detourFactor" (not in [1, 10]).
 *          CARFIT_STORAGE (the visits cannot be read). Nothing is stored or changed.
 */
int carfit_visits_plan(carfit_core *core, const char *request, char **response);

#ifdef __cplusplus
}
#endif

#endif /* CARFIT_H */
