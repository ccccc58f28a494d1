/*
 * Rigorous enclosures of the pmf, per level (distinct clamped gap g_l, with
 * m_l candidates; w_l = beta^g_l in (0, 1], v_l = 1 - w_l in [0, 1)).
 *
 *   EM:  P_l = w_l / sum_h m_h w_h.
 *   PF:  P_l = w_l int_0^1 prod_{j != r} (1 - w_j t) dt for a candidate r of
 *        level l.  With 1 - w t = (1 - t) + v t and s = t / (1 - t), the
 *        product is (1 - t)^N G_l(s), N = n - 1, where
 *        G_l(s) = prod_h (1 + v_h s)^(m_h - [h == l]) = sum_i c_i s^i has
 *        non-negative coefficients, and
 *        int_0^1 t^i (1 - t)^(N - i) dt = lambda_i = 1 / ((N + 1) C(N, i)),
 *        lambda_0 = 1 / n, lambda_i = lambda_(i-1) i / (N - i + 1).
 *        So P_l = w_l sum_i c_i lambda_i.
 *
 * Why the bounds are rigorous: every quantity above is obtained from the
 * inputs w_l, v_l, lambda_i by additions, multiplications and divisions of
 * non-negative numbers by positive integers, and each such operation is
 * non-decreasing in each operand.  A pass that starts from lower bounds of
 * the inputs and rounds every operation down (MPFR_RNDD; MPFR rounds every
 * operation correctly in the requested direction) therefore yields a lower
 * bound of every intermediate value, by induction over the operations, and
 * the same pass with upper bounds and MPFR_RNDU an upper bound.  Nothing is
 * subtracted except once, at the start: v_l >= 1 - (upper bound of w_l)
 * rounded down, v_l <= 1 - (lower bound of w_l) rounded up.  The bounds of w_l
 * are x^g rounded down / up at a precision 72 bits above the working one,
 * divided exactly by 2^(y g); since v_l >= 1 - beta >= 2^-64 for g >= 1, the
 * cancellation costs v_l at most 65 of those bits.  Width: each result
 * passes through a few n roundings of relative size at most 2^(1-prec) on
 * each side, so the relative width is a small multiple of n 2^-prec (about
 * 2^-115 at n = 1024, prec = 128); the caller checks it and raises prec.
 *
 * The heaviest level h (most candidates, often the cap) stays out of the
 * polynomials: (1 - t)^N s^i (1 + v_h s)^m = sum_j C(m, j) v_h^j
 * t^(i+j) (1 - t)^(N-i-j), so its factor becomes the integration weights
 * kernel_i = sum_j C(m, j) v_h^j lambda_(i+j), again sums of products of
 * non-negative numbers.  The polynomials of the other ("light") levels,
 * all but one factor each, come from a divide and conquer over the levels:
 * a range of levels carries the product of all the factors outside it; it is
 * split in two halves of about equal candidate counts, each half receiving
 * the outer product times the other half's factors.  Cost:
 * O(n'^2 log L + n' m_h + n) multiply-adds, n' the light candidates, L levels.
 */
#include <stdlib.h>

#include "exact.h"

/* One directed pass of PF: every number is a lower (MPFR_RNDD) or an upper
 * (MPFR_RNDU) bound of the exact one.  The heaviest level (most candidates)
 * is kept out of the polynomials: its factor (1 + v s)^m is folded into the
 * integration weights, kernel[i] = sum_j C(m, j) v^j lambda_(i+j), so the
 * polynomials only have the degree of the other candidates. */
typedef struct {
    mpfr_rnd_t rnd;
    mpfr_prec_t prec;
    size_t size;           /* coefficients of a polynomial: light candidates + 1 */
    const size_t *light;   /* the levels but the heaviest, in gap order */
    const size_t *members; /* per level */
    const size_t *prefix;  /* prefix[k]: candidates in light[0..k-1] */
    mpfr_t *v;             /* bounds of 1 - w_l, per level */
    mpfr_t *w;             /* bounds of w_l, per level */
    mpfr_t *kernel;        /* integration weights of the light levels */
    mpfr_t **scratch;      /* one polynomial per recursion depth, made on demand */
    mpfr_t *out;           /* bounds of P_l, per level */
} pf_pass;

