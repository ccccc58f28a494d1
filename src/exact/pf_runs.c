/* SPDX-License-Identifier: ISC */
/*
 * PF over groups of alike candidates (pf_runs.h; spec/quantiles.md §7).
 *
 * PF releases argmax_r (q'_r + E_r), E_r i.i.d. with P(E > s) = beta^s.
 * Group j (m_j candidates of clamped gap g_j) takes part through the largest
 * of its m_j noises, M_j, with P(M_j <= s) = (1 - beta^s)^m_j; with
 * lambda = ln(1/beta) and U_j uniform on (0, 1),
 *     Z_j = lambda (M_j - g_j) = -ln(1 - U_j^(1/m_j)) - lambda g_j
 * has that law and is increasing in U_j.  The released group is the one of
 * the largest Z_j.  Each U_j is read bit by bit: after b bits it lies in
 * [k 2^-b, (k + 1) 2^-b], and Z_j's values at the two ends, each rounded
 * outward, enclose Z_j.  A leader is kept; each new group duels it, the
 * wider enclosure reading more bits (twice as many each time) until the
 * two enclosures are apart.
 */
#include <stdint.h>

#include <gmp.h>
#include <mpfr.h>

#include "../base/interrupt.h"
#include "../core/core.h"
#include "../core/validate.h"
#include "mpfr_env.h"
#include "pf_runs.h"

/* The working precision is the bits read plus these guard bits (the
 * rounding error of an enclosure end stays below 2^(30 - precision):
 * spec/quantiles.md §7). */
#define GUARD_BITS 56
#define PREC_MAX (DPSEL_PF_RUNS_MAX_BITS + GUARD_BITS)
/* lambda's enclosure: wider than any working precision */
#define LAMBDA_PREC (PREC_MAX + 64)

/* A group in the race: U in [k 2^-bits, (k + 1) 2^-bits] and Z in [lo, hi]. */
typedef struct {
    size_t index;
    uint64_t gap, members;
    mpz_t k;
    unsigned bits;
    mpfr_t lo, hi;
} racer;

/* What every enclosure shares: lambda's bounds and scratch numbers. */
typedef struct {
    mpfr_t lambda_lo, lambda_hi;
    mpfr_t members;       /* m, exact at 64 bits */
    mpfr_t t, product;    /* the chain of Z, lambda g */
    mpfr_t width_a, width_b;
    mpz_t end;            /* k or k + 1 */
    int inexact;          /* a step meant to be exact was not */
    unsigned first_bits;
} race;

/* lambda = y ln 2 - ln x, rounded in direction rnd (ln x the other way). */
static void lambda_bound(race *r, mpfr_t out, uint64_t x, unsigned y, mpfr_rnd_t rnd)
{
    mpfr_rnd_t other = rnd == MPFR_RNDU ? MPFR_RNDD : MPFR_RNDU;
    mpfr_const_log2(out, rnd);
    mpfr_mul_ui(out, out, y, rnd);
    r->inexact |= mpfr_set_uj(r->t, x, MPFR_RNDN) != 0;
    mpfr_log(r->t, r->t, other);
    mpfr_sub(out, out, r->t, rnd);
}

static void race_init(race *r, uint64_t x, unsigned y, unsigned first_bits)
{
    mpfr_inits2(LAMBDA_PREC, r->lambda_lo, r->lambda_hi, r->t, r->product, (mpfr_ptr)0);
    mpfr_inits2(64, r->members, r->width_a, r->width_b, (mpfr_ptr)0);
    mpz_init(r->end);
    r->inexact = 0;
    r->first_bits = first_bits;
    lambda_bound(r, r->lambda_lo, x, y, MPFR_RNDD);
    lambda_bound(r, r->lambda_hi, x, y, MPFR_RNDU);
}

static void race_clear(race *r)
{
    mpfr_set_prec_raw(r->t, LAMBDA_PREC);  /* the precisions they were made with */
    mpfr_set_prec_raw(r->product, LAMBDA_PREC);
    mpfr_clears(r->lambda_lo, r->lambda_hi, r->t, r->product, r->members, r->width_a,
                r->width_b, (mpfr_ptr)0);
    mpz_clear(r->end);
}

static void racer_init(racer *a)
{
    mpz_init(a->k);
    mpfr_inits2(PREC_MAX, a->lo, a->hi, (mpfr_ptr)0);
}

