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
    /*@ assert best_is: \at(em_ready(rng, decay, scores, n), Pre) ==>
               \forall integer other; best_seen(scores, n, other) ==> other == best; */
    /* The call's facts, once: the frame goals of the loop need them and
     * take long to find them inside sampler_call. */
    //@ assert apart_rng: decay_apart(decay, rng);
    /* The decay as the call finds it, for the stream invariants (as in
     * dpsel_core_em_attempts). */
    //@ ghost const dpsel_dyadic *powers = decay->powers;
    //@ ghost unsigned npowers = decay->npowers;
    //@ ghost uint64_t cap = decay->cap;
    //@ ghost dpsel_lemma_trial_bits(powers, npowers);
    //@ ghost dpsel_lemma_times(0, n);
    /* Trials are independent and alike; a kept candidate is r with
     * probability beta^g'_r / sum_j beta^g'_j.  The sum is at least 1 (the
     * best candidate), so all DPSEL_REJECTION_ROUNDS * n trials fail with
     * probability at most (1 - 1/n)^(128 n) < e^-128. */
    /*@ loop invariant 0 <= round <= DPSEL_REJECTION_ROUNDS;
        loop invariant decay_kept: decay->powers == powers && decay->npowers == npowers &&
                                   decay->cap == cap;
        loop invariant bits: \at(em_ready(rng, decay, scores, n), Pre) ==>
            0 <= trial_bits(powers, npowers) &&
            0 <= times(trial_bits(powers, npowers), n) &&
            read_at_most{Pre, Here}(rng, times(times(trial_bits(powers, npowers), n), round));
        loop invariant so_far: \at(em_ready(rng, decay, scores, n), Pre) ==>
            em_so_far{Pre, Here}(rng, powers, npowers, cap, scores, n, best, round);
        loop assigns round, *rng;
        loop variant DPSEL_REJECTION_ROUNDS - round;
    */
    for (unsigned round = 0; round < DPSEL_REJECTION_ROUNDS; round++) {
        size_t candidate;
        int kept;
        //@ assert decay_valid: valid_decay(decay);
        //@ assert apart_rng_kept: decay_apart(decay, rng);
        /*@ ghost step: ; */
        int rc = dpsel_core_em_attempts(rng, decay, scores, n, best, n, &candidate, &kept);
        /* What the round's stream clause needs, at its call (stated after
         * it, so that the call's preconditions are proved without them). */
        //@ ghost dpsel_lemma_times(round, DPSEL_REJECTION_ROUNDS);
        /*@ assert room: \at(em_ready(rng, decay, scores, n), Pre) ==>
                   \at(room(rng, times(trial_bits(powers, npowers), n)), step); */
        /*@ assert seen: \at(em_ready(rng, decay, scores, n), Pre) ==>
                   \at(powers_seen(powers, npowers) && scores_seen(scores, n), step); */
        /*@ assert outcome: rc != DPSEL_ERANDOM &&
                   \at(em_ready(rng, decay, scores, n), Pre) ==>
                   attempts_done_ref{step, Here}(rng, decay, scores, n, best, n, rc, candidate,
                                                 kept); */
        /*@ assert unfold: rc != DPSEL_ERANDOM &&
                   \at(em_ready(rng, decay, scores, n), Pre) ==>
                   em_unfolds(rng, powers, npowers, cap, scores, n, best, round,
                              \at(cursor(rng), step), cursor(rng)); */
        if (rc != DPSEL_OK) {
            /*@ assert stream_failed: rc != DPSEL_ERANDOM &&
                       \at(em_ready(rng, decay, scores, n), Pre) ==>
                       em_released_ref{Pre, Here}(rng, decay, scores, n, best, rc, *index); */
            return rc;
        }
        if (kept) {
            *index = candidate;
            /*@ assert stream_kept: \at(em_ready(rng, decay, scores, n), Pre) ==>
                       em_released_ref{Pre, Here}(rng, decay, scores, n, best, DPSEL_OK,
                                                  *index); */
            return DPSEL_OK;
        }
    }
    /*@ assert stream_out: \at(em_ready(rng, decay, scores, n), Pre) ==>
               em_released_ref{Pre, Here}(rng, decay, scores, n, best, DPSEL_EUNLIKELY,
                                          *index); */
    return DPSEL_EUNLIKELY;
}

