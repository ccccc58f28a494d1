/* SPDX-License-Identifier: ISC */
/* Permute-and-flip as a race of geometric noise (race.c,
 * spec/mechanisms.md §10), and the coins it is made of. */
#ifndef DPSEL_CORE_RACE_H
#define DPSEL_CORE_RACE_H

#include "core.h"

/* 1 if the race can use the decay table (core.h), else 0. */
/*@ requires decay: valid_decay(decay);
    assigns \nothing;
    ensures flag: zero_or_one(\result);
    ensures race: \result == 1 ==> race_decay(decay);
*/
int dpsel_core_race_applies(const dpsel_decay *decay);

/* One round of dpsel_core_coin_odds: a fair bit 0 gives *outcome 0
 * (probability 1/2); a 1 followed by a coin w heads gives 1 (w/2); else
 * DPSEL_ODDS_AGAIN.  *outcome may be written on failure. */
#define DPSEL_ODDS_AGAIN 2u
/*@ requires odds: valid_dyadic(w);
    requires writable: \valid(rng) && \valid(outcome) && \separated(rng, outcome);
    requires apart: digits_apart(w, rng) && digits_apart(w, outcome);
    assigns *rng, *outcome;
    ensures status: random_status(\result);
    ensures outcome: \result == DPSEL_OK ==> *outcome <= DPSEL_ODDS_AGAIN;
*/
int dpsel_core_odds_round(dpsel_rng *rng, const dpsel_dyadic *w, unsigned *outcome);

/* A coin with P(heads) = w / (1 + w): rounds of a fair bit and a coin w.
 * DPSEL_EUNLIKELY after DPSEL_REJECTION_ROUNDS rounds (each ends with
 * probability >= 1/2). */
/*@ requires call: coin_call(rng, w, heads);
    assigns *rng, *heads;
    ensures status: sampler_status(\result);
    ensures flipped: flipped(\result, *heads);
*/
int dpsel_core_coin_odds(dpsel_rng *rng, const dpsel_dyadic *w, int *heads);

/* count independent binary digits: digit i (weight 2^i) is 1 with
 * probability w_i / (1 + w_i), w_i = powers[i] (dpsel_core_coin_odds), from
 * the highest down.  With powers[i] = a^(2^i), *value has P(*value = v)
 * proportional to a^v on [0, 2^count). */
/*@ requires powers: valid_powers(powers, count) && count <= DPSEL_RACE_MAX_POWERS;
    requires writable: writable_apart(rng, value);
    requires apart: powers_apart(powers, count, rng) && powers_apart(powers, count, value);
    assigns *rng, *value;
    ensures status: sampler_status(\result);
    ensures digits: digits_drawn(\result, *value, count);
*/
int dpsel_core_odds_digits(dpsel_rng *rng, const dpsel_dyadic *powers, unsigned count,
                           uint64_t *value);

/* A geometric draw: P(*draw >= k) = beta^k, from the binary digits below
 * 2^top (independent coins) and a high part (coins of beta^(2^top)).
 * DPSEL_EUNLIKELY if the high part reaches DPSEL_RACE_ROUNDS. */
/*@ requires decay: race_decay(decay);
    requires writable: \valid(rng) && \valid(draw) && \separated(rng, draw);
    requires apart: decay_apart(decay, rng) && decay_apart(decay, draw);
    assigns *rng, *draw;
    ensures status: sampler_status(\result);
    ensures draw: \result == DPSEL_OK ==> *draw < race_limit(decay->npowers);
*/
int dpsel_core_geometric(dpsel_rng *rng, const dpsel_decay *decay, uint64_t *draw);

/* A coin with P(heads) = beta^t 2^scale for any t: t >> top coins of
 * beta^(2^top), then dpsel_core_coin_power_scaled on the rest, the scale
 * taken off the leading zeros of the coins in that order.  The scale must be
 * at most dpsel_core_lead_bound(decay, t) (thin.h); at scale 0 any t goes,
 * and for t = 0 the coin is certain. */
/*@ requires decay: race_decay(decay);
    requires writable: \valid(rng) && \valid(heads) && \separated(rng, heads);
    requires apart: decay_apart(decay, rng) && decay_apart(decay, heads);
    assigns *rng, *heads;
    ensures status: random_status(\result);
    ensures flipped: flipped(\result, *heads);
*/
int dpsel_core_coin_wide_scaled(dpsel_rng *rng, const dpsel_decay *decay, uint64_t t,
                                uint64_t scale, int *heads);

/* The coin beta^t: the wide coin at scale 0. */
#define dpsel_core_coin_wide(rng, decay, t, heads) \
    dpsel_core_coin_wide_scaled(rng, decay, t, 0, heads)

/* Adds one candidate, of clamped gap g' = gap, to the race: it joins the
 * leader (a tie), overtakes it, or drops out.  The state stays within
 * race_state (seen counts the candidate raced first, if any, so at most
 * candidate + 1 came before); DPSEL_EUNLIKELY if a noisy value passes
 * race_limit. */
/*@ requires decay: race_decay(decay);
    requires writable: writable_apart(rng, race);
    requires apart: decay_apart(decay, rng) && decay_apart(decay, race);
    requires candidate: gap <= decay->cap && candidate < DPSEL_MAX_CANDIDATES;
    requires state: race_state(race, decay, candidate + 1);
    assigns *rng, *race;
    ensures status: sampler_status(\result);
    ensures next_state: race_state_after(\result, race, decay, candidate + 2);
    ensures stepped: stepped_after{Pre, Post}(\result, race, candidate);
*/
int dpsel_core_race_step(dpsel_rng *rng, const dpsel_decay *decay, dpsel_race *race,
                         uint64_t gap, uint64_t candidate);

/* The candidate is known to reach the leader's value, or with no leader
 * the floor 0 (its noise G is at least the threshold value + gap): G minus
 * the threshold is geometric again, so a fresh draw says whether it ties or
 * leads, as in dpsel_core_race_step. */
/*@ requires decay: race_decay(decay);
    requires writable: writable_apart(rng, race);
    requires apart: decay_apart(decay, rng) && decay_apart(decay, race);
    requires candidate: candidate_index(candidate);
    requires state: race_state(race, decay, candidate + 1);
    assigns *rng, *race;
    ensures status: sampler_status(\result);
    ensures next_state: race_state_after(\result, race, decay, candidate + 2);
    ensures stepped: stepped_after{Pre, Post}(\result, race, candidate);
    ensures rises: rises_after{Pre, Post}(\result, race);
*/
int dpsel_core_race_reached(dpsel_rng *rng, const dpsel_decay *decay, dpsel_race *race,
                            uint64_t candidate);

/* Permute-and-flip as the plain race: every candidate in index order
 * through dpsel_core_race_step, no scratch memory; the same distribution as
 * dpsel_core_pf (spec/mechanisms.md §10).  The reference for the thinned
 * race (thin.h) and for the streaming PF. */
/*@ requires call: sampler_call(rng, decay, scores, n, index);
    requires race: race_decay(decay);
    assigns *rng, *index;
    ensures sampled: sampled(\result, *index, \old(*index), n);
*/
int dpsel_core_pf_race(dpsel_rng *rng, const dpsel_decay *decay,
                       const int64_t *scores, size_t n, size_t *index);

#endif
