/* SPDX-License-Identifier: ISC */
/* JointExp (spec/quantiles.md §8): quartiles (m = 3) and deciles (m = 9)
 * of 10^5 values on a grid of 2^40 points in one release at epsilon 1,
 * timed through the library (the values sorted, the forward tables, the
 * backward draws), the median of a few runs.  The targets: under 1 s
 * and 5 s. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"

#define JOINT_RUNS 5

typedef struct {
    const char *name;
    size_t m;
    uint64_t a[9], b[9];
} joint_cell;

static void must(int rc, const char *what)
{
    if (rc != DPSEL_OK) {
        fprintf(stderr, "bench: %s: %s\n", what, dpsel_strerror(rc));
        exit(1);
    }
}

/* The median seconds of JOINT_RUNS releases of the cell's quantiles. */
static double time_cell(const joint_cell *cell, const int64_t *values, size_t n, int64_t upper,
                        dpsel_rng *rng)
{
    uint64_t sensitivity;
    dpsel_params params;
    dpsel_selector *selector = NULL;
    must(dpsel_quantiles_joint_sensitivity(cell->a, cell->b, cell->m, &sensitivity), cell->name);
    must(dpsel_params_from_epsilon(&params, "1", sensitivity, 0), "params");
    must(dpsel_selector_new(&selector, &params), "selector");
    double seconds[JOINT_RUNS];
    int64_t out[9];
    for (int r = 0; r < JOINT_RUNS; r++) {
        struct timespec start;
        clock_gettime(CLOCK_MONOTONIC, &start);
        must(dpsel_quantiles_joint_select(selector, cell->a, cell->b, cell->m, values, n, 0, upper,
                                          rng, out),
             cell->name);
        seconds[r] = bench_seconds_since(&start);
    }
    dpsel_selector_free(selector);
    return bench_median(seconds, JOINT_RUNS);
}

void bench_joint_quantiles(int quick)
{
    const size_t n = quick ? 10000 : 100000;
    const int64_t points = (int64_t)1 << 40;
    const joint_cell cells[] = {
        { "quartiles, m = 3 (target 1 s)", 3, { 1, 1, 3 }, { 4, 2, 4 } },
        { "deciles, m = 9 (target 5 s)", 9, { 1, 1, 3, 2, 1, 3, 7, 4, 9 },
          { 10, 5, 10, 5, 2, 5, 10, 5, 10 } },
    };
    int64_t *values = malloc(n * sizeof *values);
    uint64_t state[4];
    dpsel_rng rng;
    if (values == NULL) {
        fprintf(stderr, "bench: cannot allocate %zu values\n", n);
        exit(1);
    }
    prng_seed(state, 41);
    for (size_t i = 0; i < n; i++) {
        values[i] = (int64_t)(prng_next(state) % (uint64_t)points);
    }
    must(dpsel_rng_init_os(&rng), "the OS random source");
    printf("\njoint quantiles (JointExp, one release at epsilon 1), values uniform on the grid "
           "(median of %d runs)\n%-34s %12s %16s %14s\n", JOINT_RUNS, "library", "values",
           "grid points", "release s");
    for (size_t i = 0; i < sizeof cells / sizeof *cells; i++) {
        printf("%-34s %12zu %16lld %14.3f\n", cells[i].name, n, (long long)points,
               time_cell(&cells[i], values, n, points - 1, &rng));
    }
    dpsel_rng_wipe(&rng);
    free(values);
}
