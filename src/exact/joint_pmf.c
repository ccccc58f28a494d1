/* SPDX-License-Identifier: ISC */
/*
 * JointExp's exact marginals (spec/quantiles.md §8): for each quantile i
 * and each non-empty run I_k (the grid points with k values below them),
 * the chance that the joint release puts o_i in I_k, and each quantile's
 * expected rank error E |k_i - p_i n|.
 *
 * joint.h's forward tables give, per side, the entries E_i(k) = F_i(k, 1)
 * and Z; F_i(k, j) (quantile i the j-th of run k) is E_(i-j+1)(k) times the
 * run factors beta^T_s (l_k + t - 1) / t of the quantiles s = i - j + 2 ..
 * i, t their places.  The backward weights, the weight of the completions
 * of a prefix ending in state (i, k, j), are
 *   Bk_m(k, j)     = end(k) = beta^|B (n - k) - T_(m+1)|,
 *   Bk_(i-1)(k, j) = beta^T_i (l_k + j) / (j + 1) Bk_i(k, j + 1)
 *                    + sum_(k'' > k) l_k'' Bk_i(k'', 1) beta^|B (k'' - k) - T_i|,
 * and P(k_i = k) = sum_(j <= i) F_i(k, j) Bk_i(k, j) / Z.  Work O(m^2 n)
 * (the sums over k'' in O(n) per quantile: convolve), memory O(m n)
 * numbers.
 *
 * Rigour: as in joint.c, every quantity is made from bounds of powers of
 * beta and the tables by additions and multiplications of non-negative
 * numbers and by multiplications and divisions by positive integers, all
 * non-decreasing in their operands; the pass from the lower tables
 * rounding down (MPFR_RNDD) gives lower bounds, the one from the upper
 * tables rounding up upper bounds.  Nothing is subtracted.  A marginal is
 * [num_lo / Z_hi, num_hi / Z_lo].  The precision starts at 128 bits plus
 * twice the bit length of m (n + 1) and doubles until every value is
 * within 2^-100 relative and every decimal is decided, up to
 * DPSEL_JOINT_PREC_MAX.
 */
#include <stdlib.h>
#include <string.h>

#include "../base/interrupt.h"
#include "../base/progress_meter.h"
#include "../core/gap.h"
#include "exact.h"
#include "joint.h"
#include "joint_pmf.h"
#include "mpfr_env.h"

#define START_PRECISION 128
#define WIDTH_BITS 100

struct dpsel_joint_pmf {
    size_t m;              /* quantiles */
    size_t runs;           /* non-empty runs */
    size_t *rank;          /* runs: k, the values below the run */
    int64_t *first;        /* runs: the run's first grid point */
    uint64_t *points;      /* runs: its length l_k */
    mpfr_t *lo, *hi;       /* m x runs: bounds of P(k_i = rank[r]) */
    mpfr_t *error_lo, *error_hi; /* m: bounds of E |k_i - p_i n| */
};

/* One directed backward pass: every number a lower (MPFR_RNDD, from the
 * lower tables) or an upper bound (MPFR_RNDU, from the upper ones). */
typedef struct {
    const dpsel_joint_problem *jp;
    const dpsel_joint_numbers *entry;  /* E_i(k), this side's */
    mpfr_rnd_t rnd;
    mpfr_prec_t prec;
    dpsel_progress *progress;
    mpfr_t *back;          /* m x (n + 1): Bk_i(k, j) at row j - 1, the current i */
    mpfr_t *marginal;      /* m x (n + 1): sum_j F_i(k, j) Bk_i(k, j) */
    mpfr_t *sum;           /* n + 1: l_k Bk_i(k, 1) */
    mpfr_t *conv;          /* n + 1: convolve's result */
    mpfr_t *scratch;       /* 3 (n + 1): convolve's suffixes, prefixes, powers */
    mpfr_t t, u;
} joint_pass;

static size_t positions(const dpsel_joint_problem *jp)
{
    return jp->n + 1;
}

