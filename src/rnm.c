/* SPDX-License-Identifier: ISC */
/* Report noisy max with Laplace noise, exactly: one pass with a running
 * maximum whose noise is a lazy real (spec/mechanisms.md §14). */
#include "rnm.h"

#include "core/rnm.h"
#include "interrupt.h"
#include "peel.h"

/* A candidate's noisy score P q + s W (K + F), F a lazy uniform. */
typedef struct {
    int64_t score;
    int positive;      /* s = +1 */
    uint64_t whole;    /* K */
    dpsel_urand *fraction;
} noisy;

/* The Laplace scale W / P and the leader so far. */
typedef struct {
    uint64_t w;
    uint64_t p;
    noisy leader;
    size_t chosen;
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

/* Candidate i: its sign, and, unless it cannot win (a negative noise on a
 * score at most the leader's floor), its Exp(1) and the comparison. */
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
    /* the fraction not held by the leader */
    c.fraction = r->leader.fraction == &fractions[0] ? &fractions[1] : &fractions[0];
    rc = dpsel_core_exponential(rng, c.fraction, run, &c.whole);
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
