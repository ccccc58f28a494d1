/* SPDX-License-Identifier: ISC */
/* Permute-and-flip (McKenna & Sheldon 2020). */
#include "pf.h"

#include "coin.h"
#include "gap.h"
#include "uniform.h"

int dpsel_core_shuffle_step(dpsel_rng *rng, size_t *scratch, size_t n, size_t i)
{
    uint64_t offset;
    int rc = dpsel_core_uniform(rng, (uint64_t)(n - i), &offset);
    if (rc != DPSEL_OK) {
        return rc;
    }
    size_t j = i + (size_t)offset;
    size_t moved = scratch[j];
    /*@ ghost swap: ; */
    scratch[j] = scratch[i];
    scratch[i] = moved;
    /*@ assert i <= j < n; */
    /*@ assert scratch[i] == \at(scratch[j], swap); */
    /*@ assert scratch[j] == \at(scratch[i], swap); */
    /*@ assert \forall integer a; 0 <= a < n && a != i && a != j ==>
               scratch[a] == \at(scratch[a], swap); */
    return DPSEL_OK;
}

/* The identity permutation: scratch[k] = k. */
/*@ requires range: 1 <= n <= DPSEL_MAX_CANDIDATES;
    requires writable: \valid(scratch + (0 .. n - 1));
    assigns scratch[0 .. n - 1];
    ensures identity: \forall integer k; 0 <= k < n ==> scratch[k] == k;
*/
static void fill_identity(size_t *scratch, size_t n)
{
    /*@ loop invariant 0 <= i <= n;
        loop invariant \forall integer k; 0 <= k < i ==> scratch[k] == k;
        loop assigns i, scratch[0 .. n - 1];
        loop variant n - i;
    */
    for (size_t i = 0; i < n; i++) {
        scratch[i] = i;
    }
}

/* The coin beta^g, lazy (fixed_pattern 0) or in the hardened mode's fixed
 * pattern (1). */
/*@ requires coin: power_coin_call(rng, powers, npowers, gap, heads);
    requires pattern: zero_or_one(fixed_pattern);
    assigns *rng, *heads;
    ensures status: random_status(\result);
    ensures flipped: flipped(\result, *heads);
    ensures certain: gap == 0 ==> certain_heads(\result, *heads);
    ensures powers_kept: powers_kept{Pre, Here}(powers, npowers);
    ensures stream: \result == DPSEL_OK && \old(power_ready(rng, powers, npowers)) ==>
            trial_coin_flipped{Pre, Here}(rng, powers, npowers, fixed_pattern, gap, *heads);
*/
static int flip_power(dpsel_rng *rng, const dpsel_dyadic *powers, unsigned npowers,
                      uint64_t gap, int fixed_pattern, int *heads)
{
    int rc;
    /* What each coin leaves alone of the powers, at the coin. */
    if (fixed_pattern) {
        rc = dpsel_core_coin_power_fixed(rng, powers, npowers, gap, heads);
        //@ assert fixed_kept: powers_kept{Pre, Here}(powers, npowers);
    } else {
        rc = dpsel_core_coin_power(rng, powers, npowers, gap, heads);
        //@ assert lazy_kept: powers_kept{Pre, Here}(powers, npowers);
    }
    return rc;
}

/* The coin beta^g' of the candidate at position i of scratch, its gap to
 * best clamped at cap, lazy (fixed_pattern 0) or in the hardened mode's
 * fixed pattern (1): 1 (heads), 0 (tails), or the coin's failure
 * (negative).  A function of its own so that what the coin leaves alone
 * (the powers, the order in scratch) is proved where nothing else is in
 * context. */