static mpfr_t *row(const joint_pass *p, mpfr_t *table, size_t i)
{
    return table + i * positions(p->jp);
}

/* beta^s in the pass's direction (beta = x / 2^y is exact at 64 bits). */
static void beta_power(joint_pass *p, mpfr_t out, dpsel_joint_wide s)
{
    mpfr_set_ui_2exp(p->u, (unsigned long)p->jp->x, -(mpfr_exp_t)p->jp->y, p->rnd);
    dpsel_exact_joint_power(out, p->u, s, p->rnd);
}

static dpsel_joint_wide distance(dpsel_joint_wide a, dpsel_joint_wide b)
{
    return a > b ? a - b : b - a;
}

/* v'[q] = v[q - w] (mirrored in reverse), zero outside the data. */
static mpfr_srcptr shifted(const joint_pass *p, mpfr_t *v, size_t q, size_t w, int reverse)
{
    size_t count = positions(p->jp);
    if (q < w || q - w >= count) {
        return NULL;
    }
    return v[reverse ? count - 1 - (q - w) : q - w];
}

/* convolve's sums for the block of positions [start, start + w): suf[o] =
 * sum_(q = start + o .. start + w - 1) v'[q] beta^(B (q - start - o)), and
 * for the next block pre[o] = sum_(q = start + w .. start + w + o) v'[q]
 * beta^(B (q - start - w)). */
static void block_sums(joint_pass *p, mpfr_t *v, size_t start, size_t w,
                       const mpfr_t ratio, mpfr_t *power, int reverse)
{
    size_t count = positions(p->jp);
    mpfr_t *suf = p->scratch, *pre = p->scratch + count;
    for (size_t o = w; o-- > 0;) {
        mpfr_srcptr value = shifted(p, v, start + o, w, reverse);
        if (value == NULL) {
            mpfr_set_ui(suf[o], 0, p->rnd);
        } else {
            mpfr_set(suf[o], value, p->rnd);
        }
        if (o + 1 < w) {
            mpfr_mul(p->t, suf[o + 1], ratio, p->rnd);
            mpfr_add(suf[o], suf[o], p->t, p->rnd);
        }
    }
    for (size_t o = 0; o < w; o++) {
        mpfr_srcptr value = shifted(p, v, start + w + o, w, reverse);
        if (value == NULL) {
            mpfr_set_ui(p->t, 0, p->rnd);
        } else {
            mpfr_mul(p->t, value, power[o], p->rnd);
        }
        if (o == 0) {
            mpfr_set(pre[0], p->t, p->rnd);
        } else {
            mpfr_add(pre[o], pre[o - 1], p->t, p->rnd);
        }
    }
}

/*
 * out[k] = sum_(k' < k) v[k'] beta^|B (k - k') - T| for k = 0 .. n (in
 * reverse: out[k] = sum_(k'' > k) v[k''] beta^|B (k'' - k) - T|, the same
 * on the mirrored positions).  With w = floor(T / B):
 *   far(k)  = sum_(k' <= k - w - 1) v[k'] beta^(B (k - k') - T)
 *           = beta^B far(k - 1) + v[k - w - 1] beta^(B (w + 1) - T);
 *   near(k) = sum_(k - w <= k' < k) v[k'] beta^(T - B (k - k'))
 *           = beta^(T - B w) sum_(p = k .. k + w - 1) v'[p] beta^(B (p - k)),
 *     v'[p] = v[p - w]; the window [k, k + w - 1] meets at most two blocks
 *     [c w, c w + w - 1]: the suffix of one (suf[p] = v'[p] + beta^B
 *     suf[p + 1] inside a block) and a prefix of the next (pre[p] =
 *     pre[p - 1] + v'[p] beta^(B (p - s)), s its start), joined by
 *     beta^(B (s - k)).  Every step adds or multiplies non-negative numbers.
 */
