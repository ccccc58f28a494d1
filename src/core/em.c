/* SPDX-License-Identifier: ISC */
/* The exponential mechanism (McSherry & Talwar 2007), by exact rejection. */
#include "em.h"

#include "coin.h"
#include "gap.h"
#include "uniform.h"

/* One trial, with the lazy coin (fixed_pattern 0) or the fixed-pattern coin
 * of the hardened mode (1). */
/*@ requires call: trial_call(rng, decay, scores, n, candidate, kept);
    requires best: scores_at_most(scores, n, best);
    requires pattern: zero_or_one(fixed_pattern);
    assigns *rng, *candidate, *kept;
    ensures status: sampler_status(\result);
    ensures trial: trial_done(\result, *candidate, n, *kept);
    ensures stream: trial_stream{Pre, Here}(rng, decay, scores, n, best, fixed_pattern, \result,
                                            *candidate, *kept);
*/
static int draw_and_flip(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                         size_t n, int64_t best, int fixed_pattern, size_t *candidate, int *kept)
{
    uint64_t drawn;
    //@ ghost dpsel_lemma_power_bits(decay->powers, decay->npowers);
    int rc = dpsel_core_uniform(rng, (uint64_t)n, &drawn);
    if (rc != DPSEL_OK) {
        return rc;
    }
    uint64_t gap = dpsel_core_clamped_gap(best, scores[drawn], decay->cap);
    /*@ assert stream_drawn: \at(trial_ready(rng, decay, scores, n), Pre) ==>
               drawn == uniform_ref(rng, n, cursor{Pre}(rng)) &&
               cursor(rng) == uniform_end(rng, n, cursor{Pre}(rng)) &&
               cursor(rng) <= cursor{Pre}(rng) + 63 * DPSEL_REJECTION_ROUNDS; */
    /*@ assert stream_score: \at(trial_ready(rng, decay, scores, n), Pre) ==>
               scores[drawn] == seen_score(scores, drawn); */
    /*@ assert stream_gap: \at(trial_ready(rng, decay, scores, n), Pre) ==>
               gap == trial_gap(rng, scores, n, best, decay->cap, cursor{Pre}(rng)); */
    /*@ assert stream_ready: \at(trial_ready(rng, decay, scores, n), Pre) ==>
               power_ready(rng, decay->powers, decay->npowers); */
    //@ assert coin_call: power_coin_call(rng, decay->powers, decay->npowers, gap, kept);
    if (fixed_pattern) {
        rc = dpsel_core_coin_power_fixed(rng, decay->powers, decay->npowers, gap, kept);
    } else {
        rc = dpsel_core_coin_power(rng, decay->powers, decay->npowers, gap, kept);
    }
    if (rc == DPSEL_OK) {
        *candidate = (size_t)drawn;
    }
    return rc;
}

int dpsel_core_em_trial(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                        size_t n, int64_t best, size_t *candidate, int *kept)
{
    return draw_and_flip(rng, decay, scores, n, best, 0, candidate, kept);
}

int dpsel_core_em_trial_hardened(dpsel_rng *rng, const dpsel_decay *decay,
                                 const int64_t *scores, size_t n, int64_t best,
                                 size_t *candidate, int *kept)
{
    return draw_and_flip(rng, decay, scores, n, best, 1, candidate, kept);
}

int dpsel_core_em(dpsel_rng *rng, const dpsel_decay *decay,
                  const int64_t *scores, size_t n, size_t *index)
{
    int64_t best = scores[dpsel_core_argmax(scores, n)];
    /* The call's facts, once: the frame goals of the loop need them and
     * take long to find them inside sampler_call. */
    //@ assert apart_rng: decay_apart(decay, rng);
    //@ assert apart_index: decay_apart(decay, index);
    /* Trials are independent and alike; a kept candidate is r with
     * probability beta^g'_r / sum_j beta^g'_j.  The sum is at least 1 (the
     * best candidate), so all DPSEL_REJECTION_ROUNDS * n trials fail with
     * probability at most (1 - 1/n)^(128 n) < e^-128. */
    /*@ loop invariant 0 <= round <= DPSEL_REJECTION_ROUNDS;
        loop invariant *index == \at(*index, Pre);
        loop assigns round, *rng, *index;
        loop variant DPSEL_REJECTION_ROUNDS - round;
    */
    for (unsigned round = 0; round < DPSEL_REJECTION_ROUNDS; round++) {
        int kept;
        //@ assert decay_kept: valid_decay(decay);
        //@ assert apart_rng_kept: decay_apart(decay, rng);
        //@ assert apart_index_kept: decay_apart(decay, index);
        int rc = dpsel_core_em_attempts(rng, decay, scores, n, best, n, index, &kept);
        if (rc != DPSEL_OK || kept) {
            return rc;
        }
    }
    return DPSEL_EUNLIKELY;
}

int dpsel_core_em_attempts(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                           size_t n, int64_t best, uint64_t attempts, size_t *index,
                           int *kept)
{
    /*@ loop invariant 0 <= trial <= attempts;
        loop assigns trial, *rng;
        loop variant attempts - trial;
    */
    for (uint64_t trial = 0; trial < attempts; trial++) {
        size_t candidate;
        int keep;
        int rc = dpsel_core_em_trial(rng, decay, scores, n, best, &candidate, &keep);
        if (rc != DPSEL_OK) {
            return rc;
        }
        if (keep) {
            *index = candidate;
            *kept = 1;
            return DPSEL_OK;
        }
    }
    *kept = 0;
    return DPSEL_OK;
}

int dpsel_core_em_hardened(dpsel_rng *rng, const dpsel_decay *decay,
                           const int64_t *scores, size_t n, size_t *index)
{
    int64_t best = dpsel_core_max_score(scores, n);
    /* The same trials as dpsel_core_em, all of them: the first kept one is
     * taken by a branch-free scan, the later ones are drawn and ignored. */
    uint64_t chosen = 0;
    unsigned found = 0;
    /*@ loop invariant 0 <= round <= DPSEL_REJECTION_ROUNDS;
        loop invariant found == 0 || found == 1;
        loop invariant chosen < n;
        loop assigns round, chosen, found, *rng;
        loop variant DPSEL_REJECTION_ROUNDS - round;
    */
    for (unsigned round = 0; round < DPSEL_REJECTION_ROUNDS; round++) {
        /*@ loop invariant 0 <= trial <= n;
            loop invariant found == 0 || found == 1;
            loop invariant chosen < n;
            loop assigns trial, chosen, found, *rng;
            loop variant n - trial;
        */
        for (size_t trial = 0; trial < n; trial++) {
            size_t candidate;
            int kept;
            int rc = dpsel_core_em_trial_hardened(rng, decay, scores, n, best,
                                                  &candidate, &kept);
            if (rc != DPSEL_OK) {
                return rc;
            }
            unsigned first = (unsigned)kept > found;  /* this one, and none before */
            chosen = dpsel_core_choose_u64(first, chosen, candidate);
            found += first;
        }
    }
    if (!found) {
        return DPSEL_EUNLIKELY;
    }
    *index = (size_t)chosen;
    return DPSEL_OK;
}
