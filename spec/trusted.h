/*
 * Trusted base, part 1: the one function the verified core calls without
 * verifying it.  Its contract is ASSUMED (see spec/trusted-base.md, entry 3).
 * Every other assumption of the proofs is in this folder.
 */
#ifndef DPSEL_SPEC_TRUSTED_H
#define DPSEL_SPEC_TRUSTED_H

#include "dpsel.h"

/* One uniform random bit from the source (src/rng.c).  Assumed: it returns
 * DPSEL_OK with *bit in {0, 1}, or DPSEL_ERANDOM, and writes nothing but the
 * source and *bit (a caller-supplied bit function writes only its own
 * context, which the core never reads). */
/*@ requires \valid(rng) && \valid(bit) && \separated(rng, bit);
    assigns *rng, *bit;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM;
    ensures \result == DPSEL_OK ==> *bit <= 1;
*/
int dpsel_rng_bit(dpsel_rng *rng, unsigned *bit);

#endif
