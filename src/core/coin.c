/* SPDX-License-Identifier: ISC */
/* Exact Bernoulli coins with dyadic probabilities. */
#include "coin.h"

#include "gap.h"

/*@ requires digit: \valid_read(t) && \valid_read(t->words + i / 64);
    assigns \nothing;
    ensures bit: \result <= 1;
    ensures digit: \result == digit(t, i);
*/
static unsigned digit_at(const dpsel_dyadic *t, uint64_t i)
{
    return (unsigned)((t->words[i / 64] >> (63 - i % 64)) & 1u);
}

int dpsel_core_coin_dyadic(dpsel_rng *rng, const dpsel_dyadic *t, int *heads)
{
    return dpsel_core_coin_dyadic_scaled(rng, t, 0, heads);
}

int dpsel_core_coin_dyadic_scaled(dpsel_rng *rng, const dpsel_dyadic *t, uint64_t scale,
                                  int *heads)
{
    /* Draw u = 0.u_0 u_1 ... uniform in [0, 1) bit by bit; heads iff u < t
     * 2^scale.  The first digit where u and t 2^scale differ decides; if u
     * matches every digit, then u >= t 2^scale.  The lead - scale zero
     * digits are read as one run: a 1 among them means u is larger. */
    uint64_t lead = t->lead - scale;
    uint64_t zeros;
    int rc = dpsel_internal_rng_zeros(rng, lead, &zeros);
    if (rc != DPSEL_OK) {
        return rc;
    }
    if (zeros < lead) {
        *heads = 0;
        return DPSEL_OK;
    }
    unsigned u;
    /* The digits are compared with the bits from lead on: the bits matched
     * so far leave the outcome to the rest. */
    /*@ loop invariant 0 <= i <= t->ndigits;
        loop invariant stream: \at(coin_ready(rng, t, scale), Pre) ==>
            cursor(rng) == cursor{Pre}(rng) + lead + i &&
            coin_ref(rng, t, scale, cursor{Pre}(rng)) == digits_ref(rng, t, cursor(rng), i) &&
            coin_end(rng, t, scale, cursor{Pre}(rng)) == digits_end(rng, t, cursor(rng), i);
        loop assigns i, u, rc, *rng;
        loop variant t->ndigits - i;
    */
    for (uint64_t i = 0; i < t->ndigits; i++) {
        rc = dpsel_internal_rng_bit(rng, &u);
        if (rc != DPSEL_OK) {
            return rc;
        }
        //@ assert i / 64 <= (t->ndigits - 1) / 64;
        unsigned d = digit_at(t, i);
        /*@ assert stream_bit: \at(coin_ready(rng, t, scale), Pre) ==>
                   u == rbit(rng, cursor(rng) - 1) && d == seen_digit(t, i) &&
                   i < seen_ndigits(t); */
        if (u != d) {
            *heads = u < d;
            return DPSEL_OK;
        }
        /*@ assert matched: \at(coin_ready(rng, t, scale), Pre) ==>
                   digits_ref(rng, t, cursor(rng) - 1, i) ==
                       digits_ref(rng, t, cursor(rng), i + 1) &&
                   digits_end(rng, t, cursor(rng) - 1, i) ==
                       digits_end(rng, t, cursor(rng), i + 1); */
    }
    *heads = 0;
    return DPSEL_OK;
}

