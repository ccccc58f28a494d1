/* SPDX-License-Identifier: ISC */
/* Report noisy max with Laplace noise: the decisions from the random bits
 * (spec/mechanisms.md §14). */
#include "rnm.h"

void dpsel_core_urand_reset(dpsel_urand *u)
{
    /*@ loop invariant 0 <= w <= DPSEL_URAND_WORDS;
        loop assigns w, u->words[0 .. DPSEL_URAND_WORDS - 1];
        loop variant DPSEL_URAND_WORDS - w;
    */
    for (unsigned w = 0; w < DPSEL_URAND_WORDS; w++) {
        u->words[w] = 0;
    }
    u->nbits = 0;
}

/* Digit i of u, drawing it if it is the next one (i <= u->nbits). */
/*@ requires valid: urand_ok(u) && \valid(rng) && \valid(digit);
    requires apart: \separated(u, rng, digit);
    requires next: i <= u->nbits;
    assigns *u, *rng, *digit;
    ensures status: sampler_status(\result);
    ensures kept: urand_ok(u);
    ensures grown: \result == DPSEL_OK ==> u->nbits > i && *digit <= 1;
*/
static int urand_digit(dpsel_rng *rng, dpsel_urand *u, unsigned i, unsigned *digit)
{
    if (i == u->nbits) {
        if (i == DPSEL_URAND_BITS) {
            return DPSEL_EUNLIKELY;
        }
        unsigned bit;
        int rc = dpsel_internal_rng_bit(rng, &bit);
        if (rc != DPSEL_OK) {
            return rc;
        }
        if (bit) {
            u->words[i / 64] |= ((uint64_t)1 << 63) >> (i % 64);
        }
        u->nbits = i + 1;
    }
    *digit = (unsigned)((u->words[i / 64] >> (63 - i % 64)) & 1u);
    return DPSEL_OK;
}

/* Digit i of a and of b (i <= both counts of digits drawn). */
/*@ requires valid: urand_ok(a) && urand_ok(b) && \valid(rng) && \valid(da) && \valid(db);
    requires apart: \separated(a, b, rng, da, db);
    requires next: i <= a->nbits && i <= b->nbits;
    assigns *a, *b, *rng, *da, *db;
    ensures status: sampler_status(\result);
    ensures kept: urand_ok(a) && urand_ok(b);
    ensures grown: \result == DPSEL_OK ==> a->nbits > i && b->nbits > i && *da <= 1 && *db <= 1;
*/
static int digit_pair(dpsel_rng *rng, dpsel_urand *a, dpsel_urand *b, unsigned i, unsigned *da,
                      unsigned *db)
{
    int rc = urand_digit(rng, a, i, da);
    return rc == DPSEL_OK ? urand_digit(rng, b, i, db) : rc;
}

int dpsel_core_urand_less(dpsel_rng *rng, dpsel_urand *a, dpsel_urand *b, int *less)
{
    /*@ loop invariant 0 <= i <= DPSEL_URAND_BITS;
        loop invariant urand_ok(a) && urand_ok(b);
        loop invariant i <= a->nbits && i <= b->nbits;
        loop assigns i, *a, *b, *rng;
        loop variant DPSEL_URAND_BITS - i;
    */
    for (unsigned i = 0; i < DPSEL_URAND_BITS; i++) {
        unsigned da;
        unsigned db;
        int rc = digit_pair(rng, a, b, i, &da, &db);
        if (rc != DPSEL_OK) {
            return rc;
        }
        if (da != db) {
            *less = da < db;
            return DPSEL_OK;
        }
    }
    return DPSEL_EUNLIKELY;
}

/* The length of a decreasing run that starts at first: first > u_2 > u_3
 * > ..., each u drawn fresh into run[] (alternately), until one is not
 * below the one before it.  DPSEL_EUNLIKELY past DPSEL_EXP_RUN_MAX. */
