/* SPDX-License-Identifier: ISC */
/*
 * PF's per-level probabilities by certified quadrature (spec/mechanisms.md
 * §8): P_l = w_l int_0^1 F_l(t) dt, F_l(t) = prod_h (1 - w_h t)^(m_h - [h = l]),
 * at a cost O(levels x terms) per piece of [0, 1], whatever the candidates.
 *
 * A piece [a, b] (exact dyadic ends, b < 1) is read from its right end:
 * t = b - delta x, x in [0, 1], beta_h = 1 - w_h b > 0, e_h = w_h delta / beta_h,
 * so 1 - w_h t = beta_h (1 + e_h x) and
 *   int_a^b F_l = delta F_l(b) int_0^1 G_l(x) dx,
 *   G_l(x) = prod_h (1 + e_h x)^(m_h - [h = l]),
 * a polynomial with non-negative coefficients.  G = prod_h (1 + e_h x)^m_h
 * has coefficients gamma_k from Newton's identity
 *   k gamma_k = sum_{j=1..k} (-1)^(j+1) q_j gamma_(k-j),  q_j = sum_h m_h e_h^j,
 * whose first K + 1 are enclosed by interval arithmetic (each bound a
 * directed rounding of non-negative operands, the lower one clamped at 0:
 * the exact coefficients are non-negative).  The rest: coefficientwise
 * (1 + e x)^m <= exp(m e x), so G <= exp(E x), E = q_1, and
 *   0 <= int_0^1 x^i sum_{k > K} gamma_k x^k dx <= sum_{k > K} E^k / (k + 1)!
 *                                              <= 2 E^(K+1) / (K + 2)!
 * when E <= (K + 3) / 2.  So the moments M_i = int_0^1 x^i G(x) dx are
 * enclosed, and with G_l = G / (1 + e_l x) = G sum_i (-e_l x)^i,
 *   int_0^1 G_l = sum_{i < I} (-e_l)^i M_i + R,  |R| <= 2 e_l^I M_0
 * (M_i <= M_0, e_l <= 1/2).  The terms m e^j of q_j below 2^-(work) are
 * bounded instead of computed (each later one is at most the first of them,
 * as e < 1), and I is the least with e_l^I below 2^-(prec + TAIL_BITS + 4):
 * a level far below the best costs a few operations per piece.  The pieces
 * are chosen with E <= STEP_MASS and every e_h < 1/4 (which bounds the
 * cancellation of Newton's identity and of the alternating sums), from
 * t = 0 until the final piece [a, 1] fits (there the top level, of weight 1,
 * has 1 - t = delta x: its factor is the monomial (delta x)^m, taken into
 * the moments' powers) or the rest [T, 1] is negligible: F_l is
 * non-increasing, so 0 <= int_T^1 F_l <= (1 - T) F_l(T) <= F(T).
 */
#include <stdlib.h>

#include "exact.h"

#define STEP_MASS 4u            /* the most E = sum_h m_h e_h on a piece */
#define GUARD_BITS 32           /* the recurrences' precision above the target */
#define POINT_BITS 320          /* the pieces' ends: exact dyadics below this */
#define TAIL_BITS 8             /* truncations below 2^-(prec + TAIL_BITS) */
#define MAX_PIECES 100000u      /* never reached (a few hundred at most): a guard */
#define EXPECTED_PIECES 40u     /* for the progress meter: a typical count */

/* Bounds of a non-negative number. */
typedef struct {
    mpfr_t lo, hi;
} bounds;

