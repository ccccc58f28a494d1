/* SPDX-License-Identifier: ISC */
/*
 * The privacy audit (spec/mechanisms.md §9): for every output r and both
 * directions, is P_f(r) / P_t(r) <= e^eps = beta^-m, m = k D (k = 1 if
 * monotonic, else 2)?  Each comparison is decided, in this order, by
 *   1. the pmf enclosures: ln(hi_f / lo_t) rounded up <= eps rounded down
 *      proves "holds", ln(lo_f / hi_t) rounded down > eps rounded up proves
 *      "broken";
 *   2. an exact sufficient condition for "holds", valid for both mechanisms
 *      (`dominated` below), cheap;
 *   3. the exact rationals, computed now (once per pmf) when within the
 *      size limits: P_f x^m <=> P_t 2^(y m) in integers.
 * A comparison none of them settles is open, and the verdict is "undecided"
 * unless another one is broken: the verdict is never a guess.  Step 1 alone
 * cannot prove the frequent tight case P_f / P_t = beta^-m exactly (a
 * non-best score raised by D under PF), which steps 2 and 3 can; the exact
 * rationals, costly near their limits, are built only for a comparison
 * that steps 1 and 2 leave open.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../core/gap.h"
#include "exact.h"
#include "mpfr_env.h"

#define LOSS_DIGITS 36
#define EPSILON_PRECISION 256
/* Most bits of x^m in the exact comparison. */
#define EXACT_POWER_BITS_MAX ((uint64_t)1 << 26)

enum { PAIR_HOLDS, PAIR_BROKEN, PAIR_OPEN };

/* What both sides of the audit share: index 0 is a, 1 is b. */
typedef struct {
    const dpsel_params *params;
    const char *rnm_epsilon; /* RNM: its decimal epsilon (scale rnm_w / rnm_p); else NULL */
    uint64_t rnm_w, rnm_p;
    size_t n;
    uint64_t m;              /* k D, saturated at UINT64_MAX */
    dpsel_pmf *pmf[2];
    uint64_t *gap[2];        /* clamped gap of each candidate */
    uint64_t *sorted[2];     /* the same gaps, sorted */
    mpfr_t eps_lo, eps_hi;
} audit;

/* The running maximum of the loss over the comparisons. */
typedef struct {
    mpfr_t lo, hi;
    size_t output;
    int a_over_b;
    size_t decided_exactly;
    int any_broken, any_open;
    int failure;             /* DPSEL_OK, or what stopped an exact step */
} loss_max;

static int compare_u64(const void *a, const void *b)
{
    uint64_t u = *(const uint64_t *)a;
    uint64_t v = *(const uint64_t *)b;
    return (u > v) - (u < v);
}

/* gap[r] = min(max q - q_r, cap), and sorted a sorted copy. */
static void clamped_gaps(const int64_t *scores, size_t n, uint64_t cap, uint64_t *gap,
                         uint64_t *sorted)
{
    int64_t best = scores[dpsel_core_argmax(scores, n)];
    for (size_t r = 0; r < n; r++) {
        gap[r] = dpsel_core_clamped_gap(best, scores[r], cap);
    }
    memcpy(sorted, gap, n * sizeof *gap);
    qsort(sorted, n, sizeof *sorted, compare_u64);
}

/* The neighbour check: distance and the directions of b - a. */
static void neighbour_check(const int64_t *a, const int64_t *b, size_t n,
                            const dpsel_params *params, dpsel_audit_result *out)
{
    out->distance = 0;
    out->b_at_least_a = 1;
    out->b_at_most_a = 1;
    for (size_t r = 0; r < n; r++) {
        /* |a - b| as the difference of the larger and the smaller: < 2^64 */
        uint64_t d = a[r] <= b[r] ? (uint64_t)b[r] - (uint64_t)a[r]
                                  : (uint64_t)a[r] - (uint64_t)b[r];
        out->distance = d > out->distance ? d : out->distance;
        out->b_at_least_a &= b[r] >= a[r];
        out->b_at_most_a &= b[r] <= a[r];
    }
    out->neighbours = out->distance <= params->sensitivity
                      && (!params->monotonic || out->b_at_least_a || out->b_at_most_a);
}

