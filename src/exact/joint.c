/* SPDX-License-Identifier: ISC */
/*
 * JointExp's problem and forward tables (joint.h; spec/quantiles.md §8).
 *
 * Every table number is computed twice, by a pass that starts from lower
 * bounds of its inputs and rounds every operation down, and by one that
 * starts from upper bounds and rounds up.  Each operation is an addition
 * or a multiplication of non-negative numbers, or a division of a positive
 * number by a positive one, non-decreasing in each operand that is a bound
 * of the same side (beta^-B = 1 / beta^B takes the other side's power), so
 * by induction over the operations the passes give lower and upper bounds
 * of every exact number.  Nothing is subtracted.  The inputs are exact:
 * beta = x / 2^y at 64 bits, integers, and beta^e by mpfr_pow_ui or
 * mpfr_pow_z (one correctly rounded operation; exponents in 128 bits).
 *
 * The transition into quantile i sums total(i - 1, k') K_i(k - k') over
 * k' < k.  With D* = max(1, ceil(T_i / B)) the kernel is
 * beta^(B (k - k') - T_i) for k - k' >= D* (far) and beta^(T_i - B (k - k'))
 * for k - k' < D* (near).  The far sum is a running sum (times beta^B per
 * rank, plus the rank that enters).  The near sum is a window of D* - 1
 * ranks, kept without subtraction by cutting the ranks into blocks of D*:
 * the window of k is a prefix of k's block (a running sum, times beta^-B
 * per rank) and a suffix of the block before (suffix sums, made once per
 * block, backwards).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../base/interrupt.h"
#include "../core/core.h"
#include "joint.h"
#include "mpfr_env.h"

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b != 0) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* a / b in lowest terms in (0, 1), b within the limit */
static int lowest_terms(uint64_t a, uint64_t b)
{
    return 0 < a && a < b && b <= DPSEL_QUANTILE_DENOMINATOR_MAX && gcd(a, b) == 1;
}

typedef dpsel_joint_wide wide;

/* a[i] / b[i] > a[i - 1] / b[i - 1], in 128 bits */
static int increasing(const uint64_t *a, const uint64_t *b, size_t i)
{
    return (wide)a[i] * b[i - 1] > (wide)a[i - 1] * b[i];
}

/* B, the least common multiple of b[0 .. m - 1], within the limit; the
 * index of the quantile that passes it in *bad. */
static int common_denominator(const uint64_t *a, const uint64_t *b, size_t m, uint64_t *lcm,
                              size_t *bad)
{
    *lcm = 1;
    for (size_t i = 0; i < m; i++) {
        *bad = i;
        if (!lowest_terms(a[i], b[i]) || (i > 0 && !increasing(a, b, i))) {
            return DPSEL_ERANGE;
        }
        uint64_t part = *lcm / gcd(*lcm, b[i]);
        if (part > DPSEL_QUANTILE_DENOMINATOR_MAX / b[i]) {
            return DPSEL_ERANGE;
        }
        *lcm = part * b[i];
    }
    return DPSEL_OK;
}

/* d_i = B (p_i - p_(i-1)) for i = 1 .. m + 1 into step[0 .. m] */
static void steps(const uint64_t *a, const uint64_t *b, size_t m, uint64_t lcm, uint64_t *step)
{
    uint64_t before = 0;
    for (size_t i = 0; i < m; i++) {
        uint64_t at = lcm / b[i] * a[i];  /* B p_i < B */
        step[i] = at - before;
        before = at;
    }
    step[m] = lcm - before;
}

