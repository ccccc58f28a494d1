/* SPDX-License-Identifier: ISC */
/*
 * JointExp's exact distribution (spec/quantiles.md §8):
 *   - the reference that lists every tuple (joint_reference.c) against
 *     cases computed by hand: the joint pmf, the marginals, the expected
 *     rank errors and the sensitivity;
 *   - the library's marginals (dpsel_quantiles_joint_pmf_new) against the
 *     reference on 300 random small cases (grids of 1 to 8 points, 0 to 6
 *     values, ties and values outside the grid, 1 to 3 quantiles, 5
 *     bases): every enclosure holds the rational and is narrower than
 *     1e-30 relative, and so does each expected rank error;
 *   - neighbouring data sets (one value added) through the joint pmf (every
 *     tuple's ratio within e^epsilon, exactly) and through the marginals
 *     (every event o_i <= v at a run boundary, from the enclosures);
 *   - 20 000 releases of dpsel_quantiles_joint_select (40 values, three
 *     quantiles) fit each quantile's marginal by chi-square (false alarm
 *     1e-6 per quantile; a near kernel one power of beta off in the
 *     backward pass fails it);
 *   - bad arguments, each with its code and *out untouched.
 */
#include <criterion/criterion.h>
#include <gmp.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>

#include "exact/joint_pmf.h"
#include "joint_reference.h"
#include "support.h"

/* cr_expect that value == num / den, naming what. */
static void expect_rational(const mpq_t value, long num, unsigned long den, const char *what)
{
    mpq_t want;
    mpq_init(want);
    mpq_set_si(want, num, den);
    mpq_canonicalize(want);
    cr_expect(mpq_equal(value, want), "%s: %s, not %ld/%lu", what, mpq_get_str(NULL, 10, value),
              num, den);
    mpq_clear(want);
}

Test(joint_reference, median_of_two_by_hand)
{
    /* q = 1/2, B = 2, T = (2, 2); grid 0..2, X = {0, 2}: o = 0 has k = 0 and
     * s = 2 + 2 = 4, o = 1 and o = 2 have k = 1 and s = 0.  beta = 1/2:
     * weights 1/16, 1, 1 over 33/16. */
    const uint64_t qa[] = { 1 }, qb[] = { 2 };
    const int64_t values[] = { 2, 0 };
    joint_reference ref;
    cr_assert_eq(joint_reference_new(&ref, 1, 1, qa, qb, 1, values, 2, 0, 2), 0);
    cr_assert_eq(ref.tuples, 3);
    cr_expect_eq(ref.score[0], 4);
    cr_expect_eq(ref.score[1], 0);
    cr_expect_eq(ref.score[2], 0);
    expect_rational(ref.joint[0], 1, 33, "P(0)");
    expect_rational(ref.joint[1], 16, 33, "P(1)");
    expect_rational(ref.point[2], 16, 33, "P(o = 2)");
    expect_rational(ref.run[0], 1, 33, "P(k = 0)");
    expect_rational(ref.run[1], 32, 33, "P(k = 1)");
    expect_rational(ref.run[2], 0, 1, "P(k = 2)");
    /* |0 - 1| 1/33 + |1 - 1| 32/33 */
    expect_rational(ref.rank_error[0], 1, 33, "E |k - n/2|");
    cr_expect_eq(joint_reference_sensitivity(qa, qb, 1), 2);
    joint_reference_free(&ref);
}

