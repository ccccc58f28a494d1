/* SPDX-License-Identifier: ISC */
/*
 * The noisy-max forms of EM and PF, and RNM's definition, checked
 * as integrals computed here, independently of dpsel's pmf code: only
 * dpsel_pmf_new, dpsel_rnm_pmf_new and their public getters are called, for
 * the enclosures compared (src/exact/pmf.c's, enclosure.c's, quadrature.c's
 * and rnm_pmf.c's formulas are not used).
 *
 * EM releases argmax_r (q''_r + X_r), X_r i.i.d. Gumbel of scale 1 / lambda,
 * lambda = ln(1/beta) (the Gumbel-max trick: EM's weight is beta^(-q)).
 * PF releases argmax_r (q''_r + E_r), E_r i.i.d. exponential of rate lambda,
 * P(E_r > s) = beta^s (spec/mechanisms.md §10: the PF paper's noisy-max form,
 * Ding et al. 2021; the race draws its integer part, geometric noise).
 * q'' are the clamped scores max(q_r, max q - C) of spec §3: the gap cap
 * enters as the gaps g'_r = min(g_r, C) of the scores both mechanisms run
 * on; the expected error then weighs each output by its unclamped gap.
 * RNM releases argmax_r (q_r + Y_r), Y_r i.i.d. Laplace of scale b = 2 D /
 * epsilon (dpsel_rnm_scale's W / P), with no cap.
 *
 * With Q_r the CDF of q''_r plus its noise, P(r) = integral of
 * prod_{j != r} Q_j dQ_r.  In the variable z = lambda (x - max q), t = e^-z:
 *     Gumbel:       Q_j = exp(-t w_j),
 *     exponential:  Q_j = max(0, 1 - t w_j),        w_j = beta^(g'_j);
 * and for RNM in z = (x - max q) / b, with the Laplace CDF L:
 *     Laplace:      Q_j = L(z + w_j),                w_j = g_j / b.
 * Noise of a wrong scale k / lambda (rate lambda / k) gives the same forms in
 * z / k with w_j = beta^(g'_j / k), and Laplace noise of scale k b gives
 * w_j = g_j / (k b): the planted errors below, k = 2.
 *
 * The enclosure.  H_r = prod_{j != r} Q_j is non-decreasing in z (each Q_j
 * is a CDF), so over a piece [z_k, z_k+1] the Stieltjes integral lies in
 * [H_r(z_k), H_r(z_k+1)] (Q_r(z_k+1) - Q_r(z_k)); below the first point in
 * [0, H_r(z_0) Q_r(z_0)], above the last in
 * [H_r(z_K) (1 - Q_r(z_K)), 1 - Q_r(z_K)].  The points are a grid of step
 * 2^-9 on [-5, 16] (Gumbel), [0, 16] (exponential: below 0 the best
 * candidate's Q is 0) or [-16 - max w, 16] (Laplace), exact at the working
 * precision; every value is bounded with MPFR in directed rounding, each
 * operation monotone in its operands and fed the bounds that push it the
 * way asked.  The tails are below e^-148 (left) and e^-16 n (right,
 * relative to P(r) >= w_r / n) for Gumbel and exponential noise, both below
 * e^-16 2^n relative for Laplace noise.
 * 128 bits keep the differences of Q near 1 exact enough for the
 * probabilities near beta^C <= 2^-64.  The pieces leave a relative width of
 * about 1.5e-3 (checked below 2^-8, so that an overlap means something);
 * dpsel's enclosures are 1e-30 wide.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <mpfr.h>
#include <stdlib.h>

#include "support.h"

#define BITS 128
#define STEP_LOG2 9
#define Z_LAST 16
#define Z_FIRST_GUMBEL (-5)
#define PROBABILITY_DIGITS 40
#define MAX_CANDIDATES 6

typedef enum { GUMBEL_NOISE, EXPONENTIAL_NOISE, LAPLACE_NOISE } noise_kind;

/* lo <= value <= hi. */
typedef struct {
    mpfr_t lo, hi;
} interval;

