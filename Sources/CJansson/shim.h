#ifndef CARFIT_CJANSSON_SHIM_H
#define CARFIT_CJANSSON_SHIM_H
#include <jansson.h>

/* jansson's type predicates and flag macros are macros that Swift does not import
   (or imports with the wrong integer type); these inline helpers give typed access. */
static inline int cf_json_type(const json_t *v) { return v ? (int)json_typeof(v) : -1; }

/* Any JSON value at top level (the object check is ours, so a bare array is reported as
   "not an object" rather than as a syntax error). */
static inline size_t cf_json_flags_any(void) { return JSON_DECODE_ANY; }

/* Parse one value and report where it ends: lets a caller walk a large array element by element. */
static inline size_t cf_json_flags_one_value(void) { return JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK; }
#endif