mpfr_t *dpsel_exact_numbers_new(size_t count, mpfr_prec_t prec)
{
    mpfr_t *a = malloc(count * sizeof *a);
    if (a != NULL) {
        for (size_t i = 0; i < count; i++) {
            mpfr_init2(a[i], prec);
        }
    }
    return a;
}

void dpsel_exact_numbers_free(mpfr_t *a, size_t count)
{
    if (a != NULL) {
        for (size_t i = 0; i < count; i++) {
            mpfr_clear(a[i]);
        }
        free(a);
    }
}

/* poly (degree *degree) *= (1 + v s)^times.  The degree stays below the size
 * because no polynomial gets more factors than there are light candidates. */
static void multiply_power(mpfr_t *poly, size_t *degree, const mpfr_t v, size_t times,
                           mpfr_rnd_t rnd)
{
    if (mpfr_zero_p(v)) {
        return;
    }
    for (size_t k = 0; k < times; k++) {
        size_t d = (*degree)++;
        mpfr_mul(poly[d + 1], poly[d], v, rnd);
        for (size_t i = d; i > 0; i--) {
            mpfr_fma(poly[i], poly[i - 1], v, poly[i], rnd);
        }
    }
}

/* poly *= every factor of the light levels light[a..b-1]. */
static void multiply_levels(const pf_pass *p, mpfr_t *poly, size_t *degree, size_t a, size_t b)
{
    for (size_t k = a; k < b; k++) {
        size_t l = p->light[k];
        multiply_power(poly, degree, p->v[l], p->members[l], p->rnd);
    }
}

/* out = w sum_i poly_i kernel_i. */
static void integrate(const pf_pass *p, mpfr_t *poly, size_t degree, mpfr_t *kernel,
                      const mpfr_t w, mpfr_t out)
{
    mpfr_set_ui(out, 0, p->rnd);
    for (size_t i = 0; i <= degree; i++) {
        mpfr_fma(out, poly[i], kernel[i], out, p->rnd);
    }
    mpfr_mul(out, out, w, p->rnd);
}

/* The first position c in (a, b) such that light[a..c-1] holds at least half
 * of the candidates of light[a..b-1] (at most b - 1). */
static size_t split_point(const pf_pass *p, size_t a, size_t b)
{
    size_t total = p->prefix[b] - p->prefix[a];
    size_t c = a + 1;
    while (c < b - 1 && 2 * (p->prefix[c] - p->prefix[a]) < total) {
        c++;
    }
    return c;
}

/* Sets out[l] for the light levels l = light[a..b-1]; poly (degree `degree`,
 * destroyed) is the product of the factors of all light candidates outside
 * those levels. */
static int pf_solve(pf_pass *p, size_t a, size_t b, size_t depth, mpfr_t *poly,
                    size_t degree)
{
    if (b - a == 1) {
        size_t l = p->light[a];
        multiply_power(poly, &degree, p->v[l], p->members[l] - 1, p->rnd);
        integrate(p, poly, degree, p->kernel, p->w[l], p->out[l]);
        return DPSEL_OK;
    }
    if (p->scratch[depth] == NULL) {
        p->scratch[depth] = dpsel_exact_numbers_new(p->size, p->prec);
        if (p->scratch[depth] == NULL) {
            return DPSEL_ENOMEM;
        }
    }
    mpfr_t *left = p->scratch[depth];
    size_t left_degree = degree;
    for (size_t i = 0; i <= degree; i++) {
        mpfr_set(left[i], poly[i], p->rnd);  /* same precision: exact */
    }
    size_t c = split_point(p, a, b);
    multiply_levels(p, left, &left_degree, c, b);
    int rc = pf_solve(p, a, c, depth + 1, left, left_degree);
    if (rc != DPSEL_OK) {
        return rc;
    }
    multiply_levels(p, poly, &degree, a, c);
    return pf_solve(p, c, b, depth + 1, poly, degree);
}

/* lambda[i] for i < n, rounded in the direction rnd. */
static void beta_integrals(mpfr_t *lambda, size_t n, mpfr_rnd_t rnd)
{
    mpfr_set_ui(lambda[0], 1, rnd);
    mpfr_div_ui(lambda[0], lambda[0], (unsigned long)n, rnd);
    for (size_t i = 1; i < n; i++) {
        mpfr_mul_ui(lambda[i], lambda[i - 1], (unsigned long)i, rnd);
        mpfr_div_ui(lambda[i], lambda[i], (unsigned long)(n - i), rnd);
    }
}

