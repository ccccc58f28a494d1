/*
 * The verified core of dpsel: everything between the random bits and the
 * released index.  Pure integer C: no I/O, no allocation, no MPFR, no
 * floating point.  Each function has its ACSL contract here; the proofs
 * (make proofs) check the definitions against them with Frama-C WP.  The
 * logic definitions are in spec/logic.h, the assumed contract of the random
 * source in spec/trusted.h.
 */
#ifndef DPSEL_CORE_H
#define DPSEL_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "dpsel.h"

/* Largest n the samplers take: keeps every index and count far from
 * overflow (2^62 candidates of 8 bytes could not be in memory anyway). */
#define DPSEL_MAX_CANDIDATES ((size_t)1 << 62)

/* Bound on the rounds of every rejection loop: a round succeeds with
 * probability >= 1/2 (uniform) or >= 1/n per trial over n trials (EM), so
 * running out has probability below 2^-128 for a sound random source. */
#define DPSEL_REJECTION_ROUNDS 128u

/* A dyadic rational t in (0, 1) given by its binary digits:
 * t = 2^-lead * 0.d_0 d_1 ... d_{ndigits-1}, where digit d_i is bit
 * (63 - i % 64) of words[i / 64].  The stored digits may end in zeros. */
typedef struct {
    const uint64_t *words;
    uint64_t ndigits;
    uint64_t lead;
} dpsel_dyadic;

/* The decay table a sampler needs: powers[i] = beta^(2^i) for i < npowers,
 * and gaps are clamped at cap < 2^npowers. */
typedef struct {
    const dpsel_dyadic *powers;
    unsigned npowers;
    uint64_t cap;
} dpsel_decay;

/* The race form of PF (src/core/race.c, spec/mechanisms.md §10) needs a
 * decay table of 1 to DPSEL_RACE_MAX_POWERS powers (a unit 2^top <= 2^20)
 * whose top power beta^(2^top) is below 1/2.  A geometric draw has a high
 * part below DPSEL_RACE_ROUNDS: each more unit halves its probability, so
 * the bound is passed with probability below 2^-4096. */
#define DPSEL_RACE_MAX_POWERS 21u
#define DPSEL_RACE_ROUNDS 4096u

/* The race after the candidates seen so far: the leader's noisy value
 * minus the best score, how many candidates share it, and the one kept
 * among them (uniformly).  ties == 0 before the first candidate. */
typedef struct {
    int64_t value;
    uint64_t ties;
    uint64_t chosen;
} dpsel_race;

/* EM by levels (src/core/em_levels.c, spec/mechanisms.md §12) takes decay
 * tables of at most DPSEL_LEVELS_MAX_POWERS powers (gap caps below 2^13:
 * a scratch of at most 2^13 words), and its running sums stay at most
 * DPSEL_LEVELS_TOTAL_MAX (the largest range of dpsel_core_uniform). */
#define DPSEL_LEVELS_MAX_POWERS 13u
#define DPSEL_LEVELS_TOTAL_MAX ((uint64_t)1 << 63)

#include "trusted.h"
#include "logic.h"

/* Index of a largest score (the first one). */
/*@ requires 1 <= n;
    requires \valid_read(scores + (0 .. n - 1));
    assigns \nothing;
    ensures 0 <= \result < n;
    ensures \forall integer i; 0 <= i < n ==> scores[i] <= scores[\result];
    ensures \forall integer i; 0 <= i < \result ==> scores[i] < scores[\result];
*/
size_t dpsel_core_argmax(const int64_t *scores, size_t n);

/* min(best - score, cap), computed without overflow for all int64 values. */
/*@ requires score <= best;
    assigns \nothing;
    ensures \result == (best - score <= cap ? best - score : cap);
*/
uint64_t dpsel_core_clamped_gap(int64_t best, int64_t score, uint64_t cap);

/* v, through an empty assembly statement the optimiser cannot see through
 * (spec/timing.md; under Frama-C the statement is left out). */
/*@ assigns \nothing;
    ensures \result == v;
*/
unsigned dpsel_core_opaque(unsigned v);

/* take_b ? b : a, computed without a branch (take_b is 0 or 1). */
/*@ requires take_b == 0 || take_b == 1;
    assigns \nothing;
    ensures \result == (take_b == 1 ? b : a);
*/
uint64_t dpsel_core_choose_u64(unsigned take_b, uint64_t a, uint64_t b);

/*@ requires take_b == 0 || take_b == 1;
    assigns \nothing;
    ensures \result == (take_b == 1 ? b : a);
*/
int64_t dpsel_core_choose_i64(unsigned take_b, int64_t a, int64_t b);

