/* SPDX-License-Identifier: ISC */
/*
 * The proofs of the lemma functions of spec/lemmas.h: ghost code only, read
 * by make proofs (Frama-C WP) and never compiled.  A loop invariant carries
 * each induction; an empty body means the provers need no more than the
 * contract's premises.
 */
#include "../src/core/core.h"

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

/*@ ghost
    void dpsel_lemma_pow2_square(uint64_t k)
    {
        /@ loop invariant 0 <= m <= k;
           loop invariant \forall integer j; 0 <= j <= m ==> pow2(2 * j) == square(pow2(j));
           loop assigns m;
           loop variant k - m;
        @/
        for (uint64_t m = 0; m < k; m++) {
            /@ assert pow2(2 * m + 2) == 4 * pow2(2 * m); @/
            /@ assert square(pow2(m + 1)) == 4 * square(pow2(m)); @/
        }
    }

    void dpsel_lemma_squarings_fit_at(unsigned b, unsigned i)
    {
        dpsel_lemma_pow2_shift();
        /@ assert pow2(0) == 1; @/
        /@ assert \forall integer x; squarings(x, 0) == x; @/
        uint64_t bits = b;
        /@ loop invariant 0 <= j <= i;
           loop invariant 1 <= pow2(j) <= 1048576;
           loop invariant bits == b * pow2(j) && bits <= 64 * pow2(j);
           loop invariant \forall integer x; 0 <= x < pow2(b) ==> 0 <= squarings(x, j) < pow2(bits);
           loop assigns j, bits;
           loop variant i - j;
        @/
        for (unsigned j = 0; j < i; j++) {
            /@ assert pow2(j + 1) == 2 * pow2(j); @/
            /@ assert pow2(j) <= 524288; @/
            /@ assert bits <= 33554432; @/
            dpsel_lemma_pow2_square(bits);
            /@ assert \forall integer x; squarings(x, j + 1) == square(squarings(x, j)); @/
            /@ assert \forall integer x; 0 <= x < pow2(b) ==>
                      0 <= square(squarings(x, j)) < square(pow2(bits)); @/
            bits = 2 * bits;
        }
    }

    // A loop over every (b, i) of the statement, one ground instance each
    // of dpsel_lemma_squarings_fit_at.
    void dpsel_lemma_squarings_fit(void)
    {
        /@ loop invariant 0 <= b <= 65;
           loop invariant \forall integer x, c, k; 0 <= c < b && 0 <= k <= 20 && 0 <= x < pow2(c) ==>
                          0 <= squarings(x, k) < pow2(c * pow2(k));
           loop assigns b;
           loop variant 65 - b;
        @/
        for (unsigned b = 0; b <= 64; b++) {
            /@ loop invariant 0 <= i <= 21;
               loop invariant \forall integer x, k; 0 <= k < i && 0 <= x < pow2(b) ==>
                              0 <= squarings(x, k) < pow2(b * pow2(k));
               loop assigns i;
               loop variant 21 - i;
            @/
            for (unsigned i = 0; i <= 20; i++) {
                dpsel_lemma_squarings_fit_at(b, i);
            }
        }
    }
*/

/*@ ghost
    void dpsel_lemma_bitlen_step(uint64_t w, uint64_t v, uint64_t x, unsigned b)
    {
    }

    void dpsel_lemma_append_below(uint64_t c, uint64_t v, uint64_t scale, uint64_t bits)
    {
        /@ assert (c + 1) * scale <= v * scale; @/
    }
*/

/*@ ghost
    void dpsel_lemma_doublings(uint64_t v, uint64_t k, unsigned m)
    {
        dpsel_lemma_pow2_shift();
        /@ assert half: pow2(m) == 2 * pow2(m - 1); @/
        uint64_t w = v;
        unsigned j = 0;
        /@ loop invariant 0 <= j <= m;
           loop invariant scaled: w == v * pow2(j);
           loop invariant doubled: 0 < j ==> w == 2 * (v * pow2(j - 1));
           loop invariant counted: fdr_doublings(v, k) == j + fdr_doublings(w, k);
           loop assigns j, w;
           loop variant m - j;
        @/
        for (; j < m; j++) {
            /@ assert pow2(j) <= pow2(m - 1); @/
            /@ assert 0 <= v * (pow2(m - 1) - pow2(j)); @/
            /@ assert v * pow2(j) <= v * pow2(m - 1); @/
            /@ assert below: 1 <= w < k; @/
            /@ assert pow2(j + 1) == 2 * pow2(j); @/
            w = 2 * w;
        }
        /@ assert done: j == m && w == v * pow2(m); @/
        /@ assert reached: k <= w; @/
        /@ assert ended: fdr_doublings(w, k) == 0; @/
    }

    void dpsel_lemma_span_index(uint64_t s, uint64_t span, uint64_t n)
    {
        /@ assert s >= DPSEL_RACE_SPANS ==> s * span >= DPSEL_RACE_SPANS * span; @/
    }
*/

/*@ ghost
    void dpsel_lemma_power_bits(const dpsel_dyadic *powers, unsigned npowers)
    {
        /@ loop invariant 0 <= k <= npowers;
           loop invariant powers_seen(powers, npowers) ==>
               \forall integer i, j; 0 <= i <= j <= k ==>
                   0 <= power_bits(powers, i) <= power_bits(powers, j);
           loop assigns k;
           loop variant npowers - k;
        @/
        for (unsigned k = 0; k < npowers; k++) {
            /@ assert powers_seen(powers, npowers) ==>
                   seen_lead(powers + k) >= 0 && seen_ndigits(powers + k) >= 0; @/
        }
    }
*/

/*@ ghost
    void dpsel_lemma_times(uint64_t done, uint64_t total)
    {
        /@ loop invariant 0 <= k <= total;
           loop invariant \forall integer bits, j, i; 0 <= bits && 0 <= j <= i <= k ==>
               0 <= times(bits, j) <= times(bits, i);
           loop assigns k;
           loop variant total - k;
        @/
        for (uint64_t k = 0; k < total; k++) {
        }
    }
*/

/*@ ghost
    void dpsel_lemma_times_sum(uint64_t count)
    {
        /@ loop invariant 0 <= k <= count;
           loop invariant \forall integer a, b; times(a + b, k) == times(a, k) + times(b, k);
           loop assigns k;
           loop variant count - k;
        @/
        for (uint64_t k = 0; k < count; k++) {
        }
    }
*/

/*@ ghost
    void dpsel_lemma_trial_bits(const dpsel_dyadic *powers, unsigned npowers)
    {
        dpsel_lemma_power_bits(powers, npowers);
    }
*/

/*@ ghost
    void dpsel_lemma_product_monotonic(uint64_t a, uint64_t b, uint64_t c)
    {
        /@ assert difference: 0 <= (b - a) * c; @/
    }
*/
