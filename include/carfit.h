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
 *   error also has "line", "column" and "position" as jansson reports them. The other members
 *   an error may carry, each only where it applies: "httpStatus", "reason" and "url" (a request
 *   of the network failed or was refused: see each refresh and carfit_sync_push),
 *   "documentField" and "rejected" (a source answered a document that cannot be used),
 *   "lockedUntil" (carfit_session_login). The schema's "error" lists them with their types.
 *
 *   Statuses every operation may give, besides those listed per function:
 *       CARFIT_BAD_JSON  the request is not valid JSON (syntax, invalid UTF-8, nesting deeper
 *                        than 2048, integers beyond 64 bits, a string holding U+0000)
 *                        or is not an object (an empty text is {});
 *       CARFIT_INVALID   a member is of the wrong type or out of range, or the request is larger
 *                        than the core's maxRequestBytes (default 512 MiB);
 *       CARFIT_MISUSE    core is NULL, closed, or not a core;
 *       CARFIT_STORAGE   the database failed: the message names the file and says what is in
 *                        the way and what to do (the disk is full, another program kept it
 *                        locked past the busy timeout of 10 s, the file is damaged, read-only
 *                        or cannot be read or written); nothing was changed;
 *       CARFIT_INTERNAL  a bug in libcarfit; the message says what.
 *   No input, however malformed, crashes, traps or hangs the host.
 *
 *   Threads. One core may be used from several threads at once: calls on one core are
 *   serialised (the image functions excepted: they guard themselves, see "Carousel and
 *   images"). Distinct cores are independent, also on the same database file (also from
 *   different processes: SQLite's locking, WAL journal, 10 s busy timeout). A call needs
 *   about 320 KiB of the calling thread's stack for a request nested to jansson's limit
 *   (jansson parses recursively); threads with 512 KiB or more are tested.
 *
 *   Time. Rules that depend on "now" read the core's clock (the config's "now", else the system
 *   clock). Days are "YYYY-MM-DD" in the proleptic Gregorian calendar, years 1 to 9999.
 *   Instants are ISO 8601; source timestamps without a zone are UTC. Responses write instants
 *   as "2020-09-10T08:05:00Z".
 *
 *   Money is exact: at most two decimal places, sums in integer cents; a JSON number in a
 *   response is the double nearest to the exact decimal, written in its shortest form.
 *
 *   The schema. carfit.schema.json, shipped beside this header (installed as
 *   $(DATADIR)/carfit/carfit.schema.json: pkg-config --variable=schemafile carfit) and
 *   returned by carfit_schema(), is the same contract in machine-readable form: a JSON Schema
 *   (draft 2020-12) with, for every operation below, its "symbol", "summary", "request",
 *   "response" and "errors" (the statuses it can give besides CARFIT_MISUSE and
 *   CARFIT_INTERNAL), plus "config" (carfit_open's config), "error" (the error document, with
 *   every member an error can carry) and "event" (one event of carfit_events_wait). Every $ref
 *   points inside the document ("#/$defs/card"). Response objects are closed
 *   ("additionalProperties": false): the schema names every member the library writes, so a
 *   host can generate exact types from it; a later minor version may add members, and a host
 *   reading an older schema should ignore members it does not know. Request schemas are open
 *   and describe the members the library reads; a request member of a JSON type its schema
 *   refuses is CARFIT_INVALID with that member in field, before the operation runs.
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

/*
 * The version of this header, written here and nowhere else: the library, the build files, the
 * pkg-config and CMake packages and the Python binding all read these lines. A library of the
 * same major version is compatible; carfit_version_number() tells which one is loaded.
 */
#define CARFIT_VERSION_MAJOR 1
#define CARFIT_VERSION_MINOR 4
#define CARFIT_VERSION_PATCH 0
#define CARFIT_VERSION "1.4.0"
/* MAJOR * 10000 + MINOR * 100 + PATCH: compare with carfit_version_number() at run time. */
#define CARFIT_VERSION_NUMBER 10400

/* ---------------------------------------------------------------------------------------------
 * Status codes (values fixed forever)
 * ------------------------------------------------------------------------------------------- */

