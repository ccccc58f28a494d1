/* SPDX-License-Identifier: ISC */
/*
 * The hardened exponential mechanism by levels (spec/timing.md §4): the
 * trials of EM by levels (spec/mechanisms.md §12), with work that does not
 * depend on the scores.  Where EM by levels branches on a gap, draws a
 * uniform integer below a total or stops at the first kept trial, this
 * module compares with every level, reads a fixed number of random bits and
 * runs every trial, and combines the outcomes by arithmetic.
 */
#include "em_levels_hardened.h"

#include "coin.h"
#include "em_levels.h"
#include "gap.h"

/* The count holds the gaps of COUNT_BLOCK candidates at a time in 16 bits,
 * padded with NO_LEVEL, so that each level is compared with a short array
 * (which compilers vectorise). */
#define COUNT_BLOCK 256u
#define NO_LEVEL 0xffffu

/* How many uniform draws a member may take (each falls in range with
 * probability above 1/2). */
#define MEMBER_DRAWS (2u * DPSEL_REJECTION_ROUNDS)

/* The gaps of candidates start .. start + len - 1 in gaps[0 .. len - 1],
 * NO_LEVEL in the rest of the block. */
/*@ requires scores: valid_scores(scores, n) && scores_at_most(scores, n, best);
    requires span: 1 <= len <= COUNT_BLOCK && start + len <= n;
    requires cap: cap < NO_LEVEL;
    requires writable: \valid(gaps + (0 .. COUNT_BLOCK - 1)) &&
                       \separated(gaps + (0 .. COUNT_BLOCK - 1), scores + (0 .. n - 1));
    assigns gaps[0 .. COUNT_BLOCK - 1];
    ensures levels: \forall integer j; 0 <= j < len ==> gaps[j] <= cap;
    ensures padding: \forall integer j; len <= j < COUNT_BLOCK ==> gaps[j] == NO_LEVEL;
*/
static void block_gaps(const int64_t *scores, int64_t best, uint64_t cap, size_t start,
                       size_t len, uint16_t *gaps) /*@ ghost (size_t n) */
{
    /*@ loop invariant 0 <= j <= COUNT_BLOCK;
        loop invariant \forall integer k; 0 <= k < j && k < len ==> gaps[k] <= cap;
        loop invariant \forall integer k; len <= k < j ==> gaps[k] == NO_LEVEL;
        loop assigns j, gaps[0 .. COUNT_BLOCK - 1];
        loop variant COUNT_BLOCK - j;
    */
    for (size_t j = 0; j < COUNT_BLOCK; j++) {
        gaps[j] = j < len ? (uint16_t)dpsel_core_clamped_gap(best, scores[start + j], cap)
                          : (uint16_t)NO_LEVEL;
    }
}

void dpsel_core_em_levels_count_hardened(const dpsel_decay *decay, const int64_t *scores,
                                         size_t n, int64_t best, uint64_t *levels)
{
    uint64_t cap = decay->cap;
    dpsel_core_levels_clear(levels, cap);
    uint16_t gaps[COUNT_BLOCK];
    /*@ loop invariant 0 <= done <= n;
        loop invariant \forall integer k; 0 <= k <= cap ==> levels[k] <= done;
        loop assigns done, gaps[0 .. COUNT_BLOCK - 1], levels[0 .. cap];
        loop variant n - done;
    */
    for (size_t done = 0; done < n;) {
        size_t len = n - done < COUNT_BLOCK ? n - done : COUNT_BLOCK;
        block_gaps(scores, best, cap, done, len, gaps) /*@ ghost (n) */;
        /* Four levels per sweep of the block, in 16-bit counts (eight gaps
         * per SSE2 lane, one load for the four comparisons); the counts of
         * levels above the cap are not used. */
        /*@ loop invariant 0 <= h <= cap + 4;
            loop invariant \forall integer k; 0 <= k < h && k <= cap ==> levels[k] <= done + len;
            loop invariant \forall integer k; h <= k <= cap ==> levels[k] <= done;
            loop assigns h, levels[0 .. cap];
            loop variant cap + 4 - h;
        */
        for (uint64_t h = 0; h <= cap; h += 4) {
            uint16_t level0 = (uint16_t)h;
            uint16_t level1 = (uint16_t)(h + 1);
            uint16_t level2 = (uint16_t)(h + 2);
            uint16_t level3 = (uint16_t)(h + 3);
            uint16_t same0 = 0, same1 = 0, same2 = 0, same3 = 0;
            /*@ loop invariant 0 <= j <= COUNT_BLOCK;
                loop invariant same0 <= j && same0 <= len;
                loop invariant same1 <= j && same1 <= len;
                loop invariant same2 <= j && same2 <= len;
                loop invariant same3 <= j && same3 <= len;
                loop assigns j, same0, same1, same2, same3;
                loop variant COUNT_BLOCK - j;
            */
            for (size_t j = 0; j < COUNT_BLOCK; j++) {
                uint16_t gap = gaps[j];
                //@ assert padding: j >= len ==> gap == NO_LEVEL;
                same0 = (uint16_t)(same0 + (gap == level0));
                same1 = (uint16_t)(same1 + (gap == level1));
                same2 = (uint16_t)(same2 + (gap == level2));
                same3 = (uint16_t)(same3 + (gap == level3));
            }
            levels[h] += same0;
            if (h + 1 <= cap) {
                levels[h + 1] += same1;
            }
            if (h + 2 <= cap) {
                levels[h + 2] += same2;
            }
            if (h + 3 <= cap) {
                levels[h + 3] += same3;
            }
        }
        done += len;
    }
}