/* The largest score, for the hardened samplers: every score is read once,
 * in order, and no branch depends on them (spec/timing.md). */
/*@ requires 1 <= n;
    requires \valid_read(scores + (0 .. n - 1));
    assigns \nothing;
    ensures \forall integer i; 0 <= i < n ==> scores[i] <= \result;
    ensures \exists integer i; 0 <= i < n && scores[i] == \result;
*/
int64_t dpsel_core_max_score(const int64_t *scores, size_t n);

/* Uniform integer in [0, k), 1 <= k <= 2^63, from single random bits by the
 * Fast Dice Roller (Lumbroso 2013): no modulo bias, about log2(k) + 2 bits.
 * DPSEL_OK, DPSEL_ERANDOM, or DPSEL_EUNLIKELY after DPSEL_REJECTION_ROUNDS
 * rejections; *out is written only on success. */
/*@ requires \valid(rng) && \valid(out) && \separated(rng, out);
    requires 1 <= k <= 9223372036854775808;
    assigns *rng, *out;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures \result == DPSEL_OK ==> *out < k;
    ensures \result != DPSEL_OK ==> *out == \old(*out);
    ensures k == 1 ==> \result == DPSEL_OK && *out == 0;
*/
int dpsel_core_uniform(dpsel_rng *rng, uint64_t k, uint64_t *out);

/* A coin with P(heads) = t exactly: compares fresh random bits with the
 * digits of t from the top; the first difference decides (2 bits expected).
 * *heads is 1 or 0.  DPSEL_OK or DPSEL_ERANDOM. */
/*@ requires \valid(rng) && \valid(heads) && valid_dyadic(t);
    requires \separated(rng, heads);
    requires \separated(rng, t, t->words + (0 .. (t->ndigits - 1) / 64));
    requires \separated(heads, t, t->words + (0 .. (t->ndigits - 1) / 64));
    assigns *rng, *heads;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM;
    ensures \result == DPSEL_OK ==> *heads == 0 || *heads == 1;
*/
int dpsel_core_coin_dyadic(dpsel_rng *rng, const dpsel_dyadic *t, int *heads);

/* The coin t 2^scale, for scale <= t->lead: the coin of t with scale
 * fewer zeros after the point. */
/*@ requires \valid(rng) && \valid(heads) && valid_dyadic(t) && scale <= t->lead;
    requires \separated(rng, heads);
    requires \separated(rng, t, t->words + (0 .. (t->ndigits - 1) / 64));
    requires \separated(heads, t, t->words + (0 .. (t->ndigits - 1) / 64));
    assigns *rng, *heads;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM;
    ensures \result == DPSEL_OK ==> *heads == 0 || *heads == 1;
*/
int dpsel_core_coin_dyadic_scaled(dpsel_rng *rng, const dpsel_dyadic *t, uint64_t scale,
                                  int *heads);

/* A coin with P(heads) = beta^g exactly, 0 <= g < 2^npowers, where
 * powers[i] = beta^(2^i): the AND of the coins for the set bits of g, from
 * the highest (least likely) down, stopping at the first tails.  For g = 0
 * the coin is certain: heads without reading a bit. */
/*@ requires \valid(rng) && \valid(heads) && \separated(rng, heads);
    requires npowers <= 64 && g < pow2(npowers);
    requires \valid_read(powers + (0 .. npowers - 1));
    requires \forall integer i; 0 <= i < npowers ==> valid_dyadic(powers + i);
    requires \forall integer i; 0 <= i < npowers ==>
             \separated(rng, heads, powers + i, powers[i].words + (0 .. (powers[i].ndigits - 1) / 64));
    assigns *rng, *heads;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM;
    ensures \result == DPSEL_OK ==> *heads == 0 || *heads == 1;
    ensures \result == DPSEL_OK && g == 0 ==> *heads == 1;
*/
int dpsel_core_coin_power(dpsel_rng *rng, const dpsel_dyadic *powers,
                          unsigned npowers, uint64_t g, int *heads);

/* The coin beta^g 2^scale, for a scale no larger than the sum of the leads
 * (zeros after the point) of the powers of g's set bits: the coins of
 * dpsel_core_coin_power, some with fewer leading zeros. */
/*@ requires \valid(rng) && \valid(heads) && \separated(rng, heads);
    requires npowers <= 64 && g < pow2(npowers);
    requires \valid_read(powers + (0 .. npowers - 1));
    requires \forall integer i; 0 <= i < npowers ==> valid_dyadic(powers + i);
    requires \forall integer i; 0 <= i < npowers ==>
             \separated(rng, heads, powers + i, powers[i].words + (0 .. (powers[i].ndigits - 1) / 64));
    assigns *rng, *heads;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM;
    ensures \result == DPSEL_OK ==> *heads == 0 || *heads == 1;
    ensures \result == DPSEL_OK && g == 0 ==> *heads == 1;
*/
int dpsel_core_coin_power_scaled(dpsel_rng *rng, const dpsel_dyadic *powers,
                                 unsigned npowers, uint64_t g, uint64_t scale, int *heads);

