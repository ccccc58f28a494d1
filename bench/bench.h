/* SPDX-License-Identifier: ISC */
/* Shared by the benchmark's files (bench/): what one timed call sees. */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "dpsel.h"

/* One cell of the benchmark: a score vector and a privacy level. */
typedef struct {
    const int64_t *scores;
    size_t n;
    double epsilon;                  /* the float baselines' epsilon (D = 1) */
    const dpsel_params *params;      /* dpsel's realised parameters for it */
    const dpsel_selector *selector;
    dpsel_rng *rng;                  /* the OS source when timed, a counting one when not */
    uint64_t prng[4];                /* the baselines' xoshiro256** state */
    int64_t best;                    /* the largest score (the stream's first pass) */
} bench_case;

/* A contender: one call on a cell.  Returns a dpsel code; *out receives the
 * chosen index (or the scores' sum), so the work cannot be optimised away. */
typedef int (*run_fn)(bench_case *c, uint64_t *out);

/* naive.c: the textbook double-precision mechanisms (NOT private) and their PRNG. */
void prng_seed(uint64_t state[4], uint64_t seed);
uint64_t prng_next(uint64_t state[4]);
int naive_em(bench_case *c, uint64_t *out);
int naive_pf(bench_case *c, uint64_t *out);

/* count.c: the measurement hooks. */
size_t alloc_mark(void);                  /* live heap bytes now; restarts the peak */
size_t alloc_peak_since(size_t mark);     /* peak live bytes since the mark, minus it */

typedef struct {
    unsigned char buffer[256];
    uint64_t bits;                        /* bits delivered so far */
} counting_source;

/* A dpsel_bit_fn: bits from getrandom, counted in ((counting_source *)context)->bits. */
int counting_bit(void *context, unsigned *bit);

/* cli.c: dpsel select on n score-only lines, streamed and in memory: the
 * median wall time and the peak resident memory of the tool's process. */
void bench_cli(const char *tool, size_t n);

/* cli.c: runs argv (argv[0] the program's path; standard input from
 * stdin_path, or none for NULL; standard output discarded) to its end: its
 * wall time in seconds and its peak resident memory in kB; -1 if it could
 * not run or did not exit with 0. */
int run_command(const char *const *argv, const char *stdin_path, double *seconds, long *peak_kb);

/* quantile.c: the quantile mechanism on large grids (10^6 values; EM on
 * 2^40 points, PF on 10^9), through the library and, with a tool, through
 * `dpsel quantile` on a file of the values.  quick: smaller cells. */
void bench_quantiles(const char *tool, int quick);

/* quantile.c: the seconds since start (CLOCK_MONOTONIC), and the median
 * of count timings (sorted in place). */
double bench_seconds_since(const struct timespec *start);
double bench_median(double *seconds, size_t count);

/* joint.c: JointExp's quartiles and deciles of 10^5 values (10^4 when
 * quick) on a grid of 2^40 points, one release each. */
void bench_joint_quantiles(int quick);

/* joint_pmf.c: JointExp's exact marginals of p50, p95 and p99 over 2000
 * and 10^5 values (10^4 when quick). */
void bench_joint_marginals(int quick);

/* rnm.c: report noisy max beside PF at 10^6 candidates (quick: 10^5). */
void bench_rnm(int quick);

#endif
