/* SPDX-License-Identifier: ISC */
/*
 * Output distributions.  Candidates with the same clamped gap have the same
 * probability, so the work is done per level (distinct clamped gap).
 *
 * Every pmf holds a rigorous enclosure [lo, hi] of each level's probability
 * and of the expected error, relative width below 2^-100 (enclosure.c: MPFR
 * with directed rounding, no cancellation; the working precision starts at
 * 128 bits and doubles until the width is reached and every decimal is
 * decided).  The exact rationals are computed only when a request needs them
 * (a DPSEL_RATIONAL, or a decimal the enclosure leaves undecided), once per
 * pmf under its lock, and only within the limits below (they take up to
 * tens of seconds at the limits); they are computed with GMP integers and
 * rationals, exact by construction.  With Gmax the largest level and M = 2^(y Gmax), the weight
 * of level g scaled to an integer is W_g = x^g 2^(y (Gmax - g)) = beta^g M.
 *   EM:  P_g = W_g / sum_levels cnt_h W_h
 *   PF:  P_g = beta^g int_0^1 prod_{j != r} (1 - beta^g_j t) dt
 *           = W_g A_g / (L M^n), with Q(t) = prod_j (M - W_j t),
 *             R_g = Q / (M - W_g t), A_g = sum_k R_g[k] L / (k + 1),
 *             L = lcm(1, ..., n).
 * A correctly rounded decimal comes from the exact value, or else from the
 * enclosure when both of its ends round to the same decimal (the rounding is
 * monotonic, so the exact value rounds to it too).  When they do not, the
 * precision is raised; a decimal still undecided is an error, never a guess.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../base/progress_meter.h"
#include "../core/gap.h"
#include "../core/validate.h"
#include "exact.h"
#include "mpfr_env.h"

#define EM_WORK_LIMIT ((uint64_t)1 << 32)
#define PF_WORK_LIMIT ((uint64_t)1 << 34)
#define PF_MAX_CANDIDATES ((size_t)1 << 12)
#define START_PRECISION 128
#define MAX_PRECISION 4096
#define WIDTH_BITS 100     /* relative width at most 2^-100 < 1e-30 */

/* The levels of a score vector. */
typedef struct {
    size_t count;          /* number of levels */
    uint64_t *gap;         /* clamped gap of each level, increasing */
    size_t *members;       /* candidates in each level */
    mpz_t *gap_sum;        /* sum of the unclamped gaps of its candidates */
} levels;

enum { EXACT_NOT_YET, EXACT_HELD, EXACT_TOO_LARGE };

/* The exact rationals, computed by the first request that needs them. */
typedef struct {
    pthread_mutex_t lock;
    int state;             /* EXACT_*; probability and expected_error are set
                              when EXACT_HELD */
    mpq_t *probability;    /* levels.count entries: each candidate's probability */
    mpq_t expected_error;
} exact_values;

struct dpsel_pmf {
    size_t n;              /* candidates (groups, for dpsel_pmf_new_grouped) */
    size_t points;         /* the mechanism's candidates: the groups' members */
    uint64_t *multiplicity; /* n entries: members of each group, or NULL: one each */
    dpsel_params params;
    dpsel_mechanism mechanism;
    uint64_t rnm_w, rnm_p; /* RNM: the Laplace scale b = rnm_w / rnm_p */
    levels lv;             /* kept for the exact values */
    size_t *level_of;      /* n entries: the level of each candidate */
    exact_values *exact;
    mpfr_t *lo, *hi;       /* lv.count entries: bounds of the probability of
                              one member of the level */
    mpfr_t error_lo, error_hi;
};

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

/* Groups the candidates by clamped gap, candidate r counting for
 * multiplicity[r] members (1 each for NULL); fills level_of[0..n-1]. */
static int levels_build(levels *lv, const int64_t *scores, const uint64_t *multiplicity,
                        size_t n, uint64_t cap, size_t *level_of)
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
    mpz_t gap;
    mpz_init(gap);
    for (size_t r = 0; r < n; r++) {
        size_t l = level_index(lv, dpsel_core_clamped_gap(best, scores[r], cap));
        uint64_t members = multiplicity != NULL ? multiplicity[r] : 1;
        mpz_set_ui(gap, (unsigned long)dpsel_core_clamped_gap(best, scores[r], UINT64_MAX));
        level_of[r] = l;
        lv->members[l] += members;  /* the members add up to at most 2^62 */
        mpz_addmul_ui(lv->gap_sum[l], gap, (unsigned long)members);
    }
    mpz_clear(gap);
    return DPSEL_OK;
}

/* The exact computation's work, as dpsel_pmf_new's limits count it: bits of
 * weight arithmetic, levels x coefficient bits for EM, n^3 x coefficient
 * bits for PF (UINT64_MAX past PF_MAX_CANDIDATES or 64 bits). */