static interval *intervals_new(size_t n)
{
    interval *v = malloc(n * sizeof *v);
    cr_assert(v != NULL);
    for (size_t i = 0; i < n; i++) {
        mpfr_inits2(BITS, v[i].lo, v[i].hi, (mpfr_ptr)0);
        mpfr_set_zero(v[i].lo, 1);
        mpfr_set_zero(v[i].hi, 1);
    }
    return v;
}

static void intervals_free(interval *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        mpfr_clears(v[i].lo, v[i].hi, (mpfr_ptr)0);
    }
    free(v);
}

/* beta^(gap / scale), beta = x / 2^y: x^gap / 2^(y gap), then its root. */
static void noise_weight(interval *w, const dpsel_params *p, uint64_t gap, unsigned long scale)
{
    mpfr_ptr side[2] = { w->lo, w->hi };
    mpfr_rnd_t toward[2] = { MPFR_RNDD, MPFR_RNDU };
    for (int s = 0; s < 2; s++) {
        mpfr_ui_pow_ui(side[s], (unsigned long)p->x, (unsigned long)gap, toward[s]);
        mpfr_div_2ui(side[s], side[s], (unsigned long)p->y * gap, toward[s]);
        mpfr_rootn_ui(side[s], side[s], scale, toward[s]);
    }
}

/* The CDF at u = t w (exact input, result rounded by rnd): exp(-u) or
 * max(0, 1 - u); both are non-increasing in u. */
static void cdf_at(mpfr_t out, noise_kind kind, const mpfr_t u, mpfr_rnd_t rnd)
{
    if (kind == GUMBEL_NOISE) {
        mpfr_neg(out, u, rnd);
        mpfr_exp(out, out, rnd);
    } else {
        mpfr_ui_sub(out, 1, u, rnd);
        if (mpfr_sgn(out) < 0) {
            mpfr_set_zero(out, 1);
        }
    }
}

/* The Laplace CDF at u, rounded by rnd: e^u / 2 below 0, 1 - e^-u / 2 from
 * 0 (non-decreasing in u). */
static void laplace_cdf(mpfr_t out, const mpfr_t u, mpfr_rnd_t rnd)
{
    if (mpfr_sgn(u) < 0) {
        mpfr_exp(out, u, rnd);
        mpfr_div_2ui(out, out, 1, rnd);
    } else {
        mpfr_neg(out, u, MPFR_RNDN);
        mpfr_exp(out, out, rnd == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD);
        mpfr_div_2ui(out, out, 1, rnd);
        mpfr_ui_sub(out, 1, out, rnd);
    }
}

/* Q_j at the grid point z (t = e^-z) for every candidate: Gumbel and
 * exponential from t w_j (the lower bound from its upper bound, and the
 * other way), Laplace from z + w_j. */
static void cdfs(interval *q, noise_kind kind, const mpfr_t z, const interval *t,
                 const interval *w, size_t n, mpfr_t scratch)
{
    for (size_t j = 0; j < n; j++) {
        if (kind == LAPLACE_NOISE) {
            mpfr_add(scratch, z, w[j].lo, MPFR_RNDD);
            laplace_cdf(q[j].lo, scratch, MPFR_RNDD);
            mpfr_add(scratch, z, w[j].hi, MPFR_RNDU);
            laplace_cdf(q[j].hi, scratch, MPFR_RNDU);
            continue;
        }
        mpfr_mul(scratch, t->hi, w[j].hi, MPFR_RNDU);
        cdf_at(q[j].lo, kind, scratch, MPFR_RNDD);
        mpfr_mul(scratch, t->lo, w[j].lo, MPFR_RNDD);
        cdf_at(q[j].hi, kind, scratch, MPFR_RNDU);
    }
}

