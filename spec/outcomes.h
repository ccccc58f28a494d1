/* SPDX-License-Identifier: ISC */
/*
 * What the functions of the core take and give back: status codes, coins,
 * released indices, score arrays, PF's permutation.  Definitions only: one
 * name for each property that several contracts state.
 */
#ifndef DPSEL_SPEC_OUTCOMES_H
#define DPSEL_SPEC_OUTCOMES_H

/*@ // a function that reads random bits: it succeeded, or the source failed
    predicate random_status(integer r) = r == DPSEL_OK || r == DPSEL_ERANDOM;

    // a sampler: also DPSEL_EUNLIKELY when a loop bound is reached (below
    // 2^-128 for a sound source, spec/mechanisms.md)
    predicate sampler_status(integer r) = random_status(r) || r == DPSEL_EUNLIKELY;

    // an exact computation: it succeeded, or it found a bug (DPSEL_EINTERNAL)
    predicate exact_status(integer r) = r == DPSEL_OK || r == DPSEL_EINTERNAL;

    // a sampler that also checks its own arithmetic: DPSEL_EINTERNAL on a bug
    predicate checked_sampler_status(integer r) = sampler_status(r) || r == DPSEL_EINTERNAL;

    // a flag: a coin's side, a yes or no
    predicate zero_or_one(integer b) = b == 0 || b == 1;

    // a check's answer: 1 (it holds) or 0 (it does not)
    predicate flag_set(integer b) = b == 1;
    predicate flag_clear(integer b) = b == 0;

    // a coin: on success its side is 0 (tails) or 1 (heads)
    predicate flipped(integer r, integer heads) = r == DPSEL_OK ==> zero_or_one(heads);

    // a released index: in [0, n) on success, its old value on failure
    predicate released(integer r, integer index, integer old_index, integer n) =
        (r == DPSEL_OK ==> 0 <= index < n) && (r != DPSEL_OK ==> index == old_index);

    // a sampler's outcome: its status, and the index it released
    predicate sampled(integer r, integer index, integer old_index, integer n) =
        sampler_status(r) && released(r, index, old_index, n);

    // n scores, at least one, readable
    predicate scores_readable{L}(int64_t *scores, integer n) =
        1 <= n && \valid_read(scores + (0 .. n - 1));

    // the n scores a sampler chooses among: also few enough that no index
    // or count overflows
    predicate valid_scores{L}(int64_t *scores, integer n) =
        scores_readable(scores, n) && n <= DPSEL_MAX_CANDIDATES;

    // best is at least every score (the best score, for the samplers)
    predicate scores_at_most{L}(int64_t *scores, integer n, integer best) =
        \forall integer i; 0 <= i < n ==> scores[i] <= best;

    // top is a best candidate: an index below n whose score is at least
    // every score
    predicate best_at{L}(int64_t *scores, integer n, integer top) =
        top < n && scores_at_most(scores, n, scores[top]);

    // an index a candidate can have: below DPSEL_MAX_CANDIDATES
    predicate candidate_index(integer c) = c < DPSEL_MAX_CANDIDATES;

    // count random binary digits: on success a value below 2^count
    predicate digits_drawn(integer r, integer value, integer count) =
        r == DPSEL_OK ==> value < pow2(count);

    // a base beta = x / 2^y in (0, 1): 1 <= y <= 64 and 0 < x < 2^y
    predicate valid_base(integer x, integer y) = 1 <= y <= 64 && 0 < x < pow2(y);

    // scratch[0 .. n - 1] holds a permutation of 0 .. n - 1
    predicate permutation{L}(size_t *scratch, integer n) =
        (\forall integer a; 0 <= a < n ==> 0 <= scratch[a] < n) &&
        (\forall integer a, b; 0 <= a < b < n ==> scratch[a] != scratch[b]);

    // PF's scratch after a sampler's result r: a permutation on success
    predicate shuffled{L}(integer r, size_t *scratch, integer n) =
        r == DPSEL_OK ==> permutation(scratch, n);
*/

#endif