/*@ requires call: visit_call(rng, powers, npowers, cap, scores, n, scratch);
    requires at: i < n;
    requires order: permutation(scratch, n) && scores_at_most(scores, n, best);
    requires pattern: zero_or_one(fixed_pattern);
    assigns *rng;
    ensures side: zero_or_one(\result) || random_status(\result);
    ensures certain: scores[scratch[i]] == best ==> \result == 1 || \result == DPSEL_ERANDOM;
    ensures powers_kept: powers_kept{Pre, Here}(powers, npowers);
    ensures scratch_kept: \forall integer a; 0 <= a < n ==> scratch[a] == \old(scratch[a]);
    ensures order_kept: permutation(scratch, n);
    ensures call_kept: visit_call(rng, powers, npowers, cap, scores, n, scratch);
    ensures seen_kept: \old(values_seen(powers, npowers, scores, n)) ==>
            values_seen(powers, npowers, scores, n);
    ensures stream: \result != DPSEL_ERANDOM && \old(power_ready(rng, powers, npowers)) ==>
            trial_coin_flipped{Pre, Here}(rng, powers, npowers, fixed_pattern,
                                          gap_of(best, \old(scores[scratch[i]]), cap), \result);
*/
static int flip_at(dpsel_rng *rng, const dpsel_dyadic *powers, unsigned npowers,
                   uint64_t cap, int64_t best, const int64_t *scores, const size_t *scratch,
                   size_t n, size_t i, int fixed_pattern)
{
    (void)n;  /* read by the contract only */
    uint64_t gap = dpsel_core_clamped_gap(best, scores[scratch[i]], cap);
    int heads;
    int rc = flip_power(rng, powers, npowers, gap, fixed_pattern, &heads);
    /* The powers' fields first: visit_call across the coin takes the
     * provers too long without them. */
    //@ assert powers_flipped: powers_kept{Pre, Here}(powers, npowers);
    //@ assert valid_flipped: valid_powers(powers, npowers);
    //@ assert rng_apart_flipped: powers_apart(powers, npowers, rng);
    //@ assert scratch_apart_flipped: powers_apart(powers, npowers, (size_t *)scratch, n);
    if (rc != DPSEL_OK) {
        return rc;
    }
    return heads;
}

/* Visit i of permute-and-flip: shuffle step i puts the candidate it visits
 * at scratch[i], and flips its coin beta^g', the gap clamped at cap.
 * Returns the coin's side, 1 (heads) or 0 (tails), or the failure's status
 * (negative).  The side is returned rather than written through a pointer:
 * every write the visit makes is a frame the provers must cross for each
 * power's digits. */
/*@ requires call: visit_call(rng, powers, npowers, cap, scores, n, scratch);
    requires at: i < n;
    requires order: pf_order(scores, scratch, n, i, best);
    assigns *rng, scratch[i .. n - 1];
    ensures side: zero_or_one(\result) || sampler_status(\result);
    ensures call_kept: visit_call(rng, powers, npowers, cap, scores, n, scratch);
    ensures permutation: permutation(scratch, n);
    ensures order: \result == 0 ==> pf_order(scores, scratch, n, i + 1, best);
    ensures seen_kept: \old(values_seen(powers, npowers, scores, n)) ==>
            values_seen(powers, npowers, scores, n);
    ensures stream: \result != DPSEL_ERANDOM &&
                    \old(visit_ready(rng, powers, npowers, scores, n)) ==>
            visited_ref{Pre, Here}(rng, powers, npowers, cap, scores, scratch, n, best, i,
                                   \result);
*/
static int swap_and_flip(dpsel_rng *rng, const dpsel_dyadic *powers, unsigned npowers,
                         uint64_t cap, const int64_t *scores, size_t n, int64_t best,
                         size_t *scratch, size_t i)
{
    //@ ghost dpsel_lemma_power_bits(powers, npowers);
    int rc = dpsel_core_shuffle_step(rng, scratch, n, i);
    if (rc != DPSEL_OK) {
        return rc;
    }
    /* What each call leaves alone, field by field first: the frame goals of
     * whole predicates across the calls take the provers too long. */
    //@ assert powers_stepped: powers_kept{Pre, Here}(powers, npowers);
    //@ assert call_stepped: visit_call(rng, powers, npowers, cap, scores, n, scratch);
    /*@ assert seen_stepped: \at(values_seen(powers, npowers, scores, n), Pre) ==>
               values_seen(powers, npowers, scores, n); */
    //@ assert order_stepped: permutation(scratch, n) && scores_at_most(scores, n, best);
    //@ ghost size_t candidate = scratch[i];
    /* The swap moved a best candidate at most within positions i .. n - 1. */
    /*@ assert best_still_ahead: \exists integer p; i <= p < n && scores[scratch[p]] == best; */
    /*@ assert stream_score: \at(visit_ready(rng, powers, npowers, scores, n), Pre) ==>
               scores[candidate] == seen_score(scores, candidate); */
    /*@ assert stream_ready: \at(visit_ready(rng, powers, npowers, scores, n), Pre) ==>
               power_ready(rng, powers, npowers); */
    int side = flip_at(rng, powers, npowers, cap, best, scores, scratch, n, i, 0);
    //@ assert at_most_flipped: scores_at_most(scores, n, best);
    /* Tails: candidate is not a best one (its gap would be 0, its coin
     * certain), so a best candidate is still among positions i + 1 .. n - 1. */
    /*@ assert tails: side == 0 ==> scores[candidate] != best; */
    /*@ assert ahead: side == 0 ==>
               \exists integer p; i + 1 <= p < n && scores[scratch[p]] == best; */
    return side;
}