static int convolve(joint_pass *p, mpfr_t *v, dpsel_joint_wide target, int reverse)
{
    const dpsel_joint_problem *jp = p->jp;
    size_t count = positions(jp);
    size_t w = (size_t)(target / jp->denominator);  /* T <= B n, so w <= n < count */
    mpfr_t *suf = p->scratch, *pre = p->scratch + count, *power = p->scratch + 2 * count;
    mpfr_t ratio, far_step, near_factor, far;
    mpfr_inits2(p->prec, ratio, far_step, near_factor, far, (mpfr_ptr)0);
    beta_power(p, ratio, jp->denominator);
    beta_power(p, far_step, (dpsel_joint_wide)jp->denominator * (w + 1) - target);
    beta_power(p, near_factor, target - (dpsel_joint_wide)jp->denominator * w);
    mpfr_set_ui(far, 0, p->rnd);
    if (w > 0) {
        mpfr_set_ui(power[0], 1, p->rnd);
    }
    for (size_t t = 1; t < w; t++) {
        mpfr_mul(power[t], power[t - 1], ratio, p->rnd);
    }
#define AT(k) (reverse ? count - 1 - (k) : (k))
    int rc = DPSEL_OK;
    for (size_t k = 0; k < count && rc == DPSEL_OK; k++) {
        mpfr_mul(far, far, ratio, p->rnd);
        if (k > w) {
            mpfr_mul(p->t, v[AT(k - w - 1)], far_step, p->rnd);
            mpfr_add(far, far, p->t, p->rnd);
        }
        mpfr_set(p->conv[AT(k)], far, p->rnd);
        if (w > 0) {
            size_t offset = k % w;
            if (offset == 0) {
                block_sums(p, v, k, w, ratio, power, reverse);
            }
            /* the block's suffix from k, then the next block's prefix up to
             * k + w - 1, joined by beta^(B (w - offset)) */
            mpfr_set(p->t, suf[offset], p->rnd);
            if (offset > 0) {
                mpfr_mul(p->u, pre[offset - 1], power[w - offset], p->rnd);
                mpfr_add(p->t, p->t, p->u, p->rnd);
            }
            mpfr_mul(p->t, p->t, near_factor, p->rnd);
            mpfr_add(p->conv[AT(k)], p->conv[AT(k)], p->t, p->rnd);
        }
        rc = dpsel_progress_add(p->progress, 1);
    }
#undef AT
    mpfr_clears(ratio, far_step, near_factor, far, (mpfr_ptr)0);
    return rc;
}

/* factor *= beta^T_s (l + j - 1) / j: a quantile s, the j-th of its run of
 * l points (stay_s = beta^T_s). */
static void join_run(joint_pass *p, mpfr_t factor, const mpfr_t stay_s, uint64_t length,
                     size_t j)
{
    mpfr_mul(factor, factor, stay_s, p->rnd);
    mpfr_mul_ui(factor, factor, (unsigned long)(length + j - 1), p->rnd);
    mpfr_div_ui(factor, factor, (unsigned long)j, p->rnd);
}

/* marginal row i - 1: sum_j F_i(k, j) Bk_i(k, j). */
static int marginal(joint_pass *p, size_t i)
{
    const dpsel_joint_problem *jp = p->jp;
    mpfr_t factor, stay_s;
    mpfr_inits2(p->prec, factor, stay_s, (mpfr_ptr)0);
    int rc = DPSEL_OK;
    for (size_t k = 0; k < positions(jp) && rc == DPSEL_OK; k++) {
        mpfr_ptr out = row(p, p->marginal, i - 1)[k];
        mpfr_set_ui(out, 0, p->rnd);
        mpfr_set_ui(factor, 1, p->rnd);
        for (size_t j = 1; j <= i && jp->length[k] > 0; j++) {
            if (j >= 2) {
                beta_power(p, stay_s, jp->target[i - j + 1]);
                join_run(p, factor, stay_s, jp->length[k], j);
            }
            mpfr_mul(p->t, dpsel_exact_joint_at(p->entry, jp, i - j, k), factor, p->rnd);
            mpfr_mul(p->t, p->t, row(p, p->back, j - 1)[k], p->rnd);
            mpfr_add(out, out, p->t, p->rnd);
        }
        rc = dpsel_progress_add(p->progress, i);
    }
    mpfr_clears(factor, stay_s, (mpfr_ptr)0);
    return rc;
}