int dpsel_core_coin_power_scaled(dpsel_rng *rng, const dpsel_dyadic *powers,
                                 unsigned npowers, uint64_t g, uint64_t scale, int *heads)
{
    /* beta^g 2^scale = prod over set bits i of g of beta^(2^i) 2^s_i, with
     * s_i <= lead_i adding up to scale: each factor is the power with s_i
     * fewer zeros after the point.  Independent coins. */
    //@ ghost dpsel_lemma_power_bits(powers, npowers);
    /* Powers i .. npowers - 1 are done, all heads: the outcome is that of
     * the rest, and the rest has room for its bits. */
    /*@ loop invariant 0 <= i <= npowers;
        loop invariant stream: \at(power_ready(rng, powers, npowers), Pre) ==>
            power_ref(rng, powers, g, \at(scale, Pre), npowers, cursor{Pre}(rng)) ==
                power_ref(rng, powers, g, scale, i, cursor(rng)) &&
            power_end(rng, powers, g, \at(scale, Pre), npowers, cursor{Pre}(rng)) ==
                power_end(rng, powers, g, scale, i, cursor(rng)) &&
            power_bits_left{Pre, Here}(rng, powers, npowers, i);
        loop assigns i, scale, *rng;
        loop variant i;
    */
    for (unsigned i = npowers; i > 0; i--) {
        /*@ ghost step: ; */
        if ((g >> (i - 1)) & 1u) {
            //@ assert g != 0;
            uint64_t shift = scale < powers[i - 1].lead ? scale : powers[i - 1].lead;
            /*@ assert seen: \at(power_ready(rng, powers, npowers), Pre) ==>
                       dyadic_seen(powers + (i - 1)); */
            /*@ assert counted: \at(power_ready(rng, powers, npowers), Pre) ==>
                       g_bit(g, i - 1) == 1 && shift == power_shift(powers + (i - 1), scale) &&
                       coin_ready(rng, powers + (i - 1), shift); */
            scale -= shift;
            int coin;
            int rc = dpsel_core_coin_dyadic_scaled(rng, &powers[i - 1], shift, &coin);
            if (rc != DPSEL_OK) {
                return rc;
            }
            if (!coin) {
                *heads = 0;
                return DPSEL_OK;
            }
            /*@ assert heads_coin: \at(power_ready(rng, powers, npowers), Pre) ==>
                       coin_ref(rng, powers + (i - 1), \at(shift, Here), \at(cursor(rng), step)) == 1 &&
                       cursor(rng) == coin_end(rng, powers + (i - 1), shift, \at(cursor(rng), step)); */
            /*@ assert heads_rest: \at(power_ready(rng, powers, npowers), Pre) ==>
                       power_ref(rng, powers, g, \at(scale, step), i, \at(cursor(rng), step)) ==
                           power_ref(rng, powers, g, scale, i - 1, cursor(rng)) &&
                       power_end(rng, powers, g, \at(scale, step), i, \at(cursor(rng), step)) ==
                           power_end(rng, powers, g, scale, i - 1, cursor(rng)); */
            /*@ assert heads_bits: \at(power_ready(rng, powers, npowers), Pre) ==>
                       power_bits_left{Pre, Here}(rng, powers, npowers, i - 1); */
        }
        /*@ assert rest: \at(power_ready(rng, powers, npowers), Pre) ==>
                   power_ref(rng, powers, g, \at(scale, step), i, \at(cursor(rng), step)) ==
                       power_ref(rng, powers, g, scale, i - 1, cursor(rng)) &&
                   power_end(rng, powers, g, \at(scale, step), i, \at(cursor(rng), step)) ==
                       power_end(rng, powers, g, scale, i - 1, cursor(rng)) &&
                   power_bits_left{Pre, Here}(rng, powers, npowers, i - 1); */
    }
    *heads = 1;
    return DPSEL_OK;
}

