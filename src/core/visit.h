/* SPDX-License-Identifier: ISC */
/* Permute-and-flip by its first visits (visit.c, spec/mechanisms.md §11). */
#ifndef DPSEL_CORE_VISIT_H
#define DPSEL_CORE_VISIT_H

#include "core.h"

/* Where r is, or would go, in the non-decreasing sorted[0 .. count - 1]:
 * the number of entries below r (binary search). */
/*@ requires sorted: count <= DPSEL_MAX_CANDIDATES && \valid_read(sorted + (0 .. count - 1));
    requires ordered: \forall integer i, j; 0 <= i <= j < count ==> sorted[i] <= sorted[j];
    assigns \nothing;
    ensures bounded: 0 <= \result <= count;
    ensures below: \forall integer i; 0 <= i < \result ==> sorted[i] < r;
    ensures above: \forall integer i; \result <= i < count ==> sorted[i] >= r;
*/
size_t dpsel_core_rank(const uint64_t *sorted, size_t count, uint64_t r);

/* The next candidate of a uniformly random order of 0 .. n - 1, given the
 * first count (visited, kept in increasing order): uniform draws until one
 * is not visited, which joins visited in its place.  Each draw succeeds
 * with probability (n - count) / n, at least 1/2 when 2 count <= n;
 * DPSEL_EUNLIKELY after DPSEL_REJECTION_ROUNDS draws. */
/*@ requires range: 1 <= n <= DPSEL_MAX_CANDIDATES && count < n;
    requires visited: visited_set(visited, count, n) && \valid(visited + (0 .. count));
    requires writable: \valid(rng) && \valid(candidate);
    requires apart: \separated(rng, candidate, visited + (0 .. count));
    assigns *rng, *candidate, visited[0 .. count];
    ensures status: sampler_status(\result);
    ensures joined: \result == DPSEL_OK ==> *candidate < n && visited_set(visited, count + 1, n);
    ensures in_place: \result == DPSEL_OK ==>
            \exists integer rank; 0 <= rank <= count && visited[rank] == *candidate &&
            (\forall integer i; 0 <= i < rank ==> visited[i] == \old(visited[i])) &&
            (\forall integer i; rank < i <= count ==> visited[i] == \old(visited[i - 1]));
    ensures kept_on_error: \result != DPSEL_OK ==> visited_set(visited, count, n);
*/
int dpsel_core_visit_next(dpsel_rng *rng, size_t n, uint64_t *visited, size_t count,
                          size_t *candidate);

/* Permute-and-flip by its first visits: up to `visits` candidates of the
 * random order flip their coins, and if none comes up heads the race
 * settles the rest (thin.h).  visited[0 .. visits - 1] is scratch; 2 visits <= n
 * keeps every draw's rejection below 1/2. */
/*@ requires call: sampler_call(rng, decay, scores, n, index);
    requires race: race_decay(decay);
    requires thinning: valid_thinning(thinning) &&
                       thinning_apart(thinning, rng) &&
                       thinning_apart(thinning, index) &&
                       thinning_apart(thinning, visited, visits);
    requires visits: 2 * visits <= n;
    requires visited: \valid(visited + (0 .. visits - 1)) &&
                      \separated(visited + (0 .. visits - 1), rng, index, scores + (0 .. n - 1),
                                 decay) &&
                      decay_apart(decay, visited, visits);
    assigns *rng, *index, visited[0 .. visits - 1];
    ensures sampled: sampled(\result, *index, \old(*index), n);
*/
int dpsel_core_pf_visits(dpsel_rng *rng, const dpsel_decay *decay,
                         const dpsel_thinning *thinning, const int64_t *scores, size_t n,
                         uint64_t *visited, size_t visits, size_t *index);

#endif
