/* SPDX-License-Identifier: ISC */
/*
 * Report noisy max's exact distribution (spec/mechanisms.md §14, "The
 * exact distribution"): rigorous enclosures of P_l, the probability that
 * one given candidate of level l is released, for Laplace noise of scale
 * b = W / P.  Levels: the distinct gaps g_0 = 0 < g_1 < ... (unclamped),
 * m_l candidates each, a_l = e^(-g_l / b).
 *
 * With t = e^(-x/b) / 2 (x the noisy value), a candidate of level h has
 * F_h = 1 - a_h t (its CDF) where a_h t <= 1/2, else 1 / (4 a_h t), and
 * its density is a_h dt, else dt / (4 a_h t^2).  Piece k (1 <= k < L) is
 * t in [1/(2 a_(k-1)), 1/(2 a_k)]; in tau = 2 a_k t it is [rho_k, 1],
 * rho_k = a_k / a_(k-1), and with N the candidates of the levels above k,
 * C = prod_(h < k) (a_k / (2 a_h))^(m_h), w_h = a_h / (2 a_k) <= 1/2 and
 * Pi(tau) = prod_(h >= k) (1 - w_h tau)^(m_h):
 *   a candidate of level l >= k gains C w_l int tau^-N Pi / (1 - w_l tau),
 *   one of level l < k gains C int tau^(-N-1) Pi,
 * both over [rho_k, 1].  Piece 0 is t in [0, 1/2] (tau in [0, 1], N = 0)
 * and the last piece, t >= 1/(2 a_(L-1)), gives every candidate
 * 2^-n e^(-Z / b) / n, Z = sum_h m_h (g_(L-1) - g_h).  The integrals of
 * the monomials are closed forms: (1 - rho^j) / j, (rho^j - 1) / -j, and
 * ln(1 / rho) = (g_k - g_(k-1)) / b, a rational.
 *
 * Rigour: interval arithmetic.  Every number is a pair lo <= value <= hi,
 * each operation rounded down for lo and up for hi (MPFR rounds correctly
 * in the direction asked for); e^(+-Z P / W) from the enclosure of its
 * exact rational argument (Z P set exactly: the ternary value is checked),
 * exp being increasing.  The signed coefficients of Pi cancel: the sum of
 * the terms' magnitudes is at most prod (1 + w tau) / (1 - w tau) times
 * the value (at most 3^D, D the degree), so the working precision is the
 * caller's plus an estimate of that product's bits (cancelled_bits) plus
 * 160, and the caller checks the width.  The work is
 * bounded before it starts (dpsel_exact_rnm_work).
 */
#include <stdlib.h>

#include "exact.h"

/* The most bits of working precision times multiply-adds computed, and
 * the largest Z P / W of an exponential (MPFR's exponent range). */
#define RNM_WORK_MAX ((uint64_t)1 << 35)
#define RNM_EXPONENT_MAX ((uint64_t)1 << 56)
#define RNM_GUARD_BITS 160
#define RNM_CANDIDATES_MAX ((size_t)1 << 16)

/* An enclosure lo <= value <= hi. */
typedef struct {
    mpfr_t lo, hi;
} bound;

/* One pass at one working precision. */
typedef struct {
    mpfr_prec_t prec;
    uint64_t w, p;            /* b = w / p */
    const uint64_t *gap;
    const size_t *members;
    size_t count;             /* L */
    size_t n;
    bound *poly;              /* n + 1: Pi's coefficients in tau */
    bound *quotient;          /* n: Pi / (1 - w_l tau) */
    bound *moment;            /* n + 1: index j + N, int tau^(j - 1) */
    bound *weight;            /* count: w_h of the piece */
    bound *area;              /* count: P_l so far */
    bound rho, rho_inverse, rho_below, scale, term, power, sum;
    mpz_t above_z;            /* Z of the piece: sum_(h < k) m_h (g_k - g_h) */
    dpsel_progress *progress;
} rnm_pass;

static void bound_init(bound *b, mpfr_prec_t prec)
{
    mpfr_inits2(prec, b->lo, b->hi, (mpfr_ptr)0);
}

static void bound_clear(bound *b)
{
    mpfr_clears(b->lo, b->hi, (mpfr_ptr)0);
}

static bound *bounds_new(size_t count, mpfr_prec_t prec)
{
    bound *b = malloc((count > 0 ? count : 1) * sizeof *b);
    for (size_t i = 0; b != NULL && i < count; i++) {
        bound_init(&b[i], prec);
    }
    return b;
}