/* The smallest 2^k - 1 at least bound - 1, by 64 doublings that stop
 * growing once they pass it: arithmetic alike for every bound. */
/*@ requires bound: 1 <= bound;
    assigns \nothing;
    ensures covers: bound - 1 <= \result;
*/
static uint64_t draw_mask(uint64_t bound)
{
    uint64_t mask = 0;
    //@ ghost dpsel_lemma_pow2_shift();
    /*@ loop invariant 0 <= k <= 64;
        loop invariant mask <= pow2(k) - 1;
        loop invariant bound - 1 <= mask || mask == pow2(k) - 1;
        loop assigns k, mask;
        loop variant 64 - k;
    */
    for (unsigned k = 0; k < 64; k++) {
        //@ assert pow2(k + 1) == 2 * pow2(k);
        mask = dpsel_core_choose_u64(mask < bound - 1, mask, 2 * mask + 1);
    }
    return mask;
}

/* width random bits under mask: uniform in [0, mask] when mask < 2^width
 * is 2^k - 1. */
/*@ requires writable: \valid(rng) && \valid(drawn) && \separated(rng, drawn);
    requires width: draw_width(width);
    assigns *rng, *drawn;
    ensures status: random_status(\result);
*/
static int draw_masked(dpsel_rng *rng, unsigned width, uint64_t mask, uint64_t *drawn)
{
    uint64_t bits;
    int rc = dpsel_internal_rng_bits(rng, width, &bits);
    if (rc == DPSEL_OK) {
        *drawn = bits & mask;
    }
    return rc;
}

int dpsel_core_em_level_trial_hardened(dpsel_rng *rng, const dpsel_decay *decay,
                                       const uint64_t *levels, unsigned envelope,
                                       unsigned width, uint64_t mask, uint64_t *level,
                                       int *kept)
{
    uint64_t cap = decay->cap;
    uint64_t drawn;
    int rc = draw_masked(rng, width, mask, &drawn);
    if (rc != DPSEL_OK) {
        return rc;
    }
    /* The levels whose running sums the draw reaches: the proposed level is
     * the next one, when the draw is below the total. */
    uint64_t passed = 0;
    /*@ loop invariant 0 <= h <= cap + 1;
        loop invariant passed <= h;
        loop assigns h, passed;
        loop variant cap + 1 - h;
    */
    for (uint64_t h = 0; h <= cap; h++) {
        passed += levels[h] <= drawn;
    }
    unsigned inside = passed <= cap;
    uint64_t g = dpsel_core_choose_u64(inside, cap, passed);
    uint64_t exponent = dpsel_core_level_exponent(decay, g, envelope);
    int coin;
    //@ assert g < pow2(decay->npowers);
    rc = dpsel_core_coin_power_scaled_fixed(rng, decay->powers, decay->npowers, g, exponent,
                                            &coin);
    if (rc != DPSEL_OK) {
        return rc;
    }
    //@ assert side: coin == 0 || coin == 1;
    //@ assert inside == 0 || inside == 1;
    *level = g;
    *kept = (int)(inside * (unsigned)coin);
    return DPSEL_OK;
}