int dpsel_core_coin_power_fixed(dpsel_rng *rng, const dpsel_dyadic *powers,
                                unsigned npowers, uint64_t g, int *heads)
{
    /* The same product as dpsel_core_coin_power, but every coin is flipped:
     * a coin counts when its bit of g is set, and an ignored coin (bit clear)
     * is combined as heads, by arithmetic rather than a branch. */
    unsigned all_heads = 1;
    //@ ghost dpsel_lemma_power_bits(powers, npowers);
    /*@ loop invariant 0 <= i <= npowers;
        loop invariant all_heads == 0 || all_heads == 1;
        loop invariant g == 0 ==> all_heads == 1;
        loop invariant stream: \at(power_ready(rng, powers, npowers), Pre) ==>
            power_fixed_ref(rng, powers, g, npowers, cursor{Pre}(rng)) ==
                (all_heads == 1 ? power_fixed_ref(rng, powers, g, i, cursor(rng)) : 0) &&
            power_fixed_end(rng, powers, npowers, cursor{Pre}(rng)) ==
                power_fixed_end(rng, powers, i, cursor(rng)) &&
            power_bits_left{Pre, Here}(rng, powers, npowers, i);
        loop assigns i, all_heads, *rng;
        loop variant i;
    */
    for (unsigned i = npowers; i > 0; i--) {
        int coin;
        /*@ ghost step: ; */
        /*@ assert seen: \at(power_ready(rng, powers, npowers), Pre) ==>
                   dyadic_seen(powers + (i - 1)); */
        /*@ assert ready: \at(power_ready(rng, powers, npowers), Pre) ==>
                   coin_ready(rng, powers + (i - 1), 0); */
        int rc = dpsel_core_coin_dyadic(rng, &powers[i - 1], &coin);
        if (rc != DPSEL_OK) {
            return rc;
        }
        /*@ assert bits: \at(power_ready(rng, powers, npowers), Pre) ==>
                   power_bits_left{Pre, Here}(rng, powers, npowers, i - 1); */
        //@ assert side: coin == 0 || coin == 1;
        unsigned counts = dpsel_core_opaque((unsigned)((g >> (i - 1)) & 1u));
        //@ assert g == 0 ==> counts == 0;
        //@ assert counted: counts == 0 || counts == 1;
        unsigned factor = ((unsigned)coin & counts) | (1u - counts);  /* 1 if ignored */
        /* Case by case: the provers are slow on both flags at once. */
        //@ assert ignored: counts == 0 ==> factor == 1;
        //@ assert taken: counts == 1 ==> factor == coin;
        //@ assert factor: factor == 0 || factor == 1;
        /*@ assert factor_ref: \at(power_ready(rng, powers, npowers), Pre) ==>
                   factor == fixed_factor(rng, powers, g, i - 1, \at(cursor(rng), step)); */
        all_heads &= factor;
        /*@ assert rest: \at(power_ready(rng, powers, npowers), Pre) ==>
                   (\at(all_heads, step) == 1 ?
                        power_fixed_ref(rng, powers, g, i, \at(cursor(rng), step)) : 0) ==
                   (all_heads == 1 ? power_fixed_ref(rng, powers, g, i - 1, cursor(rng)) : 0) &&
                   power_fixed_end(rng, powers, i, \at(cursor(rng), step)) ==
                       power_fixed_end(rng, powers, i - 1, cursor(rng)); */
    }
    *heads = (int)all_heads;
    return DPSEL_OK;
}