static uint64_t exact_work(dpsel_mechanism mechanism, size_t n, size_t nlevels,
                           uint64_t scale_bits)
{
    uint64_t coefficient_bits = scale_bits + 64;   /* at most 2^26 + 64 */
    if (mechanism == DPSEL_EM) {
        return nlevels <= UINT64_MAX / coefficient_bits ? nlevels * coefficient_bits
                                                        : UINT64_MAX;
    }
    uint64_t m = (uint64_t)n;
    return n <= PF_MAX_CANDIDATES ? m * m * m * coefficient_bits : UINT64_MAX;  /* < 2^63 */
}

/* The size limits of the exact computation (see dpsel_pmf_new). */
static int within_limits(dpsel_mechanism mechanism, size_t n, size_t nlevels,
                         uint64_t scale_bits)
{
    uint64_t work = exact_work(mechanism, n, nlevels, scale_bits);
    return work <= (mechanism == DPSEL_EM ? EM_WORK_LIMIT : PF_WORK_LIMIT);
}

/* The exact size (dpsel_exact_pmf_exact_size) of the levels lv of n
 * points, for mechanism and params. */
static void levels_exact_size(const levels *lv, size_t points, const dpsel_params *params,
                              dpsel_mechanism mechanism, uint64_t *work, uint64_t *bits)
{
    if (mechanism == DPSEL_RNM) {   /* no exact rationals: e is irrational */
        *work = UINT64_MAX;
        *bits = UINT64_MAX;
        return;
    }
    uint64_t scale_bits = (uint64_t)params->y * lv->gap[lv->count - 1];
    uint64_t n = (uint64_t)points;
    *work = exact_work(mechanism, points, lv->count, scale_bits);
    /* EM: the denominator divides sum_l members_l W_l < 2^62 2^scale_bits.
     * PF: P_g = beta^g sum_k e_k / (k + 1), e_k the k-th elementary
     * symmetric sum of the others' -beta^g_j: its denominator divides
     * lcm(1..n) 2^(y G), G the sum of the n clamped gaps, and lcm(1..n) <
     * 3^n < 4^n (Hanson 1972).  A numerator is at most its denominator. */
    if (mechanism == DPSEL_EM) {
        *bits = 2 * (scale_bits + 64);
        return;
    }
    if (n > PF_MAX_CANDIDATES) {
        *bits = UINT64_MAX;
        return;
    }
    uint64_t gaps = 0;                   /* < 2^12 2^20: no overflow below */
    for (size_t l = 0; l < lv->count; l++) {
        gaps += (uint64_t)lv->members[l] * lv->gap[l];
    }
    *bits = 2 * (params->y * gaps + 2 * n + 1);
}

void dpsel_exact_pmf_exact_size(const dpsel_pmf *pmf, uint64_t *work, uint64_t *bits)
{
    levels_exact_size(&pmf->lv, pmf->points, &pmf->params, pmf->mechanism, work, bits);
}

/* Sets probability[l] = weight[l] / total in lowest terms, and the expected
 * error (over the common denominator: one reduction).  With
 * weight[l] = x^g 2^k (k = y (top - g)) and x odd, gcd(weight[l], total) =
 * gcd(x^g, G) 2^min(k, v2(total)), G = gcd(x^top, total): one gcd of large
 * numbers instead of one per level. */
static void em_probabilities(const levels *lv, unsigned y, mpz_t *weight,
                             mpq_t *probability, mpq_t error)
{
    mpz_t total, large_common, common;
    mpz_inits(total, large_common, common, (mpz_ptr)0);
    for (size_t l = 0; l < lv->count; l++) {
        mpz_addmul_ui(total, weight[l], (unsigned long)lv->members[l]);
    }
    size_t top = lv->count - 1;
    mpz_gcd(large_common, weight[top], total);   /* weight[top] = x^top */
    mp_bitcnt_t total_twos = mpz_scan1(total, 0);
    for (size_t l = 0; l < lv->count; l++) {
        mp_bitcnt_t twos = (mp_bitcnt_t)y * (lv->gap[top] - lv->gap[l]);
        mpz_fdiv_q_2exp(common, weight[l], twos);  /* x^g */
        mpz_gcd(common, common, large_common);
        mpz_mul_2exp(common, common, twos < total_twos ? twos : total_twos);
        mpz_divexact(mpq_numref(probability[l]), weight[l], common);
        mpz_divexact(mpq_denref(probability[l]), total, common);
        mpz_addmul(mpq_numref(error), lv->gap_sum[l], weight[l]);
    }
    mpz_set(mpq_denref(error), total);
    mpq_canonicalize(error);
    mpz_clears(total, large_common, common, (mpz_ptr)0);
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
                            mpz_t *weight, mpq_t *probability, mpq_t error)
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
        mpz_addmul(mpq_numref(error), lv->gap_sum[l], mpq_numref(probability[l]));
        mpz_mul_2exp(mpq_denref(probability[l]), lcm, scale_bits * n);
        mpz_set(mpq_denref(error), mpq_denref(probability[l]));
        mpq_canonicalize(probability[l]);
    }
    mpq_canonicalize(error);
    mpz_clears(lcm, remainder, area, term, (mpz_ptr)0);
    for (size_t k = 0; k <= n; k++) {
        mpz_clear(q[k]);
    }
    free(q);
    return rc;
}

