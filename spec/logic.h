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

    // a^2, named: the provers handle a square as a term better than a product
    logic integer square(integer a) = a * a;

    // x^(2^i) for i >= 0, defined as the decay table computes it: x squared
    // i times
    logic integer squarings(integer x, integer i) = i <= 0 ? x : square(squarings(x, i - 1));

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

    // a decay table the race form of PF can use: a unit 2^(npowers - 1) of
    // at most 2^20 (whether the top power is below 1/2 matters only for
    // how often DPSEL_EUNLIKELY comes, not for safety)
    predicate race_decay{L}(dpsel_decay *d) =
        valid_decay(d) && 1 <= d->npowers <= DPSEL_RACE_MAX_POWERS;

    // noisy values of the race (G - g') stay below this
    logic integer race_limit(integer npowers) = DPSEL_RACE_ROUNDS * pow2(npowers - 1);

    // the race after `seen` indices (some of them perhaps skipped): nobody
    // yet, or a leader's value in [-cap, race_limit), 1 .. seen candidates
    // tied at it, one of them kept
    predicate race_state{L}(dpsel_race *r, dpsel_decay *d, integer seen) =
        \valid(r) &&
        ((r->ties == 0 && r->chosen == 0) ||
         (1 <= r->ties <= seen && r->chosen < seen &&
          -d->cap <= r->value < race_limit(d->npowers)));

    // EM's levels after their count (em_levels.c): running sums of the
    // weights, non-decreasing, the last one the total in [1, 2^63]
    predicate level_sums{L}(uint64_t *levels, integer cap) =
        \valid_read(levels + (0 .. cap)) &&
        1 <= levels[cap] <= DPSEL_LEVELS_TOTAL_MAX &&
        (\forall integer h, k; 0 <= h <= k <= cap ==> levels[h] <= levels[k]);

    // the candidates PF has visited: count distinct indices below n, in
    // increasing order
    predicate visited_set{L}(uint64_t *visited, integer count, integer n) =
        \valid_read(visited + (0 .. count - 1)) &&
        (\forall integer i; 0 <= i < count ==> visited[i] < n) &&
        (\forall integer i, j; 0 <= i < j < count ==> visited[i] < visited[j]);
*/

/*@ // 2^64, by evaluation (the width of uint64_t)
    lemma pow2_64: pow2(64) == 18446744073709551616;

    // squares, for the induction of squarings_fit
    lemma square_nonnegative: \forall integer a; 0 <= square(a);
    lemma square_double: \forall integer a; square(2 * a) == 4 * square(a);
    lemma square_monotonic: \forall integer a, c; 0 <= a < c ==> square(a) < square(c);
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

    // 2^(2k) = (2^k)^2, by induction up to k (a ground instance: a
    // quantified one sends the provers into a matching loop).
    /@ assigns \nothing;
       ensures pow2_square: pow2(2 * k) == square(pow2(k));
    @/
    void dpsel_lemma_pow2_square(uint64_t k);

    // A running sum that a quotient bounds (em_levels.c), for one t, u, x:
    // a lemma function, so that the product does not enter every goal's
    // context as a quantified lemma would.
    /@ requires t <= 9223372036854775808 && 1 <= u;
       requires x <= (9223372036854775808 - t) / u;
       assigns \nothing;
       ensures quotient_bound: t + u * x <= 9223372036854775808;
    @/
    void dpsel_lemma_quotient_bound(uint64_t t, uint64_t u, uint64_t x);

    // squarings_fit for one b and one i, by induction over j <= i with the
    // bits b 2^j of x^(2^j) in a ghost variable.
    /@ requires b <= 64 && i <= 20;
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
       ensures squarings_fit: \forall integer x, b, i; 0 <= b <= 64 && 0 <= i <= 20 && 0 <= x < pow2(b) ==>
               0 <= squarings(x, i) < pow2(b * pow2(i));
    @/
    void dpsel_lemma_squarings_fit(void);
*/

#endif