int dpsel_exact_joint_quantiles(const uint64_t *a, const uint64_t *b, size_t m,
                                uint64_t *denominator, uint64_t *sensitivity, size_t *bad)
{
    if (a == NULL || b == NULL || denominator == NULL || sensitivity == NULL || bad == NULL) {
        return DPSEL_ENULL;
    }
    *bad = 0;
    if (m == 0 || m > DPSEL_JOINT_QUANTILES_MAX) {
        return DPSEL_ERANGE;
    }
    uint64_t lcm;
    int rc = common_denominator(a, b, m, &lcm, bad);
    uint64_t *step = rc == DPSEL_OK ? malloc((m + 1) * sizeof *step) : NULL;
    if (rc == DPSEL_OK && step == NULL) {
        return DPSEL_ENOMEM;
    }
    if (rc == DPSEL_OK) {
        steps(a, b, m, lcm, step);
        uint64_t least = step[0];
        for (size_t i = 1; i <= m; i++) {
            least = step[i] < least ? step[i] : least;
        }
        *denominator = lcm;
        *sensitivity = 2 * (lcm - least);  /* lcm <= 10^18 */
    }
    free(step);
    return rc;
}

void dpsel_exact_joint_problem_free(dpsel_joint_problem *p)
{
    free(p->step);
    free(p->target);
    free(p->length);
    free(p->first);
    memset(p, 0, sizeof *p);
}

/* Run k = (x_k, x_(k+1)]: its length and first point. */
static void cut_ranks(dpsel_joint_problem *p, const int64_t *sorted, int64_t lower,
                      int64_t upper)
{
    uint64_t before = (uint64_t)lower - 1;  /* x_0, modulo 2^64 */
    for (size_t k = 0; k <= p->n; k++) {
        uint64_t next = k < p->n ? (uint64_t)(sorted[k] < lower ? lower
                                              : sorted[k] > upper ? upper : sorted[k])
                                 : (uint64_t)upper;
        p->length[k] = next - before;
        p->first[k] = (int64_t)(before + 1);
        before = next;
    }
}

int dpsel_exact_joint_problem_init(dpsel_joint_problem *p, uint64_t x, unsigned y,
                                   const uint64_t *a, const uint64_t *b, size_t m,
                                   const int64_t *sorted, size_t n, int64_t lower,
                                   int64_t upper)
{
    memset(p, 0, sizeof *p);
    uint64_t lcm, sensitivity;
    size_t bad;
    int rc = dpsel_exact_joint_quantiles(a, b, m, &lcm, &sensitivity, &bad);
    if (rc != DPSEL_OK) {
        return rc;
    }
    if (!dpsel_exact_joint_decay_within(x, y, lcm) || lower > upper
        || (uint64_t)upper - (uint64_t)lower >= DPSEL_MAX_CANDIDATES) {
        return DPSEL_ERANGE;
    }
    if ((uint64_t)n > DPSEL_JOINT_VALUES_ALLOCATABLE) {
        return DPSEL_ENOMEM;  /* the tables could never be allocated */
    }
    p->x = x;
    p->y = y;
    p->m = m;
    p->n = n;
    p->denominator = lcm;
    p->step = malloc((m + 1) * sizeof *p->step);
    p->target = malloc((m + 1) * sizeof *p->target);
    p->length = malloc((n + 1) * sizeof *p->length);
    p->first = malloc((n + 1) * sizeof *p->first);
    if (p->step == NULL || p->target == NULL || p->length == NULL || p->first == NULL) {
        return DPSEL_ENOMEM;
    }
    steps(a, b, m, lcm, p->step);
    for (size_t i = 0; i <= m; i++) {
        p->target[i] = (wide)p->step[i] * n;  /* at most B n < 2^117 */
    }
    cut_ranks(p, sorted, lower, upper);
    return DPSEL_OK;
}

/* ------------------------------------------------------------ numbers */

void dpsel_exact_joint_numbers_free(dpsel_joint_numbers *a)
{
    free(a->number);
    free(a->limbs);
    memset(a, 0, sizeof *a);
}