typedef struct {
    size_t count;
    const size_t *members;
    mpfr_t *w_lo, *w_hi;
    mpfr_prec_t prec;       /* the target's */
    mpfr_prec_t work;       /* the recurrences' */
    mpfr_prec_t series_bits; /* e^I below 2^-series_bits ends a series */
    size_t terms;           /* the most K a piece may need (E = STEP_MASS) */
    size_t used_terms;      /* this piece's K */
    size_t moments;         /* the most M_i a piece may need, plus one */
    size_t top;             /* the level of weight 1 (count if none) */
    int final;              /* the piece ends at 1 */
    bounds *beta, *e;       /* per level, at b */
    bounds *area;           /* per level: int_0^a F_l */
    bounds *q, *gamma;      /* K + 1 each */
    mpfr_t *spill;          /* K + 2: bounds of the q_j terms not computed */
    bounds *moment;         /* moments entries */
    size_t moments_used;    /* those of this piece */
    bounds f_b;             /* F(b) */
    bounds mass;            /* int_0^a F (its lower bound decides the end) */
    bounds power, plus, minus, term;  /* scratch */
    mpfr_t a, b, delta, last_delta, rest, tail, e_max, e_sum;
} quadrature;

static bounds *bounds_new(size_t count, mpfr_prec_t prec)
{
    bounds *v = malloc(count * sizeof *v);
    for (size_t i = 0; v != NULL && i < count; i++) {
        mpfr_inits2(prec, v[i].lo, v[i].hi, (mpfr_ptr)0);
    }
    return v;
}

static void bounds_free(bounds *v, size_t count)
{
    for (size_t i = 0; v != NULL && i < count; i++) {
        mpfr_clears(v[i].lo, v[i].hi, (mpfr_ptr)0);
    }
    free(v);
}

static void bounds_set_ui(bounds *v, unsigned long value)
{
    mpfr_set_ui(v->lo, value, MPFR_RNDD);
    mpfr_set_ui(v->hi, value, MPFR_RNDU);
}

/* v = x y, both bounds. */
static void bounds_mul(bounds *v, const bounds *x, const bounds *y)
{
    mpfr_mul(v->lo, x->lo, y->lo, MPFR_RNDD);
    mpfr_mul(v->hi, x->hi, y->hi, MPFR_RNDU);
}

static void bounds_add(bounds *v, const bounds *x)
{
    mpfr_add(v->lo, v->lo, x->lo, MPFR_RNDD);
    mpfr_add(v->hi, v->hi, x->hi, MPFR_RNDU);
}

/* The least K >= 2 STEP_MASS with 2 c^(K+1) / (K+2)! <= 2^-(prec + TAIL_BITS),
 * c = STEP_MASS. */
static size_t choose_terms(mpfr_prec_t prec)
{
    mpfr_t tail;
    mpfr_init2(tail, 64);
    mpfr_set_ui(tail, STEP_MASS, MPFR_RNDU);   /* K = 0: 2 c / 2 */
    size_t k = 0;
    while (k < 2 * STEP_MASS || mpfr_cmp_ui_2exp(tail, 1, -(long)(prec + TAIL_BITS)) > 0) {
        k++;
        mpfr_mul_ui(tail, tail, STEP_MASS, MPFR_RNDU);
        mpfr_div_ui(tail, tail, (unsigned long)(k + 2), MPFR_RNDU);
    }
    mpfr_clear(tail);
    return k;
}

static void quadrature_free(quadrature *qd)
{
    bounds_free(qd->beta, qd->count);
    bounds_free(qd->e, qd->count);
    bounds_free(qd->area, qd->count);
    bounds_free(qd->q, qd->terms + 1);
    bounds_free(qd->gamma, qd->terms + 1);
    bounds_free(qd->moment, qd->moments);
    dpsel_exact_numbers_free(qd->spill, qd->terms + 2);
    mpfr_clears(qd->f_b.lo, qd->f_b.hi, qd->mass.lo, qd->mass.hi, qd->power.lo, qd->power.hi,
                qd->plus.lo, qd->plus.hi, qd->minus.lo, qd->minus.hi, qd->term.lo, qd->term.hi,
                qd->a, qd->b, qd->delta, qd->last_delta, qd->rest, qd->tail, qd->e_max, qd->e_sum, (mpfr_ptr)0);
}