int dpsel_core_em_attempts(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                           size_t n, int64_t best, uint64_t attempts, size_t *index,
                           int *kept)
{
    /* The decay as the call finds it: the stream invariants name these, so
     * that only one goal carries them across the trials' writes. */
    //@ ghost const dpsel_dyadic *powers = decay->powers;
    //@ ghost unsigned npowers = decay->npowers;
    //@ ghost uint64_t cap = decay->cap;
    //@ ghost dpsel_lemma_trial_bits(powers, npowers);
    //@ assert apart_rng: decay_apart(decay, rng);
    /*@ loop invariant 0 <= trial <= attempts;
        loop invariant decay_kept: decay->powers == powers && decay->npowers == npowers &&
                                   decay->cap == cap;
        loop invariant bits: \at(trials_ready(rng, decay, scores, n, attempts), Pre) ==>
            0 <= trial_bits(powers, npowers) &&
            read_at_most{Pre, Here}(rng, times(trial_bits(powers, npowers), trial));
        loop invariant so_far: \at(trials_ready(rng, decay, scores, n, attempts), Pre) ==>
            attempts_so_far{Pre, Here}(rng, powers, npowers, cap, scores, n, best, attempts,
                                       trial);
        loop assigns trial, *rng;
        loop variant attempts - trial;
    */
    for (uint64_t trial = 0; trial < attempts; trial++) {
        size_t candidate;
        int keep;
        //@ assert decay_valid: valid_decay(decay);
        //@ assert apart_rng_kept: decay_apart(decay, rng);
        /*@ ghost step: ; */
        int rc = dpsel_core_em_trial(rng, decay, scores, n, best, &candidate, &keep);
        /* What the trial's stream clause needs, at its call (stated after
         * it, so that the call's preconditions are proved without them). */
        //@ ghost dpsel_lemma_times(trial, attempts);
        /*@ assert room: \at(trials_ready(rng, decay, scores, n, attempts), Pre) ==>
                   \at(room(rng, trial_bits(powers, npowers)), step); */
        /*@ assert seen: \at(trials_ready(rng, decay, scores, n, attempts), Pre) ==>
                   \at(powers_seen(powers, npowers) && scores_seen(scores, n), step); */
        /*@ assert outcome: rc != DPSEL_ERANDOM &&
                   \at(trials_ready(rng, decay, scores, n, attempts), Pre) ==>
                   trial_done_ref{step, Here}(rng, powers, npowers, cap, scores, n, best, 0, rc,
                                              candidate, keep); */
        if (rc != DPSEL_OK) {
            /*@ assert stream_failed: rc != DPSEL_ERANDOM &&
                       \at(trials_ready(rng, decay, scores, n, attempts), Pre) ==>
                       attempts_done_ref{Pre, Here}(rng, decay, scores, n, best, attempts, rc,
                                                    *index, *kept); */
            return rc;
        }
        /*@ assert unfold: \at(trials_ready(rng, decay, scores, n, attempts), Pre) ==>
                   attempts_unfolds(rng, powers, npowers, cap, scores, n, best, attempts, trial,
                                    \at(cursor(rng), step), cursor(rng)); */
        if (keep) {
            *index = candidate;
            *kept = 1;
            /*@ assert stream_kept: \at(trials_ready(rng, decay, scores, n, attempts), Pre) ==>
                       attempts_done_ref{Pre, Here}(rng, decay, scores, n, best, attempts,
                                                    DPSEL_OK, *index, *kept); */
            return DPSEL_OK;
        }
    }
    *kept = 0;
    /*@ assert stream_none: \at(trials_ready(rng, decay, scores, n, attempts), Pre) ==>
               attempts_done_ref{Pre, Here}(rng, decay, scores, n, best, attempts, DPSEL_OK,
                                            *index, *kept); */
    return DPSEL_OK;
}

