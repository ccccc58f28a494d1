/* SPDX-License-Identifier: ISC */
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
 * non-negative numbers.  For the other ("light") levels, P_l = w_l <kernel,
 * B_l> with B_l the product of all light factors but one of level l's, and
 * <f, B> = sum_i f_i B_i.  All of them come from one subproduct tree over the
 * light levels, walked twice (the transposed product tree of multipoint
 * evaluation):
 *   - up: a node S (a range of levels, split in two halves S1, S2 of about
 *     equal candidate counts) holds T_S = T_S1 T_S2, the product of its
 *     factors (1 + v s)^m, of degree |S| (its candidates);
 *   - down: a node holds the functional f_S with <f_S, B> = <kernel,
 *     T_outside B> for every B of degree below |S| (T_outside: the factors
 *     of the light levels outside S); the root's is the kernel itself, and
 *     <f_S, T_S2 B> = <f_S1, B> gives f_S1[j] = sum_i f_S[i + j] T_S2[i]
 *     (a "middle product"; f_S2 likewise with T_S1);
 *   - a leaf l: P_l = w_l <f_l, (1 + v_l s)^(m_l - 1)>.
 * Every step is again a sum of products of non-negative numbers.  Cost: one
 * multiply-add per pair of light candidates in different levels for the
 * products, two for the middle products, so at most 3 n'^2 / 2 for n' light
 * candidates, plus n' m_h + n for the kernel.  These multiply-adds are what
 * the progress meter counts (pass_work), row by row as they are done.
 */
#include <stdlib.h>

#include "../core/gap.h"
#include "exact.h"

/* The polynomial path's limit (its memory: a few n^2 / 2 numbers at most),
 * and the quadrature's cost per level in the polynomial path's unit
 * (multiply-adds), measured: about 40 pieces of 53 terms, 8 operations each. */
#define POLYNOMIAL_MAX_CANDIDATES ((size_t)1 << 15)
#define QUADRATURE_COST_PER_LEVEL ((uint64_t)1 << 13)

/* One directed pass of PF: every number is a lower (MPFR_RNDD) or an upper
 * (MPFR_RNDU) bound of the exact one. */
typedef struct {
    mpfr_rnd_t rnd;
    mpfr_prec_t prec;
    const size_t *light;   /* the levels but the heaviest, in gap order */
    const size_t *members; /* per level */
    const size_t *prefix;  /* prefix[k]: candidates in light[0..k-1] */
    mpfr_t *v;             /* bounds of 1 - w_l, per level */
    mpfr_t *w;             /* bounds of w_l, per level */
    mpfr_t *out;           /* bounds of P_l, per level */
    mpfr_t term;           /* scratch: one product */
    dpsel_progress *progress;  /* counts the multiply-adds; NULL: none */
} pf_pass;

/* A node of the subproduct tree: the light levels light[a..b-1], with the
 * product of their factors (degree: their candidates). */
typedef struct product_node {
    size_t a, b;
    size_t degree;
    mpfr_t *product;               /* degree + 1 coefficients */
    struct product_node *left, *right;
} product_node;

/* A new polynomial (1 + v s)^m: its coefficients C(m, j) v^j, by their
 * recurrence; NULL if out of memory. */
static mpfr_t *binomial_power(const pf_pass *p, const mpfr_t v, size_t m)
{
    mpfr_t *poly = dpsel_exact_numbers_new(m + 1, p->prec);
    if (poly != NULL) {
        mpfr_set_ui(poly[0], 1, p->rnd);
        for (size_t j = 1; j <= m; j++) {
            mpfr_mul(poly[j], poly[j - 1], v, p->rnd);
            mpfr_mul_ui(poly[j], poly[j], (unsigned long)(m - j + 1), p->rnd);
            mpfr_div_ui(poly[j], poly[j], (unsigned long)j, p->rnd);
        }
    }
    return poly;
}

/* Counts multiply-adds done on the pass's meter: non-zero once the
 * caller has cancelled, and then the pass stops early (its numbers are
 * dropped: pf_pass_run returns DPSEL_ECANCELED). */
static int stopped(const pf_pass *p, uint64_t work)
{
    return dpsel_progress_add(p->progress, work) != DPSEL_OK;
}