#define CARFIT_OK            0  /* ok */
#define CARFIT_BAD_JSON      1  /* request is not valid JSON, or not an object */
#define CARFIT_INVALID       2  /* a member is missing, of the wrong type, or out of range */
#define CARFIT_NOT_FOUND     3  /* the id, email, product, ... does not exist */
#define CARFIT_CONFLICT      4  /* a uniqueness rule would break */
#define CARFIT_UNAUTHORIZED  5  /* wrong PIN, nobody logged in, locked out; a source answered
                                   401 or 403 (see carfit_auth_set) */
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
 *            "firstWeekday" "monday" or "sunday" ("monday"; with "locale", the locale's first
 *                           day of the week: "sunday" for en and en-US, else "monday")
 *            "locale"       the language times, dates, month titles, weekday names and
 *                           amounts are written in, a BCP 47 tag, case-insensitive, "-" or
 *                           "_": "en" or "en-US", "en-GB", "da" or "da-DK", "nb", "nb-NO" or
 *                           "no", "sv" or "sv-SE", "de" or "de-DE"; anything else is
 *                           CARFIT_INVALID, field "locale", the message listing these tags.
 *                           Without it every answer is as in 1.3. With it, the texts are
 *                           CLDR 47's (as Babel 2.18.0 writes them, U+00A0 and U+202F
 *                           included): a time of day ("startTime", notification and reminder
 *                           bodies) in the locale's short time ("8:05 AM" in en-US, "08.05"
 *                           in da), or its 24-hour ("Hm") or 12-hour ("hm") form when
 *                           "hour24" is given (here or in the request: visits.list,
 *                           articles.list, articles.format_date); an article's "published"
 *                           as the locale's long date-time (the day without its year in the
 *                           current year: "4. marts 08.05", "20. december 2017 21.43");
 *                           the calendar's "title" ("marts 2026"), "weekdays" and each day's
 *                           "weekday" ("man.") and "firstWeekday"; "priceText", "amountText"
 *                           and "sumText" beside each amount ("1.234,50 kr."); and names
 *                           (employees, products, categories) in the locale's order: ICU's
 *                           collation for names of letters, spaces, hyphens and apostrophes
 *                           (Danish and Norwegian: æ, ø, å after z and "aa" as å; Swedish:
 *                           å, ä, ö after z; German and English: ä as a), names it ranks
 *                           equal in 1.3's order. visits.plan times stay "HH:mm";
 *                           sentences (titles, messages) stay English.
 *            "currency"     the ISO 4217 currency of every amount, for the texts beside them
 *                           with "locale": "USD", "DKK", "NOK", "SEK", "EUR" or "GBP" ("USD",
 *                           the seeds' currency); anything else is CARFIT_INVALID, field
 *                           "currency"
 *            "sources"      where each area's refresh fetches, http or https URLs (none):
 *                           {"visits", "articles", "catalog", "patterns", "visitUpdates"}
 *                           "locations" (where carfit_sync_push sends positions)
 *                           and "attachments", the base URL attachments are PUT under;
 *                           "devices", where carfit_sync_push sends the device's
 *                           push registration (see carfit_push_register)
 *            "http"         limits on every transfer: {"timeoutMs": 1..600000 (10000),
 *                           connecting and each wait for data; "totalTimeoutMs":
 *                           1..3600000 (120000), the whole transfer; "maxBodyBytes":
 *                           1..2^40 (268435456), the body once decoded;
 *                           "minBytesPerSecond": 0..2^40 (1024), the slowest rate kept:
 *                           a transfer moving fewer bytes a second than this for
 *                           timeoutMs (counted in whole seconds, at least 1) fails with
 *                           reason "timeout", so a server that drips cannot hold a
 *                           request until totalTimeoutMs; 0 turns the check off}
 *            "images"       {"directory": path, "memoryBytes": n, "diskBytes": n,
 *                            "concurrency": 1..64} (a temp dir of the core, 32 MiB, 256 MiB, 4)
 *            "maxRequestBytes" largest request accepted, in bytes (536870912)
 *            "importThreads" 0..64: threads a large visits import parses on besides the
 *                           calling thread, all joined before the call returns; 0 parses on
 *                           the calling thread alone (one per processor, at most 8)
 *            "auth"         who receives the planner's token (see carfit_auth_set):
 *                           {"origins": ["https://planner.example:8443", ...]}, origins of
 *                           http or https, a host and an optional port (no path); the
 *                           scheme's port when none is written (the origins of sources.visits
 *                           and sources.visitUpdates)
 *            "road"         positions, arrivals and departures (see carfit_location_report):
 *                           {"arrivalRadiusMeters": 1..100000 (75), "dwellSeconds": 0..86400
 *                           (60), "maxAccuracyMeters": 0..10000 (100), "minDistanceMeters":
 *                           0..100000 (20), "minIntervalSeconds": 0..86400 (300), "autoStart":
 *                           bool (false), "trailDays": 0..3650 (7)}
 *            "attachments" where attached photos, signatures and notes are kept:
 *                           {"directory": path (the database path + "-attachments"; none
 *                           for ":memory:"), "maxBytes": 1..2^40, the largest file (20 MiB),
 *                           "quotaBytes": 1..2^50, all stored files together (1 GiB)}
 *            "report"       time on the job (see carfit_report_day): {"keepDays": 1..3650 (90),
 *                           how many days after its visit's start the washer's facts are
 *                           kept; "minSamples": 1..50 (5), the samples a task title needs
 *                           before a learned plan uses its median (carfit_visits_plan)}
 *            "reminders"    time to leave (see carfit_reminders_list): {"bufferMinutes":
 *                           0..240 (5), "speedKmh": more than 0, at most 300 (30),
 *                           "detourFactor": 1..10 (1.3), "positionMaxAgeSeconds": 0..86400
 *                           (900)}
 *            "zoneinfo"     directory of the system's time zone files (TZif, Debian's tzdata)
 *                           that "timeZone" names a file of; symbolic links inside it
 *                           are fine ($TZDIR when set, else "/usr/share/zoneinfo"). A path
 *                           that is not a directory is CARFIT_INVALID, field "zoneinfo";
 *                           a "timeZone" that is not a valid TZif file under it, or that
 *                           leaves it (a ".." component, an absolute path, a link out of
 *                           it) is CARFIT_INVALID, field "timeZone". "UTC" needs no file.
 *            "encryption"   encryption at rest: {"key": 64 hexadecimal digits, either case}, a
 *                           256-bit key (absent: plaintext). With a key the database, its
 *                           "-wal" and "-journal" files and SQLite's temporary files are
 *                           encrypted (ChaCha20-Poly1305 in 4 KiB blocks, a key derived per
 *                           file from the key and a random salt; "-shm" holds no stored data
 *                           and stays plain), and so is every attached file (sealed in
 *                           ChaCha20-Poly1305 chunks of 64 KiB, each chunk's nonce bound to its
 *                           index and the last one marked, a key per file; read them with
 *                           carfit_visits_attachment_data, and an upload still sends the
 *                           original bytes and their SHA-256); images are cached in memory
 *                           only (the disk cache holds none, and what it held is dropped).
 *                           A refresh downloads its document to an anonymous file in memory
 *                           (memfd_create, at most "http" "maxBodyBytes"), never to $TMPDIR,
 *                           freed once it is imported: no file on disk holds it in the clear
 *                           (a system without memfd_create, Linux before 3.17, fails the
 *                           refresh with "reason": "storage"). A
 *                           plaintext database opened with a key is encrypted in place, its
 *                           attachments after it: a kill -9 at any moment leaves the old
 *                           plaintext database or the new encrypted one complete, and the next
 *                           open finishes the work. The library's SQLite is built in, so a host
 *                           that loaded another SQLite first changes nothing. The key is held
 *                           in memory only: never written, logged, or put in an error or
 *                           event. Keep it in the platform's keystore: on iOS a random key
 *                           (SecRandomCopyBytes) stored as a Keychain generic password
 *                           (kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly); on Android a
 *                           random key wrapped by an Android Keystore key (AES-GCM) and kept
 *                           wrapped in the app's private storage. A lost key means the data is
 *                           lost: nothing can decrypt the files without it (delete them and
 *                           refresh from the planner). An encrypted database opened without a
 *                           key is CARFIT_UNAUTHORIZED with "reason": "key_required" (as is a
 *                           file that does not start with SQLite's header), with another key
 *                           CARFIT_UNAUTHORIZED with "reason": "wrong_key" (field "encryption"
 *                           both); a refused open creates, changes and removes no file. A key
 *                           that is not 64 hexadecimal digits is CARFIT_INVALID, field
 *                           "encryption.key" (the message never quotes it).
 *          The config is strict, unlike requests: a member not listed here (also inside
 *          sources, http, images, auth, road, report, reminders and encryption) is CARFIT_INVALID with its dotted path in field
 *          ("timezone", "sources.vists") and a message naming the nearest known member when
 *          one is close ("Unknown config member timezone: did you mean timeZone?"), else the
 *          members that object takes. A null member reads as absent.
 *          core, where the new core is stored (must not be NULL);
 *          response, as for operations (may be NULL).
 * Returns: CARFIT_OK and *core set; the response is {"version": "1.4.0", "database": path}.
 *          On failure *core is NULL and the response is an error document.
 * Owns:    the caller owns *core and closes it with carfit_close().
 * Errors:  CARFIT_BAD_JSON (config text), CARFIT_INVALID (a config member unknown or wrong,
 *          named in field), CARFIT_STORAGE (field "database": the database cannot be opened
 *          or created, the message naming the file and the obstacle: its directory does not
 *          exist, no permission to read and write it or to create files in its directory,
 *          the file is read-only or on a read-only file system, it is a directory, it is not
 *          a libcarfit database or is encrypted or damaged, it was written by a newer
 *          libcarfit, the disk is full, another program holds it locked; or field
 *          "images.directory": the image directory cannot be created or written),
 *          CARFIT_UNAUTHORIZED (field "encryption", "reason" "key_required" or
 *          "wrong_key": see "encryption"), CARFIT_MISUSE (core is NULL).
 * Opening selects today (by the core's clock and zone) and displays its month.
 * Private files: every file and directory the core creates (the database and its "-wal",
 * "-shm" and "-journal" files, "<database>-sync.lock", the attachments directory and every file
 * in it, the temporary files of downloads and of copies in progress, the image directory and
 * its files, and any missing parent directory it makes for them) is readable and writable by
 * its owner only: files 0600, directories 0700, whatever the process's umask (which the core
 * leaves alone). Opening narrows what an earlier version created open to others: the
 * database, its "-wal", "-shm" and "-journal" files, the "-sync.lock" file, the attachments
 * directory and the files in it lose their group's and others' permissions (the owner's are
 * kept). A file the core cannot change (another owner's, on a read-only file system) is left
 * as it is and is no error. Temporary downloads go to $TMPDIR (else /tmp); with "encryption",
 * to an anonymous file in memory.
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
 * carfit_version — the library's version, "1.4.0" (equal to CARFIT_VERSION for this header).
 * Returns: a static string; do not free.
 */
const char *carfit_version(void);

/*
 * carfit_version_number — the library's version as one number, MAJOR * 10000 + MINOR * 100 +
 *                         PATCH: 10400 for 1.4.0 (equal to CARFIT_VERSION_NUMBER for this header).
 * Returns: the number. A host built against this header can refuse a library of another major
 *          version: carfit_version_number() / 10000 != CARFIT_VERSION_MAJOR.
 */
int carfit_version_number(void);

/*
 * carfit_status_name — the lowercase name of a status ("ok", "bad_json", ... "internal").
 * Returns: a static string; "unknown" for a value that is not a status. Do not free.
 */
const char *carfit_status_name(int status);

/*
 * carfit_schema — the machine-readable contract of this library: the text of
 *                 carfit.schema.json (see "The schema" above), the same document the
 *                 library was built with, so a host can read the contract of the library it
 *                 loaded.
 * Takes:   nothing.
 * Returns: a static NUL-terminated UTF-8 JSON text (a JSON Schema, draft 2020-12), the same
 *          pointer on every call; never NULL.
 * Owns:    the library (read-only data of the library itself); do not free it. It stays
 *          valid while the library is loaded. Safe from any thread.
 * Errors:  none.
 */
const char *carfit_schema(void);

/*
 * carfit_call — run an operation by its method name "<area>.<verb>" ("visits.list",
 *               "employees.recover_pin"); the same as calling carfit_<area>_<verb>.
 * Takes:   core, method (borrowed), request and response as for every operation.
 * Errors:  CARFIT_MISUSE for a NULL or unknown method (field "method"), and those of the
 *          operation.
 */
int carfit_call(carfit_core *core, const char *method, const char *request, char **response);

/* ---------------------------------------------------------------------------------------------
 * Visits: the washer's day (import, list, refresh, plan)
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_visits_import (method "visits.import") — replace the stored visits with a snapshot.
 *
 * Takes:   the visits API document {"success": true, "data": [visit...], "code": 200}, or
 *          {"data": [...]}, or {"file": "/path/visits.json"}: the core reads that file itself,
 *          a window at a time, so the file is never held whole in memory (a request with
 *          "data" is a document and its "file" is ignored). Another process truncating or
 *          rewriting the file during the import never harms the host: the import then fails
 *          (CARFIT_BAD_JSON for the text as it was found; CARFIT_INVALID, field "file", for a
 *          read that failed) or stores what it read, whole. A record needs "startTimeUtc" (ISO
 *          8601; no zone means UTC); every other member may be null or missing but must
 *          have its type when present. Latitude must lie in [-90, 90], longitude in [-180, 180], timesInMinutes in
 *          0..100000. Records with repeated visit ids are all kept.
 * Returns: {"imported": n, "rejected": [{"index": i, "field": "houseOwnerLatitude",
 *          "message": "..."}], "changes": [...]}: rejected records are skipped, the others
 *          replace the stored snapshot in one transaction. An empty "data" array is a snapshot
 *          with no visits. "changes" are the planner's changes against the snapshot replaced
 *          (see "The planner's changes" in the Push section); none for the database's first.
 * Errors:  CARFIT_INVALID (no "data" array; or records of which none is valid, with the
 *          "rejected" list above in the error document; field "data"; a file that cannot be
 *          opened or read, or is not a regular file: field "file", the system's reason
 *          such as "No such file or directory" in the message); nothing is changed.
 * The document is never held whole: the data array is split into elements by a scan of
 * strings and brackets, jansson parses each element (on up to "importThreads" threads of the
 * config besides the caller's, all joined before the call returns), and records are stored in
 * document order as they come. A document that is not JSON is CARFIT_BAD_JSON with jansson's
 * line, column and position for the whole text, as for any request; nothing is changed.
 * A document of more than 1 MiB reports its progress in the change feed (carfit_events_wait):
 * "progress" events with operation "visits.import", bytes of the request read so far.
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
 *          "latitude", "longitude", "employeeId", "distanceMeters", "distanceKm", "key",
 *          "pending", "timeUsedMinutes", "arrivedAt", "departedAt", "suggestion", "navigation",
 *          "attachments", "removed", "conflict", "nextStates"}:
 *            state        "Todo", "InProgress", "Done", "Rejected" in any source spelling and
 *                         case ("ToDo", "in_progress"); other values as given; null if absent
 *            stateColor   #4E77D6, #F5C709, #25A87B, #EF6565; #8E8E93 for others
 *            startTime    "HH:mm" (24h) or "hh:mm AM" (12h) in the core's zone
 *            distance...  geodesic (WGS84, Karney) metres from the previous card of the day,
 *                         rounded; km to one decimal; null for the first card or when either
 *                         end has no coordinates
 *            key          names this stored visit for carfit_visits_set_state: unique among the
 *                         stored visits, the same for the same (visitId, startTimeUtc) in every
 *                         snapshot (the n-th record of a repeated pair, in snapshot order, has
 *                         its own key). Opaque text: hosts keep it and send it back as it is
 *            pending      true while a state change of this visit waits to reach the update
 *                         server (see carfit_sync_push); state, stateColor and timeUsedMinutes
 *                         then show the washer's change, whatever the stored snapshot says
 *            timeUsedMinutes  the minutes the washer's Done change recorded, else the source's
 *                         visitTimeUsed (a whole number 0..100000; anything else counts as
 *                         none), else null
 *            arrivedAt, departedAt  when the washer arrived at and left the visit (UTC
 *                         instants; see carfit_location_report), else null
 *            suggestion   "start" (arrived, not left, Todo), "finish" (left, InProgress) or null
 *            navigation   {"geo": "geo:55.77883,12.52124", "google":
 *                         "https://www.google.com/maps/dir/?api=1&destination=55.77883,12.52124",
 *                         "apple": "https://maps.apple.com/?daddr=55.77883,12.52124"}, each
 *                         coordinate written as the card's own latitude and longitude (the
 *                         shortest decimal that reads back as the same double); null without
 *                         both coordinates
 *            attachments  {"photos", "signatures", "notes", "pending"}: how many of each kind
 *                         are attached to this visit (evicted ones included) and how many wait
 *                         for the upload (see carfit_visits_attach); not part of "pending"
 *            removed      true for a visit the stored snapshot no longer lists (the planner
 *                         removed it) that still has work on this device: a state change not
 *                         yet applied by the update server (or applied, until the next
 *                         snapshot is stored), an attachment waiting for the upload (a failed
 *                         one does not count) or an unacknowledged conflict. Such a card stays
 *                         on its day with its last known fields and the washer's state, counts
 *                         in the day's summary, and takes carfit_visits_set_state and
 *                         carfit_visits_acknowledge; it leaves the list as soon as none of that
 *                         work remains (at once after the upload or the acknowledgement).
 *                         false on every other card
 *            conflict     null, or {"mutationId", "state" (what the washer set), "reason" (the
 *                         server's), "at" (when the washer made the change, UTC instant),
 *                         "timeUsedMinutes" (its recorded minutes or null)}: the washer's
 *                         change the update server rejected last (of several rejected by one
 *                         answer, the newest), kept until carfit_visits_acknowledge. The card's
 *                         state is the snapshot's again (see carfit_sync_push); the conflict
 *                         says what the washer had done
 *            nextStates   the states carfit_visits_set_state accepts from the card's state, in
 *                         the order Todo, InProgress, Done, Rejected: ["InProgress",
 *                         "Rejected"] for Todo, ["Todo", "Done", "Rejected"] for InProgress,
 *                         [] for Done, Rejected, any other or no state, and for a visit
 *                         without a visitId (which the update server could not name)
 *          A visit belongs to the local day of its start in the core's zone; cards are in
 *          start order, equal starts in snapshot order.
 * Errors:  CARFIT_INVALID (a date that does not exist, e.g. "dates[1]" for "2020-02-30").
 */
int carfit_visits_list(carfit_core *core, const char *request, char **response);

/*
 * carfit_visits_refresh (method "visits.refresh") — fetch the configured visits source and
 * import it as carfit_visits_import does.
 *
 * Takes:   {"maxAgeSeconds": n}, optional. The core's config names the source ("sources": {"visits": url}) and the
 *          timeout ("http": {"timeoutMs"}: connecting, and each wait for data; the whole
 *          transfer is bounded too). The body is streamed to a temporary file (removed
 *          afterwards), never held whole in memory, and imported from there (with
 *          "encryption", a file in memory instead: see carfit_open); redirects are
 *          followed up to 5 times.
 *          The request is conditional: the ETag and Last-Modified of the last stored 200 from
 *          this URL are sent back as If-None-Match and If-Modified-Since (they survive
 *          reopening; carfit_visits_import drops them).
 *          Add "maxAgeSeconds": n (0 or more) to skip the network when this source's last
 *          success (sources.status "lastSuccessAt") is younger than n seconds by the core's
 *          clock: {"imported": 0, "fresh": true}, no request and no attempt recorded.
 * Returns: as carfit_visits_import: {"imported": n, "rejected": [...], "changes": [...]}; a
 *          304 answers {"imported": 0, "notModified": true, "changes": []} and changes nothing
 *          (a success), as a fresh cache does ({"imported": 0, "fresh": true, "changes": []}).
 *          Every attempt is recorded for carfit_sources_status.
 * Errors:  CARFIT_INVALID (no visits source configured; field "sources.visits"; or a URL the
 *          transfer cannot use as http or https, reason "not_http" with "url": nothing is
 *          sent; every refresh and carfit_sync_push classify a failure alike);
 *          CARFIT_UNAVAILABLE when the source is unreachable, times out, answers with a non-2xx
 *          status, or its body is not a visits document (empty, an HTML page such as a captive
 *          portal, truncated or otherwise invalid JSON, JSON without a "data" array, records
 *          of which none is valid); CARFIT_UNAUTHORIZED when it answers 401 or 403 (reason
 *          "unauthorized", with "httpStatus" and "url"; see carfit_auth_set). The
 *          whole body is fetched first and the snapshot is committed only after its last
 *          byte has been read, so on any of these the stored visits stay exactly as they
 *          were. The message says which failure it was; the error document adds "url" and
 *          "reason", one of "refused", "timeout", "dns", "network", "transport",
 *          "no_response", "too_large" (the decoded body passed its limit), "redirects" (more
 *          than 5 or a loop), "storage" (the temporary file could not be written),
 *          "http_status" (with "httpStatus": 404), "empty",
 *          "html", "truncated", "not_json" (with "line", "column", "position" for the last
 *          two), "not_document" or "rejected" (records of which none is valid, with the
 *          "rejected" list carfit_visits_import answers).
 * Threads: the core is not held while the request waits for the network: other calls on the
 *          same core (e.g. carfit_visits_list from the cache) proceed meanwhile. Once the
 *          body has arrived the core is held while it is read and stored, as for an import.
 * Progress: a body over 1 MiB publishes "progress" events ("visits.refresh", see
 *          carfit_events_wait) in one run over twice its size: its download, then its import.
 */
int carfit_visits_refresh(carfit_core *core, const char *request, char **response);

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
 *            keepOrder     true: keep the stops in start-time order and compute only their
 *                          times (the washer's live arrival estimates; "optimized": false)
 *            durations     "planned" (default): a stop's service minutes are its taskMinutes;
 *                          "learned": the sum over its tasks of the title's exact median
 *                          (carfit_report_durations, unrounded) when the title has at least
 *                          report.minSamples samples, else the task's planned minutes,
 *                          rounded up to a whole minute per stop
 * Today:   for today's date (by the core's clock and zone), without "start" the plan starts
 *          from the washer's position when it was reported today (carfit_location_report),
 *          and without "startTime" at the later of now (rounded down to the minute) and the
 *          earliest start time of the day's stops. Other dates are planned as described here.
 * Stops:   the day's visits (local day of their start, in the core's zone) in state Todo or
 *          InProgress (the state the card shows: a washer's change counts at once) (any source spelling) that have both coordinates. Every other visit of
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
 *          driving the stops in start-time order (among equally short orders, fewer late stops
 *          are preferred). Days without windows of up to 12 stops get the shortest order
 *          exactly (dynamic programming over subsets); days with windows of up to 10 stops get
 *          it by branch and bound (exact within a budget of 200000 search nodes); larger days
 *          get nearest-neighbour routes improved by 2-opt and or-opt moves and a bounded
 *          iterated local search. The route ends at the last stop (no return to the start).
 *          Waiting is not minimised: a shorter order may wait for a window. The plan is never
 *          longer than the start-time order: unless an order is found that is shorter, or as
 *          short with fewer late stops, the start-time order is kept. All work is capped, so a
 *          day plans in bounded time (200 stops: tens of milliseconds); days of more than 1000
 *          stops are not searched and keep the start-time order ("optimized": false). The same
 *          request on the same data always gives the same plan.
 * Returns: {"date", "startTime": "07:30" | null (no stops and no startTime),
 *           "stops": [{"visitId", "name", "arrival": "08:05", "departure": "09:05",
 *                      "waitMinutes", "lateMinutes", "distanceMeters", "travelMinutes",
 *                      "serviceMinutes", "window": "08:00/10:00" | null, "expectedTime",
 *                      "state", "latitude", "longitude"}],
 *           "distanceMeters", "originalDistanceMeters", "savedMeters", "lateStops",
 *           "originalLateStops", "optimized", "skipped": [{"visitId", "reason", "name"}]}
 *          Stops are in the planned order. Times are local "HH:mm", always 24-hour whatever
 *          the hour24 setting, rounded to the nearest minute; a time past midnight keeps
 *          counting hours ("24:10" is 00:10 the next day) so a day's times always increase.
 *          Half minutes round up.
 *          waitMinutes, lateMinutes and travelMinutes are whole minutes (rounded). A stop's
 *          distanceMeters is the geodesic from the previous stop (from "start", or 0 for the
 *          first stop without one), rounded to whole metres; "distanceMeters" sums them;
 *          "originalDistanceMeters" and "originalLateStops" are the same for the stops in
 *          start-time order; "savedMeters" is their difference (never negative).
 *          Members beyond the plan's essentials: "startTime", "savedMeters",
 *          "originalLateStops", "optimized"; per stop "travelMinutes", "serviceMinutes",
 *          "window", "expectedTime", "state", "latitude", "longitude"; per skipped visit "name".
 * Errors:  CARFIT_INVALID with the field: "date" (missing, not a string, not a day),
 *          "employeeId" (not a string), "start" (not an object), "start.latitude" /
 *          "start.longitude" (missing, not a number, out of range), "startTime" (not "HH:mm"
 *          in 00:00-23:59), "speedKmh" (not in (0, 300], or so slow that the day would take
 *          more than 10,000,000 minutes), "detourFactor" (not in [1, 10]).
 *          CARFIT_STORAGE (the visits cannot be read). Nothing is stored or changed.
 */
int carfit_visits_plan(carfit_core *core, const char *request, char **response);

/*
 * carfit_visits_set_state (method "visits.set_state") — the washer starts, finishes, rejects or
 * un-starts a visit; the change is kept at once and sent later by carfit_sync_push.
 *
 * Takes:   {"key": card's key, "state": "InProgress" | "Done" | "Rejected" | "Todo",
 *          "reason": "..." (optional, up to 1000 characters, kept for Rejected only)}.
 * Rules:   Todo -> InProgress, InProgress -> Done, Todo or InProgress -> Rejected, and
 *          InProgress -> Todo (a start undone). The present state is the one the card shows
 *          (a source's spelling such as "ToDo" counts as the state it names).
 * Returns: {"visit": card}, the card as carfit_visits_list shows it now: the new state and its
 *          colour, "pending": true, and for Done "timeUsedMinutes": whole minutes (half up) by
 *          the core's clock from this visit's InProgress change to the Done change (the source's
 *          visitTimeUsed when no start was recorded on this database).
 * Durable: the card's change and its outbox entry are one SQLite transaction: once the call
 *          returns, the change survives closing, a crash or kill -9 and reopening, and it is
 *          sent (once: see carfit_sync_push) by a later push of any core on this database.
 * Errors:  CARFIT_INVALID: "key" or "state" missing or not a string; "state" not one of the
 *          four names exactly; "reason" not a string or too long; "key" of a visit without a
 *          visitId (the update server names visits by visitId and startTimeUtc, so such a
 *          visit's state cannot be set). CARFIT_NOT_FOUND ("key"): no listed visit has that key
 *          (the planner removed it and it has no work left here, or the text is not a key; a
 *          removed card still listed takes changes). CARFIT_CONFLICT ("state"): the
 *          rules refuse the change; the message names both states ("A visit in state Done
 *          cannot become InProgress."). Nothing is changed on any error.
 */
int carfit_visits_set_state(carfit_core *core, const char *request, char **response);

/*
 * carfit_visits_acknowledge (method "visits.acknowledge") — the washer has seen a card's
 * conflict (an update the server rejected); it leaves the card.
 *
 * Takes:   {"key": card's key}.
 * Returns: {"visit": card}, the card as carfit_visits_list shows it now, "conflict": null. A
 *          removed card ("removed": true) whose conflict was its last work leaves the list at
 *          once; the answer is its card as the list showed it last, without the conflict.
 * Local:   nothing is sent to the server; no outbox entry is made. Durable as
 *          carfit_visits_set_state: once the call returns the acknowledgement survives closing,
 *          a crash or kill -9.
 * Errors:  CARFIT_INVALID: "key" missing or not a string. CARFIT_NOT_FOUND ("key"): no listed
 *          visit has that key. CARFIT_CONFLICT ("key"): the card has no conflict (never had
 *          one, or it was acknowledged already). Nothing is changed on any error.
 */
int carfit_visits_acknowledge(carfit_core *core, const char *request, char **response);

/* ---------------------------------------------------------------------------------------------
 * Sync: the washer's updates delivered to the update server, exactly once
 *
 * The outbox. Every carfit_visits_set_state adds an entry, in one transaction with the card's
 * change. Entries are ordered (oldest first) and each has a "mutationId", a random UUID made
 * once when the entry is written and never changed, however often the entry is sent. Each
 * database has a "clientId", a random UUID made once when the database is created (or first
 * opened by a 1.1 library), sent with every push.
 *
 * The protocol. carfit_sync_push POSTs to the config's "sources": {"visitUpdates": url}, with
 * "Content-Type: application/json", the body
 *     {"clientId": "...", "mutations": [{"mutationId", "visitId", "startTimeUtc", "state",
 *      "at", "timeUsedMinutes", "reason"}, ...]}
 * holding the pending entries oldest first, at most 500 a request ("startTimeUtc" and "at"
 * are UTC instants, "2020-09-10T08:05:00Z", with milliseconds when they have any;
 * "timeUsedMinutes" and "reason" may be null). The server must:
 *   - record every mutationId it handles and apply each at most once: a mutationId it has seen
 *     before gets its first answer again (applied, or rejected with the same reason) and
 *     changes nothing. The core resends an entry whenever it cannot know the outcome (a lost
 *     answer, a timeout, a crash between sending and storing the answer), so this is what
 *     makes each change apply exactly once;
 *   - apply a request's mutations in the order given, each against the state the ones before
 *     it left; a visit is the pair (visitId, startTimeUtc compared as an instant);
 *   - answer 200 {"applied": [mutationId...], "rejected": [{"mutationId", "reason"}]}.
 * The core then, in one transaction per answer: drops applied entries from the outbox (the card
 * keeps showing the change until the next snapshot is stored); drops rejected entries, undoes
 * their change (the card shows what the changes before it, or the snapshot, say) and lists them
 * in carfit_sync_status and as the card's "conflict" (until carfit_visits_acknowledge); keeps
 * entries the answer does not name pending (sent again by the next push); ignores ids it did
 * not send. Once an answer is committed, each entry it rejected publishes {"kind": "conflict",
 * "key", "mutationId", "reason"} to the change feed. An answer naming one id both applied and rejected,
 * one that is not such a JSON object, a non-2xx status, a timeout or any network failure
 * leaves every entry of that request pending.
 *
 * Snapshots. An import or refresh stores the new snapshot but never overwrites pending work:
 * while a visit has a pending entry its card shows the washer's state with "pending": true.
 * After the server applied it, the card still shows the washer's state until the next snapshot
 * is stored; from then on the snapshot (which now carries the change) is the authority.
 *
 * Several cores. Pushes of one database, from threads, cores or processes, run one at a time:
 * a push holds flock(LOCK_EX) on the file "<database>-sync.lock" (created 0600 next to the
 * database) for its whole run; the kernel releases it when the process ends, also by kill -9,
 * so no crash leaves it held. An entry is therefore never in two requests at once, and is sent again
 * only after its earlier request failed or the process sending it died.
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_sync_push (method "sync.push") — send the outbox to the update server.
 *
 * Takes:   {"ifDue": bool} (optional, default false).
 * Does:    sends the pending entries oldest first, 500 a request, request after request,
 *          committing each answer as it comes, until the outbox is empty or an answer leaves an
 *          entry unnamed (that entry waits for the next push). Entries added meanwhile by other
 *          calls are sent by a later request or push. Then, in this order, the trail's pending
 *          points when "sources": {"locations": url} is configured ("Positions" below), and the
 *          pending attachments when "sources": {"attachments": url} is ("Attachments" below).
 *          A push with none of visitUpdates, locations and attachments configured is
 *          CARFIT_INVALID.
 * Returns: {"pushed": applied entries, "rejected": rejected entries, "pending": entries left},
 *          and with attachments configured "attachments": {"uploaded": uploaded by this push,
 *          "pending": attachments left to upload, "failed": refused for good by this push}.
 *          With "ifDue": true, while the backoff after a failure lasts, no request is made and
 *          the answer is {"pushed": 0, "rejected": 0, "pending": n, "skipped": "backoff",
 *          "nextAttemptAt": instant}; while another push of this database runs, {"pushed": 0,
 *          "rejected": 0, "pending": n, "skipped": "busy"}; after a push was answered 401 or 403,
 *          until carfit_auth_set sets a token, {"pushed": 0, "rejected": 0, "pending": n,
 *          "skipped": "unauthorized"} (before the backoff is looked at). After carfit_auth_set
 *          sets a token, the next push tries at once, with "ifDue" too, whatever the backoff.
 * Backoff: after the n-th failed push in a row the next attempt is due at the failure's time +
 *          min(300 s, 1 s x 2^(n-1)) +/- 20% (random jitter), by the core's clock. A push
 *          without "ifDue" always tries (waiting for another push of the database to end, at
 *          most http.totalTimeoutMs). A push that gets an answer resets the count.
 * Errors:  CARFIT_INVALID ("sources.visitUpdates") when none of sources.visitUpdates,
 *          sources.locations, sources.attachments and sources.devices is configured; a configured URL the
 *          transfer cannot use as http or https is CARFIT_INVALID with reason "not_http",
 *          "url" and the field naming it ("sources.locations", ...), as in a refresh.
 *          CARFIT_UNAVAILABLE when a request fails: the error document has "url" and
 *          "reason", one of "refused", "timeout", "dns", "network", "transport",
 *          "no_response", "too_large", "redirects", "truncated", "http_status" (with "httpStatus"), "malformed" (the answer is not
 *          {"applied": [...], "rejected": [...]}), or "busy" (another push held the database
 *          past http.totalTimeoutMs); the failed request's entries all stay pending, the
 *          answers of earlier requests of the same call stay committed. The failure is
 *          recorded in carfit_sync_status and starts or extends the backoff.
 *          CARFIT_UNAUTHORIZED when the update server (or the positions' or attachments'
 *          server) answers 401 or 403 (reason "unauthorized", with "httpStatus" and "url"):
 *          the request's entries, points or attachment stay pending,
 *          the failure is carfit_sync_status's "lastError" but does not count for the backoff
 *          (neither "consecutiveFailures" nor "nextAttemptAt" change).
 * Threads: the core is not held while the network is waited for: other calls on the core
 *          (carfit_visits_set_state too) proceed meanwhile.
 * Positions: with "sources": {"locations": url} the push also sends the trail's pending
 *          points (see carfit_location_report), after the updates and under the same lock:
 *          POST {"clientId", "points": [{"id", "latitude", "longitude", "accuracyMeters",
 *          "at"}]}, oldest first, at most 1000 a request; the server must record every id,
 *          apply each point once (a resent id is named applied again) and answer 200
 *          {"applied": [id...]}. Applied points leave the location outbox; points an answer
 *          does not name stay pending for the next push; a point is sent again only after its
 *          request failed. Any failure (the reasons above; "malformed" for an answer that is
 *          not {"applied": [strings]}) makes the push CARFIT_UNAVAILABLE with the same backoff
 *          and status bookkeeping as the updates, the failed request's points all pending.
 *          Each push first removes applied points older than road.trailDays by the core's
 *          clock. The response then gains "locations": {"pushed": points applied, "pending":
 *          points left}; carfit_location_status's "lastPushAt" is the last request answered.
 * Device:  with "sources": {"devices": url} the push sends the device's registration
 *          (carfit_push_register) last: POST {"clientId", "platform", "token"} (token null to
 *          unregister), once per change of the record; any 2xx acknowledges it. Any failure
 *          makes the push CARFIT_UNAVAILABLE (CARFIT_UNAUTHORIZED for 401/403) with the same
 *          backoff and status bookkeeping as the updates, the record staying pending. The
 *          planner's token goes with it only when its origin is one of auth.origins. The
 *          response then gains "device": {"sent": bool} (false for a skipped push or an
 *          unchanged record). A push with only sources.devices configured is valid.
 */
int carfit_sync_push(carfit_core *core, const char *request, char **response);

/*
 * carfit_sync_status (method "sync.status") — where the washer's updates are.
 *
 * Takes:   no members.
 * Returns: {"clientId", "pending": entries in the outbox, "lastAttemptAt", "lastSuccessAt"
 *          (instants or null), "lastError": null | {"reason", "message", "at", "httpStatus"},
 *          "consecutiveFailures", "nextAttemptAt" (when an "ifDue" push tries again; null
 *          when no failure is recorded), "rejected": [{"mutationId", "visitId",
 *          "startTimeUtc", "state", "reason", "at", "timeUsedMinutes"}] (the last 100 rejected
 *          changes, oldest first; "timeUsedMinutes" as the change recorded it, or null)}. Stored in the database: it survives closing and reopening.
 * Errors:  CARFIT_STORAGE (the database cannot be read).
 */
int carfit_sync_status(carfit_core *core, const char *request, char **response);

/* ---------------------------------------------------------------------------------------------
 * Location: the washer on the road
 *
 * The host reports the device's positions; the core keeps a trail of the significant ones,
 * tells when the washer has arrived at a visit and left it, and sends the trail to the planner
 * (carfit_sync_push, "sources": {"locations": url}). The config's "road" member sets the
 * rules (see carfit_open): arrivalRadiusMeters, dwellSeconds, maxAccuracyMeters,
 * minDistanceMeters, minIntervalSeconds, autoStart, trailDays. Distances are geodesic (WGS84,
 * Karney), instants by the core's clock.
 *
 * Counting reports. Only a report with accuracyMeters <= maxAccuracyMeters counts: it alone
 * enters the trail, moves the position and decides arrivals and departures. A less accurate
 * report is accepted and answered, and changes nothing else.
 * The trail. A counting report is stored when it is the first, or is at least
 * minDistanceMeters from the last stored point, or at least minIntervalSeconds after it. Each
 * stored point has an "id" (a random UUID) and waits in the location outbox until the planner
 * applied it; applied points older than trailDays are removed by the next push. The position
 * is the last counting report.
 * Arrival. The washer has arrived at a visit when counting reports within arrivalRadiusMeters
 * of the visit's coordinates span at least dwellSeconds with no counting report outside the
 * radius between them; "arrivedAt" is the "at" of the report that completes the span. Only
 * today's visits (by the core's clock and zone) in state Todo (as the card shows it) with no
 * arrival yet arrive; one a report: of several, the earliest start wins, then the smaller key
 * by code points, and another may arrive on a later report. A visit arrives once: its card
 * gains "arrivedAt", and the change feed gets {"kind": "arrival", "key", "at"}. With
 * "autoStart": true the arrival also changes the visit to InProgress exactly as
 * carfit_visits_set_state would, at arrivedAt (outbox entry included; a visit without a
 * visitId is not started).
 * Departure. After an arrival, the first counting report farther than twice the radius: the
 * card's "departedAt" and {"kind": "departure", "key", "at"}.
 * Cards (carfit_visits_list) carry "arrivedAt", "departedAt" (instants or null) and
 * "suggestion": "start" when arrived, not departed and Todo; "finish" when departed and
 * InProgress; else null. Arrivals and departures are changes of the "visits" and "location"
 * areas of the change feed, stored points and the position of "location".
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_location_report (method "location.report") — the device's position.
 *
 * Takes:   {"latitude": -90..90, "longitude": -180..180, "accuracyMeters": 0..10000 (the
 *          device's accuracy radius), "at": instant (optional: the core's clock; ISO 8601 with
 *          "Z" or an offset)}; the three numbers are required.
 * Returns: {"stored": bool (the report joined the trail), "arrived": [keys] (at most one),
 *          "departed": [keys], "position": {"latitude", "longitude", "accuracyMeters", "at"} |
 *          null (the position after the report; null before any counting report)}; instants
 *          are UTC, with milliseconds when they have any. The caller owns the response.
 * Durable: the report's effects (its point, the position, arrivals, departures, an autoStart
 *          change with its outbox entry) are one SQLite transaction.
 * Errors:  CARFIT_BAD_JSON; CARFIT_INVALID with field "latitude", "longitude" or
 *          "accuracyMeters" (missing, not a number, not finite, out of range) or "at" (not an
 *          instant with a zone, or older than the newest accepted report, counting or not;
 *          equal instants are accepted). A refused report changes nothing.
 *          CARFIT_STORAGE.
 */
int carfit_location_report(carfit_core *core, const char *request, char **response);

/*
 * carfit_location_status (method "location.status") — the position and the trail.
 *
 * Takes:   no members.
 * Returns: {"position": {"latitude", "longitude", "accuracyMeters", "at"} | null, "trail":
 *          {"stored": points kept, "pending": points the planner has not applied},
 *          "lastPushAt": the last successful location push, or null}. Stored in the
 *          database: it survives closing and reopening. The caller owns the response.
 * Errors:  CARFIT_STORAGE (the database cannot be read).
 */
int carfit_location_status(carfit_core *core, const char *request, char **response);

/* ---------------------------------------------------------------------------------------------
 * Push: the planner's changes, by push
 *
 * The planner's changes. Every stored visits snapshot (carfit_visits_import, or a
 * carfit_visits_refresh answered 200) is compared with the one it replaces, in the import's
 * transaction. An occurrence is the pair (visitId, startTimeUtc as an instant); records
 * without a visitId take no part; a pair found several times counts as many times (their keys
 * tell them apart and pair up in key order). Only occurrences whose own start falls on today
 * or a later local day (the configured zone, the core's clock) count, before any pairing: a
 * visit moved from yesterday to tomorrow is "added", one moved from tomorrow to yesterday
 * "removed". Per visitId: an occurrence only in the new snapshot is "added", only in the old
 * "removed", except that exactly one of each is one "moved" ("previousStartTimeUtc" the old
 * start); an occurrence in both is "updated" when its card's "name", "address",
 * "coordinates", "expectedTime" or "tasks" (each task's title and minutes, in order) differ,
 * listed in "fields" in that order; the state is not compared. A change is {"change": "added" |
 * "removed" | "moved" | "updated", "visitId", "key" (of the new occurrence; of the old one for
 * removed), "name", "startTimeUtc", "previousStartTimeUtc" (moved; else null), "fields"
 * (updated; else [])}, sorted by startTimeUtc, visitId, change, then key. The first snapshot
 * of a database yields none.
 *
 * A notification is {"id", "kind", "title", "body", "key", "at", "deepLink", "navigation"}:
 * "id" is stable ("<change>:<visitId>:<startTimeUtc>", "visit:<key>", "message:<push id>") so
 * a host replaces a shown one instead of stacking another; "kind" the change, "visit" or
 * "message"; "title" "New visit", "Visit cancelled", "Visit moved", "Visit changed", "Next
 * visit" or the message's title; "body" the client's name and the local start time as the
 * card writes it ("HH:mm", or 12-hour with hour24 false): "<name> at 09:30", cancelled
 * "<name> at 09:30 is cancelled", moved "<name>: 09:30 → 11:00", changed "<name> at 09:30:
 * address, tasks changed", next visit "<name> at 09:30, <address>"; a message's body as
 * given. "key", "at" (the occurrence's start), "deepLink" ("carfit://visit/" and the key with
 * every byte but A-Z a-z 0-9 - . _ ~ percent-encoded) and "navigation" (the card's links) are
 * null for a message; "navigation" is null for a removed visit and a visit without
 * coordinates.
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_push_receive (method "push.receive") — a push of the planner's, as the host got it.
 *
 * Takes:   {"payload": object (APNs userInfo, FCM data), "refresh": bool (default true)}. The
 *          core reads the payload's "carfit" member, an object or a string holding one (FCM
 *          data values are strings): {"v": 1, "id": 1-200 characters, "kind": "visits" |
 *          "visit" | "message", "seq": integer >= 1 (optional)} plus, for "visit", "visitId"
 *          and "startTimeUtc", and for "message", "title" (1-100 characters) and "body"
 *          (1-1000). The payload written as compact JSON is at most 4096 bytes.
 * Returns: {"duplicate": bool, "gap": bool, "refreshed": bool, "refreshError": error document
 *          | null, "changes": [change...], "notifications": [notification...]}.
 *          Once: the ids of the last 1000 pushes accepted are kept in the database; a repeated
 *          id answers {"duplicate": true, "gap": false, "refreshed": false, "refreshError":
 *          null, "changes": [], "notifications": []} and does nothing else.
 *          Order: the highest "seq" accepted is kept; a "seq" above it plus one is "gap": true
 *          (pushes were lost); none is a gap before any seq was kept; a lower seq is handled
 *          normally and does not lower the highest.
 *          "visits": with "refresh", the visits are refreshed at once (a conditional request
 *          as carfit_visits_refresh makes, whatever the last success's age); with "refresh" a
 *          gap refreshes too, whatever the kind; "refresh": false never contacts the source.
 *          "refreshed" is true when the source answered (200 or 304). A failed refresh (no
 *          sources.visits configured included) does not fail the push: "refreshed": false,
 *          "refreshError": its whole error document ({"error": {...}}), CARFIT_OK, and the push
 *          is recorded. Each change of the refresh gives a notification.
 *          "visit": the stored occurrence (visitId, startTimeUtc, the first of its key), after
 *          a refresh (with "refresh") when it is not stored, gives one "visit" notification.
 *          "message": one notification with the planner's title and body.
 *          The caller owns the response.
 * Errors:  CARFIT_BAD_JSON; CARFIT_INVALID with "field" naming the member ("payload",
 *          "payload.carfit", "payload.carfit.kind", ...; "payload" for one over 4096 bytes):
 *          nothing is recorded. CARFIT_NOT_FOUND (field "payload.carfit.visitId") for a
 *          "visit" push whose occurrence is still unknown: the push is not recorded.
 *          CARFIT_STORAGE.
 * Threads: the core is not held while the refresh waits for the network. Two processes on one
 *          database agree on which received a push first: the other answers it as a duplicate.
 */
int carfit_push_receive(carfit_core *core, const char *request, char **response);

/*
 * carfit_push_register (method "push.register") — the device's push token.
 *
 * Takes:   {"platform": "apns" | "fcm", "token": 1-4096 characters from "!" to "~"}, or
 *          {"token": null} to unregister ("platform" optional then; the unregistration
 *          carries the last platform). Kept in the database (a push token addresses the
 *          device; it is no credential). carfit_sync_push sends it to sources.devices.
 * Returns: {"device": ...} as carfit_push_status answers it. Registering the record already
 *          stored changes nothing (and sends nothing again). The caller owns the response.
 * Errors:  CARFIT_BAD_JSON; CARFIT_INVALID ("platform": not apns or fcm, or missing with a
 *          token; "token": missing, empty, too long, or a byte outside "!" to "~");
 *          CARFIT_STORAGE.
 */
int carfit_push_register(carfit_core *core, const char *request, char **response);

/*
 * carfit_push_status (method "push.status") — the registration and the pushes received.
 *
 * Takes:   no members.
 * Returns: {"device": {"platform", "registered": bool (the devices server acknowledged the
 *          current record), "pending": bool (a change not yet acknowledged)} | null (never
 *          registered, or unregistered and acknowledged), "lastSeq": integer | null,
 *          "received": the number of push ids kept}. The caller owns the response.
 * Errors:  CARFIT_STORAGE.
 */
int carfit_push_status(carfit_core *core, const char *request, char **response);

/* -------------------------------------------------------------------------------------------
 * Attachments: proof of work (photos, signatures, notes) kept offline and uploaded once
 *
 * Storage. The core copies each attached file into its attachments directory (config
 * "attachments": {"directory"}, by default the database path + "-attachments"; an in-memory
 * database has none unless configured), streaming: the copy is written under a temporary name
 * (".carfit-<id>.partial"), flushed to the disk (fsync), renamed to the attachment's id, and
 * recorded in the database. A crash or kill -9 at any moment leaves an attachment whole or
 * absent, never partial; temporaries left by a crash are removed when a core opens. The host
 * may delete its own file once the call returned. The stored copies together stay within
 * "quotaBytes": an attach that needs room evicts uploaded attachments' files, oldest first and
 * only as many as needed (they stay listed with "path": null and counted on the card).
 * The directory (and any parent the core makes for it) is 0700 and every file in it 0600,
 * whatever the umask; opening a core narrows a directory or files an earlier version left open
 * to others, and leaves another owner's as they are without an error (see carfit_open).
 *
 * An attachment is {"id" (a UUID), "key" (its visit's card key), "kind": "photo" |
 * "signature" | "note", "contentType", "bytes", "sha256" (lowercase hex of its bytes), "at"
 * (the core's clock when attached), "uploaded": bool}, plus "failed": reason once the upload
 * server refused it for good. Attachments stay, and are still uploaded, when a later snapshot
 * no longer has their visit.
 *
 * Upload (part of carfit_sync_push when "sources": {"attachments": base} is configured). One
 * at a time, oldest first, each pending attachment is sent as PUT <base>/<id> with headers
 * Content-Type (its contentType), Content-Length (never a chunked body), X-Carfit-Sha256
 * (lowercase hex), X-Carfit-Visit-Id (absent for a visit without one), X-Carfit-Start-Time-Utc
 * ("2020-09-10T08:05:00Z", with milliseconds when it has any) and X-Carfit-Kind; the body is
 * read from the stored copy as it is sent (never held whole in memory). The server must treat
 * a PUT of an id it already holds as the same upload (idempotent): the core sends an
 * attachment again whenever it cannot know it arrived (a lost answer, a crash). Any 2xx marks
 * it uploaded (only then); a 4xx other than 401, 403, 408 and 429 marks it failed, never sent
 * again, and the push goes on; a 401 or 403 stops the upload as CARFIT_UNAUTHORIZED, as for
 * the outbox (the planner's token is missing or refused: no backoff, and ifDue pushes wait for
 * a new token; see carfit_auth_set); any other answer or failure (no connection, timeout, 5xx,
 * 408, 429, the connection closed mid-body) stops the upload: CARFIT_UNAVAILABLE with
 * "reason" (as for the outbox), everything not yet uploaded stays pending, and the push's one
 * backoff (shared with the outbox) starts or grows. A push whose pending attachments hold more
 * than 1 MiB reports {"kind": "progress", "operation": "attachments.upload", "done", "total",
 * "unit": "bytes"} on the change feed (see carfit_events_wait). Pushes of one database run one
 * at a time (see Sync), so no attachment is in two uploads at once.
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_visits_attach (method "visits.attach") — attach a photo, a signature or a note to a visit.
 *
 * Takes:   {"key": card's key, "kind": "photo" | "signature" | "note", "file": path} or, for
 *          a note, {"key", "kind": "note", "text": "..."} ("text" wins over "file"). The
 *          content is told by the file's first bytes, never its name: a photo is JPEG
 *          (image/jpeg), PNG (image/png), WebP (image/webp) or HEIC (image/heic: an ISO-BMFF
 *          "ftyp" box with brand heic, heix, mif1 or msf1); a signature is PNG or SVG
 *          (image/svg+xml: after an optional BOM, whitespace, an XML declaration, comments and
 *          a DOCTYPE, the root element is <svg); a note is UTF-8 text of 1 to 10,000 Unicode
 *          scalar values (text/plain; charset=utf-8), from "text" or from a file.
 * Returns: {"attachment": attachment} (see above), "uploaded": false.
 * Owns:    the file is only read; the core keeps its own copy.
 * Errors:  CARFIT_INVALID: "key" or "kind" missing; "kind" not one of the three ("kind");
 *          "file" missing, unreadable (the system's reason in the message), a directory or not
 *          a regular file, empty, larger than attachments.maxBytes, or content that is not what
 *          the kind takes, a note file that is not UTF-8 text of 1 to 10,000 characters
 *          ("file"); "text" empty, longer than 10,000 characters or not a string ("text"); an
 *          in-memory core without attachments.directory ("attachments.directory").
 *          CARFIT_NOT_FOUND ("key"): no stored visit has that key. CARFIT_CONFLICT (with
 *          "reason": "quota"): the attachments not yet uploaded and this one would take more
 *          than attachments.quotaBytes. CARFIT_STORAGE: the directory or the database cannot
 *          be written. Nothing is stored or changed on any error.
 */
int carfit_visits_attach(carfit_core *core, const char *request, char **response);

/*
 * carfit_visits_attachments (method "visits.attachments") — a visit's attachments.
 *
 * Takes:   {"key": card's key}.
 * Returns: {"attachments": [attachment + "path": the stored copy's full path, null once
 *          evicted]}, in the order attached (also for a visit a later snapshot dropped).
 * Errors:  CARFIT_INVALID ("key" missing). CARFIT_NOT_FOUND ("key"): no stored visit and no
 *          attachment has that key. CARFIT_STORAGE (the database cannot be read).
 */
int carfit_visits_attachments(carfit_core *core, const char *request, char **response);

/*
 * carfit_visits_detach (method "visits.detach") — remove an attachment not yet uploaded.
 *
 * Takes:   {"id": attachment id}.
 * Returns: {"attachment": the removed attachment}; its stored copy is deleted. An attachment
 *          the server refused ("failed") may be removed too.
 * Errors:  CARFIT_INVALID ("id" missing). CARFIT_NOT_FOUND ("id"): no attachment has that
 *          id. CARFIT_CONFLICT ("id"): it was uploaded already. CARFIT_STORAGE.
 */
int carfit_visits_detach(carfit_core *core, const char *request, char **response);

/*
 * carfit_visits_attachment_data — the original bytes of an attachment's stored copy, whatever
 * the encryption (see "encryption" in carfit_open): with a key the copy holds ciphertext and
 * carfit_visits_attachments gives no path, so a host shows a photo or a note from these bytes.
 * (No method name: carfit_call cannot return bytes.)
 *
 * Takes:   core; request {"id": attachment id} (borrowed); bytes and length, where the bytes
 *          and their count are stored (neither may be NULL); response as for operations.
 * Returns: CARFIT_OK, *bytes a new buffer of *length bytes (the caller frees it with
 *          carfit_free), and the response {"id", "bytes": n, "contentType"}. On failure
 *          *bytes is NULL and *length 0.
 * Errors:  CARFIT_INVALID (id missing, field "id"), CARFIT_NOT_FOUND (no attachment has that
 *          id, or its copy was removed after its upload, field "id"), CARFIT_STORAGE (the
 *          stored copy cannot be read, or does not decrypt), CARFIT_MISUSE (core, bytes or
 *          length NULL).
 */
int carfit_visits_attachment_data(carfit_core *core, const char *request, unsigned char **bytes, size_t *length, char **response);

/* ---------------------------------------------------------------------------------------------
 * Reminders: time to leave
 *
 * The config's "reminders" member sets the rules (see carfit_open): bufferMinutes (5),
 * speedKmh (30), detourFactor (1.3), positionMaxAgeSeconds (900). Distances are geodesic
 * (WGS84), instants by the core's clock, days in its zone.
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_reminders_list (method "reminders.list") — when to leave for each open visit of a day.
 *
 * Takes:   {"date": "2020-09-10"} (optional: today by the core's clock and zone).
 * Returns: {"date", "reminders": [reminder...]}, one reminder for each card of that local date
 *          in state Todo (the state the card shows, the washer's pending changes included)
 *          with both coordinates, without an arrival (carfit_location_report) and not
 *          "removed", sorted by leaveAt, then key (code points). A reminder is {"id": "leave:"
 *          + key, "key", "name", "leaveAt", "arriveBy", "travelMinutes", "distanceMeters",
 *          "late", "title": "Time to leave", "body", "deepLink", "navigation"}:
 *            arriveBy        the visit's startTimeUtc, as its card writes it (to the second)
 *            origin          the previous card of the date (start-time order) with
 *                            coordinates, whatever its state (a removed one too); none for
 *                            the first. For today, the next visit's (the earliest card that
 *                            qualifies, whether or not its start has passed) origin is the
 *                            washer's position instead when it was reported no more than
 *                            positionMaxAgeSeconds before the core's clock (a position
 *                            reported later than the clock counts as fresh)
 *            distanceMeters  the geodesic from the origin, rounded; null without an origin
 *            travelMinutes   ceil(geodesic metres x detourFactor / (speedKmh x 1000 / 60));
 *                            null without an origin (travel then counts as 0)
 *            leaveAt         arriveBy - travelMinutes - bufferMinutes, rounded down to the minute
 *            late            the core's clock is strictly after leaveAt
 *            body            "<name> at <local time of arriveBy as the card writes startTime>,
 *                            <address>" ("Visit" for a card without a name; no address part
 *                            for an empty address)
 *            deepLink        "carfit://visit/" + the key with every byte but A-Z a-z 0-9 - . _ ~
 *                            percent-encoded (the notifications' link for the same visit)
 *            navigation      the card's links (see carfit_location_report's "Navigation")
 *          Instants are UTC text. The caller owns the response.
 * Errors:  CARFIT_BAD_JSON; CARFIT_INVALID ("date" not a day YYYY-MM-DD); CARFIT_STORAGE.
 */
int carfit_reminders_list(carfit_core *core, const char *request, char **response);

/* ---------------------------------------------------------------------------------------------
 * Report: time on the job
 *
 * Facts. The core keeps, for every visit occurrence (its card key), the instants of the
 * washer's own changes: "startedAt" (the last change to InProgress; a start undone, InProgress
 * to Todo, clears it; a rejection after a start keeps it), "finishedAt" (Done) and "rejectedAt"
 * (Rejected), whether they came from carfit_visits_set_state or an autoStart arrival, with the
 * occurrence's planned tasks (titles and minutes) as they were at its last change. They are
 * kept in their own table, committed with the change, for the config's report.keepDays (90)
 * days after the visit's start, whatever the outbox, the update server's answers (a rejected
 * change keeps its fact) or later snapshots (one without the visit) do; they survive closing
 * and kill -9. Writing a fact forgets those of visits started more than keepDays ago.
 * Minutes between two instants are whole minutes rounded to the nearest (a half up).
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_report_day (method "report.day") — a day's time report.
 *
 * Takes:   {"date": "2020-09-10"} (optional: today by the core's clock and zone).
 * Returns: {"date", "visits": [entry...], "totals"}: one entry per card of that local date
 *          (a "removed" card still listed included), in card order (start, then snapshot
 *          order), {"key", "visitId", "name", "state" (as the card shows it),
 *          "plannedMinutes" (the card's taskMinutes), "startedAt", "finishedAt" (the facts,
 *          or null), "workedMinutes" (finishedAt - startedAt; null unless both),
 *          "arrivedAt", "departedAt" (carfit_location_report, or null),
 *          "onSiteMinutes" (departedAt - arrivedAt; null unless both), "lateMinutes"
 *          (arrivedAt - startTimeUtc, at least 0; null without an arrival)}. "totals":
 *          {"plannedMinutes" (of the cards not Rejected), "workedMinutes", "onSiteMinutes"
 *          (sums of the entries' non-null minutes, each already rounded), "driveMinutes" (over
 *          the cards with an arrival in arrival order: each arrivedAt minus the previous such
 *          card's departedAt where both exist and the difference is positive, each rounded,
 *          then summed), "done", "rejected", "todo", "inProgress" (cards by shown state)}.
 *          The caller owns the response.
 * Errors:  CARFIT_BAD_JSON; CARFIT_INVALID ("date" not a day YYYY-MM-DD); CARFIT_STORAGE.
 */
int carfit_report_day(carfit_core *core, const char *request, char **response);

/*
 * carfit_report_durations (method "report.durations") — the time each task takes, learned.
 *
 * Takes:   no members.
 * Returns: {"tasks": [{"title", "samples", "plannedMinutes", "medianMinutes", "p80Minutes"}]},
 *          sorted by title (code points), only titles with a sample. Samples: each kept
 *          occurrence with a startedAt and a later finishedAt shares its worked time
 *          (unrounded) among its tasks in proportion to their planned minutes (a task planned
 *          at 0 gets none; a task without a title is no sample; titles trimmed); each share
 *          is one sample of its title. A title's newest 50 samples count (by finishedAt; ties
 *          by key, then task order); "samples" is how many count. "medianMinutes" is the
 *          ceil(n/2)-th smallest, "p80Minutes" the ceil(0.8 n)-th smallest, each rounded to
 *          0.1 minute (a half up) from the exact value (the shares are exact fractions);
 *          "plannedMinutes" is the task's planned minutes in its newest sample. The caller owns
 *          the response.
 * Errors:  CARFIT_BAD_JSON; CARFIT_STORAGE.
 */
int carfit_report_durations(carfit_core *core, const char *request, char **response);

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
 * Employees, session, catalog and cart: the wine club's shop
 *
 * An employee is {"id": integer, "pin": "4821", "firstName", "lastName", "email": lower-case
 * text or null, "hiredOn": "YYYY-MM-DD"}. A product id is an integer or a string as the catalog
 * gave it; 101 and "101" name the same product, and responses write the id in the form it was
 * last imported with. Prices are exact (at most two decimals, 0 to 1000000, kept in integer
 * cents). Employees, the login lock-out, products, carts and orders live in the database; which
 * employee is logged in is held by each core in memory (a new core starts logged out).
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_employees_create (method "employees.create") — add an employee.
 *
 * Takes:   {"pin": "4821", "firstName": "Ada", "lastName": "Lovelace",
 *          "email": "ada@example.com", "hiredOn": "2024-03-01"}.
 *            pin        required; a string of 4 to 12 ASCII digits (a JSON number is refused)
 *            firstName, lastName  required; trimmed, non-empty, at most 100 characters, no
 *                       control characters
 *            email      optional (absent, null or blank: none); an ASCII address of the shape
 *                       local@domain.tld (the last label letters, at least two); stored trimmed
 *                       and lower-case
 *            hiredOn    optional; "YYYY-MM-DD"; default: today by the core's clock and zone
 * Returns: {"employee": {...}} with the new id.
 * Errors:  CARFIT_INVALID (field "pin", "firstName", "lastName", "email" or "hiredOn");
 *          CARFIT_CONFLICT when the PIN, the last name (case-insensitive) or the email (case-
 *          insensitive) is taken: field "pin", "lastName" or "email", checked in that order.
 *          First names may repeat. A refused call stores nothing.
 */
int carfit_employees_create(carfit_core *core, const char *request, char **response);

/*
 * carfit_employees_list (method "employees.list") — every employee.
 * Takes:   no members.
 * Returns: {"employees": [{...employee, "cartQuantity": 3}]} sorted by last name, then first
 *          name, ignoring case and accents ("Étienne" among the E's), then by id; cartQuantity
 *          is the total quantity in that employee's cart.
 */
int carfit_employees_list(carfit_core *core, const char *request, char **response);

/*
 * carfit_employees_recover_pin (method "employees.recover_pin") — find a PIN by email.
 * Takes:   {"email": "ada@example.com"} (compared case-insensitively, surrounding blanks ignored).
 * Returns: {"pin", "firstName", "lastName"}.
 * Errors:  CARFIT_INVALID (email missing, blank or not an address; field "email");
 *          CARFIT_NOT_FOUND ("No employee has that email."; field "email").
 */
int carfit_employees_recover_pin(carfit_core *core, const char *request, char **response);

/*
 * carfit_session_login (method "session.login") — log an employee in on this core.
 *
 * Takes:   {"pin": "4821"}.
 * Returns: {"employee": {...}}; that employee is logged in on this core (replacing any other).
 * Errors:  CARFIT_UNAUTHORIZED:
 *            - no employee has the PIN (field "pin"); the message says how many attempts are
 *              left;
 *            - after 5 such failures in a row (across all cores and processes on the database),
 *              every login is refused for 30 seconds of the core's clock, the right PIN and
 *              malformed ones included. The message says "locked until <instant>" and the
 *              error document carries "lockedUntil": "2024-05-01T10:00:30Z" (the end of the
 *              lock rounded up to the second). Attempts refused during a lock neither count nor
 *              extend it; after a lock the count starts again from zero; a successful login
 *              resets it. The count and the lock are stored in the database, so reopening does
 *              not lift them.
 *          CARFIT_INVALID (field "pin"): the PIN is missing, not a string, or not 4 to 12
 *          digits. Such an attempt is not counted as a failure.
 *          A refused login leaves the current session as it was.
 */
int carfit_session_login(carfit_core *core, const char *request, char **response);

/* carfit_session_logout (method "session.logout") — log out (also when nobody is logged in).
 * Returns: {"employee": null}. */
int carfit_session_logout(carfit_core *core, const char *request, char **response);

/* carfit_session_get (method "session.get") — the logged-in employee.
 * Returns: {"employee": {...}} or {"employee": null}. */
int carfit_session_get(carfit_core *core, const char *request, char **response);

/*
 * carfit_catalog_import (method "catalog.import") — add or update products.
 *
 * Takes:   the wine.com shape {"Products": {"List": [{"Id", "Name", "Description",
 *          "Labels": [{"Url"}], "Varietal": {"WineType": {"Name"}}, "PriceRetail"}]}}, or
 *          {"products": [{"id", "name", "category", "description", "imageUrl", "price"}]}.
 *          A record needs an id (integer or non-blank string of at most 200 characters), a
 *          non-blank name and a price (a number, or a decimal string such as "7.50"; at most
 *          two decimals; 0 to 1000000). The category is Varietal.WineType.Name, the image the
 *          first label's Url; text is trimmed and blank text reads as null.
 * Returns: {"imported": n, "rejected": [{"index": i, "field": "PriceRetail", "message"}]}.
 *          Valid records are upserted by id in one transaction: a new product goes after all
 *          stored ones (import order), an updated one keeps its place. A record repeated in
 *          one document: the last one wins.
 * Errors:  CARFIT_INVALID when the document has no product list (field "products", or
 *          "Products" / "Products.List" for the wine.com shape); nothing is changed.
 */
int carfit_catalog_import(carfit_core *core, const char *request, char **response);

/*
 * carfit_catalog_refresh (method "catalog.refresh") — fetch the configured catalog source and
 * import it as carfit_catalog_import does.
 *
 * Takes:   {"maxAgeSeconds": n}, optional, as for carfit_visits_refresh; the source is the
 *          config's "sources": {"catalog": url}, answering either catalog shape (the wine.com
 *          {"Products": {"List": [...]}} or {"products": [...]}). Conditional as
 *          carfit_visits_refresh (carfit_catalog_import drops the validators).
 * Returns: as carfit_catalog_import; a 304 answers {"imported": 0, "notModified": true}, a
 *          fresh cache (maxAgeSeconds) {"imported": 0, "fresh": true}.
 * Errors:  CARFIT_INVALID (no catalog source configured; field "sources.catalog");
 *          CARFIT_UNAVAILABLE for every network or document failure, with the "reason" and
 *          "url" of carfit_visits_refresh; CARFIT_UNAUTHORIZED for a 401 or 403 answer, as
 *          carfit_visits_refresh; the stored products stay as they were. The core is
 *          not held while waiting for the network.
 * Progress: a body over 1 MiB publishes "progress" events ("catalog.refresh", see
 *          carfit_events_wait) as it downloads, the complete one once the products are stored.
 */
int carfit_catalog_refresh(carfit_core *core, const char *request, char **response);

/*
 * carfit_catalog_list (method "catalog.list") — the catalog screen.
 * Takes:   {"category": "Red Wines", "sort": "name"}; category null or missing: all products;
 *          a category matches exactly (one nobody has gives an empty list); sort "name"
 *          (default), "-name", or "none" (import order). Name order ignores case and accents
 *          ("Étienne" among the E's): names compare by their keys' code points, a key being
 *          the name's compatibility decomposition (NFKD) without nonspacing marks, case-folded
 *          (Python's unicodedata and str.casefold for Latin, Greek and Cyrillic letters; Ø, Ł,
 *          Œ keep their own code points; other characters are their own keys); equal keys by
 *          the names' code points, then by id (integer ids first, by value); "-name" is the
 *          exact reverse. With the config's "locale", names are compared by the locale's
 *          collation first (see carfit_open), the ones it ranks equal in the order above.
 * Returns: {"categories": [every category, sorted the same way], "products": [{"id", "name",
 *          "category", "imageUrl": url or null, "price"}]}; with a "locale", each product
 *          also has "priceText", its price in the config's "currency" as the locale writes
 *          it ("$34.99", "34,99 kr.").
 * Errors:  CARFIT_INVALID (sort not one of the three, category not a string).
 */
int carfit_catalog_list(carfit_core *core, const char *request, char **response);

/*
 * carfit_catalog_product (method "catalog.product") — one product.
 * Takes:   {"id": 101} (or "101").
 * Returns: {"product": {"id", "name", "category", "imageUrl", "price", "description",
 *          "hasDescription"}} ("priceText" too with a "locale"); a missing or blank description reads "No description
 *          available." with hasDescription false.
 * Errors:  CARFIT_INVALID (id missing or not an integer or string); CARFIT_NOT_FOUND (field "id").
 */
int carfit_catalog_product(carfit_core *core, const char *request, char **response);

/*
 * The cart of the logged-in employee. Every cart function needs a logged-in employee on this
 * core (else CARFIT_UNAUTHORIZED, checked first after the request members' JSON types) and
 * answers
 *     {"cart": {"lines": [{"productId", "name", "imageUrl", "quantity"}], "totalQuantity": n}}
 * with lines in the order their products were first added; with the config's "locale", each
 * line also has "priceText", its product's unit price as the locale writes it. Carts are stored in the database;
 * each change is one BEGIN IMMEDIATE transaction, so cores in several processes adding to one
 * cart at once lose nothing. A refused call changes nothing.
 */

/*
 * carfit_cart_add (method "cart.add") — add to the cart.
 * Takes:   {"productId": 101, "quantity": 1}; quantity an integer 1..999 (default 1). A product
 *          already in the cart adds to its line, which keeps its place; otherwise a new last line.
 * Errors:  CARFIT_INVALID (productId missing or malformed; quantity not 1..999; or the line would
 *          pass 999: field "quantity"); CARFIT_NOT_FOUND (no such product; field "productId").
 */
int carfit_cart_add(carfit_core *core, const char *request, char **response);

/*
 * carfit_cart_update (method "cart.update") — set a line's quantity.
 * Takes:   {"productId": 101, "quantity": 3}; quantity required, 1..999 (0 is invalid: use remove).
 * Errors:  CARFIT_INVALID (field "quantity" or "productId"); CARFIT_NOT_FOUND (the product is
 *          not in the cart; field "productId").
 */
int carfit_cart_update(carfit_core *core, const char *request, char **response);

/*
 * carfit_cart_remove (method "cart.remove") — remove a line.
 * Takes:   {"productId": 101}.
 * Errors:  CARFIT_INVALID (productId missing or malformed); CARFIT_NOT_FOUND (not in the cart).
 */
int carfit_cart_remove(carfit_core *core, const char *request, char **response);

/* carfit_cart_get (method "cart.get") — the cart. Takes no members. */
int carfit_cart_get(carfit_core *core, const char *request, char **response);

/*
 * carfit_cart_checkout (method "cart.checkout") — place the cart as an order.
 * Returns: {"order": {"id", "placedAt": instant by the core's clock, "lines": [...cart lines],
 *          "totalQuantity"}, "message": "Thank you for your order!", "cart": {"lines": [],
 *          "totalQuantity": 0}}. The order (with each line's unit price at that moment) is
 *          stored and the cart emptied in one transaction.
 * Errors:  CARFIT_INVALID when the cart is empty (nothing is stored).
 */
int carfit_cart_checkout(carfit_core *core, const char *request, char **response);

/*
 * carfit_cart_orders (method "cart.orders") — the logged-in employee's orders, newest first.
 * The orders checkout stores, as it answered them.
 * Returns: {"orders": [{"id", "placedAt", "lines", "totalQuantity"}]}.
 */
int carfit_cart_orders(carfit_core *core, const char *request, char **response);

/* ---------------------------------------------------------------------------------------------
 * Transactions and insights
 *
 * A transaction is {"id", "name", "category", "amount", "date", "accountName", "provider",
 * "pinned"}:
 *   id        a JSON integer or a non-empty string (at most 256 bytes), echoed with its type.
 *             The type is part of the id: 1 and "1" are two different transactions. Integer ids
 *             sort numerically before string ids; strings sort by code point. (A real without a
 *             fraction, 3.0, reads as the integer 3.)
 *   category  trimmed and lower-cased when stored ("Food " is "food"); "all" is reserved.
 *             Requests name categories the same way, so {"category": "Food"} lists "food".
 *   amount    exact, at most two decimals, |amount| <= 10000000000000 (1e13); negative amounts
 *             (refunds) are allowed. In a request: a JSON number (accepted when it is the double
 *             nearest to a decimal with at most two places: 54.60 is, 0.125 is not), an integer,
 *             or a decimal string "-?digits[.d[d]]" ("54.60"). In a response: the JSON number
 *             nearest to the exact decimal (54.6 for 54.60).
 *   date      "YYYY-MM-DD".
 *   name, accountName, provider   strings as given, or null.
 *   pinned    whether the amount counts in the sum and the insights.
 * Sums and totals are computed in integer cents (no rounding ever); a response writes the
 * double nearest to the exact decimal (the sample's 13 transactions total exactly 472.08).
 * The category bar is "all", then food, health, entertainment, shopping, travel (always, in this
 * order), then the other categories of the stored transactions (pinned or not) in code point
 * order. The list and the insights read the same stored pins: a pin shows in both at once.
 * Transactions are kept in the database and survive closing and reopening it.
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_transactions_import (method "transactions.import") — add or update transactions.
 *
 * Takes:   {"transactions": [{"id", "name", "category", "amount", "date", "accountName",
 *          "provider", "pinned"}...]}. Required per record: id, category, amount, date; the
 *          others may be null or missing but must have their type when present.
 * Does:    upserts by id, in document order (an id repeated in one document: the last record
 *          wins), in one transaction. A new transaction is pinned unless its record says
 *          "pinned": false; a record without "pinned" (or with null) keeps the stored
 *          transaction's pin, so re-importing never undoes the user's choice. Transactions not
 *          in the document stay as they are.
 * Returns: {"imported": n, "rejected": [{"index": i, "field": "amount", "message": "..."}]}:
 *          records that fail validation (an amount with more than two decimals, out of range
 *          or missing; a date that is missing or not a valid "YYYY-MM-DD"; a missing or empty
 *          id; a missing, empty or "all" category; a member of the wrong type; a record that
 *          is not an object, field null) are skipped; the others are stored.
 * Errors:  CARFIT_INVALID (no "transactions" array; field "transactions"); nothing is changed.
 */
int carfit_transactions_import(carfit_core *core, const char *request, char **response);

/*
 * carfit_transactions_list (method "transactions.list") — the transactions screen.
 *
 * Takes:   {"category": "food"}; "all", null or missing lists every transaction. A category
 *          nobody uses lists nothing (count 0, sum 0).
 * Returns: {"category": "food", "categories": ["all", "food", "health", "entertainment",
 *          "shopping", "travel", ...others], "transactions": [transaction...], "count": 5,
 *          "sum": 74.28, "pinnedCount": 5}. Transactions newest date first, then by id.
 *          count is the number listed, pinned or not; sum adds the pinned ones only (the
 *          floating sum); pinnedCount (an extension) counts them. With the config's "locale",
 *          each transaction also has "amountText" and the answer "sumText": the amount and
 *          the sum in the config's "currency" as the locale writes them ("-1.234,50 kr.").
 * Errors:  CARFIT_INVALID (category not a string, or empty; field "category").
 */
int carfit_transactions_list(carfit_core *core, const char *request, char **response);

/*
 * carfit_transactions_pin (method "transactions.pin") — pin or unpin one transaction.
 *
 * Takes:   {"id": 3, "pinned": false}; both required ("pinned" true pins, false unpins).
 * Returns: {"transaction": transaction} as stored after the change ("amountText" too with a
 *          "locale").
 * Errors:  CARFIT_INVALID (id missing or not an integer or non-empty string, field "id";
 *          pinned missing or not a boolean, field "pinned"); CARFIT_NOT_FOUND (no transaction
 *          has that id with that type, field "id"). Nothing is changed on an error.
 */
int carfit_transactions_pin(carfit_core *core, const char *request, char **response);

/*
 * carfit_insights_get (method "insights.get") — spending per category over pinned transactions.
 *
 * Takes:   no members.
 * Returns: {"categories": [{"category": "food", "total": 74.28, "count": 5, "share": 0.1573}...],
 *          "total": 472.08, "count": 13}. One row per category of the bar (without "all"), in
 *          its order, also when nothing in it is pinned (total 0, count 0, share 0). total and
 *          count cover pinned transactions only; the top-level count (an extension) is the
 *          number of pinned transactions. share = total / grand total, rounded to 4 decimals
 *          (halves away from zero, computed exactly); 0 when the grand total is 0. With refunds
 *          a share may be negative or above 1. With the config's "locale", each category and
 *          the answer also have "sumText", the total as the locale writes it in the
 *          config's "currency".
 */
int carfit_insights_get(carfit_core *core, const char *request, char **response);

/* ---------------------------------------------------------------------------------------------
 * Articles: the news feed, offline first
 *
 * The core keeps the last imported articles in its database: they survive carfit_close and are
 * read by carfit_articles_list without the network. carfit_articles_refresh replaces them only
 * when the source answers with a valid document.
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_articles_import (method "articles.import") — replace the stored articles with a snapshot.
 *
 * Takes:   the Cars API document {"status": "success", "content": [article...]} ("status" may
 *          be missing; any other value is refused). An article is {"id", "title", "dateTime",
 *          "ingress", "image", "tags", "content": [{"type", "subject", "description"}]}:
 *            id        required, a whole number or a non-empty string (kept as given)
 *            title     required string
 *            dateTime  required, exactly "dd.MM.yyyy HH:mm" in UTC ("25.05.2018 14:13"); the day
 *                      must exist (no "29.02.2019"), hours 00-23, minutes 00-59, years 0001-9999
 *            ingress, image   strings, or null/missing
 *            tags      array (elements kept as given), or null/missing for []
 *            content   array of objects whose type/subject/description are strings or null, or
 *                      null/missing for []; other members of a block are dropped
 *          Records with repeated ids are all kept, as for visits.
 * Returns: {"imported": n, "rejected": [{"index", "field", "message"}], "updatedAt": instant}:
 *          rejected records are skipped, the others replace the stored articles in one
 *          transaction; updatedAt (an extension) is the core's clock at this import. An empty
 *          "content" array is a snapshot with no articles.
 * Errors:  CARFIT_INVALID (no "content" array, field "content"; records of which none is
 *          valid, with the "rejected" list above in the error document, field "content"; a
 *          "status" other than "success", field "status"); nothing is changed.
 */
int carfit_articles_import(carfit_core *core, const char *request, char **response);

/*
 * carfit_articles_refresh (method "articles.refresh") — fetch the configured articles source
 * and import it as carfit_articles_import does.
 *
 * Takes:   {"maxAgeSeconds": n}, optional, as for carfit_visits_refresh; the source is the
 *          config's "sources": {"articles": url}. Conditional as carfit_visits_refresh
 *          (carfit_articles_import drops the validators).
 * Returns: as carfit_articles_import; a 304 answers {"imported": 0, "notModified": true}, a
 *          fresh cache (maxAgeSeconds) {"imported": 0, "fresh": true}.
 * Errors:  CARFIT_INVALID (no articles source configured; field "sources.articles");
 *          CARFIT_UNAVAILABLE for every network or document failure, exactly as
 *          carfit_visits_refresh (same "reason" and "url" members; a document refused by
 *          carfit_articles_import is "not_document", or "rejected" with the "rejected" list
 *          when it had records and none was valid); CARFIT_UNAUTHORIZED for a 401 or 403
 *          answer, as carfit_visits_refresh. The stored articles and "updatedAt"
 *          stay as they were. The core is not held while waiting for the network.
 * Progress: a body over 1 MiB publishes "progress" events ("articles.refresh", see
 *          carfit_events_wait) as it downloads, the complete one once the articles are stored.
 */
int carfit_articles_refresh(carfit_core *core, const char *request, char **response);

/*
 * carfit_articles_list (method "articles.list") — the stored articles, newest first.
 *
 * Takes:   {"hour24": bool}, optional: overrides the core's clock style for "published".
 * Returns: {"articles": [{"id", "title", "ingress", "imageUrl", "dateTime":
 *          "2018-05-25T14:13:00Z", "published": "25 May 2018, 14:13", "tags", "content":
 *          [{"type", "subject", "description"}]}], "updatedAt": instant of the last successful
 *          import or refresh, or null if there was none}. Articles with equal dates keep their
 *          order in the snapshot. "published" follows carfit_articles_format_date; for the
 *          rare date whose local day falls outside the years 1-9999 it is written in UTC with
 *          the year.
 * Errors:  only the common ones.
 */
int carfit_articles_list(carfit_core *core, const char *request, char **response);

/*
 * carfit_articles_format_date (method "articles.format_date") — the date text of the list.
 *
 * Takes:   {"date": instant (ISO 8601; no zone means UTC), "hour24": bool (default: the
 *          core's clock style)}.
 * Returns: {"text"}: "16 March, 12:34" when the instant's local year (in the core's zone) is
 *          the current local year by the core's clock, else "20 December 2017, 21:43"; on a
 *          12-hour clock "20 December 2017, 09:43 PM". English month names, day without
 *          padding, hours padded to two digits.
 * Errors:  CARFIT_INVALID (date missing, not an instant, or its local day outside the years
 *          1-9999; field "date").
 */
int carfit_articles_format_date(carfit_core *core, const char *request, char **response);

/* ---------------------------------------------------------------------------------------------
 * Carousel and images
 *
 * The carousel screen: rows of tiles whose images come from a pool of patterns, and an image
 * pipeline in front of HTTP with two caches:
 *   memory  an LRU bounded by the images' bytes ("images.memoryBytes"; 0 disables it);
 *   disk    an LRU bounded by the files' bytes ("images.diskBytes"; 0 disables it), one file per
 *           image in "images.directory" named by the 64-bit FNV-1a hash of the URL in 16 hex
 *           digits plus ".img"; a hit touches the file, and opening a core indexes the directory
 *           by modification time, so the order and the contents survive reopening. Without a
 *           configured directory the core makes a temporary one and removes it on close. The
 *           bound holds per core: cores sharing a directory each keep their own index. The
 *           directory (and any parent the core makes for it) is created 0700 and each file
 *           0600, whatever the umask; a directory that exists is used as it is.
 * Neither level ever holds more than its limit; an image larger than a level's limit is not
 * stored there. Identical loads in progress at the same time (a prefetch included) share one
 * download. Failures are never cached: the next request tries again.
 *
 * Threads. The image functions (carfit_images_*) do not take the core's lock: a load that waits
 * on the network does not hold up other calls on the same core. carfit_close cancels the queued
 * prefetches, cancels the transfers in progress, and waits for them and for the loads in
 * progress (which then fail with CARFIT_MISUSE) before it returns.
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_patterns_import (method "patterns.import") — add patterns to the carousel's pool.
 *
 * Takes:   the colourlovers "patterns/random" array itself ([{"imageUrl", "title", "colors"},
 *          ...], a bare JSON array: the one request that need not be an object), or
 *          {"patterns": [...]}. A record needs "imageUrl" (http or https); "title" (string) and
 *          "colors" (strings of six hex digits, "3779B1", a leading "#" allowed) may be null or
 *          missing. Other members ("id", "userName", ...) are ignored.
 * Returns: {"imported": n, "rejected": [{"index", "field", "message"}], "pool": size of the
 *          pool}. The pool is kept in the database, in the order patterns were first imported;
 *          a pattern whose imageUrl is already in the pool updates its title and colours and
 *          keeps its place.
 * Errors:  CARFIT_INVALID (an object without a "patterns" array; field "patterns"); nothing is
 *          changed.
 */
int carfit_patterns_import(carfit_core *core, const char *request, char **response);

/*
 * carfit_patterns_refresh (method "patterns.refresh") — fill the pool from the configured
 * patterns source (colourlovers' "patterns/random" answers one pattern a call).
 *
 * Takes:   {"count": 10} (1-100, default 10), {"maxAgeSeconds": n} optional as for
 *          carfit_visits_refresh. GETs "sources.patterns" count times, at most
 *          "images.concurrency" requests at once; each answer (at most 4 MiB) is a patterns
 *          document as carfit_patterns_import takes it.
 * Returns: {"added": patterns new to the pool, "pool": its size, "failed": requests that
 *          failed or did not answer a patterns document}. A pattern whose imageUrl is already
 *          pooled is not added again (it updates its title and colours). A fresh pool
 *          (maxAgeSeconds since the last success) answers {"imported": 0, "fresh": true}
 *          without a request.
 * Errors:  CARFIT_INVALID (no patterns source configured, field "sources.patterns"; count out
 *          of range, field "count"); CARFIT_UNAVAILABLE only when every request failed (the
 *          "reason" and "url" of one of them, as carfit_visits_refresh; CARFIT_UNAUTHORIZED
 *          instead when one of them was answered 401 or 403), the pool unchanged.
 *          The core is not held while waiting for the network.
 */
int carfit_patterns_refresh(carfit_core *core, const char *request, char **response);

/*
 * carfit_carousel_generate (method "carousel.generate") — the carousel feed.
 *
 * Takes:   {"rows": 1..1000, "columns": 1..1000, "seed": integer (0)}; rows and columns are
 *          required, seed is any 64-bit integer.
 * Returns: {"rows": [{"index": 0, "title": "Amber Harbor", "tiles": [{"id": "r0c0",
 *          "title": "Quiet Lagoon", "color": "#A1B2C3", "imageUrl": url | null}, ...]}, ...]}.
 *          Titles are two words from a fixed list, drawn by SplitMix64 from the seed and the
 *          tile's position only: the same seed gives the same titles on every platform and
 *          release, whatever the grid's size or the pool. Tile k (k = row * columns + column)
 *          shows pattern k mod n of the pool's n patterns; its color is that pattern's first
 *          colour, else (no pool, or a pattern without colours) a colour drawn from the seed.
 *          imageUrl is null when the pool is empty.
 * Errors:  CARFIT_INVALID (rows or columns missing or out of range, seed not an integer).
 */
int carfit_carousel_generate(carfit_core *core, const char *request, char **response);

/*
 * carfit_images_data — the bytes of an image: from memory, else disk, else the network.
 * (No method name: carfit_call cannot return bytes.)
 *
 * Takes:   core; request {"url": http or https URL} (borrowed); bytes and length, where the
 *          image and its size are stored (neither may be NULL); response as for operations.
 * Returns: CARFIT_OK, *bytes a new buffer of *length bytes (the caller frees it with
 *          carfit_free), and the response {"url", "bytes": n, "source": "memory" | "disk" |
 *          "network", "contentType": "image/png" | "image/jpeg" | "image/gif" | "image/webp"}
 *          (the type follows the magic bytes, not the server's Content-Type). Blocks until the
 *          image is there; a call for a URL already loading (by another call or a prefetch)
 *          waits for that load and reports its source. On failure *bytes is NULL, *length 0.
 * Errors:  CARFIT_INVALID (url missing or not http(s), field "url"; the body is not a PNG,
 *          JPEG, GIF or WebP image, field "url"), CARFIT_UNAVAILABLE (unreachable, timed out
 *          after "http.timeoutMs", a status other than 2xx, or a body over 100 MiB),
 *          CARFIT_MISUSE (core, bytes or length NULL; the core closed during the load).
 *          Nothing is cached on failure.
 */
int carfit_images_data(carfit_core *core, const char *request, unsigned char **bytes, size_t *length, char **response);

/*
 * carfit_images_prefetch (method "images.prefetch") — load images in the background.
 *
 * Takes:   {"urls": [url, ...], "priority": "low" | "normal" | "high" ("normal")}; every URL
 *          must be http or https, else nothing is queued.
 * Returns: at once, {"queued": n}: the URLs now waiting (repeats in the request count once).
 *          A URL already in memory or loading is not queued; one already queued keeps its
 *          place, or moves to the end of a higher priority. Background loads (disk, else
 *          network) run at most "images.concurrency" at a time, higher priority first, in the
 *          order given within a priority; they fill both caches. Loads by carfit_images_data
 *          run on the caller's thread and are not counted against that limit; a queued URL
 *          that carfit_images_data asks for is loaded by that call and leaves the queue.
 * Errors:  CARFIT_INVALID (urls missing, field "urls"; not a URL, field "urls[i]"; an unknown
 *          priority, field "priority").
 */
int carfit_images_prefetch(carfit_core *core, const char *request, char **response);

/*
 * carfit_images_cancel (method "images.cancel") — drop queued prefetches.
 *
 * Takes:   {"urls": [url, ...]}.
 * Returns: {"cancelled": n}, the URLs taken out of the queue. A load already started goes on
 *          (its image is cached); a URL that is not queued is ignored.
 * Errors:  CARFIT_INVALID (as for carfit_images_prefetch).
 */
int carfit_images_cancel(carfit_core *core, const char *request, char **response);

/*
 * carfit_images_stats (method "images.stats") — the caches and counters of this core.
 *
 * Takes:   no members.
 * Returns: {"memory": {"count", "bytes", "limit"}, "disk": {"count", "bytes", "limit"},
 *           "requests": {"network", "coalesced", "memoryHits", "diskHits", "failures"},
 *           "prefetch": {"queued", "loading"}}.
 *          network counts HTTP requests made; coalesced, calls that waited for a load already in
 *          progress; memoryHits and diskHits, images served by a level (a prefetch finding its
 *          image on disk counts too); failures, loads that failed (network, status, not an
 *          image). prefetch.queued is the queue's length, prefetch.loading the background loads
 *          in progress. Counters start at 0 when the core opens.
 */
int carfit_images_stats(carfit_core *core, const char *request, char **response);

/* ---------------------------------------------------------------------------------------------
 * Sources: offline first
 *
 * Every refresh (carfit_visits_refresh, carfit_articles_refresh, carfit_catalog_refresh,
 * carfit_patterns_refresh) records its attempt in the database: when it was made, whether it
 * succeeded (a 304 is a success), and if not why. Hosts read it to show "no connection" on
 * every screen while the stored data stays usable. Each attempt also publishes a "source" event
 * to the change feed (see carfit_events_wait).
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_sources_status (method "sources.status") — each configured source's refresh state.
 *
 * Takes:   no members.
 * Returns: {"offline": bool, "sources": {"visits": {"url", "lastAttemptAt", "lastSuccessAt",
 *          "lastError": null | {"reason", "message", "at", "httpStatus"}, "consecutiveFailures",
 *          "notModified"}, ...}}: one member per configured source among "visits", "articles",
 *          "catalog" and "patterns" (not "visitUpdates"). Instants are ISO 8601 UTC by the
 *          core's clock, or null before the first attempt or success; "lastError" is that of
 *          the last attempt, null once one succeeds ("httpStatus" null unless the server
 *          answered a non-2xx status; "reason" "unauthorized" for a 401 or 403, which does not
 *          make "offline" true). Every refresh that fails is a failed attempt, whatever
 *          failed (the network, the document, or the storage: reason "storage" when the
 *          database could not store it, e.g. a full disk), by the same rule that publishes a
 *          "failed" source event; a request refused before asking the network
 *          (CARFIT_INVALID, CARFIT_MISUSE) is no attempt. "consecutiveFailures" counts the failed attempts since
 *          the last success; "notModified" is true when the last success was a 304. "offline"
 *          is true when the most recent refresh attempt that failed for a network reason
 *          ("refused", "timeout", "dns", "network") came after the last success of any
 *          source. Stored in the database: it survives reopening.
 */
int carfit_sources_status(carfit_core *core, const char *request, char **response);

/* ---------------------------------------------------------------------------------------------
 * Auth: the planner's token
 *
 * The planner's back end (the visits and the washer's updates) may require a token; the news
 * feed, the wine catalog and the patterns may be public third-party APIs that must never see
 * it. The host hands the token to the core with carfit_auth_set after its own sign-in; the
 * core keeps it in memory only: never in the database or its journal, a log, an error
 * document or an event, and a reopened core has none (set it again after carfit_open).
 *
 * Who receives it. The config's "auth": {"origins": [...]} names the origins (scheme, host and
 * port, "https://planner.example:8443"; the scheme's port when none is written, so
 * "https://planner.example" and "https://planner.example:443" are one origin); without it,
 * the origins of "sources.visits" and "sources.visitUpdates". While a token is set, every
 * request the core makes to a configured source ("sources": "visits", "articles", "catalog",
 * "patterns", "visitUpdates") whose URL is on one of those origins carries
 * "Authorization: <scheme> <token>"; no other request does. Image requests (carfit_images_*)
 * never carry it, whatever their URL. A redirect that leaves the request's origin (another
 * scheme, host or port, also one in the list) is followed without it.
 *
 * Refusals. A 401 or 403 answer from a source, with or without a token set, is
 * CARFIT_UNAUTHORIZED with "reason": "unauthorized", "httpStatus" and "url" in the error
 * document; the stored data stays as it was; the failure is recorded (carfit_sources_status's
 * "lastError", or carfit_sync_status's for "visitUpdates") without making "offline" true.
 * The first such answer since the token was last set (or since opening) publishes one event
 * {"kind": "auth", "status": "required", "source", "httpStatus"} and sets "required" in
 * carfit_auth_status; later ones publish nothing until carfit_auth_set is called again (the
 * same token set again counts as new). A refused push stops "ifDue" pushes (answer "skipped":
 * "unauthorized", no request) until a token is set, so a host polling with "ifDue" never
 * loops on 401; see carfit_sync_push.
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_auth_set (method "auth.set") — set or clear the planner's token.
 *
 * Takes:   {"token": "...", "scheme": "Bearer"}: token a string of 1 to 8192 printable ASCII
 *          characters (0x21-0x7E: no blank, control character, line break or non-ASCII
 *          character), or null to clear it; scheme optional on every call (default "Bearer"),
 *          an HTTP token of 1 to 8192 letters, digits or !#$%&'*+-.^_`|~ ("Bearer", "Token",
 *          "DPoP"). The request is borrowed; the core copies the token and keeps it in memory
 *          only.
 * Does:    replaces any token set before; either way forgets "required", so the next 401 or
 *          403 publishes an "auth" event again. Setting a token (not clearing) also lifts the
 *          stop on "ifDue" pushes after a refused push, and makes the next push ("ifDue" or not)
 *          try at once, whatever the backoff.
 * Returns: {"auth": status}, the document of carfit_auth_status. The response never holds the
 *          token.
 * Owns:    the caller owns *response and frees it with carfit_free; the core keeps no pointer
 *          to the request.
 * Errors:  CARFIT_BAD_JSON (the request text); CARFIT_INVALID with field "token" (missing,
 *          not a string or null, empty, longer than 8192 bytes, or holding a byte outside
 *          0x21-0x7E) or "scheme" (not a string, empty, or not an HTTP token); an invalid call
 *          changes nothing and its message never repeats the token; CARFIT_MISUSE (the core
 *          NULL or closed).
 */
int carfit_auth_set(carfit_core *core, const char *request, char **response);

/*
 * carfit_auth_status (method "auth.status") — whether a token is set and whether the planner
 * asked for one.
 *
 * Takes:   no members.
 * Returns: {"auth": {"token": bool (one is set), "scheme": string | null (null without a
 *          token), "required": bool (a source answered 401 or 403 since the token was last
 *          set, or since opening), "requiredAt": instant by the core's clock | null, "source":
 *          the source that answered first ("visits", "visitUpdates", ...) | null}}. Never the
 *          token itself. Held in memory: a reopened core answers {"token": false, "scheme":
 *          null, "required": false, "requiredAt": null, "source": null}.
 * Owns:    the caller owns *response and frees it with carfit_free.
 * Errors:  CARFIT_MISUSE (the core NULL or closed).
 */
int carfit_auth_status(carfit_core *core, const char *request, char **response);

/* ---------------------------------------------------------------------------------------------
 * Events: the change feed
 *
 * A host learns when to render again by waiting, on a thread of its own, for the core's events:
 * no callback ever comes from the library. Every event is a JSON object {"seq", "kind", ...}:
 *
 *   {"kind": "changed", "areas": [...]}  after every commit that changed stored data, naming
 *       the areas whose documents may now answer differently, in this order: "visits",
 *       "calendar", "articles", "catalog", "cart", "orders", "employees", "session",
 *       "transactions", "insights", "patterns", "sources", "outbox", "location", "attachments" (with
 *       "visits": the cards count attachments), "push" (pushes received, the device's
 *       registration: carfit_push_status). The areas follow from the
 *       tables the commit wrote; a commit that was rolled back publishes nothing. The state
 *       held in memory publishes too: a login or logout ("session"), a change of the calendar's
 *       displayed month or selected days ("calendar"), as they change what carfit_session_get
 *       and carfit_calendar_get answer.
 *   {"kind": "changed", "areas": ["all"], "external": true}  another core or process committed
 *       to the same database file. Looked for about every 200 ms while a thread waits (not at
 *       all while none does), and shown within a second of the commit, or once the core is no
 *       longer busy with a call; several commits in between are one event.
 *   {"kind": "progress", "operation": "visits.import", "done", "total", "unit": "bytes"}
 *       during an operation over 1 MiB: a visits import (of the request, or of the file a
 *       {"file"} request names), or a refresh whose body is over 1 MiB ("visits.refresh",
 *       "articles.refresh", "catalog.refresh"), as its body downloads; at most every 100 ms,
 *       done < total, and once the whole operation succeeded a last one with done == total
 *       (a failed one ends without it). A refresh's total is the body's declared length
 *       (Content-Length); when the server declares none (a chunked or compressed body) the
 *       events start once more than 1 MiB arrived, with "total": null until the body is in.
 *       A visits refresh is one run over twice the body's size: the download is its first
 *       half, the import of the body (done = size + bytes imported) the second. A push whose
 *       pending attachments hold more than 1 MiB reports "attachments.upload": total is their
 *       bytes, done the bytes sent (a refused attachment counts as done).
 *   {"kind": "source", "source", "status": "ok" | "not_modified" | "failed"}  after each
 *       refresh attempt of a source.
 *   {"kind": "image", "url", "status": "loaded" | "failed"}  when a prefetch ends.
 *   {"kind": "auth", "status": "required", "source", "httpStatus"}  the first 401 or 403
 *       answer of a source (e.g. "visits", "visitUpdates") since the token was last set with
 *       carfit_auth_set, or since opening: show a sign-in. Later refusals publish nothing
 *       until carfit_auth_set is called again. Never carries the token.
 *   {"kind": "arrival", "key", "at"}, {"kind": "departure", "key", "at"}  when a position
 *       report decided that the washer arrived at or left the visit of that card key (see
 *       carfit_location_report), after its commit's "changed" event.
 *   {"kind": "conflict", "key", "mutationId", "reason"}  one per update the update server
 *       rejected (see carfit_sync_push), after the answer's commit: the card of that key shows
 *       the conflict until carfit_visits_acknowledge.
 *   {"kind": "gap"}  the events after the reader's "after" are no longer all kept: read every
 *       document again.
 *
 * seq numbers a core's events from 1, in the order they happened; it restarts at 1 with each
 * opened core. The core keeps the last 1024 events. Several threads may wait at once; each
 * reads the events independently (nothing is consumed).
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_events_wait (method "events.wait") — wait for the core's next events.
 *
 * Takes:   {"after": seq (default 0), "timeoutMs": 0..60000 (default 1000)}.
 * Returns: {"events": [event, ...], "last": seq}: as soon as events with a seq above "after"
 *          exist, up to 256 of them, oldest first; after timeoutMs with none, an empty list.
 *          "last" is the seq of the last event given (with none given, "after"): pass it as
 *          "after" next time. When "after" is older than the kept events, or newer than any
 *          seq this core gave (a host that kept its place across closing and opening again),
 *          the first event is {"kind": "gap"} with the seq before the oldest kept event (0 when
 *          that is the first), followed by the kept events. A timeoutMs of 0 answers at once.
 * Errors:  CARFIT_INVALID (after negative or not an integer, field "after"; timeoutMs out of
 *          range, field "timeoutMs"), CARFIT_MISUSE (the core NULL or closed; carfit_close from
 *          another thread wakes every waiter, which then answers CARFIT_MISUSE).
 * Threads. It does not take the core's lock: other calls on the core run while it waits.
 */
int carfit_events_wait(carfit_core *core, const char *request, char **response);

/* ---------------------------------------------------------------------------------------------
 * Storage: encryption at rest
 *
 * A core opened with "encryption" (see carfit_open) keeps its database, WAL and journal
 * encrypted under the key. The key can change, or encryption end, while the core is open.
 * ------------------------------------------------------------------------------------------- */

/*
 * carfit_storage_rekey (method "storage.rekey") — put the database under a new key, or back in
 * plaintext.
 *
 * Takes:   {"key": 64 hexadecimal digits (either case), or null: plaintext}.
 * Returns: {"encrypted": true | false}, once the database is under the new key. A copy under
 *          the new key is built beside the database, made durable and renamed over it in one
 *          step: a crash (kill -9 at any moment) leaves either the old files or the new ones
 *          complete, so exactly one of the old and the new key opens everything (a host tries
 *          the new, then the old); the next open drops what the interrupted run left (never the
 *          copy another core is building). This core keeps working under the new key. Every
 *          other core open on the same database answers
 *          CARFIT_UNAUTHORIZED with "reason": "wrong_key" to any call from then on: close it and
 *          open again with the new key. Writes of other cores (in this process or another)
 *          wait while the copy is built (up to their busy timeout) and are then refused with
 *          that same error: every write another core was told succeeded is in the new files.
 *          The key is never written, logged or quoted.
 * Errors:  CARFIT_INVALID (key missing or not 64 hexadecimal digits, field "key"; an in-memory
 *          database), CARFIT_STORAGE (the copy could not be written, or another core kept
 *          writing for the whole busy timeout: the old key still opens the database, which is
 *          as it was).
 */
int carfit_storage_rekey(carfit_core *core, const char *request, char **response);

#ifdef __cplusplus
}
#endif

#endif /* CARFIT_H */