/* Bk_(i-1) from Bk_i (back, in place). */
static int step_back(joint_pass *p, size_t i)
{
    const dpsel_joint_problem *jp = p->jp;
    size_t count = positions(jp);
    for (size_t k = 0; k < count; k++) {
        mpfr_mul_ui(p->sum[k], p->back[k], (unsigned long)jp->length[k], p->rnd);
    }
    int rc = convolve(p, p->sum, jp->target[i - 1], 1);
    mpfr_t stay_i;
    mpfr_init2(stay_i, p->prec);
    beta_power(p, stay_i, jp->target[i - 1]);
    for (size_t k = 0; k < count && rc == DPSEL_OK; k++) {
        for (size_t j = 1; j < i; j++) {
            mpfr_ptr out = row(p, p->back, j - 1)[k];
            mpfr_set(out, row(p, p->back, j)[k], p->rnd);
            join_run(p, out, stay_i, jp->length[k], j + 1);
            mpfr_add(out, out, p->conv[k], p->rnd);
        }
        rc = dpsel_progress_add(p->progress, i);
    }
    mpfr_clear(stay_i);
    return rc;
}

/* Backward from Bk_m = end, each quantile's marginal on the way. */
static int backward(joint_pass *p)
{
    const dpsel_joint_problem *jp = p->jp;
    for (size_t k = 0; k < positions(jp); k++) {
        beta_power(p, p->back[k], distance((dpsel_joint_wide)jp->denominator * (jp->n - k),
                                           jp->target[jp->m]));
        for (size_t j = 1; j < jp->m; j++) {
            mpfr_set(row(p, p->back, j)[k], p->back[k], p->rnd);
        }
    }
    int rc = marginal(p, jp->m);
    for (size_t i = jp->m; i >= 2 && rc == DPSEL_OK; i--) {
        rc = step_back(p, i);
        rc = rc == DPSEL_OK ? marginal(p, i - 1) : rc;
    }
    return rc;
}

static void pass_free(joint_pass *p)
{
    size_t count = positions(p->jp), m = p->jp->m;
    dpsel_exact_numbers_free(p->back, m * count);
    dpsel_exact_numbers_free(p->marginal, m * count);
    dpsel_exact_numbers_free(p->sum, count);
    dpsel_exact_numbers_free(p->conv, count);
    dpsel_exact_numbers_free(p->scratch, 3 * count);
    mpfr_clears(p->t, p->u, (mpfr_ptr)0);
}

/* One side's pass: the marginals' numerators. */
static int pass_run(joint_pass *p, const dpsel_joint_problem *jp,
                    const dpsel_joint_numbers *entry, mpfr_rnd_t rnd, mpfr_prec_t prec,
                    dpsel_progress *progress)
{
    size_t count = positions(jp), m = jp->m;
    *p = (joint_pass){ .jp = jp, .entry = entry, .rnd = rnd, .prec = prec,
                       .progress = progress };
    mpfr_inits2(prec, p->t, p->u, (mpfr_ptr)0);
    p->back = dpsel_exact_numbers_new(m * count, prec);
    p->marginal = dpsel_exact_numbers_new(m * count, prec);
    p->sum = dpsel_exact_numbers_new(count, prec);
    p->conv = dpsel_exact_numbers_new(count, prec);
    p->scratch = dpsel_exact_numbers_new(3 * count, prec);
    if (p->back == NULL || p->marginal == NULL || p->sum == NULL || p->conv == NULL
        || p->scratch == NULL) {
        return DPSEL_ENOMEM;
    }
    return backward(p);
}