/* The number of candidates of level g: its running sum less the one below,
 * in units of 2^(envelope - e_g), both sums read by a pass over every
 * level. */
/*@ requires decay: levels_decay(decay, envelope);
    requires levels: level_sums(levels, decay->cap);
    requires level: g <= decay->cap;
    assigns \nothing;
*/
static uint64_t level_members(const dpsel_decay *decay, const uint64_t *levels,
                              unsigned envelope, uint64_t g)
{
    uint64_t at = 0;
    uint64_t under = 0;
    /*@ loop invariant 0 <= h <= decay->cap + 1;
        loop invariant h > g ==> at == levels[g];
        loop invariant g >= 1 && h > g - 1 ==> under == levels[g - 1];
        loop invariant g == 0 ==> under == 0;
        loop assigns h, at, under;
        loop variant decay->cap + 1 - h;
    */
    for (uint64_t h = 0; h <= decay->cap; h++) {
        at = dpsel_core_choose_u64(h == g, at, levels[h]);
        under = dpsel_core_choose_u64(h + 1 == g, under, levels[h]);
    }
    //@ assert under <= at;
    unsigned shift = envelope - (unsigned)dpsel_core_level_exponent(decay, g, envelope);
    return (at - under) >> shift;
}

/* A uniform member rank below members (members - 1 < 2^width):
 * MEMBER_DRAWS draws under a mask, the first below members kept by a
 * branch-free scan. */
/*@ requires writable: \valid(rng) && \valid(member) && \separated(rng, member);
    requires width: draw_width(width);
    requires members: 1 <= members;
    assigns *rng, *member;
    ensures status: sampler_status(\result);
    ensures member: \result == DPSEL_OK ==> *member < members;
*/
static int draw_member(dpsel_rng *rng, unsigned width, uint64_t members, uint64_t *member)
{
    uint64_t mask = draw_mask(members);
    uint64_t chosen = 0;
    unsigned found = 0;
    /*@ loop invariant 0 <= draw <= MEMBER_DRAWS;
        loop invariant found == 0 || found == 1;
        loop invariant found == 1 ==> chosen < members;
        loop assigns draw, chosen, found, *rng;
        loop variant MEMBER_DRAWS - draw;
    */
    for (unsigned draw = 0; draw < MEMBER_DRAWS; draw++) {
        uint64_t drawn;
        int rc = draw_masked(rng, width, mask, &drawn);
        if (rc != DPSEL_OK) {
            return rc;
        }
        unsigned first = (unsigned)(drawn < members) > found;
        chosen = dpsel_core_choose_u64(first, chosen, drawn);
        found += first;
    }
    if (!found) {
        return DPSEL_EUNLIKELY;
    }
    *member = chosen;
    return DPSEL_OK;
}

/* The position of the member-th candidate (from 0) whose clamped gap is g,
 * by a pass over every score that keeps it with arithmetic. */
/*@ requires scores: valid_scores(scores, n) && scores_at_most(scores, n, best);
    requires decay: valid_decay(decay);
    requires writable: \valid(index) && \separated(index, scores + (0 .. n - 1), decay);
    assigns *index;
    ensures status: exact_status(\result);
    ensures released: released(\result, *index, \old(*index), n);
*/
static int find_member(const dpsel_decay *decay, const int64_t *scores, size_t n,
                       int64_t best, uint64_t g, uint64_t member, size_t *index)
{
    uint64_t rank = 0;
    uint64_t position = 0;
    unsigned found = 0;
    /*@ loop invariant 0 <= i <= n;
        loop invariant rank <= i && position < n;
        loop invariant found == 0 || found == 1;
        loop assigns i, rank, position, found;
        loop variant n - i;
    */
    for (size_t i = 0; i < n; i++) {
        unsigned same = dpsel_core_clamped_gap(best, scores[i], decay->cap) == g;
        unsigned take = same & (unsigned)(rank == member);
        position = dpsel_core_choose_u64(take, position, i);
        found |= take;
        rank += same;
    }
    if (!found) {
        return DPSEL_EINTERNAL;  /* the counts came from these scores */
    }
    *index = (size_t)position;
    return DPSEL_OK;
}

/* The level of the first of `trials` hardened level trials that keeps one,
 * all of them run; DPSEL_EUNLIKELY if none does. */