/* RNM's epsilon exactly: c D / b = c D P / W (c = 1 if monotonic, else
 * 2), the decimal requested, rounded down and up. */
static void enclose_rnm_epsilon(audit *a)
{
    mpz_t numerator;
    mpz_init(numerator);
    mpz_set_ui(numerator, (unsigned long)a->params->sensitivity);
    mpz_mul_ui(numerator, numerator, (unsigned long)a->rnm_p << (a->params->monotonic ? 0 : 1));
    mpfr_set_z(a->eps_lo, numerator, MPFR_RNDD);
    mpfr_set_z(a->eps_hi, numerator, MPFR_RNDU);
    mpfr_div_ui(a->eps_lo, a->eps_lo, (unsigned long)a->rnm_w, MPFR_RNDD);
    mpfr_div_ui(a->eps_hi, a->eps_hi, (unsigned long)a->rnm_w, MPFR_RNDU);
    mpz_clear(numerator);
}

/* eps_lo <= k D (y ln 2 - ln x) <= eps_hi. */
static void enclose_epsilon(audit *a)
{
    const dpsel_params *p = a->params;
    mpfr_t ln2y, lnx, factor;
    mpfr_inits2(EPSILON_PRECISION, ln2y, lnx, factor, (mpfr_ptr)0);
    mpfr_set_uj(factor, p->sensitivity, MPFR_RNDN);              /* exact */
    mpfr_mul_2ui(factor, factor, p->monotonic ? 0 : 1, MPFR_RNDN); /* exact */
    mpfr_rnd_t rnd[2] = { MPFR_RNDD, MPFR_RNDU };
    mpfr_ptr eps[2] = { a->eps_lo, a->eps_hi };
    for (int side = 0; side < 2; side++) {
        mpfr_const_log2(ln2y, rnd[side]);
        mpfr_mul_ui(ln2y, ln2y, p->y, rnd[side]);
        mpfr_set_uj(lnx, p->x, MPFR_RNDN);
        mpfr_log(lnx, lnx, rnd[1 - side]);   /* subtracted: the other way */
        mpfr_sub(eps[side], ln2y, lnx, rnd[side]);
        mpfr_mul(eps[side], eps[side], factor, rnd[side]);
    }
    mpfr_clears(ln2y, lnx, factor, (mpfr_ptr)0);
}

/* Step 3: P_f(r) x^m <= P_t(r) 2^(y m), in integers.  Open when the exact
 * values are beyond the size limits; an error computing them (out of
 * memory) goes to *failure, for the audit to report rather than to call
 * the comparison open. */
static int exact_comparison(const audit *a, size_t r, int f, int *failure)
{
    /* x^m has at most 64 m bits */
    if (a->m > EXACT_POWER_BITS_MAX / 64) {
        return PAIR_OPEN;
    }
    for (int s = 0; s < 2; s++) {
        int rc = dpsel_exact_pmf_exact_ready(a->pmf[s]);
        if (rc != DPSEL_OK) {
            *failure = rc == DPSEL_ETOOLARGE ? *failure : rc;
            return PAIR_OPEN;
        }
    }
    mpq_srcptr pf = dpsel_exact_pmf_probability_exact(a->pmf[f], r);
    mpq_srcptr pt = dpsel_exact_pmf_probability_exact(a->pmf[1 - f], r);
    mpz_t left, right;
    mpz_inits(left, right, (mpz_ptr)0);
    mpz_ui_pow_ui(left, (unsigned long)a->params->x, (unsigned long)a->m);
    mpz_mul(left, left, mpq_numref(pf));
    mpz_mul(left, left, mpq_denref(pt));
    mpz_mul_2exp(right, mpq_numref(pt), (mp_bitcnt_t)(a->params->y * a->m));
    mpz_mul(right, right, mpq_denref(pf));
    int holds = mpz_cmp(left, right) <= 0;
    mpz_clears(left, right, (mpz_ptr)0);
    return holds ? PAIR_HOLDS : PAIR_BROKEN;
}