/* The same coin as dpsel_core_coin_power, in a fixed pattern for the
 * hardened samplers: a coin for powers[i] at every i < npowers, from the
 * highest down, whatever g; a coin whose bit of g is clear is flipped and
 * ignored.  The bits read are distributed alike for every g
 * (spec/timing.md), and the result is combined without a branch on g. */
/*@ requires \valid(rng) && \valid(heads) && \separated(rng, heads);
    requires npowers <= 64 && g < pow2(npowers);
    requires \valid_read(powers + (0 .. npowers - 1));
    requires \forall integer i; 0 <= i < npowers ==> valid_dyadic(powers + i);
    requires \forall integer i; 0 <= i < npowers ==>
             \separated(rng, heads, powers + i, powers[i].words + (0 .. (powers[i].ndigits - 1) / 64));
    assigns *rng, *heads;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM;
    ensures \result == DPSEL_OK ==> *heads == 0 || *heads == 1;
    ensures \result == DPSEL_OK && g == 0 ==> *heads == 1;
*/
int dpsel_core_coin_power_fixed(dpsel_rng *rng, const dpsel_dyadic *powers,
                                unsigned npowers, uint64_t g, int *heads);

/* One step of a Fisher-Yates shuffle of scratch[0 .. n - 1]: swaps
 * scratch[i] with scratch[j] for j uniform in [i, n), so that after steps
 * 0 .. n - 1 every permutation has probability 1/n!.  The permutation of
 * 0 .. n - 1 in scratch stays one; on failure scratch is unchanged. */
/*@ requires 1 <= n <= DPSEL_MAX_CANDIDATES && i < n;
    requires \valid(rng) && \valid(scratch + (0 .. n - 1));
    requires \separated(rng, scratch + (0 .. n - 1));
    requires in_range: \forall integer a; 0 <= a < n ==> 0 <= scratch[a] < n;
    requires distinct: \forall integer a, b; 0 <= a < b < n ==> scratch[a] != scratch[b];
    assigns *rng, scratch[i .. n - 1];
    ensures results: \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures swapped: \result == DPSEL_OK ==> \exists integer j; i <= j < n &&
            scratch[i] == \old(scratch[j]) && scratch[j] == \old(scratch[i]) &&
            (\forall integer a; 0 <= a < n && a != i && a != j ==> scratch[a] == \old(scratch[a]));
    ensures in_range: \forall integer a; 0 <= a < n ==> 0 <= scratch[a] < n;
    ensures distinct: \forall integer a, b; 0 <= a < b < n ==> scratch[a] != scratch[b];
    ensures unchanged_on_error: \result != DPSEL_OK ==>
            \forall integer a; 0 <= a < n ==> scratch[a] == \old(scratch[a]);
*/
int dpsel_core_shuffle_step(dpsel_rng *rng, size_t *scratch, size_t n, size_t i);

/* Permute-and-flip: visits the candidates in a uniformly random order (a
 * Fisher-Yates shuffle drawn lazily in scratch[0..n-1], one
 * dpsel_core_shuffle_step per visit) and releases the first
 * whose coin beta^g' is heads.  The best candidate's coin is certain, so at
 * most n coins are flipped and the function never falls through. */
/*@ requires 1 <= n <= DPSEL_MAX_CANDIDATES;
    requires \valid(rng) && \valid(index) && valid_decay(decay);
    requires \valid_read(scores + (0 .. n - 1)) && \valid(scratch + (0 .. n - 1));
    requires \separated(rng, index, scratch + (0 .. n - 1), scores + (0 .. n - 1), decay);
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(rng, index, scratch + (0 .. n - 1), decay->powers + i,
                        decay->powers[i].words + (0 .. (decay->powers[i].ndigits - 1) / 64));
    assigns *rng, *index, scratch[0 .. n - 1];
    ensures results: \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures never_internal: \result != DPSEL_EINTERNAL;
    ensures index_in_range: \result == DPSEL_OK ==> *index < n;
    ensures index_unchanged: \result != DPSEL_OK ==> *index == \old(*index);
    ensures permutation: \result == DPSEL_OK ==>
            (\forall integer a; 0 <= a < n ==> 0 <= scratch[a] < n) &&
            (\forall integer a, b; 0 <= a < b < n ==> scratch[a] != scratch[b]);
*/
int dpsel_core_pf(dpsel_rng *rng, const dpsel_decay *decay,
                  const int64_t *scores, size_t n, size_t *scratch,
                  size_t *index);