/* kernel[i] = sum_{j <= m} C(m, j) v^j lambda[i + j] for i < size, where
 * size - 1 + m < n (the length of lambda); C(m, j) v^j by its recurrence. */
static void fold_kernel(mpfr_t *kernel, size_t size, mpfr_t *lambda, const mpfr_t v,
                        size_t m, mpfr_rnd_t rnd, mpfr_prec_t prec)
{
    mpfr_t coefficient;
    mpfr_init2(coefficient, prec);
    mpfr_set_ui(coefficient, 1, rnd);
    for (size_t i = 0; i < size; i++) {
        mpfr_set(kernel[i], lambda[i], rnd);
    }
    for (size_t j = 1; j <= m && !mpfr_zero_p(v); j++) {
        mpfr_mul(coefficient, coefficient, v, rnd);
        mpfr_mul_ui(coefficient, coefficient, (unsigned long)(m - j + 1), rnd);
        mpfr_div_ui(coefficient, coefficient, (unsigned long)j, rnd);
        for (size_t i = 0; i < size; i++) {
            mpfr_fma(kernel[i], coefficient, lambda[i + j], kernel[i], rnd);
        }
    }
    mpfr_clear(coefficient);
}

/* One PF pass over all levels; heavy is the heaviest level. */
static int pf_pass_run(pf_pass *p, size_t nlight, size_t heavy, size_t n)
{
    int rc = DPSEL_ENOMEM;
    size_t m = p->members[heavy];
    mpfr_t *lambda = dpsel_exact_numbers_new(n, p->prec);
    mpfr_t *kernel = dpsel_exact_numbers_new(p->size, p->prec);
    mpfr_t *root = dpsel_exact_numbers_new(p->size, p->prec);
    p->scratch = calloc(nlight + 1, sizeof *p->scratch);
    if (lambda != NULL && kernel != NULL && root != NULL && p->scratch != NULL) {
        beta_integrals(lambda, n, p->rnd);
        /* the heavy level: all light factors, and m - 1 of its own folded */
        size_t degree = 0;
        mpfr_set_ui(root[0], 1, p->rnd);
        multiply_levels(p, root, &degree, 0, nlight);
        fold_kernel(kernel, p->size, lambda, p->v[heavy], m - 1, p->rnd, p->prec);
        integrate(p, root, degree, kernel, p->w[heavy], p->out[heavy]);
        rc = DPSEL_OK;
        if (nlight > 0) {
            fold_kernel(kernel, p->size - 1, lambda, p->v[heavy], m, p->rnd, p->prec);
            p->kernel = kernel;
            mpfr_set_ui(root[0], 1, p->rnd);
            rc = pf_solve(p, 0, nlight, 0, root, 0);
        }
    }
    if (p->scratch != NULL) {
        for (size_t d = 0; d <= nlight; d++) {
            dpsel_exact_numbers_free(p->scratch[d], p->size);
        }
        free(p->scratch);
    }
    dpsel_exact_numbers_free(root, p->size);
    dpsel_exact_numbers_free(kernel, p->size);
    dpsel_exact_numbers_free(lambda, n);
    return rc;
}