static void bounds_free(bound *b, size_t count)
{
    for (size_t i = 0; b != NULL && i < count; i++) {
        bound_clear(&b[i]);
    }
    free(b);
}

static void bound_set_ui(bound *b, unsigned long v)
{
    mpfr_set_ui(b->lo, v, MPFR_RNDD);
    mpfr_set_ui(b->hi, v, MPFR_RNDU);
}

/* out = x y, x of any sign, y positive (out may be x). */
static void bound_mul_positive(bound *out, const bound *x, const bound *y)
{
    int lo_negative = mpfr_sgn(x->lo) < 0;
    int hi_negative = mpfr_sgn(x->hi) < 0;
    mpfr_mul(out->lo, x->lo, lo_negative ? y->hi : y->lo, MPFR_RNDD);
    mpfr_mul(out->hi, x->hi, hi_negative ? y->lo : y->hi, MPFR_RNDU);
}

/* out += x y, x of any sign, y positive (t: scratch). */
static void bound_add_product(bound *out, const bound *x, const bound *y, bound *t)
{
    bound_mul_positive(t, x, y);
    mpfr_add(out->lo, out->lo, t->lo, MPFR_RNDD);
    mpfr_add(out->hi, out->hi, t->hi, MPFR_RNDU);
}

/* lo <= e^(sign Z P / W) <= hi for Z >= 0, sign +1 or -1: the argument
 * enclosed from its exact value.  DPSEL_EINEXACT if Z P is not set
 * exactly (it always is). */
static int exp_of_ratio(const mpz_t z, int sign, uint64_t w, uint64_t p, bound *out)
{
    mpz_t product;
    mpz_init(product);
    mpz_mul_ui(product, z, (unsigned long)p);
    size_t bits = mpz_sizeinbase(product, 2);
    mpfr_t exact, arg_lo, arg_hi;
    mpfr_init2(exact, (mpfr_prec_t)(bits < MPFR_PREC_MIN ? MPFR_PREC_MIN : bits));
    int inexact = mpfr_set_z(exact, product, MPFR_RNDN);
    mpz_clear(product);
    mpfr_prec_t prec = mpfr_get_prec(out->lo) + 64;  /* the argument is below 2^56 */
    mpfr_inits2(prec, arg_lo, arg_hi, (mpfr_ptr)0);
    mpfr_div_ui(arg_lo, exact, (unsigned long)w, MPFR_RNDD);
    mpfr_div_ui(arg_hi, exact, (unsigned long)w, MPFR_RNDU);
    if (sign < 0) {
        mpfr_neg(arg_lo, arg_lo, MPFR_RNDN);   /* exact */
        mpfr_neg(arg_hi, arg_hi, MPFR_RNDN);
        mpfr_swap(arg_lo, arg_hi);
    }
    mpfr_exp(out->lo, arg_lo, MPFR_RNDD);
    mpfr_exp(out->hi, arg_hi, MPFR_RNDU);
    mpfr_clears(exact, arg_lo, arg_hi, (mpfr_ptr)0);
    return inexact != 0 ? DPSEL_EINEXACT : DPSEL_OK;
}

/* e^(sign g / b) for the gap difference g. */
static int exp_of_gap(const rnm_pass *rp, uint64_t g, int sign, bound *out)
{
    mpz_t z;
    mpz_init(z);
    mpz_set_ui(z, (unsigned long)g);
    int rc = exp_of_ratio(z, sign, rp->w, rp->p, out);
    mpz_clear(z);
    return rc;
}

/* The moments int_rho^1 tau^(j - 1) dtau, j in [-above, n - above], at
 * index j + above; rho = 0 (piece 0) when above is 0 and first. */