/* Hardened permute-and-flip (spec/timing.md): the whole shuffle first (n
 * shuffle steps), then a fixed-pattern coin for every candidate in the
 * shuffled order, no early exit; the first heads in that order is released,
 * kept by a branch-free scan.  Same output distribution as dpsel_core_pf. */
/*@ requires 1 <= n <= DPSEL_MAX_CANDIDATES;
    requires \valid(rng) && \valid(index) && valid_decay(decay);
    requires \valid_read(scores + (0 .. n - 1)) && \valid(scratch + (0 .. n - 1));
    requires \separated(rng, index, scratch + (0 .. n - 1), scores + (0 .. n - 1), decay);
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(rng, index, scratch + (0 .. n - 1), decay->powers + i,
                        decay->powers[i].words + (0 .. (decay->powers[i].ndigits - 1) / 64));
    assigns *rng, *index, scratch[0 .. n - 1];
    ensures results: \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures never_internal: \result != DPSEL_EINTERNAL;
    ensures index_in_range: \result == DPSEL_OK ==> *index < n;
    ensures index_unchanged: \result != DPSEL_OK ==> *index == \old(*index);
    ensures permutation: \result == DPSEL_OK ==>
            (\forall integer a; 0 <= a < n ==> 0 <= scratch[a] < n) &&
            (\forall integer a, b; 0 <= a < b < n ==> scratch[a] != scratch[b]);
*/
int dpsel_core_pf_hardened(dpsel_rng *rng, const dpsel_decay *decay,
                           const int64_t *scores, size_t n, size_t *scratch,
                           size_t *index);

/* 1 if the race can use the decay table (see above), else 0. */
/*@ requires valid_decay(decay);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> race_decay(decay);
*/
int dpsel_core_race_applies(const dpsel_decay *decay);

/* One round of dpsel_core_coin_odds: a fair bit 0 gives *outcome 0
 * (probability 1/2); a 1 followed by a coin w heads gives 1 (w/2); else
 * DPSEL_ODDS_AGAIN.  *outcome may be written on failure. */
#define DPSEL_ODDS_AGAIN 2u
/*@ requires \valid(rng) && \valid(outcome) && valid_dyadic(w);
    requires \separated(rng, outcome);
    requires \separated(rng, w, w->words + (0 .. (w->ndigits - 1) / 64));
    requires \separated(outcome, w, w->words + (0 .. (w->ndigits - 1) / 64));
    assigns *rng, *outcome;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM;
    ensures \result == DPSEL_OK ==> *outcome <= DPSEL_ODDS_AGAIN;
*/
int dpsel_core_odds_round(dpsel_rng *rng, const dpsel_dyadic *w, unsigned *outcome);

/* A coin with P(heads) = w / (1 + w): rounds of a fair bit and a coin w.
 * DPSEL_EUNLIKELY after DPSEL_REJECTION_ROUNDS rounds (each ends with
 * probability >= 1/2). */
/*@ requires \valid(rng) && \valid(heads) && valid_dyadic(w);
    requires \separated(rng, heads);
    requires \separated(rng, w, w->words + (0 .. (w->ndigits - 1) / 64));
    requires \separated(heads, w, w->words + (0 .. (w->ndigits - 1) / 64));
    assigns *rng, *heads;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures \result == DPSEL_OK ==> *heads == 0 || *heads == 1;
*/
int dpsel_core_coin_odds(dpsel_rng *rng, const dpsel_dyadic *w, int *heads);

/* A geometric draw: P(*draw >= k) = beta^k, from the binary digits below
 * 2^top (independent coins) and a high part (coins of beta^(2^top)).
 * DPSEL_EUNLIKELY if the high part reaches DPSEL_RACE_ROUNDS. */
/*@ requires \valid(rng) && \valid(draw) && \separated(rng, draw) && race_decay(decay);
    requires \separated(rng, draw, decay);
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(rng, draw, decay->powers + i,
                        decay->powers[i].words + (0 .. (decay->powers[i].ndigits - 1) / 64));
    assigns *rng, *draw;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures \result == DPSEL_OK ==> *draw < race_limit(decay->npowers);
*/
int dpsel_core_geometric(dpsel_rng *rng, const dpsel_decay *decay, uint64_t *draw);

/* A coin with P(heads) = beta^t for any t: t >> top coins of
 * beta^(2^top), then dpsel_core_coin_power on the rest.  For t = 0 the
 * coin is certain. */