/* The grid point z = first + k 2^-STEP_LOG2 (exact in BITS) and t = e^-z. */
static void grid_point(mpfr_t z, interval *t, long first, long k)
{
    mpfr_set_si(z, k, MPFR_RNDN);
    mpfr_div_2ui(z, z, STEP_LOG2, MPFR_RNDN);
    mpfr_add_si(z, z, first, MPFR_RNDN);
    mpfr_neg(t->lo, z, MPFR_RNDN);
    mpfr_exp(t->hi, t->lo, MPFR_RNDU);
    mpfr_exp(t->lo, t->lo, MPFR_RNDD);
}

/* The grid's first point: Gumbel -5, exponential 0, Laplace 16 below the
 * largest shift's opposite (the best candidate's Q is then below e^-16 of
 * its value at any other's median). */
static long first_point(noise_kind kind, const interval *w, size_t n)
{
    if (kind != LAPLACE_NOISE) {
        return kind == GUMBEL_NOISE ? Z_FIRST_GUMBEL : 0;
    }
    long largest = 0;
    for (size_t j = 0; j < n; j++) {
        long shift = mpfr_get_si(w[j].hi, MPFR_RNDU);
        largest = shift > largest ? shift : largest;
    }
    return -16 - largest;
}

/* H_r's bound: the product of q[j]'s lower (upper) bounds over j != r. */
static void others_product(mpfr_t out, const interval *q, size_t n, size_t r, int upper)
{
    mpfr_rnd_t rnd = upper ? MPFR_RNDU : MPFR_RNDD;
    mpfr_set_ui(out, 1, MPFR_RNDN);
    for (size_t j = 0; j < n; j++) {
        if (j != r) {
            mpfr_mul(out, out, upper ? q[j].hi : q[j].lo, rnd);
        }
    }
}

/* The pieces' sums: adds to p[r] the bounds of the integral over [z_prev, z_next]. */
static void add_piece(interval *p, const interval *prev, const interval *next, size_t n,
                      mpfr_t h, mpfr_t d)
{
    for (size_t r = 0; r < n; r++) {
        mpfr_sub(d, next[r].lo, prev[r].hi, MPFR_RNDD);
        if (mpfr_sgn(d) > 0) {
            others_product(h, prev, n, r, 0);
            mpfr_mul(h, h, d, MPFR_RNDD);
            mpfr_add(p[r].lo, p[r].lo, h, MPFR_RNDD);
        }
        mpfr_sub(d, next[r].hi, prev[r].lo, MPFR_RNDU);
        others_product(h, next, n, r, 1);
        mpfr_mul(h, h, d, MPFR_RNDU);
        mpfr_add(p[r].hi, p[r].hi, h, MPFR_RNDU);
    }
}

/* The tails below the first point (q at it) and above the last (q at it). */
static void add_tails(interval *p, const interval *first, const interval *last, size_t n,
                      mpfr_t h, mpfr_t d)
{
    for (size_t r = 0; r < n; r++) {
        others_product(h, first, n, r, 1);
        mpfr_mul(h, h, first[r].hi, MPFR_RNDU);
        mpfr_add(p[r].hi, p[r].hi, h, MPFR_RNDU);
        mpfr_ui_sub(d, 1, last[r].hi, MPFR_RNDD);
        others_product(h, last, n, r, 0);
        mpfr_mul(h, h, d, MPFR_RNDD);
        mpfr_add(p[r].lo, p[r].lo, h, MPFR_RNDD);
        mpfr_ui_sub(d, 1, last[r].lo, MPFR_RNDU);
        mpfr_add(p[r].hi, p[r].hi, d, MPFR_RNDU);
    }
}

