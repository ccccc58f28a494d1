/* SPDX-License-Identifier: ISC */
/* JointExp's exact marginals (dpsel_quantiles_joint_pmf_new,
 * spec/quantiles.md §8): the 50th, 95th and 99th percentiles (m = 3) of
 * 2000 values and of 10^5 (10^4 when quick) on a grid of 20001 points, at
 * epsilon 1, the median of a few runs.  The target: 2000 values
 * under 5 s. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"

#define MARGINAL_RUNS 5

static void must(int rc, const char *what)
{
    if (rc != DPSEL_OK) {
        fprintf(stderr, "bench: %s: %s\n", what, dpsel_strerror(rc));
        exit(1);
    }
}

/* The median seconds of MARGINAL_RUNS pmfs of the first n values. */
static double time_marginals(const int64_t *values, size_t n, int64_t upper)
{
    const uint64_t a[] = { 1, 19, 99 }, b[] = { 2, 20, 100 };
    uint64_t sensitivity;
    dpsel_params params;
    must(dpsel_quantiles_joint_sensitivity(a, b, 3, &sensitivity), "sensitivity");
    must(dpsel_params_from_epsilon(&params, "1", sensitivity, 0), "params");
    double seconds[MARGINAL_RUNS];
    for (int r = 0; r < MARGINAL_RUNS; r++) {
        struct timespec start;
        dpsel_joint_pmf *pmf = NULL;
        clock_gettime(CLOCK_MONOTONIC, &start);
        must(dpsel_quantiles_joint_pmf_new(&pmf, &params, a, b, 3, values, n, 0, upper, NULL,
                                           NULL),
             "the marginals");
        seconds[r] = bench_seconds_since(&start);
        dpsel_joint_pmf_free(pmf);
    }
    return bench_median(seconds, MARGINAL_RUNS);
}

void bench_joint_marginals(int quick)
{
    const size_t sizes[] = { 2000, quick ? 10000 : 100000 };
    const int64_t upper = 20000;
    int64_t *values = malloc(sizes[1] * sizeof *values);
    uint64_t state[4];
    if (values == NULL) {
        fprintf(stderr, "bench: cannot allocate %zu values\n", sizes[1]);
        exit(1);
    }
    prng_seed(state, 41);
    for (size_t i = 0; i < sizes[1]; i++) {
        values[i] = (int64_t)(prng_next(state) % (uint64_t)(upper + 1));
    }
    printf("\njoint quantiles' exact marginals (p50, p95, p99 at epsilon 1), values uniform on "
           "the grid (median of %d runs)\n%-34s %12s %16s %14s\n", MARGINAL_RUNS, "library",
           "values", "grid points", "marginals s");
    for (size_t i = 0; i < 2; i++) {
        printf("%-34s %12zu %16lld %14.3f\n", i == 0 ? "m = 3 (target 5 s)" : "m = 3", sizes[i],
               (long long)upper + 1, time_marginals(values, sizes[i], upper));
    }
    free(values);
}
