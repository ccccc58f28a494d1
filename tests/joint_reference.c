/* SPDX-License-Identifier: ISC */
/* JointExp by listing its tuples (joint_reference.h). */
#include "joint_reference.h"

#include <stdlib.h>
#include <string.h>

#include "support.h"

#define TUPLES_MAX 1000000

uint64_t joint_reference_denominator(const uint64_t *qb, size_t m)
{
    mpz_t lcd;
    mpz_init_set_ui(lcd, 1);
    for (size_t i = 0; i < m; i++) {
        mpz_lcm_ui(lcd, lcd, (unsigned long)qb[i]);
    }
    uint64_t value = mpz_get_ui(lcd);
    mpz_clear(lcd);
    return value;
}

/* B p_i, with B p_0 = 0 and B p_(m+1) = B. */
static int64_t scaled_quantile(const uint64_t *qa, const uint64_t *qb, size_t m, uint64_t lcd,
                               size_t i)
{
    if (i == 0) {
        return 0;
    }
    return i > m ? (int64_t)lcd : (int64_t)(lcd / qb[i - 1] * qa[i - 1]);
}

uint64_t joint_reference_sensitivity(const uint64_t *qa, const uint64_t *qb, size_t m)
{
    uint64_t lcd = joint_reference_denominator(qb, m);
    int64_t least = (int64_t)lcd;
    for (size_t i = 1; i <= m + 1; i++) {
        int64_t step = scaled_quantile(qa, qb, m, lcd, i) - scaled_quantile(qa, qb, m, lcd, i - 1);
        least = step < least ? step : least;
    }
    return 2 * (lcd - (uint64_t)least);
}

/* The number of non-decreasing m-tuples of N points, C(N + m - 1, m), or
 * TUPLES_MAX + 1 when larger. */
static size_t count_tuples(uint64_t points, size_t m)
{
    mpz_t c;
    mpz_init(c);
    mpz_bin_uiui(c, points + m - 1, m);
    size_t count = mpz_cmp_ui(c, TUPLES_MAX) > 0 ? TUPLES_MAX + 1 : mpz_get_ui(c);
    mpz_clear(c);
    return count;
}

static mpq_t *rationals_new(size_t count)
{
    mpq_t *q = malloc((count == 0 ? 1 : count) * sizeof *q);
    for (size_t i = 0; q != NULL && i < count; i++) {
        mpq_init(q[i]);
    }
    return q;
}

static void rationals_free(mpq_t *q, size_t count)
{
    for (size_t i = 0; q != NULL && i < count; i++) {
        mpq_clear(q[i]);
    }
    free(q);
}

/* L(v) for the clamped values. */
static size_t below(const int64_t *clamped, size_t n, int64_t v)
{
    size_t count = 0;
    for (size_t j = 0; j < n; j++) {
        count += clamped[j] < v;
    }
    return count;
}

/* s(o) for one tuple, by the definition. */
static int64_t tuple_score(const joint_reference *ref, const int64_t *o, const int64_t *clamped,
                           const uint64_t *qa, const uint64_t *qb, uint64_t lcd)
{
    int64_t s = 0;
    size_t previous = 0;
    for (size_t i = 1; i <= ref->m + 1; i++) {
        size_t k = i > ref->m ? ref->n : below(clamped, ref->n, o[i - 1]);
        int64_t target = (scaled_quantile(qa, qb, ref->m, lcd, i)
                          - scaled_quantile(qa, qb, ref->m, lcd, i - 1)) * (int64_t)ref->n;
        int64_t d = (int64_t)lcd * (int64_t)(k - previous) - target;
        s += d < 0 ? -d : d;
        previous = k;
    }
    return s;
}

/* Every tuple in lexicographic order, with its score. */
static void list_tuples(joint_reference *ref, const int64_t *clamped, const uint64_t *qa,
                        const uint64_t *qb, int64_t lower, int64_t upper)
{
    uint64_t lcd = joint_reference_denominator(qb, ref->m);
    size_t m = ref->m;
    int64_t *o = ref->tuple;
    for (size_t i = 0; i < m; i++) {
        o[i] = lower;
    }
    for (size_t t = 0; t < ref->tuples; t++) {
        ref->score[t] = tuple_score(ref, o, clamped, qa, qb, lcd);
        if (t + 1 == ref->tuples) {
            break;
        }
        int64_t *next = o + m;
        memcpy(next, o, m * sizeof *o);
        size_t i = m - 1;
        while (next[i] == upper) {
            i--;
        }
        next[i]++;
        for (size_t j = i + 1; j < m; j++) {
            next[j] = next[i];
        }
        o = next;
    }
}

