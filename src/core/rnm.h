/* SPDX-License-Identifier: ISC */
/* Report noisy max with Laplace noise, exactly (rnm.c, spec/mechanisms.md
 * §14): lazy uniforms, Exp(1) by von Neumann's method, and the comparison
 * of two noisy scores decided digit by digit. */
#ifndef DPSEL_CORE_RNM_H
#define DPSEL_CORE_RNM_H

#include "core.h"

/* A lazy uniform holds at most this many drawn bits; needing more is
 * reported as DPSEL_EUNLIKELY (a comparison needs more than L bits with
 * probability at most 2^(4-L)). */
#define DPSEL_URAND_WORDS 4u
#define DPSEL_URAND_BITS (64u * DPSEL_URAND_WORDS)

/* Bounds of von Neumann's method: the integer part K of an Exp(1) variable
 * stays below DPSEL_EXP_WHOLE_MAX (P(K >= 128) = e^-128 < 2^-184) and a
 * decreasing run holds at most DPSEL_EXP_RUN_MAX uniforms (1/64! < 2^-295). */
#define DPSEL_EXP_WHOLE_MAX 128u
#define DPSEL_EXP_RUN_MAX 64u

/* A lazy uniform in [0, 1): its first nbits binary digits were drawn (digit
 * i is bit 63 - i % 64 of words[i / 64]; the words past them are zero), the
 * rest are independent fair bits not drawn yet. */
typedef struct {
    uint64_t words[DPSEL_URAND_WORDS];
    unsigned nbits;
} dpsel_urand;

/*@ predicate urand_ok(dpsel_urand *u) = \valid(u) && u->nbits <= DPSEL_URAND_BITS; */

/* Forgets every digit: a fresh lazy uniform. */
/*@ requires valid: \valid(u);
    assigns *u;
    ensures fresh: u->nbits == 0 && urand_ok(u);
*/
void dpsel_core_urand_reset(dpsel_urand *u);

/* Whether a < b, drawing digits of both until they differ.  DPSEL_OK,
 * DPSEL_ERANDOM, or DPSEL_EUNLIKELY when they agree on DPSEL_URAND_BITS
 * digits.  *less is written only on success. */
/*@ requires valid: urand_ok(a) && urand_ok(b) && \valid(rng) && \valid(less);
    requires apart: \separated(a, b, rng, less);
    assigns *a, *b, *rng, *less;
    ensures status: sampler_status(\result);
    ensures kept: urand_ok(a) && urand_ok(b);
    ensures flag: \result == DPSEL_OK ==> zero_or_one(*less);
*/
int dpsel_core_urand_less(dpsel_rng *rng, dpsel_urand *a, dpsel_urand *b, int *less);

/* An Exp(1) variable K + F by von Neumann's method: *whole = K and
 * *fraction = F, a lazy uniform whose undrawn digits are fair bits given
 * the drawn ones.  run[0] and run[1] are scratch.  DPSEL_OK, DPSEL_ERANDOM,
 * or DPSEL_EUNLIKELY (K reaching DPSEL_EXP_WHOLE_MAX, a run longer than
 * DPSEL_EXP_RUN_MAX, a comparison past DPSEL_URAND_BITS digits). */
/*@ requires valid: \valid(fraction) && \valid(run + (0 .. 1)) && \valid(rng) &&
                    \valid(whole);
    requires apart: \separated(fraction, run + (0 .. 1), rng, whole);
    assigns *fraction, run[0 .. 1], *rng, *whole;
    ensures status: sampler_status(\result);
    ensures kept: urand_ok(fraction);
    ensures bounded: \result == DPSEL_OK ==> *whole < DPSEL_EXP_WHOLE_MAX;
*/
int dpsel_core_exponential(dpsel_rng *rng, dpsel_urand *fraction, dpsel_urand run[2],
                           uint64_t *whole);

/* Whether a fresh uniform U is below a constant c in (0, 1) of which the
 * first DPSEL_URAND_BITS binary digits are given (digit i is bit 63 - i % 64
 * of digits[i / 64]) and whose expansion goes on past them (c is not a
 * dyadic of that length; e^-k is irrational): U's bits are drawn until one
 * differs from c's, so *below is exactly [U < c], from 2 bits on average.
 * DPSEL_OK, DPSEL_ERANDOM, or DPSEL_EUNLIKELY (U agrees with every given
 * digit: probability 2^-256).  *below is written only on success. */
/*@ requires valid: \valid_read(digits + (0 .. DPSEL_URAND_WORDS - 1)) && \valid(rng) &&
                    \valid(below);
    requires apart: \separated(digits + (0 .. DPSEL_URAND_WORDS - 1), rng, below);
    assigns *rng, *below;
    ensures status: sampler_status(\result);
    ensures flag: \result == DPSEL_OK ==> zero_or_one(*below);
*/
int dpsel_core_uniform_below(dpsel_rng *rng, const uint64_t digits[DPSEL_URAND_WORDS],
                             int *below);

/* Whether V = whole + rem / den + s_a F_a - s_b F_b > 0, where s_a is +1
 * if a_positive else -1 (likewise s_b), deciding from the digits of rem /
 * den (long division) and those of the lazy uniforms F_a, F_b, drawn as far
 * as needed.  whole is in [-2, 1] and rem < den <= 2^63.  V = 0 has
 * probability 0.  DPSEL_OK, DPSEL_ERANDOM, or DPSEL_EUNLIKELY (undecided
 * after DPSEL_URAND_BITS digits).  *beats is written only on success. */
/*@ requires valid: urand_ok(a) && urand_ok(b) && \valid(rng) && \valid(beats);
    requires apart: \separated(a, b, rng, beats);
    requires whole: -2 <= whole <= 1;
    requires fraction: rem < den <= 9223372036854775808;
    requires signs: zero_or_one(a_positive) && zero_or_one(b_positive);
    assigns *a, *b, *rng, *beats;
    ensures status: sampler_status(\result);
    ensures kept: urand_ok(a) && urand_ok(b);
    ensures flag: \result == DPSEL_OK ==> zero_or_one(*beats);
*/
int dpsel_core_rnm_beats(dpsel_rng *rng, int whole, uint64_t rem, uint64_t den,
                         int a_positive, dpsel_urand *a, int b_positive, dpsel_urand *b,
                         int *beats);

#endif