static int pf_enclose(const size_t *members, size_t count, size_t n, mpfr_prec_t prec,
                      mpfr_t *w_lo, mpfr_t *w_hi, mpfr_t *lo, mpfr_t *hi)
{
    size_t heavy = 0;
    for (size_t l = 1; l < count; l++) {
        heavy = members[l] > members[heavy] ? l : heavy;
    }
    size_t *light = calloc(count, sizeof *light);
    size_t *prefix = calloc(count + 1, sizeof *prefix);
    mpfr_t *v_lo = dpsel_exact_numbers_new(count, prec);
    mpfr_t *v_hi = dpsel_exact_numbers_new(count, prec);
    int rc = DPSEL_ENOMEM;
    if (light != NULL && prefix != NULL && v_lo != NULL && v_hi != NULL) {
        size_t nlight = 0;
        for (size_t l = 0; l < count; l++) {
            mpfr_ui_sub(v_lo[l], 1, w_hi[l], MPFR_RNDD);
            mpfr_ui_sub(v_hi[l], 1, w_lo[l], MPFR_RNDU);
            if (l != heavy) {
                light[nlight] = l;
                prefix[nlight + 1] = prefix[nlight] + members[l];
                nlight++;
            }
        }
        size_t size = n - members[heavy] + 1;
        pf_pass down = { MPFR_RNDD, prec, size, light, members, prefix, v_lo, w_lo,
                         NULL, NULL, lo };
        pf_pass up = { MPFR_RNDU, prec, size, light, members, prefix, v_hi, w_hi,
                       NULL, NULL, hi };
        rc = pf_pass_run(&down, nlight, heavy, n);
        if (rc == DPSEL_OK) {
            rc = pf_pass_run(&up, nlight, heavy, n);
        }
    }
    dpsel_exact_numbers_free(v_hi, count);
    dpsel_exact_numbers_free(v_lo, count);
    free(prefix);
    free(light);
    return rc;
}

static void em_enclose(const size_t *members, size_t count, mpfr_prec_t prec,
                       mpfr_t *w_lo, mpfr_t *w_hi, mpfr_t *lo, mpfr_t *hi)
{
    mpfr_t total_lo, total_hi, term;
    mpfr_inits2(prec, total_lo, total_hi, term, (mpfr_ptr)0);
    mpfr_set_ui(total_lo, 0, MPFR_RNDD);
    mpfr_set_ui(total_hi, 0, MPFR_RNDU);
    for (size_t l = 0; l < count; l++) {
        mpfr_mul_ui(term, w_lo[l], (unsigned long)members[l], MPFR_RNDD);
        mpfr_add(total_lo, total_lo, term, MPFR_RNDD);
        mpfr_mul_ui(term, w_hi[l], (unsigned long)members[l], MPFR_RNDU);
        mpfr_add(total_hi, total_hi, term, MPFR_RNDU);
    }
    for (size_t l = 0; l < count; l++) {
        mpfr_div(lo[l], w_lo[l], total_hi, MPFR_RNDD);
        mpfr_div(hi[l], w_hi[l], total_lo, MPFR_RNDU);
    }
    mpfr_clears(total_lo, total_hi, term, (mpfr_ptr)0);
}

int dpsel_exact_enclose_levels(dpsel_mechanism mechanism, uint64_t x, unsigned y,
                               const uint64_t *gap, const size_t *members, size_t count,
                               mpfr_prec_t prec, mpfr_t *lo, mpfr_t *hi)
{
    mpfr_prec_t weight_prec = prec + 72;
    mpfr_t *w_lo = dpsel_exact_numbers_new(count, weight_prec);
    mpfr_t *w_hi = dpsel_exact_numbers_new(count, weight_prec);
    int rc = DPSEL_ENOMEM;
    if (w_lo != NULL && w_hi != NULL) {
        size_t n = 0;
        for (size_t l = 0; l < count; l++) {
            /* beta^g = x^g / 2^(y g); the division by a power of two is exact */
            mpfr_ui_pow_ui(w_lo[l], (unsigned long)x, (unsigned long)gap[l], MPFR_RNDD);
            mpfr_ui_pow_ui(w_hi[l], (unsigned long)x, (unsigned long)gap[l], MPFR_RNDU);
            mpfr_div_2ui(w_lo[l], w_lo[l], (unsigned long)y * gap[l], MPFR_RNDD);
            mpfr_div_2ui(w_hi[l], w_hi[l], (unsigned long)y * gap[l], MPFR_RNDU);
            mpfr_set_prec(lo[l], prec);
            mpfr_set_prec(hi[l], prec);
            n += members[l];
        }
        if (mechanism == DPSEL_EM) {
            em_enclose(members, count, prec, w_lo, w_hi, lo, hi);
            rc = DPSEL_OK;
        } else {
            rc = pf_enclose(members, count, n, prec, w_lo, w_hi, lo, hi);
        }
    }
    dpsel_exact_numbers_free(w_hi, count);
    dpsel_exact_numbers_free(w_lo, count);
    return rc;
}