/* Fills ex->probability and ex->expected_error (0 on entry), exactly, from
 * the levels of pmf. */
static int compute_exact(const dpsel_pmf *pmf, exact_values *ex, mp_bitcnt_t scale_bits)
{
    const dpsel_params *params = &pmf->params;
    const levels *lv = &pmf->lv;
    mpz_t *weight = calloc(lv->count, sizeof *weight);
    if (weight == NULL) {
        return DPSEL_ENOMEM;
    }
    uint64_t top = lv->gap[lv->count - 1];
    for (size_t l = 0; l < lv->count; l++) {
        mpz_init(weight[l]);
        mpz_ui_pow_ui(weight[l], (unsigned long)params->x, (unsigned long)lv->gap[l]);
        mpz_mul_2exp(weight[l], weight[l], (mp_bitcnt_t)(params->y * (top - lv->gap[l])));
    }
    int rc = DPSEL_OK;
    if (pmf->mechanism == DPSEL_EM) {
        em_probabilities(lv, params->y, weight, ex->probability, ex->expected_error);
    } else {
        rc = pf_probabilities(lv, pmf->points, scale_bits, weight, ex->probability,
                              ex->expected_error);
    }
    for (size_t l = 0; l < lv->count; l++) {
        mpz_clear(weight[l]);
    }
    free(weight);
    return rc;
}

static void exact_probabilities_free(exact_values *ex, size_t count)
{
    if (ex->probability != NULL) {
        for (size_t l = 0; l < count; l++) {
            mpq_clear(ex->probability[l]);
        }
        free(ex->probability);
        ex->probability = NULL;
    }
}

/* Computes the exact values of pmf into ex (state EXACT_NOT_YET): then
 * EXACT_HELD, or EXACT_TOO_LARGE beyond the limits; on another failure the
 * state stays EXACT_NOT_YET, for a later request to try again. */
static int compute_exact_values(const dpsel_pmf *pmf, exact_values *ex)
{
    const levels *lv = &pmf->lv;
    mp_bitcnt_t scale_bits = (mp_bitcnt_t)(pmf->params.y * lv->gap[lv->count - 1]);
    if (pmf->mechanism == DPSEL_RNM
        || !within_limits(pmf->mechanism, pmf->points, lv->count, scale_bits)) {
        ex->state = EXACT_TOO_LARGE;
        return DPSEL_ETOOLARGE;
    }
    ex->probability = calloc(lv->count, sizeof *ex->probability);
    if (ex->probability == NULL) {
        return DPSEL_ENOMEM;
    }
    for (size_t l = 0; l < lv->count; l++) {
        mpq_init(ex->probability[l]);
    }
    int rc = compute_exact(pmf, ex, scale_bits);
    if (rc == DPSEL_OK) {
        ex->state = EXACT_HELD;
    } else {
        exact_probabilities_free(ex, lv->count);
        mpq_set_ui(ex->expected_error, 0, 1);
    }
    return rc;
}

int dpsel_exact_pmf_exact_ready(const dpsel_pmf *pmf)
{
    exact_values *ex = pmf->exact;
    if (pthread_mutex_lock(&ex->lock) != 0) {
        return DPSEL_EINTERNAL;
    }
    int rc = ex->state == EXACT_HELD ? DPSEL_OK
           : ex->state == EXACT_TOO_LARGE ? DPSEL_ETOOLARGE
           : compute_exact_values(pmf, ex);
    pthread_mutex_unlock(&ex->lock);
    return rc;
}

/* The correctly rounded decimal of the number in [lo, hi], if both ends round
 * to the same decimal (rounding is monotonic); else DPSEL_ETOOLARGE.  MPFR
 * rounds each end from its exact binary value, at a cost that does not grow
 * with its exponent (a probability may be as small as 2^-(2^56)). */
int dpsel_exact_enclosure_to_decimal(const mpfr_t lo, const mpfr_t hi, char **out)
{
    char hi_text[DPSEL_EXACT_DECIMAL_DIGITS + DPSEL_EXACT_TEXT_EXTRA];
    char *lo_text = malloc(DPSEL_EXACT_DECIMAL_DIGITS + DPSEL_EXACT_TEXT_EXTRA);
    if (lo_text == NULL) {
        return DPSEL_ENOMEM;
    }
    int rc = dpsel_exact_mpfr_text(lo, DPSEL_EXACT_DECIMAL_DIGITS, MPFR_RNDN, lo_text);
    if (rc == DPSEL_OK) {
        rc = dpsel_exact_mpfr_text(hi, DPSEL_EXACT_DECIMAL_DIGITS, MPFR_RNDN, hi_text);
    }
    if (rc == DPSEL_OK && strcmp(lo_text, hi_text) != 0) {
        rc = DPSEL_ETOOLARGE;
    }
    if (rc != DPSEL_OK) {
        free(lo_text);
        return rc;
    }
    *out = lo_text;
    return DPSEL_OK;
}

