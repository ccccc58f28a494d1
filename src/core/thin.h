/* SPDX-License-Identifier: ISC */
/* The race over the candidates PF's visits left, block by block, with
 * block thinning where no candidate of a block can come near the leader
 * (thin.c, spec/mechanisms.md §13). */
#ifndef DPSEL_CORE_THIN_H
#define DPSEL_CORE_THIN_H

#include "core.h"

/* The race takes blocks of this many candidates; a block it cannot thin as
 * a whole, it takes in pieces halved around the candidates near the leader
 * (thin.c, race_block). */
#define DPSEL_RACE_BLOCK 1024u

/* The length of the spans for n candidates: the least number of whole
 * blocks that makes at most DPSEL_RACE_SPANS spans. */
/*@ requires n <= DPSEL_MAX_CANDIDATES;
    assigns \nothing;
    ensures whole: DPSEL_RACE_BLOCK <= \result <= DPSEL_MAX_CANDIDATES;
    ensures covers: n <= DPSEL_RACE_SPANS * \result;
*/
size_t dpsel_core_race_span(size_t n);

/* A best candidate (the first with the largest score) and the largest
 * score of each span: maxima[s] for candidates s span .. s span + span - 1. */
/*@ requires scores: valid_scores(scores, n) && 1 <= n;
    requires span: 1 <= span <= DPSEL_MAX_CANDIDATES && n <= DPSEL_RACE_SPANS * span;
    requires maxima: \valid(maxima + (0 .. DPSEL_RACE_SPANS - 1)) &&
                     \separated(maxima + (0 .. DPSEL_RACE_SPANS - 1), scores + (0 .. n - 1));
    assigns maxima[0 .. DPSEL_RACE_SPANS - 1];
    ensures top: best_at(scores, n, \result);
    ensures maxima: span_maxima(scores, n, span, maxima);
*/
size_t dpsel_core_top_and_maxima(const int64_t *scores, size_t n, size_t span, int64_t *maxima);

/* A bound k with beta^t <= 2^-k, from the decay table: the sum of the leads
 * (zeros after the point) of the coins of dpsel_core_coin_wide for t,
 * capped at DPSEL_LEAD_BOUND_MAX.  The scale that coin can take off. */
#define DPSEL_LEAD_BOUND_MAX 64u
/*@ requires decay: race_decay(decay);
    assigns \nothing;
    ensures bounded: \result <= DPSEL_LEAD_BOUND_MAX;
*/
uint64_t dpsel_core_lead_bound(const dpsel_decay *decay, uint64_t t);

/* The level of block thinning for a bound k: the one of the largest
 * exponent at most k, or DPSEL_THIN_LEVELS if k < DPSEL_THIN_MIN_K. */
/*@ assigns \nothing;
    ensures level: thin_level_or_none(\result);
    ensures thinned: \result < DPSEL_THIN_LEVELS <==> k >= DPSEL_THIN_MIN_K;
*/
unsigned dpsel_core_thin_level(uint64_t k);

/* PF over the candidates not in visited[0 .. count - 1] (none of them
 * top, a best one): the race with the best candidate first, its noisy
 * value setting the bar, then the others in index order, blocks of
 * hopeless candidates thinned by the levels of the table thinning (core.h;
 * spec/mechanisms.md §11, §13). */
/*@ requires call: sampler_call(rng, decay, scores, n, index);
    requires race: race_decay(decay);
    requires thinning: valid_thinning(thinning) &&
                       thinning_apart(thinning, rng) &&
                       thinning_apart(thinning, index);
    requires top: best_at(scores, n, top);
    requires spans: 1 <= span <= DPSEL_MAX_CANDIDATES && n <= DPSEL_RACE_SPANS * span &&
                    \valid_read(maxima + (0 .. DPSEL_RACE_SPANS - 1)) &&
                    span_maxima(scores, n, span, maxima);
    requires visited: count < n && visited_set(visited, count, n);
    requires visited_apart: \separated(visited + (0 .. count - 1), rng, index,
                                       scores + (0 .. n - 1), decay);
    assigns *rng, *index;
    ensures sampled: sampled(\result, *index, \old(*index), n);
*/
int dpsel_core_race_rest(dpsel_rng *rng, const dpsel_decay *decay,
                         const dpsel_thinning *thinning, const int64_t *scores, size_t n,
                         size_t top, const int64_t *maxima, size_t span,
                         const uint64_t *visited, size_t count, size_t *index);

/* The race of PF continued over candidates first .. first + n - 1, whose
 * scores are scores[0 .. n - 1], at most best, the best score of all
 * candidates (so gaps are from best): in blocks of DPSEL_RACE_BLOCK, each
 * thinned as in dpsel_core_race_rest.  *race is the race over candidates
 * 0 .. first - 1 (the stream's race, src/stream.c): a leader, or none above
 * the floor 0 (spec/mechanisms.md §10, §13). */
/*@ requires scores: valid_scores(scores, n) && 1 <= n && scores_at_most(scores, n, best);
    requires candidates: first + n <= DPSEL_MAX_CANDIDATES;
    requires decay: race_decay(decay);
    requires thinning: valid_thinning(thinning) && thinning_apart(thinning, rng) &&
                       thinning_apart(thinning, race);
    requires writable: \valid(rng) && \valid(race) &&
                       \separated(rng, race, scores + (0 .. n - 1), decay) &&
                       decay_apart(decay, rng) && decay_apart(decay, race);
    requires state: race_state(race, decay, first + 1) && race->chosen < first + n;
    assigns *rng, *race;
    ensures status: sampler_status(\result);
    ensures state: \result == DPSEL_OK ==>
            race_state(race, decay, first + n + 1) && race->chosen < first + n;
*/
int dpsel_core_race_more(dpsel_rng *rng, const dpsel_decay *decay,
                         const dpsel_thinning *thinning, const int64_t *scores, size_t n,
                         int64_t best, size_t first, dpsel_race *race);

#endif
