/*
 * Logic definitions shared by the ACSL contracts of the core.  Definitions
 * and lemmas only; a lemma is proved by WP like any other goal (a lemma that
 * needs induction is proved through a ghost function in the core).
 */
#ifndef DPSEL_SPEC_LOGIC_H
#define DPSEL_SPEC_LOGIC_H

#include <stdint.h>

/*@ // 2^e for e >= 0
    logic integer pow2(integer e) = e <= 0 ? 1 : 2 * pow2(e - 1);

    // b^e for e >= 0
    logic integer power(integer b, integer e) = e <= 0 ? 1 : b * power(b, e - 1);

    // the stored digits of a dyadic can be read: words[0 .. ceil(ndigits / 64) - 1]
    predicate valid_dyadic{L}(dpsel_dyadic *t) =
        \valid_read(t) &&
        (t->ndigits > 0 ==> \valid_read(t->words + (0 .. (t->ndigits - 1) / 64)));

    // a decay table: npowers readable dyadics, and every clamped gap (<= cap)
    // has its set bits among the first npowers
    predicate valid_decay{L}(dpsel_decay *d) =
        \valid_read(d) && d->npowers <= 64 && d->cap < pow2(d->npowers) &&
        \valid_read(d->powers + (0 .. d->npowers - 1)) &&
        (\forall integer i; 0 <= i < d->npowers ==> valid_dyadic(d->powers + i));
*/

/*@ // 2^64, by evaluation (the width of uint64_t)
    lemma pow2_64: pow2(64) == 18446744073709551616;
*/

/*@ ghost
    // Facts about pow2 that need induction, as a lemma function: proved (by
    // the loop invariant of its body, in src/core/precision.c), and used by
    // calling it in ghost code.
    /@ assigns \nothing;
       ensures pow2_shift: \forall integer k; 0 <= k <= 63 ==> (1 << k) == pow2(k);
       ensures pow2_positive: \forall integer k; 0 <= k <= 64 ==> 1 <= pow2(k);
       ensures pow2_monotonic: \forall integer j, k; 0 <= j <= k <= 64 ==> pow2(j) <= pow2(k);
    @/
    void dpsel_lemma_pow2_shift(void);
*/

#endif
