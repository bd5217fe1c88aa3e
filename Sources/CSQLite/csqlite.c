/* The library's own SQLite: the amalgamation in sqlite3.c (generated from Debian's sqlite3 source
 * package by scripts/gen-sqlite-amalgamation), compiled into libcarfit with every sqlite3_ symbol
 * hidden. The library never calls, and never exports, another SQLite: a host process that loaded
 * the system's libsqlite3 first cannot capture its calls.
 *
 * The options, in one place: */

/* No symbol leaves the library. */
#define SQLITE_API __attribute__((visibility("hidden")))
/* Connections are used from several threads (one at a time each: SQLITE_OPEN_NOMUTEX). */
#define SQLITE_THREADSAFE 1
/* Temporary tables and indices (sorts, VACUUM) in memory: no temporary file holds data. */
#define SQLITE_TEMP_STORE 2
/* Double-quoted strings are identifiers only. */
#define SQLITE_DQS 0
/* WAL databases commit with synchronous=NORMAL unless told otherwise. */
#define SQLITE_DEFAULT_WAL_SYNCHRONOUS 1
/* No extension is ever loaded (and no dlopen is linked). */
#define SQLITE_OMIT_LOAD_EXTENSION 1
/* No memory statistics: one mutex less on every allocation. */
#define SQLITE_DEFAULT_MEMSTATUS 0
/* As Debian's build. */
#define SQLITE_LIKE_DOESNT_MATCH_BLOBS 1
#define SQLITE_MAX_VARIABLE_NUMBER 250000
/* What configure finds on glibc. */
#define HAVE_USLEEP 1
#define HAVE_LOCALTIME_R 1
#define HAVE_GMTIME_R 1
#define HAVE_STRCHRNUL 1
#define HAVE_ISNAN 1
#define HAVE_FDATASYNC 1
#define HAVE_POSIX_FALLOCATE 1
#define HAVE_MALLOC_USABLE_SIZE 1
#define HAVE_MALLOC_H 1
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1

#include "sqlite3.c"