Test(joint_reference, quartiles_by_hand)
{
    /* q = 1/4, 3/4: B = 4, T = (2, 4, 2); grid 0..1, X = {0, 1}, L(0) = 0,
     * L(1) = 1.  (0,0): 2 + 4 + 6 = 12; (0,1): 2 + 0 + 2 = 4; (1,1): 2 + 4
     * + 2 = 8.  beta = 1/2: 2^12 times the weights is 1, 256, 16 (273). */
    const uint64_t qa[] = { 1, 3 }, qb[] = { 4, 4 };
    const int64_t values[] = { 0, 1 };
    joint_reference ref;
    cr_assert_eq(joint_reference_new(&ref, 1, 1, qa, qb, 2, values, 2, 0, 1), 0);
    cr_assert_eq(ref.tuples, 3);
    const int64_t tuples[] = { 0, 0, 0, 1, 1, 1 };
    const int64_t scores[] = { 12, 4, 8 };
    for (size_t t = 0; t < 3; t++) {
        cr_expect_eq(ref.tuple[2 * t], tuples[2 * t]);
        cr_expect_eq(ref.tuple[2 * t + 1], tuples[2 * t + 1]);
        cr_expect_eq(ref.score[t], scores[t], "s of tuple %zu", t);
    }
    expect_rational(ref.joint[0], 1, 273, "P(0, 0)");
    expect_rational(ref.joint[1], 256, 273, "P(0, 1)");
    expect_rational(ref.joint[2], 16, 273, "P(1, 1)");
    expect_rational(ref.point[0], 257, 273, "P(o_1 = 0)");
    expect_rational(ref.point[1], 16, 273, "P(o_1 = 1)");
    expect_rational(ref.point[2], 1, 273, "P(o_2 = 0)");
    expect_rational(ref.point[3], 272, 273, "P(o_2 = 1)");
    expect_rational(ref.run[3 + 1], 272, 273, "P(k_2 = 1)");
    /* quantile 1: p n = 1/2, both runs 1/2 away; quantile 2: p n = 3/2,
     * (3/2) 1/273 + (1/2) 272/273 */
    expect_rational(ref.rank_error[0], 1, 2, "E |k_1 - 1/2|");
    expect_rational(ref.rank_error[1], 275, 546, "E |k_2 - 3/2|");
    cr_expect_eq(joint_reference_sensitivity(qa, qb, 2), 6);
    joint_reference_free(&ref);
}

Test(joint_reference, no_values_uniform_over_tuples)
{
    /* n = 0: every score is 0, so C(4 + 2 - 1, 2) = 10 tuples of 0..3 are
     * alike; o_1 = v in 4 - v of them.  Values outside the grid clamp. */
    const uint64_t qa[] = { 1, 1 }, qb[] = { 3, 2 };
    joint_reference ref;
    cr_assert_eq(joint_reference_new(&ref, 3, 2, qa, qb, 2, NULL, 0, 0, 3), 0);
    cr_assert_eq(ref.tuples, 10);
    for (size_t t = 0; t < 10; t++) {
        expect_rational(ref.joint[t], 1, 10, "P(tuple)");
        cr_expect_leq(ref.tuple[2 * t], ref.tuple[2 * t + 1], "tuple %zu sorted", t);
    }
    for (int v = 0; v < 4; v++) {
        expect_rational(ref.point[v], 4 - v, 10, "P(o_1 = v)");
        expect_rational(ref.point[4 + v], v + 1, 10, "P(o_2 = v)");
    }
    expect_rational(ref.run[0], 1, 1, "P(k_1 = 0)");
    expect_rational(ref.rank_error[1], 0, 1, "E |k_2 - 0|");
    /* B = 6: steps 2, 1, 3 of 6; D = 2 (6 - 1) */
    cr_expect_eq(joint_reference_sensitivity(qa, qb, 2), 10);
    joint_reference_free(&ref);

    const int64_t outside[] = { -5, 9 };
    cr_assert_eq(joint_reference_new(&ref, 1, 1, qa, qb, 2, outside, 2, 0, 3), 0);
    /* clamped to {0, 3}: L(0) = 0, L(1..3) = 1 */
    /* T = (4, 2, 6); (0,0): |0 - 4| + |0 - 2| + |12 - 6| */
    cr_expect_eq(ref.score[0], 12);
    joint_reference_free(&ref);
}

/* The quantiles and bases the random cases draw from. */
static const uint64_t fractions[][2] = {
    { 1, 4 }, { 1, 3 }, { 1, 2 }, { 2, 3 }, { 3, 4 }, { 1, 10 }, { 9, 10 },
};
#define FRACTIONS (sizeof fractions / sizeof *fractions)
static const uint64_t bases[][2] = { { 1, 1 }, { 3, 2 }, { 13, 4 }, { 31, 5 }, { 255, 8 } };
#define BASES (sizeof bases / sizeof *bases)

typedef struct {
    uint64_t a[3], b[3];
    size_t m, n;
    int64_t values[8];
    int64_t lower, upper;
    uint64_t x;
    unsigned y;
} joint_case;

