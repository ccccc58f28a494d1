/* Precision bookkeeping: how many bits make every MPFR operation exact. */
#include "core.h"

/*@ ghost
    void dpsel_lemma_pow2_shift(void)
    {
        /@ loop invariant 0 <= e <= 64;
           loop invariant \forall integer k; 0 <= k <= e && k <= 63 ==> (1 << k) == pow2(k);
           loop invariant \forall integer k; 0 <= k <= e ==> 1 <= pow2(k);
           loop invariant \forall integer j, k; 0 <= j <= k <= e ==> pow2(j) <= pow2(k);
           loop assigns e;
           loop variant 64 - e;
        @/
        for (unsigned e = 0; e < 64; e++) {
            /@ assert ((1 << e) << 1) == (1 << (e + 1)); @/
            /@ assert (1 << (e + 1)) == 2 * (1 << e); @/
        }
    }
*/

uint64_t dpsel_core_power_precision(unsigned xbits, unsigned i)
{
    /* x^(2^i) < 2^(2^i * bitlen(x)), so beta^(2^i) = x^(2^i) / 2^(y 2^i)
     * has at most 2^i * bitlen(x) significant bits. */
    //@ ghost dpsel_lemma_pow2_shift();
    //@ assert pow2(i) <= pow2(20) == 1048576;
    return ((uint64_t)1 << i) * xbits;
}