static void fill_moments(rnm_pass *rp, size_t above, uint64_t step, int first)
{
    size_t below = rp->n - above;
    bound *power = &rp->power;
    if (!first) {   /* j = 0: ln(1 / rho) = step P / W */
        mpfr_set_ui(rp->term.lo, (unsigned long)step, MPFR_RNDD);   /* step < 2^64: exact */
        mpfr_mul_ui(power->lo, rp->term.lo, (unsigned long)rp->p, MPFR_RNDD);
        mpfr_mul_ui(power->hi, rp->term.lo, (unsigned long)rp->p, MPFR_RNDU);
        mpfr_div_ui(rp->moment[above].lo, power->lo, (unsigned long)rp->w, MPFR_RNDD);
        mpfr_div_ui(rp->moment[above].hi, power->hi, (unsigned long)rp->w, MPFR_RNDU);
    }
    bound_set_ui(power, 1);
    for (size_t j = 1; j <= below; j++) {   /* (1 - rho^j) / j */
        bound *m = &rp->moment[above + j];
        if (first) {
            bound_set_ui(m, 1);
        } else {
            bound_mul_positive(power, power, &rp->rho);
            mpfr_ui_sub(m->lo, 1, power->hi, MPFR_RNDD);
            mpfr_ui_sub(m->hi, 1, power->lo, MPFR_RNDU);
        }
        mpfr_div_ui(m->lo, m->lo, (unsigned long)j, MPFR_RNDD);
        mpfr_div_ui(m->hi, m->hi, (unsigned long)j, MPFR_RNDU);
    }
    bound_set_ui(power, 1);
    for (size_t j = 1; j <= above; j++) {   /* (rho^-j - 1) / j */
        bound *m = &rp->moment[above - j];
        bound_mul_positive(power, power, &rp->rho_inverse);
        mpfr_sub_ui(m->lo, power->lo, 1, MPFR_RNDD);
        mpfr_sub_ui(m->hi, power->hi, 1, MPFR_RNDU);
        mpfr_div_ui(m->lo, m->lo, (unsigned long)j, MPFR_RNDD);
        mpfr_div_ui(m->hi, m->hi, (unsigned long)j, MPFR_RNDU);
    }
}

/* sum_i coefficient[i] moment[offset + i], i < terms, into rp->sum. */
static void moment_sum(rnm_pass *rp, const bound *coefficient, size_t terms, size_t offset)
{
    bound_set_ui(&rp->sum, 0);
    for (size_t i = 0; i < terms; i++) {
        bound_add_product(&rp->sum, &coefficient[i], &rp->moment[offset + i], &rp->term);
    }
}

/* area[l] += scale factor sum (factor NULL: 1), the sum's lower end
 * raised to 0 (the exact value is positive); the sum is kept. */
static void add_area(rnm_pass *rp, size_t l, const bound *factor)
{
    if (mpfr_sgn(rp->sum.lo) < 0) {
        mpfr_set_ui(rp->sum.lo, 0, MPFR_RNDD);
    }
    bound_mul_positive(&rp->term, &rp->sum, &rp->scale);   /* the sum serves every l < k */
    if (factor != NULL) {
        bound_mul_positive(&rp->term, &rp->term, factor);
    }
    mpfr_add(rp->area[l].lo, rp->area[l].lo, rp->term.lo, MPFR_RNDD);
    mpfr_add(rp->area[l].hi, rp->area[l].hi, rp->term.hi, MPFR_RNDU);
}

/* Pi's coefficients from piece k + 1's tau to piece k's (times rho_(k+1)^i),
 * then times (1 - tau / 2)^(m_k); degree from `degree` to degree + m_k. */
static void extend_product(rnm_pass *rp, const bound *rho_below, size_t degree, size_t k)
{
    if (rho_below != NULL) {
        bound_set_ui(&rp->power, 1);
        for (size_t i = 1; i <= degree; i++) {
            bound_mul_positive(&rp->power, &rp->power, rho_below);
            bound_mul_positive(&rp->poly[i], &rp->poly[i], &rp->power);
        }
    }
    for (size_t added = 0; added < rp->members[k]; added++) {
        size_t top = degree + added + 1;
        bound_set_ui(&rp->poly[top], 0);
        for (size_t i = top; i > 0; i--) {   /* c_i - c_(i-1) / 2: exact halving */
            mpfr_div_2ui(rp->term.lo, rp->poly[i - 1].hi, 1, MPFR_RNDU);
            mpfr_div_2ui(rp->term.hi, rp->poly[i - 1].lo, 1, MPFR_RNDD);
            mpfr_sub(rp->poly[i].lo, rp->poly[i].lo, rp->term.lo, MPFR_RNDD);
            mpfr_sub(rp->poly[i].hi, rp->poly[i].hi, rp->term.hi, MPFR_RNDU);
        }
    }
}

/* The contributions of piece k (degree: Pi's, above: N), levels >= k by
 * the quotients Pi / (1 - w_l tau), levels < k all alike. */
