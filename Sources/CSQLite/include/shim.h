#ifndef CARFIT_CSQLITE_SHIM_H
#define CARFIT_CSQLITE_SHIM_H
#include "sqlite3.h"
#include "carfit_crypt.h"

/* SQLITE_TRANSIENT is a cast macro Swift does not import. */
static inline sqlite3_destructor_type cf_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
