/* SPDX-License-Identifier: ISC */
/*
 * Block thinning of the race (src/core/thin.c, spec/mechanisms.md §13): its
 * table, the bar of a span, and what the pass over the scores reads and
 * writes.  Definitions only.
 */
#ifndef DPSEL_SPEC_THINNING_H
#define DPSEL_SPEC_THINNING_H
/*@ // the table of the race's levels (core.h): DPSEL_THIN_MAX_PIECES
    // readable dyadics for each level (stated over level and piece at once:
    // a nested valid_powers is harder for the provers to carry through
    // writes)
    predicate valid_thinning{L}(dpsel_thinning *t) =
        \valid_read(t) &&
        (\forall integer l; 0 <= l < DPSEL_THIN_LEVELS ==>
            \valid_read(t->levels[l] + (0 .. DPSEL_THIN_MAX_PIECES - 1))) &&
        (\forall integer l, j; 0 <= l < DPSEL_THIN_LEVELS && 0 <= j < DPSEL_THIN_MAX_PIECES ==>
            valid_dyadic(t->levels[l] + j));
    // what a function reads of the table (the struct, every level's
    // dyadics and digits) does not overlap the locations p it writes (one
    // overload for each type of p, each with the same body)
    predicate thinning_apart{L}(dpsel_thinning *t, dpsel_rng *p) =
        \separated(p, t) &&
        \forall integer l, j; 0 <= l < DPSEL_THIN_LEVELS && 0 <= j < DPSEL_THIN_MAX_PIECES ==>
            digits_apart(t->levels[l] + j, p);
    predicate thinning_apart{L}(dpsel_thinning *t, dpsel_race *p) =
        \separated(p, t) &&
        \forall integer l, j; 0 <= l < DPSEL_THIN_LEVELS && 0 <= j < DPSEL_THIN_MAX_PIECES ==>
            digits_apart(t->levels[l] + j, p);
    predicate thinning_apart{L}(dpsel_thinning *t, uint64_t *p) =
        \separated(p, t) &&
        \forall integer l, j; 0 <= l < DPSEL_THIN_LEVELS && 0 <= j < DPSEL_THIN_MAX_PIECES ==>
            digits_apart(t->levels[l] + j, p);
    predicate thinning_apart{L}(dpsel_thinning *t, uint64_t *p, integer count) =
        \separated(p + (0 .. count - 1), t) &&
        \forall integer l, j; 0 <= l < DPSEL_THIN_LEVELS && 0 <= j < DPSEL_THIN_MAX_PIECES ==>
            digits_apart(t->levels[l] + j, p, count);
    // one level's table (valid_thinning): npieces readable dyadics, at
    // least one and at most DPSEL_THIN_MAX_PIECES
    predicate thinning_level{L}(dpsel_dyadic *none, integer npieces) =
        valid_powers(none, npieces) && 1 <= npieces <= DPSEL_THIN_MAX_PIECES;
    // a level of the table, or DPSEL_THIN_LEVELS for none
    predicate thin_level_or_none(integer level) = level <= DPSEL_THIN_LEVELS;
    // a candidate's clamped gap g' = min(best - score, cap)
    logic integer clamped(integer best, integer score, integer cap) =
        best - score > cap ? cap : best - score;
    // the bar of candidates from .. to - 1 other than top: each one's
    // threshold (the leader's value plus its clamped gap from best) is at
    // least bar
    predicate under_bar{L}(int64_t *scores, integer best, integer top, dpsel_race *r,
                           dpsel_decay *d, integer from, integer to, integer bar) =
        \forall integer i; from <= i < to && i != top ==>
            bar <= r->value + clamped(best, scores[i], d->cap);
    // the largest scores of the race's spans (src/core/thin.c): maxima[s]
    // is the largest score of candidates s span .. s span + span - 1 (those
    // below n)
    predicate span_maxima{L}(int64_t *scores, integer n, integer span, int64_t *maxima) =
        \forall integer s; 0 <= s && s * span < n ==>
            (\forall integer i; s * span <= i < s * span + span && i < n ==>
                scores[i] <= maxima[s]) &&
            (\exists integer i; s * span <= i < s * span + span && i < n &&
                scores[i] == maxima[s]);
    // the span of positions start .. start + len - 1: at least one, all
    // below n
    predicate span_within(integer start, integer len, integer n) =
        1 <= len && start + len <= n;
    // the scores of a span start .. start + len - 1: at least one, their
    // indices below DPSEL_MAX_CANDIDATES, readable
    predicate span_scores{L}(int64_t *scores, integer start, integer len) =
        1 <= len && start + len <= DPSEL_MAX_CANDIDATES &&
        \valid_read(scores + (start .. start + len - 1));
    // the pass's scores, of candidates first .. first + n - 1: at most
    // best, and their indices below DPSEL_MAX_CANDIDATES
    predicate pass_scores{L}(int64_t *scores, integer n, integer best, integer first) =
        scores_at_most(scores, n, best) && first + n <= DPSEL_MAX_CANDIDATES;
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