/* m distinct quantiles from the table, in increasing order. */
static void draw_quantiles(joint_case *c, uint64_t *state)
{
    int taken[FRACTIONS] = { 0 };
    c->m = 1 + lcg_next(state) % 3;
    for (size_t i = 0; i < c->m; i++) {
        size_t f;
        do {
            f = lcg_next(state) % FRACTIONS;
        } while (taken[f]);
        taken[f] = 1;
    }
    size_t i = 0;
    /* the table is not sorted: pick the taken ones by increasing value */
    for (size_t rank = 0; rank < c->m; rank++) {
        size_t best = FRACTIONS;
        for (size_t f = 0; f < FRACTIONS; f++) {
            if (taken[f] && (best == FRACTIONS || fractions[f][0] * fractions[best][1]
                                                      < fractions[best][0] * fractions[f][1])) {
                best = f;
            }
        }
        taken[best] = 0;
        c->a[i] = fractions[best][0];
        c->b[i++] = fractions[best][1];
    }
}

static joint_case draw_case(uint64_t *state)
{
    joint_case c;
    draw_quantiles(&c, state);
    c.lower = (int64_t)(lcg_next(state) % 5) - 2;
    c.upper = c.lower + (int64_t)(lcg_next(state) % 8);
    c.n = lcg_next(state) % 7;
    for (size_t j = 0; j < c.n; j++) {
        /* some outside the grid, many ties */
        c.values[j] = c.lower - 1 + (int64_t)(lcg_next(state) % (uint64_t)(c.upper - c.lower + 3));
    }
    /* a base the rule B log2(1/beta) <= 16 refuses gives way to the next */
    size_t base = joint_reference_base_taken(bases, BASES, lcg_next(state) % BASES,
                                             joint_reference_denominator(c.b, c.m));
    cr_assert(base < BASES);
    c.x = bases[base][0];
    c.y = (unsigned)bases[base][1];
    return c;
}

static dpsel_joint_pmf *library_pmf(const joint_case *c, dpsel_params *params)
{
    uint64_t sensitivity = joint_reference_sensitivity(c->a, c->b, c->m);
    *params = base_params(c->x, c->y, sensitivity, 0);
    dpsel_joint_pmf *pmf = NULL;
    cr_assert_eq(dpsel_quantiles_joint_pmf_new(&pmf, params, c->a, c->b, c->m, c->values, c->n,
                                               c->lower, c->upper, NULL, NULL),
                 DPSEL_OK);
    return pmf;
}

/* cr_expect lo <= value <= hi and the width below 1e-30 of pmf's value v of
 * quantile i (dpsel_exact_joint_pmf_bounds). */