int dpsel_exact_joint_numbers_new(dpsel_joint_numbers *a, size_t count, mpfr_prec_t prec)
{
    size_t size = mpfr_custom_get_size(prec);
    a->count = count;
    a->number = calloc(count > 0 ? count : 1, sizeof *a->number);
    a->limbs = calloc(count > 0 ? count : 1, size);
    if (a->number == NULL || a->limbs == NULL) {
        dpsel_exact_joint_numbers_free(a);
        return DPSEL_ENOMEM;
    }
    for (size_t i = 0; i < count; i++) {
        void *significand = (char *)a->limbs + i * size;
        mpfr_custom_init(significand, prec);
        mpfr_custom_init_set(&a->number[i], MPFR_ZERO_KIND, 0, prec, significand);
    }
    return DPSEL_OK;
}

void dpsel_exact_joint_tables_free(dpsel_joint_tables *t)
{
    dpsel_exact_joint_numbers_free(&t->entry_lo);
    dpsel_exact_joint_numbers_free(&t->entry_hi);
    dpsel_exact_joint_numbers_free(&t->total_lo);
    dpsel_exact_joint_numbers_free(&t->total_hi);
    if (t->prec != 0) {
        mpfr_clears(t->z_lo, t->z_hi, (mpfr_ptr)0);
    }
    t->prec = 0;
}

void dpsel_exact_joint_beta(mpfr_ptr beta, const dpsel_joint_problem *p)
{
    mpfr_set_ui(beta, (unsigned long)p->x, MPFR_RNDN);  /* x < 2^64: exact */
    mpfr_div_2ui(beta, beta, p->y, MPFR_RNDN);          /* exact */
}

void dpsel_exact_joint_power(mpfr_ptr out, mpfr_srcptr beta, wide e, mpfr_rnd_t rnd)
{
    if (e <= ULONG_MAX) {
        mpfr_pow_ui(out, beta, (unsigned long)e, rnd);
        return;
    }
    mpz_t big;
    mpz_init_set_ui(big, (unsigned long)(e >> 64));
    mpz_mul_2exp(big, big, 64);
    mpz_add_ui(big, big, (unsigned long)(uint64_t)e);
    mpfr_pow_z(out, beta, big, rnd);
    mpz_clear(big);
}

void dpsel_exact_joint_mul_wide(mpfr_ptr out, mpfr_srcptr v, wide e, mpfr_rnd_t rnd)
{
    mpfr_t factor;
    mpfr_init2(factor, 128);
    mpfr_set_ui(factor, (unsigned long)(e >> 64), MPFR_RNDN);
    mpfr_mul_2ui(factor, factor, 64, MPFR_RNDN);
    mpfr_add_ui(factor, factor, (unsigned long)(uint64_t)e, MPFR_RNDN);  /* all exact */
    mpfr_mul(out, v, factor, rnd);
    mpfr_clear(factor);
}

int dpsel_exact_joint_decay_within(uint64_t x, unsigned y, uint64_t denominator)
{
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    mpfr_t decay;
    mpfr_init2(decay, 128);
    mpfr_set_ui_2exp(decay, (unsigned long)x, -(mpfr_exp_t)y, MPFR_RNDN);  /* beta, exact */
    mpfr_log2(decay, decay, MPFR_RNDD);  /* below log2(beta) <= 0 */
    mpfr_mul_ui(decay, decay, (unsigned long)denominator, MPFR_RNDD);
    int within = mpfr_cmp_si(decay, -(long)DPSEL_JOINT_DECAY_MAX) >= 0;
    mpfr_clear(decay);
    dpsel_exact_mpfr_leave(&host);
    return within;
}

int dpsel_exact_joint_flags_raised(void)
{
    return mpfr_nanflag_p() || mpfr_overflow_p() || mpfr_underflow_p() || mpfr_divby0_p()
           || mpfr_erangeflag_p();
}

/* ------------------------------------------------------- one direction */

/* One directed pass over the problem: every number a lower (MPFR_RNDD)
 * or an upper (MPFR_RNDU) bound. */