static int add_piece(rnm_pass *rp, size_t k, size_t degree, size_t above)
{
    for (size_t l = k; l < rp->count; l++) {
        /* q_i = c_i + w_l q_(i-1), i < degree: Pi = (1 - w_l tau) q exactly */
        bound_set_ui(&rp->term, 0);
        for (size_t i = 0; i < degree; i++) {
            mpfr_set(rp->quotient[i].lo, rp->poly[i].lo, MPFR_RNDD);
            mpfr_set(rp->quotient[i].hi, rp->poly[i].hi, MPFR_RNDU);
            if (i > 0) {
                bound_add_product(&rp->quotient[i], &rp->quotient[i - 1], &rp->weight[l],
                                  &rp->term);
            }
        }
        moment_sum(rp, rp->quotient, degree, 1);
        add_area(rp, l, &rp->weight[l]);
        int rc = dpsel_progress_add(rp->progress, 2 * (uint64_t)degree);
        if (rc != DPSEL_OK) {
            return rc;
        }
    }
    if (above > 0) {
        moment_sum(rp, rp->poly, degree + 1, 0);
        for (size_t l = 0; l < k; l++) {
            add_area(rp, l, NULL);
        }
    }
    return dpsel_progress_add(rp->progress, (uint64_t)degree + k);
}

/* rho_k and 1 / rho_k, the weights w_h (h > k) times rho_(k+1), w_k = 1/2,
 * and the piece's scale C = 2^-N e^(-Z / b). */
static int enter_piece(rnm_pass *rp, size_t k, size_t above, const bound *rho_below)
{
    for (size_t h = k + 1; h < rp->count; h++) {
        bound_mul_positive(&rp->weight[h], &rp->weight[h], rho_below);
    }
    bound_set_ui(&rp->weight[k], 1);
    mpfr_div_2ui(rp->weight[k].lo, rp->weight[k].lo, 1, MPFR_RNDD);
    mpfr_div_2ui(rp->weight[k].hi, rp->weight[k].hi, 1, MPFR_RNDU);
    int rc = DPSEL_OK;
    if (k > 0) {
        uint64_t step = rp->gap[k] - rp->gap[k - 1];
        rc = exp_of_gap(rp, step, -1, &rp->rho);
        if (rc == DPSEL_OK) {
            rc = exp_of_gap(rp, step, 1, &rp->rho_inverse);
        }
    }
    if (rc == DPSEL_OK) {
        rc = exp_of_ratio(rp->above_z, -1, rp->w, rp->p, &rp->scale);
    }
    mpfr_div_2ui(rp->scale.lo, rp->scale.lo, (unsigned long)above, MPFR_RNDD);
    mpfr_div_2ui(rp->scale.hi, rp->scale.hi, (unsigned long)above, MPFR_RNDU);
    return rc;
}

/* The last piece, t >= 1 / (2 a_(L-1)): every candidate gains
 * 2^-n e^(-Z / b) / n, z = Z (the scale, set here). */
static int add_last_piece(rnm_pass *rp, const mpz_t z)
{
    int rc = exp_of_ratio(z, -1, rp->w, rp->p, &rp->scale);
    mpfr_div_2ui(rp->scale.lo, rp->scale.lo, (unsigned long)rp->n, MPFR_RNDD);
    mpfr_div_2ui(rp->scale.hi, rp->scale.hi, (unsigned long)rp->n, MPFR_RNDU);
    mpfr_div_ui(rp->scale.lo, rp->scale.lo, (unsigned long)rp->n, MPFR_RNDD);
    mpfr_div_ui(rp->scale.hi, rp->scale.hi, (unsigned long)rp->n, MPFR_RNDU);
    for (size_t l = 0; l < rp->count; l++) {
        mpfr_set(rp->area[l].lo, rp->scale.lo, MPFR_RNDD);
        mpfr_set(rp->area[l].hi, rp->scale.hi, MPFR_RNDU);
    }
    return rc;
}

/* m (g_high - g_low), exactly, into z. */
static void gap_times(mpz_t z, uint64_t high, uint64_t low, uint64_t m)
{
    mpz_set_ui(z, (unsigned long)(high - low));
    mpz_mul_ui(z, z, (unsigned long)m);
}

/* The pieces from the last to piece 0: Pi gains level k's factors, then
 * the piece adds its integrals; Z_k = sum_(h < k) m_h (g_k - g_h) and N
 * are stepped down exactly (Z_(k-1) = Z_k - N_k (g_k - g_(k-1))). */
