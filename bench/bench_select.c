/* Times one PF and one EM selection over n candidates (medians of repeated
 * runs, measured side by side in one process).  Usage: bench_select [n] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dpsel.h"

#define RUNS 11

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Median seconds of RUNS selections. */
static double median_time(const dpsel_selector *s, dpsel_mechanism m, const int64_t *scores,
                          size_t n, dpsel_rng *rng)
{
    double times[RUNS];
    for (int i = 0; i < RUNS; i++) {
        size_t index;
        double start = now();
        if (dpsel_select(s, m, scores, n, rng, &index) != DPSEL_OK) {
            fprintf(stderr, "selection failed\n");
            exit(1);
        }
        times[i] = now() - start;
    }
    qsort(times, RUNS, sizeof *times, compare_double);
    return times[RUNS / 2];
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    int64_t *uniform = malloc(n * sizeof *uniform);
    int64_t *two_level = malloc(n * sizeof *two_level);
    uint64_t state = 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < n; i++) {
        state = state * 6364136223846793005u + 1442695040888963407u;  /* scores only */
        uniform[i] = (int64_t)((state >> 33) % 1001);
        two_level[i] = i == 0 ? 0 : -1000;  /* one best, all others far: the worst case */
    }
    const char *epsilons[] = { "0.1", "1", "10" };
    printf("n = %zu, median of %d runs, OS random source\n", n, RUNS);
    printf("%-10s %-8s %12s %12s\n", "scores", "epsilon", "PF ms", "EM ms");
    for (int v = 0; v < 2; v++) {
        for (int e = 0; e < 3; e++) {
            dpsel_params p;
            dpsel_selector *s;
            dpsel_rng rng;
            if (dpsel_params_from_epsilon(&p, epsilons[e], 1, 0) != DPSEL_OK
                || dpsel_selector_new(&s, &p) != DPSEL_OK || dpsel_rng_init_os(&rng) != DPSEL_OK) {
                return 1;
            }
            const int64_t *scores = v == 0 ? uniform : two_level;
            double pf = median_time(s, DPSEL_PF, scores, n, &rng);
            double em = median_time(s, DPSEL_EM, scores, n, &rng);
            printf("%-10s %-8s %12.3f %12.3f\n", v == 0 ? "uniform" : "two-level", epsilons[e],
                   1e3 * pf, 1e3 * em);
            dpsel_selector_free(s);
            dpsel_rng_wipe(&rng);
        }
    }
    free(uniform);
    free(two_level);
    return 0;
}
