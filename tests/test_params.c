/* SPDX-License-Identifier: ISC */
/* Privacy parameters: the base chosen for a requested epsilon is the one
 * with the largest realised epsilon not above the request (checked at high
 * precision, independently of dpsel's search); the reported epsilon is an
 * upper bound; the default gap cap is the least C with beta^C <= 2^-64. */
#include <criterion/criterion.h>
#include <mpfr.h>
#include <string.h>

#include "support.h"

#define CHECK_PREC 2000

/* k D ln(2^64 / X) at CHECK_PREC bits (error far below what is compared). */
static void realised_epsilon(uint64_t X, uint64_t sensitivity, int monotonic, mpfr_t out)
{
    mpfr_t t;
    mpfr_init2(t, CHECK_PREC);
    mpfr_set_ui_2exp(out, 1, 64, MPFR_RNDN);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    mpfr_add_ui(t, t, X >> 1, MPFR_RNDN);
    mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
    mpfr_add_ui(t, t, X & 1u, MPFR_RNDN);     /* t = X exactly */
    mpfr_div(out, out, t, MPFR_RNDN);
    mpfr_log(out, out, MPFR_RNDN);
    mpfr_mul_ui(out, out, monotonic ? 1 : 2, MPFR_RNDN);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    mpfr_add_ui(t, t, sensitivity, MPFR_RNDN);
    mpfr_mul(out, out, t, MPFR_RNDN);
    mpfr_clear(t);
}

static void check_choice(const char *epsilon, uint64_t sensitivity, int monotonic)
{
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, epsilon, sensitivity, monotonic), DPSEL_OK,
                 "epsilon %s", epsilon);
    cr_assert_eq(p.x & 1u, 1u, "base not in lowest terms");
    uint64_t X = p.x << (64 - p.y);          /* the same base over 2^64 */
    mpfr_t requested, got, next;
    mpfr_inits2(CHECK_PREC, requested, got, next, (mpfr_ptr)0);
    mpfr_set_str(requested, epsilon, 10, MPFR_RNDN);
    realised_epsilon(X, sensitivity, monotonic, got);
    cr_expect(mpfr_cmp(got, requested) <= 0, "epsilon %s: realised above the request", epsilon);
    if (X > 1) {
        realised_epsilon(X - 1, sensitivity, monotonic, next);
        cr_expect(mpfr_cmp(next, requested) > 0, "epsilon %s: a larger epsilon fits", epsilon);
    }
    /* the reported epsilon is an upper bound within 1e-15 relative */
    char text[64];
    cr_assert_eq(dpsel_params_epsilon(&p, 17, text, sizeof text), DPSEL_OK);
    mpfr_set_str(next, text, 10, MPFR_RNDN);
    cr_expect(mpfr_cmp(next, got) >= 0, "reported %s below the realised epsilon", text);
    mpfr_sub(next, next, got, MPFR_RNDN);
    mpfr_div(next, next, got, MPFR_RNDN);
    cr_expect(mpfr_cmp_d(next, 1e-15) < 0, "reported %s too loose", text);
    mpfr_clears(requested, got, next, (mpfr_ptr)0);
}

Test(params, epsilon_choice_is_the_largest_not_above_the_request)
{
    const char *epsilons[] = { "1", "0.1", "0.01", "2.5", "10", "0.001", "1e-6", "3.14159",
                               "0.6931471805599453", "1e-15", "40" };
    for (size_t i = 0; i < sizeof epsilons / sizeof *epsilons; i++) {
        check_choice(epsilons[i], 1, 0);
        check_choice(epsilons[i], 1, 1);
        check_choice(epsilons[i], 3, 0);
        check_choice(epsilons[i], 1000, 1);
    }
}

Test(params, huge_epsilon_takes_the_smallest_base)
{
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1e9", 1, 0), DPSEL_OK);
    cr_expect_eq(p.x, 1);
    cr_expect_eq(p.y, 64);
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1e999999999", 1, 0), DPSEL_OK);
    cr_expect_eq(p.x, 1);
}

Test(params, bad_epsilons)
{
    dpsel_params p = base_params(1, 1, 1, 0);
    const dpsel_params before = p;
    const char *bad[] = { "0", "0.0", "0e5", "-1", "abc", "nan", "inf", "", "1e-30", "1e-999999999" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_expect_eq(dpsel_params_from_epsilon(&p, bad[i], 1, 0), DPSEL_EEPSILON, "%s", bad[i]);
    }
    cr_expect(memcmp(&p, &before, sizeof p) == 0, "output changed on failure");
    cr_expect_eq(dpsel_params_from_epsilon(NULL, "1", 1, 0), DPSEL_ENULL);
    cr_expect_eq(dpsel_params_from_epsilon(&p, NULL, 1, 0), DPSEL_ENULL);
    cr_expect_eq(dpsel_params_from_epsilon(&p, "1", 0, 0), DPSEL_ERANGE);
    cr_expect_eq(dpsel_params_from_epsilon(&p, "1", 1, 2), DPSEL_ERANGE);
}

