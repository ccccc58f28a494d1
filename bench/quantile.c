/* SPDX-License-Identifier: ISC */
/* The quantile mechanism on large grids: the median of 10^6 values, EM on
 * a grid of 2^40 points and PF on 10^9 and on 2^62 (the largest grid; PF's
 * work follows the runs, spec/quantiles.md §7), timed through the library (the
 * runs built and one release; one more release on built runs) and through
 * `dpsel quantile` on a file of the values (parsing included). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define QUANTILE_RUNS 3

typedef struct {
    const char *name;
    dpsel_mechanism mechanism;
    size_t m;           /* values, uniform on the grid */
    int64_t points;     /* the grid 0 .. points - 1 */
} quantile_cell;

double bench_seconds_since(const struct timespec *start)
{
    struct timespec end;
    clock_gettime(CLOCK_MONOTONIC, &end);
    return (double)(end.tv_sec - start->tv_sec) + (double)(end.tv_nsec - start->tv_nsec) / 1e9;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *seconds, size_t count)
{
    qsort(seconds, count, sizeof *seconds, compare_doubles);
    return seconds[count / 2];
}

static int64_t *uniform_values(size_t m, int64_t points)
{
    int64_t *values = malloc(m * sizeof *values);
    if (values == NULL) {
        fprintf(stderr, "bench: cannot allocate %zu values\n", m);
        exit(1);
    }
    uint64_t state[4];
    prng_seed(state, 18);
    for (size_t i = 0; i < m; i++) {
        values[i] = (int64_t)(prng_next(state) % (uint64_t)points);
    }
    return values;
}

static void check(int rc, const char *what)
{
    if (rc != DPSEL_OK) {
        fprintf(stderr, "bench: %s: %s\n", what, dpsel_strerror(rc));
        exit(1);
    }
}

/* The median time of a whole release (the runs built and freed) and of
 * one more release on built runs. */
static void time_library(const quantile_cell *cell, const dpsel_selector *selector,
                         dpsel_rng *rng)
{
    int64_t *values = uniform_values(cell->m, cell->points);
    double whole[QUANTILE_RUNS], more[QUANTILE_RUNS];
    int64_t value;
    for (int r = 0; r < QUANTILE_RUNS; r++) {
        struct timespec start;
        clock_gettime(CLOCK_MONOTONIC, &start);
        check(dpsel_quantile_select(selector, cell->mechanism, 1, 2, values, cell->m, 0,
                                    cell->points - 1, rng, &value), cell->name);
        whole[r] = bench_seconds_since(&start);
    }
    dpsel_quantile_runs *runs = NULL;
    check(dpsel_quantile_runs_new(&runs, 1, 2, values, cell->m, 0, cell->points - 1), "runs");
    for (int r = 0; r < QUANTILE_RUNS; r++) {
        struct timespec start;
        clock_gettime(CLOCK_MONOTONIC, &start);
        check(dpsel_quantile_select_runs(selector, cell->mechanism, runs, rng, &value),
              cell->name);
        more[r] = bench_seconds_since(&start);
    }
    printf("%-34s %12zu %16" PRId64 " %14.3f %14.3f\n", cell->name, cell->m, cell->points,
           bench_median(whole, QUANTILE_RUNS), bench_median(more, QUANTILE_RUNS));
    dpsel_quantile_runs_free(runs);
    free(values);
}

/* `dpsel quantile` on a file of the cell's values (written to /tmp). */
static void time_tool(const char *tool, const quantile_cell *cell)
{
    char path[] = "/tmp/dpsel-bench-values-XXXXXX";
    int fd = mkstemp(path);
    FILE *out = fd < 0 ? NULL : fdopen(fd, "w");
    int64_t *values = uniform_values(cell->m, cell->points);
    for (size_t i = 0; out != NULL && i < cell->m; i++) {
        fprintf(out, "%" PRId64 "\n", values[i]);
    }
    free(values);
    if (out == NULL || fclose(out) != 0) {
        fprintf(stderr, "bench: cannot write a value file in /tmp\n");
        exit(1);
    }
    char upper[24];
    snprintf(upper, sizeof upper, "%" PRId64, cell->points - 1);
    const char *const argv[] = { tool, "quantile", "--quantile", "0.5", "--lower", "0",
                                 "--upper", upper, "--epsilon", "1", "--mechanism",
                                 cell->mechanism == DPSEL_EM ? "em" : "pf", path, NULL };
    double seconds[QUANTILE_RUNS];
    long peak = 0;
    for (int r = 0; r < QUANTILE_RUNS; r++) {
        long kb;
        if (run_command(argv, NULL, &seconds[r], &kb) != 0) {
            fprintf(stderr, "bench: %s quantile failed on %s\n", tool, path);
            unlink(path);
            exit(1);
        }
        peak = kb > peak ? kb : peak;
    }
    unlink(path);
    printf("%-34s %12zu %16" PRId64 " %14.3f %14.1f\n", cell->name, cell->m, cell->points,
           bench_median(seconds, QUANTILE_RUNS), (double)peak / 1024);
}

void bench_quantiles(const char *tool, int quick)
{
    const int64_t em_grid = (int64_t)1 << 40, pf_grid = quick ? 10000000 : 1000000000;
    const int64_t largest_grid = (int64_t)1 << 62;
    const quantile_cell cells[] = {
        { "EM, 2^40 points", DPSEL_EM, 1000000, em_grid },
        { "EM, 2^40 points, 10^3 values", DPSEL_EM, 1000, em_grid },
        { quick ? "PF, 10^7 points" : "PF, 10^9 points", DPSEL_PF, 1000000, pf_grid },
        { quick ? "PF, 10^7 points, 10^3 values" : "PF, 10^9 points, 10^3 values", DPSEL_PF, 1000,
          pf_grid },
        { "PF, 2^62 points", DPSEL_PF, 1000000, largest_grid },
        { "PF, 2^62 points, 10^3 values", DPSEL_PF, 1000, largest_grid },
    };
    const size_t count = sizeof cells / sizeof *cells;
    dpsel_params params;
    dpsel_selector *selector = NULL;
    dpsel_rng rng;
    check(dpsel_params_from_epsilon(&params, "1", 1, 0), "params");
    check(dpsel_selector_new(&selector, &params), "selector");
    check(dpsel_rng_init_os(&rng), "the OS random source");
    printf("\nquantiles: the median at epsilon 1, values uniform on the grid (median of %d runs)\n",
           QUANTILE_RUNS);
    printf("%-34s %12s %16s %14s %14s\n", "library", "values", "grid points",
           "release s", "one more s");
    for (size_t i = 0; i < count; i++) {
        time_library(&cells[i], selector, &rng);
    }
    if (tool != NULL) {
        printf("%-34s %12s %16s %14s %14s\n", "dpsel quantile FILE", "values", "grid points",
               "seconds", "peak RSS MB");
        for (size_t i = 0; i < count; i += 2) {
            time_tool(tool, &cells[i]);
        }
    }
    dpsel_rng_wipe(&rng);
    dpsel_selector_free(selector);
}