/* The correctly rounded 17-digit decimal of the number in [lo, hi], as a
 * new string, when both ends round to it (rounding is monotonic, so the
 * number does too); else DPSEL_ETOOLARGE.  By MPFR's decimal conversion,
 * whatever the exponent: a marginal may be as small as beta^(B n), far
 * past what a rational's digits could be written from. */
static int enclosure_decimal(const mpfr_t lo, const mpfr_t hi, char **out)
{
    char *lo_text = NULL, *hi_text = NULL;
    int rc = dpsel_exact_mpfr_to_string(lo, 17, MPFR_RNDN, &lo_text);
    rc = rc == DPSEL_OK ? dpsel_exact_mpfr_to_string(hi, 17, MPFR_RNDN, &hi_text) : rc;
    if (rc == DPSEL_OK && strcmp(lo_text, hi_text) != 0) {
        rc = DPSEL_ETOOLARGE;
    }
    dpsel_string_free(hi_text);
    if (rc != DPSEL_OK) {
        dpsel_string_free(lo_text);
        return rc;
    }
    *out = lo_text;
    return DPSEL_OK;
}

/* hi - lo <= 2^-WIDTH_BITS lo, and the decimal decided. */
static int narrow(const mpfr_t lo, const mpfr_t hi)
{
    mpfr_t width;
    mpfr_init2(width, mpfr_get_prec(hi));
    mpfr_sub(width, hi, lo, MPFR_RNDU);
    mpfr_mul_2si(width, width, WIDTH_BITS, MPFR_RNDU);
    int ok = mpfr_cmp(width, lo) <= 0;
    mpfr_clear(width);
    char *text = NULL;
    ok = ok && enclosure_decimal(lo, hi, &text) == DPSEL_OK;
    dpsel_string_free(text);
    return ok;
}

/* Quantile i's expected rank error from its marginals' bounds: sum_r P_r
 * |B k_r - B p_i n| / B, rounded outward. */
static int store_rank_error(dpsel_joint_pmf *pmf, const dpsel_joint_problem *jp, size_t i,
                            mpfr_prec_t prec)
{
    mpfr_ptr lo = pmf->error_lo[i], hi = pmf->error_hi[i];
    mpfr_set_prec(lo, prec);
    mpfr_set_prec(hi, prec);
    mpfr_set_ui(lo, 0, MPFR_RNDD);
    mpfr_set_ui(hi, 0, MPFR_RNDU);
    dpsel_joint_wide quantile = 0;  /* B p_i n = T_1 + ... + T_i */
    for (size_t s = 0; s <= i; s++) {
        quantile += jp->target[s];
    }
    mpfr_t term;
    mpfr_init2(term, prec);
    for (size_t r = 0; r < pmf->runs; r++) {
        dpsel_joint_wide off = distance((dpsel_joint_wide)jp->denominator * pmf->rank[r],
                                        quantile);
        dpsel_exact_joint_mul_wide(term, pmf->lo[i * pmf->runs + r], off, MPFR_RNDD);
        mpfr_add(lo, lo, term, MPFR_RNDD);
        dpsel_exact_joint_mul_wide(term, pmf->hi[i * pmf->runs + r], off, MPFR_RNDU);
        mpfr_add(hi, hi, term, MPFR_RNDU);
    }
    mpfr_clear(term);
    mpfr_div_ui(lo, lo, (unsigned long)jp->denominator, MPFR_RNDD);
    mpfr_div_ui(hi, hi, (unsigned long)jp->denominator, MPFR_RNDU);
    return mpfr_zero_p(hi) || narrow(lo, hi);
}

/* The pmf's bounds from the passes' numerators and Z's bounds; 1 when
 * every value is narrow and decided. */
