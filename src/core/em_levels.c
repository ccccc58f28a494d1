/* SPDX-License-Identifier: ISC */
/*
 * The exponential mechanism by levels (spec/mechanisms.md §12), for score
 * vectors where uniform trials are mostly rejected (one candidate far ahead
 * of many): the candidates are counted per clamped gap g (a level); a trial
 * proposes level g with probability proportional to c_g 2^-e_g, where
 * 2^-e_g >= beta^g is read off the leads of the decay table, and keeps it
 * with probability beta^g 2^e_g; a kept level releases a uniform one of its
 * candidates, found by a pass over the scores.  No trial reads the scores.
 */
#include "em_levels.h"

#include "coin.h"
#include "gap.h"
#include "uniform.h"
#include "visit.h"

uint64_t dpsel_core_level_exponent(const dpsel_decay *decay, uint64_t g, uint64_t limit)
{
    /* Without a branch on g: the hardened trials call it with a secret g. */
    uint64_t sum = 0;
    /*@ loop invariant 0 <= i <= decay->npowers;
        loop invariant sum <= limit;
        loop assigns i, sum;
        loop variant decay->npowers - i;
    */
    for (unsigned i = 0; i < decay->npowers; i++) {
        unsigned counts = dpsel_core_opaque((unsigned)((g >> i) & 1u));
        //@ assert counted: counts == 0 || counts == 1;
        uint64_t lead = decay->powers[i].lead * counts;
        uint64_t room = limit - sum;
        sum += dpsel_core_choose_u64(lead < room, room, lead);
    }
    return sum;
}

/* 2^(envelope - e_g): the weight of one candidate of level g, in units of
 * 2^-envelope. */
/*@ requires decay: valid_decay(decay);
    requires envelope: envelope <= 63;
    assigns \nothing;
    ensures unit: 1 <= \result <= 9223372036854775808;
    ensures unit_bound: \result <= pow2(envelope);
*/
static uint64_t level_unit(const dpsel_decay *decay, uint64_t g, unsigned envelope)
{
    unsigned shift = envelope - (unsigned)dpsel_core_level_exponent(decay, g, envelope);
    //@ ghost dpsel_lemma_pow2_shift();
    //@ assert pow2(shift) <= pow2(63) == 9223372036854775808;
    //@ assert pow2(shift) <= pow2(envelope);
    return (uint64_t)1 << shift;
}

void dpsel_core_levels_clear(uint64_t *levels, uint64_t cap)
{
    /* g stops at cap without a step past it: cap may be 2^64 - 1 */
    uint64_t g = 0;
    /*@ loop invariant 0 <= g <= cap;
        loop invariant \forall integer h; 0 <= h < g ==> levels[h] == 0;
        loop assigns g, levels[0 .. cap];
        loop variant cap - g;
    */
    while (1) {
        levels[g] = 0;
        if (g == cap) {
            break;
        }
        g++;
    }
}

int dpsel_core_em_levels_build(const dpsel_decay *decay, const int64_t *scores, size_t n,
                               int64_t best, unsigned envelope, uint64_t *levels)
{
    uint64_t cap = decay->cap;
    dpsel_core_levels_clear(levels, cap);
    /* The capped level is counted in a local: it is the crowded one where
     * the uniform trials failed, and a counter in memory, incremented again
     * and again, waits each time for its own store. */
    uint64_t capped = 0;
    /*@ loop invariant 0 <= i <= n;
        loop invariant capped <= i;
        loop invariant \forall integer h; 0 <= h < cap ==> levels[h] <= i;
        loop assigns i, capped, levels[0 .. cap - 1];
        loop variant n - i;
    */
    for (size_t i = 0; i < n; i++) {
        uint64_t g = dpsel_core_clamped_gap(best, scores[i], cap);
        if (g == cap) {
            capped++;
        } else {
            levels[g]++;
        }
    }
    levels[cap] = capped;
    return dpsel_core_em_levels_sum(decay, envelope, levels) /*@ ghost (n) */;
}

int dpsel_core_em_levels_sum(const dpsel_decay *decay, unsigned envelope,
                             uint64_t *levels) /*@ ghost (size_t n) */
{
    uint64_t cap = decay->cap;
    uint64_t total = 0;
    /*@ loop invariant 0 <= g <= cap + 1;
        loop invariant total <= DPSEL_LEVELS_TOTAL_MAX;
        loop invariant \forall integer h; 0 <= h < g ==> levels[h] <= total;
        loop invariant \forall integer h, k; 0 <= h <= k < g ==> levels[h] <= levels[k];
        loop invariant g >= 1 ==> levels[g - 1] == total;
        loop invariant \forall integer h; g <= h <= cap ==> levels[h] <= n;
        loop assigns g, total, levels[0 .. cap];
        loop variant cap + 1 - g;
    */
    for (uint64_t g = 0; g <= cap; g++) {
        /* A multiplication and a comparison, no division: the hardened
         * mode's sums are computed alike for every count. */
        uint64_t unit = level_unit(decay, g, envelope);
        //@ assert count_bound: levels[g] <= n;
        //@ assert count_weight: levels[g] * unit <= n * unit;
        //@ assert unit_weight: n * unit <= n * pow2(envelope);
        uint64_t weight = levels[g] * unit;
        if (weight > DPSEL_LEVELS_TOTAL_MAX - total) {
            return DPSEL_EINTERNAL;  /* the counts add up to n: never */
        }
        total += weight;
        levels[g] = total;
    }
    return total == 0 ? DPSEL_EINTERNAL : DPSEL_OK;  /* n >= 1 candidates */
}

int dpsel_core_em_level_trial(dpsel_rng *rng, const dpsel_decay *decay,
                              const uint64_t *levels, unsigned envelope,
                              uint64_t *level, int *kept)
{
    uint64_t cap = decay->cap;
    uint64_t drawn;
    int rc = dpsel_core_uniform(rng, levels[cap], &drawn);
    if (rc != DPSEL_OK) {
        return rc;
    }
    /* the first level whose running sum passes the draw */
    uint64_t g = dpsel_core_rank(levels, cap + 1, drawn + 1);
    //@ assert g <= cap;
    uint64_t exponent = dpsel_core_level_exponent(decay, g, envelope);
    rc = dpsel_core_coin_power_scaled(rng, decay->powers, decay->npowers, g, exponent, kept);
    if (rc == DPSEL_OK) {
        *level = g;
    }
    return rc;
}

/* The position of the member-th candidate (from 0) whose clamped gap is g. */
/*@ requires scores: valid_scores(scores, n) && scores_at_most(scores, n, best);
    requires decay: valid_decay(decay);
    requires writable: \valid(index);
    requires apart: \separated(index, scores + (0 .. n - 1), decay);
    assigns *index;
    ensures status: exact_status(\result);
    ensures released: released(\result, *index, \old(*index), n);
*/
static int find_member(const dpsel_decay *decay, const int64_t *scores, size_t n,
                       int64_t best, uint64_t g, uint64_t member, size_t *index)
{
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, member;
        loop variant n - i;
    */
    for (size_t i = 0; i < n; i++) {
        if (dpsel_core_clamped_gap(best, scores[i], decay->cap) == g) {
            if (member == 0) {
                *index = i;
                return DPSEL_OK;
            }
            member--;
        }
    }
    return DPSEL_EINTERNAL;  /* the counts came from these scores */
}

int dpsel_core_em_levels_pick(dpsel_rng *rng, const dpsel_decay *decay, const uint64_t *levels,
                              unsigned envelope, uint64_t *level, uint64_t *member)
{
    /* A trial keeps with probability at least 2^-(npowers + 1) >= 2^-22 (spec §12). */
    const uint64_t trials = (uint64_t)DPSEL_REJECTION_ROUNDS << (DPSEL_LEVELS_MAX_POWERS + 1);
    /* *level and *member are written on the way out only: the loop's
     * frame is the source alone. */
    /*@ loop invariant 0 <= trial <= trials;
        loop assigns trial, *rng;
        loop variant trials - trial;
    */
    for (uint64_t trial = 0; trial < trials; trial++) {
        uint64_t g;
        int kept;
        /* The call's facts at each trial: the trial's frame goals find
         * them slowly through the loop. */
        //@ assert decay_kept: levels_decay(decay, envelope);
        //@ assert apart_rng_kept: decay_apart(decay, rng);
        int rc = dpsel_core_em_level_trial(rng, decay, levels, envelope, &g, &kept);
        if (rc != DPSEL_OK) {
            return rc;
        }
        if (kept) {
            uint64_t below = g == 0 ? 0 : levels[g - 1];
            uint64_t members = (levels[g] - below) / level_unit(decay, g, envelope);
            if (members == 0) {
                return DPSEL_EINTERNAL;  /* a proposed level has members */
            }
            rc = dpsel_core_uniform(rng, members, member);
            if (rc == DPSEL_OK) {
                *level = g;
            }
            return rc;
        }
    }
    return DPSEL_EUNLIKELY;
}

int dpsel_core_em_levels(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                         size_t n, size_t top, unsigned envelope, uint64_t *levels,
                         size_t *index)
{
    int64_t best = scores[top];
    int rc = dpsel_core_em_levels_build(decay, scores, n, best, envelope, levels);
    if (rc != DPSEL_OK) {
        return rc;
    }
    /* The call's fact, once, for the frame goals of the trials' call. */
    //@ assert apart_rng: decay_apart(decay, rng);
    uint64_t g, member;
    rc = dpsel_core_em_levels_pick(rng, decay, levels, envelope, &g, &member);
    if (rc != DPSEL_OK) {
        return rc;
    }
    if (g == 0 && member == 0) {
        *index = top;  /* the first candidate of gap 0: no pass */
        return DPSEL_OK;
    }
    return find_member(decay, scores, n, best, g, member, index);
}