/*@ requires \valid(rng) && \valid(heads) && \separated(rng, heads) && race_decay(decay);
    requires \separated(rng, heads, decay);
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(rng, heads, decay->powers + i,
                        decay->powers[i].words + (0 .. (decay->powers[i].ndigits - 1) / 64));
    assigns *rng, *heads;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM;
    ensures \result == DPSEL_OK ==> *heads == 0 || *heads == 1;
*/
int dpsel_core_coin_wide(dpsel_rng *rng, const dpsel_decay *decay, uint64_t t, int *heads);

/* Adds one candidate, of clamped gap g' = gap, to the race: it joins the
 * leader (a tie), overtakes it, or drops out.  The state stays within
 * race_state; DPSEL_EUNLIKELY if a noisy value passes race_limit. */
/*@ requires \valid(rng) && \valid(race) && race_decay(decay);
    requires \separated(rng, race, decay);
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(rng, race, decay->powers + i,
                        decay->powers[i].words + (0 .. (decay->powers[i].ndigits - 1) / 64));
    requires gap <= decay->cap && candidate < DPSEL_MAX_CANDIDATES;
    requires race_state(race, decay, candidate);
    assigns *rng, *race;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures \result == DPSEL_OK ==> race_state(race, decay, candidate + 1);
*/
int dpsel_core_race_step(dpsel_rng *rng, const dpsel_decay *decay, dpsel_race *race,
                         uint64_t gap, uint64_t candidate);

/* The race over the candidates not in visited[0 .. count - 1], in index
 * order: PF on them, whose best score is best (spec/mechanisms.md §11). */
/*@ requires 1 <= n <= DPSEL_MAX_CANDIDATES && count < n;
    requires \valid(rng) && \valid(index) && race_decay(decay);
    requires \valid_read(scores + (0 .. n - 1));
    requires \forall integer i; 0 <= i < n ==> scores[i] <= best;
    requires visited_set(visited, count, n);
    requires \separated(rng, index, scores + (0 .. n - 1), decay, visited + (0 .. count - 1));
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(rng, index, decay->powers + i,
                        decay->powers[i].words + (0 .. (decay->powers[i].ndigits - 1) / 64));
    assigns *rng, *index;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures \result == DPSEL_OK ==> *index < n;
    ensures \result != DPSEL_OK ==> *index == \old(*index);
*/
int dpsel_core_race_rest(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                         size_t n, int64_t best, const uint64_t *visited, size_t count,
                         size_t *index);

/* Permute-and-flip as the race: every candidate in index order through
 * dpsel_core_race_step, no scratch memory; the same distribution as
 * dpsel_core_pf (spec/mechanisms.md §10). */
/*@ requires 1 <= n <= DPSEL_MAX_CANDIDATES;
    requires \valid(rng) && \valid(index) && race_decay(decay);
    requires \valid_read(scores + (0 .. n - 1));
    requires \separated(rng, index, scores + (0 .. n - 1), decay);
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(rng, index, decay->powers + i,
                        decay->powers[i].words + (0 .. (decay->powers[i].ndigits - 1) / 64));
    assigns *rng, *index;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures \result == DPSEL_OK ==> *index < n;
    ensures \result != DPSEL_OK ==> *index == \old(*index);
*/
int dpsel_core_pf_race(dpsel_rng *rng, const dpsel_decay *decay,
                       const int64_t *scores, size_t n, size_t *index);

/* Where r is, or would go, in the non-decreasing sorted[0 .. count - 1]:
 * the number of entries below r (binary search). */
/*@ requires count <= DPSEL_MAX_CANDIDATES;
    requires \valid_read(sorted + (0 .. count - 1));
    requires \forall integer i, j; 0 <= i <= j < count ==> sorted[i] <= sorted[j];
    assigns \nothing;
    ensures 0 <= \result <= count;
    ensures \forall integer i; 0 <= i < \result ==> sorted[i] < r;
    ensures \forall integer i; \result <= i < count ==> sorted[i] >= r;
*/
size_t dpsel_core_rank(const uint64_t *sorted, size_t count, uint64_t r);

/* The next candidate of a uniformly random order of 0 .. n - 1, given the
 * first count (visited, kept in increasing order): uniform draws until one
 * is not visited, which joins visited in its place.  Each draw succeeds
 * with probability (n - count) / n, at least 1/2 when 2 count <= n;
 * DPSEL_EUNLIKELY after DPSEL_REJECTION_ROUNDS draws. */
