/* SPDX-License-Identifier: ISC */
/*
 * The race over the candidates PF's visits left (spec/mechanisms.md §11),
 * and over the stream's blocks, with block thinning (§13): the best
 * candidate first (or for the stream the floor of §10), then blocks in
 * index order.  Where even a block's largest score cannot come within k halvings
 * of the leader (beta^t <= 2^-k for every candidate), the block's coins are
 * drawn as a dominating coin 2^-k, found a piece at a time, and a thinning
 * coin only where it is heads: about one coin per block instead of one per
 * candidate, and exactly the race's law.
 */
#include "thin.h"

#include "coin.h"
#include "gap.h"
#include "race.h"

/* a + b, at most DPSEL_LEAD_BOUND_MAX. */
/*@ requires a <= DPSEL_LEAD_BOUND_MAX;
    assigns \nothing;
    ensures \result <= DPSEL_LEAD_BOUND_MAX;
*/
static uint64_t capped_add(uint64_t a, uint64_t b)
{
    return b >= DPSEL_LEAD_BOUND_MAX - a ? DPSEL_LEAD_BOUND_MAX : a + b;
}

uint64_t dpsel_core_lead_bound(const dpsel_decay *decay, uint64_t t)
{
    /* The coins of beta^t: high of beta^(2^top), one of beta^(2^i) for each
     * set bit i < top of t; each is below 2^-lead of its power. */
    unsigned top = decay->npowers - 1;
    uint64_t high = t >> top;
    uint64_t bound = 0;
    /*@ loop invariant 0 <= h <= high && bound <= DPSEL_LEAD_BOUND_MAX;
        loop assigns h, bound;
        loop variant high - h;
    */
    for (uint64_t h = 0; h < high && bound < DPSEL_LEAD_BOUND_MAX; h++) {
        bound = capped_add(bound, decay->powers[top].lead);
    }
    /*@ loop invariant 0 <= i <= top && bound <= DPSEL_LEAD_BOUND_MAX;
        loop assigns i, bound;
        loop variant top - i;
    */
    for (unsigned i = 0; i < top; i++) {
        if ((t >> i) & 1u) {
            bound = capped_add(bound, decay->powers[i].lead);
        }
    }
    return bound;
}

unsigned dpsel_core_thin_level(uint64_t k)
{
    if (k < DPSEL_THIN_MIN_K) {
        return DPSEL_THIN_LEVELS;
    }
    return k - DPSEL_THIN_MIN_K < DPSEL_THIN_LEVELS - 1 ? (unsigned)(k - DPSEL_THIN_MIN_K)
                                                       : DPSEL_THIN_LEVELS - 1;
}

/* Whether candidate i is out of this pass: the top (raced first) or
 * visited.  *next moves past the visited indices below i. */
/*@ requires visited: \valid_read(visited + (0 .. count - 1));
    requires next: \valid(next) && \separated(next, visited + (0 .. count - 1)) &&
                   *next <= count && \forall integer k; 0 <= k < *next ==> visited[k] < i;
    assigns *next;
    ensures next: *next <= count && \forall integer k; 0 <= k < *next ==> visited[k] < i;
    ensures flag: zero_or_one(\result);
    ensures other: \result == 0 ==> i != top;
*/
static int skipped(size_t i, size_t top, const uint64_t *visited, size_t count, size_t *next)
{
    /*@ loop invariant *next <= count && \forall integer k; 0 <= k < *next ==> visited[k] < i;
        loop assigns *next;
        loop variant count - *next;
    */
    while (*next < count && visited[*next] < i) {
        (*next)++;
    }
    return i == top || (*next < count && visited[*next] == i);
}

/* Candidates start .. start + len - 1 through dpsel_core_race_step, one by
 * one (those not skipped). */