/* Whether, after removing one gap skip_f from f[0..n-1] and one gap skip_t
 * from t[0..n-1] (both sorted, each holding its skip), every remaining gap
 * of f is at most the gap of the same rank in t. */
static int gaps_dominated(const uint64_t *f, uint64_t skip_f, const uint64_t *t,
                          uint64_t skip_t, size_t n)
{
    size_t i = 0;
    size_t j = 0;
    int skipped_f = 0;
    int skipped_t = 0;
    while (i < n && j < n) {
        if (!skipped_f && f[i] == skip_f) {
            skipped_f = 1;
            i++;
        } else if (!skipped_t && t[j] == skip_t) {
            skipped_t = 1;
            j++;
        } else if (f[i] > t[j]) {
            return 0;
        } else {
            i++;
            j++;
        }
    }
    return 1;
}

/* Step 2.  If every other candidate weighs at least as much under f as
 * under t (rank by rank), then P_f(r) / P_t(r) <= max(1, w_f / w_t),
 * w = beta^g the weights of r: under PF the integral of prod_{j != r}
 * (1 - w_j t) cannot grow when the w_j grow; under EM, P = w / (w + T) with
 * T_f >= T_t (spec §9).  max(1, beta^(g_f - g_t)) <= beta^-m iff
 * g_t - g_f <= m. */
static int dominated(const audit *a, size_t r, int f)
{
    int t = 1 - f;
    uint64_t gf = a->gap[f][r];
    uint64_t gt = a->gap[t][r];
    return (gt <= gf || gt - gf <= a->m)
           && gaps_dominated(a->sorted[f], gf, a->sorted[t], gt, a->n)
           ? PAIR_HOLDS : PAIR_OPEN;
}

/* lo <= ln(P_f(r) / P_t(r)) <= hi from the enclosures. */
static void enclose_log_ratio(const audit *a, size_t r, int f, mpfr_t lo, mpfr_t hi)
{
    mpfr_t f_lo, f_hi, t_lo, t_hi;
    mpfr_inits2(MPFR_PREC_MIN, f_lo, f_hi, t_lo, t_hi, (mpfr_ptr)0);
    dpsel_exact_pmf_probability_mpfr(a->pmf[f], r, f_lo, f_hi);
    dpsel_exact_pmf_probability_mpfr(a->pmf[1 - f], r, t_lo, t_hi);
    /* the probabilities are positive (every weight is), so are the bounds */
    mpfr_div(hi, f_hi, t_lo, MPFR_RNDU);
    mpfr_log(hi, hi, MPFR_RNDU);
    mpfr_div(lo, f_lo, t_hi, MPFR_RNDD);
    mpfr_log(lo, lo, MPFR_RNDD);
    mpfr_clears(f_lo, f_hi, t_lo, t_hi, (mpfr_ptr)0);
}

/* Decides the comparison of output r in direction f and folds its loss
 * bounds into the maximum. */
static void audit_pair(const audit *a, size_t r, int f, loss_max *max, mpfr_t lo, mpfr_t hi)
{
    enclose_log_ratio(a, r, f, lo, hi);
    int outcome = mpfr_lessequal_p(hi, a->eps_lo) ? PAIR_HOLDS
                : mpfr_greater_p(lo, a->eps_hi) ? PAIR_BROKEN : PAIR_OPEN;
    if (outcome == PAIR_OPEN && a->rnm_epsilon == NULL) {   /* EM's and PF's weights */
        outcome = dominated(a, r, f);
        if (outcome == PAIR_OPEN) {
            outcome = exact_comparison(a, r, f, &max->failure);
        }
        max->decided_exactly += outcome != PAIR_OPEN;
        /* the exact decision sharpens the bounds: loss <= eps or loss > eps */
        if (outcome == PAIR_HOLDS) {
            mpfr_min(hi, hi, a->eps_hi, MPFR_RNDU);
        } else if (outcome == PAIR_BROKEN) {
            mpfr_max(lo, lo, a->eps_lo, MPFR_RNDD);
        }
    }
    max->any_broken |= outcome == PAIR_BROKEN;
    max->any_open |= outcome == PAIR_OPEN;
    if (mpfr_greater_p(lo, max->lo)) {
        mpfr_set(max->lo, lo, MPFR_RNDD);
        max->output = r;
        max->a_over_b = f == 0;
    }
    mpfr_max(max->hi, max->hi, hi, MPFR_RNDU);
}

