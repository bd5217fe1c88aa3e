/*
 * timer_noise — the spread this machine adds to a call of fixed work, measured the way
 * bench/run.py measures the day query: the same computation timed 100 times in a row, then the
 * median and the 99th percentile (the 99th of the 100 sorted times).
 *
 *   make -C bench timer_noise
 *   bench/timer_noise [ROUNDS [MS ...]]      (default: 5 rounds of 0.2 ms and 4 ms)
 *
 * Each MS is a target duration; the work (a fixed number of steps of a linear congruential
 * generator, nothing else: no memory, no system call) is calibrated to it once, then every
 * round prints its median, p99, largest time and p99/median. The work is identical in every
 * call, so the spread is the machine's (interrupts, the hypervisor), not the program's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "timing.h"

#define CALLS 100

static volatile unsigned long sink;

static void work(long steps) {
    unsigned long x = 1;
    for (long i = 0; i < steps; i++) x = x * 6364136223846793005UL + 1442695040888963407UL;
    sink = x;
}

/* Steps that take about `ms` milliseconds (the median of 21 timings of a trial count). */
static long calibrate(double ms) {
    long trial = 1000000;
    double t[21];
    for (int i = 0; i < 21; i++) {
        double started = clock_ms(CLOCK_MONOTONIC);
        work(trial);
        t[i] = clock_ms(CLOCK_MONOTONIC) - started;
    }
    qsort(t, 21, sizeof *t, compare);
    long steps = (long)(trial * ms / t[10]);
    return steps > 0 ? steps : 1;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    double defaults[] = {0.2, 4.0};
    int targets = argc > 2 ? argc - 2 : 2;
    long steps[16];
    if (rounds < 1 || targets > 16) {
        fprintf(stderr, "usage: timer_noise [ROUNDS [MS ...]] (at most 16 durations)\n");
        return 2;
    }
    for (int k = 0; k < targets; k++) steps[k] = calibrate(argc > 2 ? atof(argv[2 + k]) : defaults[k]);
    double t[CALLS];
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < targets; k++) {
            for (int i = 0; i < CALLS; i++) {
                double started = clock_ms(CLOCK_MONOTONIC);
                work(steps[k]);
                t[i] = clock_ms(CLOCK_MONOTONIC) - started;
            }
            qsort(t, CALLS, sizeof *t, compare);
            printf("round %d, %ld steps: median %.3f ms, p99 %.3f ms, max %.3f ms, p99/median %.2f\n", r + 1,
                   steps[k], t[CALLS / 2], t[CALLS - 2], t[CALLS - 1], t[CALLS - 2] / t[CALLS / 2]);
        }
    }
    return 0;
}