typedef struct {
    const dpsel_joint_problem *p;
    mpfr_rnd_t rnd, other;
    mpfr_t beta;          /* exact, 64 bits */
    mpfr_t up_b, down_b;  /* beta^B and beta^-B */
    mpfr_t term;          /* scratch */
} side;

static void side_init(side *s, const dpsel_joint_problem *p, mpfr_prec_t prec, mpfr_rnd_t rnd)
{
    s->p = p;
    s->rnd = rnd;
    s->other = rnd == MPFR_RNDU ? MPFR_RNDD : MPFR_RNDU;
    mpfr_init2(s->beta, 64);
    dpsel_exact_joint_beta(s->beta, p);
    mpfr_inits2(prec, s->up_b, s->down_b, s->term, (mpfr_ptr)0);
    mpfr_pow_ui(s->up_b, s->beta, (unsigned long)p->denominator, rnd);
    mpfr_pow_ui(s->down_b, s->beta, (unsigned long)p->denominator, s->other);
    mpfr_ui_div(s->down_b, 1, s->down_b, rnd);
}

static void side_clear(side *s)
{
    mpfr_clears(s->beta, s->up_b, s->down_b, s->term, (mpfr_ptr)0);
}

/* out = beta^e in the side's direction */
static void power(const side *s, mpfr_ptr out, wide e)
{
    dpsel_exact_joint_power(out, s->beta, e, s->rnd);
}

/* The kernel beta^|B delta - T| along delta = first, first + 1, ...:
 * times beta^-B while B delta stays at most T, times beta^B beyond it,
 * afresh where it crosses T. */
typedef struct {
    uint64_t delta;
    wide target;
    mpfr_t value;
} kernel_walk;

static void kernel_start(const side *s, kernel_walk *w, wide target, uint64_t delta,
                         mpfr_prec_t prec)
{
    mpfr_init2(w->value, prec);
    w->target = target;
    w->delta = delta;
    wide bd = (wide)s->p->denominator * delta;  /* delta <= n: at most B n */
    power(s, w->value, bd >= target ? bd - target : target - bd);
}

static void kernel_next(const side *s, kernel_walk *w)
{
    wide bd = (wide)s->p->denominator * w->delta, b = s->p->denominator;
    w->delta++;
    if (bd >= w->target) {
        mpfr_mul(w->value, w->value, s->up_b, s->rnd);
    } else if (bd + b <= w->target) {
        mpfr_mul(w->value, w->value, s->down_b, s->rnd);
    } else {
        power(s, w->value, bd + b - w->target);
    }
}

/* The transition into row q >= 1 (§8): far and near sums over the ranks
 * before k of total(q - 1, .). */
typedef struct {
    uint64_t span;        /* D* */
    mpfr_t far, prefix, lift;
    mpfr_t far_entry;     /* beta^(B D* - T) */
    mpfr_t near_first;    /* beta^(T - B) (D* >= 2) */
    mpfr_t power_t;       /* beta^T */
    mpfr_ptr suffix;      /* D* - 1 suffix sums of the block before */
} transition;

static uint64_t span_of(wide target, uint64_t b)
{
    uint64_t span = (uint64_t)(target / b) + (target % b != 0);  /* T <= B n: at most n */
    return span > 0 ? span : 1;
}

static void transition_init(const side *s, transition *t, wide target, mpfr_prec_t prec,
                            mpfr_ptr suffix)
{
    uint64_t b = s->p->denominator;
    t->span = span_of(target, b);
    t->suffix = suffix;
    mpfr_inits2(prec, t->far, t->prefix, t->lift, t->far_entry, t->near_first, t->power_t,
                (mpfr_ptr)0);
    mpfr_set_zero(t->far, 1);
    mpfr_set_zero(t->prefix, 1);
    mpfr_set_ui(t->lift, 1, s->rnd);
    power(s, t->far_entry, (wide)b * t->span - target);
    power(s, t->near_first, t->span >= 2 ? target - b : 0);
    power(s, t->power_t, target);
}

