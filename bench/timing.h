/* The C benchmarks' clock readings and their sorting (plan_bench.c, day_query.c). */
#ifndef CARFIT_BENCH_TIMING_H
#define CARFIT_BENCH_TIMING_H

#include <time.h>

/* The clock `id` (CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID) in milliseconds. */
static inline double clock_ms(clockid_t id) {
    struct timespec t;
    clock_gettime(id, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* qsort's order of doubles, smallest first. */
static inline int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif
