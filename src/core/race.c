/* SPDX-License-Identifier: ISC */
/*
 * Permute-and-flip as a race of geometric noise (spec/mechanisms.md §10):
 * the candidate with the largest q'_r + G_r wins, ties broken uniformly,
 * where P(G_r >= k) = beta^k.  One pass over the scores, O(1) memory.
 */
#include "race.h"

#include "coin.h"
#include "gap.h"
#include "uniform.h"

int dpsel_core_race_applies(const dpsel_decay *decay)
{
    /* The high part of a geometric draw counts heads of the coin
     * beta^(2^top); below 1/2 (a zero digit after the point: lead >= 1),
     * each more head halves the probability, which bounds the draws. */
    if (decay->npowers < 1 || decay->npowers > DPSEL_RACE_MAX_POWERS) {
        return 0;
    }
    return decay->powers[decay->npowers - 1].lead >= 1;
}

int dpsel_core_odds_round(dpsel_rng *rng, const dpsel_dyadic *w, unsigned *outcome)
{
    /* 0 with probability 1/2, 1 with probability w/2, else again. */
    unsigned bit;
    int rc = dpsel_internal_rng_bit(rng, &bit);
    if (rc != DPSEL_OK || bit == 0) {
        *outcome = 0;
        return rc;
    }
    int coin;
    rc = dpsel_core_coin_dyadic(rng, w, &coin);
    if (rc == DPSEL_OK) {
        *outcome = coin ? 1u : DPSEL_ODDS_AGAIN;
    }
    return rc;
}

int dpsel_core_coin_odds(dpsel_rng *rng, const dpsel_dyadic *w, int *heads)
{
    /* Rounds are independent and alike: the first that ends gives 1 with
     * probability (w/2) / (1/2 + w/2) = w / (1 + w). */
    /*@ loop invariant 0 <= round <= DPSEL_REJECTION_ROUNDS;
        loop assigns round, *rng;
        loop variant DPSEL_REJECTION_ROUNDS - round;
    */
    for (unsigned round = 0; round < DPSEL_REJECTION_ROUNDS; round++) {
        unsigned outcome;
        int rc = dpsel_core_odds_round(rng, w, &outcome);
        if (rc != DPSEL_OK) {
            return rc;
        }
        if (outcome != DPSEL_ODDS_AGAIN) {
            *heads = (int)outcome;
            return DPSEL_OK;
        }
    }
    return DPSEL_EUNLIKELY;
}

int dpsel_core_odds_digits(dpsel_rng *rng, const dpsel_dyadic *powers, unsigned count,
                           uint64_t *value)
{
    /* P(value = v) is proportional to prod_i (a^(2^i))^(v_i) over the
     * digits v_i of v: a product of independent factors, one per digit. */
    //@ ghost dpsel_lemma_pow2_shift();
    uint64_t digits = 0;
    /*@ loop invariant 0 <= i <= count;
        loop invariant 0 <= digits < pow2(count - i);
        loop assigns i, digits, *rng;
        loop variant i;
    */
    for (unsigned i = count; i > 0; i--) {
        int digit;
        int rc = dpsel_core_coin_odds(rng, &powers[i - 1], &digit);
        if (rc != DPSEL_OK) {
            return rc;
        }
        //@ assert pow2(count - i + 1) == 2 * pow2(count - i);
        digits = 2 * digits + (uint64_t)digit;
    }
    *value = digits;
    return DPSEL_OK;
}

int dpsel_core_geometric(dpsel_rng *rng, const dpsel_decay *decay, uint64_t *draw)
{
    /* With unit = 2^top, draw = high * unit + low.  P(draw = e) is
     * proportional to beta^e = w^high * prod_i beta^(2^i d_i) over the
     * binary digits d_i of low: high and low are independent, high
     * geometric of ratio w = beta^(2^top), low by its digits. */
    unsigned top = decay->npowers - 1;
    //@ ghost dpsel_lemma_pow2_shift();
    uint64_t unit = (uint64_t)1 << top;
    //@ assert unit == pow2(top) && unit <= 1048576;
    uint64_t low;
    int rc = dpsel_core_odds_digits(rng, decay->powers, top, &low);
    if (rc != DPSEL_OK) {
        return rc;
    }
    /*@ loop invariant 0 <= high <= DPSEL_RACE_ROUNDS;
        loop assigns high, rc, *rng;
        loop variant DPSEL_RACE_ROUNDS - high;
    */
    for (uint64_t high = 0; high < DPSEL_RACE_ROUNDS; high++) {
        int heads;
        rc = dpsel_core_coin_dyadic(rng, &decay->powers[top], &heads);
        if (rc != DPSEL_OK) {
            return rc;
        }
        if (!heads) {
            //@ assert within_round: high * unit + low < high * unit + unit;
            //@ ghost dpsel_lemma_product_monotonic(high + 1, DPSEL_RACE_ROUNDS, unit);
            //@ assert below_limit: (high + 1) * unit <= DPSEL_RACE_ROUNDS * unit;
            //@ ghost dpsel_lemma_product_monotonic(unit, 1048576, high);
            //@ assert product_small: high * unit <= DPSEL_RACE_ROUNDS * 1048576;
            *draw = high * unit + low;
            return DPSEL_OK;
        }
    }
    return DPSEL_EUNLIKELY;
}

int dpsel_core_coin_wide_scaled(dpsel_rng *rng, const dpsel_decay *decay, uint64_t t,
                                uint64_t scale, int *heads)
{
    /* beta^t = w^high * beta^rest with t = high * 2^top + rest, rest < 2^top:
     * high coins of w, the least likely first, then the table's coin; each
     * coin takes as much of the scale as its leading zeros allow. */
    unsigned top = decay->npowers - 1;
    //@ ghost dpsel_lemma_pow2_shift();
    uint64_t unit = (uint64_t)1 << top;  /* divisions by it compile to shifts */
    //@ assert unit == pow2(top) && unit >= 1;
    uint64_t high = t / unit;
    uint64_t rest = t % unit;
    /*@ loop invariant 0 <= i <= high;
        loop assigns i, scale, *rng;
        loop variant high - i;
    */
    for (uint64_t i = 0; i < high; i++) {
        uint64_t lead = decay->powers[top].lead;
        uint64_t shift = scale < lead ? scale : lead;
        scale -= shift;
        int coin;
        int rc = dpsel_core_coin_dyadic_scaled(rng, &decay->powers[top], shift, &coin);
        if (rc != DPSEL_OK) {
            return rc;
        }
        if (!coin) {
            *heads = 0;
            return DPSEL_OK;
        }
    }
    return dpsel_core_coin_power_scaled(rng, decay->powers, top, rest, scale, heads);
}

/* The candidate ties with the leader (or, with none, reaches the floor 0:
 * it is kept for sure): it becomes the kept one with probability
 * 1 / (number tied), which keeps the choice uniform. */
/*@ requires writable: writable_apart(rng, race);
    requires tied: race->ties <= candidate + 1 && candidate < DPSEL_MAX_CANDIDATES;
    assigns *rng, race->ties, race->chosen;
    ensures status: sampler_status(\result);
    ensures joined: \result == DPSEL_OK ==> race->ties == \old(race->ties) + 1;
    ensures stepped: stepped_after{Pre, Post}(\result, race, candidate);
*/
static int join_tie(dpsel_rng *rng, dpsel_race *race, uint64_t candidate)
{
    uint64_t ties = race->ties + 1;
    uint64_t draw;
    int rc = dpsel_core_uniform(rng, ties, &draw);
    if (rc != DPSEL_OK) {
        return rc;
    }
    race->ties = ties;
    if (draw == 0) {
        race->chosen = candidate;
    }
    return DPSEL_OK;
}

/* The candidate's noise exceeds the leader's threshold (or with no leader
 * the floor's, its gap) by excess: a tie at 0, else a new leader at
 * value + excess. */
/*@ requires decay: race_decay(decay);
    requires writable: writable_apart(rng, race);
    requires apart: decay_apart(decay, rng) && decay_apart(decay, race);
    requires candidate: candidate_index(candidate);
    requires state: race_state(race, decay, candidate + 1);
    assigns *rng, race->value, race->ties, race->chosen;
    ensures status: sampler_status(\result);
    ensures next_state: race_state_after(\result, race, decay, candidate + 2);
    ensures stepped: stepped_after{Pre, Post}(\result, race, candidate);
    ensures rises: rises_after{Pre, Post}(\result, race);
*/
static int settle(dpsel_rng *rng, const dpsel_decay *decay, dpsel_race *race,
                  uint64_t excess, uint64_t candidate)
{
    if (excess == 0) {
        return join_tie(rng, race, candidate);
    }
    //@ ghost dpsel_lemma_pow2_shift();
    //@ assert pow2(decay->npowers - 1) <= pow2(20) == 1048576;
    int64_t limit = (int64_t)DPSEL_RACE_ROUNDS << (decay->npowers - 1);
    //@ assert limit == race_limit(decay->npowers) <= 4294967296;
    /* A new leader, at value + excess; beyond the limit only with
     * probability below 2^-4096 (spec/mechanisms.md §10). */
    if (excess >= (uint64_t)(limit - race->value)) {
        return DPSEL_EUNLIKELY;
    }
    race->value += (int64_t)excess;
    race->ties = 1;
    race->chosen = candidate;
    return DPSEL_OK;
}

int dpsel_core_race_reached(dpsel_rng *rng, const dpsel_decay *decay, dpsel_race *race,
                            uint64_t candidate)
{
    uint64_t excess;
    int rc = dpsel_core_geometric(rng, decay, &excess);
    if (rc != DPSEL_OK) {
        return rc;
    }
    return settle(rng, decay, race, excess, candidate);
}

int dpsel_core_race_step(dpsel_rng *rng, const dpsel_decay *decay, dpsel_race *race,
                         uint64_t gap, uint64_t candidate)
{
    //@ ghost dpsel_lemma_pow2_shift();
    //@ assert pow2(decay->npowers - 1) <= pow2(20) == 1048576;
    //@ assert decay->cap < pow2(decay->npowers) <= pow2(21) == 2097152;
    uint64_t noise;
    int rc;
    if (race->ties == 0) {
        rc = dpsel_core_geometric(rng, decay, &noise);
        if (rc != DPSEL_OK) {
            return rc;
        }
        race->value = (int64_t)noise - (int64_t)gap;
        race->ties = 1;
        race->chosen = candidate;
        return DPSEL_OK;
    }
    /* The candidate reaches the leader iff G >= threshold. */
    int64_t threshold = race->value + (int64_t)gap;
    if (threshold > 0) {
        int heads;
        rc = dpsel_core_coin_wide(rng, decay, (uint64_t)threshold, &heads);
        if (rc != DPSEL_OK || !heads) {
            return rc;
        }
        return dpsel_core_race_reached(rng, decay, race, candidate);
    }
    rc = dpsel_core_geometric(rng, decay, &noise);
    if (rc != DPSEL_OK) {
        return rc;
    }
    //@ assert 0 <= -threshold <= decay->cap < 2097152;
    //@ assert noise < race_limit(decay->npowers) <= 4294967296;
    return settle(rng, decay, race, noise + (uint64_t)(-threshold), candidate);
}

int dpsel_core_pf_race(dpsel_rng *rng, const dpsel_decay *decay,
                       const int64_t *scores, size_t n, size_t *index)
{
    int64_t best = scores[dpsel_core_argmax(scores, n)];
    dpsel_race race = { 0, 0, 0 };
    /*@ loop invariant 0 <= i <= n;
        loop invariant race_state(&race, decay, i + 1);
        loop invariant fresh: i == 0 ==> race.ties == 0 && race.chosen == 0;
        loop invariant led: i > 0 ==> race.ties >= 1 && race.chosen < i;
        loop assigns i, race, *rng;
        loop variant n - i;
    */
    for (size_t i = 0; i < n; i++) {
        uint64_t gap = dpsel_core_clamped_gap(best, scores[i], decay->cap);
        int rc = dpsel_core_race_step(rng, decay, &race, gap, i);
        if (rc != DPSEL_OK) {
            return rc;
        }
    }
    *index = (size_t)race.chosen;
    return DPSEL_OK;
}