/*@ requires call: pass_call(rng, decay, scores, n, visited, count, race, next);
    requires best: pass_scores(scores, n, best, first);
    requires span: span_within(start, len, n);
    requires state: pass_state(race, decay, n, first, start, visited, count, next);
    assigns *rng, *race, *next;
    ensures status: sampler_status(\result);
    ensures state: pass_state_after(\result, race, decay, n, first, start + len, visited, count,
                                    next);
*/
static int race_plainly(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                        int64_t best, size_t top, size_t first, const uint64_t *visited,
                        size_t count, dpsel_race *race, size_t *next, size_t start, size_t len)
    /*@ ghost (size_t n) */
{
    /*@ loop invariant start <= i <= start + len;
        loop invariant pass_state(race, decay, n, first, i, visited, count, next);
        loop assigns i, *rng, *race, *next;
        loop variant start + len - i;
    */
    for (size_t i = start; i < start + len; i++) {
        /* What race_step reads, one fact at a time (together they are slow). */
        //@ assert decay_kept: race_decay(decay);
        //@ assert apart_rng: decay_apart(decay, rng);
        //@ assert apart_race: decay_apart(decay, race);
        //@ assert apart_next: decay_apart(decay, next);
        if (skipped(i, top, visited, count, next)) {
            continue;
        }
        uint64_t gap = dpsel_core_clamped_gap(best, scores[i], decay->cap);
        int rc = dpsel_core_race_step(rng, decay, race, gap, first + i);
        if (rc != DPSEL_OK) {
            return rc;
        }
    }
    return DPSEL_OK;
}

/* The largest piece exponent j < npieces with 2^j <= room. */
/*@ requires range: 1 <= room && 1 <= npieces <= DPSEL_THIN_MAX_PIECES;
    assigns \nothing;
    ensures piece: \result < npieces && pow2(\result) <= room;
*/
static unsigned piece_exponent(uint64_t room, unsigned npieces)
{
    //@ ghost dpsel_lemma_pow2_shift();
    unsigned j = 0;
    /*@ loop invariant 0 <= j < npieces && pow2(j) <= room;
        loop assigns j;
        loop variant npieces - j;
    */
    while (j + 1 < npieces && ((uint64_t)2 << j) <= room) {
        //@ assert ((uint64_t)2 << j) == pow2(j + 1);
        j++;
    }
    return j;
}

/* Where a piece of a thinned span has its first dominating heads: the
 * piece is 2^j candidates (the largest that fits in room, j < npieces);
 * the coin none[j] = (1 - 2^-k)^(2^j) says it has none (*heads = 0, *tails
 * = 2^j), else dpsel_core_odds_digits gives the number of tails before the
 * first heads (*heads = 1, *tails < 2^j). */
/*@ requires level: thinning_level(none, npieces);
    requires room: 1 <= room;
    requires writable: \valid(rng) && \valid(tails) && \valid(heads) &&
                       \separated(rng, tails, heads) && powers_apart(none, npieces, rng) &&
                       powers_apart(none, npieces, tails) && powers_apart(none, npieces, heads);
    assigns *rng, *tails, *heads;
    ensures status: sampler_status(\result);
    ensures heads: \result == DPSEL_OK ==> zero_or_one(*heads);
    ensures found: \result == DPSEL_OK && *heads == 1 ==> *tails < room;
    ensures none: \result == DPSEL_OK && *heads == 0 ==> 1 <= *tails <= room;
*/
static int first_heads(dpsel_rng *rng, const dpsel_dyadic *none, unsigned npieces,
                       uint64_t room, uint64_t *tails, int *heads)
{
    unsigned j = piece_exponent(room, npieces);
    //@ ghost dpsel_lemma_pow2_shift();
    int empty;
    int rc = dpsel_core_coin_dyadic(rng, &none[j], &empty);
    if (rc != DPSEL_OK) {
        return rc;
    }
    *heads = !empty;
    if (empty) {
        *tails = (uint64_t)1 << j;
        return DPSEL_OK;
    }
    return dpsel_core_odds_digits(rng, none, j, tails);
}

/* The dominating coin of candidate `candidate` (score `score`) came up
 * heads: its thinning coin, beta^t 2^k for its threshold t >= bar, flipped
 * as two: beta^bar 2^k (the coin beta^bar with k of its leading zeros taken
 * off; the span's level makes k at most dpsel_core_lead_bound(bar)) and
 * beta^(t - bar).  On heads the candidate reaches the leader (or the floor). */