/* out = x y, of degree dx + dy. */
static void multiply(pf_pass *p, mpfr_t *out, mpfr_t *x, size_t dx, mpfr_t *y, size_t dy)
{
    for (size_t k = 0; k <= dx + dy; k++) {
        size_t first = k > dy ? k - dy : 0, last = k < dx ? k : dx;
        mpfr_set_ui(out[k], 0, p->rnd);
        for (size_t i = first; i <= last; i++) {
            mpfr_mul(p->term, x[i], y[k - i], p->rnd);
            mpfr_add(out[k], out[k], p->term, p->rnd);
        }
        if (stopped(p, last - first + 1)) {
            return;
        }
    }
}

/* out[j] = sum_{i <= degree} f[i + j] poly[i] for j < count (f has at least
 * count + degree entries). */
static void middle_product(pf_pass *p, mpfr_t *out, size_t count, mpfr_t *f, mpfr_t *poly,
                           size_t degree)
{
    for (size_t j = 0; j < count; j++) {
        mpfr_set_ui(out[j], 0, p->rnd);
        for (size_t i = 0; i <= degree; i++) {
            mpfr_mul(p->term, f[i + j], poly[i], p->rnd);
            mpfr_add(out[j], out[j], p->term, p->rnd);
        }
        if (stopped(p, degree + 1)) {
            return;
        }
    }
}

