/* SPDX-License-Identifier: ISC */
/* Precision bookkeeping (precision.c): how many bits make every MPFR
 * operation of the decay table exact. */
#ifndef DPSEL_CORE_PRECISION_H
#define DPSEL_CORE_PRECISION_H

#include "core.h"

/* MPFR precision of beta^(2^i) for a base x / 2^y with xbits = bitlen(x):
 * xbits 2^i bits.  The decay table computes beta^(2^i) by squaring
 * beta^(2^(i-1)) after widening it to this precision; both steps are exact
 * because the precision doubles from i - 1 to i and x^(2^i) < 2^(xbits 2^i)
 * (lemma squarings_fit, spec/lemmas.h). */
/*@ requires bounds: xbits <= 64 && i <= 20;
    assigns \nothing;
    ensures precision: \result == xbits * pow2(i);
    ensures bounded: \result <= 67108864;
    ensures exact: \forall integer x; 0 <= x < pow2(xbits) ==> 0 <= squarings(x, i) < pow2(\result);
    ensures doubling: i >= 1 ==> \result == 2 * (xbits * pow2(i - 1));
*/
uint64_t dpsel_core_power_precision(unsigned xbits, unsigned i);

#endif