int dpsel_core_em_hardened(dpsel_rng *rng, const dpsel_decay *decay,
                           const int64_t *scores, size_t n, size_t *index)
{
    int64_t best = dpsel_core_max_score(scores, n);
    /*@ assert best_is: \at(em_ready(rng, decay, scores, n), Pre) ==>
               \forall integer other; best_seen(scores, n, other) ==> other == best; */
    /* The same trials as dpsel_core_em, all of them: the first kept one is
     * taken by a branch-free scan, the later ones are drawn and ignored. */
    uint64_t chosen = 0;
    unsigned found = 0;
    /* The decay as the call finds it, for the stream invariants (as in
     * dpsel_core_em_attempts); as a function of the bits, the first kept
     * trial so far and the rest (spec/references.h, hardened_so_far). */
    //@ ghost const dpsel_dyadic *powers = decay->powers;
    //@ ghost unsigned npowers = decay->npowers;
    //@ ghost uint64_t cap = decay->cap;
    //@ ghost dpsel_lemma_trial_bits(powers, npowers);
    //@ ghost dpsel_lemma_times(0, n);
    //@ assert apart_rng: decay_apart(decay, rng);
    /*@ loop invariant 0 <= round <= DPSEL_REJECTION_ROUNDS;
        loop invariant found == 0 || found == 1;
        loop invariant chosen < n;
        loop invariant decay_kept: decay->powers == powers && decay->npowers == npowers &&
                                   decay->cap == cap;
        loop invariant bits: \at(em_ready(rng, decay, scores, n), Pre) ==>
            0 <= trial_bits(powers, npowers) && 0 <= times(trial_bits(powers, npowers), n) &&
            read_at_most{Pre, Here}(rng, times(times(trial_bits(powers, npowers), n), round));
        loop invariant so_far: \at(em_ready(rng, decay, scores, n), Pre) ==>
            hardened_so_far{Pre, Here}(rng, powers, npowers, cap, scores, n, best,
                                       times(n, round), found, chosen);
        loop assigns round, chosen, found, *rng;
        loop variant DPSEL_REJECTION_ROUNDS - round;
    */
    for (unsigned round = 0; round < DPSEL_REJECTION_ROUNDS; round++) {
        //@ ghost dpsel_lemma_times(round, DPSEL_REJECTION_ROUNDS);
        /*@ ghost round_start: ; */
        /*@ loop invariant 0 <= trial <= n;
            loop invariant found == 0 || found == 1;
            loop invariant chosen < n;
            loop invariant decay_kept: decay->powers == powers && decay->npowers == npowers &&
                                       decay->cap == cap;
            loop invariant bits: \at(em_ready(rng, decay, scores, n), Pre) ==>
                read_at_most{round_start, Here}(rng, times(trial_bits(powers, npowers), trial));
            loop invariant so_far: \at(em_ready(rng, decay, scores, n), Pre) ==>
                hardened_so_far{Pre, Here}(rng, powers, npowers, cap, scores, n, best,
                                           times(n, round) + trial, found, chosen);
            loop assigns trial, chosen, found, *rng;
            loop variant n - trial;
        */
        for (size_t trial = 0; trial < n; trial++) {
            size_t candidate;
            int kept;
            //@ assert decay_valid: valid_decay(decay);
            //@ assert apart_rng_kept: decay_apart(decay, rng);
            /*@ ghost step: ; */
            int rc = dpsel_core_em_trial_hardened(rng, decay, scores, n, best,
                                                  &candidate, &kept);
            /* What the trial's stream clause needs, at its call (stated
             * after it, so that the call's preconditions are proved without
             * them). */
            //@ ghost dpsel_lemma_times(trial, n);
            /*@ assert room: \at(em_ready(rng, decay, scores, n), Pre) ==>
                       \at(room(rng, trial_bits(powers, npowers)), step); */
            /*@ assert seen: \at(em_ready(rng, decay, scores, n), Pre) ==>
                       \at(powers_seen(powers, npowers) && scores_seen(scores, n), step); */
            /*@ assert outcome: rc != DPSEL_ERANDOM &&
                       \at(em_ready(rng, decay, scores, n), Pre) ==>
                       trial_done_ref{step, Here}(rng, powers, npowers, cap, scores, n, best, 1,
                                                  rc, candidate, kept); */
            /*@ assert unfold: \at(em_ready(rng, decay, scores, n), Pre) ==>
                       hardened_unfolds(rng, powers, npowers, cap, scores, n, best,
                                        times(n, DPSEL_REJECTION_ROUNDS),
                                        times(n, round) + trial, \at(cursor(rng), step)); */
            if (rc != DPSEL_OK) {
                /*@ assert stream_failed: rc != DPSEL_ERANDOM &&
                           \at(em_ready(rng, decay, scores, n), Pre) ==>
                           em_hardened_released_ref{Pre, Here}(rng, decay, scores, n, best, rc,
                                                               *index); */
                return rc;
            }
            unsigned first = (unsigned)kept > found;  /* this one, and none before */
            chosen = dpsel_core_choose_u64(first, chosen, candidate);
            found += first;
        }
        //@ assert next_round: times(n, round + 1) == times(n, round) + n;
    }
    if (!found) {
        /*@ assert stream_none: \at(em_ready(rng, decay, scores, n), Pre) ==>
                   em_hardened_released_ref{Pre, Here}(rng, decay, scores, n, best,
                                                       DPSEL_EUNLIKELY, *index); */
        return DPSEL_EUNLIKELY;
    }
    *index = (size_t)chosen;
    /*@ assert stream_found: \at(em_ready(rng, decay, scores, n), Pre) ==>
               em_hardened_released_ref{Pre, Here}(rng, decay, scores, n, best, DPSEL_OK,
                                                   *index); */
    return DPSEL_OK;
}
