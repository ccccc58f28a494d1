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

/* Exactness of the decay table: for 0 <= x < 2^b, x^(2^i) < 2^(b 2^i), i.e.
 * x^(2^i) has at most 2^i * bitlen(x) bits, for the range the MPFR layer
 * uses (b <= 64, i <= 20).  A lemma function: its loops carry the
 * inductions. */
/*@ ghost
    /@ assigns \nothing;
       ensures power_fits: \forall integer x, b, i;
           0 <= i <= 20 && 0 <= b <= 64 && 0 <= x < pow2(b) ==>
           0 <= power(x, pow2(i)) < pow2(b * pow2(i));
    @/
    static void dpsel_lemma_power_fits(void)
    {
        dpsel_lemma_pow2_shift();
        /@ loop invariant 0 <= c <= 67108864;
           loop invariant \forall integer a, d; 0 <= a && 0 <= d <= c ==>
               pow2(a + d) == pow2(a) * pow2(d);
           loop assigns c;
           loop variant 67108864 - c;
        @/
        for (uint64_t c = 0; c < 67108864; c++) {
            /@ assert \forall integer a; 0 <= a ==>
                   pow2(a + c + 1) == 2 * pow2(a + c) == 2 * (pow2(a) * pow2(c)); @/
        }
        /@ loop invariant 0 <= c <= 1048576;
           loop invariant \forall integer y, a, d; 0 <= a && 0 <= d <= c ==>
               power(y, a + d) == power(y, a) * power(y, d);
           loop assigns c;
           loop variant 1048576 - c;
        @/
        for (uint64_t c = 0; c < 1048576; c++) {
            /@ assert \forall integer y, a; 0 <= a ==>
                   power(y, a + c + 1) == y * power(y, a + c) == y * (power(y, a) * power(y, c)); @/
        }
        /@ loop invariant 0 <= k <= 20;
           loop invariant 1 <= pow2(k) <= 1048576;
           loop invariant \forall integer x, b; 0 <= b <= 64 && 0 <= x < pow2(b) ==>
               0 <= power(x, pow2(k)) < pow2(b * pow2(k));
           loop assigns k;
           loop variant 20 - k;
        @/
        for (unsigned k = 0; k < 20; k++) {
            /@ assert pow2(k + 1) == pow2(k) + pow2(k) && pow2(k) <= 524288; @/
            /@ assert \forall integer x, b; 0 <= b <= 64 && 0 <= x < pow2(b) ==>
                   0 <= b * pow2(k) <= 33554432 &&
                   power(x, pow2(k + 1)) == power(x, pow2(k)) * power(x, pow2(k)) &&
                   pow2(b * pow2(k + 1)) == pow2(b * pow2(k)) * pow2(b * pow2(k)); @/
        }
    }
*/