int dpsel_core_coin_power_scaled_fixed(dpsel_rng *rng, const dpsel_dyadic *powers,
                                       unsigned npowers, uint64_t g, uint64_t scale,
                                       int *heads)
{
    /* The factors of dpsel_core_coin_power_scaled, beta^(2^i) 2^s_i for the
     * set bits i of g, each flipped as two independent parts whose bits read
     * do not depend on s_i: the lead_i next bits, of which the first
     * lead_i - s_i must be 0 (probability 2^-(lead_i - s_i)), and the coin
     * of the power's digits after its zeros (0.d_0 d_1 ...).  Every power's
     * factor is flipped; one whose bit of g is clear is ignored by
     * arithmetic. */
    unsigned all_heads = 1;
    //@ ghost dpsel_lemma_power_bits(powers, npowers);
    /*@ loop invariant 0 <= i <= npowers;
        loop invariant all_heads == 0 || all_heads == 1;
        loop invariant stream: \at(power_ready(rng, powers, npowers), Pre) ==>
            scaled_fixed_ref(rng, powers, g, \at(scale, Pre), npowers, cursor{Pre}(rng)) ==
                (all_heads == 1 ? scaled_fixed_ref(rng, powers, g, scale, i, cursor(rng)) : 0) &&
            scaled_fixed_end(rng, powers, npowers, cursor{Pre}(rng)) ==
                scaled_fixed_end(rng, powers, i, cursor(rng)) &&
            power_bits_left{Pre, Here}(rng, powers, npowers, i);
        loop assigns i, scale, all_heads, *rng;
        loop variant i;
    */
    for (unsigned i = npowers; i > 0; i--) {
        const dpsel_dyadic *power = &powers[i - 1];
        /*@ ghost step: ; */
        /*@ assert seen: \at(power_ready(rng, powers, npowers), Pre) ==> dyadic_seen(power); */
        unsigned counts = dpsel_core_opaque((unsigned)((g >> (i - 1)) & 1u));
        //@ assert counted: counts == 0 || counts == 1;
        uint64_t shift = dpsel_core_choose_u64(scale < power->lead, power->lead, scale);
        /*@ assert shift: \at(power_ready(rng, powers, npowers), Pre) ==>
                   shift == power_shift(power, scale); */
        scale -= dpsel_core_choose_u64(counts, 0, shift);
        uint64_t zeros;
        int rc = dpsel_internal_rng_bits(rng, (unsigned)power->lead, &zeros);
        if (rc != DPSEL_OK) {
            return rc;
        }
        /*@ assert ready: \at(power_ready(rng, powers, npowers), Pre) ==>
                   zeros == bits_value(rng, \at(cursor(rng), step), power->lead) &&
                   cursor(rng) == \at(cursor(rng), step) + power->lead &&
                   coin_ready(rng, power, power->lead); */
        int digits;
        rc = dpsel_core_coin_dyadic_scaled(rng, power, power->lead, &digits);
        if (rc != DPSEL_OK) {
            return rc;
        }
        //@ assert side: digits == 0 || digits == 1;
        /*@ assert next: \at(power_ready(rng, powers, npowers), Pre) ==>
                   cursor(rng) == scaled_next(rng, powers, i - 1, \at(cursor(rng), step)); */
        /*@ assert bits: \at(power_ready(rng, powers, npowers), Pre) ==>
                   power_bits_left{Pre, Here}(rng, powers, npowers, i - 1); */
        unsigned factor = (unsigned)((zeros >> shift) == 0) & (unsigned)digits;
        //@ assert factor: factor == 0 || factor == 1;
        unsigned counted = (factor & counts) | (1u - counts);  /* 1 if ignored */
        //@ assert ignored: counts == 0 ==> counted == 1;
        //@ assert taken: counts == 1 ==> counted == factor;
        /*@ assert left: \at(power_ready(rng, powers, npowers), Pre) ==>
                   scale == scaled_left(powers, g, \at(scale, step), i - 1); */
        /*@ assert factor_ref: \at(power_ready(rng, powers, npowers), Pre) ==>
                   counted == scaled_factor(rng, powers, g, \at(scale, step), i - 1,
                                            \at(cursor(rng), step)); */
        all_heads &= counted;
        /*@ assert rest: \at(power_ready(rng, powers, npowers), Pre) ==>
                   (\at(all_heads, step) == 1 ?
                        scaled_fixed_ref(rng, powers, g, \at(scale, step), i,
                                         \at(cursor(rng), step)) : 0) ==
                   (all_heads == 1 ?
                        scaled_fixed_ref(rng, powers, g, scale, i - 1, cursor(rng)) : 0) &&
                   scaled_fixed_end(rng, powers, i, \at(cursor(rng), step)) ==
                       scaled_fixed_end(rng, powers, i - 1, cursor(rng)); */
    }
    *heads = (int)all_heads;
    return DPSEL_OK;
}