static int run_pass(rnm_pass *rp)
{
    size_t last = rp->count - 1;
    size_t above = rp->n - rp->members[last];
    mpz_t step_z;
    mpz_init(step_z);
    mpz_set_ui(rp->above_z, 0);
    for (size_t h = 0; h < last; h++) {
        gap_times(step_z, rp->gap[last], rp->gap[h], rp->members[h]);
        mpz_add(rp->above_z, rp->above_z, step_z);
    }
    int rc = add_last_piece(rp, rp->above_z);
    size_t degree = 0;
    for (size_t k = rp->count; k-- > 0 && rc == DPSEL_OK;) {
        const bound *rho_below = k < last ? &rp->rho_below : NULL;
        extend_product(rp, rho_below, degree, k);
        degree += rp->members[k];
        rc = enter_piece(rp, k, above, rho_below);
        if (rc == DPSEL_OK) {
            fill_moments(rp, above, k > 0 ? rp->gap[k] - rp->gap[k - 1] : 0, k == 0);
            rc = add_piece(rp, k, degree, above);
        }
        if (k > 0) {
            mpfr_swap(rp->rho.lo, rp->rho_below.lo);
            mpfr_swap(rp->rho.hi, rp->rho_below.hi);
            gap_times(step_z, rp->gap[k], rp->gap[k - 1], above);
            mpz_sub(rp->above_z, rp->above_z, step_z);
            above -= rp->members[k - 1];
        }
    }
    mpz_clear(step_z);
    return rc;
}

/* The bits the signed sums of piece k may cancel: at most
 * log2 prod_(h >= k) ((1 + w_h) / (1 - w_h))^(m_h) <= 3.2 S_k, S_k =
 * sum_(h >= k) m_h w_h, w_h = a_h / (2 a_k); S_k = S_(k+1) rho_(k+1) +
 * m_k / 2.  The largest over the pieces, from upper bounds at 64 bits (an
 * estimate: the caller's width check is what is rigorous). */
static int cancelled_bits(const rnm_pass *rp, uint64_t *bits)
{
    bound rho, sum;
    bound_init(&rho, 64);
    bound_init(&sum, 64);
    mpfr_t most;
    mpfr_init2(most, 64);
    mpfr_set_ui(most, 0, MPFR_RNDU);
    bound_set_ui(&sum, 0);
    int rc = DPSEL_OK;
    for (size_t k = rp->count; k-- > 0 && rc == DPSEL_OK;) {
        mpfr_add_ui(sum.hi, sum.hi, (unsigned long)rp->members[k], MPFR_RNDU);
        mpfr_max(most, most, sum.hi, MPFR_RNDU);
        if (k > 0) {
            rc = exp_of_gap(rp, rp->gap[k] - rp->gap[k - 1], -1, &rho);
            mpfr_mul(sum.hi, sum.hi, rho.hi, MPFR_RNDU);
        }
    }
    mpfr_mul_ui(most, most, 2, MPFR_RNDU);   /* 3.2 S with S = sum / 2: 1.6 sum < 2 sum */
    *bits = mpfr_get_ui(most, MPFR_RNDU);
    mpfr_clear(most);
    bound_clear(&rho);
    bound_clear(&sum);
    return rc;
}

/* The multiply-adds of a pass: per piece k, Pi's rescaling and new
 * factors (1 + m_k) D_k, a quotient and a sum per level at or below k
 * 2 (L - k) D_k, the sum for the levels above D_k and the moments n;
 * saturated at UINT64_MAX. */
static uint64_t pass_operations(const rnm_pass *rp)
{
    uint64_t total = 0;
    uint64_t degree = 0;
    for (size_t k = rp->count; k-- > 0;) {
        degree += rp->members[k];
        uint64_t per_degree = 2 + rp->members[k] + 2 * (uint64_t)(rp->count - k);
        if (per_degree > UINT64_MAX / degree) {
            return UINT64_MAX;
        }
        uint64_t piece = per_degree * degree + rp->n;
        total = piece < UINT64_MAX - total ? total + piece : UINT64_MAX;
    }
    return total;
}

/* n, the working precision (prec, the bits the sums may cancel and
 * RNM_GUARD_BITS) and the work, operations times working bits: beyond
 * RNM_WORK_MAX, past RNM_CANDIDATES_MAX candidates or when an exponential's
 * argument Z P / W (at most n g P / W, g the largest gap) passes
 * RNM_EXPONENT_MAX, DPSEL_ETOOLARGE. */