/*@ requires 1 <= n <= DPSEL_MAX_CANDIDATES && count < n;
    requires \valid(rng) && \valid(candidate);
    requires visited_set(visited, count, n) && \valid(visited + (0 .. count));
    requires \separated(rng, candidate, visited + (0 .. count));
    assigns *rng, *candidate, visited[0 .. count];
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures \result == DPSEL_OK ==> *candidate < n && visited_set(visited, count + 1, n);
    ensures \result == DPSEL_OK ==>
            \exists integer rank; 0 <= rank <= count && visited[rank] == *candidate &&
            (\forall integer i; 0 <= i < rank ==> visited[i] == \old(visited[i])) &&
            (\forall integer i; rank < i <= count ==> visited[i] == \old(visited[i - 1]));
    ensures \result != DPSEL_OK ==> visited_set(visited, count, n);
*/
int dpsel_core_visit_next(dpsel_rng *rng, size_t n, uint64_t *visited, size_t count,
                          size_t *candidate);

/* Permute-and-flip by its first visits (spec/mechanisms.md §11): up to
 * `visits` candidates of the random order flip their coins, and if none
 * comes up heads the race settles the rest.  visited[0 .. visits - 1] is
 * scratch; 2 visits <= n keeps every draw's rejection below 1/2. */
/*@ requires 1 <= n <= DPSEL_MAX_CANDIDATES && 2 * visits <= n;
    requires \valid(rng) && \valid(index) && race_decay(decay);
    requires \valid_read(scores + (0 .. n - 1));
    requires \valid(visited + (0 .. visits - 1));
    requires \separated(rng, index, scores + (0 .. n - 1), decay, visited + (0 .. visits - 1));
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(rng, index, visited + (0 .. visits - 1), decay->powers + i,
                        decay->powers[i].words + (0 .. (decay->powers[i].ndigits - 1) / 64));
    assigns *rng, *index, visited[0 .. visits - 1];
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures \result == DPSEL_OK ==> *index < n;
    ensures \result != DPSEL_OK ==> *index == \old(*index);
*/
int dpsel_core_pf_visits(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                         size_t n, uint64_t *visited, size_t visits, size_t *index);

/* One trial of the exponential mechanism: draws a candidate uniformly and
 * keeps it (*kept = 1) with probability beta^g'_candidate, where best is the
 * largest score. */
/*@ requires 1 <= n <= DPSEL_MAX_CANDIDATES;
    requires \valid(rng) && \valid(candidate) && \valid(kept) && valid_decay(decay);
    requires \valid_read(scores + (0 .. n - 1));
    requires \forall integer i; 0 <= i < n ==> scores[i] <= best;
    requires \separated(rng, candidate, kept, scores + (0 .. n - 1), decay);
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(rng, candidate, kept, decay->powers + i,
                        decay->powers[i].words + (0 .. (decay->powers[i].ndigits - 1) / 64));
    assigns *rng, *candidate, *kept;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures \result == DPSEL_OK ==> *candidate < n && (*kept == 0 || *kept == 1);
*/
int dpsel_core_em_trial(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                        size_t n, int64_t best, size_t *candidate, int *kept);

/* Exponential mechanism by rejection: independent trials until one keeps its
 * candidate; a kept candidate has exactly the EM distribution.  Each trial
 * keeps with probability >= 1/n; after DPSEL_REJECTION_ROUNDS * n trials,
 * DPSEL_EUNLIKELY. */
/*@ requires 1 <= n <= DPSEL_MAX_CANDIDATES;
    requires \valid(rng) && \valid(index) && valid_decay(decay);
    requires \valid_read(scores + (0 .. n - 1));
    requires \separated(rng, index, scores + (0 .. n - 1), decay);
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(rng, index, decay->powers + i,
                        decay->powers[i].words + (0 .. (decay->powers[i].ndigits - 1) / 64));
    assigns *rng, *index;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures \result == DPSEL_OK ==> *index < n;
    ensures \result != DPSEL_OK ==> *index == \old(*index);
*/
int dpsel_core_em(dpsel_rng *rng, const dpsel_decay *decay,
                  const int64_t *scores, size_t n, size_t *index);

/* Up to `attempts` trials of dpsel_core_em_trial: the first kept candidate
 * in *index and *kept = 1, or *kept = 0 and *index untouched. */
/*@ requires 1 <= n <= DPSEL_MAX_CANDIDATES;
    requires \valid(rng) && \valid(index) && \valid(kept) && valid_decay(decay);
    requires \valid_read(scores + (0 .. n - 1));
    requires \forall integer i; 0 <= i < n ==> scores[i] <= best;
    requires \separated(rng, index, kept, scores + (0 .. n - 1), decay);
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(rng, index, kept, decay->powers + i,
                        decay->powers[i].words + (0 .. (decay->powers[i].ndigits - 1) / 64));
    assigns *rng, *index, *kept;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures \result == DPSEL_OK ==> *kept == 0 || *kept == 1;
    ensures \result == DPSEL_OK && *kept == 1 ==> *index < n;
    ensures \result != DPSEL_OK || *kept == 0 ==> *index == \old(*index);
*/
int dpsel_core_em_attempts(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                           size_t n, int64_t best, uint64_t attempts, size_t *index,
                           int *kept);

