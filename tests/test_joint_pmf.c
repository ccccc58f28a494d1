/* SPDX-License-Identifier: ISC */
/*
 * JointExp's exact distribution (spec/quantiles.md §8):
 *   - the reference that lists every tuple (joint_reference.c) against
 *     cases computed by hand: the joint pmf, the marginals, the expected
 *     rank errors and the sensitivity.
 */
#include <criterion/criterion.h>
#include <gmp.h>

#include "joint_reference.h"

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