/* hi - lo <= 2^-WIDTH_BITS lo. */
static int is_narrow(const mpfr_t lo, const mpfr_t hi)
{
    mpfr_t width, allowed;
    mpfr_inits2(mpfr_get_prec(lo), width, allowed, (mpfr_ptr)0);
    mpfr_sub(width, hi, lo, MPFR_RNDU);
    mpfr_div_2ui(allowed, lo, WIDTH_BITS, MPFR_RNDD);
    int narrow = mpfr_lessequal_p(width, allowed);
    mpfr_clears(width, allowed, (mpfr_ptr)0);
    return narrow;
}

static int decides_decimal(const mpfr_t lo, const mpfr_t hi)
{
    char *text = NULL;
    int decided = dpsel_exact_enclosure_to_decimal(lo, hi, &text) == DPSEL_OK;
    dpsel_string_free(text);
    return decided;
}

/* Bounds of the expected error sum_levels gap_sum * P from those of P. */
static void enclose_expected_error(dpsel_pmf *pmf, const levels *lv, mpfr_prec_t prec)
{
    mpfr_t term;
    mpfr_init2(term, prec);
    mpfr_set_prec(pmf->error_lo, prec);
    mpfr_set_prec(pmf->error_hi, prec);
    mpfr_set_ui(pmf->error_lo, 0, MPFR_RNDD);
    mpfr_set_ui(pmf->error_hi, 0, MPFR_RNDU);
    for (size_t l = 0; l < lv->count; l++) {
        mpfr_mul_z(term, pmf->lo[l], lv->gap_sum[l], MPFR_RNDD);
        mpfr_add(pmf->error_lo, pmf->error_lo, term, MPFR_RNDD);
        mpfr_mul_z(term, pmf->hi[l], lv->gap_sum[l], MPFR_RNDU);
        mpfr_add(pmf->error_hi, pmf->error_hi, term, MPFR_RNDU);
    }
    mpfr_clear(term);
}

/* Fills the bounds, raising the precision until they are narrow and decide
 * every decimal.  The first pass takes the progress scale to 15/16, as it
 * nearly always is the last; each further pass half of what is left. */
static int compute_enclosure(dpsel_pmf *pmf, dpsel_progress *progress)
{
    const levels *lv = &pmf->lv;
    int narrow = 0;
    uint64_t from = 0, to = DPSEL_PROGRESS_SCALE - DPSEL_PROGRESS_SCALE / 16;
    for (mpfr_prec_t prec = START_PRECISION; prec <= MAX_PRECISION; prec *= 2) {
        dpsel_progress_phase(progress, from, to);
        from = to;
        to += (DPSEL_PROGRESS_SCALE - to) / 2;
        int rc = pmf->mechanism == DPSEL_RNM
                 ? dpsel_exact_rnm_enclose_levels(pmf->rnm_w, pmf->rnm_p, lv->gap, lv->members,
                                                  lv->count, prec, progress, pmf->lo, pmf->hi)
                 : dpsel_exact_enclose_levels(pmf->mechanism, pmf->params.x, pmf->params.y,
                                              lv->gap, lv->members, lv->count, prec, progress,
                                              pmf->lo, pmf->hi);
        if (rc != DPSEL_OK) {
            return rc;
        }
        enclose_expected_error(pmf, lv, prec);
        narrow = is_narrow(pmf->error_lo, pmf->error_hi);
        int decided = decides_decimal(pmf->error_lo, pmf->error_hi);
        for (size_t l = 0; l < lv->count && narrow; l++) {
            narrow = is_narrow(pmf->lo[l], pmf->hi[l]);
            decided = decided && decides_decimal(pmf->lo[l], pmf->hi[l]);
        }
        if (narrow && decided) {
            return DPSEL_OK;
        }
    }
    /* A decimal that no precision decides comes from the exact value when
     * it is asked for.  Too wide bounds cannot happen (width a few n 2^-prec
     * by the polynomial path, n <= 2^15; about 2^-(prec - 20) by quadrature). */
    return narrow ? DPSEL_OK : DPSEL_EINTERNAL;
}

static exact_values *exact_values_new(void)
{
    exact_values *ex = calloc(1, sizeof *ex);
    if (ex != NULL && pthread_mutex_init(&ex->lock, NULL) != 0) {
        free(ex);
        return NULL;
    }
    if (ex != NULL) {
        ex->state = EXACT_NOT_YET;
        mpq_init(ex->expected_error);
    }
    return ex;
}

static void exact_values_free(exact_values *ex, size_t count)
{
    if (ex != NULL) {
        exact_probabilities_free(ex, count);
        mpq_clear(ex->expected_error);
        pthread_mutex_destroy(&ex->lock);
        free(ex);
    }
}

void dpsel_pmf_free(dpsel_pmf *pmf)
{
    if (pmf == NULL) {
        return;
    }
    exact_values_free(pmf->exact, pmf->lv.count);
    mpfr_clears(pmf->error_lo, pmf->error_hi, (mpfr_ptr)0);
    dpsel_exact_numbers_free(pmf->lo, pmf->lv.count);
    dpsel_exact_numbers_free(pmf->hi, pmf->lv.count);
    levels_free(&pmf->lv);
    free(pmf->level_of);
    free(pmf->multiplicity);
    free(pmf);
}

