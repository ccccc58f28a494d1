/*
 * Exact output distributions.  Candidates with the same clamped gap have the
 * same probability, so the work is done per level (distinct clamped gap) with
 * GMP integers and rationals, exact by construction.  With Gmax the largest
 * level and M = 2^(y Gmax), the weight of level g scaled to an integer is
 * W_g = x^g 2^(y (Gmax - g)) = beta^g M.
 *   EM:  P_g = W_g / sum_levels cnt_h W_h
 *   PF:  P_g = beta^g int_0^1 prod_{j != r} (1 - beta^g_j t) dt
 *           = W_g A_g / (L M^n), with Q(t) = prod_j (M - W_j t),
 *             R_g = Q / (M - W_g t), A_g = sum_k R_g[k] L / (k + 1),
 *             L = lcm(1, ..., n).
 */
#include <stdlib.h>

#include "exact.h"

#define EM_WORK_LIMIT ((uint64_t)1 << 32)
#define PF_WORK_LIMIT ((uint64_t)1 << 34)
#define PF_MAX_CANDIDATES ((size_t)1 << 12)

struct dpsel_pmf {
    size_t n;
    size_t nlevels;
    size_t *level_of;      /* n entries: the level of each candidate */
    mpq_t *probability;    /* nlevels entries: each candidate's probability */
    mpq_t expected_error;
};

/* The levels of a score vector. */
typedef struct {
    size_t count;          /* number of levels */
    uint64_t *gap;         /* clamped gap of each level, increasing */
    size_t *members;       /* candidates in each level */
    mpz_t *gap_sum;        /* sum of the unclamped gaps of its candidates */
} levels;

static int compare_u64(const void *a, const void *b)
{
    uint64_t u = *(const uint64_t *)a;
    uint64_t v = *(const uint64_t *)b;
    return (u > v) - (u < v);
}