/* Every comparison, one unit each on progress; the loss bounds as text
 * into out. */
static int audit_all(const audit *a, dpsel_audit_result *out, dpsel_progress *progress)
{
    loss_max max = { .output = 0, .a_over_b = 1 };
    mpfr_t lo, hi;
    mpfr_prec_t prec = 2 * EPSILON_PRECISION;
    mpfr_inits2(prec, max.lo, max.hi, lo, hi, (mpfr_ptr)0);
    /* the loss is >= 0: both pmfs sum to 1, so some P_a(r) >= P_b(r) */
    mpfr_set_ui(max.lo, 0, MPFR_RNDD);
    mpfr_set_ui(max.hi, 0, MPFR_RNDU);
    int rc = DPSEL_OK;
    dpsel_progress_expect(progress, 2 * (uint64_t)a->n);
    for (size_t r = 0; r < a->n && rc == DPSEL_OK; r++) {
        for (int f = 0; f < 2; f++) {
            audit_pair(a, r, f, &max, lo, hi);
        }
        rc = dpsel_progress_add(progress, 2);
    }
    char *lo_text = NULL;
    char *hi_text = NULL;
    rc = rc != DPSEL_OK ? rc : max.failure != DPSEL_OK ? max.failure
           : dpsel_exact_mpfr_to_string(max.lo, LOSS_DIGITS, MPFR_RNDD, &lo_text);
    if (rc == DPSEL_OK) {
        rc = dpsel_exact_mpfr_to_string(max.hi, LOSS_DIGITS, MPFR_RNDU, &hi_text);
    }
    if (rc == DPSEL_OK) {
        out->verdict = max.any_broken ? DPSEL_AUDIT_BROKEN
                     : max.any_open ? DPSEL_AUDIT_UNDECIDED : DPSEL_AUDIT_HOLDS;
        out->output = max.output;
        out->a_over_b = max.a_over_b;
        out->decided_exactly = max.decided_exactly;
        strcpy(out->loss_lower, lo_text);   /* LOSS_DIGITS + 16 bytes at most */
        strcpy(out->loss_upper, hi_text);
    }
    dpsel_string_free(lo_text);
    dpsel_string_free(hi_text);
    mpfr_clears(max.lo, max.hi, lo, hi, (mpfr_ptr)0);
    return rc;
}

/* The two pmfs take 7/16 of the progress scale each, the comparisons
 * (linear in n) the last eighth. */
static int audit_run(audit *a, dpsel_mechanism mechanism, const int64_t *const scores[2],
                     dpsel_audit_result *out, dpsel_progress *progress)
{
    const uint64_t share = DPSEL_PROGRESS_SCALE / 16;
    for (int s = 0; s < 2; s++) {
        a->gap[s] = calloc(a->n, sizeof *a->gap[s]);
        a->sorted[s] = calloc(a->n, sizeof *a->sorted[s]);
        if (a->gap[s] == NULL || a->sorted[s] == NULL) {
            return DPSEL_ENOMEM;
        }
        clamped_gaps(scores[s], a->n, a->params->gap_cap, a->gap[s], a->sorted[s]);
        dpsel_progress_window(progress, (uint64_t)s * 7 * share, (uint64_t)(s + 1) * 7 * share);
        int rc = a->rnm_epsilon != NULL
                 ? dpsel_exact_rnm_pmf_new_metered(&a->pmf[s], a->rnm_epsilon,
                                                   a->params->sensitivity, a->params->monotonic,
                                                   scores[s], NULL, a->n, progress)
                 : dpsel_exact_pmf_new_metered(&a->pmf[s], a->params, mechanism, scores[s], NULL,
                                               a->n, progress);
        if (rc != DPSEL_OK) {
            return rc;
        }
    }
    dpsel_progress_window(progress, 0, DPSEL_PROGRESS_SCALE);
    dpsel_progress_phase(progress, 14 * share, DPSEL_PROGRESS_SCALE);
    (a->rnm_epsilon != NULL ? enclose_rnm_epsilon : enclose_epsilon)(a);
    neighbour_check(scores[0], scores[1], a->n, a->params, out);
    int rc = audit_all(a, out, progress);
    return rc == DPSEL_OK ? dpsel_progress_finish(progress) : rc;
}