/*@ requires valid: urand_ok(first) && \valid(run + (0 .. 1)) && \valid(rng) &&
                    \valid(length);
    requires apart: \separated(first, run + (0 .. 1), rng, length);
    assigns *first, run[0 .. 1], *rng, *length;
    ensures status: sampler_status(\result);
    ensures kept: urand_ok(first);
*/
static int decreasing_run(dpsel_rng *rng, dpsel_urand *first, dpsel_urand run[2],
                          unsigned *length)
{
    dpsel_urand *previous = first;
    /*@ loop invariant 1 <= count <= DPSEL_EXP_RUN_MAX;
        loop invariant urand_ok(first);
        loop invariant previous == first || (count >= 2 && previous == run + count % 2);
        loop invariant count >= 2 ==> urand_ok(run + count % 2);
        loop assigns count, previous, *first, run[0 .. 1], *rng;
        loop variant DPSEL_EXP_RUN_MAX - count;
    */
    for (unsigned count = 1; count < DPSEL_EXP_RUN_MAX; count++) {
        dpsel_urand *next = &run[(count + 1) % 2];
        dpsel_core_urand_reset(next);
        int below;
        int rc = dpsel_core_urand_less(rng, next, previous, &below);
        if (rc != DPSEL_OK) {
            return rc;
        }
        if (!below) {
            *length = count;
            return DPSEL_OK;
        }
        previous = next;
    }
    return DPSEL_EUNLIKELY;
}

int dpsel_core_exponential(dpsel_rng *rng, dpsel_urand *fraction, dpsel_urand run[2],
                           uint64_t *whole)
{
    /* A run of odd length accepts x with probability e^-x; an even one
     * adds 1 to the integer part and starts again (spec/mechanisms.md §14). */
    dpsel_core_urand_reset(fraction);
    /*@ loop invariant 0 <= k <= DPSEL_EXP_WHOLE_MAX;
        loop invariant urand_ok(fraction);
        loop assigns k, *fraction, run[0 .. 1], *rng;
        loop variant DPSEL_EXP_WHOLE_MAX - k;
    */
    for (uint64_t k = 0; k < DPSEL_EXP_WHOLE_MAX; k++) {
        dpsel_core_urand_reset(fraction);
        unsigned length;
        int rc = decreasing_run(rng, fraction, run, &length);
        if (rc != DPSEL_OK) {
            return rc;
        }
        if (length % 2 == 1) {
            *whole = k;
            return DPSEL_OK;
        }
    }
    return DPSEL_EUNLIKELY;
}

int dpsel_core_uniform_below(dpsel_rng *rng, const uint64_t digits[DPSEL_URAND_WORDS],
                             int *below)
{
    /*@ loop invariant 0 <= i <= DPSEL_URAND_BITS;
        loop assigns i, *rng;
        loop variant DPSEL_URAND_BITS - i;
    */
    for (unsigned i = 0; i < DPSEL_URAND_BITS; i++) {
        unsigned bit;
        int rc = dpsel_internal_rng_bit(rng, &bit);
        if (rc != DPSEL_OK) {
            return rc;
        }
        unsigned digit = (unsigned)((digits[i / 64] >> (63 - i % 64)) & 1u);
        if (bit != digit) {
            *below = bit < digit;
            return DPSEL_OK;
        }
    }
    return DPSEL_EUNLIKELY;
}

int dpsel_core_rnm_beats(dpsel_rng *rng, int whole, uint64_t rem, uint64_t den,
                         int a_positive, dpsel_urand *a, int b_positive, dpsel_urand *b,
                         int *beats)
{
    /* V 2^L = state + the rest, the rest in (-negative, positive): the
     * three terms rem/den, F_a, F_b are in [0, 1), rem/den counts as
     * positive, F_a as its sign, F_b against its sign. */
    int positive = 1 + a_positive + (1 - b_positive);
    int negative = 3 - positive;
    int state = whole;
    /*@ loop invariant 0 <= i <= DPSEL_URAND_BITS;
        loop invariant urand_ok(a) && urand_ok(b);
        loop invariant i <= a->nbits && i <= b->nbits;
        loop invariant -6 <= state <= 5;
        loop invariant rem < den;
        loop assigns i, state, rem, *a, *b, *rng;
        loop variant DPSEL_URAND_BITS - i;
    */
    for (unsigned i = 0; i < DPSEL_URAND_BITS; i++) {
        if (state >= negative || state <= -positive) {
            *beats = state >= negative;
            return DPSEL_OK;
        }
        unsigned da;
        unsigned db;
        int rc = digit_pair(rng, a, b, i, &da, &db);
        if (rc != DPSEL_OK) {
            return rc;
        }
        /* The next digit of rem / den: 2 rem >= den, computed without 2 rem. */
        unsigned dr = rem >= den - rem;
        rem = dr ? rem - (den - rem) : 2 * rem;
        int step_a = a_positive ? (int)da : -(int)da;
        int step_b = b_positive ? -(int)db : (int)db;
        state = 2 * state + (int)dr + step_a + step_b;
    }
    return DPSEL_EUNLIKELY;
}