static void transition_clear(transition *t)
{
    mpfr_clears(t->far, t->prefix, t->lift, t->far_entry, t->near_first, t->power_t,
                (mpfr_ptr)0);
}

/* The suffix sums of the block [start - D*, start) but its first rank:
 * suffix[t - (start - D* + 1)] = sum_(t <= k' < start) total(k')
 * beta^(T - B (start - k')). */
static void build_suffix(side *s, transition *t, const dpsel_joint_numbers *total,
                         size_t row, uint64_t start)
{
    size_t width = (size_t)t->span - 1;
    mpfr_ptr factor = s->term;
    for (size_t i = width; i-- > 0;) {
        uint64_t k = start - t->span + 1 + i;
        if (i == width - 1) {
            mpfr_set(factor, t->near_first, s->rnd);
        } else {
            mpfr_mul(factor, factor, s->down_b, s->rnd);  /* one rank further: beta^-B */
        }
        mpfr_mul(&t->suffix[i], dpsel_exact_joint_at(total, s->p, row, k), factor, s->rnd);
        if (i + 1 < width) {
            mpfr_add(&t->suffix[i], &t->suffix[i], &t->suffix[i + 1], s->rnd);
        }
    }
}

/* sum_(k' < k) total(row, k') K(k - k') into out, the sums moved to k. */
static void transition_sum(side *s, transition *t, const dpsel_joint_numbers *total,
                           size_t row, uint64_t k, mpfr_ptr out, mpfr_ptr scratch)
{
    if (k > 0) {
        mpfr_mul(t->far, t->far, s->up_b, s->rnd);
    }
    if (k >= t->span) {
        mpfr_mul(scratch, dpsel_exact_joint_at(total, s->p, row, k - t->span), t->far_entry,
                 s->rnd);
        mpfr_add(t->far, t->far, scratch, s->rnd);
    }
    mpfr_set(out, t->far, s->rnd);
    if (t->span < 2) {
        return;
    }
    uint64_t start = k - k % t->span;
    if (k == start) {
        mpfr_set_zero(t->prefix, 1);
        mpfr_set_ui(t->lift, 1, s->rnd);
        if (k > 0) {
            build_suffix(s, t, total, row, start);
        }
    } else {
        mpfr_mul(scratch, dpsel_exact_joint_at(total, s->p, row, k - 1), t->power_t, s->rnd);
        mpfr_add(t->prefix, t->prefix, scratch, s->rnd);
        mpfr_mul(t->prefix, t->prefix, s->down_b, s->rnd);
        mpfr_mul(t->lift, t->lift, s->down_b, s->rnd);
    }
    mpfr_add(out, out, t->prefix, s->rnd);
    size_t index = (size_t)(k - start);  /* the suffix from k - D* + 1 */
    if (start > 0 && index + 1 < t->span) {
        mpfr_mul(scratch, &t->suffix[index], t->lift, s->rnd);
        mpfr_add(out, out, scratch, s->rnd);
    }
}

/* The per-rank state of a forward pass. */
typedef struct {
    side s;
    mpfr_prec_t prec;
    transition *into;     /* into[q] for rows q = 1 .. m - 1 */
    dpsel_joint_numbers suffixes;
    mpfr_ptr row_a, row_b;  /* f(q - 1, k, .) and f(q, k, .), j = 1 .. m at [j - 1] */
    dpsel_joint_numbers rows;
    kernel_walk first;    /* K_1(k) */
    mpfr_t scratch;
} forward_pass;

static void pass_clear(forward_pass *f)
{
    if (f->into != NULL) {
        for (size_t q = 1; q < f->s.p->m; q++) {
            transition_clear(&f->into[q]);
        }
        free(f->into);
    }
    dpsel_exact_joint_numbers_free(&f->suffixes);
    dpsel_exact_joint_numbers_free(&f->rows);
    mpfr_clears(f->first.value, f->scratch, (mpfr_ptr)0);
    side_clear(&f->s);
}