int dpsel_core_pf(dpsel_rng *rng, const dpsel_decay *decay,
                  const int64_t *scores, size_t n, size_t *scratch,
                  size_t *index)
{
    /* The decay as the call finds it, read once. */
    const dpsel_dyadic *powers = decay->powers;
    unsigned npowers = decay->npowers;
    uint64_t cap = decay->cap;
    size_t top = dpsel_core_argmax(scores, n);
    int64_t best = scores[top];
    /*@ assert best_is: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
               \forall integer other; best_seen(scores, n, other) ==> other == best; */
    fill_identity(scratch, n);
    /*@ assert \forall integer k; 0 <= k < n ==> scratch[k] == k; */
    /*@ assert scratch[top] == top && scores[scratch[top]] == best; */
    //@ ghost dpsel_lemma_trial_bits(powers, npowers);
    /* Step i of a Fisher-Yates shuffle fixes position i; the candidates are
     * visited in shuffled order as the shuffle is drawn.  With room for the
     * bits, the order and the cursor are the reference's (pf_trace) after i
     * visits of tails. */
    /*@ loop invariant 0 <= i <= n;
        loop invariant call: visit_call(rng, powers, npowers, cap, scores, n, scratch);
        loop invariant order: pf_order(scores, scratch, n, i, best);
        loop invariant index_kept: *index == \at(*index, Pre);
        loop invariant seen: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
            values_seen(powers, npowers, scores, n);
        loop invariant bits: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
            0 <= trial_bits(powers, npowers) &&
            read_at_most{Pre, Here}(rng, times(trial_bits(powers, npowers), i));
        loop invariant state: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
            pf_state{Pre, Here}(rng, powers, npowers, cap, scores, scratch, n, best, i);
        loop invariant so_far: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
            pf_so_far{Pre}(rng, powers, npowers, cap, scores, n, best, i);
        loop assigns i, *rng, scratch[0 .. n - 1];
        loop variant n - i;
    */
    for (size_t i = 0; i < n; i++) {
        /*@ ghost step: ; */
        int side = swap_and_flip(rng, powers, npowers, cap, scores, n, best, scratch, i);
        /* What the visit's stream clause needs, at its call (stated after
         * it, so that the call's preconditions are proved without them). */
        //@ ghost dpsel_lemma_times(i, n);
        /*@ assert ready: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                   \at(visit_ready(rng, powers, npowers, scores, n), step); */
        /*@ assert visited: side != DPSEL_ERANDOM &&
                   \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                   visited_ref{step, Here}(rng, powers, npowers, cap, scores, scratch, n, best,
                                           i, side); */
        if (side < 0) {
            /*@ assert stream_failed: side != DPSEL_ERANDOM &&
                       \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                       pf_released_ref{Pre, Here}(rng, decay, scores, n, best, side, *index); */
            return side;
        }
        /* The visit as the reference's visit i, and the state after it. */
        /*@ assert stream_draw: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                   i <= pf_draw(rng, powers, npowers, cap, scores, n, best, cursor{Pre}(rng), i) < n &&
                   swapped_at{step, Here}(scratch, n, i,
                       pf_draw(rng, powers, npowers, cap, scores, n, best, cursor{Pre}(rng), i)); */
        /*@ assert stream_coin: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                   side == pf_heads(rng, powers, npowers, cap, scores, n, best, cursor{Pre}(rng), i) &&
                   cursor(rng) == pf_cursor(rng, powers, npowers, cap, scores, n, best,
                                            cursor{Pre}(rng), i + 1); */
        /*@ assert stream_swaps: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                   pf_swaps(rng, powers, npowers, cap, scores, n, best, cursor{Pre}(rng), i); */
        /*@ assert stream_next: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                   pf_state{Pre, Here}(rng, powers, npowers, cap, scores, scratch, n, best, i + 1); */
        if (side == 1) {
            /*@ assert stream_visited: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                       pf_ref(rng, powers, npowers, cap, scores, n, best, cursor{Pre}(rng), i) ==
                           scratch[i] &&
                       pf_end(rng, powers, npowers, cap, scores, n, best, cursor{Pre}(rng), i) ==
                           cursor(rng); */
            /*@ assert permutation(scratch, n); */
            *index = scratch[i];
            /*@ assert stream_heads: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                       pf_released_ref{Pre, Here}(rng, decay, scores, n, best, DPSEL_OK,
                                                  *index); */
            return DPSEL_OK;
        }
    }
    /* Unreachable: a best candidate has gap 0, and its coin is certain. */
    /*@ assert \false; */
    return DPSEL_EINTERNAL;
}

