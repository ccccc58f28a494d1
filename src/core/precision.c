/* SPDX-License-Identifier: ISC */
/* Precision bookkeeping: how many bits make every MPFR operation exact. */
#include "precision.h"

uint64_t dpsel_core_power_precision(unsigned xbits, unsigned i)
{
    /* The contract's exact clause is squarings_fit at b = xbits; the ghost
     * code below gives the provers the instances of pow2 they need. */
    //@ ghost dpsel_lemma_pow2_shift();
    //@ ghost dpsel_lemma_squarings_fit();
    //@ assert pow2(i) <= pow2(20) == 1048576;
    //@ assert ((uint64_t)1 << i) == pow2(i);
    /*@ ghost
        if (i >= 1) {
            /@ assert pow2(i) == 2 * pow2(i - 1); @/
        }
    */
    return ((uint64_t)1 << i) * xbits;
}