/*@ requires score: score <= best;
    requires decay: race_decay(decay);
    requires writable: \valid(rng) && \valid(race) && \separated(rng, race, decay);
    requires apart: decay_apart(decay, rng) && decay_apart(decay, race);
    requires candidate: candidate_index(candidate);
    requires state: race_state(race, decay, candidate + 1);
    requires bar: 0 < bar <= race->value + clamped(best, score, decay->cap);
    assigns *rng, *race;
    ensures status: sampler_status(\result);
    ensures state: race_state_after(\result, race, decay, candidate + 2);
    ensures kept: \result == DPSEL_OK ==>
            race->chosen == \old(race->chosen) || race->chosen == candidate;
    ensures rises: rises_after{Pre, Post}(\result, race);
*/
static int thin_candidate(dpsel_rng *rng, const dpsel_decay *decay, int64_t best,
                          int64_t score, dpsel_race *race, size_t candidate, int64_t bar,
                          uint64_t k)
{
    uint64_t gap = dpsel_core_clamped_gap(best, score, decay->cap);
    int64_t threshold = race->value + (int64_t)gap;
    //@ assert bar <= threshold;
    int heads;
    int rc = dpsel_core_coin_wide_scaled(rng, decay, (uint64_t)bar, k, &heads);
    if (rc != DPSEL_OK || !heads) {
        return rc;
    }
    //@ assert decay_kept: race_decay(decay);
    //@ assert apart_rng_kept: decay_apart(decay, rng);
    rc = dpsel_core_coin_wide(rng, decay, (uint64_t)(threshold - bar), &heads);
    if (rc != DPSEL_OK || !heads) {
        return rc;
    }
    return dpsel_core_race_reached(rng, decay, race, candidate);
}

/* A dominating heads at candidate p: its thinning coin (thin_candidate),
 * unless p is out of the pass (skipped). */
/*@ requires call: pass_call(rng, decay, scores, n, visited, count, race, next);
    requires best: pass_scores(scores, n, best, first);
    requires candidate: p < n;
    requires state: pass_state(race, decay, n, first, p, visited, count, next);
    requires bar: 0 < bar && under_bar(scores, best, top, race, decay, p, p + 1, bar);
    assigns *rng, *race, *next;
    ensures status: sampler_status(\result);
    ensures state: pass_state_after(\result, race, decay, n, first, p + 1, visited, count, next);
    ensures rises: rises_after{Pre, Post}(\result, race);
*/
static int thin_heads(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                      int64_t best, size_t top, size_t first, const uint64_t *visited,
                      size_t count, dpsel_race *race, size_t *next, size_t p, int64_t bar,
                      uint64_t k) /*@ ghost (size_t n) */
{
    if (skipped(p, top, visited, count, next)) {
        return DPSEL_OK;
    }
    return thin_candidate(rng, decay, best, scores[p], race, first + p, bar, k);
}

/* One piece of a thinned span, from *pos (< end): where its first
 * dominating heads is (first_heads), and the thinning coin there
 * (thin_heads).  *pos moves past the piece, or past that candidate. */
/*@ requires call: pass_call(rng, decay, scores, n, visited, count, race, next);
    requires level: thinning_level(none, npieces);
    requires level_apart: powers_apart(none, npieces, rng);
    requires best: pass_scores(scores, n, best, first);
    requires position: \valid(pos) && \separated(pos, rng) && \separated(pos, race) &&
                       \separated(pos, next) && \separated(pos, scores + (0 .. n - 1)) &&
                       \separated(pos, visited + (0 .. count - 1)) && decay_apart(decay, pos);
    requires span: *pos < end <= n;
    requires state: pass_state(race, decay, n, first, *pos, visited, count, next);
    requires bar: 0 < bar && under_bar(scores, best, top, race, decay, *pos, end, bar);
    assigns *rng, *race, *next, *pos;
    ensures status: sampler_status(\result);
    ensures moved: \result == DPSEL_OK ==> \old(*pos) < *pos <= end;
    ensures state: pass_state_after(\result, race, decay, n, first, *pos, visited, count, next);
    ensures bar: \result == DPSEL_OK ==>
            under_bar(scores, best, top, race, decay, *pos, end, bar);
*/
static int thin_piece(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                      int64_t best, size_t top, size_t first, const uint64_t *visited,
                      size_t count, dpsel_race *race, size_t *next, const dpsel_dyadic *none,
                      unsigned npieces, uint64_t k, int64_t bar, size_t end, size_t *pos)
    /*@ ghost (size_t n) */
{
    uint64_t tails;
    int heads;
    int rc = first_heads(rng, none, npieces, end - *pos, &tails, &heads);
    if (rc != DPSEL_OK) {
        return rc;
    }
    if (!heads) {
        /* The state and the bar at the new position, before the write. */
        //@ assert moved_state: pass_state(race, decay, n, first, *pos + tails, visited, count, next);
        //@ assert moved_bar: under_bar(scores, best, top, race, decay, *pos + tails, end, bar);
        *pos += (size_t)tails;
        return DPSEL_OK;
    }
    size_t p = *pos + (size_t)tails;
    /* What thin_heads reads, one fact at a time (together they time out). */
    //@ assert decay_kept: race_decay(decay);
    //@ assert apart_rng: decay_apart(decay, rng);
    //@ assert apart_race: decay_apart(decay, race);
    //@ assert apart_next: decay_apart(decay, next);
    //@ assert visited_kept: visited_set(visited, count, n);
    rc = thin_heads(rng, decay, scores, best, top, first, visited, count, race, next, p,
                    bar, k) /*@ ghost (n) */;
    if (rc != DPSEL_OK) {
        return rc;
    }
    /* The state and the bar past p, before the write. */
    //@ assert next_state: pass_state(race, decay, n, first, p + 1, visited, count, next);
    //@ assert next_bar: under_bar(scores, best, top, race, decay, p + 1, end, bar);
    *pos = p + 1;
    return DPSEL_OK;
}