static int quadrature_init(quadrature *qd, const size_t *members, size_t count, mpfr_t *w_lo,
                           mpfr_t *w_hi, mpfr_prec_t prec)
{
    mpfr_prec_t point = prec + POINT_BITS;
    qd->count = count;
    qd->members = members;
    qd->w_lo = w_lo;
    qd->w_hi = w_hi;
    qd->prec = prec;
    qd->work = prec + GUARD_BITS;
    qd->series_bits = prec + TAIL_BITS + 4;
    qd->terms = choose_terms(prec);
    qd->moments = (size_t)qd->series_bits / 2 + 3;  /* every e_h < 1/4 */
    qd->top = count;
    for (size_t l = 0; l < count; l++) {
        qd->top = mpfr_cmp_ui(w_lo[l], 1) == 0 ? l : qd->top;
    }
    qd->beta = bounds_new(count, point);
    qd->e = bounds_new(count, qd->work);
    qd->area = bounds_new(count, qd->work);
    qd->q = bounds_new(qd->terms + 1, qd->work);
    qd->gamma = bounds_new(qd->terms + 1, qd->work);
    qd->moment = bounds_new(qd->moments, qd->work);
    qd->spill = dpsel_exact_numbers_new(qd->terms + 2, qd->work);
    mpfr_inits2(qd->work, qd->f_b.lo, qd->f_b.hi, qd->mass.lo, qd->mass.hi, qd->power.lo,
                qd->power.hi, qd->plus.lo, qd->plus.hi, qd->minus.lo, qd->minus.hi, qd->term.lo,
                qd->term.hi, qd->tail, qd->e_max, qd->e_sum, (mpfr_ptr)0);
    mpfr_inits2(point, qd->a, qd->b, qd->delta, qd->last_delta, qd->rest, (mpfr_ptr)0);
    if (qd->beta == NULL || qd->e == NULL || qd->area == NULL || qd->q == NULL
        || qd->gamma == NULL || qd->moment == NULL || qd->spill == NULL) {
        quadrature_free(qd);
        return DPSEL_ENOMEM;
    }
    for (size_t l = 0; l < count; l++) {
        bounds_set_ui(&qd->area[l], 0);
    }
    bounds_set_ui(&qd->mass, 0);
    mpfr_set_ui(qd->a, 0, MPFR_RNDN);
    mpfr_set_ui_2exp(qd->last_delta, 1, -4, MPFR_RNDN);
    return DPSEL_OK;
}

/* beta_h = 1 - w_h b and e_h = w_h delta / beta_h at b = a + delta (b = 1
 * for the final piece, where the top level's factor is (delta x)^m instead:
 * beta_top = delta, e_top = 0); 1 if E = sum_h m_h e_h <= STEP_MASS (its
 * upper bound: e_sum) and every e_h < 1/4 (their largest: e_max).  w_h b
 * rounded up stays at most b (exact at the points' precision), so beta_h
 * >= 1 - b > 0 but for the top level of the final piece. */
