/* SPDX-License-Identifier: ISC */
/* Score arithmetic of the verified core (gap.c): the best score, clamped
 * gaps, branch-free choices, bit lengths. */
#ifndef DPSEL_CORE_GAP_H
#define DPSEL_CORE_GAP_H

#include "core.h"

/* Index of a largest score (the first one). */
/*@ requires scores: scores_readable(scores, n);
    assigns \nothing;
    ensures in_range: 0 <= \result < n;
    ensures largest: scores_at_most(scores, n, scores[\result]);
    ensures first: \forall integer i; 0 <= i < \result ==> scores[i] < scores[\result];
*/
size_t dpsel_core_argmax(const int64_t *scores, size_t n);

/* The largest score, for the hardened samplers: every score is read once,
 * in order, and no branch depends on them (spec/timing.md). */
/*@ requires scores: scores_readable(scores, n);
    assigns \nothing;
    ensures largest: scores_at_most(scores, n, \result);
    ensures attained: \exists integer i; 0 <= i < n && scores[i] == \result;
*/
int64_t dpsel_core_max_score(const int64_t *scores, size_t n);

/* min(best - score, cap), computed without overflow for all int64 values. */
/*@ requires ordered: score <= best;
    assigns \nothing;
    behavior within:
      assumes best - score <= cap;
      ensures gap: \result == best - score;
    behavior clamped:
      assumes best - score > cap;
      ensures cap: \result == cap;
    complete behaviors;
    disjoint behaviors;
*/
uint64_t dpsel_core_clamped_gap(int64_t best, int64_t score, uint64_t cap);

/* v, through an empty assembly statement the optimiser cannot see through
 * (spec/timing.md; under Frama-C the statement is left out). */
/*@ assigns \nothing;
    ensures unchanged: \result == v;
*/
unsigned dpsel_core_opaque(unsigned v);

/* take_b ? b : a, computed without a branch (take_b is 0 or 1). */
/*@ requires flag: zero_or_one(take_b);
    assigns \nothing;
    ensures chosen: \result == (take_b == 1 ? b : a);
*/
uint64_t dpsel_core_choose_u64(unsigned take_b, uint64_t a, uint64_t b);

/* dpsel_core_choose_u64 for signed values. */
/*@ requires flag: zero_or_one(take_b);
    assigns \nothing;
    ensures chosen_signed: \result == (take_b == 1 ? b : a);
*/
int64_t dpsel_core_choose_i64(unsigned take_b, int64_t a, int64_t b);

/* Number of significant bits of v (0 for v == 0). */
/*@ assigns \nothing;
    ensures bounded: 0 <= \result <= 64;
    ensures above: v < pow2(\result);
    ensures tight: \result > 0 ==> pow2(\result - 1) <= v;
*/
unsigned dpsel_core_bitlen(uint64_t v);

#endif
