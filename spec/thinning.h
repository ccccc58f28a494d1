/*
 * Block thinning of the race (src/core/thin.c, spec/mechanisms.md §13): its
 * table, the bar of a span, and what the pass over the scores reads and
 * writes.  Definitions only.
 */
#ifndef DPSEL_SPEC_THINNING_H
#define DPSEL_SPEC_THINNING_H
/*@ // the table of the race's levels (core.h): DPSEL_THIN_DYADICS dyadics
    // that can be read; a function that writes p takes them apart from p
    // with powers_apart(thinning, DPSEL_THIN_DYADICS, p)
    predicate valid_thinning{L}(dpsel_dyadic *thinning) =
        \valid_read(thinning + (0 .. DPSEL_THIN_DYADICS - 1)) &&
        \forall integer i; 0 <= i < DPSEL_THIN_DYADICS ==> valid_dyadic(thinning + i);
    // a candidate's clamped gap g' = min(best - score, cap)
    logic integer clamped(integer best, integer score, integer cap) =
        best - score > cap ? cap : best - score;
    // the bar of candidates from .. to - 1 other than top: each one's
    // threshold (the leader's value plus its clamped gap) is at least bar
    predicate under_bar{L}(int64_t *scores, integer top, dpsel_race *r, dpsel_decay *d,
                           integer from, integer to, integer bar) =
        \forall integer i; from <= i < to && i != top ==>
            bar <= r->value + clamped(scores[top], scores[i], d->cap);
    // the race's pass over the scores (src/core/thin.c): what it reads (the
    // scores, the decay table, the visited indices) and what it writes (the
    // source, the race, the position in visited), each apart from the rest
    predicate pass_call{L}(dpsel_rng *rng, dpsel_decay *decay, int64_t *scores, integer n,
                           uint64_t *visited, integer count, dpsel_race *race, size_t *next) =
        valid_scores(scores, n) && race_decay(decay) && visited_set(visited, count, n) &&
        \valid(rng) && \valid(race) && \valid(next) &&
        \separated(rng, race, next, scores + (0 .. n - 1), decay, visited + (0 .. count - 1)) &&
        decay_apart(decay, rng) && decay_apart(decay, race) && decay_apart(decay, next);
*/
#endif