/* The joint probabilities, the marginals and the expected rank errors. */
static void distribute(joint_reference *ref, const int64_t *clamped, uint64_t x, unsigned y,
                       const uint64_t *qa, const uint64_t *qb, int64_t lower)
{
    mpq_t total, error;
    mpq_inits(total, error, NULL);
    for (size_t t = 0; t < ref->tuples; t++) {
        beta_power(ref->joint[t], x, y, (uint64_t)ref->score[t]);
        mpq_add(total, total, ref->joint[t]);
    }
    for (size_t t = 0; t < ref->tuples; t++) {
        mpq_div(ref->joint[t], ref->joint[t], total);
        for (size_t i = 0; i < ref->m; i++) {
            int64_t v = ref->tuple[t * ref->m + i];
            size_t k = below(clamped, ref->n, v);
            mpq_add(ref->run[i * (ref->n + 1) + k], ref->run[i * (ref->n + 1) + k], ref->joint[t]);
            mpq_t *at = &ref->point[i * ref->points + (uint64_t)(v - lower)];
            mpq_add(*at, *at, ref->joint[t]);
        }
    }
    for (size_t i = 0; i < ref->m; i++) {
        for (size_t k = 0; k <= ref->n; k++) {
            /* |k - p_i n| = |k qb - qa n| / qb */
            mpz_set_si(mpq_numref(error), (long)(k * qb[i]) - (long)(qa[i] * ref->n));
            mpz_abs(mpq_numref(error), mpq_numref(error));
            mpz_set_ui(mpq_denref(error), qb[i]);
            mpq_canonicalize(error);
            mpq_mul(error, error, ref->run[i * (ref->n + 1) + k]);
            mpq_add(ref->rank_error[i], ref->rank_error[i], error);
        }
    }
    mpq_clears(total, error, NULL);
}

int joint_reference_new(joint_reference *ref, uint64_t x, unsigned y, const uint64_t *qa,
                        const uint64_t *qb, size_t m, const int64_t *values, size_t n,
                        int64_t lower, int64_t upper)
{
    memset(ref, 0, sizeof *ref);
    ref->m = m;
    ref->n = n;
    ref->points = (uint64_t)(upper - lower) + 1;
    ref->tuples = count_tuples(ref->points, m);
    if (ref->tuples > TUPLES_MAX) {
        return -1;
    }
    int64_t *clamped = malloc((n == 0 ? 1 : n) * sizeof *clamped);
    ref->tuple = malloc(ref->tuples * m * sizeof *ref->tuple);
    ref->score = malloc(ref->tuples * sizeof *ref->score);
    ref->joint = rationals_new(ref->tuples);
    ref->run = rationals_new(m * (n + 1));
    ref->point = rationals_new(m * ref->points);
    ref->rank_error = rationals_new(m);
    if (clamped == NULL || ref->tuple == NULL || ref->score == NULL || ref->joint == NULL
        || ref->run == NULL || ref->point == NULL || ref->rank_error == NULL) {
        free(clamped);
        joint_reference_free(ref);
        return -1;
    }
    for (size_t j = 0; j < n; j++) {
        clamped[j] = values[j] < lower ? lower : values[j] > upper ? upper : values[j];
    }
    list_tuples(ref, clamped, qa, qb, lower, upper);
    distribute(ref, clamped, x, y, qa, qb, lower);
    free(clamped);
    return 0;
}

void joint_reference_free(joint_reference *ref)
{
    free(ref->tuple);
    free(ref->score);
    rationals_free(ref->joint, ref->joint == NULL ? 0 : ref->tuples);
    rationals_free(ref->run, ref->run == NULL ? 0 : ref->m * (ref->n + 1));
    rationals_free(ref->point, ref->point == NULL ? 0 : ref->m * ref->points);
    rationals_free(ref->rank_error, ref->rank_error == NULL ? 0 : ref->m);
    memset(ref, 0, sizeof *ref);
}

int joint_reference_decay_within(uint64_t x, unsigned y, uint64_t denominator)
{
    mpz_t left, right;
    mpz_inits(left, right, (mpz_ptr)0);
    mpz_ui_pow_ui(right, x, (unsigned long)denominator);
    mpz_mul_2exp(right, right, 16);
    mpz_setbit(left, (mp_bitcnt_t)y * denominator);
    int within = mpz_cmp(left, right) <= 0;
    mpz_clears(left, right, (mpz_ptr)0);
    return within;
}

size_t joint_reference_base_taken(const uint64_t (*bases)[2], size_t count, size_t start,
                                  uint64_t denominator)
{
    size_t at = start % count;
    for (size_t tried = 0; tried < count; tried++, at = (at + 1) % count) {
        if (joint_reference_decay_within(bases[at][0], (unsigned)bases[at][1], denominator)) {
            return at;
        }
    }
    return count;  /* none: the caller's list lacks a base near 1 */
}
