/* SPDX-License-Identifier: ISC */
/* Exact Bernoulli coins with dyadic probabilities (coin.c). */
#ifndef DPSEL_CORE_COIN_H
#define DPSEL_CORE_COIN_H

#include "core.h"

/* A coin with P(heads) = t exactly: compares fresh random bits with the
 * digits of t from the top; the first difference decides (2 bits expected).
 * *heads is 1 or 0.  DPSEL_OK or DPSEL_ERANDOM. */
/*@ requires call: coin_call(rng, t, heads);
    assigns *rng, *heads;
    ensures status: random_status(\result);
    ensures flipped: flipped(\result, *heads);
    ensures stream: \result == DPSEL_OK && \old(coin_ready(rng, t, 0)) ==>
            coin_flipped_ref{Pre, Here}(rng, t, 0, *heads);
*/
int dpsel_core_coin_dyadic(dpsel_rng *rng, const dpsel_dyadic *t, int *heads);

/* The coin t 2^scale, for scale <= t->lead: the coin of t with scale
 * fewer zeros after the point. */
/*@ requires call: coin_call(rng, t, heads);
    requires scale: scale <= t->lead;
    assigns *rng, *heads;
    ensures status: random_status(\result);
    ensures flipped: flipped(\result, *heads);
    ensures stream: \result == DPSEL_OK && \old(coin_ready(rng, t, scale)) ==>
            coin_flipped_ref{Pre, Here}(rng, t, scale, *heads);
*/
int dpsel_core_coin_dyadic_scaled(dpsel_rng *rng, const dpsel_dyadic *t, uint64_t scale,
                                  int *heads);

/* The coin beta^g 2^scale, 0 <= g < 2^npowers, where powers[i] =
 * beta^(2^i), for a scale no larger than the sum of the leads (zeros after
 * the point) of the powers of g's set bits: the AND of the coins for the set
 * bits of g, from the highest (least likely) down, each with some of the
 * scale taken off its leading zeros, stopping at the first tails.  For g = 0
 * the coin is certain: heads without reading a bit. */
/*@ requires powers: valid_powers(powers, npowers) && g < pow2(npowers);
    requires writable: \valid(rng) && \valid(heads) && \separated(rng, heads);
    requires apart: powers_apart(powers, npowers, rng) && powers_apart(powers, npowers, heads);
    assigns *rng, *heads;
    ensures status: random_status(\result);
    ensures stream: \result == DPSEL_OK && \old(power_ready(rng, powers, npowers)) ==>
            power_flipped_ref{Pre, Here}(rng, powers, npowers, g, scale, *heads);
    behavior certain:
      assumes g == 0;
      ensures heads: certain_heads(\result, *heads);
    behavior random:
      assumes g != 0;
      ensures flipped: flipped(\result, *heads);
    complete behaviors;
    disjoint behaviors;
*/
int dpsel_core_coin_power_scaled(dpsel_rng *rng, const dpsel_dyadic *powers,
                                 unsigned npowers, uint64_t g, uint64_t scale, int *heads);

/* The coin with P(heads) = beta^g exactly: the scaled coin at scale 0. */
#define dpsel_core_coin_power(rng, powers, npowers, g, heads) \
    dpsel_core_coin_power_scaled(rng, powers, npowers, g, 0, heads)

/* The same coin as dpsel_core_coin_power, in a fixed pattern for the
 * hardened samplers: a coin for powers[i] at every i < npowers, from the
 * highest down, whatever g; a coin whose bit of g is clear is flipped and
 * ignored.  The bits read are distributed alike for every g
 * (spec/timing.md), and the result is combined without a branch on g, so
 * the contract does not split on g either. */
/*@ requires powers: valid_powers(powers, npowers) && g < pow2(npowers);
    requires writable: \valid(rng) && \valid(heads) && \separated(rng, heads);
    requires apart: powers_apart(powers, npowers, rng) && powers_apart(powers, npowers, heads);
    assigns *rng, *heads;
    ensures status: random_status(\result);
    ensures flipped: flipped(\result, *heads);
    ensures certain: g == 0 ==> certain_heads(\result, *heads);
    ensures stream: \result == DPSEL_OK && \old(power_ready(rng, powers, npowers)) ==>
            power_fixed_flipped_ref{Pre, Here}(rng, powers, npowers, g, *heads);
*/
int dpsel_core_coin_power_fixed(dpsel_rng *rng, const dpsel_dyadic *powers,
                                unsigned npowers, uint64_t g, int *heads);

/* The same coin as dpsel_core_coin_power_scaled, beta^g 2^scale, in a
 * fixed pattern for the hardened samplers: for every i < npowers, from the
 * highest down, powers[i]->lead bits and a coin for the power's digits
 * after its zeros, whatever g and scale; a factor whose bit of g is clear
 * is flipped and ignored.  The bits read are distributed alike for every g
 * and scale (spec/timing.md).  Needs leads of at most 63 bits. */
/*@ requires powers: valid_powers(powers, npowers) && g < pow2(npowers);
    requires writable: \valid(rng) && \valid(heads) && \separated(rng, heads);
    requires apart: powers_apart(powers, npowers, rng) && powers_apart(powers, npowers, heads);
    requires leads: short_leads(powers, npowers);
    assigns *rng, *heads;
    ensures status: random_status(\result);
    ensures flipped: flipped(\result, *heads);
    ensures stream: \result == DPSEL_OK && \old(power_ready(rng, powers, npowers)) ==>
            scaled_fixed_flipped_ref{Pre, Here}(rng, powers, npowers, g, scale, *heads);
*/
int dpsel_core_coin_power_scaled_fixed(dpsel_rng *rng, const dpsel_dyadic *powers,
                                       unsigned npowers, uint64_t g, uint64_t scale,
                                       int *heads);

#endif
