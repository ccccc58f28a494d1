/* SPDX-License-Identifier: ISC */
/* Unbiased uniform integers from single random bits (Fast Dice Roller). */
#include "uniform.h"

/* Whether v * scale <= top, without computing the product (which may not
 * fit in 64 bits). */
/*@ requires scale: 1 <= scale;
    assigns \nothing;
    ensures flag: zero_or_one(\result);
    ensures at_most: \result == 1 <==> v * scale <= top;
*/
static int scaled_at_most(uint64_t v, uint64_t scale, uint64_t top)
{
    uint64_t quotient = top / scale;
    //@ assert quotient * scale <= top < quotient * scale + scale;
    //@ assert v <= quotient ==> v * scale <= quotient * scale;
    //@ assert v > quotient ==> (quotient + 1) * scale <= v * scale;
    return v <= quotient;
}

/* The length of a doubling run: the smallest m with v * 2^m >= k, by a
 * binary search on m (no loop over the bits). */
/*@ requires range: 1 <= v < k <= 9223372036854775808;
    assigns \nothing;
    ensures bounded: 1 <= \result <= 63;
    ensures smallest: k <= v * pow2(\result) < 2 * k;
    ensures run: \result == fdr_doublings(v, k);
*/
static unsigned doublings(uint64_t v, uint64_t k)
{
    //@ ghost dpsel_lemma_pow2_shift();
    uint64_t top = k - 1;
    //@ assert top < pow2(64) <= v * pow2(64);
    unsigned under = 0;  /* the largest m with v * 2^m < k found so far */
    /*@ loop invariant step == 64 || step == 32 || step == 16 || step == 8 ||
                       step == 4 || step == 2 || step == 1;
        loop invariant under + step <= 64;
        loop invariant v * pow2(under) <= top;
        loop invariant top < v * pow2(under + step);
        loop assigns step, under;
        loop variant step;
    */
    for (unsigned step = 64; step > 1;) {
        step /= 2;
        uint64_t scale = (uint64_t)1 << (under + step);
        //@ assert scale == pow2(under + step);
        if (scaled_at_most(v, scale, top)) {
            under += step;
        }
    }
    //@ assert step_one: top < v * pow2(under + 1);
    //@ assert pow2(under + 1) == 2 * pow2(under);
    //@ assert v * pow2(under + 1) == 2 * (v * pow2(under));
    //@ ghost dpsel_lemma_doublings(v, k, under + 1);
    return under + 1;
}

int dpsel_core_uniform(dpsel_rng *rng, uint64_t k, uint64_t *out)
{
    /* Invariant: c is uniform in [0, v) given everything drawn so far, and
     * c < v < k before each doubling run, so 2v and 2c + 1 fit in 64 bits.
     * A doubling run (v = 2v, c = 2c + bit until v >= k) reads its bits in
     * one dpsel_internal_rng_bits call. */
    uint64_t v = 1;
    uint64_t c = 0;
    if (k == 1) {
        *out = 0;
        return DPSEL_OK;
    }
    //@ ghost dpsel_lemma_pow2_shift();
    /* As a function of the bits: the rounds left from the cursor on give
     * the draw (spec/references.h). */
    /*@ loop invariant 0 <= round <= DPSEL_REJECTION_ROUNDS;
        loop invariant 1 <= v < k && c < v;
        loop invariant stream: \at(uniform_room(rng), Pre) ==>
            cursor{Pre}(rng) <= cursor(rng) <= cursor{Pre}(rng) + 63 * round &&
            uniform_ref(rng, k, cursor{Pre}(rng)) ==
                uniform_rounds_ref(rng, v, c, k, cursor(rng), round) &&
            uniform_end(rng, k, cursor{Pre}(rng)) ==
                uniform_rounds_end(rng, v, c, k, cursor(rng), round);
        loop assigns round, v, c, *rng;
        loop variant DPSEL_REJECTION_ROUNDS - round;
    */
    for (unsigned round = 0; round < DPSEL_REJECTION_ROUNDS; round++) {
        /*@ ghost run: ; */
        unsigned m = doublings(v, k);
        uint64_t bits;
        int rc = dpsel_internal_rng_bits(rng, m, &bits);
        if (rc != DPSEL_OK) {
            return rc;
        }
        uint64_t scale = (uint64_t)1 << m;
        //@ assert scale == pow2(m);
        //@ ghost dpsel_lemma_append_below(c, v, scale, bits);
        v = v * scale;
        c = c * scale + bits;
        /*@ assert stream_run: \at(uniform_room(rng), Pre) ==>
                   v == fdr_grown(\at(v, run), k) &&
                   c == fdr_drawn(rng, \at(v, run), \at(c, run), k, \at(cursor(rng), run)) &&
                   cursor(rng) == \at(cursor(rng), run) + fdr_doublings(\at(v, run), k); */
        if (c < k) {
            /*@ assert accepted: \at(uniform_room(rng), Pre) ==>
                       uniform_rounds_ref(rng, \at(v, run), \at(c, run), k,
                                          \at(cursor(rng), run), round) == c &&
                       uniform_rounds_end(rng, \at(v, run), \at(c, run), k,
                                          \at(cursor(rng), run), round) == cursor(rng); */
            *out = c;
            return DPSEL_OK;
        }
        /* Rejected (probability (v - k) / v < 1/2): c - k is uniform in
         * [0, v - k); keep those bits instead of starting again. */
        v -= k;
        c -= k;
    }
    return DPSEL_EUNLIKELY;
}
