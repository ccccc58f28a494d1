/* SPDX-License-Identifier: ISC */
/* Report noisy max with Laplace noise, exactly: one pass with a running
 * maximum whose noise is a lazy real (spec/mechanisms.md §14). */
#include "../base/interrupt.h"
#include "../core/rnm.h"
#include "../exact/exact.h"
#include "exp_digits.h"
#include "peel.h"

/* A candidate's noisy score P q + s W (K + F), F a lazy uniform. */
typedef struct {
    int64_t score;
    int positive;      /* s = +1 */
    uint64_t whole;    /* K */
    dpsel_urand *fraction;
} noisy;

/* The Laplace scale W / P and the leader so far; the last score whose
 * least winning integer part was computed against this leader, and that
 * part (equal scores in a row cost one division). */
typedef struct {
    uint64_t w;
    uint64_t p;
    noisy leader;
    size_t chosen;
    int known;
    int64_t known_score;
    unsigned known_whole;
} race;

__extension__ typedef __int128 wide;

/* W s K with s the sign: |.| < 2^62 * 2^7. */
static wide signed_whole(const race *r, const noisy *c)
{
    wide v = (wide)r->w * (wide)c->whole;
    return c->positive ? v : -v;
}

/* A lower bound of the leader's P Z: P q + W s (K + [s < 0]). */
static wide leader_floor(const race *r)
{
    wide floor = (wide)r->p * r->leader.score + signed_whole(r, &r->leader);
    return r->leader.positive ? floor : floor - (wide)r->w;
}

/* Whether c beats the leader: A = P (q_c - q_m) + W (s_c K_c - s_m K_m)
 * decides when |A| >= 2W, else the digits of A / W and the fractions. */
static int beats_leader(dpsel_rng *rng, race *r, noisy *c, int *beats)
{
    wide a = (wide)r->p * ((wide)c->score - r->leader.score) + signed_whole(r, c) -
             signed_whole(r, &r->leader);
    wide w = (wide)r->w;
    if (a >= 2 * w || a <= -2 * w) {
        *beats = a > 0;
        return DPSEL_OK;
    }
    /* A = T W + R, 0 <= R < W, T in [-2, 1] */
    wide t = a >= 0 ? a / w : -((-a + w - 1) / w);
    wide rem = a - t * w;
    return dpsel_core_rnm_beats(rng, (int)t, (uint64_t)rem, r->w, c->positive, c->fraction,
                                r->leader.positive, r->leader.fraction, beats);
}

/* The least integer part K with which a positive noise on score could
 * beat the leader: P q + W (K + F) < P q + W (K + 1) must pass the leader's
 * floor.  Capped at DPSEL_EXP_WHOLE_MAX, the bound of K. */
static unsigned least_winning_whole(race *r, int64_t score)
{
    if (r->known && r->known_score == score) {
        return r->known_whole;
    }
    wide short_of = leader_floor(r) - (wide)r->p * score - (wide)r->w;
    wide w = (wide)r->w;
    unsigned k = short_of < 0 ? 0
               : short_of >= w * DPSEL_EXP_WHOLE_MAX ? DPSEL_EXP_WHOLE_MAX
               : (unsigned)(short_of / w) + 1;
    r->known = 1;
    r->known_score = score;
    r->known_whole = k > DPSEL_EXP_WHOLE_MAX ? DPSEL_EXP_WHOLE_MAX : k;
    return r->known_whole;
}

/* c's Exp(1) as K + F, knowing already that K >= at_least (1 if the
 * event K >= at_least has been drawn and holds, else 0): by memorylessness
 * K - at_least and F are then drawn as a fresh Exp(1)'s. */
static int draw_noise(dpsel_rng *rng, noisy *c, dpsel_urand run[2], unsigned at_least)
{
    uint64_t whole;
    int rc = dpsel_core_exponential(rng, c->fraction, run, &whole);
    if (rc != DPSEL_OK) {
        return rc;
    }
    /* K >= DPSEL_EXP_WHOLE_MAX: the bound of K, as in dpsel_core_exponential */
    c->whole = whole + at_least;
    return c->whole < DPSEL_EXP_WHOLE_MAX ? DPSEL_OK : DPSEL_EUNLIKELY;
}

