/* SPDX-License-Identifier: ISC */
/*
 * Dyadic probabilities and decay tables (src/core/core.h): when they can be
 * read, and that nothing a sampler writes overlaps them.  Definitions only.
 */
#ifndef DPSEL_SPEC_DYADIC_H
#define DPSEL_SPEC_DYADIC_H

/*@ // the stored digits of a dyadic can be read: words[0 .. ceil(ndigits / 64) - 1]
    predicate valid_dyadic{L}(dpsel_dyadic *t) =
        \valid_read(t) &&
        (t->ndigits > 0 ==> \valid_read(t->words + (0 .. (t->ndigits - 1) / 64)));

    // a decay table: npowers readable dyadics, and every clamped gap (<= cap)
    // has its set bits among the first npowers
    predicate valid_decay{L}(dpsel_decay *d) =
        \valid_read(d) && d->npowers <= 64 && d->cap < pow2(d->npowers) &&
        \valid_read(d->powers + (0 .. d->npowers - 1)) &&
        (\forall integer i; 0 <= i < d->npowers ==> valid_dyadic(d->powers + i));

    // a decay table the race form of PF can use: a unit 2^(npowers - 1) of
    // at most 2^20 (whether the top power is below 1/2 matters only for
    // how often DPSEL_EUNLIKELY comes, not for safety)
    predicate race_decay{L}(dpsel_decay *d) =
        valid_decay(d) && 1 <= d->npowers <= DPSEL_RACE_MAX_POWERS;

    // powers whose leading zeros each fit in one read of the random source
    // (dpsel_internal_rng_bits): at most 63
    predicate short_leads{L}(dpsel_dyadic *powers, integer npowers) =
        \forall integer i; 0 <= i < npowers ==> powers[i].lead <= 63;

    // npowers readable dyadics, the powers of a coin beta^g
    predicate valid_powers{L}(dpsel_dyadic *powers, integer npowers) =
        0 <= npowers <= 64 && \valid_read(powers + (0 .. npowers - 1)) &&
        (\forall integer i; 0 <= i < npowers ==> valid_dyadic(powers + i));
*/

/* "X apart from p": what a function reads of the dyadic, the powers or the
 * decay table X (structs and digits) does not overlap the locations p it
 * writes.  ACSL overloads each predicate on the type of p; every overload
 * has the same body. */
/*@ predicate digits_apart{L}(dpsel_dyadic *t, dpsel_rng *p) =
        \separated(p, t, t->words + (0 .. (t->ndigits - 1) / 64));
    predicate digits_apart{L}(dpsel_dyadic *t, int *p) =
        \separated(p, t, t->words + (0 .. (t->ndigits - 1) / 64));
    predicate digits_apart{L}(dpsel_dyadic *t, unsigned *p) =
        \separated(p, t, t->words + (0 .. (t->ndigits - 1) / 64));
    predicate digits_apart{L}(dpsel_dyadic *t, uint64_t *p) =
        \separated(p, t, t->words + (0 .. (t->ndigits - 1) / 64));
    predicate digits_apart{L}(dpsel_dyadic *t, dpsel_race *p) =
        \separated(p, t, t->words + (0 .. (t->ndigits - 1) / 64));
    predicate digits_apart{L}(dpsel_dyadic *t, uint64_t *p, integer count) =
        \separated(p + (0 .. count - 1), t, t->words + (0 .. (t->ndigits - 1) / 64));
    predicate powers_apart{L}(dpsel_dyadic *powers, integer npowers, dpsel_rng *p) =
        \forall integer i; 0 <= i < npowers ==> digits_apart(powers + i, p);
    predicate powers_apart{L}(dpsel_dyadic *powers, integer npowers, int *p) =
        \forall integer i; 0 <= i < npowers ==> digits_apart(powers + i, p);
    predicate powers_apart{L}(dpsel_dyadic *powers, integer npowers, unsigned *p) =
        \forall integer i; 0 <= i < npowers ==> digits_apart(powers + i, p);
    predicate powers_apart{L}(dpsel_dyadic *powers, integer npowers, uint64_t *p) =
        \forall integer i; 0 <= i < npowers ==> digits_apart(powers + i, p);
    predicate powers_apart{L}(dpsel_dyadic *powers, integer npowers, dpsel_race *p) =
        \forall integer i; 0 <= i < npowers ==> digits_apart(powers + i, p);
    predicate powers_apart{L}(dpsel_dyadic *powers, integer npowers, uint64_t *p, integer count) =
        \forall integer i; 0 <= i < npowers ==> digits_apart(powers + i, p, count);
    predicate decay_apart{L}(dpsel_decay *d, dpsel_rng *p) =
        \separated(p, d) && powers_apart(d->powers, d->npowers, p);
    predicate decay_apart{L}(dpsel_decay *d, int *p) =
        \separated(p, d) && powers_apart(d->powers, d->npowers, p);
    predicate decay_apart{L}(dpsel_decay *d, unsigned *p) =
        \separated(p, d) && powers_apart(d->powers, d->npowers, p);
    predicate decay_apart{L}(dpsel_decay *d, uint64_t *p) =
        \separated(p, d) && powers_apart(d->powers, d->npowers, p);
    predicate decay_apart{L}(dpsel_decay *d, dpsel_race *p) =
        \separated(p, d) && powers_apart(d->powers, d->npowers, p);
    predicate decay_apart{L}(dpsel_decay *d, uint64_t *p, integer count) =
        \separated(p + (0 .. count - 1), d) && powers_apart(d->powers, d->npowers, p, count);

    // the powers' fields and digits at L are those at K (a frame, for the
    // writes of a call that leaves them alone)
    predicate powers_kept{K, L}(dpsel_dyadic *powers, integer npowers) =
        \forall integer k; 0 <= k < npowers ==>
            \at(powers[k].lead, L) == \at(powers[k].lead, K) &&
            \at(powers[k].ndigits, L) == \at(powers[k].ndigits, K) &&
            \at(powers[k].words, L) == \at(powers[k].words, K) &&
            \forall integer w; 0 <= w <= (\at(powers[k].ndigits, K) - 1) / 64 ==>
                \at(powers[k].words[w], L) == \at(powers[k].words[w], K);

    // a power coin beta^g: npowers readable powers with g's bits among them,
    // the source and the coin's side to write, apart from each other and
    // from the powers
    predicate power_coin_call{L}(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                                 integer g, int *heads) =
        valid_powers(powers, npowers) && g < pow2(npowers) &&
        \valid(rng) && \valid(heads) && \separated(rng, heads) &&
        powers_apart(powers, npowers, rng) && powers_apart(powers, npowers, heads);
*/

#endif