static int pass_init(forward_pass *f, const dpsel_joint_problem *p, mpfr_prec_t prec,
                     mpfr_rnd_t rnd)
{
    memset(f, 0, sizeof *f);
    side_init(&f->s, p, prec, rnd);
    f->prec = prec;
    mpfr_init2(f->scratch, prec);
    kernel_start(&f->s, &f->first, p->target[0], 0, prec);
    size_t widths = 0;
    for (size_t q = 1; q < p->m; q++) {
        widths += (size_t)span_of(p->target[q], p->denominator);  /* at most n + m */
    }
    f->into = calloc(p->m, sizeof *f->into);
    if (f->into == NULL || dpsel_exact_joint_numbers_new(&f->suffixes, widths, prec) != DPSEL_OK
        || dpsel_exact_joint_numbers_new(&f->rows, 2 * p->m, prec) != DPSEL_OK) {
        free(f->into);
        f->into = NULL;
        return DPSEL_ENOMEM;
    }
    size_t offset = 0;
    for (size_t q = 1; q < p->m; q++) {
        transition_init(&f->s, &f->into[q], p->target[q], prec, &f->suffixes.number[offset]);
        offset += (size_t)f->into[q].span;
    }
    f->row_a = &f->rows.number[0];
    f->row_b = &f->rows.number[p->m];
    return DPSEL_OK;
}

/* Row q at rank k: f(q, k, 1) from the transition (or K_1 for q = 0),
 * f(q, k, j) = f(q - 1, k, j - 1) beta^T_q (l_k + j - 1) / j, and their
 * sum, stored in entry and total. */
static void rank_row(forward_pass *f, const dpsel_joint_numbers *entry,
                     const dpsel_joint_numbers *total, size_t q, uint64_t k)
{
    side *s = &f->s;
    uint64_t length = s->p->length[k];
    mpfr_ptr cur = f->row_b, before = f->row_a;
    if (q == 0) {
        mpfr_set(&cur[0], f->first.value, s->rnd);
    } else {
        transition_sum(s, &f->into[q], total, q - 1, k, &cur[0], f->scratch);
    }
    mpfr_mul_ui(&cur[0], &cur[0], (unsigned long)length, s->rnd);
    mpfr_ptr sum = dpsel_exact_joint_at(total, s->p, q, k);
    mpfr_set(dpsel_exact_joint_at(entry, s->p, q, k), &cur[0], s->rnd);
    mpfr_set(sum, &cur[0], s->rnd);
    for (size_t j = 2; j <= q + 1; j++) {
        mpfr_mul(&cur[j - 1], &before[j - 2], f->into[q].power_t, s->rnd);
        mpfr_mul_ui(&cur[j - 1], &cur[j - 1], (unsigned long)(length + j - 1), s->rnd);
        mpfr_div_ui(&cur[j - 1], &cur[j - 1], (unsigned long)j, s->rnd);
        mpfr_add(sum, sum, &cur[j - 1], s->rnd);
    }
    f->row_a = cur;
    f->row_b = before;
}

/* Every row at every rank, in one direction. */
static int forward_side(const dpsel_joint_problem *p, mpfr_prec_t prec, mpfr_rnd_t rnd,
                        const dpsel_joint_numbers *entry, const dpsel_joint_numbers *total,
                        const dpsel_rng *rng, dpsel_progress *progress)
{
    uint64_t rank_steps = dpsel_exact_joint_rank_steps(p->m);
    forward_pass f;
    int rc = pass_init(&f, p, prec, rnd);
    uint64_t steps = (p->n + 1) * p->m;  /* at most 2^62 numbers: no overflow */
    for (uint64_t k = 0; k <= p->n && rc == DPSEL_OK; k++) {
        for (size_t q = 0; q < p->m && rc == DPSEL_OK; q++) {
            rc = dpsel_internal_interrupted_every(rng, k * p->m + q, steps);
            if (rc == DPSEL_OK) {
                rank_row(&f, entry, total, q, k);
            }
        }
        kernel_next(&f.s, &f.first);
        if (rc == DPSEL_OK) {
            rc = dpsel_progress_add(progress, rank_steps);
        }
    }
    pass_clear(&f);
    return rc;
}

