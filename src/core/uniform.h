/* SPDX-License-Identifier: ISC */
/* Unbiased uniform integers from single random bits (uniform.c). */
#ifndef DPSEL_CORE_UNIFORM_H
#define DPSEL_CORE_UNIFORM_H

#include "core.h"

/* Uniform integer in [0, k), 1 <= k <= 2^63, by the Fast Dice Roller
 * (Lumbroso 2013): no modulo bias, about log2(k) + 2 bits.  DPSEL_OK,
 * DPSEL_ERANDOM, or DPSEL_EUNLIKELY after DPSEL_REJECTION_ROUNDS
 * rejections; *out is written only on success.  k == 1 reads no bit. */
/*@ requires writable: \valid(rng) && \valid(out) && \separated(rng, out);
    requires range: 1 <= k <= 9223372036854775808;
    assigns *rng, *out;
    ensures status: sampler_status(\result);
    ensures drawn: released(\result, *out, \old(*out), k);
    ensures stream: \result != DPSEL_ERANDOM && \old(uniform_room(rng)) ==>
            uniform_drawn_ref(rng, k, \old(cursor(rng)), \result, *out, cursor(rng));
    behavior certain:
      assumes k == 1;
      assigns *out;
      ensures zero: \result == DPSEL_OK && *out == 0;
    behavior random:
      assumes k > 1;
      assigns *rng, *out;
    complete behaviors;
    disjoint behaviors;
*/
int dpsel_core_uniform(dpsel_rng *rng, uint64_t k, uint64_t *out);

#endif