/* dpsel_core_em_trial with the fixed-pattern coin: the same distribution of
 * (*candidate, *kept), bits read independently of the scores. */
/*@ requires 1 <= n <= DPSEL_MAX_CANDIDATES;
    requires \valid(rng) && \valid(candidate) && \valid(kept) && valid_decay(decay);
    requires \valid_read(scores + (0 .. n - 1));
    requires \forall integer i; 0 <= i < n ==> scores[i] <= best;
    requires \separated(rng, candidate, kept, scores + (0 .. n - 1), decay);
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(rng, candidate, kept, decay->powers + i,
                        decay->powers[i].words + (0 .. (decay->powers[i].ndigits - 1) / 64));
    assigns *rng, *candidate, *kept;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures \result == DPSEL_OK ==> *candidate < n && (*kept == 0 || *kept == 1);
*/
int dpsel_core_em_trial_hardened(dpsel_rng *rng, const dpsel_decay *decay,
                                 const int64_t *scores, size_t n, int64_t best,
                                 size_t *candidate, int *kept);

/* The envelope exponent of level g: the sum of the leads of the powers of
 * g's set bits (so beta^g < 2^-sum), at most limit. */
/*@ requires valid_decay(decay) && limit <= 64;
    assigns \nothing;
    ensures \result <= limit;
*/
uint64_t dpsel_core_level_exponent(const dpsel_decay *decay, uint64_t g, uint64_t limit);

/* Counts the candidates per clamped gap g into levels[g], then turns the
 * counts into running sums of c_g 2^(envelope - e_g), e_g the level's
 * exponent at most envelope.  DPSEL_EINTERNAL if a sum would pass
 * DPSEL_LEVELS_TOTAL_MAX (never when n 2^envelope <= 2^63). */
/*@ requires 1 <= n <= DPSEL_MAX_CANDIDATES && valid_decay(decay);
    requires decay->npowers <= DPSEL_LEVELS_MAX_POWERS && envelope <= 63;
    requires \valid_read(scores + (0 .. n - 1));
    requires \forall integer i; 0 <= i < n ==> scores[i] <= best;
    requires \valid(levels + (0 .. decay->cap));
    requires \separated(levels + (0 .. decay->cap), scores + (0 .. n - 1), decay);
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(levels + (0 .. decay->cap), decay->powers + i);
    assigns levels[0 .. decay->cap];
    ensures \result == DPSEL_OK || \result == DPSEL_EINTERNAL;
    ensures \result == DPSEL_OK ==> level_sums(levels, decay->cap);
*/
int dpsel_core_em_levels_build(const dpsel_decay *decay, const int64_t *scores, size_t n,
                               int64_t best, unsigned envelope, uint64_t *levels);

/* One trial of EM by levels: level g proposed with probability
 * proportional to c_g 2^-e_g, kept (*kept = 1) with probability
 * beta^g 2^e_g. */
/*@ requires \valid(rng) && \valid(level) && \valid(kept) && valid_decay(decay);
    requires decay->npowers <= DPSEL_LEVELS_MAX_POWERS && envelope <= 63;
    requires level_sums(levels, decay->cap);
    requires \separated(rng, level, kept, levels + (0 .. decay->cap), decay);
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(rng, level, kept, decay->powers + i,
                        decay->powers[i].words + (0 .. (decay->powers[i].ndigits - 1) / 64));
    assigns *rng, *level, *kept;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures \result == DPSEL_OK ==> *level <= decay->cap && (*kept == 0 || *kept == 1);
*/
int dpsel_core_em_level_trial(dpsel_rng *rng, const dpsel_decay *decay,
                              const uint64_t *levels, unsigned envelope,
                              uint64_t *level, int *kept);

/* The exponential mechanism by levels (spec/mechanisms.md §12): levels
 * built, trials until one keeps its level (each keeps with probability at
 * least 2^-(npowers + 1) when 2^envelope >= n; DPSEL_EUNLIKELY after
 * DPSEL_REJECTION_ROUNDS 2^14 trials), then a uniform member of
 * the kept level.  levels[0 .. cap] is scratch. */
