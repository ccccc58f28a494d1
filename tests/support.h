/* SPDX-License-Identifier: ISC */
/* Shared helpers of dpsel's Criterion tests. */
#ifndef DPSEL_TEST_SUPPORT_H
#define DPSEL_TEST_SUPPORT_H

#include <gmp.h>
#include <mpfr.h>
#include <stddef.h>
#include <stdint.h>

#include "dpsel.h"

/* A sampler run on a bit source: stores an outcome in [0, outcomes) in *out. */
typedef int (*sampler_fn)(void *arg, dpsel_rng *rng, size_t *out);

/* Exact enumeration of every bit string a sampler can consume, depth first,
 * up to max_depth bits: mass[r] (of size outcomes, initialised by the caller)
 * receives the total probability of the strings on which the sampler returns r,
 * residual the probability of the strings cut at the depth bound.  Returns the
 * number of complete strings, or -1 if the sampler failed other than by
 * running out of bits (or returned an outcome out of range). */
long enumerate_bits(sampler_fn sampler, void *arg, size_t outcomes, unsigned max_depth,
                    mpq_t *mass, mpq_t residual);

/* The exact probability of candidate r from a dpsel_pmf, as a rational. */
void pmf_rational(const dpsel_pmf *pmf, size_t r, mpq_t out);

/* The exact probabilities of the n candidates, out[0..n-1] (mpq_init'ed
 * here: the caller clears them, e.g. by expect_fit_and_clear). */
void exact_pmf(const dpsel_params *p, dpsel_mechanism m, const int64_t *scores, size_t n,
               mpq_t *out);

/* Chi-square goodness of fit of counts[0..k-1] (total draws) against the
 * exact probabilities p[0..k-1]: cells with expected count below 5 are merged.
 * Returns 1 if the statistic is below the critical value at false-alarm
 * probability 1e-6, 0 otherwise; *statistic and *dof receive the values. */
int chi_square_fits(const uint64_t *counts, mpq_t *p, size_t k, uint64_t draws,
                    double *statistic, unsigned *dof);

/* cr_expect that counts[0..k-1] fit p[0..k-1] (chi_square_fits; the failure
 * message names `what`), then mpq_clear of p[0..k-1]. */
void expect_fit_and_clear(const uint64_t *counts, mpq_t *p, size_t k, uint64_t draws,
                          const char *what);

/* Whether an enumeration's masses bracket p: mass[r] <= p[r] <= mass[r] +
 * residual for every r < n. */
int mass_brackets(mpq_t *mass, const mpq_t residual, mpq_t *p, size_t n);

/* Params from an explicit base, asserting success. */
dpsel_params base_params(uint64_t x, unsigned y, uint64_t sensitivity, int monotonic);

/* The parameter sets the pmf tests share (i < PMF_TEST_PARAMS): bases 1/2,
 * 3/4 monotonic, 13/16 with sensitivity 3, the base of epsilon 0.7 with
 * sensitivity 1000 (y = 64: 4-megabit weights), 3/4 with an explicit cap 3. */
#define PMF_TEST_PARAMS 5
dpsel_params pmf_test_params(size_t i);

/* A deterministic pseudo-random sequence (64-bit LCG, top bits). */
uint64_t lcg_next(uint64_t *state);

/* cr_expect that lo <= hi and hi - lo <= 1e-30 lo (1e-30 rounded down: the
 * check is not looser), naming `what`. */
void expect_narrow_1e30(const mpfr_t lo, const mpfr_t hi, const char *what);

/* Small score vectors the enclosure tests share: all tied, negative ones,
 * the int64 extremes, pairs near and far, two values alternating. */
#define PMF_TEST_VECTORS 5
extern const int64_t pmf_test_vectors[PMF_TEST_VECTORS][6];

/* A progress report (dpsel_progress_fn) that records its calls and asks
 * to stop at call `stop_at` (1: the first; 0: never). */
typedef struct {
    uint64_t calls;
    uint64_t stop_at;
    uint64_t last_done, total;
    uint64_t backwards;   /* calls whose done fell below the previous one */
    uint64_t new_totals;  /* calls whose total differs from the first's */
    uint64_t complete;    /* calls with done == total */
    uint64_t beyond;      /* calls with done > total */
} progress_probe;

int progress_probe_report(void *context, uint64_t done, uint64_t total);

/* The seeded stream with the 8 little-endian bytes of seed as its seed. */
dpsel_rng seeded_rng(uint64_t seed);

/* Adds to counts[0..n-1] the outcomes of draws selections from rng. */
void draw_counts(const dpsel_params *p, dpsel_mechanism m, const int64_t *scores,
                 size_t n, dpsel_rng *rng, uint64_t draws, uint64_t *counts);

/* beta^k as a rational, beta = x / 2^y. */
void beta_power(mpq_t out, uint64_t x, unsigned y, uint64_t k);

/* The probability that a trial of EM by levels keeps level g:
 * members beta^g 2^envelope / draws, draws the size of its draw's range. */
void level_keep_probability(mpq_t out, uint64_t x, unsigned y, uint64_t g, uint64_t members,
                            unsigned envelope, uint64_t draws);

/* Allocations counted: the blocks allocated or grown, and the largest size
 * asked for. */
typedef struct {
    size_t calls;
    size_t largest;
} allocations;

/* GMP's (and so MPFR's) allocations counted while gmp_count_start's
 * wrappers are installed (one counter at a time; gmp_count_stop restores
 * the previous functions). */
void gmp_count_start(allocations *counter);
void gmp_count_stop(void);

/* malloc, calloc and realloc counted (the suite links with --wrap for
 * them), from heap_count_start to heap_count_stop, on one thread: one
 * counter at a time. */
void heap_count_start(allocations *counter);
void heap_count_stop(void);

/* From the call on, this process's getrandom fails with EPERM and every
 * open with EACCES (so /dev/urandom cannot stand in for it either): a
 * seccomp filter, for a forked child that checks how dpsel fails without
 * OS randomness.  1 if the filter is in place. */
int deny_os_randomness(void);

#endif