static int piece_fits(quadrature *qd)
{
    mpfr_set_ui(qd->e_sum, 0, MPFR_RNDU);
    mpfr_set_ui(qd->e_max, 0, MPFR_RNDU);
    int fits = 1;
    for (size_t h = 0; h < qd->count && fits; h++) {
        bounds *beta = &qd->beta[h], *e = &qd->e[h];
        if (qd->final && h == qd->top) {
            mpfr_set(beta->lo, qd->delta, MPFR_RNDD);     /* exact */
            mpfr_set(beta->hi, qd->delta, MPFR_RNDU);
            bounds_set_ui(e, 0);
            continue;
        }
        mpfr_mul(beta->lo, qd->w_hi[h], qd->b, MPFR_RNDU);
        mpfr_ui_sub(beta->lo, 1, beta->lo, MPFR_RNDD);
        mpfr_mul(beta->hi, qd->w_lo[h], qd->b, MPFR_RNDD);
        mpfr_ui_sub(beta->hi, 1, beta->hi, MPFR_RNDU);
        mpfr_mul(e->lo, qd->w_lo[h], qd->delta, MPFR_RNDD);
        mpfr_div(e->lo, e->lo, beta->hi, MPFR_RNDD);
        mpfr_mul(e->hi, qd->w_hi[h], qd->delta, MPFR_RNDU);
        mpfr_div(e->hi, e->hi, beta->lo, MPFR_RNDU);
        mpfr_mul_ui(qd->term.hi, e->hi, (unsigned long)qd->members[h], MPFR_RNDU);
        mpfr_add(qd->e_sum, qd->e_sum, qd->term.hi, MPFR_RNDU);
        mpfr_max(qd->e_max, qd->e_max, e->hi, MPFR_RNDU);
        fits = mpfr_cmp_ui_2exp(e->hi, 1, -2) < 0 && mpfr_cmp_ui(qd->e_sum, STEP_MASS) <= 0;
    }
    return fits;
}

/* The next piece [a, b]: the final one [a, 1] if it fits, else delta a power
 * of two at most (1 - a) / 4 (so b < 1), twice the last one at most, halved
 * until the piece fits.  DPSEL_EINTERNAL if an end is not exact (cannot
 * happen: see POINT_BITS). */
static int place_piece(quadrature *qd)
{
    mpfr_ui_sub(qd->rest, 1, qd->a, MPFR_RNDN);             /* exact */
    mpfr_set(qd->delta, qd->rest, MPFR_RNDN);
    mpfr_set_ui(qd->b, 1, MPFR_RNDN);
    qd->final = 1;
    if (piece_fits(qd)) {
        return DPSEL_OK;
    }
    qd->final = 0;
    mpfr_set_ui_2exp(qd->delta, 1, mpfr_get_exp(qd->rest) - 3, MPFR_RNDN);
    if (mpfr_cmp_ui_2exp(qd->last_delta, 1, mpfr_get_exp(qd->rest) - 4) < 0) {
        mpfr_mul_2ui(qd->delta, qd->last_delta, 1, MPFR_RNDN);
    }
    for (;;) {
        if (mpfr_add(qd->b, qd->a, qd->delta, MPFR_RNDN) != 0
            || mpfr_get_exp(qd->delta) < mpfr_get_exp(qd->rest) - (mpfr_exp_t)POINT_BITS / 2) {
            return DPSEL_EINTERNAL;
        }
        if (piece_fits(qd)) {
            mpfr_set(qd->last_delta, qd->delta, MPFR_RNDN);
            return DPSEL_OK;
        }
        mpfr_div_2ui(qd->delta, qd->delta, 1, MPFR_RNDN);
    }
}

/* m e^j into q_j for j = 1, 2, ... while above 2^-work; the first below it
 * bounds every later one (e < 1), into spill[j]. */
static void add_powers(quadrature *qd, unsigned long m, const bounds *e)
{
    mpfr_set(qd->power.lo, e->lo, MPFR_RNDD);
    mpfr_set(qd->power.hi, e->hi, MPFR_RNDU);
    for (size_t j = 1; j <= qd->used_terms; j++) {
        mpfr_mul_ui(qd->term.hi, qd->power.hi, m, MPFR_RNDU);
        if (mpfr_get_exp(qd->term.hi) < -(mpfr_exp_t)qd->work || mpfr_zero_p(qd->term.hi)) {
            mpfr_add(qd->spill[j], qd->spill[j], qd->term.hi, MPFR_RNDU);
            return;
        }
        mpfr_mul_ui(qd->term.lo, qd->power.lo, m, MPFR_RNDD);
        bounds_add(&qd->q[j], &qd->term);
        bounds_mul(&qd->power, &qd->power, e);
    }
}

/* q_j = sum_h m_h e_h^j, j = 1..K; the spilled terms of each h from its
 * first spill on added to the upper bounds. */