/* Encloses P(r) = integral of prod_{j != r} Q_j dQ_r for every r into p. */
static void noisy_max_enclosure(noise_kind kind, const interval *w, size_t n, interval *p)
{
    long first = first_point(kind, w, n);
    long points = (Z_LAST - first) << STEP_LOG2;
    interval *prev = intervals_new(n), *next = intervals_new(n), *initial = intervals_new(n);
    interval *t = intervals_new(1);
    mpfr_t z, h, d;
    mpfr_inits2(BITS, z, h, d, (mpfr_ptr)0);
    grid_point(z, t, first, 0);
    cdfs(prev, kind, z, t, w, n, h);
    cdfs(initial, kind, z, t, w, n, h);
    for (long k = 1; k <= points; k++) {
        grid_point(z, t, first, k);
        cdfs(next, kind, z, t, w, n, h);
        add_piece(p, prev, next, n, h, d);
        interval *swap = prev;
        prev = next;
        next = swap;
    }
    add_tails(p, initial, prev, n, h, d);
    mpfr_clears(z, h, d, (mpfr_ptr)0);
    intervals_free(t, 1);
    intervals_free(initial, n);
    intervals_free(next, n);
    intervals_free(prev, n);
}

/* ------------------------------------------------- the comparison with dpsel */

typedef struct {
    uint64_t sensitivity;
    uint64_t gap_cap; /* 0: the default */
    size_t n;
    int64_t scores[MAX_CANDIDATES];
} noisy_case;

/* What to integrate: the noise's scale in units of the mechanism's (1 /
 * lambda, or b), and whether EM's and PF's gaps are clamped at the cap (as
 * the mechanisms are). */
typedef struct {
    unsigned long scale;
    int clamped;
} integral_form;

static const integral_form TRUE_FORM = { 1, 1 };

static const char *const EPSILONS[] = { "0.5", "3" };

/* Ties, a staircase, gaps past the default cap (and the int64 extremes),
 * sensitivity 3, and gaps past an explicit cap of 3 (RNM has no cap: the
 * cases of gaps up to LAPLACE_GAP_MAX are its). */
static const noisy_case CASES[] = {
    { 1, 0, 4, { 5, 5, 3, 0 } },
    { 1, 0, 6, { 7, 6, 5, 4, 3, 2 } },
    { 1, 0, 5, { 1000000, 999999, 0, -200, 1000000 } },
    { 1, 0, 3, { INT64_MAX, INT64_MIN, INT64_MAX - 2 } },
    { 3, 0, 4, { 12, 9, 11, 0 } },
    { 1, 3, 4, { 10, 9, 2, 0 } },
};
#define LAPLACE_GAP_MAX 64
#define CASE_COUNT (sizeof CASES / sizeof CASES[0])

static dpsel_params case_params(const noisy_case *c, const char *epsilon)
{
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, epsilon, c->sensitivity, 0), DPSEL_OK);
    if (c->gap_cap != 0) {
        cr_assert_eq(dpsel_params_set_gap_cap(&p, c->gap_cap), DPSEL_OK);
    }
    return p;
}

static uint64_t gap_of(const noisy_case *c, size_t r)
{
    int64_t best = c->scores[0];
    for (size_t j = 1; j < c->n; j++) {
        best = c->scores[j] > best ? c->scores[j] : best;
    }
    return (uint64_t)best - (uint64_t)c->scores[r];
}

/* dpsel's enclosure of P(r), or of the expected error for r == n. */
static void dpsel_bounds(const dpsel_pmf *pmf, size_t n, size_t r, interval *out)
{
    char *lo = NULL, *hi = NULL;
    int rc = r < n ? dpsel_pmf_probability_bounds(pmf, r, PROBABILITY_DIGITS, &lo, &hi)
                   : dpsel_pmf_expected_error_bounds(pmf, PROBABILITY_DIGITS, &lo, &hi);
    cr_assert_eq(rc, DPSEL_OK);
    cr_assert_eq(mpfr_set_str(out->lo, lo, 10, MPFR_RNDD), 0);
    cr_assert_eq(mpfr_set_str(out->hi, hi, 10, MPFR_RNDU), 0);
    dpsel_string_free(lo);
    dpsel_string_free(hi);
}

static int overlaps(const interval *a, const interval *b)
{
    return mpfr_lessequal_p(a->lo, b->hi) && mpfr_lessequal_p(b->lo, a->hi);
}