/* One side of dpsel_exact_joint_cumulative. */
static int cumulative_side(const dpsel_joint_problem *p, const dpsel_joint_numbers *total,
                           mpfr_prec_t prec, mpfr_rnd_t rnd, size_t row, wide target,
                           uint64_t end, uint64_t last, const dpsel_rng *rng,
                           const dpsel_joint_numbers *cum)
{
    side s;
    side_init(&s, p, prec, rnd);
    kernel_walk w;
    kernel_start(&s, &w, target, end - last, prec);
    int rc = DPSEL_OK;
    for (uint64_t t = last + 1; t-- > 0 && rc == DPSEL_OK;) {
        rc = dpsel_internal_interrupted_every(rng, last - t, last + 1);
        mpfr_mul(&cum->number[t + 1], dpsel_exact_joint_at(total, p, row, t), w.value, rnd);
        kernel_next(&s, &w);
    }
    mpfr_set_zero(&cum->number[0], 1);
    for (uint64_t t = 1; t <= last + 1; t++) {
        mpfr_add(&cum->number[t], &cum->number[t], &cum->number[t - 1], rnd);
    }
    mpfr_clear(w.value);
    side_clear(&s);
    return rc;
}

int dpsel_exact_joint_cumulative(const dpsel_joint_problem *p, const dpsel_joint_tables *t,
                                 size_t row, wide target, uint64_t end, uint64_t last,
                                 const dpsel_rng *rng, const dpsel_joint_numbers *cum_lo,
                                 const dpsel_joint_numbers *cum_hi)
{
    if (row >= p->m || last > end || end > p->n || cum_lo->count < last + 2
        || cum_hi->count < last + 2) {
        return DPSEL_EINTERNAL;
    }
    int rc = cumulative_side(p, &t->total_lo, t->prec, MPFR_RNDD, row, target, end, last, rng,
                             cum_lo);
    if (rc == DPSEL_OK) {
        rc = cumulative_side(p, &t->total_hi, t->prec, MPFR_RNDU, row, target, end, last, rng,
                             cum_hi);
    }
    return rc;
}

/* Z, the last entries of the cumulative weights of the last row. */
static int weight_of_all(dpsel_joint_tables *t, const dpsel_joint_problem *p,
                         const dpsel_rng *rng)
{
    dpsel_joint_numbers lo = { 0 }, hi = { 0 };
    int rc = dpsel_exact_joint_numbers_new(&lo, p->n + 2, t->prec);
    if (rc == DPSEL_OK) {
        rc = dpsel_exact_joint_numbers_new(&hi, p->n + 2, t->prec);
    }
    if (rc == DPSEL_OK) {
        rc = dpsel_exact_joint_cumulative(p, t, p->m - 1, p->target[p->m], p->n, p->n, rng,
                                          &lo, &hi);
    }
    if (rc == DPSEL_OK) {
        mpfr_set(t->z_lo, &lo.number[p->n + 1], MPFR_RNDD);
        mpfr_set(t->z_hi, &hi.number[p->n + 1], MPFR_RNDU);
    }
    dpsel_exact_joint_numbers_free(&lo);
    dpsel_exact_joint_numbers_free(&hi);
    return rc;
}