static void power_sums(quadrature *qd)
{
    for (size_t j = 1; j <= qd->used_terms; j++) {
        bounds_set_ui(&qd->q[j], 0);
        mpfr_set_ui(qd->spill[j], 0, MPFR_RNDU);
    }
    for (size_t h = 0; h < qd->count; h++) {
        add_powers(qd, (unsigned long)qd->members[h], &qd->e[h]);
    }
    mpfr_t *running = &qd->term.hi;
    mpfr_set_ui(*running, 0, MPFR_RNDU);
    for (size_t j = 1; j <= qd->used_terms; j++) {
        mpfr_add(*running, *running, qd->spill[j], MPFR_RNDU);
        mpfr_add(qd->q[j].hi, qd->q[j].hi, *running, MPFR_RNDU);
    }
}

/* gamma_k by Newton's identity: the terms of odd j add (into plus), those
 * of even j subtract (into minus); each side is a sum of non-negative
 * products. */
static void newton(quadrature *qd)
{
    bounds_set_ui(&qd->gamma[0], 1);
    for (size_t k = 1; k <= qd->used_terms; k++) {
        bounds_set_ui(&qd->plus, 0);
        bounds_set_ui(&qd->minus, 0);
        for (size_t j = 1; j <= k; j++) {
            bounds_mul(&qd->term, &qd->q[j], &qd->gamma[k - j]);
            bounds_add(j % 2 == 1 ? &qd->plus : &qd->minus, &qd->term);
        }
        mpfr_sub(qd->gamma[k].lo, qd->plus.lo, qd->minus.hi, MPFR_RNDD);
        mpfr_div_ui(qd->gamma[k].lo, qd->gamma[k].lo, (unsigned long)k, MPFR_RNDD);
        if (mpfr_sgn(qd->gamma[k].lo) < 0) {
            mpfr_set_ui(qd->gamma[k].lo, 0, MPFR_RNDD);
        }
        mpfr_sub(qd->gamma[k].hi, qd->plus.hi, qd->minus.lo, MPFR_RNDU);
        mpfr_div_ui(qd->gamma[k].hi, qd->gamma[k].hi, (unsigned long)k, MPFR_RNDU);
    }
}

/* This piece's K: the least K >= 5 with 2 E^(K+1) / (K+2)! below
 * 2^-(prec + TAIL_BITS), E = e_sum (at most K = terms, which choose_terms
 * sized for E = STEP_MASS), and that bound of the truncated terms' integral
 * into tail (valid as E <= STEP_MASS <= (K + 3) / 2). */
static void truncation_bound(quadrature *qd)
{
    mpfr_set(qd->tail, qd->e_sum, MPFR_RNDU);               /* K = 0: 2 E / 2 */
    size_t k = 0;
    while (k < qd->terms
           && (k < 5 || mpfr_cmp_ui_2exp(qd->tail, 1, -(long)(qd->prec + TAIL_BITS)) > 0)) {
        k++;
        mpfr_mul(qd->tail, qd->tail, qd->e_sum, MPFR_RNDU);
        mpfr_div_ui(qd->tail, qd->tail, (unsigned long)(k + 2), MPFR_RNDU);
    }
    qd->used_terms = k;
}

/* The exponent of x in the top level's factor on the final piece: m_top
 * for the other levels, one less for the top's own (0 elsewhere). */
static unsigned long top_power(const quadrature *qd, size_t l)
{
    if (!qd->final || qd->top == qd->count) {
        return 0;
    }
    return (unsigned long)(qd->members[qd->top] - (l == qd->top));
}

/* moment[i] = M_(s + i), M_j = int_0^1 x^j G(x) dx, s the top level's least
 * power (top_power of the top), for the i this piece needs: e_max < 2^E, so
 * e_max^i < 2^-series_bits once i >= series_bits / -E (one more for the
 * levels whose power is s + 1). */