/* Whether hi - lo <= 2^-8 lo: narrow enough for an overlap to mean something. */
static int narrow(const interval *v)
{
    mpfr_t width;
    mpfr_init2(width, BITS);
    mpfr_sub(width, v->hi, v->lo, MPFR_RNDU);
    mpfr_mul_2si(width, width, 8, MPFR_RNDU);
    int ok = mpfr_lessequal_p(width, v->lo);
    mpfr_clear(width);
    return ok;
}

/* A mechanism's noise at an epsilon: EM's and PF's base, RNM's Laplace
 * scale b = W / P (dpsel_rnm_scale). */
typedef struct {
    dpsel_mechanism mechanism;
    noise_kind kind;
    dpsel_params params;
    uint64_t scale_w, scale_p;
} noise_model;

static noise_model model_of(const noisy_case *c, const char *epsilon, dpsel_mechanism mechanism)
{
    noise_model m = { .mechanism = mechanism };
    if (mechanism == DPSEL_RNM) {
        m.kind = LAPLACE_NOISE;
        cr_assert_eq(dpsel_rnm_scale(epsilon, c->sensitivity, 0, &m.scale_w, &m.scale_p),
                     DPSEL_OK);
    } else {
        m.kind = mechanism == DPSEL_EM ? GUMBEL_NOISE : EXPONENTIAL_NOISE;
        m.params = case_params(c, epsilon);
    }
    return m;
}

/* A candidate's term in its Q: w = beta^(g / k) (EM, PF; g clamped at the
 * cap unless the form says not) or the shift g / (k b) = g P / (k W) (RNM),
 * for noise of k times the mechanism's scale. */
static void noise_term(interval *w, const noise_model *m, uint64_t gap, integral_form form)
{
    if (m->kind != LAPLACE_NOISE) {
        uint64_t cap = m->params.gap_cap;
        noise_weight(w, &m->params, form.clamped && gap > cap ? cap : gap, form.scale);
        return;
    }
    mpfr_ptr side[2] = { w->lo, w->hi };
    mpfr_rnd_t toward[2] = { MPFR_RNDD, MPFR_RNDU };
    for (int s = 0; s < 2; s++) {
        mpfr_set_ui(side[s], (unsigned long)gap, MPFR_RNDN);
        mpfr_mul_ui(side[s], side[s], (unsigned long)m->scale_p, toward[s]);
        mpfr_div_ui(side[s], side[s], (unsigned long)m->scale_w, toward[s]);
        mpfr_div_ui(side[s], side[s], form.scale, toward[s]);
    }
}

/* The integral's enclosures of every P(r) and, in p[n], of the expected
 * error sum_r g_r P(r) (unclamped gaps). */
static void integrate_case(const noisy_case *c, const noise_model *m, integral_form form,
                           interval *p)
{
    interval *w = intervals_new(c->n);
    for (size_t r = 0; r < c->n; r++) {
        noise_term(&w[r], m, gap_of(c, r), form);
    }
    noisy_max_enclosure(m->kind, w, c->n, p);
    mpfr_t term;
    mpfr_init2(term, BITS);
    for (size_t r = 0; r < c->n; r++) {
        mpfr_mul_ui(term, p[r].lo, (unsigned long)gap_of(c, r), MPFR_RNDD);
        mpfr_add(p[c->n].lo, p[c->n].lo, term, MPFR_RNDD);
        mpfr_mul_ui(term, p[r].hi, (unsigned long)gap_of(c, r), MPFR_RNDU);
        mpfr_add(p[c->n].hi, p[c->n].hi, term, MPFR_RNDU);
    }
    mpfr_clear(term);
    intervals_free(w, c->n);
}

/* Compares the integral's enclosures of the n probabilities and the
 * expected error with dpsel's: *missed counts those that do not overlap,
 * *wide those of the integral's not narrow. */