static int store_bounds(dpsel_joint_pmf *pmf, const dpsel_joint_problem *jp,
                        const dpsel_joint_tables *t, joint_pass *down, joint_pass *up)
{
    int all_narrow = 1;
    for (size_t i = 0; i < pmf->m; i++) {
        for (size_t r = 0; r < pmf->runs; r++) {
            size_t k = pmf->rank[r], at = i * pmf->runs + r;
            mpfr_set_prec(pmf->lo[at], t->prec);
            mpfr_set_prec(pmf->hi[at], t->prec);
            mpfr_div(pmf->lo[at], row(down, down->marginal, i)[k], t->z_hi, MPFR_RNDD);
            mpfr_div(pmf->hi[at], row(up, up->marginal, i)[k], t->z_lo, MPFR_RNDU);
            all_narrow = all_narrow && narrow(pmf->lo[at], pmf->hi[at]);
        }
        all_narrow = store_rank_error(pmf, jp, i, t->prec) && all_narrow;
    }
    return all_narrow;
}

/* The forward tables' interrupt check: counts DPSEL_INTERRUPT_EVERY units
 * of work on the meter per call, and stops when it was cancelled. */
static int forward_check(void *context, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    return dpsel_progress_add(context, DPSEL_INTERRUPT_EVERY) != DPSEL_OK;
}

static int no_bits(void *context, unsigned *bit)
{
    (void)context;
    (void)bit;
    return 1;
}

/* One precision: the forward tables, both backward passes, the bounds. */
static int compute_at(dpsel_joint_pmf *pmf, const dpsel_joint_problem *jp, mpfr_prec_t prec,
                      dpsel_progress *progress, int *done)
{
    dpsel_rng check;  /* never drawn from: carries the meter to joint.c's loops */
    int rc = dpsel_rng_init_custom(&check, no_bits, NULL);
    rc = rc == DPSEL_OK ? dpsel_rng_set_interrupt(&check, forward_check, progress) : rc;
    dpsel_joint_tables t;
    memset(&t, 0, sizeof t);
    rc = rc == DPSEL_OK ? dpsel_exact_joint_forward(&t, jp, prec, &check, NULL) : rc;
    joint_pass down, up;
    int passes = 0;
    mpfr_clear_flags();  /* the host's are saved (mpfr_env.h) */
    if (rc == DPSEL_OK) {
        passes = 1;
        rc = pass_run(&down, jp, &t.entry_lo, MPFR_RNDD, prec, progress);
    }
    if (rc == DPSEL_OK) {
        passes = 2;
        rc = pass_run(&up, jp, &t.entry_hi, MPFR_RNDU, prec, progress);
    }
    /* directed rounding keeps a bound through an underflow or overflow (0 or
     * the least number, the largest or inf: B log2(1/beta) <= 16 and
     * n <= 2^56 keep them out of reach anyway); only a NaN would be no bound */
    if (rc == DPSEL_OK && mpfr_nanflag_p()) {
        rc = DPSEL_EINTERNAL;
    }
    if (rc == DPSEL_OK) {
        *done = store_bounds(pmf, jp, &t, &down, &up);
    }
    if (passes == 2) {
        pass_free(&up);
    }
    if (passes >= 1) {
        pass_free(&down);
    }
    dpsel_exact_joint_tables_free(&t);
    dpsel_rng_wipe(&check);
    return rc;
}

/* The passes at rising precision until every value is narrow and decided
 * (or DPSEL_JOINT_PREC_MAX: an undecided decimal is then refused on
 * request). */
static int compute(dpsel_joint_pmf *pmf, const dpsel_joint_problem *jp, dpsel_progress *progress)
{
    mpfr_prec_t prec = START_PRECISION
                     + 2 * (mpfr_prec_t)dpsel_core_bitlen((uint64_t)positions(jp) * jp->m);
    /* the forward tables' ranks and rows, and the passes' */
    uint64_t work = 4 * (uint64_t)positions(jp) * jp->m * (jp->m + 2);
    int rc = DPSEL_OK;
    int done = 0;
    for (; !done && rc == DPSEL_OK && prec <= DPSEL_JOINT_PREC_MAX; prec *= 2) {
        dpsel_progress_phase(progress, 0, DPSEL_PROGRESS_SCALE);
        dpsel_progress_expect(progress, work);
        rc = compute_at(pmf, jp, prec, progress, &done);
    }
    return rc;
}