static void moments(quadrature *qd)
{
    mpfr_exp_t e = -mpfr_get_exp(qd->e_max);        /* >= 2: e_max < 1/4 */
    size_t needed = mpfr_zero_p(qd->e_max) ? 2 : (size_t)((qd->series_bits + e - 1) / e) + 2;
    unsigned long shift = top_power(qd, qd->top);
    qd->moments_used = needed < qd->moments ? needed : qd->moments;
    for (size_t i = 0; i < qd->moments_used; i++) {
        bounds *moment = &qd->moment[i];
        bounds_set_ui(moment, 0);
        for (size_t k = 0; k <= qd->used_terms; k++) {
            unsigned long j = shift + (unsigned long)(k + i + 1);
            mpfr_div_ui(qd->term.lo, qd->gamma[k].lo, j, MPFR_RNDD);
            mpfr_div_ui(qd->term.hi, qd->gamma[k].hi, j, MPFR_RNDU);
            bounds_add(moment, &qd->term);
        }
        mpfr_add(moment->hi, moment->hi, qd->tail, MPFR_RNDU);
    }
}

/* F(b) = prod_h beta_h^m_h. */
static void value_at_b(quadrature *qd)
{
    bounds_set_ui(&qd->f_b, 1);
    for (size_t h = 0; h < qd->count; h++) {
        unsigned long m = (unsigned long)qd->members[h];
        mpfr_pow_ui(qd->term.lo, qd->beta[h].lo, m, MPFR_RNDD);
        mpfr_pow_ui(qd->term.hi, qd->beta[h].hi, m, MPFR_RNDU);
        bounds_mul(&qd->f_b, &qd->f_b, &qd->term);
    }
}

/* sum = int_0^1 G(x) / (1 + e x) dx = sum_i (-e)^i M_i + R, |R| <= 2 e^I M_0,
 * the even i into plus, the odd into minus, until e^I < 2^-series_bits (or
 * the moments computed end: the bound holds for every I). */
static void series(quadrature *qd, const bounds *e, const bounds *moment, size_t count,
                   bounds *sum)
{
    bounds_set_ui(&qd->plus, 0);
    bounds_set_ui(&qd->minus, 0);
    bounds_set_ui(&qd->power, 1);
    size_t i = 0;
    do {
        bounds_mul(&qd->term, &qd->power, &moment[i]);
        bounds_add(i % 2 == 0 ? &qd->plus : &qd->minus, &qd->term);
        bounds_mul(&qd->power, &qd->power, e);
        i++;
    } while (i < count && !mpfr_zero_p(qd->power.hi)
             && mpfr_get_exp(qd->power.hi) > -(mpfr_exp_t)qd->series_bits);
    mpfr_mul(qd->term.hi, qd->power.hi, moment[0].hi, MPFR_RNDU);
    mpfr_mul_2ui(qd->term.hi, qd->term.hi, 1, MPFR_RNDU);
    mpfr_sub(sum->lo, qd->plus.lo, qd->minus.hi, MPFR_RNDD);
    mpfr_sub(sum->lo, sum->lo, qd->term.hi, MPFR_RNDD);
    if (mpfr_sgn(sum->lo) < 0) {
        mpfr_set_ui(sum->lo, 0, MPFR_RNDD);
    }
    mpfr_sub(sum->hi, qd->plus.hi, qd->minus.lo, MPFR_RNDU);
    mpfr_add(sum->hi, sum->hi, qd->term.hi, MPFR_RNDU);
}

/* total += delta F(b) / divisor (NULL: 1) times sum. */
static void accumulate(quadrature *qd, bounds *total, const bounds *sum, const bounds *divisor)
{
    mpfr_mul(qd->term.lo, qd->f_b.lo, qd->delta, MPFR_RNDD);
    mpfr_mul(qd->term.hi, qd->f_b.hi, qd->delta, MPFR_RNDU);
    bounds_mul(&qd->term, &qd->term, sum);
    if (divisor != NULL) {
        mpfr_div(qd->term.lo, qd->term.lo, divisor->hi, MPFR_RNDD);
        mpfr_div(qd->term.hi, qd->term.hi, divisor->lo, MPFR_RNDU);
    }
    bounds_add(total, &qd->term);
}