static void compare(const noisy_case *c, const char *epsilon, dpsel_mechanism mechanism,
                    integral_form form, size_t *missed, size_t *wide)
{
    noise_model model = model_of(c, epsilon, mechanism);
    interval *mine = intervals_new(c->n + 1), *theirs = intervals_new(1);
    dpsel_pmf *pmf = NULL;
    int rc = mechanism == DPSEL_RNM
                 ? dpsel_rnm_pmf_new(&pmf, epsilon, c->sensitivity, 0, c->scores, NULL, c->n,
                                     NULL, NULL)
                 : dpsel_pmf_new(&pmf, &model.params, mechanism, c->scores, c->n);
    cr_assert_eq(rc, DPSEL_OK);
    integrate_case(c, &model, form, mine);
    *missed = *wide = 0;
    for (size_t r = 0; r <= c->n; r++) {
        dpsel_bounds(pmf, c->n, r, theirs);
        *missed += !overlaps(&mine[r], theirs);
        *wide += !narrow(&mine[r]);
    }
    dpsel_pmf_free(pmf);
    intervals_free(theirs, 1);
    intervals_free(mine, c->n + 1);
}

static size_t misses(const noisy_case *c, const char *epsilon, dpsel_mechanism mechanism,
                     integral_form form)
{
    size_t missed, wide;
    compare(c, epsilon, mechanism, form, &missed, &wide);
    return missed;
}

static uint64_t largest_gap(const noisy_case *c)
{
    uint64_t largest = 0;
    for (size_t r = 0; r < c->n; r++) {
        largest = gap_of(c, r) > largest ? gap_of(c, r) : largest;
    }
    return largest;
}

static void expect_characterised(dpsel_mechanism mechanism)
{
    const char *name = mechanism == DPSEL_EM ? "EM" : mechanism == DPSEL_PF ? "PF" : "RNM";
    for (size_t i = 0; i < CASE_COUNT; i++) {
        if (mechanism == DPSEL_RNM && largest_gap(&CASES[i]) > LAPLACE_GAP_MAX) {
            continue;
        }
        for (size_t e = 0; e < sizeof EPSILONS / sizeof EPSILONS[0]; e++) {
            size_t missed, wide;
            compare(&CASES[i], EPSILONS[e], mechanism, TRUE_FORM, &missed, &wide);
            cr_expect_eq(missed, 0, "case %zu, epsilon %s, %s: the noisy-max integral misses "
                         "the pmf", i, EPSILONS[e], name);
            cr_expect_eq(wide, 0, "case %zu, epsilon %s, %s: the integral's enclosure is wide",
                         i, EPSILONS[e], name);
        }
    }
}

Test(noisy_max, em_is_argmax_with_gumbel_noise)
{
    expect_characterised(DPSEL_EM);
}

Test(noisy_max, pf_is_argmax_with_exponential_noise)
{
    expect_characterised(DPSEL_PF);
}

Test(noisy_max, rnm_is_argmax_with_laplace_noise)
{
    expect_characterised(DPSEL_RNM);
}

/* The check can fail: noise of twice the scale (the three mechanisms), and
 * the unclamped gaps of scores past the cap (EM, PF), miss dpsel's
 * enclosures. */
Test(noisy_max, planted_errors_are_caught)
{
    const integral_form twice_the_scale = { 2, 1 }, unclamped = { 1, 0 };
    for (int m = 0; m < 2; m++) {
        dpsel_mechanism mechanism = m ? DPSEL_PF : DPSEL_EM;
        cr_expect_gt(misses(&CASES[0], "1", mechanism, twice_the_scale), 0,
                     "mechanism %d: noise of twice the scale not caught", m);
        cr_expect_gt(misses(&CASES[5], "1", mechanism, unclamped), 0,
                     "mechanism %d: gaps past an explicit cap not caught", m);
        cr_expect_gt(misses(&CASES[2], "1", mechanism, unclamped), 0,
                     "mechanism %d: gaps past the default cap not caught", m);
    }
    cr_expect_gt(misses(&CASES[1], "1", DPSEL_RNM, twice_the_scale), 0,
                 "RNM: noise of twice the scale not caught");
}
