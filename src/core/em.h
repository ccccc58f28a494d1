/* SPDX-License-Identifier: ISC */
/* The exponential mechanism (McSherry & Talwar 2007) by exact rejection
 * (em.c). */
#ifndef DPSEL_CORE_EM_H
#define DPSEL_CORE_EM_H

#include "core.h"

/* One trial of the exponential mechanism: draws a candidate uniformly and
 * keeps it (*kept = 1) with probability beta^g'_candidate, where best is the
 * largest score. */
/*@ requires call: trial_call(rng, decay, scores, n, candidate, kept);
    requires best: scores_at_most(scores, n, best);
    assigns *rng, *candidate, *kept;
    ensures status: sampler_status(\result);
    ensures trial: trial_done(\result, *candidate, n, *kept);
    ensures stream: trial_stream{Pre, Here}(rng, decay, scores, n, best, 0, \result,
                                            *candidate, *kept);
*/
int dpsel_core_em_trial(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                        size_t n, int64_t best, size_t *candidate, int *kept);

/* dpsel_core_em_trial with the fixed-pattern coin: the same distribution of
 * (*candidate, *kept), bits read independently of the scores; the same
 * contract. */
/*@ requires call: trial_call(rng, decay, scores, n, candidate, kept);
    requires best: scores_at_most(scores, n, best);
    assigns *rng, *candidate, *kept;
    ensures status: sampler_status(\result);
    ensures trial: trial_done(\result, *candidate, n, *kept);
    ensures stream: trial_stream{Pre, Here}(rng, decay, scores, n, best, 1, \result,
                                            *candidate, *kept);
*/
int dpsel_core_em_trial_hardened(dpsel_rng *rng, const dpsel_decay *decay,
                                 const int64_t *scores, size_t n, int64_t best,
                                 size_t *candidate, int *kept);

/* Up to `attempts` trials of dpsel_core_em_trial: the first kept candidate
 * in *index and *kept = 1, or *kept = 0 and *index untouched. */
/*@ requires call: trial_call(rng, decay, scores, n, index, kept);
    requires best: scores_at_most(scores, n, best);
    assigns *rng, *index, *kept;
    ensures status: sampler_status(\result);
    ensures kept: \result == DPSEL_OK ==> zero_or_one(*kept);
    ensures found: \result == DPSEL_OK && *kept == 1 ==> *index < n;
    ensures unchanged: \result != DPSEL_OK || *kept == 0 ==> *index == \old(*index);
    ensures stream: \result != DPSEL_ERANDOM &&
                    \old(trials_ready(rng, decay, scores, n, attempts)) ==>
            attempts_done_ref{Pre, Here}(rng, decay, scores, n, best, attempts, \result, *index,
                                         *kept);
*/
int dpsel_core_em_attempts(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                           size_t n, int64_t best, uint64_t attempts, size_t *index,
                           int *kept);

/* Exponential mechanism by rejection: independent trials until one keeps its
 * candidate; a kept candidate has exactly the EM distribution.  Each trial
 * keeps with probability >= 1/n; after DPSEL_REJECTION_ROUNDS * n trials,
 * DPSEL_EUNLIKELY. */
/*@ requires call: sampler_call(rng, decay, scores, n, index);
    assigns *rng, *index;
    ensures sampled: sampled(\result, *index, \old(*index), n);
    ensures stream: \result != DPSEL_ERANDOM && \old(em_ready(rng, decay, scores, n)) ==>
            \forall integer best; best_seen(scores, n, best) ==>
                em_released_ref{Pre, Here}(rng, decay, scores, n, best, \result, *index);
*/
int dpsel_core_em(dpsel_rng *rng, const dpsel_decay *decay,
                  const int64_t *scores, size_t n, size_t *index);

/* Hardened exponential mechanism (spec/timing.md): always exactly
 * DPSEL_REJECTION_ROUNDS * n hardened trials, the first kept candidate
 * chosen by a branch-free scan; DPSEL_EUNLIKELY if none kept.  Same output
 * distribution (and failure probability) as dpsel_core_em, and the same
 * contract but for the reference its release equals (hardened_ref, which
 * draws every trial). */
/*@ requires call: sampler_call(rng, decay, scores, n, index);
    assigns *rng, *index;
    ensures sampled: sampled(\result, *index, \old(*index), n);
    ensures stream: \result != DPSEL_ERANDOM && \old(em_ready(rng, decay, scores, n)) ==>
            \forall integer best; best_seen(scores, n, best) ==>
                em_hardened_released_ref{Pre, Here}(rng, decay, scores, n, best, \result,
                                                    *index);
*/
int dpsel_core_em_hardened(dpsel_rng *rng, const dpsel_decay *decay,
                           const int64_t *scores, size_t n, size_t *index);

#endif