static int plan_pass(rnm_pass *rp, mpfr_prec_t prec, uint64_t *work)
{
    rp->n = 0;
    for (size_t l = 0; l < rp->count; l++) {
        if (rp->members[l] > RNM_CANDIDATES_MAX - rp->n) {
            return DPSEL_ETOOLARGE;
        }
        rp->n += rp->members[l];
    }
    mpz_t z;
    mpz_init(z);
    gap_times(z, rp->gap[rp->count - 1], 0, rp->n);
    mpz_mul_ui(z, z, (unsigned long)rp->p);
    mpz_fdiv_q_ui(z, z, (unsigned long)rp->w);
    int far = mpz_cmp_ui(z, RNM_EXPONENT_MAX) > 0;
    mpz_clear(z);
    uint64_t cancelled = 0;
    int rc = far ? DPSEL_ETOOLARGE : cancelled_bits(rp, &cancelled);
    if (rc != DPSEL_OK) {
        return rc;
    }
    uint64_t bits = (uint64_t)prec + cancelled + RNM_GUARD_BITS;   /* < 2^20 */
    uint64_t operations = pass_operations(rp);
    *work = operations < UINT64_MAX / bits ? operations * bits : UINT64_MAX;
    rp->prec = (mpfr_prec_t)bits;
    return *work > RNM_WORK_MAX ? DPSEL_ETOOLARGE : DPSEL_OK;
}

int dpsel_exact_rnm_work(uint64_t w, uint64_t p, const uint64_t *gap, const size_t *members,
                         size_t count, mpfr_prec_t prec, uint64_t *work)
{
    rnm_pass rp = { .w = w, .p = p, .gap = gap, .members = members, .count = count };
    return plan_pass(&rp, prec, work);
}

static void pass_free(rnm_pass *rp)
{
    size_t n = rp->n;
    bounds_free(rp->poly, n + 1);
    bounds_free(rp->quotient, n);
    bounds_free(rp->moment, n + 1);
    bounds_free(rp->weight, rp->count);
    bounds_free(rp->area, rp->count);
    bound *scratch[] = { &rp->rho, &rp->rho_inverse, &rp->rho_below, &rp->scale, &rp->term, &rp->power, &rp->sum };
    for (size_t i = 0; i < sizeof scratch / sizeof scratch[0]; i++) {
        bound_clear(scratch[i]);
    }
    mpz_clear(rp->above_z);
}

static int pass_init(rnm_pass *rp)
{
    size_t n = rp->n;
    mpfr_prec_t prec = rp->prec;
    rp->poly = bounds_new(n + 1, prec);
    rp->quotient = bounds_new(n, prec);
    rp->moment = bounds_new(n + 1, prec);
    rp->weight = bounds_new(rp->count, prec);
    rp->area = bounds_new(rp->count, prec);
    bound *scratch[] = { &rp->rho, &rp->rho_inverse, &rp->rho_below, &rp->scale, &rp->term, &rp->power, &rp->sum };
    for (size_t i = 0; i < sizeof scratch / sizeof scratch[0]; i++) {
        bound_init(scratch[i], prec);
    }
    mpz_init(rp->above_z);
    if (rp->poly == NULL || rp->quotient == NULL || rp->moment == NULL || rp->weight == NULL
        || rp->area == NULL) {
        return DPSEL_ENOMEM;
    }
    bound_set_ui(&rp->poly[0], 1);
    return DPSEL_OK;
}

int dpsel_exact_rnm_enclose_levels(uint64_t w, uint64_t p, const uint64_t *gap,
                                   const size_t *members, size_t count, mpfr_prec_t prec,
                                   dpsel_progress *progress, mpfr_t *lo, mpfr_t *hi)
{
    rnm_pass rp = { .w = w, .p = p, .gap = gap, .members = members, .count = count,
                    .progress = progress };
    uint64_t work = 0;
    int rc = plan_pass(&rp, prec, &work);
    if (rc != DPSEL_OK) {
        return rc;
    }
    dpsel_progress_expect(progress, work / (uint64_t)rp.prec);
    rc = pass_init(&rp);
    mpfr_clear_flags();
    if (rc == DPSEL_OK) {
        rc = run_pass(&rp);
    }
    if (rc == DPSEL_OK && (mpfr_nanflag_p() || mpfr_overflow_p() || mpfr_underflow_p()
                           || mpfr_divby0_p() || mpfr_erangeflag_p())) {
        rc = DPSEL_EINTERNAL;
    }
    for (size_t l = 0; l < count && rc == DPSEL_OK; l++) {
        mpfr_set_prec(lo[l], prec);
        mpfr_set_prec(hi[l], prec);
        mpfr_set(lo[l], rp.area[l].lo, MPFR_RNDD);
        mpfr_set(hi[l], rp.area[l].hi, MPFR_RNDU);
    }
    pass_free(&rp);
    return rc;
}