/* The non-empty runs, and room for their bounds. */
static int take_runs(dpsel_joint_pmf *pmf, const dpsel_joint_problem *jp)
{
    size_t count = positions(jp);
    pmf->rank = malloc(count * sizeof *pmf->rank);
    pmf->first = malloc(count * sizeof *pmf->first);
    pmf->points = malloc(count * sizeof *pmf->points);
    if (pmf->rank == NULL || pmf->first == NULL || pmf->points == NULL) {
        return DPSEL_ENOMEM;
    }
    for (size_t k = 0; k < count; k++) {
        if (jp->length[k] > 0) {
            pmf->rank[pmf->runs] = k;
            pmf->first[pmf->runs] = jp->first[k];
            pmf->points[pmf->runs++] = jp->length[k];
        }
    }
    pmf->lo = dpsel_exact_numbers_new(pmf->m * pmf->runs, START_PRECISION);
    pmf->hi = dpsel_exact_numbers_new(pmf->m * pmf->runs, START_PRECISION);
    pmf->error_lo = dpsel_exact_numbers_new(pmf->m, START_PRECISION);
    pmf->error_hi = dpsel_exact_numbers_new(pmf->m, START_PRECISION);
    return pmf->lo == NULL || pmf->hi == NULL || pmf->error_lo == NULL || pmf->error_hi == NULL
         ? DPSEL_ENOMEM : DPSEL_OK;
}

void dpsel_joint_pmf_free(dpsel_joint_pmf *pmf)
{
    if (pmf == NULL) {
        return;
    }
    dpsel_exact_numbers_free(pmf->lo, pmf->lo == NULL ? 0 : pmf->m * pmf->runs);
    dpsel_exact_numbers_free(pmf->hi, pmf->hi == NULL ? 0 : pmf->m * pmf->runs);
    dpsel_exact_numbers_free(pmf->error_lo, pmf->error_lo == NULL ? 0 : pmf->m);
    dpsel_exact_numbers_free(pmf->error_hi, pmf->error_hi == NULL ? 0 : pmf->m);
    free(pmf->rank);
    free(pmf->first);
    free(pmf->points);
    free(pmf);
}

int dpsel_exact_joint_pmf_new(dpsel_joint_pmf **out, const dpsel_joint_problem *jp,
                              dpsel_progress_fn progress, void *context)
{
    dpsel_joint_pmf *pmf = calloc(1, sizeof *pmf);
    if (pmf == NULL) {
        return DPSEL_ENOMEM;
    }
    pmf->m = jp->m;
    int rc = take_runs(pmf, jp);
    if (rc == DPSEL_OK) {
        dpsel_progress meter;
        dpsel_progress_init(&meter, progress, context);
        dpsel_mpfr_env host;
        dpsel_exact_mpfr_enter(&host);
        rc = compute(pmf, jp, &meter);
        dpsel_exact_mpfr_leave(&host);
        rc = rc == DPSEL_OK ? dpsel_progress_finish(&meter) : rc;
    }
    if (rc != DPSEL_OK) {
        dpsel_joint_pmf_free(pmf);
        return rc;
    }
    *out = pmf;
    return DPSEL_OK;
}

size_t dpsel_joint_pmf_quantiles(const dpsel_joint_pmf *pmf)
{
    return pmf == NULL ? 0 : pmf->m;
}

size_t dpsel_joint_pmf_runs(const dpsel_joint_pmf *pmf)
{
    return pmf == NULL ? 0 : pmf->runs;
}

