/* SPDX-License-Identifier: ISC */
/*
 * The state of permute-and-flip's race and of its first visits
 * (src/core/race.c, src/core/visit.c; spec/mechanisms.md §10, §11).
 * Definitions only.
 */
#ifndef DPSEL_SPEC_RACE_STATE_H
#define DPSEL_SPEC_RACE_STATE_H

/*@ // noisy values of the race (G - g') stay below this
    logic integer race_limit(integer npowers) = DPSEL_RACE_ROUNDS * pow2(npowers - 1);

    // the race after at most `seen` candidates: nobody yet at or above the
    // floor 0 (value 0: spec/mechanisms.md §10), or a leader's value in
    // [-cap, race_limit) and 1 .. seen candidates tied at it (the index kept
    // among them is bounded by the callers, who know the range)
    predicate race_state{L}(dpsel_race *r, dpsel_decay *d, integer seen) =
        \valid(r) &&
        ((r->ties == 0 && r->chosen == 0 && r->value == 0) ||
         (1 <= r->ties <= seen && -d->cap <= r->value < race_limit(d->npowers)));
    // the race after one step for candidate c: it has a leader, kept as
    // before or c itself (c alone if there was none)
    predicate race_stepped{L1, L2}(dpsel_race *r, integer c) =
        \at(r->ties, L2) >= 1 &&
        (\at(r->chosen, L2) == \at(r->chosen, L1) || \at(r->chosen, L2) == c) &&
        (\at(r->ties, L1) == 0 ==> \at(r->ties, L2) == 1);

    // a step's outcome r: on success, the race in its state after `seen`
    // candidates, stepped for c, its value not lowered
    predicate race_state_after{L}(integer r, dpsel_race *race, dpsel_decay *d, integer seen) =
        r == DPSEL_OK ==> race_state(race, d, seen);
    predicate stepped_after{L1, L2}(integer r, dpsel_race *race, integer c) =
        r == DPSEL_OK ==> race_stepped{L1, L2}(race, c);
    predicate rises_after{L1, L2}(integer r, dpsel_race *race) =
        r == DPSEL_OK ==> \at(race->value, L2) >= \at(race->value, L1);

    // the source and the location p a step writes: both valid, apart (one
    // overload for each type of p, each with the same body)
    predicate writable_apart{L}(dpsel_rng *rng, dpsel_race *p) =
        \valid(rng) && \valid(p) && \separated(rng, p);
    predicate writable_apart{L}(dpsel_rng *rng, uint64_t *p) =
        \valid(rng) && \valid(p) && \separated(rng, p);

    // the candidates PF has visited: count distinct indices below n, in
    // increasing order
    predicate visited_set{L}(uint64_t *visited, integer count, integer n) =
        \valid_read(visited + (0 .. count - 1)) &&
        (\forall integer i; 0 <= i < count ==> visited[i] < n) &&
        (\forall integer i, j; 0 <= i < j < count ==> visited[i] < visited[j]);
    // the race over candidates first .. first + n - 1 (scores[0 .. n - 1]),
    // at position pos: those before pos raced unless skipped (and maybe
    // first .. first - 1 before them), the one kept below first + n, and
    // *next past the visited indices below pos
    predicate pass_state{L}(dpsel_race *r, dpsel_decay *d, integer n, integer first,
                            integer pos, uint64_t *visited, integer count, size_t *next) =
        race_state(r, d, first + pos + 1) && r->chosen < first + n &&
        \valid(next) && 0 <= *next <= count &&
        (\forall integer k; 0 <= k < *next ==> visited[k] < pos);
    // a pass's outcome r: on success, its state at position pos
    predicate pass_state_after{L}(integer r, dpsel_race *race, dpsel_decay *d, integer n,
                                  integer first, integer pos, uint64_t *visited,
                                  integer count, size_t *next) =
        r == DPSEL_OK ==> pass_state(race, d, n, first, pos, visited, count, next);
*/

#endif