/* Adds the piece [a, b] to every level's area and to F's. */
static void add_piece(quadrature *qd)
{
    bounds sum;
    mpfr_inits2(qd->work, sum.lo, sum.hi, (mpfr_ptr)0);
    truncation_bound(qd);
    power_sums(qd);
    newton(qd);
    moments(qd);
    value_at_b(qd);
    unsigned long least = top_power(qd, qd->top);
    for (size_t l = 0; l < qd->count; l++) {
        size_t offset = top_power(qd, l) - least;          /* 0 or 1 */
        series(qd, &qd->e[l], &qd->moment[offset], qd->moments_used - offset, &sum);
        accumulate(qd, &qd->area[l], &sum, &qd->beta[l]);
    }
    accumulate(qd, &qd->mass, &qd->moment[0], NULL);
    mpfr_clears(sum.lo, sum.hi, (mpfr_ptr)0);
}

/* The rest [b, 1] is negligible: F(b) <= 2^-(prec + TAIL_BITS) int_0^b F,
 * since (1 - b) F_l(b) = F(b) (1 - b) / (1 - w_l b) <= F(b) for every l. */
static int rest_negligible(quadrature *qd)
{
    mpfr_div_2ui(qd->term.lo, qd->mass.lo, (unsigned long)(qd->prec + TAIL_BITS), MPFR_RNDD);
    return mpfr_lessequal_p(qd->f_b.hi, qd->term.lo);
}

/* lo[l] = w_l area_l, hi[l] = w_l (area_l + F(T)), T the last b (< 1:
 * no rest after the final piece). */
static void finish(quadrature *qd, mpfr_t *lo, mpfr_t *hi)
{
    for (size_t l = 0; l < qd->count; l++) {
        if (!qd->final) {
            mpfr_add(qd->area[l].hi, qd->area[l].hi, qd->f_b.hi, MPFR_RNDU);
        }
        mpfr_mul(lo[l], qd->area[l].lo, qd->w_lo[l], MPFR_RNDD);
        mpfr_mul(hi[l], qd->area[l].hi, qd->w_hi[l], MPFR_RNDU);
    }
}

int dpsel_exact_pf_quadrature(const size_t *members, size_t count, mpfr_t *w_lo,
                              mpfr_t *w_hi, mpfr_prec_t prec, dpsel_progress *progress,
                              mpfr_t *lo, mpfr_t *hi)
{
    quadrature qd;
    int rc = quadrature_init(&qd, members, count, w_lo, w_hi, prec);
    if (rc != DPSEL_OK) {
        return rc;
    }
    uint64_t piece_work = (uint64_t)count * qd.terms;
    dpsel_progress_expect(progress, EXPECTED_PIECES * piece_work);
    mpfr_clear_flags();
    size_t pieces = 0;
    do {
        rc = ++pieces > MAX_PIECES ? DPSEL_EINTERNAL : place_piece(&qd);
        if (rc == DPSEL_OK) {
            add_piece(&qd);
            mpfr_set(qd.a, qd.b, MPFR_RNDN);
            rc = dpsel_progress_add(progress, piece_work);
        }
    } while (rc == DPSEL_OK && !qd.final && !rest_negligible(&qd));
    if (rc == DPSEL_OK && (mpfr_nanflag_p() || mpfr_overflow_p() || mpfr_underflow_p()
                           || mpfr_divby0_p() || mpfr_erangeflag_p())) {
        rc = DPSEL_EINTERNAL;
    }
    if (rc == DPSEL_OK) {
        finish(&qd, lo, hi);
    }
    quadrature_free(&qd);
    return rc;
}
