/* SPDX-License-Identifier: ISC */
/* Report noisy max (dpsel_rnm_select) beside PF (dpsel_select) at 10^6
 * candidates, on three score vectors: random scores below 1000, all equal,
 * and increasing (every candidate a new leader): the median CPU time of
 * alternating runs (the thread's, so that other processes on a loaded
 * machine count less) and the ratio of the medians, against the target
 * of 3. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"

#define RNM_BENCH_ROUNDS 7

/* The seconds of CPU time of one selection by RNM or PF. */
static double timed_selection(int rnm, const dpsel_selector *pf, const int64_t *scores, size_t n,
                              dpsel_rng *rng)
{
    struct timespec start, end;
    size_t index;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    int rc = rnm ? dpsel_rnm_select("1", 1, 0, scores, n, rng, &index)
                 : dpsel_select(pf, DPSEL_PF, scores, n, rng, &index);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end);
    if (rc != DPSEL_OK) {
        fprintf(stderr, "bench: %s: %s\n", rnm ? "rnm" : "pf", dpsel_strerror(rc));
        exit(1);
    }
    return (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
}

static void fill_scores(int64_t *scores, size_t n, int shape)
{
    uint64_t state[4];
    prng_seed(state, 40);
    for (size_t i = 0; i < n; i++) {
        scores[i] = shape == 0 ? (int64_t)(prng_next(state) % 1000) : shape == 1 ? 0 : (int64_t)i;
    }
}

void bench_rnm(int quick)
{
    static const char *const shapes[3] = { "random below 1000", "all equal", "increasing" };
    size_t n = quick ? 100000 : 1000000;
    int64_t *scores = malloc(n * sizeof *scores);
    dpsel_params params;
    dpsel_selector *pf = NULL;
    dpsel_rng rng;
    if (scores == NULL || dpsel_params_from_epsilon(&params, "1", 1, 0) != DPSEL_OK ||
        dpsel_selector_new(&pf, &params) != DPSEL_OK || dpsel_rng_init_os(&rng) != DPSEL_OK) {
        fprintf(stderr, "bench: rnm: cannot set up\n");
        exit(1);
    }
    printf("\nreport noisy max against PF, epsilon 1, n = %zu (median CPU time of %d alternating "
           "runs; target: rnm within 3x of pf)\n", n, RNM_BENCH_ROUNDS);
    for (int shape = 0; shape < 3; shape++) {
        fill_scores(scores, n, shape);
        double seconds[2][RNM_BENCH_ROUNDS];
        for (int round = 0; round < RNM_BENCH_ROUNDS; round++) {
            seconds[0][round] = timed_selection(0, pf, scores, n, &rng);
            seconds[1][round] = timed_selection(1, pf, scores, n, &rng);
        }
        double pf_median = bench_median(seconds[0], RNM_BENCH_ROUNDS);
        double rnm_median = bench_median(seconds[1], RNM_BENCH_ROUNDS);
        printf("  %-18s pf %8.2f ms  rnm %8.2f ms  (%.0f ns a candidate)  ratio %.1f\n",
               shapes[shape], 1e3 * pf_median, 1e3 * rnm_median, 1e9 * rnm_median / (double)n,
               rnm_median / pf_median);
    }
    dpsel_rng_wipe(&rng);
    dpsel_selector_free(pf);
    free(scores);
}
