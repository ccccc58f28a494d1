/* SPDX-License-Identifier: ISC */
/*
 * Lemma functions: facts the provers need that take induction or a
 * product, stated as ghost functions.  Each is proved once, by WP on its
 * body in src/core/lemmas.c (a loop invariant carries the induction), and
 * used by calling it in ghost code, which puts a ground instance in the
 * caller's context instead of a quantified lemma in every goal's.
 */
#ifndef DPSEL_SPEC_LEMMAS_H
#define DPSEL_SPEC_LEMMAS_H

/*@ ghost
    // pow2 against the shift and in order, for every exponent of a uint64_t
    /@ assigns \nothing;
       ensures pow2_shift: \forall integer k; 0 <= k <= 63 ==> (1 << k) == pow2(k);
       ensures pow2_positive: \forall integer k; 0 <= k <= 64 ==> 1 <= pow2(k);
       ensures pow2_monotonic: \forall integer j, k; 0 <= j <= k <= 64 ==> pow2(j) <= pow2(k);
    @/
    void dpsel_lemma_pow2_shift(void);

    // 2^(2k) = (2^k)^2, by induction up to k (a ground instance: a
    // quantified one sends the provers into a matching loop)
    /@ assigns \nothing;
       ensures pow2_square: pow2(2 * k) == square(pow2(k));
    @/
    void dpsel_lemma_pow2_square(uint64_t k);

    // squarings_fit for one b and one i, by induction over j <= i with the
    // bits b 2^j of x^(2^j) in a ghost variable
    /@ requires b_bound: b <= 64;
       requires i_bound: i <= 20;
       assigns \nothing;
       ensures squarings_fit_at: \forall integer x; 0 <= x < pow2(b) ==>
               0 <= squarings(x, i) < pow2(b * pow2(i));
    @/
    void dpsel_lemma_squarings_fit_at(unsigned b, unsigned i);

    // The exactness of the decay table: for a b-bit integer x (0 <= x < 2^b),
    // x^(2^i) < 2^(b 2^i), so beta^(2^i) = x^(2^i) / 2^(y 2^i) has at most
    // b 2^i significant bits, for the range the MPFR layer uses (b <= 64,
    // i <= 20).  By induction over i:
    // x^(2^(i+1)) = (x^(2^i))^2 < (2^(b 2^i))^2 = 2^(b 2^(i+1)).
    // dpsel_core_power_precision states it for the precision it returns.
    /@ assigns \nothing;
       ensures squarings_fit: \forall integer x, b, i; 0 <= b <= 64 && 0 <= i <= 20 &&
               0 <= x < pow2(b) ==> 0 <= squarings(x, i) < pow2(b * pow2(i));
    @/
    void dpsel_lemma_squarings_fit(void);

    // One step of bitlen (gap.c): if w 2^b <= x < (w + 1) 2^b, halving w
    // and doubling 2^b keeps x in range
    /@ requires scale_positive: 1 <= pow2(b);
       requires halved: w == 2 * v || w == 2 * v + 1;
       requires in_range: w * pow2(b) <= x < (w + 1) * pow2(b);
       assigns \nothing;
       ensures doubled: v * (2 * pow2(b)) <= x < (v + 1) * (2 * pow2(b));
       ensures next_power: v * pow2(b + 1) <= x < (v + 1) * pow2(b + 1);
    @/
    void dpsel_lemma_bitlen_step(uint64_t w, uint64_t v, uint64_t x, unsigned b);

    // Appending bits < scale to a prefix c < v stays below v * scale
    // (uniform.c)
    /@ requires prefix_below: c < v;
       requires bits_below: bits < scale;
       assigns \nothing;
       ensures appended_below: c * scale + bits < v * scale;
    @/
    void dpsel_lemma_append_below(uint64_t c, uint64_t v, uint64_t scale, uint64_t bits);

    // The length of a doubling run of the Fast Dice Roller (uniform.c):
    // the m with k <= v 2^m < 2k is fdr_doublings(v, k), by induction over
    // the doublings
    /@ requires range: 1 <= v < k <= 9223372036854775808;
       requires run: 1 <= m <= 63 && k <= v * pow2(m) < 2 * k;
       assigns \nothing;
       ensures doublings: fdr_doublings(v, k) == m;
    @/
    void dpsel_lemma_doublings(uint64_t v, uint64_t k, unsigned m);

    // A span that starts below n is one of the first DPSEL_RACE_SPANS
    // (thin.c): s span < n <= DPSEL_RACE_SPANS span
    /@ requires span_positive: 1 <= span;
       requires starts_below: s * span < n;
       requires covered: n <= DPSEL_RACE_SPANS * span;
       assigns \nothing;
       ensures index: s < DPSEL_RACE_SPANS;
    @/
    void dpsel_lemma_span_index(uint64_t s, uint64_t span, uint64_t n);

    // The bits the power coins read from powers[0 .. k - 1] add up to at
    // least 0 and grow with k, when the powers are seen as they are in
    // memory (by induction over k)
    /@ requires powers: valid_powers(powers, npowers);
       assigns \nothing;
       ensures power_bits_grow: powers_seen(powers, npowers) ==>
               \forall integer j, k; 0 <= j <= k <= npowers ==>
                   0 <= power_bits(powers, j) <= power_bits(powers, k);
    @/
    void dpsel_lemma_power_bits(const dpsel_dyadic *powers, unsigned npowers);

    // a trial's bits are at least 0 (a ground instance of
    // dpsel_lemma_power_bits, for the rounds of EM)
    /@ requires powers: valid_powers(powers, npowers);
       assigns \nothing;
       ensures trial_bits_nonnegative: powers_seen(powers, npowers) ==>
               0 <= trial_bits(powers, npowers);
    @/
    void dpsel_lemma_trial_bits(const dpsel_dyadic *powers, unsigned npowers);

    // times grows by bits a count, from 0, when bits is at least 0: so a
    // loop of total rounds of bits each, at round done, has room for one
    // more (by induction over the count)
    /@ requires order: done < total;
       assigns \nothing;
       ensures times_grow: \forall integer bits; 0 <= bits ==>
               0 <= times(bits, done) && times(bits, done + 1) == times(bits, done) + bits &&
               times(bits, done + 1) <= times(bits, total) && 0 <= times(bits, total);
    @/
    void dpsel_lemma_times(uint64_t done, uint64_t total);

    // times distributes over a sum of bits: the budget of count rounds of
    // two parts is the two parts' budgets (by induction over the count)
    /@ assigns \nothing;
       ensures times_sum: \forall integer a, b; times(a + b, count) == times(a, count) + times(b, count);
    @/
    void dpsel_lemma_times_sum(uint64_t count);

    // a product grows with its first factor: a ground instance for a bound
    // on a product of two variables, which the provers otherwise search
    // for among every hypothesis of the goal
    /@ requires order: a <= b;
       assigns \nothing;
       ensures product_monotonic: a * c <= b * c;
    @/
    void dpsel_lemma_product_monotonic(uint64_t a, uint64_t b, uint64_t c);
*/

#endif