static void node_free(product_node *node)
{
    if (node != NULL) {
        node_free(node->left);
        node_free(node->right);
        dpsel_exact_numbers_free(node->product, node->degree + 1);
        free(node);
    }
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

/* The multiply-adds of build_tree's products and descend's middle
 * products over light[a..b-1] (a < b), split as build_tree splits: at most
 * 3 (2^15 + 1)^2 in all, as n <= 2^15. */
static uint64_t tree_work(const pf_pass *p, size_t a, size_t b)
{
    uint64_t degree = p->prefix[b] - p->prefix[a];
    if (b - a == 1) {
        return degree;  /* the leaf's middle product, of m_l terms */
    }
    size_t c = split_point(p, a, b);
    uint64_t left = p->prefix[c] - p->prefix[a], right = degree - left;
    return (left + 1) * (right + 1) + left * (right + 1) + right * (left + 1)
           + tree_work(p, a, c) + tree_work(p, c, b);
}

/* The multiply-adds of one pass: the kernel's fold (size rows of m_h),
 * the heavy level's product with the root and the tree's. */
static uint64_t pass_work(const pf_pass *p, size_t nlight, size_t heavy, size_t size)
{
    uint64_t kernel = (uint64_t)size * p->members[heavy];
    return nlight == 0 ? kernel : kernel + p->prefix[nlight] + 1 + tree_work(p, 0, nlight);
}

/* The subproduct tree over light[a..b-1] (a < b); NULL if out of memory. */
static product_node *build_tree(pf_pass *p, size_t a, size_t b)
{
    product_node *node = calloc(1, sizeof *node);
    if (node == NULL) {
        return NULL;
    }
    node->a = a;
    node->b = b;
    node->degree = p->prefix[b] - p->prefix[a];
    if (b - a == 1) {
        size_t l = p->light[a];
        node->product = binomial_power(p, p->v[l], p->members[l]);
    } else {
        size_t c = split_point(p, a, b);
        node->left = build_tree(p, a, c);
        node->right = node->left != NULL ? build_tree(p, c, b) : NULL;
        node->product = node->right != NULL
                      ? dpsel_exact_numbers_new(node->degree + 1, p->prec) : NULL;
        if (node->product != NULL) {
            multiply(p, node->product, node->left->product, node->left->degree,
                     node->right->product, node->right->degree);
        }
    }
    if (node->product == NULL) {
        node_free(node);
        return NULL;
    }
    return node;
}

/* Sets out[l] for the levels under node, whose functional f (node->degree
 * entries) is given. */
static int descend(pf_pass *p, const product_node *node, mpfr_t *f)
{
    if (node->left == NULL) {
        size_t l = p->light[node->a];
        mpfr_t *own = binomial_power(p, p->v[l], p->members[l] - 1);
        if (own == NULL) {
            return DPSEL_ENOMEM;
        }
        middle_product(p, &p->out[l], 1, f, own, p->members[l] - 1);
        mpfr_mul(p->out[l], p->out[l], p->w[l], p->rnd);
        dpsel_exact_numbers_free(own, p->members[l]);
        return DPSEL_OK;
    }
    const product_node *half[2] = { node->left, node->right };
    for (int k = 0; k < 2; k++) {
        const product_node *other = half[1 - k];
        mpfr_t *g = dpsel_exact_numbers_new(half[k]->degree, p->prec);
        if (g == NULL) {
            return DPSEL_ENOMEM;
        }
        middle_product(p, g, half[k]->degree, f, other->product, other->degree);
        int rc = descend(p, half[k], g);
        dpsel_exact_numbers_free(g, half[k]->degree);
        if (rc != DPSEL_OK) {
            return rc;
        }
    }
    return DPSEL_OK;
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
 * size - 1 + m < n (the length of lambda). */
static int fold_kernel(pf_pass *p, mpfr_t *kernel, size_t size, mpfr_t *lambda, const mpfr_t v,
                       size_t m)
{
    mpfr_t *factor = binomial_power(p, v, m);
    if (factor == NULL) {
        return DPSEL_ENOMEM;
    }
    middle_product(p, kernel, size, lambda, factor, m);
    dpsel_exact_numbers_free(factor, m + 1);
    return DPSEL_OK;
}

/* The heavy level's P from the product of all light factors (root, NULL if
 * none) and the kernel with m_h - 1 of its factors; then the light levels'
 * from the kernel with all m_h, one more factor (1 + v_h s) folded in. */
static int pf_solve(pf_pass *p, const product_node *root, size_t heavy, mpfr_t *kernel,
                    size_t size)
{
    if (root == NULL) {
        mpfr_mul(p->out[heavy], kernel[0], p->w[heavy], p->rnd);
        return DPSEL_OK;
    }
    middle_product(p, &p->out[heavy], 1, kernel, root->product, root->degree);
    mpfr_mul(p->out[heavy], p->out[heavy], p->w[heavy], p->rnd);
    for (size_t i = 0; i + 1 < size; i++) {
        mpfr_mul(p->term, kernel[i + 1], p->v[heavy], p->rnd);
        mpfr_add(kernel[i], kernel[i], p->term, p->rnd);
    }
    return descend(p, root, kernel);
}

/* One PF pass over all levels; heavy is the heaviest level, size - 1 the
 * light candidates. */
static int pf_pass_run(pf_pass *p, size_t nlight, size_t heavy, size_t size, size_t n)
{
    int rc = DPSEL_ENOMEM;
    mpfr_init2(p->term, p->prec);
    mpfr_t *lambda = dpsel_exact_numbers_new(n, p->prec);
    mpfr_t *kernel = dpsel_exact_numbers_new(size, p->prec);
    product_node *root = nlight > 0 ? build_tree(p, 0, nlight) : NULL;
    if (lambda != NULL && kernel != NULL && (root != NULL || nlight == 0)) {
        beta_integrals(lambda, n, p->rnd);
        rc = fold_kernel(p, kernel, size, lambda, p->v[heavy], p->members[heavy] - 1);
        if (rc == DPSEL_OK) {
            rc = pf_solve(p, root, heavy, kernel, size);
        }
    }
    node_free(root);
    dpsel_exact_numbers_free(kernel, size);
    dpsel_exact_numbers_free(lambda, n);
    mpfr_clear(p->term);
    return rc == DPSEL_OK && p->progress != NULL && p->progress->canceled ? DPSEL_ECANCELED : rc;
}

static int pf_enclose(const size_t *members, size_t count, size_t n, mpfr_prec_t prec,
                      dpsel_progress *progress, mpfr_t *w_lo, mpfr_t *w_hi, mpfr_t *lo,
                      mpfr_t *hi)
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
        pf_pass down = { MPFR_RNDD, prec, light, members, prefix, v_lo, w_lo, lo, { { 0 } },
                         progress };
        pf_pass up = { MPFR_RNDU, prec, light, members, prefix, v_hi, w_hi, hi, { { 0 } },
                       progress };
        dpsel_progress_expect(progress, 2 * pass_work(&down, nlight, heavy, size));
        rc = pf_pass_run(&down, nlight, heavy, size, n);
        if (rc == DPSEL_OK) {
            rc = pf_pass_run(&up, nlight, heavy, size, n);
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

/* Multiply-adds of the polynomial path (1.5 n'^2 + n' m_h + n per pass, n'
 * the candidates outside the heaviest level), saturated; UINT64_MAX past
 * 2^15 candidates. */
static uint64_t polynomial_cost(const size_t *members, size_t count, size_t n)
{
    size_t heavy = 0;
    for (size_t l = 1; l < count; l++) {
        heavy = members[l] > members[heavy] ? l : heavy;
    }
    if (n > POLYNOMIAL_MAX_CANDIDATES) {
        return UINT64_MAX;
    }
    uint64_t light = (uint64_t)(n - members[heavy]);
    return 3 * light * light / 2 + light * members[heavy] + n;
}

/* The quadrature's, in the same unit: about QUADRATURE_COST_PER_LEVEL per
 * level (tens of pieces of tens of terms, each a few operations). */
static uint64_t quadrature_cost(size_t count)
{
    return (uint64_t)count * QUADRATURE_COST_PER_LEVEL;
}

int dpsel_exact_enclose_levels_by(dpsel_mechanism mechanism, dpsel_exact_pf_path path,
                                  uint64_t x, unsigned y, const uint64_t *gap,
                                  const size_t *members, size_t count, mpfr_prec_t prec,
                                  dpsel_progress *progress, mpfr_t *lo, mpfr_t *hi)
{
    size_t n = 0;
    for (size_t l = 0; l < count; l++) {
        n += members[l];
    }
    if (path == DPSEL_EXACT_PF_CHEAPER) {
        path = quadrature_cost(count) < polynomial_cost(members, count, n)
             ? DPSEL_EXACT_PF_QUADRATURE : DPSEL_EXACT_PF_POLYNOMIAL;
    }
    /* 72 bits for the cancellation of 1 - w (enclosure.c's header); the
     * quadrature raises F = prod (1 - w_h t)^m_h to powers summing to n, which
     * multiplies relative widths by up to n: bitlen(n) bits more */
    mpfr_prec_t weight_prec = prec + 72 + (mpfr_prec_t)dpsel_core_bitlen((uint64_t)n);
    mpfr_t *w_lo = dpsel_exact_numbers_new(count, weight_prec);
    mpfr_t *w_hi = dpsel_exact_numbers_new(count, weight_prec);
    int rc = DPSEL_ENOMEM;
    if (w_lo != NULL && w_hi != NULL) {
        for (size_t l = 0; l < count; l++) {
            /* beta^g = x^g / 2^(y g); the division by a power of two is exact */
            mpfr_ui_pow_ui(w_lo[l], (unsigned long)x, (unsigned long)gap[l], MPFR_RNDD);
            mpfr_ui_pow_ui(w_hi[l], (unsigned long)x, (unsigned long)gap[l], MPFR_RNDU);
            mpfr_div_2ui(w_lo[l], w_lo[l], (unsigned long)y * gap[l], MPFR_RNDD);
            mpfr_div_2ui(w_hi[l], w_hi[l], (unsigned long)y * gap[l], MPFR_RNDU);
            mpfr_set_prec(lo[l], prec);
            mpfr_set_prec(hi[l], prec);
        }
        if (mechanism == DPSEL_EM) {
            em_enclose(members, count, prec, w_lo, w_hi, lo, hi);
            rc = DPSEL_OK;
        } else if (path == DPSEL_EXACT_PF_QUADRATURE) {
            rc = dpsel_exact_pf_quadrature(members, count, w_lo, w_hi, prec, progress, lo, hi);
        } else {
            rc = n > POLYNOMIAL_MAX_CANDIDATES ? DPSEL_ETOOLARGE
               : pf_enclose(members, count, n, prec, progress, w_lo, w_hi, lo, hi);
        }
    }
    dpsel_exact_numbers_free(w_hi, count);
    dpsel_exact_numbers_free(w_lo, count);
    return rc;
}

int dpsel_exact_enclose_levels(dpsel_mechanism mechanism, uint64_t x, unsigned y,
                               const uint64_t *gap, const size_t *members, size_t count,
                               mpfr_prec_t prec, dpsel_progress *progress, mpfr_t *lo,
                               mpfr_t *hi)
{
    return dpsel_exact_enclose_levels_by(mechanism, DPSEL_EXACT_PF_CHEAPER, x, y, gap, members,
                                         count, prec, progress, lo, hi);
}