/*@ requires decay: levels_decay(decay, envelope) && short_leads(decay->powers, decay->npowers);
    requires levels: level_sums(levels, decay->cap);
    requires width: draw_width(width);
    requires writable: \valid(rng) && \valid(level);
    requires apart: \separated(rng, level, levels + (0 .. decay->cap), decay) &&
                    decay_apart(decay, rng) && decay_apart(decay, level);
    assigns *rng, *level;
    ensures status: sampler_status(\result);
    ensures level: level_after(\result, *level, decay->cap);
*/
static int keep_level(dpsel_rng *rng, const dpsel_decay *decay, const uint64_t *levels,
                      unsigned envelope, unsigned width, uint64_t mask, uint64_t trials,
                      uint64_t *level)
{
    uint64_t chosen = 0;
    unsigned found = 0;
    /*@ loop invariant 0 <= trial <= trials;
        loop invariant found == 0 || found == 1;
        loop invariant chosen <= decay->cap;
        loop assigns trial, chosen, found, *rng;
        loop variant trials - trial;
    */
    for (uint64_t trial = 0; trial < trials; trial++) {
        uint64_t g;
        int kept;
        //@ assert decay_kept: levels_decay(decay, envelope);
        //@ assert apart_rng_kept: decay_apart(decay, rng);
        int rc = dpsel_core_em_level_trial_hardened(rng, decay, levels, envelope, width, mask,
                                                    &g, &kept);
        if (rc != DPSEL_OK) {
            return rc;
        }
        unsigned first = (unsigned)kept > found;  /* this one, and none before */
        chosen = dpsel_core_choose_u64(first, chosen, g);
        found += first;
    }
    if (!found) {
        return DPSEL_EUNLIKELY;
    }
    *level = chosen;
    return DPSEL_OK;
}

/* A uniform member of the kept level, found in the scores. */
/*@ requires call: sampler_call(rng, decay, scores, n, index);
    requires best: scores_at_most(scores, n, best);
    requires decay: levels_decay(decay, envelope);
    requires levels: level_sums(levels, decay->cap) &&
                     \separated(levels + (0 .. decay->cap), rng, index);
    requires level: level <= decay->cap;
    requires width: draw_width(width);
    assigns *rng, *index;
    ensures status: checked_sampler_status(\result);
    ensures released: released(\result, *index, \old(*index), n);
*/
static int release_member(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                          size_t n, int64_t best, const uint64_t *levels, unsigned envelope,
                          unsigned width, uint64_t level, size_t *index)
{
    uint64_t members = level_members(decay, levels, envelope, level);
    if (members == 0) {
        return DPSEL_EINTERNAL;  /* a proposed level has members */
    }
    uint64_t member;
    int rc = draw_member(rng, width, members, &member);
    if (rc != DPSEL_OK) {
        return rc;
    }
    return find_member(decay, scores, n, best, level, member, index);
}

int dpsel_core_em_levels_hardened(dpsel_rng *rng, const dpsel_decay *decay,
                                  const int64_t *scores, size_t n, unsigned envelope,
                                  uint64_t trials, uint64_t *levels, size_t *index)
{
    int64_t best = dpsel_core_max_score(scores, n);
    /* The call's facts, once (as in dpsel_core_em). */
    //@ assert apart_index: decay_apart(decay, index);
    dpsel_core_em_levels_count_hardened(decay, scores, n, best, levels);
    int rc = dpsel_core_em_levels_sum(decay, envelope, levels) /*@ ghost (n) */;
    if (rc != DPSEL_OK) {
        return rc;
    }
    //@ assert apart_rng: decay_apart(decay, rng);
    /* The draws read a number of bits that n and the envelope fix: the
     * total is at most n 2^envelope, a member count at most n. */
    unsigned members_width = dpsel_core_bitlen((uint64_t)n);
    unsigned total_width = members_width + envelope > 63 ? 63 : members_width + envelope;
    uint64_t level;
    rc = keep_level(rng, decay, levels, envelope, total_width, draw_mask(levels[decay->cap]),
                    trials, &level);
    if (rc != DPSEL_OK) {
        return rc;
    }
    /* What release_member reads, one fact at a time. */
    //@ assert decay_kept: valid_decay(decay);
    //@ assert apart_rng_kept: decay_apart(decay, rng);
    //@ assert apart_index_kept: decay_apart(decay, index);
    //@ assert scores_kept: valid_scores(scores, n);
    //@ assert sums_kept: level_sums(levels, decay->cap);
    return release_member(rng, decay, scores, n, best, levels, envelope, members_width, level,
                          index);
}