int dpsel_exact_check_distribution(const dpsel_params *params, dpsel_mechanism mechanism, size_t n)
{
    if (n == 0) {
        return DPSEL_EEMPTY;
    }
    if (!dpsel_core_params_valid(params) || n > DPSEL_MAX_CANDIDATES
        || (mechanism != DPSEL_PF && mechanism != DPSEL_EM)) {
        return DPSEL_ERANGE;
    }
    return DPSEL_OK;
}

/* The levels and the enclosure of a pmf whose n, points, multiplicity,
 * params and mechanism are set, in MPFR's widest exponent range. */
static int pmf_build(dpsel_pmf *pmf, const int64_t *scores, dpsel_progress *progress)
{
    pmf->level_of = calloc(pmf->n, sizeof *pmf->level_of);
    pmf->exact = exact_values_new();
    if (pmf->level_of == NULL || pmf->exact == NULL) {
        return DPSEL_ENOMEM;
    }
    int rc = levels_build(&pmf->lv, scores, pmf->multiplicity, pmf->n, pmf->params.gap_cap,
                          pmf->level_of);
    if (rc != DPSEL_OK) {
        return rc;
    }
    pmf->lo = dpsel_exact_numbers_new(pmf->lv.count, START_PRECISION);
    pmf->hi = dpsel_exact_numbers_new(pmf->lv.count, START_PRECISION);
    return pmf->lo == NULL || pmf->hi == NULL ? DPSEL_ENOMEM : compute_enclosure(pmf, progress);
}

/* The members of all groups; 0 for a group of none or a sum above 2^62. */
static size_t count_points(const uint64_t *multiplicity, size_t n)
{
    uint64_t points = 0;
    for (size_t r = 0; r < n; r++) {
        if (multiplicity[r] == 0 || multiplicity[r] > DPSEL_MAX_CANDIDATES - points) {
            return 0;
        }
        points += multiplicity[r];
    }
    return (size_t)points;
}

/* The members of n groups (multiplicity NULL: n single candidates) in
 * *points, once the arguments a pmf is made of are checked. */
static int check_pmf_args(const dpsel_params *params, dpsel_mechanism mechanism,
                          const int64_t *scores, const uint64_t *multiplicity, size_t n,
                          size_t *points)
{
    if (params == NULL || scores == NULL) {
        return DPSEL_ENULL;
    }
    int checked = dpsel_exact_check_distribution(params, mechanism, n);
    if (checked != DPSEL_OK) {
        return checked;
    }
    *points = multiplicity != NULL ? count_points(multiplicity, n) : n;
    return *points == 0 ? DPSEL_ERANGE : DPSEL_OK;
}

/* A pmf of n candidates (points members in all) for params and mechanism
 * (RNM: of scale w / p), built on the meter progress and finished. */
static int pmf_make(dpsel_pmf **out, const dpsel_params *params, dpsel_mechanism mechanism,
                    const uint64_t scale[2], const int64_t *scores,
                    const uint64_t *multiplicity, size_t n, size_t points,
                    dpsel_progress *progress)
{
    dpsel_pmf *pmf = calloc(1, sizeof *pmf);
    if (pmf == NULL) {
        return DPSEL_ENOMEM;
    }
    mpfr_inits2(START_PRECISION, pmf->error_lo, pmf->error_hi, (mpfr_ptr)0);
    pmf->n = n;
    pmf->points = points;
    pmf->params = *params;
    pmf->mechanism = mechanism;
    pmf->rnm_w = scale[0];
    pmf->rnm_p = scale[1];
    int rc = DPSEL_OK;
    if (multiplicity != NULL) {
        pmf->multiplicity = malloc(n * sizeof *pmf->multiplicity);
        rc = pmf->multiplicity == NULL ? DPSEL_ENOMEM : DPSEL_OK;
    }
    if (rc == DPSEL_OK && multiplicity != NULL) {
        memcpy(pmf->multiplicity, multiplicity, n * sizeof *pmf->multiplicity);
    }
    if (rc == DPSEL_OK) {
        dpsel_mpfr_env host;
        dpsel_exact_mpfr_enter(&host);
        rc = pmf_build(pmf, scores, progress);
        dpsel_exact_mpfr_leave(&host);
    }
    rc = rc == DPSEL_OK ? dpsel_progress_finish(progress) : rc;
    if (rc != DPSEL_OK) {
        dpsel_pmf_free(pmf);
        return rc;
    }
    *out = pmf;
    return DPSEL_OK;
}

int dpsel_exact_pmf_new_metered(dpsel_pmf **out, const dpsel_params *params,
                                dpsel_mechanism mechanism, const int64_t *scores,
                                const uint64_t *multiplicity, size_t n,
                                dpsel_progress *progress)
{
    size_t points = 0;
    int checked = out == NULL ? DPSEL_ENULL
                              : check_pmf_args(params, mechanism, scores, multiplicity, n, &points);
    const uint64_t no_scale[2] = { 0, 0 };
    return checked != DPSEL_OK ? checked
                               : pmf_make(out, params, mechanism, no_scale, scores, multiplicity,
                                          n, points, progress);
}