static size_t level_index(const levels *lv, uint64_t gap)
{
    size_t lo = 0;
    size_t hi = lv->count;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (lv->gap[mid] <= gap) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static void levels_free(levels *lv)
{
    if (lv->gap_sum != NULL) {
        for (size_t l = 0; l < lv->count; l++) {
            mpz_clear(lv->gap_sum[l]);
        }
    }
    free(lv->gap);
    free(lv->members);
    free(lv->gap_sum);
}

/* Groups the candidates by clamped gap; fills level_of[0..n-1]. */
static int levels_build(levels *lv, const int64_t *scores, size_t n,
                        uint64_t cap, size_t *level_of)
{
    int64_t best = scores[dpsel_core_argmax(scores, n)];
    lv->count = 0;
    lv->members = NULL;
    lv->gap_sum = NULL;
    lv->gap = calloc(n, sizeof *lv->gap);
    if (lv->gap == NULL) {
        return DPSEL_ENOMEM;
    }
    for (size_t r = 0; r < n; r++) {
        lv->gap[r] = dpsel_core_clamped_gap(best, scores[r], cap);
    }
    qsort(lv->gap, n, sizeof *lv->gap, compare_u64);
    for (size_t r = 0; r < n; r++) {
        if (r == 0 || lv->gap[r] != lv->gap[lv->count - 1]) {
            lv->gap[lv->count++] = lv->gap[r];
        }
    }
    lv->members = calloc(lv->count, sizeof *lv->members);
    lv->gap_sum = calloc(lv->count, sizeof *lv->gap_sum);
    if (lv->members == NULL || lv->gap_sum == NULL) {
        free(lv->gap_sum);
        lv->gap_sum = NULL;
        return DPSEL_ENOMEM;
    }
    for (size_t l = 0; l < lv->count; l++) {
        mpz_init(lv->gap_sum[l]);
    }
    for (size_t r = 0; r < n; r++) {
        size_t l = level_index(lv, dpsel_core_clamped_gap(best, scores[r], cap));
        uint64_t gap = dpsel_core_clamped_gap(best, scores[r], UINT64_MAX);
        level_of[r] = l;
        lv->members[l]++;
        mpz_add_ui(lv->gap_sum[l], lv->gap_sum[l], (unsigned long)gap);
    }
    return DPSEL_OK;
}

/* The size limits of the exact computation (see dpsel_pmf_new). */
static int within_limits(dpsel_mechanism mechanism, size_t n, size_t nlevels,
                         uint64_t scale_bits)
{
    uint64_t coefficient_bits = scale_bits + 64;
    if (mechanism == DPSEL_EM) {
        return nlevels <= EM_WORK_LIMIT / coefficient_bits;
    }
    uint64_t m = (uint64_t)n;
    return n <= PF_MAX_CANDIDATES && m * m * m * coefficient_bits <= PF_WORK_LIMIT;
}

static void em_probabilities(const levels *lv, mpz_t *weight, mpq_t *probability)
{
    mpz_t total;
    mpz_init(total);
    for (size_t l = 0; l < lv->count; l++) {
        mpz_addmul_ui(total, weight[l], (unsigned long)lv->members[l]);
    }
    for (size_t l = 0; l < lv->count; l++) {
        mpq_set_num(probability[l], weight[l]);
        mpq_set_den(probability[l], total);
        mpq_canonicalize(probability[l]);
    }
    mpz_clear(total);
}

/* poly[0..degree+1] *= (M - w t), M = 2^scale_bits. */
static void multiply_linear(mpz_t *poly, size_t degree, mp_bitcnt_t scale_bits,
                            const mpz_t w)
{
    mpz_mul(poly[degree + 1], poly[degree], w);
    mpz_neg(poly[degree + 1], poly[degree + 1]);
    for (size_t k = degree; k > 0; k--) {
        mpz_mul_2exp(poly[k], poly[k], scale_bits);
        mpz_submul(poly[k], poly[k - 1], w);
    }
    mpz_mul_2exp(poly[0], poly[0], scale_bits);
}

static int pf_probabilities(const levels *lv, size_t n, mp_bitcnt_t scale_bits,
                            mpz_t *weight, mpq_t *probability)
{
    mpz_t *q = calloc(n + 1, sizeof *q);
    if (q == NULL) {
        return DPSEL_ENOMEM;
    }
    for (size_t k = 0; k <= n; k++) {
        mpz_init(q[k]);
    }
    mpz_set_ui(q[0], 1);
    size_t degree = 0;
    for (size_t l = 0; l < lv->count; l++) {
        for (size_t i = 0; i < lv->members[l]; i++) {
            multiply_linear(q, degree++, scale_bits, weight[l]);
        }
    }
    mpz_t lcm, remainder, area, term;
    mpz_inits(lcm, remainder, area, term, (mpz_ptr)0);
    mpz_set_ui(lcm, 1);
    for (size_t k = 2; k <= n; k++) {
        mpz_lcm_ui(lcm, lcm, (unsigned long)k);
    }
    int rc = DPSEL_OK;
    for (size_t l = 0; l < lv->count && rc == DPSEL_OK; l++) {
        /* remainder runs through R_g[k] = (Q[k] + W_g R_g[k-1]) / M */
        mpz_set_ui(remainder, 0);
        mpz_set_ui(area, 0);
        for (size_t k = 0; k < n; k++) {
            mpz_mul(remainder, remainder, weight[l]);
            mpz_add(remainder, remainder, q[k]);
            if (!mpz_divisible_2exp_p(remainder, scale_bits)) {
                rc = DPSEL_EINTERNAL;
                break;
            }
            mpz_fdiv_q_2exp(remainder, remainder, scale_bits);
            mpz_divexact_ui(term, lcm, (unsigned long)(k + 1));
            mpz_addmul(area, remainder, term);
        }
        mpz_mul(mpq_numref(probability[l]), weight[l], area);
        mpz_mul_2exp(mpq_denref(probability[l]), lcm, scale_bits * n);
        mpq_canonicalize(probability[l]);
    }
    mpz_clears(lcm, remainder, area, term, (mpz_ptr)0);
    for (size_t k = 0; k <= n; k++) {
        mpz_clear(q[k]);
    }
    free(q);
    return rc;
}

/* Fills pmf->probability and pmf->expected_error from the levels. */
static int compute(dpsel_pmf *pmf, const dpsel_params *params,
                   dpsel_mechanism mechanism, const levels *lv)
{
    uint64_t top = lv->gap[lv->count - 1];
    mp_bitcnt_t scale_bits = (mp_bitcnt_t)(params->y * top);
    if (!within_limits(mechanism, pmf->n, lv->count, scale_bits)) {
        return DPSEL_ETOOLARGE;
    }
    mpz_t *weight = calloc(lv->count, sizeof *weight);
    if (weight == NULL) {
        return DPSEL_ENOMEM;
    }
    for (size_t l = 0; l < lv->count; l++) {
        mpz_init(weight[l]);
        mpz_ui_pow_ui(weight[l], (unsigned long)params->x, (unsigned long)lv->gap[l]);
        mpz_mul_2exp(weight[l], weight[l], (mp_bitcnt_t)(params->y * (top - lv->gap[l])));
    }
    int rc = DPSEL_OK;
    if (mechanism == DPSEL_EM) {
        em_probabilities(lv, weight, pmf->probability);
    } else {
        rc = pf_probabilities(lv, pmf->n, scale_bits, weight, pmf->probability);
    }
    mpq_t term;
    mpq_init(term);
    for (size_t l = 0; l < lv->count; l++) {
        mpq_set_z(term, lv->gap_sum[l]);
        mpq_mul(term, term, pmf->probability[l]);
        mpq_add(pmf->expected_error, pmf->expected_error, term);
        mpz_clear(weight[l]);
    }
    mpq_clear(term);
    free(weight);
    return rc;
}

void dpsel_pmf_free(dpsel_pmf *pmf)
{
    if (pmf == NULL) {
        return;
    }
    if (pmf->probability != NULL) {
        for (size_t l = 0; l < pmf->nlevels; l++) {
            mpq_clear(pmf->probability[l]);
        }
    }
    mpq_clear(pmf->expected_error);
    free(pmf->probability);
    free(pmf->level_of);
    free(pmf);
}

int dpsel_pmf_new(dpsel_pmf **out, const dpsel_params *params,
                  dpsel_mechanism mechanism, const int64_t *scores, size_t n)
{
    if (out == NULL || params == NULL || scores == NULL) {
        return DPSEL_ENULL;
    }
    if (n == 0) {
        return DPSEL_EEMPTY;
    }
    if (!dpsel_core_params_valid(params) || n > DPSEL_MAX_CANDIDATES
        || (mechanism != DPSEL_PF && mechanism != DPSEL_EM)) {
        return DPSEL_ERANGE;
    }
    dpsel_pmf *pmf = calloc(1, sizeof *pmf);
    if (pmf == NULL) {
        return DPSEL_ENOMEM;
    }
    mpq_init(pmf->expected_error);
    pmf->n = n;
    pmf->level_of = calloc(n, sizeof *pmf->level_of);
    levels lv = { 0 };
    int rc = pmf->level_of == NULL ? DPSEL_ENOMEM
                                   : levels_build(&lv, scores, n, params->gap_cap, pmf->level_of);
    if (rc == DPSEL_OK) {
        pmf->probability = calloc(lv.count, sizeof *pmf->probability);
        rc = pmf->probability == NULL ? DPSEL_ENOMEM : DPSEL_OK;
    }
    if (rc == DPSEL_OK) {
        pmf->nlevels = lv.count;
        for (size_t l = 0; l < lv.count; l++) {
            mpq_init(pmf->probability[l]);
        }
        rc = compute(pmf, params, mechanism, &lv);
    }
    levels_free(&lv);
    if (rc != DPSEL_OK) {
        dpsel_pmf_free(pmf);
        return rc;
    }
    *out = pmf;
    return DPSEL_OK;
}

int dpsel_pmf_probability(const dpsel_pmf *pmf, size_t r, dpsel_format format,
                          char **out)
{
    if (pmf == NULL || out == NULL) {
        return DPSEL_ENULL;
    }
    if (r >= pmf->n || (format != DPSEL_DECIMAL && format != DPSEL_RATIONAL)) {
        return DPSEL_ERANGE;
    }
    return dpsel_rational_to_string(pmf->probability[pmf->level_of[r]], format, out);
}

int dpsel_pmf_expected_error(const dpsel_pmf *pmf, dpsel_format format, char **out)
{
    if (pmf == NULL || out == NULL) {
        return DPSEL_ENULL;
    }
    if (format != DPSEL_DECIMAL && format != DPSEL_RATIONAL) {
        return DPSEL_ERANGE;
    }
    return dpsel_rational_to_string(pmf->expected_error, format, out);
}