int dpsel_exact_joint_forward(dpsel_joint_tables *t, const dpsel_joint_problem *p,
                              mpfr_prec_t prec, const dpsel_rng *rng, dpsel_progress *progress)
{
    memset(t, 0, sizeof *t);
    size_t count;
    if (prec < DPSEL_JOINT_PREC_FIRST || prec > DPSEL_JOINT_PREC_MAX
        || __builtin_mul_overflow(p->m, p->n + 1, &count)) {
        return DPSEL_EINTERNAL;
    }
    t->prec = prec;
    mpfr_inits2(prec, t->z_lo, t->z_hi, (mpfr_ptr)0);
    if (dpsel_exact_joint_numbers_new(&t->entry_lo, count, prec) != DPSEL_OK
        || dpsel_exact_joint_numbers_new(&t->entry_hi, count, prec) != DPSEL_OK
        || dpsel_exact_joint_numbers_new(&t->total_lo, count, prec) != DPSEL_OK
        || dpsel_exact_joint_numbers_new(&t->total_hi, count, prec) != DPSEL_OK) {
        return DPSEL_ENOMEM;
    }
    mpfr_clear_flags();
    int rc = forward_side(p, prec, MPFR_RNDD, &t->entry_lo, &t->total_lo, rng, progress);
    if (rc == DPSEL_OK) {
        rc = forward_side(p, prec, MPFR_RNDU, &t->entry_hi, &t->total_hi, rng, progress);
    }
    if (rc == DPSEL_OK) {
        rc = weight_of_all(t, p, rng);
    }
    if (rc == DPSEL_OK) {
        rc = dpsel_progress_add(progress, dpsel_exact_joint_weight_steps(p->n));
    }
    /* within MPFR's range: B log2(1/beta) <= DPSEL_JOINT_DECAY_MAX, n <= 2^56 */
    if (rc == DPSEL_OK && dpsel_exact_joint_flags_raised()) {
        rc = DPSEL_EINTERNAL;
    }
    return rc;
}

/* ------------------------------------------------------------- cost */

static uint64_t saturated(wide x)
{
    return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

static uint64_t saturated_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* rank_row's 4 operations a place (q of them in row q) and at most 16
 * more a row (its transition, its share of the suffix sums, its entry and
 * total): at most 2 m (m + 8) */
uint64_t dpsel_exact_joint_rank_steps(size_t m)
{
    return saturated((wide)2 * m * ((wide)m + 8));
}

/* cumulative_side's 3 operations a rank, on each side */
uint64_t dpsel_exact_joint_weight_steps(size_t n)
{
    return saturated((wide)6 * ((wide)n + 1));
}

/* per quantile: a rank draw (Z's steps) and a place draw (place_cumulative's
 * 4 operations a place and side, at most m places) */
uint64_t dpsel_exact_joint_release_steps(size_t m, size_t n)
{
    return saturated((wide)m * ((wide)dpsel_exact_joint_weight_steps(n) + (wide)8 * m));
}

/* The numbers of the tables and the draws at the first precision: the four
 * tables, the two cumulative arrays, a forward pass's suffix sums (at most
 * n + m) and rows (2 m); and the rest: the problem's runs and quantiles,
 * the releases and their scratch (dpsel_exact_joint_sample). */
static uint64_t memory_bound(size_t m, size_t n, size_t count)
{
    wide ranks = (wide)n + 1, big = n > m ? n : m;
    wide numbers = 4 * m * ranks + 2 * (big + 2) + ((wide)n + m) + 2 * (wide)m;
    wide number_size = sizeof(__mpfr_struct) + mpfr_custom_get_size(DPSEL_JOINT_PREC_FIRST);
    wide rest = 16 * ranks + 48 * ((wide)m + 1) + 16 * (wide)count * m + 24 * (wide)m;
    return numbers > UINT64_MAX ? UINT64_MAX : saturated(numbers * number_size + rest);
}

void dpsel_exact_joint_cost(size_t m, size_t n, size_t count, uint64_t *steps, uint64_t *bytes)
{
    uint64_t tables = saturated((wide)2 * ((wide)n + 1) * dpsel_exact_joint_rank_steps(m));
    uint64_t releases = saturated((wide)count * dpsel_exact_joint_release_steps(m, n));
    *steps = saturated_add(saturated_add(tables, dpsel_exact_joint_weight_steps(n)), releases);
    *bytes = memory_bound(m, n, count);
}