/* Step i of the hardened PF's shuffle: dpsel_core_shuffle_step, and what
 * it leaves alone (the powers, visit_call, the seen values).  A function
 * of its own for the same reason as flip_at: these frames are proved
 * quickly only where little else is in context. */
/*@ requires call: visit_call(rng, powers, npowers, cap, scores, n, scratch);
    requires at: i < n;
    requires order: pf_order(scores, scratch, n, 0, best);
    assigns *rng, scratch[i .. n - 1];
    ensures status: sampler_status(\result);
    ensures call_kept: visit_call(rng, powers, npowers, cap, scores, n, scratch);
    ensures order_kept: pf_order(scores, scratch, n, 0, best);
    ensures seen_kept: \old(values_seen(powers, npowers, scores, n)) ==>
            values_seen(powers, npowers, scores, n);
    ensures stream: \result != DPSEL_ERANDOM && \old(uniform_room(rng)) ==>
            shuffle_stepped_ref{Pre, Here}(rng, scratch, n, i, \result);
*/
static int hardened_shuffle_step(dpsel_rng *rng, size_t *scratch, size_t n, size_t i)
    /*@ ghost (const dpsel_dyadic *powers, unsigned npowers, uint64_t cap,
               const int64_t *scores, int64_t best) */
{
    int rc = dpsel_core_shuffle_step(rng, scratch, n, i);
    /* The powers' fields first, as in flip_at. */
    //@ assert powers_stepped: powers_kept{Pre, Here}(powers, npowers);
    //@ assert valid_stepped: valid_powers(powers, npowers);
    //@ assert rng_apart_stepped: powers_apart(powers, npowers, rng);
    //@ assert scratch_apart_stepped: powers_apart(powers, npowers, scratch, n);
    /* The swap moved a best candidate within positions 0 .. n - 1. */
    /*@ assert best_still_there: \exists integer p; 0 <= p < n && scores[scratch[p]] == best; */
    return rc;
}

