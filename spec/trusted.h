/* SPDX-License-Identifier: ISC */
/*
 * Trusted base, part 1: the functions of the random source that the verified
 * core calls without verifying them.  Their contracts are ASSUMED (see
 * spec/trusted-base.md, entry 3).  Every other assumption of the proofs is in
 * this folder.
 */
#ifndef DPSEL_SPEC_TRUSTED_H
#define DPSEL_SPEC_TRUSTED_H

#include "dpsel.h"
/* pow2 and random_status; core.h defines the types logic.h's predicates
 * name before it includes this header. */
#include "logic.h"

/* One uniform random bit from the source (src/rng.c).  Assumed: it returns
 * DPSEL_OK with *bit in {0, 1}, or DPSEL_ERANDOM, and writes nothing but the
 * source and *bit (a caller-supplied bit function writes only its own
 * context, which the core never reads).  As a bit stream (spec/bits.h): on
 * success, *bit is the bit at the cursor and the cursor moves by one, while
 * the cursor has room; so for the other two readers. */
/*@ requires writable: \valid(rng) && \valid(bit) && \separated(rng, bit);
    assigns *rng, *bit;
    ensures status: random_status(\result);
    ensures bit: \result == DPSEL_OK ==> *bit <= 1;
    ensures stream: \result == DPSEL_OK && \old(room(rng, 1)) ==>
            bit_read(rng, \old(cursor(rng)), *bit);
*/
int dpsel_internal_rng_bit(dpsel_rng *rng, unsigned *bit);

/* The bits dpsel_internal_rng_bit would give, read while they are 0: stops after
 * limit zeros or after the first 1, which is consumed.  *zeros is the number
 * of zeros read, so *zeros < limit means a 1 was read.  Assumed as for
 * dpsel_internal_rng_bit, and that it consumes exactly the bits of the equivalent loop
 * of dpsel_internal_rng_bit calls (tests/test_rng_bits.c). */
/*@ requires writable: \valid(rng) && \valid(zeros) && \separated(rng, zeros);
    assigns *rng, *zeros;
    ensures status: random_status(\result);
    ensures run: \result == DPSEL_OK ==> *zeros <= limit;
    ensures stream: \result == DPSEL_OK && \old(room(rng, limit)) ==>
            zeros_read(rng, \old(cursor(rng)), limit, *zeros);
*/
int dpsel_internal_rng_zeros(dpsel_rng *rng, uint64_t limit, uint64_t *zeros);

/* The next count bits dpsel_internal_rng_bit would give, as an integer whose most
 * significant bit is the first read.  Assumed as for dpsel_internal_rng_bit, and that
 * it consumes exactly the bits of count dpsel_internal_rng_bit calls
 * (tests/test_rng_bits.c). */
/*@ requires writable: \valid(rng) && \valid(value) && \separated(rng, value);
    requires count_bound: count <= 63;
    assigns *rng, *value;
    ensures status: random_status(\result);
    ensures bits: \result == DPSEL_OK ==> *value < pow2(count);
    ensures stream: \result == DPSEL_OK && \old(room(rng, count)) ==>
            bits_read(rng, \old(cursor(rng)), count, *value);
*/
int dpsel_internal_rng_bits(dpsel_rng *rng, unsigned count, uint64_t *value);

#endif