/* Candidates start .. start + len - 1, whose thresholds stay at least bar,
 * by thinning with dominating coins 2^-k, piece by piece (thin_piece). */
/*@ requires call: pass_call(rng, decay, scores, n, visited, count, race, next);
    requires level: thinning_level(none, npieces);
    requires level_apart: powers_apart(none, npieces, rng) && powers_apart(none, npieces, race) &&
                          powers_apart(none, npieces, next);
    requires best: pass_scores(scores, n, best, first);
    requires span: span_within(start, len, n);
    requires state: pass_state(race, decay, n, first, start, visited, count, next);
    requires bar: 0 < bar && under_bar(scores, best, top, race, decay, start, start + len, bar);
    assigns *rng, *race, *next;
    ensures status: sampler_status(\result);
    ensures state: pass_state_after(\result, race, decay, n, first, start + len, visited, count,
                                    next);
*/
static int race_thinned(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                        int64_t best, size_t top, size_t first, const uint64_t *visited,
                        size_t count, dpsel_race *race, size_t *next, const dpsel_dyadic *none,
                        unsigned npieces, uint64_t k, int64_t bar, size_t start, size_t len)
    /*@ ghost (size_t n) */
{
    size_t end = start + len;
    size_t pos = start;
    /* The position apart from the decay table, once: the frame goals of
     * the loop need it and take long to find it. */
    //@ assert position_apart: decay_apart(decay, &pos);
    /*@ loop invariant start <= pos <= end;
        loop invariant pass_state(race, decay, n, first, pos, visited, count, next);
        loop invariant under_bar(scores, best, top, race, decay, pos, end, bar);
        loop invariant race_apart: decay_apart(decay, race);
        loop assigns pos, *rng, *race, *next;
        loop variant end - pos;
    */
    while (pos < end) {
        /* What thin_piece reads, one fact at a time (together they time out). */
        //@ assert decay_kept: race_decay(decay);
        //@ assert apart_rng: decay_apart(decay, rng);
        //@ assert apart_race: decay_apart(decay, race);
        //@ assert apart_next: decay_apart(decay, next);
        //@ assert visited_kept: visited_set(visited, count, n);
        //@ assert level_kept: valid_powers(none, npieces) && powers_apart(none, npieces, rng);
        int rc = thin_piece(rng, decay, scores, best, top, first, visited, count, race, next,
                            none, npieces, k, bar, end, &pos) /*@ ghost (n) */;
        if (rc != DPSEL_OK) {
            return rc;
        }
    }
    return DPSEL_OK;
}

/* The largest of scores[from .. to - 1]: a plain loop the compiler can
 * unroll (dpsel_core_max_score is branch-free for the hardened samplers,
 * and slower). */
/*@ requires scores: from < to && \valid_read(scores + (from .. to - 1));
    assigns \nothing;
    ensures largest: \forall integer i; from <= i < to ==> scores[i] <= \result;
    ensures attained: \exists integer i; from <= i < to && scores[i] == \result;
*/
static int64_t span_max(const int64_t *scores, size_t from, size_t to)
{
    int64_t best = scores[from];
    size_t i = from + 1;
    /* Four at a time, as a tree: the chain of comparisons through best is
     * a quarter as long (a pass at about the speed of reading). */
    /*@ loop invariant from + 1 <= i <= to;
        loop invariant \forall integer k; from <= k < i ==> scores[k] <= best;
        loop invariant \exists integer k; from <= k < i && scores[k] == best;
        loop assigns i, best;
        loop variant to - i;
    */
    while (to - i >= 4) {
        int64_t first = scores[i] > scores[i + 1] ? scores[i] : scores[i + 1];
        int64_t second = scores[i + 2] > scores[i + 3] ? scores[i + 2] : scores[i + 3];
        int64_t four = first > second ? first : second;
        best = four > best ? four : best;
        i += 4;
    }
    /*@ loop invariant from + 1 <= i <= to;
        loop invariant \forall integer k; from <= k < i ==> scores[k] <= best;
        loop invariant \exists integer k; from <= k < i && scores[k] == best;
        loop assigns i, best;
        loop variant to - i;
    */
    for (; i < to; i++) {
        best = scores[i] > best ? scores[i] : best;
    }
    return best;
}

