/*
 * The state of permute-and-flip's race and of its first visits
 * (src/core/race.c, src/core/visit.c; spec/mechanisms.md §10, §11).
 * Definitions only.
 */
#ifndef DPSEL_SPEC_RACE_STATE_H
#define DPSEL_SPEC_RACE_STATE_H

/*@ // noisy values of the race (G - g') stay below this
    logic integer race_limit(integer npowers) = DPSEL_RACE_ROUNDS * pow2(npowers - 1);

    // the race after `seen` indices (some of them perhaps skipped): nobody
    // yet, or a leader's value in [-cap, race_limit), 1 .. seen candidates
    // tied at it, one of them kept
    predicate race_state{L}(dpsel_race *r, dpsel_decay *d, integer seen) =
        \valid(r) &&
        ((r->ties == 0 && r->chosen == 0) ||
         (1 <= r->ties <= seen && r->chosen < seen &&
          -d->cap <= r->value < race_limit(d->npowers)));

    // the candidates PF has visited: count distinct indices below n, in
    // increasing order
    predicate visited_set{L}(uint64_t *visited, integer count, integer n) =
        \valid_read(visited + (0 .. count - 1)) &&
        (\forall integer i; 0 <= i < count ==> visited[i] < n) &&
        (\forall integer i, j; 0 <= i < j < count ==> visited[i] < visited[j]);
*/

#endif