/* RNM's parameters: the sensitivity and monotonic flag (its scale is kept
 * apart), no gap cap: the levels are the unclamped gaps. */
int dpsel_exact_rnm_pmf_new_metered(dpsel_pmf **out, const char *epsilon, uint64_t sensitivity,
                                    int monotonic, const int64_t *scores,
                                    const uint64_t *multiplicity, size_t n,
                                    dpsel_progress *progress)
{
    if (out == NULL || epsilon == NULL || scores == NULL) {
        return DPSEL_ENULL;
    }
    if (n == 0) {
        return DPSEL_EEMPTY;
    }
    size_t points = multiplicity != NULL ? count_points(multiplicity, n) : n;
    if (n > DPSEL_MAX_CANDIDATES || points == 0) {
        return DPSEL_ERANGE;
    }
    uint64_t scale[2];
    int rc = dpsel_exact_rnm_scale(epsilon, sensitivity, monotonic, &scale[0], &scale[1]);
    const dpsel_params params = { .sensitivity = sensitivity, .monotonic = monotonic,
                                  .gap_cap = UINT64_MAX };
    return rc != DPSEL_OK ? rc
                          : pmf_make(out, &params, DPSEL_RNM, scale, scores, multiplicity, n,
                                     points, progress);
}

int dpsel_rnm_pmf_new(dpsel_pmf **out, const char *epsilon, uint64_t sensitivity, int monotonic,
                      const int64_t *scores, const uint64_t *multiplicity, size_t n,
                      dpsel_progress_fn progress, void *context)
{
    dpsel_progress meter;
    dpsel_progress_init(&meter, progress, context);
    return dpsel_exact_rnm_pmf_new_metered(out, epsilon, sensitivity, monotonic, scores,
                                           multiplicity, n, &meter);
}

int dpsel_pmf_new(dpsel_pmf **out, const dpsel_params *params,
                  dpsel_mechanism mechanism, const int64_t *scores, size_t n)
{
    return dpsel_exact_pmf_new_metered(out, params, mechanism, scores, NULL, n, NULL);
}

int dpsel_pmf_new_grouped(dpsel_pmf **out, const dpsel_params *params,
                          dpsel_mechanism mechanism, const int64_t *scores,
                          const uint64_t *multiplicity, size_t n)
{
    return multiplicity == NULL ? DPSEL_ENULL
                                : dpsel_exact_pmf_new_metered(out, params, mechanism, scores,
                                                              multiplicity, n, NULL);
}

int dpsel_pmf_new_progress(dpsel_pmf **out, const dpsel_params *params,
                           dpsel_mechanism mechanism, const int64_t *scores,
                           const uint64_t *multiplicity, size_t n, dpsel_progress_fn progress,
                           void *context)
{
    dpsel_progress meter;
    dpsel_progress_init(&meter, progress, context);
    return dpsel_exact_pmf_new_metered(out, params, mechanism, scores, multiplicity, n, &meter);
}

/* The exact work is that of the levels (exact_work), which take O(n log n)
 * to find and none of the enclosure's work. */
int dpsel_exact_exact_size_of(const dpsel_params *params, dpsel_mechanism mechanism,
                               const int64_t *scores, const uint64_t *multiplicity, size_t n,
                               uint64_t *work, uint64_t *bits)
{
    size_t points = 0;
    int rc = check_pmf_args(params, mechanism, scores, multiplicity, n, &points);
    if (rc != DPSEL_OK) {
        return rc;
    }
    levels lv = { 0 };
    size_t *level_of = calloc(n, sizeof *level_of);
    rc = level_of == NULL ? DPSEL_ENOMEM
                          : levels_build(&lv, scores, multiplicity, n, params->gap_cap, level_of);
    if (rc == DPSEL_OK) {
        levels_exact_size(&lv, points, params, mechanism, work, bits);
    }
    levels_free(&lv);
    free(level_of);
    return rc;
}

int dpsel_pmf_exact_work(const dpsel_params *params, dpsel_mechanism mechanism,
                         const int64_t *scores, const uint64_t *multiplicity, size_t n,
                         uint64_t *work, uint64_t *limit)
{
    uint64_t bits = 0;
    int rc = work == NULL || limit == NULL
           ? DPSEL_ENULL
           : dpsel_exact_exact_size_of(params, mechanism, scores, multiplicity, n, work, &bits);
    if (rc == DPSEL_OK) {
        *limit = mechanism == DPSEL_EM ? EM_WORK_LIMIT : PF_WORK_LIMIT;
    }
    return rc;
}

/* Value v of the pmf: the probability of level v, or for v == lv.count the
 * expected error.  Its enclosure, and its exact value once held. */
static mpfr_srcptr value_lo(const dpsel_pmf *pmf, size_t v)
{
    return v < pmf->lv.count ? pmf->lo[v] : pmf->error_lo;
}

static mpfr_srcptr value_hi(const dpsel_pmf *pmf, size_t v)
{
    return v < pmf->lv.count ? pmf->hi[v] : pmf->error_hi;
}

static mpq_srcptr value_exact(const dpsel_pmf *pmf, size_t v)
{
    return v < pmf->lv.count ? pmf->exact->probability[v] : pmf->exact->expected_error;
}