/* The largest score of candidates start .. start + len - 1 other than top
 * (raced first), if any (*found). */
/*@ requires scores: span_scores(scores, start, len);
    requires writable: \valid(found) && \separated(found, scores + (start .. start + len - 1));
    assigns *found;
    ensures found: zero_or_one(*found);
    ensures none: *found == 0 ==> start == top && len == 1;
    ensures largest: *found == 1 ==>
            \forall integer i; start <= i < start + len && i != top ==> scores[i] <= \result;
    ensures attained: *found == 1 ==>
            \exists integer i; start <= i < start + len && i != top && scores[i] == \result;
*/
static int64_t largest_but_top(const int64_t *scores, size_t top, size_t start, size_t len,
                               int *found)
{
    size_t end = start + len;
    if (top < start || top >= end) {
        *found = 1;
        return span_max(scores, start, end);
    }
    *found = top > start || top + 1 < end;
    if (top == start) {
        return top + 1 == end ? 0 : span_max(scores, top + 1, end);
    }
    int64_t below = span_max(scores, start, top);
    if (top + 1 == end) {
        return below;
    }
    int64_t above = span_max(scores, top + 1, end);
    return below > above ? below : above;
}

/* The thinning level of candidates start .. start + len - 1 (but top) in
 * the race's state, and their bar: the threshold of their largest score.
 * No level (DPSEL_THIN_LEVELS) if the bar's bound is below DPSEL_THIN_MIN_K
 * or no candidate is left. */
/*@ requires scores: span_scores(scores, start, len);
    requires decay: race_decay(decay);
    requires best: \forall integer i; start <= i < start + len ==> scores[i] <= best;
    requires race: \valid_read(race) && -decay->cap <= race->value < race_limit(decay->npowers);
    requires writable: \valid(bar) && \separated(bar, race) && \separated(bar, decay) &&
                       \separated(bar, scores + (start .. start + len - 1));
    assigns *bar;
    ensures level: thin_level_or_none(\result);
    ensures bar: \result < DPSEL_THIN_LEVELS ==>
            0 < *bar && under_bar(scores, best, top, race, decay, start, start + len, *bar);
*/
static unsigned span_level(const dpsel_decay *decay, const int64_t *scores, int64_t best,
                           size_t top, const dpsel_race *race, size_t start, size_t len,
                           int64_t *bar)
{
    int found;
    int64_t largest = largest_but_top(scores, top, start, len, &found);
    if (!found) {
        return DPSEL_THIN_LEVELS;
    }
    //@ assert largest <= best;
    uint64_t gap = dpsel_core_clamped_gap(best, largest, decay->cap);
    //@ assert gap == clamped(best, largest, decay->cap);
    *bar = race->value + (int64_t)gap;
    if (*bar <= 0) {
        return DPSEL_THIN_LEVELS;
    }
    return dpsel_core_thin_level(dpsel_core_lead_bound(decay, (uint64_t)*bar));
}

/* Whether len candidates are thinned at this level as one piece: a level
 * takes pieces of at most 2^(level + 1) positions, a coin each, so a low
 * level on a long span (a candidate near the leader with the rest far
 * below) would cost a coin per few candidates; such a span is better split,
 * unless its level's pieces are long enough (DPSEL_THIN_WHOLE_LEVEL) that its
 * coins cost less than reading its scores again. */
#define DPSEL_THIN_WHOLE_LEVEL 6u
#define DPSEL_THIN_PIECES_MAX 4u
/*@ assigns \nothing;
    ensures thinned: \result != 0 ==> level < DPSEL_THIN_LEVELS;
*/
static int thinned_whole(unsigned level, size_t len)
{
    if (level >= DPSEL_THIN_LEVELS) {
        return 0;
    }
    return level >= DPSEL_THIN_WHOLE_LEVEL || (len >> (level + 1)) <= DPSEL_THIN_PIECES_MAX;
}

