/* SPDX-License-Identifier: ISC */
/*
 * Permute-and-flip by its first visits (spec/mechanisms.md §11): the first
 * few candidates of PF's uniformly random order are drawn one at a time, by
 * rejection among those already visited, and each flips its coin; when
 * they all come up tails, the rest of the order is PF on the unvisited
 * candidates, which the race settles in one pass.  The best candidates are
 * never among the visited then (their coin is certain), so the race finds
 * the same best score.
 */
#include "visit.h"

#include "coin.h"
#include "gap.h"
#include "thin.h"
#include "uniform.h"

size_t dpsel_core_rank(const uint64_t *sorted, size_t count, uint64_t r)
{
    size_t low = 0;
    size_t high = count;
    /*@ loop invariant 0 <= low <= high <= count;
        loop invariant \forall integer i; 0 <= i < low ==> sorted[i] < r;
        loop invariant \forall integer i; high <= i < count ==> sorted[i] >= r;
        loop assigns low, high;
        loop variant high - low;
    */
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (sorted[middle] < r) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return low;
}

/* Puts r at position rank of visited[0 .. count - 1], moving the entries
 * from rank on one place up. */
/*@ requires rank: 0 <= rank <= count;
    requires writable: \valid(visited + (0 .. count));
    assigns visited[0 .. count];
    ensures placed: visited[rank] == r;
    ensures before: \forall integer i; 0 <= i < rank ==> visited[i] == \old(visited[i]);
    ensures after: \forall integer i; rank < i <= count ==> visited[i] == \old(visited[i - 1]);
*/
static void insert_at(uint64_t *visited, size_t count, size_t rank, uint64_t r)
{
    /*@ loop invariant rank <= k <= count;
        loop invariant \forall integer i; 0 <= i < rank ==> visited[i] == \at(visited[i], Pre);
        loop invariant \forall integer i; rank <= i <= k ==> visited[i] == \at(visited[i], Pre);
        loop invariant \forall integer i; k < i <= count ==> visited[i] == \at(visited[i - 1], Pre);
        loop assigns k, visited[rank + 1 .. count];
        loop variant k - rank;
    */
    for (size_t k = count; k > rank; k--) {
        visited[k] = visited[k - 1];
    }
    visited[rank] = r;
}

int dpsel_core_visit_next(dpsel_rng *rng, size_t n, uint64_t *visited, size_t count,
                          size_t *candidate)
{
    /*@ loop invariant 0 <= round <= DPSEL_REJECTION_ROUNDS;
        loop assigns round, *rng;
        loop variant DPSEL_REJECTION_ROUNDS - round;
    */
    for (unsigned round = 0; round < DPSEL_REJECTION_ROUNDS; round++) {
        uint64_t draw;
        int rc = dpsel_core_uniform(rng, n, &draw);
        if (rc != DPSEL_OK) {
            return rc;
        }
        size_t r = (size_t)draw;
        size_t rank = dpsel_core_rank(visited, count, r);
        if (rank == count || visited[rank] != r) {
            /*@ assert \forall integer j; rank <= j < count ==> visited[j] > r; */
            insert_at(visited, count, rank, r);
            /*@ assert \forall integer i; 0 <= i <= count ==> visited[i] < n; */
            /*@ assert \forall integer i, j; 0 <= i < j <= count ==> visited[i] < visited[j]; */
            /*@ assert visited[rank] == r &&
                    (\forall integer i; 0 <= i < rank ==> visited[i] == \at(visited[i], Pre)) &&
                    (\forall integer i; rank < i <= count ==> visited[i] == \at(visited[i - 1], Pre)); */
            *candidate = r;
            return DPSEL_OK;
        }
    }
    return DPSEL_EUNLIKELY;
}

int dpsel_core_pf_visits(dpsel_rng *rng, const dpsel_decay *decay,
                         const dpsel_thinning *thinning, const int64_t *scores, size_t n,
                         uint64_t *visited, size_t visits, size_t *index)
{
    /* The race's spans' largest scores come with the pass for the best. */
    int64_t maxima[DPSEL_RACE_SPANS];
    size_t span = dpsel_core_race_span(n);
    size_t top = dpsel_core_top_and_maxima(scores, n, span, maxima);
    int64_t best = scores[top];
    /* The call's facts, once: the frame goals of the loop need them and
     * take long to find them inside sampler_call. */
    //@ assert apart_rng: decay_apart(decay, rng);
    //@ assert apart_index: decay_apart(decay, index);
    size_t count = 0;
    /*@ loop invariant 0 <= count <= visits;
        loop invariant visited_set(visited, count, n);
        loop assigns count, visited[0 .. visits - 1], *rng;
        loop variant visits - count;
    */
    for (; count < visits; count++) {
        /* The call's facts at each visit: the coin's goals find them slowly
         * through the loop (19-21 s without, under 3 s with). */
        //@ assert decay_kept_visiting: valid_decay(decay);
        //@ assert apart_rng_kept_visiting: decay_apart(decay, rng);
        size_t candidate;
        int rc = dpsel_core_visit_next(rng, n, visited, count, &candidate);
        if (rc != DPSEL_OK) {
            return rc;
        }
        uint64_t gap = dpsel_core_clamped_gap(best, scores[candidate], decay->cap);
        int heads;
        //@ assert visited_drawn: visited_set(visited, count + 1, n);
        /*@ ghost flip: ; */
        rc = dpsel_core_coin_power(rng, decay->powers, decay->npowers, gap, &heads);
        if (rc != DPSEL_OK) {
            return rc;
        }
        /* The coin wrote only the source: the visits are as drawn (the
         * provers find this slowly beside the coin's stream clause). */
        /*@ assert flip_frame: \forall integer i; 0 <= i <= count ==>
                   visited[i] == \at(visited[i], flip); */
        //@ assert visited_kept: visited_set(visited, count + 1, n);
        if (heads) {
            *index = candidate;
            return DPSEL_OK;
        }
    }
    /* The call's facts one at a time (together they time out). */
    //@ assert decay_kept: valid_decay(decay);
    //@ assert apart_rng_kept: decay_apart(decay, rng);
    //@ assert apart_index_kept: decay_apart(decay, index);
    //@ assert call_kept: sampler_call(rng, decay, scores, n, index);
    //@ assert thinning_valid: valid_thinning(thinning);
    //@ assert thinning_apart_rng: thinning_apart(thinning, rng);
    //@ assert thinning_apart_index: thinning_apart(thinning, index);
    //@ assert spans_kept: span_maxima(scores, n, span, &maxima[0]);
    return dpsel_core_race_rest(rng, decay, thinning, scores, n, top, maxima, span, visited,
                                count, index);
}
