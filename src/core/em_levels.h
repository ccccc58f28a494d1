/* SPDX-License-Identifier: ISC */
/* The exponential mechanism by levels (em_levels.c, spec/mechanisms.md
 * §12), for score vectors where uniform trials are mostly rejected. */
#ifndef DPSEL_CORE_EM_LEVELS_H
#define DPSEL_CORE_EM_LEVELS_H

#include "core.h"

/* The envelope exponent of level g: the sum of the leads of the powers of
 * g's set bits (so beta^g < 2^-sum), at most limit. */
/*@ requires decay: valid_decay(decay);
    requires limit: limit <= 64;
    assigns \nothing;
    ensures bounded: \result <= limit;
*/
uint64_t dpsel_core_level_exponent(const dpsel_decay *decay, uint64_t g, uint64_t limit);

/* levels[0 .. cap] = 0. */
/*@ requires writable: \valid(levels + (0 .. cap));
    assigns levels[0 .. cap];
    ensures zero: \forall integer h; 0 <= h <= cap ==> levels[h] == 0;
*/
void dpsel_core_levels_clear(uint64_t *levels, uint64_t cap);

/* Counts the candidates per clamped gap g into levels[g], then turns the
 * counts into running sums of c_g 2^(envelope - e_g), e_g the level's
 * exponent at most envelope.  DPSEL_EINTERNAL if a sum would pass
 * DPSEL_LEVELS_TOTAL_MAX (never: the counts add up to n). */
/*@ requires scores: valid_scores(scores, n) && scores_at_most(scores, n, best);
    requires decay: levels_decay(decay, envelope);
    requires envelope: levels_fit(n, envelope);
    requires writable: levels_writable(levels, decay);
    requires apart: \separated(levels + (0 .. decay->cap), scores + (0 .. n - 1), decay) &&
                    \forall integer i; 0 <= i < decay->npowers ==>
                    \separated(levels + (0 .. decay->cap), decay->powers + i);
    assigns levels[0 .. decay->cap];
    ensures status: exact_status(\result);
    ensures sums: sums_after(\result, levels, decay->cap);
*/
int dpsel_core_em_levels_build(const dpsel_decay *decay, const int64_t *scores, size_t n,
                               int64_t best, unsigned envelope, uint64_t *levels);

/* Turns the counts c_g in levels[0 .. cap] into running sums of
 * c_g 2^(envelope - e_g), e_g the level's exponent at most envelope, by
 * multiplications and comparisons alike for every count (no division).
 * DPSEL_EINTERNAL if a sum would pass DPSEL_LEVELS_TOTAL_MAX (never when the
 * counts add up to n) or if every count is 0. */
/*@ requires decay: levels_decay(decay, envelope);
    requires writable: levels_writable(levels, decay);
    requires counts: \forall integer h; 0 <= h <= decay->cap ==> levels[h] <= n;
    requires envelope: levels_fit(n, envelope);
    requires apart: \separated(levels + (0 .. decay->cap), decay) &&
                    \forall integer i; 0 <= i < decay->npowers ==>
                    \separated(levels + (0 .. decay->cap), decay->powers + i);
    assigns levels[0 .. decay->cap];
    ensures status: exact_status(\result);
    ensures sums: sums_after(\result, levels, decay->cap);
*/
int dpsel_core_em_levels_sum(const dpsel_decay *decay, unsigned envelope,
                             uint64_t *levels) /*@ ghost (size_t n) */;

/* One trial of EM by levels: level g proposed with probability
 * proportional to c_g 2^-e_g, kept (*kept = 1) with probability
 * beta^g 2^e_g. */
/*@ requires decay: levels_decay(decay, envelope);
    requires levels: level_sums(levels, decay->cap);
    requires writable: \valid(rng) && \valid(level) && \valid(kept);
    requires apart: \separated(rng, level, kept, levels + (0 .. decay->cap), decay) &&
                    decay_apart(decay, rng) && decay_apart(decay, level) &&
                    decay_apart(decay, kept);
    assigns *rng, *level, *kept;
    ensures status: sampler_status(\result);
    ensures trial: level_trial_after(\result, *level, decay->cap, *kept);
*/
int dpsel_core_em_level_trial(dpsel_rng *rng, const dpsel_decay *decay,
                              const uint64_t *levels, unsigned envelope,
                              uint64_t *level, int *kept);

/* EM by levels' trials on built running sums: trials until one keeps its
 * level g (each keeps with probability at least 2^-(npowers + 1) when the
 * envelope's mass is at most the sums'; DPSEL_EUNLIKELY after
 * DPSEL_REJECTION_ROUNDS 2^22 trials), then *member uniform below the
 * level's count c_g (its weight over its unit). */
/*@ requires decay: levels_decay(decay, envelope);
    requires levels: level_sums(levels, decay->cap);
    requires writable: \valid(rng) && \valid(level) && \valid(member);
    requires apart: \separated(rng, level, member, levels + (0 .. decay->cap), decay) &&
                    decay_apart(decay, rng) && decay_apart(decay, level) &&
                    decay_apart(decay, member);
    assigns *rng, *level, *member;
    ensures status: checked_sampler_status(\result);
    ensures picked: level_after(\result, *level, decay->cap);
*/
int dpsel_core_em_levels_pick(dpsel_rng *rng, const dpsel_decay *decay, const uint64_t *levels,
                              unsigned envelope, uint64_t *level, uint64_t *member);

/* The exponential mechanism by levels: levels built, trials until one
 * keeps its level (each keeps with probability at least 2^-(npowers + 1)
 * when 2^envelope >= n; DPSEL_EUNLIKELY after DPSEL_REJECTION_ROUNDS 2^22
 * trials), then a uniform member of the kept level (the first of gap 0 is
 * top, the first best candidate).  levels[0 .. cap] is scratch. */
/*@ requires call: sampler_call(rng, decay, scores, n, index);
    requires top: top < n && scores_at_most(scores, n, scores[top]) &&
                  \forall integer i; 0 <= i < top ==> scores[i] < scores[top];
    requires decay: levels_decay(decay, envelope);
    requires envelope: levels_fit(n, envelope);
    requires levels: levels_scratch(levels, decay, rng, index, scores, n);
    assigns *rng, *index, levels[0 .. decay->cap];
    ensures status: checked_sampler_status(\result);
    ensures released: released(\result, *index, \old(*index), n);
*/
int dpsel_core_em_levels(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                         size_t n, size_t top, unsigned envelope, uint64_t *levels,
                         size_t *index);

#endif