/* A block of candidates start .. start + len - 1 in pieces: the whole block
 * first; a piece thinned whole (thinned_whole) makes the next one twice as
 * long, a piece with a candidate near the leader is halved, down to one
 * candidate, which is thinned or raced plainly.  A lone near candidate then costs about
 * two coins per halving around it (2 log2(len)) instead of a coin for each
 * candidate of its sub-block and one for each other sub-block. */
/*@ requires call: pass_call(rng, decay, scores, n, visited, count, race, next);
    requires thinning: valid_thinning(thinning) && thinning_apart(thinning, rng) &&
                       thinning_apart(thinning, race) && thinning_apart(thinning, next);
    requires best: pass_scores(scores, n, best, first);
    requires span: span_within(start, len, n);
    requires state: pass_state(race, decay, n, first, start, visited, count, next);
    assigns *rng, *race, *next;
    ensures status: sampler_status(\result);
    ensures state: pass_state_after(\result, race, decay, n, first, start + len, visited, count,
                                    next);
*/
static int race_block(dpsel_rng *rng, const dpsel_decay *decay, const dpsel_thinning *thinning,
                      const int64_t *scores, int64_t best, size_t top, size_t first,
                      const uint64_t *visited, size_t count, dpsel_race *race, size_t *next,
                      size_t start, size_t len) /*@ ghost (size_t n) */
{
    size_t end = start + len;
    size_t sub = start;
    size_t piece = len;  /* the whole block first */
    /*@ loop invariant start <= sub <= end && 1 <= piece <= 2 * len;
        loop invariant pass_state(race, decay, n, first, sub, visited, count, next);
        loop assigns sub, piece, *rng, *race, *next;
        loop variant 3 * (end - sub) + piece;
    */
    while (sub < end) {
        if (piece > end - sub) {
            piece = end - sub;
        }
        /* What both racers read, one fact at a time (as in race_rest). */
        //@ assert decay_kept: race_decay(decay);
        //@ assert apart_rng: decay_apart(decay, rng);
        //@ assert apart_race: decay_apart(decay, race);
        //@ assert apart_next: decay_apart(decay, next);
        //@ assert visited_kept: visited_set(visited, count, n);
        //@ assert pass: pass_call(rng, decay, scores, n, visited, count, race, next);
        int64_t bar;
        unsigned level = span_level(decay, scores, best, top, race, sub, piece, &bar);
        int whole = thinned_whole(level, piece);
        if (!whole && piece > 1) {
            piece /= 2;
            continue;
        }
        int rc;
        if (level < DPSEL_THIN_LEVELS) {
            /* The level's table apart from what race_thinned writes, one
             * fact at a time (together they time out). */
            //@ assert level_apart_rng: powers_apart(thinning->levels[level], level + 2, rng);
            //@ assert level_apart_race: powers_apart(thinning->levels[level], level + 2, race);
            //@ assert level_apart_next: powers_apart(thinning->levels[level], level + 2, next);
            rc = race_thinned(rng, decay, scores, best, top, first, visited, count, race, next,
                              thinning->levels[level], level + 2,
                              DPSEL_THIN_MIN_K + level, bar, sub, piece) /*@ ghost (n) */;
        } else {
            rc = race_plainly(rng, decay, scores, best, top, first, visited, count, race, next,
                              sub, piece) /*@ ghost (n) */;
        }
        if (rc != DPSEL_OK) {
            return rc;
        }
        sub += piece;
        piece *= 2;
    }
    return DPSEL_OK;
}

/* Candidates start .. start + len - 1, block by block (race_block) in
 * blocks of DPSEL_RACE_BLOCK. */