int dpsel_audit(dpsel_audit_result *out, const dpsel_params *params,
                dpsel_mechanism mechanism, const int64_t *scores_a,
                const int64_t *scores_b, size_t n)
{
    return dpsel_audit_progress(out, params, mechanism, scores_a, scores_b, n, NULL, NULL);
}

/* The audit of checked arguments: a's params, n and, for RNM, its epsilon
 * and scale are set. */
static int audit_checked(audit *base, dpsel_audit_result *out, dpsel_mechanism mechanism,
                         const int64_t *scores_a, const int64_t *scores_b,
                         dpsel_progress_fn progress, void *context)
{
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    const dpsel_params *params = base->params;
    uint64_t k = params->monotonic ? 1 : 2;
    audit a = *base;
    a.m = params->sensitivity > UINT64_MAX / k ? UINT64_MAX : k * params->sensitivity;
    mpfr_inits2(EPSILON_PRECISION, a.eps_lo, a.eps_hi, (mpfr_ptr)0);
    dpsel_audit_result result;
    const int64_t *const scores[2] = { scores_a, scores_b };
    dpsel_progress meter;
    dpsel_progress_init(&meter, progress, context);
    int rc = audit_run(&a, mechanism, scores, &result, &meter);
    for (int s = 0; s < 2; s++) {
        dpsel_pmf_free(a.pmf[s]);
        free(a.gap[s]);
        free(a.sorted[s]);
    }
    mpfr_clears(a.eps_lo, a.eps_hi, (mpfr_ptr)0);
    dpsel_exact_mpfr_leave(&host);
    if (rc == DPSEL_OK) {
        *out = result;
    }
    return rc;
}

int dpsel_audit_progress(dpsel_audit_result *out, const dpsel_params *params,
                         dpsel_mechanism mechanism, const int64_t *scores_a,
                         const int64_t *scores_b, size_t n, dpsel_progress_fn progress,
                         void *context)
{
    if (out == NULL || params == NULL || scores_a == NULL || scores_b == NULL) {
        return DPSEL_ENULL;
    }
    int checked = dpsel_exact_check_distribution(params, mechanism, n);
    audit a = { .params = params, .n = n };
    return checked != DPSEL_OK ? checked
                               : audit_checked(&a, out, mechanism, scores_a, scores_b, progress,
                                               context);
}

int dpsel_rnm_audit(dpsel_audit_result *out, const char *epsilon, uint64_t sensitivity,
                    int monotonic, const int64_t *scores_a, const int64_t *scores_b, size_t n,
                    dpsel_progress_fn progress, void *context)
{
    if (out == NULL || epsilon == NULL || scores_a == NULL || scores_b == NULL) {
        return DPSEL_ENULL;
    }
    if (n == 0) {
        return DPSEL_EEMPTY;
    }
    const dpsel_params params = { .sensitivity = sensitivity, .monotonic = monotonic,
                                  .gap_cap = UINT64_MAX };
    audit a = { .params = &params, .rnm_epsilon = epsilon, .n = n };
    int rc = n > DPSEL_MAX_CANDIDATES ? DPSEL_ERANGE
           : dpsel_exact_rnm_scale(epsilon, sensitivity, monotonic, &a.rnm_w, &a.rnm_p);
    return rc != DPSEL_OK ? rc
                          : audit_checked(&a, out, DPSEL_RNM, scores_a, scores_b, progress,
                                          context);
}