static void racer_clear(racer *a)
{
    mpfr_set_prec_raw(a->lo, PREC_MAX);
    mpfr_set_prec_raw(a->hi, PREC_MAX);
    mpfr_clears(a->lo, a->hi, (mpfr_ptr)0);
    mpz_clear(a->k);
}

/* Z at an end of U's interval, rounded up (the upper end) or down (the
 * lower end): every step is monotone, and each is rounded in the direction
 * that keeps the bound (ln, division by m and expm1 toward the bound; the
 * second ln, after a negation, away from it; lambda g away from it). */
static void z_bound(race *r, const racer *a, int up, mpfr_t out)
{
    mpfr_rnd_t toward = up ? MPFR_RNDU : MPFR_RNDD, away = up ? MPFR_RNDD : MPFR_RNDU;
    mpfr_mul_ui(r->product, up ? r->lambda_lo : r->lambda_hi, a->gap, away);
    mpz_add_ui(r->end, a->k, up ? 1 : 0);
    if (mpz_sgn(r->end) == 0) {              /* U = 0: M = 0, Z = -lambda g */
        mpfr_neg(out, r->product, toward);
        return;
    }
    if (mpz_sizeinbase(r->end, 2) > a->bits) {  /* U = 1: M and Z unbounded */
        mpfr_set_inf(out, 1);
        return;
    }
    r->inexact |= mpfr_set_z_2exp(r->t, r->end, -(mpfr_exp_t)a->bits, MPFR_RNDN) != 0;
    mpfr_log(r->t, r->t, toward);                  /* ln u < 0 */
    mpfr_div(r->t, r->t, r->members, toward);      /* ln u / m */
    mpfr_expm1(r->t, r->t, toward);                /* u^(1/m) - 1 in (-1, 0) */
    mpfr_neg(r->t, r->t, MPFR_RNDN);               /* 1 - u^(1/m) */
    mpfr_log(r->t, r->t, away);
    mpfr_neg(r->t, r->t, MPFR_RNDN);               /* -ln(1 - u^(1/m)) = lambda M */
    mpfr_sub(out, r->t, r->product, toward);
}

/* Sets the working precision for a's bits and computes one end. */
static void enclose_end(race *r, racer *a, int up)
{
    mpfr_prec_t prec = (mpfr_prec_t)a->bits + GUARD_BITS;
    mpfr_set_prec_raw(r->t, prec);
    mpfr_set_prec_raw(r->product, prec);
    mpfr_set_prec_raw(up ? a->hi : a->lo, prec);
    r->inexact |= mpfr_set_uj(r->members, a->members, MPFR_RNDN) != 0;
    z_bound(r, a, up, up ? a->hi : a->lo);
}

/* Appends `more` fresh bits to a's uniform. */
static int read_bits(racer *a, dpsel_rng *rng, unsigned more)
{
    while (more > 0) {
        unsigned take = more < 32 ? more : 32;
        uint64_t value = 0;
        int rc = dpsel_internal_rng_bits(rng, take, &value);
        if (rc != DPSEL_OK) {
            return rc;
        }
        mpz_mul_2exp(a->k, a->k, take);
        mpz_add_ui(a->k, a->k, (unsigned long)value);  /* below 2^32 */
        a->bits += take;
        more -= take;
    }
    return DPSEL_OK;
}

/* Twice the bits (at most the cap), and the new enclosure. */
static int refine(race *r, racer *a, dpsel_rng *rng)
{
    unsigned room = DPSEL_PF_RUNS_MAX_BITS - a->bits;
    int rc = read_bits(a, rng, a->bits < room ? a->bits : room);
    if (rc == DPSEL_OK) {
        enclose_end(r, a, 1);
        enclose_end(r, a, 0);
    }
    return rc;
}

/* The racer whose enclosure is wider (the one with fewer bits when both
 * are unbounded or equal), or the other if it has all its bits; NULL when
 * both have. */
static racer *to_refine(race *r, racer *a, racer *b)
{
    mpfr_sub(r->width_a, a->hi, a->lo, MPFR_RNDU);
    mpfr_sub(r->width_b, b->hi, b->lo, MPFR_RNDU);
    int order = mpfr_cmp(r->width_a, r->width_b);
    racer *wider = order > 0 || (order == 0 && a->bits <= b->bits) ? a : b;
    racer *other = wider == a ? b : a;
    if (wider->bits < DPSEL_PF_RUNS_MAX_BITS) {
        return wider;
    }
    return other->bits < DPSEL_PF_RUNS_MAX_BITS ? other : NULL;
}