/* Candidate i: its sign, and, unless it cannot win, its Exp(1) and the
 * comparison.  A negative noise cannot lift a score at most the leader's
 * floor; a positive one needs K >= k, whose probability e^-k is drawn first
 * from e^-k's digits (2 bits on average), so that most candidates far below
 * the leader cost a sign and two bits. */
static int race_candidate(dpsel_rng *rng, race *r, dpsel_urand fractions[2],
                          dpsel_urand run[2], int64_t score, size_t i)
{
    unsigned sign;
    int rc = dpsel_internal_rng_bit(rng, &sign);
    if (rc != DPSEL_OK) {
        return rc;
    }
    noisy c = { score, (int)sign, 0, NULL };
    if (i > 0 && !c.positive && (wide)r->p * score <= leader_floor(r)) {
        return DPSEL_OK;
    }
    unsigned k = i > 0 && c.positive ? least_winning_whole(r, score) : 0;
    if (k > 0) {
        int reached;
        rc = dpsel_core_uniform_below(rng, dpsel_internal_exp_digits[k - 1], &reached);
        if (rc != DPSEL_OK || !reached) {
            return rc;
        }
        if (k == DPSEL_EXP_WHOLE_MAX) {
            return DPSEL_EUNLIKELY;
        }
    }
    /* the fraction not held by the leader */
    c.fraction = r->leader.fraction == &fractions[0] ? &fractions[1] : &fractions[0];
    rc = draw_noise(rng, &c, run, k);
    if (rc != DPSEL_OK) {
        return rc;
    }
    int beats = 1;
    if (i > 0) {
        rc = beats_leader(rng, r, &c, &beats);
    }
    if (rc == DPSEL_OK && beats) {
        r->leader = c;
        r->chosen = i;
        r->known = 0;
    }
    return rc;
}

/* One selection with the scale held by r (n in 1 .. 2^62). */
static int race_all(const void *scale, const int64_t *scores, size_t n, dpsel_rng *rng,
                    size_t *index)
{
    race r = *(const race *)scale;
    dpsel_urand fractions[2];
    dpsel_urand run[2];
    int rc = DPSEL_OK;
    for (size_t i = 0; i < n && rc == DPSEL_OK; i++) {
        rc = dpsel_internal_interrupted_every(rng, i, n);
        if (rc == DPSEL_OK) {
            rc = race_candidate(rng, &r, fractions, run, scores[i], i);
        }
    }
    if (rc == DPSEL_OK) {
        *index = r.chosen;
    }
    return rc;
}

int dpsel_rnm_scale(const char *epsilon, uint64_t sensitivity, int monotonic, uint64_t *w,
                    uint64_t *p)
{
    if (epsilon == NULL || w == NULL || p == NULL) {
        return DPSEL_ENULL;
    }
    return dpsel_exact_rnm_scale(epsilon, sensitivity, monotonic, w, p);
}

int dpsel_rnm_select(const char *epsilon, uint64_t sensitivity, int monotonic,
                     const int64_t *scores, size_t n, dpsel_rng *rng, size_t *index)
{
    return dpsel_rnm_select_top(epsilon, sensitivity, monotonic, scores, n, 1, rng, index);
}

int dpsel_rnm_select_top(const char *epsilon, uint64_t sensitivity, int monotonic,
                         const int64_t *scores, size_t n, size_t k, dpsel_rng *rng,
                         size_t *indices)
{
    if (epsilon == NULL || scores == NULL || rng == NULL || indices == NULL) {
        return DPSEL_ENULL;
    }
    if (n == 0) {
        return DPSEL_EEMPTY;
    }
    if (k == 0 || k > n || n > DPSEL_MAX_CANDIDATES) {
        return DPSEL_ERANGE;
    }
    race scale = { 0 };
    int rc = dpsel_exact_rnm_scale(epsilon, sensitivity, monotonic, &scale.w, &scale.p);
    if (rc != DPSEL_OK) {
        return rc;
    }
    return k == 1 ? race_all(&scale, scores, n, rng, indices)
                  : dpsel_internal_peel(race_all, &scale, scores, n, k, rng, indices);
}