/* The factor of candidate r's value over its level's, into scale
 * (initialised): its group's members. */
static void members_of(const dpsel_pmf *pmf, size_t r, mpq_t scale)
{
    mpq_set_ui(scale, (unsigned long)(pmf->multiplicity != NULL ? pmf->multiplicity[r] : 1), 1);
}

/* The unit of decimal scores as an exact positive rational, into scale
 * (initialised): DPSEL_EDECIMAL for a malformed unit, DPSEL_ERANGE for a
 * unit <= 0. */
static int unit_scale(const char *unit, mpq_t scale)
{
    int rc = dpsel_exact_decimal_value(unit, scale);
    return rc == DPSEL_OK && mpq_sgn(scale) <= 0 ? DPSEL_ERANGE : rc;
}

/* Value v's bounds times the positive rational scale into lo and hi
 * (initialised), lo rounded down and hi up: exactly for an integer scale
 * below 2^64 (a group's members), since 64 bits more than the bounds'
 * precision hold any such product. */
static void scaled_bounds(const dpsel_pmf *pmf, size_t v, mpq_srcptr scale, mpfr_t lo,
                          mpfr_t hi)
{
    mpfr_set_prec(lo, mpfr_get_prec(value_lo(pmf, v)) + 64);
    mpfr_set_prec(hi, mpfr_get_prec(value_hi(pmf, v)) + 64);
    mpfr_mul_q(lo, value_lo(pmf, v), scale, MPFR_RNDD);
    mpfr_mul_q(hi, value_hi(pmf, v), scale, MPFR_RNDU);
}

/* The text of value v times scale: a decimal decided by the scaled
 * enclosure, else from the exact rational (computed now if needed), else
 * DPSEL_ETOOLARGE. */
static int value_text(const dpsel_pmf *pmf, size_t v, mpq_srcptr scale, dpsel_format format,
                      char **out)
{
    int rc = DPSEL_ETOOLARGE;
    if (format == DPSEL_DECIMAL) {
        /* the enclosure decides all but a few decimals, fast */
        mpfr_t lo, hi;
        mpfr_inits2(MPFR_PREC_MIN, lo, hi, (mpfr_ptr)0);
        scaled_bounds(pmf, v, scale, lo, hi);
        rc = dpsel_exact_enclosure_to_decimal(lo, hi, out);
        mpfr_clears(lo, hi, (mpfr_ptr)0);
    }
    if (rc == DPSEL_ETOOLARGE) {
        rc = dpsel_exact_pmf_exact_ready(pmf);
    }
    if (rc == DPSEL_OK && *out == NULL) {
        mpq_t value;
        mpq_init(value);
        mpq_mul(value, value_exact(pmf, v), scale);
        rc = dpsel_exact_rational_to_string(value, format, out);
        mpq_clear(value);
    }
    return rc;
}

static int value_to_string(const dpsel_pmf *pmf, size_t v, mpq_srcptr scale,
                           dpsel_format format, char **out)
{
    if (format != DPSEL_DECIMAL && (format != DPSEL_RATIONAL || pmf->mechanism == DPSEL_RNM)) {
        return DPSEL_ERANGE;   /* RNM's values are not rational */
    }
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    char *text = NULL;
    int rc = value_text(pmf, v, scale, format, &text);
    dpsel_exact_mpfr_leave(&host);
    if (rc == DPSEL_OK) {
        *out = text;
    }
    return rc;
}

int dpsel_pmf_probability(const dpsel_pmf *pmf, size_t r, dpsel_format format,
                          char **out)
{
    if (pmf == NULL || out == NULL) {
        return DPSEL_ENULL;
    }
    if (r >= pmf->n) {
        return DPSEL_ERANGE;
    }
    mpq_t scale;
    mpq_init(scale);
    members_of(pmf, r, scale);
    int rc = value_to_string(pmf, pmf->level_of[r], scale, format, out);
    mpq_clear(scale);
    return rc;
}

int dpsel_pmf_expected_error_in_units(const dpsel_pmf *pmf, const char *unit,
                                      dpsel_format format, char **out)
{
    if (pmf == NULL || unit == NULL || out == NULL) {
        return DPSEL_ENULL;
    }
    mpq_t scale;
    mpq_init(scale);
    int rc = unit_scale(unit, scale);
    if (rc == DPSEL_OK) {
        rc = value_to_string(pmf, pmf->lv.count, scale, format, out);
    }
    mpq_clear(scale);
    return rc;
}

int dpsel_pmf_expected_error(const dpsel_pmf *pmf, dpsel_format format, char **out)
{
    return dpsel_pmf_expected_error_in_units(pmf, "1", format, out);
}

int dpsel_exact_mpfr_to_string(const mpfr_t value, unsigned digits, mpfr_rnd_t rnd, char **out)
{
    char *text = malloc(digits + DPSEL_EXACT_TEXT_EXTRA);
    if (text == NULL) {
        return DPSEL_ENOMEM;
    }
    int rc = dpsel_exact_mpfr_text(value, digits, rnd, text);
    if (rc != DPSEL_OK) {
        free(text);
        return rc;
    }
    *out = text;
    return DPSEL_OK;
}