/*@ requires 1 <= n <= DPSEL_MAX_CANDIDATES && valid_decay(decay);
    requires decay->npowers <= DPSEL_LEVELS_MAX_POWERS && envelope <= 63;
    requires \valid(rng) && \valid(index);
    requires \valid_read(scores + (0 .. n - 1));
    requires \forall integer i; 0 <= i < n ==> scores[i] <= best;
    requires \valid(levels + (0 .. decay->cap));
    requires \separated(rng, index, levels + (0 .. decay->cap), scores + (0 .. n - 1), decay);
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(rng, index, levels + (0 .. decay->cap), decay->powers + i,
                        decay->powers[i].words + (0 .. (decay->powers[i].ndigits - 1) / 64));
    assigns *rng, *index, levels[0 .. decay->cap];
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY ||
            \result == DPSEL_EINTERNAL;
    ensures \result == DPSEL_OK ==> *index < n;
    ensures \result != DPSEL_OK ==> *index == \old(*index);
*/
int dpsel_core_em_levels(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                         size_t n, int64_t best, unsigned envelope, uint64_t *levels,
                         size_t *index);

/* Hardened exponential mechanism (spec/timing.md): always exactly
 * DPSEL_REJECTION_ROUNDS * n hardened trials, the first kept candidate
 * chosen by a branch-free scan; DPSEL_EUNLIKELY if none kept.  Same output
 * distribution (and failure probability) as dpsel_core_em. */
/*@ requires 1 <= n <= DPSEL_MAX_CANDIDATES;
    requires \valid(rng) && \valid(index) && valid_decay(decay);
    requires \valid_read(scores + (0 .. n - 1));
    requires \separated(rng, index, scores + (0 .. n - 1), decay);
    requires \forall integer i; 0 <= i < decay->npowers ==>
             \separated(rng, index, decay->powers + i,
                        decay->powers[i].words + (0 .. (decay->powers[i].ndigits - 1) / 64));
    assigns *rng, *index;
    ensures \result == DPSEL_OK || \result == DPSEL_ERANDOM || \result == DPSEL_EUNLIKELY;
    ensures \result == DPSEL_OK ==> *index < n;
    ensures \result != DPSEL_OK ==> *index == \old(*index);
*/
int dpsel_core_em_hardened(dpsel_rng *rng, const dpsel_decay *decay,
                           const int64_t *scores, size_t n, size_t *index);

/* MPFR precision of beta^(2^i) for a base x / 2^y with xbits = bitlen(x):
 * xbits 2^i bits.  The decay table computes beta^(2^i) by squaring
 * beta^(2^(i-1)) after widening it to this precision; both steps are exact
 * because the precision doubles from i - 1 to i and x^(2^i) < 2^(xbits 2^i)
 * (lemma squarings_fit, spec/logic.h). */
/*@ requires xbits <= 64 && i <= 20;
    assigns \nothing;
    ensures \result == xbits * pow2(i);
    ensures \result <= 67108864;
    ensures exact: \forall integer x; 0 <= x < pow2(xbits) ==> 0 <= squarings(x, i) < pow2(\result);
    ensures doubling: i >= 1 ==> \result == 2 * (xbits * pow2(i - 1));
*/
uint64_t dpsel_core_power_precision(unsigned xbits, unsigned i);

/* Number of significant bits of v (0 for v == 0). */
/*@ assigns \nothing;
    ensures 0 <= \result <= 64;
    ensures v < pow2(\result);
    ensures \result > 0 ==> pow2(\result - 1) <= v;
*/
unsigned dpsel_core_bitlen(uint64_t v);

/* 1 if s is a decimal number for epsilon: [0-9]+ ('.' [0-9]*)? or
 * '.' [0-9]+, then optionally [eE] [+-]? [0-9]{1,9}; nothing else, no more
 * than max_len characters before the NUL.  0 otherwise.  Reads at most
 * s[0 .. max_len]. */
/*@ requires max_len < SIZE_MAX;
    requires \exists integer j; 0 <= j <= max_len && \valid_read(s + (0 .. j)) && s[j] == '\0'
             || \valid_read(s + (0 .. max_len));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
*/
int dpsel_core_decimal_syntax(const char *s, size_t max_len);

/* 1 if (x, y) is a valid base x / 2^y: 1 <= y <= 64 and 0 < x < 2^y. */
/*@ assigns \nothing;
    ensures \result == 1 <==> 1 <= y <= 64 && 0 < x < pow2(y);
    ensures \result == 0 || \result == 1;
*/
int dpsel_core_base_valid(uint64_t x, unsigned y);

/* 1 if every field of params is in its documented range. */
/*@ requires \valid_read(params);
    assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> 1 <= params->y <= 64 && 0 < params->x < pow2(params->y)
            && params->sensitivity >= 1 && 1 <= params->gap_cap <= DPSEL_GAP_CAP_MAX;
*/
int dpsel_core_params_valid(const dpsel_params *params);

#endif /* DPSEL_CORE_H */