static void expect_enclosed(const dpsel_joint_pmf *pmf, size_t i, size_t v, const mpq_t value,
                            const char *what, unsigned seed)
{
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    dpsel_exact_joint_pmf_bounds(pmf, i, v, lo, hi);
    cr_expect(mpfr_cmp_q(lo, value) <= 0 && mpfr_cmp_q(hi, value) >= 0,
              "case %u, quantile %zu, %s %zu: %s outside the enclosure", seed, i, what, v,
              mpq_get_str(NULL, 10, value));
    if (mpq_sgn(value) > 0) {
        expect_narrow_1e30(lo, hi, what);
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

Test(joint_pmf, marginals_hold_the_listed_rationals)
{
    uint64_t state = 41;
    for (unsigned seed = 0; seed < 300; seed++) {
        joint_case c = draw_case(&state);
        joint_reference ref;
        cr_assert_eq(joint_reference_new(&ref, c.x, c.y, c.a, c.b, c.m, c.values, c.n, c.lower,
                                         c.upper), 0);
        dpsel_params params;
        dpsel_joint_pmf *pmf = library_pmf(&c, &params);
        size_t runs = dpsel_joint_pmf_runs(pmf);
        cr_assert_eq(dpsel_joint_pmf_quantiles(pmf), c.m);
        uint64_t covered = 0;
        for (size_t r = 0; r < runs; r++) {
            int64_t first;
            uint64_t points, rank;
            cr_assert_eq(dpsel_joint_pmf_run(pmf, r, &first, &points, &rank), DPSEL_OK);
            covered += points;
            for (size_t i = 0; i < c.m; i++) {
                expect_enclosed(pmf, i, r, ref.run[i * (c.n + 1) + rank], "run", seed);
            }
        }
        cr_expect_eq(covered, ref.points, "case %u: the runs cover the grid", seed);
        for (size_t i = 0; i < c.m; i++) {
            expect_enclosed(pmf, i, runs, ref.rank_error[i], "rank error", seed);
        }
        dpsel_joint_pmf_free(pmf);
        joint_reference_free(&ref);
    }
}

/* P(o | X) <= e^eps P(o | X') for every tuple, e^eps = beta^(-2 D), exactly. */
static int joint_ratios_hold(const joint_reference *from, const joint_reference *to, uint64_t x,
                             unsigned y, uint64_t sensitivity)
{
    mpq_t bound;
    mpq_init(bound);
    int held = 1;
    for (size_t t = 0; t < from->tuples; t++) {
        beta_power(bound, x, y, 2 * sensitivity);
        mpq_mul(bound, bound, from->joint[t]);
        held = held && mpq_cmp(bound, to->joint[t]) <= 0;
    }
    mpq_clear(bound);
    return held;
}

/* Bounds of P(o_i <= v), or with above P(o_i > v): the sums of the
 * runs' enclosures on that side of v (v the last point of a run). */
static void event_bounds(const dpsel_joint_pmf *pmf, size_t i, int64_t v, int above, mpfr_t lo,
                         mpfr_t hi)
{
    mpfr_t l, h;
    mpfr_inits2(64, l, h, (mpfr_ptr)0);
    mpfr_set_ui(lo, 0, MPFR_RNDD);
    mpfr_set_ui(hi, 0, MPFR_RNDU);
    for (size_t r = 0; r < dpsel_joint_pmf_runs(pmf); r++) {
        int64_t first;
        cr_assert_eq(dpsel_joint_pmf_run(pmf, r, &first, NULL, NULL), DPSEL_OK);
        if ((first > v) == above) {
            dpsel_exact_joint_pmf_bounds(pmf, i, r, l, h);
            mpfr_add(lo, lo, l, MPFR_RNDD);
            mpfr_add(hi, hi, h, MPFR_RNDU);
        }
    }
    mpfr_clears(l, h, (mpfr_ptr)0);
}

/* e^-eps P_a(E) <= P_b(E), proved from the enclosures: hi_a beta^(2 D)
 * (rounded up) <= lo_b. */
static int scaled_below(const mpfr_t a_hi, const mpfr_t factor, const mpfr_t b_lo)
{
    mpfr_t scaled;
    mpfr_init2(scaled, 256);
    mpfr_mul(scaled, a_hi, factor, MPFR_RNDU);
    int below = mpfr_lessequal_p(scaled, b_lo);
    mpfr_clear(scaled);
    return below;
}

/* For every event o_i <= v and o_i > v, v the last point of a run of
 * coarse (a union of runs of fine too, fine's data being coarse's and one
 * value more), the probabilities within e^eps either way. */
static int marginal_ratios_hold(const dpsel_joint_pmf *coarse, const dpsel_joint_pmf *fine,
                                const dpsel_params *params, uint64_t sensitivity, size_t m)
{
    mpfr_t c_lo, c_hi, f_lo, f_hi, factor;
    mpfr_inits2(256, c_lo, c_hi, f_lo, f_hi, factor, (mpfr_ptr)0);
    /* e^-eps = beta^(2 D), rounded up: the check is not looser */
    mpfr_set_ui_2exp(factor, (unsigned long)params->x, -(mpfr_exp_t)params->y, MPFR_RNDU);
    mpfr_pow_ui(factor, factor, 2 * sensitivity, MPFR_RNDU);
    int held = 1;
    for (size_t r = 0; r < dpsel_joint_pmf_runs(coarse); r++) {
        int64_t first;
        uint64_t points;
        cr_assert_eq(dpsel_joint_pmf_run(coarse, r, &first, &points, NULL), DPSEL_OK);
        int64_t v = first + (int64_t)points - 1;
        for (size_t e = 0; e < 2 * m; e++) {
            event_bounds(coarse, e / 2, v, (int)(e % 2), c_lo, c_hi);
            event_bounds(fine, e / 2, v, (int)(e % 2), f_lo, f_hi);
            held = held && scaled_below(c_hi, factor, f_lo) && scaled_below(f_hi, factor, c_lo);
        }
    }
    mpfr_clears(c_lo, c_hi, f_lo, f_hi, factor, (mpfr_ptr)0);
    return held;
}

Test(joint_pmf, neighbours_within_epsilon)
{
    uint64_t state = 4141;
    for (unsigned seed = 0; seed < 150; seed++) {
        joint_case c = draw_case(&state);
        joint_case added = c;
        added.values[added.n++] = c.lower - 1 + (int64_t)(lcg_next(&state)
                                                         % (uint64_t)(c.upper - c.lower + 3));
        uint64_t sensitivity = joint_reference_sensitivity(c.a, c.b, c.m);
        joint_reference ref, ref_added;
        cr_assert_eq(joint_reference_new(&ref, c.x, c.y, c.a, c.b, c.m, c.values, c.n, c.lower,
                                         c.upper), 0);
        cr_assert_eq(joint_reference_new(&ref_added, c.x, c.y, c.a, c.b, c.m, added.values,
                                         added.n, c.lower, c.upper), 0);
        cr_expect(joint_ratios_hold(&ref, &ref_added, c.x, c.y, sensitivity),
                  "case %u: a tuple's probability fell by more than e^eps", seed);
        cr_expect(joint_ratios_hold(&ref_added, &ref, c.x, c.y, sensitivity),
                  "case %u: a tuple's probability rose by more than e^eps", seed);
        dpsel_params params;
        dpsel_joint_pmf *pmf = library_pmf(&c, &params);
        dpsel_joint_pmf *pmf_added = library_pmf(&added, &params);
        cr_expect(marginal_ratios_hold(pmf, pmf_added, &params, sensitivity, c.m),
                  "case %u: a marginal event moved by more than e^eps", seed);
        dpsel_joint_pmf_free(pmf);
        dpsel_joint_pmf_free(pmf_added);
        joint_reference_free(&ref);
        joint_reference_free(&ref_added);
    }
}

Test(joint_pmf, half_the_sensitivity_is_caught)
{
    /* the check can fail: with D / 2 some neighbouring pair breaks it */
    uint64_t state = 4141;
    int broken = 0;
    for (unsigned seed = 0; seed < 150 && !broken; seed++) {
        joint_case c = draw_case(&state);
        joint_case added = c;
        added.values[added.n++] = c.lower - 1 + (int64_t)(lcg_next(&state)
                                                         % (uint64_t)(c.upper - c.lower + 3));
        uint64_t half = joint_reference_sensitivity(c.a, c.b, c.m) / 2;
        joint_reference ref, ref_added;
        cr_assert_eq(joint_reference_new(&ref, c.x, c.y, c.a, c.b, c.m, c.values, c.n, c.lower,
                                         c.upper), 0);
        cr_assert_eq(joint_reference_new(&ref_added, c.x, c.y, c.a, c.b, c.m, added.values,
                                         added.n, c.lower, c.upper), 0);
        broken = !joint_ratios_hold(&ref, &ref_added, c.x, c.y, half)
              || !joint_ratios_hold(&ref_added, &ref, c.x, c.y, half);
        joint_reference_free(&ref);
        joint_reference_free(&ref_added);
    }
    cr_expect(broken, "no pair broke e^eps at half the sensitivity");
}

static int stop_at_once(void *context, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    ++*(int *)context;
    return 1;
}

Test(joint_pmf, bad_arguments)
{
    const uint64_t a[] = { 1, 3 }, b[] = { 4, 4 };
    const int64_t values[] = { 1, 2, 3 };
    dpsel_params params = base_params(3, 2, 6, 0);
    dpsel_joint_pmf *const sentinel = (dpsel_joint_pmf *)&params;
    dpsel_joint_pmf *out = sentinel;
#define EXPECT_NEW(code, p, qa, qb, m, v, n, lower, upper)                                   \
    do {                                                                                  \
        out = sentinel;                                                                   \
        cr_expect_eq(dpsel_quantiles_joint_pmf_new(&out, p, qa, qb, m, v, n, lower, upper,  \
                                                   NULL, NULL), code, "line %d", __LINE__); \
        cr_expect_eq(out, sentinel, "line %d: *out written", __LINE__);                      \
    } while (0)
    cr_expect_eq(dpsel_quantiles_joint_pmf_new(NULL, &params, a, b, 2, values, 3, 0, 9, NULL,
                                               NULL), DPSEL_ENULL);
    EXPECT_NEW(DPSEL_ENULL, NULL, a, b, 2, values, 3, 0, 9);
    EXPECT_NEW(DPSEL_ENULL, &params, NULL, b, 2, values, 3, 0, 9);
    EXPECT_NEW(DPSEL_ENULL, &params, a, NULL, 2, values, 3, 0, 9);
    EXPECT_NEW(DPSEL_ENULL, &params, a, b, 2, NULL, 3, 0, 9);
    EXPECT_NEW(DPSEL_ERANGE, &params, a, b, 0, values, 3, 0, 9);
    const uint64_t down_a[] = { 3, 1 }, down_b[] = { 4, 4 };
    EXPECT_NEW(DPSEL_ERANGE, &params, down_a, down_b, 2, values, 3, 0, 9);  /* unsorted */
    const uint64_t same_a[] = { 1, 1 }, same_b[] = { 4, 4 };
    EXPECT_NEW(DPSEL_ERANGE, &params, same_a, same_b, 2, values, 3, 0, 9);  /* duplicate */
    const uint64_t wide_a[] = { 2, 3 }, wide_b[] = { 4, 4 };
    EXPECT_NEW(DPSEL_ERANGE, &params, wide_a, wide_b, 2, values, 3, 0, 9);  /* not lowest */
    const uint64_t one_a[] = { 1, 4 }, one_b[] = { 4, 4 };
    EXPECT_NEW(DPSEL_ERANGE, &params, one_a, one_b, 2, values, 3, 0, 9);    /* q = 1 */
    dpsel_params short_of = base_params(3, 2, 5, 0), monotonic = base_params(3, 2, 6, 1);
    EXPECT_NEW(DPSEL_ERANGE, &short_of, a, b, 2, values, 3, 0, 9);         /* D = 6 */
    EXPECT_NEW(DPSEL_ERANGE, &monotonic, a, b, 2, values, 3, 0, 9);
    EXPECT_NEW(DPSEL_ERANGE, &params, a, b, 2, values, 3, 9, 0);
    EXPECT_NEW(DPSEL_ERANGE, &params, a, b, 2, values, 3, 0, (int64_t)1 << 62);
    /* B = 2^50 with beta = 3/4 (B log2(1/beta) = 0.415 2^50): refused on
     * the public parameters alone, whatever the values (a limit
     * B n <= 2^52 would take 4 values and refuse 5) */
    const uint64_t fine_a[] = { 1 }, fine_b[] = { (uint64_t)1 << 50 };
    dpsel_params fine = base_params(3, 2, ((uint64_t)1 << 51) - 2, 0);
    const int64_t five[] = { 0, 1, 2, 3, 4 };
    for (size_t n = 0; n <= 5; n++) {
        EXPECT_NEW(DPSEL_ERANGE, &fine, fine_a, fine_b, 1, five, n, 0, 9);
    }
    /* q = 10^-15 (B = 10^15) of 5 values, epsilon 4: B n = 5 10^15 > 2^52 is
     * taken, every marginal's decimal decided */
    const uint64_t tiny_a[] = { 1 }, tiny_b[] = { 1000000000000000 };
    uint64_t tiny_d = 0;
    cr_assert_eq(dpsel_quantiles_joint_sensitivity(tiny_a, tiny_b, 1, &tiny_d), DPSEL_OK);
    dpsel_params sharp;
    cr_assert_eq(dpsel_params_from_epsilon(&sharp, "4", tiny_d, 0), DPSEL_OK);
    dpsel_joint_pmf *largest = NULL;
    cr_expect_eq(dpsel_quantiles_joint_pmf_new(&largest, &sharp, tiny_a, tiny_b, 1, five, 5, 0, 9,
                                               NULL, NULL), DPSEL_OK);
    for (size_t r = 0; r < dpsel_joint_pmf_runs(largest); r++) {
        char *tiny = NULL;
        cr_expect_eq(dpsel_joint_pmf_probability(largest, 0, r, &tiny), DPSEL_OK, "run %zu", r);
        dpsel_string_free(tiny);
    }
    dpsel_joint_pmf_free(largest);
    int calls = 0;
    out = sentinel;
    cr_expect_eq(dpsel_quantiles_joint_pmf_new(&out, &params, a, b, 2, values, 3, 0, 9,
                                               stop_at_once, &calls), DPSEL_ECANCELED);
    cr_expect_eq(out, sentinel);
    cr_expect_eq(calls, 1, "asked once, then stopped");
#undef EXPECT_NEW

    dpsel_joint_pmf *pmf = NULL;
    cr_assert_eq(dpsel_quantiles_joint_pmf_new(&pmf, &params, a, b, 2, values, 3, 0, 9, NULL,
                                               NULL), DPSEL_OK);
    size_t runs = dpsel_joint_pmf_runs(pmf);
    cr_expect_eq(runs, 4);
    char *text = (char *)sentinel, *lo = (char *)sentinel, *hi = (char *)sentinel;
    cr_expect_eq(dpsel_joint_pmf_probability(pmf, 2, 0, &text), DPSEL_ERANGE);
    cr_expect_eq(dpsel_joint_pmf_probability(pmf, 0, runs, &text), DPSEL_ERANGE);
    cr_expect_eq(dpsel_joint_pmf_probability(NULL, 0, 0, &text), DPSEL_ENULL);
    cr_expect_eq(dpsel_joint_pmf_probability(pmf, 0, 0, NULL), DPSEL_ENULL);
    cr_expect_eq(dpsel_joint_pmf_rank_error(pmf, 2, &text), DPSEL_ERANGE);
    cr_expect_eq(dpsel_joint_pmf_probability_bounds(pmf, 0, 0, 0, &lo, &hi), DPSEL_ERANGE);
    cr_expect_eq(dpsel_joint_pmf_probability_bounds(pmf, 0, 0, 101, &lo, &hi), DPSEL_ERANGE);
    cr_expect_eq(dpsel_joint_pmf_rank_error_bounds(pmf, 0, 34, NULL, &hi), DPSEL_ENULL);
    cr_expect_eq(text, (char *)sentinel);
    cr_expect_eq(lo, (char *)sentinel);
    cr_expect_eq(hi, (char *)sentinel);
    int64_t first = -7;
    cr_expect_eq(dpsel_joint_pmf_run(pmf, runs, &first, NULL, NULL), DPSEL_ERANGE);
    cr_expect_eq(dpsel_joint_pmf_run(NULL, 0, &first, NULL, NULL), DPSEL_ENULL);
    cr_expect_eq(first, -7);
    cr_expect_eq(dpsel_joint_pmf_runs(NULL), 0);
    cr_expect_eq(dpsel_joint_pmf_quantiles(NULL), 0);
    dpsel_joint_pmf_free(pmf);
    dpsel_joint_pmf_free(NULL);
}

Test(joint_pmf, decimals_and_bounds_agree)
{
    /* the quartiles' case by hand (test quartiles_by_hand): P(k_2 = 1) =
     * 272/273, E |k_2 - 3/2| = 275/546 */
    const uint64_t a[] = { 1, 3 }, b[] = { 4, 4 };
    const int64_t values[] = { 0, 1 };
    dpsel_params params = base_params(1, 1, 6, 0);
    dpsel_joint_pmf *pmf = NULL;
    cr_assert_eq(dpsel_quantiles_joint_pmf_new(&pmf, &params, a, b, 2, values, 2, 0, 1, NULL,
                                               NULL), DPSEL_OK);
    cr_assert_eq(dpsel_joint_pmf_runs(pmf), 2);
    char *text = NULL, *lo = NULL, *hi = NULL;
    cr_assert_eq(dpsel_joint_pmf_probability(pmf, 1, 1, &text), DPSEL_OK);
    cr_expect_str_eq(text, "0.99633699633699634");  /* 272/273 */
    dpsel_string_free(text);
    cr_assert_eq(dpsel_joint_pmf_rank_error(pmf, 1, &text), DPSEL_OK);
    cr_expect_str_eq(text, "0.50366300366300366");  /* 275/546 */
    dpsel_string_free(text);
    cr_assert_eq(dpsel_joint_pmf_rank_error_bounds(pmf, 1, 5, &lo, &hi), DPSEL_OK);
    cr_expect_str_eq(lo, "0.50366");
    cr_expect_str_eq(hi, "0.50367");
    dpsel_string_free(lo);
    dpsel_string_free(hi);
    dpsel_joint_pmf_free(pmf);
}

/* The run of the pmf that holds grid point v (runs in the grid's order). */
static size_t run_of(const dpsel_joint_pmf *pmf, int64_t v)
{
    size_t lo = 0, hi = dpsel_joint_pmf_runs(pmf);
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        int64_t first;
        cr_assert_eq(dpsel_joint_pmf_run(pmf, mid, &first, NULL, NULL), DPSEL_OK);
        if (first <= v) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* 40 values with ties on 0..60, the quantiles a[i] / b[i] (m = 3),
 * epsilon 2: each quantile's run of 20 000 joint releases against its
 * marginal by chi-square, false alarm 1e-6 per quantile (too many values
 * to list the tuples: this ties the sampler and the marginals where the
 * reference cannot) */
static void releases_fit_marginals(const uint64_t *a, const uint64_t *b)
{
    int64_t values[40];
    uint64_t state = 7;
    for (size_t j = 0; j < 40; j++) {
        values[j] = (int64_t)(lcg_next(&state) % 31) * 2;  /* even points: runs of 1 and 2 */
    }
    uint64_t sensitivity = 0;
    cr_assert_eq(dpsel_quantiles_joint_sensitivity(a, b, 3, &sensitivity), DPSEL_OK);
    dpsel_params params;
    cr_assert_eq(dpsel_params_from_epsilon(&params, "2", sensitivity, 0), DPSEL_OK);
    dpsel_joint_pmf *pmf = NULL;
    cr_assert_eq(dpsel_quantiles_joint_pmf_new(&pmf, &params, a, b, 3, values, 40, 0, 60, NULL,
                                               NULL), DPSEL_OK);
    size_t runs = dpsel_joint_pmf_runs(pmf);
    uint64_t *counts = calloc(3 * runs, sizeof *counts);
    cr_assert_not_null(counts);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &params), DPSEL_OK);
    dpsel_rng rng = seeded_rng(41);
    const uint64_t draws = 20000;
    for (uint64_t d = 0; d < draws; d++) {
        int64_t out[3];
        cr_assert_eq(dpsel_quantiles_joint_select(selector, a, b, 3, values, 40, 0, 60, &rng,
                                                  out), DPSEL_OK);
        for (size_t i = 0; i < 3; i++) {
            counts[i * runs + run_of(pmf, out[i])]++;
        }
    }
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    for (size_t i = 0; i < 3; i++) {
        mpq_t *p = malloc(runs * sizeof *p);
        cr_assert_not_null(p);
        for (size_t r = 0; r < runs; r++) {
            dpsel_exact_joint_pmf_bounds(pmf, i, r, lo, hi);
            mpq_init(p[r]);
            mpfr_get_q(p[r], lo);  /* within 1e-30 of the probability */
        }
        char what[32];
        snprintf(what, sizeof what, "quantile %zu", i);
        expect_fit_and_clear(&counts[i * runs], p, runs, draws, what);
        free(p);
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    dpsel_rng_wipe(&rng);
    dpsel_selector_free(selector);
    free(counts);
    dpsel_joint_pmf_free(pmf);
}

Test(joint_pmf, releases_fit_the_marginals)
{
    /* q = 1/4, 1/2, 9/10 (B = 20) */
    const uint64_t a[] = { 1, 1, 9 }, b[] = { 4, 2, 10 };
    releases_fit_marginals(a, b);
}

Test(joint_pmf, releases_fit_the_marginals_past_b_n_2_to_52)
{
    /* q = 1/4, 1/2, 9/10 + 10^-15 (B = 10^15): B n = 4 10^16, which a limit
     * B n <= 2^52 would refuse; B log2(1/beta) = 0.8 */
    const uint64_t a[] = { 1, 1, 900000000000001 }, b[] = { 4, 2, 1000000000000000 };
    releases_fit_marginals(a, b);
}
