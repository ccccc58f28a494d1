/* SPDX-License-Identifier: ISC */
/* The hardened exponential mechanism by levels (em_levels_hardened.c,
 * spec/timing.md §4): EM by levels whose work does not depend on the
 * scores. */
#ifndef DPSEL_CORE_EM_LEVELS_HARDENED_H
#define DPSEL_CORE_EM_LEVELS_HARDENED_H

#include "core.h"

/* Gap caps below this bound the hardened count: it holds each gap in 16
 * bits, with a padding value (2^16 - 1) above every level it compares with
 * (up to cap + 3, four at a time). */
#define DPSEL_HARDENED_LEVELS_CAP_MAX 0xfffcu

/* Counts the candidates per clamped gap into levels[0 .. cap] by comparing
 * every candidate's gap with every level: no branch and no address that
 * depends on the scores. */
/*@ requires scores: valid_scores(scores, n) && scores_at_most(scores, n, best);
    requires decay: valid_decay(decay) && decay->cap < DPSEL_HARDENED_LEVELS_CAP_MAX;
    requires writable: levels_writable(levels, decay);
    requires apart: \separated(levels + (0 .. decay->cap), scores + (0 .. n - 1), decay);
    assigns levels[0 .. decay->cap];
    ensures counts: \forall integer h; 0 <= h <= decay->cap ==> levels[h] <= n;
*/
void dpsel_core_em_levels_count_hardened(const dpsel_decay *decay, const int64_t *scores,
                                         size_t n, int64_t best, uint64_t *levels);

/* One hardened trial of EM by levels: width random bits, of which those
 * under mask (2^k - 1 >= total - 1, total the last running sum, and
 * mask < 2^width) propose level g with probability proportional to
 * c_g 2^-e_g when they fall below the total (else the trial fails), then
 * the fixed-pattern coin beta^g 2^e_g.  Every running sum is compared with
 * the draw. */
/*@ requires decay: levels_decay(decay, envelope) && short_leads(decay->powers, decay->npowers);
    requires levels: level_sums(levels, decay->cap);
    requires width: draw_width(width);
    requires call: level_trial_call(rng, decay, levels, level, kept);
    assigns *rng, *level, *kept;
    ensures status: random_status(\result);
    ensures trial: level_trial_after(\result, *level, decay->cap, *kept);
*/
int dpsel_core_em_level_trial_hardened(dpsel_rng *rng, const dpsel_decay *decay,
                                       const uint64_t *levels, unsigned envelope,
                                       unsigned width, uint64_t mask, uint64_t *level,
                                       int *kept);

/* The hardened exponential mechanism by levels: the largest score, the
 * counts and their running sums; `trials` hardened level trials, each
 * drawing bitlen(n) + envelope bits (at most 63), the first kept level
 * taken by a branch-free scan; a uniform member of it in
 * 2 DPSEL_REJECTION_ROUNDS fixed draws; the member found by a pass over
 * every score.  With trials from dpsel_exact_level_trials (each trial keeps
 * with probability at least 128 / trials when 2^envelope >= n), the output
 * distribution of dpsel_core_em, and DPSEL_EUNLIKELY (decided after all
 * the trials, or all the draws) with probability below e^-128.
 * levels[0 .. cap] is scratch. */
/*@ requires call: sampler_call(rng, decay, scores, n, index);
    requires decay: levels_decay(decay, envelope) && short_leads(decay->powers, decay->npowers) &&
                    decay->cap < DPSEL_HARDENED_LEVELS_CAP_MAX;
    requires envelope: levels_fit(n, envelope);
    requires levels: levels_scratch(levels, decay, rng, index, scores, n);
    assigns *rng, *index, levels[0 .. decay->cap];
    ensures status: checked_sampler_status(\result);
    ensures released: released(\result, *index, \old(*index), n);
*/
int dpsel_core_em_levels_hardened(dpsel_rng *rng, const dpsel_decay *decay,
                                  const int64_t *scores, size_t n, unsigned envelope,
                                  uint64_t trials, uint64_t *levels, size_t *index);

#endif