int dpsel_core_pf_hardened(dpsel_rng *rng, const dpsel_decay *decay,
                           const int64_t *scores, size_t n, size_t *scratch,
                           size_t *index)
{
    /* The decay as the call finds it, read once. */
    const dpsel_dyadic *powers = decay->powers;
    unsigned npowers = decay->npowers;
    uint64_t cap = decay->cap;
    /* A coin's bits are at least 0, stated before any write. */
    //@ ghost dpsel_lemma_power_bits(powers, npowers);
    /*@ assert coin_bits: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
               0 <= power_bits(powers, npowers); */
    int64_t best = dpsel_core_max_score(scores, n);
    /*@ assert best_is: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
               \forall integer other; best_seen(scores, n, other) ==> other == best; */
    fill_identity(scratch, n);
    /* What the identity leaves alone, the powers' fields first. */
    //@ assert powers_filled: powers_kept{Pre, Here}(powers, npowers);
    //@ assert call_filled: visit_call(rng, powers, npowers, cap, scores, n, scratch);
    /*@ assert \forall integer p; 0 <= p < n ==> scores[scratch[p]] == scores[p]; */
    /*@ assert \exists integer p; 0 <= p < n && scores[scratch[p]] == best; */
    /* The bits: n uniform draws, then n coins, within times(trial_bits, n). */
    //@ ghost dpsel_lemma_times_sum(n);
    //@ ghost dpsel_lemma_times(0, n);
    /*@ assert coins_bits: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
               0 <= times(power_bits(powers, npowers), n); */
    /*@ assert budget: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
               times(trial_bits(powers, npowers), n) ==
                   times(63 * DPSEL_REJECTION_ROUNDS, n) + times(power_bits(powers, npowers), n); */
    /* The whole shuffle first, so that its bits do not depend on where the
     * first heads falls.  With room for the bits, the order and the cursor
     * are the reference's (shuffle_trace) after i steps. */
    /*@ loop invariant 0 <= i <= n;
        loop invariant call: visit_call(rng, powers, npowers, cap, scores, n, scratch);
        loop invariant order: pf_order(scores, scratch, n, 0, best);
        loop invariant index_kept: *index == \at(*index, Pre);
        loop invariant seen: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
            values_seen(powers, npowers, scores, n);
        loop invariant bits: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
            read_at_most{Pre, Here}(rng, times(63 * DPSEL_REJECTION_ROUNDS, i));
        loop invariant state: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
            shuffle_state{Pre, Here}(rng, scratch, n, i);
        loop assigns i, *rng, scratch[0 .. n - 1];
        loop variant n - i;
    */
    for (size_t i = 0; i < n; i++) {
        /*@ ghost step: ; */
        int rc = hardened_shuffle_step(rng, scratch, n, i)
            /*@ ghost (powers, npowers, cap, scores, best) */;
        /* What the step's stream clause needs, at its call (stated after
         * it, so that the call's preconditions are proved without them). */
        //@ ghost dpsel_lemma_times(i, n);
        /*@ assert step_room: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                   \at(uniform_room(rng), step); */
        /*@ assert unfold: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                   shuffle_unfolds(rng, n, cursor{Pre}(rng), i); */
        if (rc != DPSEL_OK) {
            /* The draw of step i ran out: the reference's first failure is
             * step i, and the cursor is where the draw left it. */
            /*@ assert fail_draw: rc != DPSEL_ERANDOM &&
                       \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                       rc == DPSEL_EUNLIKELY &&
                       shuffle_step_ref(rng, n, i, shuffle_trace(rng, n, cursor{Pre}(rng), i, -1))
                           == -1; */
            /*@ assert fail_at: rc != DPSEL_ERANDOM &&
                       \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                       shuffle_fail(rng, n, cursor{Pre}(rng), 0) == i; */
            /*@ assert fail_cursor: rc != DPSEL_ERANDOM &&
                       \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                       cursor(rng) == uniform_end(rng, n - i,
                                                  shuffle_trace(rng, n, cursor{Pre}(rng), i, -1)); */
            /*@ assert stream_failed: rc != DPSEL_ERANDOM &&
                       \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                       pf_hardened_released_ref{Pre, Here}(rng, decay, scores, n, best, rc,
                                                           *index); */
            return rc;
        }
    }
    /*@ ghost shuffled: ; */
    /* A coin for every candidate, in shuffled order; found records whether a
     * heads came earlier, and only the first heads is taken.  With room for
     * the bits, the cursor is the reference's (scan_cursor), and the release
     * the first heads so far or else the rest's (scan_so_far). */
    uint64_t chosen = 0;
    unsigned found = 0;
    /*@ loop invariant 0 <= i <= n;
        loop invariant found == 0 || found == 1;
        loop invariant chosen < n;
        loop invariant call: visit_call(rng, powers, npowers, cap, scores, n, scratch);
        loop invariant order: permutation(scratch, n) && scores_at_most(scores, n, best);
        loop invariant best_ahead: found == 0 ==>
                       \exists integer p; i <= p < n && scores[scratch[p]] == best;
        loop invariant kept: \forall integer k; 0 <= k < n ==> scratch[k] == \at(scratch[k], shuffled);
        loop invariant index_kept: *index == \at(*index, Pre);
        loop invariant seen: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
            values_seen(powers, npowers, scores, n);
        loop invariant bits: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
            read_at_most{shuffled, Here}(rng, times(power_bits(powers, npowers), i));
        loop invariant so_far: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
            scan_so_far{Pre, Here}(rng, powers, npowers, cap, scores, n, best, i, found, chosen);
        loop assigns i, chosen, found, *rng;
        loop variant n - i;
    */
    for (size_t i = 0; i < n; i++) {
        /*@ ghost coin: ; */
        int side = flip_at(rng, powers, npowers, cap, best, scores, scratch, n, i, 1);
        //@ ghost dpsel_lemma_times(i, n);
        /*@ assert coin_ready: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                   \at(power_ready(rng, powers, npowers), coin); */
        if (side < 0) {
            return side;  /* DPSEL_ERANDOM: no stream statement */
        }
        /*@ assert stream_coin: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
                   side == scan_heads(rng, powers, npowers, cap, scores, n, best,
                                      cursor{Pre}(rng), i) &&
                   cursor(rng) == scan_cursor(rng, powers, npowers,
                                              shuffle_trace(rng, n, cursor{Pre}(rng), n, -1),
                                              i + 1); */
        /* A best candidate's coin is certain: if no heads yet, one is ahead. */
        /*@ assert found == 0 && side == 0 ==> scores[scratch[i]] != best; */
        unsigned first = (unsigned)side > found;  /* this one, and none before */
        chosen = dpsel_core_choose_u64(first, chosen, scratch[i]);
        found += first;
    }
    /*@ assert found == 1; */
    *index = (size_t)chosen;
    /*@ assert scanned_order: permutation(scratch, n); */
    /*@ assert stream_scanned: \at(trials_ready(rng, decay, scores, n, n), Pre) ==>
               pf_hardened_released_ref{Pre, Here}(rng, decay, scores, n, best, DPSEL_OK,
                                                   *index); */
    return DPSEL_OK;
}