Test(params, explicit_bases)
{
    dpsel_params p = base_params(12, 5, 2, 1);   /* 12/32 = 3/8 */
    cr_expect_eq(p.x, 3);
    cr_expect_eq(p.y, 3);
    cr_expect_eq(p.sensitivity, 2);
    cr_expect_eq(p.monotonic, 1);
    cr_expect_eq(dpsel_params_from_base(&p, 0, 5, 1, 0), DPSEL_ERANGE);
    cr_expect_eq(dpsel_params_from_base(&p, 32, 5, 1, 0), DPSEL_ERANGE);
    cr_expect_eq(dpsel_params_from_base(&p, 1, 0, 1, 0), DPSEL_ERANGE);
    cr_expect_eq(dpsel_params_from_base(&p, 1, 65, 1, 0), DPSEL_ERANGE);
    cr_expect_eq(dpsel_params_from_base(&p, 1, 3, 0, 0), DPSEL_ERANGE);
    cr_expect_eq(dpsel_params_from_base(NULL, 1, 3, 1, 0), DPSEL_ENULL);
    cr_expect_eq(dpsel_params_set_gap_cap(&p, 0), DPSEL_ERANGE);
    cr_expect_eq(dpsel_params_set_gap_cap(&p, DPSEL_GAP_CAP_MAX + 1), DPSEL_ERANGE);
    cr_expect_eq(dpsel_params_set_gap_cap(&p, 17), DPSEL_OK);
    cr_expect_eq(p.gap_cap, 17);
}

Test(params, epsilon_text)
{
    char text[64];
    dpsel_params p = base_params(1, 1, 1, 1);      /* epsilon = ln 2 */
    cr_assert_eq(dpsel_params_epsilon(&p, 17, text, sizeof text), DPSEL_OK);
    cr_expect_str_eq(text, "0.69314718055994531");
    p = base_params(1, 1, 1, 0);                   /* 2 ln 2 = 1.386294361119890618... */
    cr_assert_eq(dpsel_params_epsilon(&p, 17, text, sizeof text), DPSEL_OK);
    cr_expect_str_eq(text, "1.3862943611198907");
    cr_expect_eq(dpsel_params_epsilon(&p, 17, text, 20), DPSEL_ERANGE);
    cr_expect_eq(dpsel_params_epsilon(&p, 0, text, sizeof text), DPSEL_ERANGE);
    cr_expect_eq(dpsel_params_epsilon(NULL, 17, text, sizeof text), DPSEL_ENULL);
}

/* beta^C <= 2^-64 < beta^(C-1), checked with exact integers:
 * x^C 2^64 <= 2^(y C). */
static int weight_at_most_2_to_minus_64(uint64_t x, unsigned y, uint64_t c)
{
    mpz_t lhs, rhs;
    mpz_inits(lhs, rhs, (mpz_ptr)0);
    mpz_ui_pow_ui(lhs, x, c);
    mpz_mul_2exp(lhs, lhs, 64);
    mpz_ui_pow_ui(rhs, 2, y * c);
    int result = mpz_cmp(lhs, rhs) <= 0;
    mpz_clears(lhs, rhs, (mpz_ptr)0);
    return result;
}

Test(params, default_gap_cap_is_the_least_with_weight_below_2_to_minus_64)
{
    const char *epsilons[] = { "1", "0.1", "5", "0.03", "44" };
    for (size_t i = 0; i < sizeof epsilons / sizeof *epsilons; i++) {
        dpsel_params p;
        cr_assert_eq(dpsel_params_from_epsilon(&p, epsilons[i], 1, 0), DPSEL_OK);
        cr_expect(weight_at_most_2_to_minus_64(p.x, p.y, p.gap_cap), "%s", epsilons[i]);
        cr_expect(p.gap_cap == 1 || !weight_at_most_2_to_minus_64(p.x, p.y, p.gap_cap - 1),
                  "%s: cap not the least", epsilons[i]);
    }
    cr_expect_eq(base_params(1, 1, 1, 0).gap_cap, 64);
    cr_expect_eq(base_params(1, 5, 1, 0).gap_cap, 13);
    cr_expect_eq(base_params(1, 64, 1, 0).gap_cap, 1);
    /* beta so close to 1 that the cap reaches its maximum */
    cr_expect_eq(base_params(UINT64_MAX, 64, 1, 0).gap_cap, DPSEL_GAP_CAP_MAX);
}