int dpsel_joint_pmf_run(const dpsel_joint_pmf *pmf, size_t r, int64_t *first, uint64_t *points,
                        uint64_t *rank)
{
    if (pmf == NULL) {
        return DPSEL_ENULL;
    }
    if (r >= pmf->runs) {
        return DPSEL_ERANGE;
    }
    if (first != NULL) {
        *first = pmf->first[r];
    }
    if (points != NULL) {
        *points = pmf->points[r];
    }
    if (rank != NULL) {
        *rank = pmf->rank[r];
    }
    return DPSEL_OK;
}

/* Quantile i's value v: run v's probability (v < runs) or the expected
 * rank error (v == runs); NULL bounds when out of range. */
static void value_bounds(const dpsel_joint_pmf *pmf, size_t i, size_t v, mpfr_srcptr *lo,
                         mpfr_srcptr *hi)
{
    *lo = *hi = NULL;
    if (i < pmf->m && v < pmf->runs) {
        *lo = pmf->lo[i * pmf->runs + v];
        *hi = pmf->hi[i * pmf->runs + v];
    } else if (i < pmf->m && v == pmf->runs) {
        *lo = pmf->error_lo[i];
        *hi = pmf->error_hi[i];
    }
}

void dpsel_exact_joint_pmf_bounds(const dpsel_joint_pmf *pmf, size_t i, size_t v, mpfr_t lo,
                                  mpfr_t hi)
{
    mpfr_srcptr l, h;
    value_bounds(pmf, i, v, &l, &h);
    mpfr_set_prec(lo, mpfr_get_prec(l));
    mpfr_set_prec(hi, mpfr_get_prec(h));
    mpfr_set(lo, l, MPFR_RNDD);
    mpfr_set(hi, h, MPFR_RNDU);
}

static int value_text(const dpsel_joint_pmf *pmf, size_t i, size_t v, char **out)
{
    if (pmf == NULL || out == NULL) {
        return DPSEL_ENULL;
    }
    mpfr_srcptr lo, hi;
    value_bounds(pmf, i, v, &lo, &hi);
    if (lo == NULL) {
        return DPSEL_ERANGE;
    }
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    int rc = enclosure_decimal(lo, hi, out);
    dpsel_exact_mpfr_leave(&host);
    return rc;
}

static int value_bounds_text(const dpsel_joint_pmf *pmf, size_t i, size_t v, unsigned digits,
                             char **lo_out, char **hi_out)
{
    if (pmf == NULL || lo_out == NULL || hi_out == NULL) {
        return DPSEL_ENULL;
    }
    mpfr_srcptr lo, hi;
    value_bounds(pmf, i, v, &lo, &hi);
    if (lo == NULL || digits < 1 || digits > 100) {
        return DPSEL_ERANGE;
    }
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    int rc = dpsel_exact_bounds_to_strings(lo, hi, digits, lo_out, hi_out);
    dpsel_exact_mpfr_leave(&host);
    return rc;
}

/* A run index past the runs names no value (runs is the rank error's). */
static size_t run_value(const dpsel_joint_pmf *pmf, size_t r)
{
    return pmf != NULL && r >= pmf->runs ? SIZE_MAX : r;
}

int dpsel_joint_pmf_probability(const dpsel_joint_pmf *pmf, size_t i, size_t r, char **out)
{
    return value_text(pmf, i, run_value(pmf, r), out);
}

int dpsel_joint_pmf_probability_bounds(const dpsel_joint_pmf *pmf, size_t i, size_t r,
                                       unsigned digits, char **lo, char **hi)
{
    return value_bounds_text(pmf, i, run_value(pmf, r), digits, lo, hi);
}

int dpsel_joint_pmf_rank_error(const dpsel_joint_pmf *pmf, size_t i, char **out)
{
    return value_text(pmf, i, pmf == NULL ? 0 : pmf->runs, out);
}

int dpsel_joint_pmf_rank_error_bounds(const dpsel_joint_pmf *pmf, size_t i, unsigned digits,
                                      char **lo, char **hi)
{
    return value_bounds_text(pmf, i, pmf == NULL ? 0 : pmf->runs, digits, lo, hi);
}