/*@ requires call: pass_call(rng, decay, scores, n, visited, count, race, next);
    requires thinning: valid_thinning(thinning) && thinning_apart(thinning, rng) &&
                       thinning_apart(thinning, race) && thinning_apart(thinning, next);
    requires best: pass_scores(scores, n, best, first);
    requires span: span_within(start, len, n);
    requires state: pass_state(race, decay, n, first, start, visited, count, next);
    assigns *rng, *race, *next;
    ensures status: sampler_status(\result);
    ensures state: pass_state_after(\result, race, decay, n, first, start + len, visited, count,
                                    next);
*/
static int race_blocks(dpsel_rng *rng, const dpsel_decay *decay, const dpsel_thinning *thinning,
                       const int64_t *scores, int64_t best, size_t top, size_t first,
                       const uint64_t *visited, size_t count, dpsel_race *race, size_t *next,
                       size_t start, size_t len) /*@ ghost (size_t n) */
{
    size_t end = start + len;
    /*@ loop invariant start <= block <= end;
        loop invariant pass_state(race, decay, n, first, block, visited, count, next);
        loop assigns block, *rng, *race, *next;
        loop variant end - block;
    */
    for (size_t block = start; block < end;) {
        size_t block_len = end - block < DPSEL_RACE_BLOCK ? end - block : DPSEL_RACE_BLOCK;
        /* The call's facts one at a time (together they time out). */
        //@ assert decay_kept: race_decay(decay);
        //@ assert apart_rng: decay_apart(decay, rng);
        //@ assert apart_race: decay_apart(decay, race);
        //@ assert apart_next: decay_apart(decay, next);
        //@ assert visited_kept: visited_set(visited, count, n);
        //@ assert pass: pass_call(rng, decay, scores, n, visited, count, race, next);
        //@ assert thinning_valid: valid_thinning(thinning);
        //@ assert thinning_apart_rng: thinning_apart(thinning, rng);
        //@ assert thinning_apart_race: thinning_apart(thinning, race);
        //@ assert thinning_apart_next: thinning_apart(thinning, next);
        int rc = race_block(rng, decay, thinning, scores, best, top, first, visited, count,
                            race, next, block, block_len) /*@ ghost (n) */;
        if (rc != DPSEL_OK) {
            return rc;
        }
        block += block_len;
    }
    return DPSEL_OK;
}

size_t dpsel_core_race_span(size_t n)
{
    /* DPSEL_RACE_SPANS spans of `blocks` blocks hold n candidates. */
    size_t blocks = (n + DPSEL_RACE_SPANS * DPSEL_RACE_BLOCK - 1) /
                    (DPSEL_RACE_SPANS * DPSEL_RACE_BLOCK);
    return (blocks == 0 ? 1 : blocks) * DPSEL_RACE_BLOCK;
}

size_t dpsel_core_top_and_maxima(const int64_t *scores, size_t n, size_t span, int64_t *maxima)
{
    size_t best = 0;        /* the first span with the largest maximum so far */
    size_t best_start = 0;  /* its first candidate */
    size_t s = 0;
    /*@ loop invariant position: 0 <= s <= DPSEL_RACE_SPANS && start == s * span;
        loop invariant done: \forall integer t; 0 <= t < s ==>
                (\forall integer i; t * span <= i < t * span + span && i < n ==>
                    scores[i] <= maxima[t]) &&
                (\exists integer i; t * span <= i < t * span + span && i < n &&
                    scores[i] == maxima[t]);
        loop invariant best: s > 0 ==> best < s && best_start == best * span;
        loop invariant largest: \forall integer i; 0 <= i < start && i < n ==>
                scores[i] <= maxima[best];
        loop assigns s, start, best, best_start, maxima[0 .. DPSEL_RACE_SPANS - 1];
        loop variant n - start;
    */
    for (size_t start = 0; start < n; start += span, s++) {
        //@ ghost dpsel_lemma_span_index(s, span, n);
        size_t end = n - start < span ? n : start + span;
        maxima[s] = span_max(scores, start, end);
        if (s == 0 || maxima[s] > maxima[best]) {
            best = s;
            best_start = start;
        }
    }
    /* The first candidate of the best span with its largest score. */
    size_t top = best_start;
    /*@ loop invariant best_start <= top < n;
        loop invariant \exists integer i; top <= i < best_start + span && i < n &&
                       scores[i] == maxima[best];
        loop assigns top;
        loop variant best_start + span - top;
    */
    while (scores[top] != maxima[best]) {
        top++;
    }
    return top;
}

/* A span of whole blocks, candidates start .. start + len - 1, none above
 * largest: thinned as a whole if it does not hold top and its bar allows,
 * else block by block (race_blocks). */