/* A fresh uniform for group j, read to the first bits, and its upper end. */
static int start(race *r, racer *a, size_t j, uint64_t gap, uint64_t members, dpsel_rng *rng)
{
    a->index = j;
    a->gap = gap;
    a->members = members;
    a->bits = 0;
    mpz_set_ui(a->k, 0);
    int rc = read_bits(a, rng, r->first_bits);
    if (rc == DPSEL_OK) {
        enclose_end(r, a, 1);
    }
    return rc;
}

/* *wins: whether the challenger's Z is above the leader's, reading bits of
 * the wider enclosure until the two are apart.  The challenger's lower end
 * is computed only if its upper end does not already lose. */
static int duel(race *r, racer *leader, racer *challenger, dpsel_rng *rng, int *wins)
{
    if (mpfr_less_p(challenger->hi, leader->lo)) {
        *wins = 0;
        return DPSEL_OK;
    }
    enclose_end(r, challenger, 0);
    for (;;) {
        if (mpfr_less_p(challenger->hi, leader->lo) || mpfr_greater_p(challenger->lo, leader->hi)) {
            *wins = mpfr_greater_p(challenger->lo, leader->hi);
            return DPSEL_OK;
        }
        racer *next = to_refine(r, leader, challenger);
        if (next == NULL) {
            return DPSEL_EUNLIKELY;  /* both uniforms at the cap, still not apart */
        }
        int rc = refine(r, next, rng);
        if (rc != DPSEL_OK) {
            return rc;
        }
    }
}

static int valid_group(uint64_t gap, uint64_t members)
{
    return gap <= DPSEL_GAP_CAP_MAX && members >= 1;
}

/* The race over the groups, the leader's index into *group. */
static int race_groups(race *r, racer *leader, racer *challenger, const uint64_t *gaps,
                       const uint64_t *counts, size_t count, dpsel_rng *rng, size_t *group)
{
    int rc = start(r, leader, 0, gaps[0], counts[0], rng);
    if (rc == DPSEL_OK) {
        enclose_end(r, leader, 0);
    }
    for (size_t j = 1; j < count && rc == DPSEL_OK; j++) {
        rc = dpsel_internal_interrupted_every(rng, j, count);
        if (rc == DPSEL_OK && !valid_group(gaps[j], counts[j])) {
            rc = DPSEL_EINTERNAL;
        }
        int wins = 0;
        if (rc == DPSEL_OK) {
            rc = start(r, challenger, j, gaps[j], counts[j], rng);
        }
        if (rc == DPSEL_OK) {
            rc = duel(r, leader, challenger, rng, &wins);
        }
        if (rc == DPSEL_OK && wins) {
            racer *former = leader;
            leader = challenger;
            challenger = former;
        }
    }
    *group = leader->index;
    return rc;
}

int dpsel_exact_pf_groups(uint64_t x, unsigned y, const uint64_t *gaps, const uint64_t *counts,
                          size_t count, unsigned first_bits, dpsel_rng *rng, size_t *group)
{
    if (gaps == NULL || counts == NULL || rng == NULL || group == NULL || count == 0
        || !dpsel_core_base_valid(x, y) || first_bits < 1
        || first_bits > DPSEL_PF_RUNS_MAX_BITS || !valid_group(gaps[0], counts[0])) {
        return DPSEL_EINTERNAL;
    }
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    mpfr_clear_flags();
    race r;
    race_init(&r, x, y, first_bits);
    racer a, b;
    racer_init(&a);
    racer_init(&b);
    size_t winner = 0;
    int rc = race_groups(&r, &a, &b, gaps, counts, count, rng, &winner);
    /* none of these can happen (spec/quantiles.md §7): checked, not assumed */
    if (rc == DPSEL_OK && (r.inexact || mpfr_nanflag_p() || mpfr_overflow_p()
                           || mpfr_underflow_p() || mpfr_divby0_p() || mpfr_erangeflag_p())) {
        rc = DPSEL_EINTERNAL;
    }
    if (rc == DPSEL_OK) {
        *group = winner;
    }
    racer_clear(&a);
    racer_clear(&b);
    race_clear(&r);
    dpsel_exact_mpfr_leave(&host);
    return rc;
}
