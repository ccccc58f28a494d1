/* Privacy, checked exactly: for neighbouring score vectors the exact pmfs
 * differ by at most the factor e^epsilon = (2^y / x)^(k D) on every output
 * (k = 2, or 1 for monotonic moves), and the bound is tight enough to mean
 * something (some pair comes within a factor 2 of it).  And the floating-
 * point failure modes are absent: huge scores, gaps where naive weights
 * underflow to 0. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "support.h"

/* e^epsilon of params as an exact rational: (2^y / x)^(k D). */
static void exp_epsilon(const dpsel_params *p, mpq_t out)
{
    unsigned long power = (unsigned long)p->sensitivity * (p->monotonic ? 1 : 2);
    mpz_ui_pow_ui(mpq_numref(out), 2, p->y * power);
    mpz_ui_pow_ui(mpq_denref(out), p->x, power);
    mpq_canonicalize(out);
}

/* Largest ratio P(r; a) / P(r; b) over r, both directions. */
static void max_ratio(const dpsel_params *p, dpsel_mechanism m, const int64_t *a,
                      const int64_t *b, size_t n, mpq_t out)
{
    dpsel_pmf *pa = NULL, *pb = NULL;
    mpq_t x, y, ratio;
    mpq_inits(x, y, ratio, (mpq_ptr)0);
    cr_assert_eq(dpsel_pmf_new(&pa, p, m, a, n), DPSEL_OK);
    cr_assert_eq(dpsel_pmf_new(&pb, p, m, b, n), DPSEL_OK);
    mpq_set_ui(out, 0, 1);
    for (size_t r = 0; r < n; r++) {
        pmf_rational(pa, r, x);
        pmf_rational(pb, r, y);
        cr_assert(mpq_sgn(x) > 0 && mpq_sgn(y) > 0, "an output has probability 0");
        mpq_div(ratio, x, y);
        if (mpq_cmp(ratio, out) > 0) {
            mpq_set(out, ratio);
        }
        mpq_inv(ratio, ratio);
        if (mpq_cmp(ratio, out) > 0) {
            mpq_set(out, ratio);
        }
    }
    mpq_clears(x, y, ratio, (mpq_ptr)0);
    dpsel_pmf_free(pa);
    dpsel_pmf_free(pb);
}

/* Random neighbours: every score moved by at most D, in either direction
 * (or, for monotonic, all in one direction). */
static void neighbour(const int64_t *a, int64_t *b, size_t n, uint64_t d, int monotonic,
                      unsigned *state)
{
    int direction = rand_r(state) % 2 ? 1 : -1;
    for (size_t r = 0; r < n; r++) {
        int64_t move = (int64_t)(rand_r(state) % (d + 1));
        if (!monotonic && rand_r(state) % 2) {
            move = -move;
        }
        b[r] = a[r] + (monotonic ? direction * move : move);
    }
}

Test(privacy, exact_ratios_of_neighbours_stay_within_e_to_the_epsilon)
{
    const char *epsilons[] = { "0.5", "1", "3" };
    const uint64_t sensitivities[] = { 1, 3 };
    unsigned state = 12345;
    for (size_t e = 0; e < 3; e++) {
        for (size_t s = 0; s < 2; s++) {
            for (int monotonic = 0; monotonic <= 1; monotonic++) {
                dpsel_params p;
                cr_assert_eq(dpsel_params_from_epsilon(&p, epsilons[e], sensitivities[s], monotonic),
                             DPSEL_OK);
                mpq_t bound, worst, ratio, half;
                mpq_inits(bound, worst, ratio, half, (mpq_ptr)0);
                exp_epsilon(&p, bound);
                for (int m = 0; m < 2; m++) {
                    mpq_set_ui(worst, 0, 1);
                    for (int trial = 0; trial < 40; trial++) {
                        int64_t a[5], b[5];
                        size_t n = 2 + (size_t)(trial % 4);
                        for (size_t r = 0; r < n; r++) {
                            a[r] = rand_r(&state) % 7 - 3;
                        }
                        neighbour(a, b, n, sensitivities[s], monotonic, &state);
                        max_ratio(&p, m ? DPSEL_EM : DPSEL_PF, a, b, n, ratio);
                        cr_expect(mpq_cmp(ratio, bound) <= 0,
                                  "eps %s D %lu monotonic %d mech %d: ratio %.6g > e^eps %.6g",
                                  epsilons[e], sensitivities[s], monotonic, m,
                                  mpq_get_d(ratio), mpq_get_d(bound));
                        if (mpq_cmp(ratio, worst) > 0) {
                            mpq_set(worst, ratio);
                        }
                    }
                    /* the bound is not vacuous: some neighbour pair gets close */
                    mpq_set_ui(half, 1, 2);
                    mpq_mul(half, half, bound);
                    cr_expect(mpq_cmp(worst, half) >= 0 || mpq_cmp_ui(bound, 1000, 1) > 0,
                              "eps %s: largest ratio %.6g far below e^eps %.6g", epsilons[e],
                              mpq_get_d(worst), mpq_get_d(bound));
                }
                mpq_clears(bound, worst, ratio, half, (mpq_ptr)0);
            }
        }
    }
}

/* Where double-precision exp() overflows (scores ~1e4 to 1e18) or underflows
 * (gaps ~2000 at eps 1), dpsel's pmf stays exact, positive and sums to 1, and
 * the neighbour bound still holds on candidates a naive implementation gives
 * probability 0. */
Test(privacy, no_floating_point_failure_modes)
{
    const int64_t huge[4] = { 1000000000000000000, 999999999999999999, 10000, -1000000000000000000 };
    const int64_t moved[4] = { 999999999999999999, 1000000000000000000, 10001, -999999999999999999 };
    const int64_t far[3] = { 0, -2000, -5000 };
    const int64_t far_moved[3] = { -1, -1999, -4999 };
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    mpq_t bound, ratio, total, prob;
    mpq_inits(bound, ratio, total, prob, (mpq_ptr)0);
    exp_epsilon(&p, bound);
    for (int m = 0; m < 2; m++) {
        dpsel_mechanism mech = m ? DPSEL_EM : DPSEL_PF;
        max_ratio(&p, mech, huge, moved, 4, ratio);
        cr_expect(mpq_cmp(ratio, bound) <= 0);
        max_ratio(&p, mech, far, far_moved, 3, ratio);
        cr_expect(mpq_cmp(ratio, bound) <= 0);
        dpsel_pmf *pmf = NULL;
        cr_assert_eq(dpsel_pmf_new(&pmf, &p, mech, huge, 4), DPSEL_OK);
        mpq_set_ui(total, 0, 1);
        for (size_t r = 0; r < 4; r++) {
            pmf_rational(pmf, r, prob);
            cr_expect(mpq_sgn(prob) > 0);
            mpq_add(total, total, prob);
        }
        cr_expect(mpq_cmp_ui(total, 1, 1) == 0);
        dpsel_pmf_free(pmf);
    }
    mpq_clears(bound, ratio, total, prob, (mpq_ptr)0);
}