/*@ requires call: pass_call(rng, decay, scores, n, visited, count, race, next);
    requires thinning: valid_thinning(thinning) && thinning_apart(thinning, rng) &&
                       thinning_apart(thinning, race) && thinning_apart(thinning, next);
    requires top: best_at(scores, n, top);
    requires span: span_within(start, len, n);
    requires largest: (\forall integer i; start <= i < start + len ==> scores[i] <= largest) &&
                      (\exists integer i; start <= i < start + len && scores[i] == largest);
    requires state: pass_state(race, decay, n, 0, start, visited, count, next);
    assigns *rng, *race, *next;
    ensures status: sampler_status(\result);
    ensures state: \result == DPSEL_OK ==>
            pass_state(race, decay, n, 0, start + len, visited, count, next);
*/
static int race_span(dpsel_rng *rng, const dpsel_decay *decay, const dpsel_thinning *thinning,
                     const int64_t *scores, size_t top, int64_t largest,
                     const uint64_t *visited, size_t count, dpsel_race *race, size_t *next,
                     size_t start, size_t len) /*@ ghost (size_t n) */
{
    if (top < start || top >= start + len) {
        //@ assert largest <= scores[top];
        uint64_t gap = dpsel_core_clamped_gap(scores[top], largest, decay->cap);
        //@ assert gap == clamped(scores[top], largest, decay->cap);
        int64_t bar = race->value + (int64_t)gap;
        unsigned level = bar > 0
            ? dpsel_core_thin_level(dpsel_core_lead_bound(decay, (uint64_t)bar))
            : DPSEL_THIN_LEVELS;
        if (thinned_whole(level, len)) {
            /* The level's table apart from what race_thinned writes, one
             * fact at a time (together they time out). */
            //@ assert level_apart_rng: powers_apart(thinning->levels[level], level + 2, rng);
            //@ assert level_apart_race: powers_apart(thinning->levels[level], level + 2, race);
            //@ assert level_apart_next: powers_apart(thinning->levels[level], level + 2, next);
            return race_thinned(rng, decay, scores, scores[top], top, 0, visited, count, race,
                                next, thinning->levels[level], level + 2,
                                DPSEL_THIN_MIN_K + level, bar, start, len) /*@ ghost (n) */;
        }
    }
    return race_blocks(rng, decay, thinning, scores, scores[top], top, 0, visited, count, race,
                       next, start, len) /*@ ghost (n) */;
}

int dpsel_core_race_rest(dpsel_rng *rng, const dpsel_decay *decay,
                         const dpsel_thinning *thinning, const int64_t *scores, size_t n,
                         size_t top, const int64_t *maxima, size_t span,
                         const uint64_t *visited, size_t count, size_t *index)
{
    /* The best candidate first: its value G >= 0 is the bar every later
     * threshold starts from (a low early bar would make many coins likely). */
    dpsel_race race = { 0, 0, 0 };
    int rc = dpsel_core_race_step(rng, decay, &race, 0, top);
    if (rc != DPSEL_OK) {
        return rc;
    }
    size_t next = 0;
    /* The locals apart from the decay table, once: the frame goals of the
     * loop need it and take long to find it. */
    //@ assert race_apart: decay_apart(decay, &race);
    //@ assert next_apart: decay_apart(decay, &next);
    size_t s = 0;
    /*@ loop invariant 0 <= start <= n && (start < n ==> start == s * span);
        loop invariant pass_state(&race, decay, n, 0, start, visited, count, &next);
        loop assigns s, start, next, race, rc, *rng;
        loop variant n - start;
    */
    for (size_t start = 0; start < n; s++) {
        //@ ghost dpsel_lemma_span_index(s, span, n);
        size_t len = n - start < span ? n - start : span;
        /* The call's facts one at a time (together they time out). */
        //@ assert decay_kept: race_decay(decay);
        //@ assert apart_rng: decay_apart(decay, rng);
        //@ assert apart_race: decay_apart(decay, &race);
        //@ assert apart_next: decay_apart(decay, &next);
        //@ assert visited_kept: visited_set(visited, count, n);
        //@ assert pass: pass_call(rng, decay, scores, n, visited, count, &race, &next);
        //@ assert thinning_valid: valid_thinning(thinning);
        //@ assert thinning_apart_rng: thinning_apart(thinning, rng);
        //@ assert thinning_apart_race: thinning_apart(thinning, &race);
        //@ assert thinning_apart_next: thinning_apart(thinning, &next);
        rc = race_span(rng, decay, thinning, scores, top, maxima[s], visited, count, &race,
                       &next, start, len) /*@ ghost (n) */;
        if (rc != DPSEL_OK) {
            return rc;
        }
        start += len;
    }
    *index = (size_t)race.chosen;
    return DPSEL_OK;
}

int dpsel_core_race_more(dpsel_rng *rng, const dpsel_decay *decay,
                         const dpsel_thinning *thinning, const int64_t *scores, size_t n,
                         int64_t best, size_t first, dpsel_race *race)
{
    /* No candidate is skipped: top is past them all, and none is visited. */
    size_t none = DPSEL_MAX_CANDIDATES;
    size_t next = 0;
    //@ assert next_apart: decay_apart(decay, &next);
    return race_blocks(rng, decay, thinning, scores, best, none, first, NULL, 0, race, &next, 0,
                       n) /*@ ghost (n) */;
}
