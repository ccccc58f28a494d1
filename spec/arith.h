/* SPDX-License-Identifier: ISC */
/*
 * Powers of two and squares: the arithmetic the contracts of the core
 * measure with.  Definitions and lemmas only (a lemma is a goal WP proves;
 * those that need induction are lemma functions, spec/lemmas.h).
 */
#ifndef DPSEL_SPEC_ARITH_H
#define DPSEL_SPEC_ARITH_H

/*@ // 2^e for e >= 0
    logic integer pow2(integer e) = e <= 0 ? 1 : 2 * pow2(e - 1);

    // a^2, named: the provers handle a square as a term better than a product
    logic integer square(integer a) = a * a;

    // x^(2^i) for i >= 0, defined as the decay table computes it: x squared
    // i times
    logic integer squarings(integer x, integer i) = i <= 0 ? x : square(squarings(x, i - 1));
*/

/*@ // 2^64, by evaluation (the width of uint64_t)
    lemma pow2_64: pow2(64) == 18446744073709551616;

    // squares, for the induction of squarings_fit
    lemma square_nonnegative: \forall integer a; 0 <= square(a);
    lemma square_double: \forall integer a; square(2 * a) == 4 * square(a);
    lemma square_monotonic: \forall integer a, c; 0 <= a < c ==> square(a) < square(c);
*/

#endif