/* Value v's bounds times scale, lo rounded down and hi rounded up to
 * `digits` significant digits. */
static int bounds_text(const dpsel_pmf *pmf, size_t v, mpq_srcptr scale, unsigned digits,
                       char **lo_out, char **hi_out)
{
    mpfr_t lo, hi;
    mpfr_inits2(MPFR_PREC_MIN, lo, hi, (mpfr_ptr)0);
    scaled_bounds(pmf, v, scale, lo, hi);
    int rc = dpsel_exact_bounds_to_strings(lo, hi, digits, lo_out, hi_out);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return rc;
}

int dpsel_exact_bounds_to_strings(const mpfr_t lo, const mpfr_t hi, unsigned digits,
                                  char **lo_out, char **hi_out)
{
    char *lo_text = NULL;
    char *hi_text = NULL;
    int rc = dpsel_exact_mpfr_to_string(lo, digits, MPFR_RNDD, &lo_text);
    if (rc == DPSEL_OK) {
        rc = dpsel_exact_mpfr_to_string(hi, digits, MPFR_RNDU, &hi_text);
    }
    if (rc != DPSEL_OK) {
        dpsel_string_free(lo_text);
        return rc;
    }
    *lo_out = lo_text;
    *hi_out = hi_text;
    return DPSEL_OK;
}

/* The pointers checked: pmf, lo and hi (DPSEL_ENULL), then digits
 * (DPSEL_ERANGE). */
static int check_bounds_args(const dpsel_pmf *pmf, unsigned digits, char **lo_out,
                             char **hi_out)
{
    if (pmf == NULL || lo_out == NULL || hi_out == NULL) {
        return DPSEL_ENULL;
    }
    return digits < 1 || digits > 100 ? DPSEL_ERANGE : DPSEL_OK;
}

static int bounds_to_strings(const dpsel_pmf *pmf, size_t v, mpq_srcptr scale, unsigned digits,
                             char **lo_out, char **hi_out)
{
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    int rc = bounds_text(pmf, v, scale, digits, lo_out, hi_out);
    dpsel_exact_mpfr_leave(&host);
    return rc;
}

int dpsel_pmf_probability_bounds(const dpsel_pmf *pmf, size_t r, unsigned digits,
                                 char **lo, char **hi)
{
    if (pmf == NULL) {
        return DPSEL_ENULL;
    }
    if (r >= pmf->n) {
        return DPSEL_ERANGE;
    }
    int rc = check_bounds_args(pmf, digits, lo, hi);
    if (rc != DPSEL_OK) {
        return rc;
    }
    mpq_t scale;
    mpq_init(scale);
    members_of(pmf, r, scale);
    rc = bounds_to_strings(pmf, pmf->level_of[r], scale, digits, lo, hi);
    mpq_clear(scale);
    return rc;
}

int dpsel_pmf_expected_error_bounds_in_units(const dpsel_pmf *pmf, const char *unit,
                                             unsigned digits, char **lo, char **hi)
{
    int rc = unit == NULL ? DPSEL_ENULL : check_bounds_args(pmf, digits, lo, hi);
    mpq_t scale;
    mpq_init(scale);
    if (rc == DPSEL_OK) {
        rc = unit_scale(unit, scale);
    }
    if (rc == DPSEL_OK) {
        rc = bounds_to_strings(pmf, pmf->lv.count, scale, digits, lo, hi);
    }
    mpq_clear(scale);
    return rc;
}

int dpsel_pmf_expected_error_bounds(const dpsel_pmf *pmf, unsigned digits, char **lo,
                                    char **hi)
{
    return dpsel_pmf_expected_error_bounds_in_units(pmf, "1", digits, lo, hi);
}

/* lo and hi set to value v's bounds, at their precision. */
static void value_bounds(const dpsel_pmf *pmf, size_t v, mpfr_t lo, mpfr_t hi)
{
    mpfr_set_prec(lo, mpfr_get_prec(value_lo(pmf, v)));
    mpfr_set_prec(hi, mpfr_get_prec(value_hi(pmf, v)));
    mpfr_set(lo, value_lo(pmf, v), MPFR_RNDD);   /* same precision: exact */
    mpfr_set(hi, value_hi(pmf, v), MPFR_RNDU);
}

void dpsel_exact_pmf_probability_mpfr(const dpsel_pmf *pmf, size_t r, mpfr_t lo, mpfr_t hi)
{
    value_bounds(pmf, pmf->level_of[r], lo, hi);
}

void dpsel_exact_pmf_expected_error_mpfr(const dpsel_pmf *pmf, mpfr_t lo, mpfr_t hi)
{
    value_bounds(pmf, pmf->lv.count, lo, hi);
}

mpq_srcptr dpsel_exact_pmf_probability_exact(const dpsel_pmf *pmf, size_t r)
{
    return dpsel_exact_pmf_exact_ready(pmf) == DPSEL_OK
           ? pmf->exact->probability[pmf->level_of[r]] : NULL;
}
