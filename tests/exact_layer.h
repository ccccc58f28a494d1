/* SPDX-License-Identifier: ISC */
/* The exact layer of the tests: every bit string a sampler can read is
 * enumerated (enumerate_bits, support.h) and the realised probabilities are
 * compared with the pmf: realised(r) <= pmf(r) <= realised(r) + residual. */
#ifndef DPSEL_TEST_EXACT_LAYER_H
#define DPSEL_TEST_EXACT_LAYER_H

#include <gmp.h>

#include "core/core.h"

/* Enumeration depth in bits, and the residual it must reach: 2^-24. */
#define ENUMERATION_DEPTH 48
#define RESIDUAL_LOG2 24

/* Largest score vector the checks enumerate. */
#define MAX_ENUMERATED 8

/* The exact probability of candidate r, or beyond the exact rationals' size
 * limits the lower end of its enclosure (relative width below 1e-30). */
void pmf_value(const dpsel_pmf *pmf, size_t r, mpq_t out);

/* 1 if residual < 2^-RESIDUAL_LOG2. */
int residual_small(const mpq_t residual);

/* Expects lower <= P(r) <= upper, the bounds an enumeration proves, of the
 * pmf: its exact rational when it has one, and its enclosure always. */
void expect_pmf_within(const dpsel_pmf *pmf, size_t r, const mpq_t lower,
                       const mpq_t upper, const char *mechanism, const char *what);

/* Which PF sampler to enumerate: the one dpsel_select runs (the race when
 * the decay table allows it), the permutation form (dpsel_core_pf),
 * dpsel_select_hardened, or the thinned race alone (dpsel_core_race_rest
 * with no visits: every candidate through its spans and blocks), in the
 * spans dpsel_select takes or in spans of two candidates. */
/* PF_STREAMED: the scores through dpsel_pf_stream_add (one block, raced at
 * the finish); PF_STREAMED_SINGLY: through dpsel_pf_stream_add_scores one
 * at a time (a race of one candidate per call, from the floor on). */
typedef enum { PF_AS_SELECTED, PF_PERMUTATION, PF_HARDENED, PF_THINNED_RACE,
               PF_THINNED_SPANS, PF_STREAMED, PF_STREAMED_SINGLY } pf_form;

/* PF in the given form (PF_THINNED_RACE or a stream) at epsilon 1 on 4000
 * candidates, the top last (100), the rest in [76, 88] (gaps 12 to 24:
 * levels k = 7 to 16 and blocks split into sub-blocks, dominating heads in
 * about one piece in ten), 50 000 draws from the seed fitted to the exact
 * pmf by chi-square (false-alarm probability 1e-6). */
void check_pf_staircase_fit(pf_form form, uint64_t seed, const char *what);

/* PF in the given form at epsilon 1 on scores[0 .. n - 1] (n <= 4096), 50 000
 * draws from the seed fitted to the exact pmf by chi-square (false-alarm
 * probability 1e-6). */
void check_pf_fit(pf_form form, const int64_t *scores, size_t n, uint64_t seed, const char *what);

/* PF in the given form, enumerated whole against the pmf; n <= MAX_ENUMERATED. */
void check_pf_by_enumeration(const dpsel_params *p, const int64_t *scores, size_t n,
                             pf_form form, const char *what);

/* One trial of EM (dpsel_core_em_trial or dpsel_core_em_trial_hardened). */
typedef int (*em_trial_fn)(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                           size_t n, int64_t best, size_t *candidate, int *kept);

/* EM by enumeration of one trial against the pmf; n <= MAX_ENUMERATED. */
void check_em_by_enumeration(em_trial_fn trial, const dpsel_params *p, const int64_t *scores,
                             size_t n, const char *what);

/* Expects mass <= exact <= mass + residual, and the residual small. */
void expect_realised(const mpq_t mass, const mpq_t residual, const mpq_t exact,
                     const char *what);

#endif
