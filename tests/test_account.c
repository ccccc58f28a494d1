/* SPDX-License-Identifier: ISC */
/*
 * The privacy accountant (dpsel_accountant_*, spec/accounting.md), against
 * independent computations:
 *   - pure epsilon and rho exactly, on random releases with decimal
 *     epsilons; one release counted n times is n releases (the pitfall of
 *     an accountant that charges a composed event once);
 *   - zCDP's epsilon at delta never below the Gaussian mechanism's exact
 *     curve for the same rho (no conversion from rho can beat it) and never
 *     above Bun & Steinke's rho + 2 sqrt(rho ln(1/delta));
 *   - the bounded-range composition against its worst-case pair, the
 *     k-fold generalised randomised response (GRR) over a grid of t: its
 *     delta at the stated epsilon is at most delta, and a little below that
 *     epsilon it passes delta for some t (tight);
 *   - the eps-DP composition likewise against k-fold randomised response;
 *   - known points (deltas computed independently at 50 digits) and
 *     the releases' parameters from dpsel_params;
 *   - every figure a decimal (or "inf"), never negative, from tiny to huge
 *     epsilons and deltas up to 0.9; the text of MPFR's special values;
 *   - the bounded range's composition named as the bound computed;
 *   - groups (§8): the account of K eps per release, against releases
 *     written with K eps; the theorem's (K eps, K e^((K-1) eps) delta)
 *     against an exact product and a 512-bit one; the bad arguments.
 * The reference computations here use MPFR at 512 bits in round to nearest
 * and binomials in GMP integers: coded apart from src/exact/account.c.
 */
#include <criterion/criterion.h>
#include <mpfr.h>
#include <stdio.h>
#include <string.h>

#include "exact/exact.h"
#include "support.h"

#define REF 512

static dpsel_account account_of(const char *const *releases, const int *mechanisms,
                                const uint64_t *counts, size_t n, const char *delta,
                                dpsel_composition composition)
{
    dpsel_accountant *a = NULL;
    cr_assert_eq(dpsel_accountant_new(&a), DPSEL_OK);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(dpsel_accountant_add(a, (dpsel_mechanism)mechanisms[i], releases[i],
                                          counts[i]), DPSEL_OK, "%s", releases[i]);
    }
    dpsel_account out;
    cr_assert_eq(dpsel_accountant_report(a, delta, composition, &out), DPSEL_OK);
    dpsel_accountant_free(a);
    return out;
}

/* One release kind k times: em or pf, epsilon eps. */
static dpsel_account homogeneous(int mechanism, const char *eps, uint64_t k, const char *delta,
                                 dpsel_composition composition)
{
    return account_of(&eps, &mechanism, &k, 1, delta, composition);
}

static void set_decimal(mpfr_t out, const char *text)
{
    mpfr_strtofr(out, text, NULL, 10, MPFR_RNDN);
}

/* The text n / 1000 written as a decimal with three fraction digits. */
static void thousandths(uint64_t n, char *out, size_t size)
{
    snprintf(out, size, "%lu.%03lu", (unsigned long)(n / 1000), (unsigned long)(n % 1000));
}

Test(account, pure_epsilon_and_rho_exactly)
{
    uint64_t state = 42;
    for (unsigned trial = 0; trial < 200; trial++) {
        enum { RELEASES = 4 };
        char texts[RELEASES][32];
        const char *releases[RELEASES];
        int mechanisms[RELEASES];
        uint64_t counts[RELEASES];
        uint64_t pure = 0, rho_em = 0, rho_pf = 0;  /* thousandths, millionths */
        for (size_t i = 0; i < RELEASES; i++) {
            state = state * 6364136223846793005u + 1442695040888963407u;
            uint64_t e = 1 + (state >> 33) % 3000;
            mechanisms[i] = (int)((state >> 20) % 2);
            counts[i] = 1 + (state >> 40) % 50;
            thousandths(e, texts[i], sizeof texts[i]);
            releases[i] = texts[i];
            pure += counts[i] * e;
            *(mechanisms[i] == DPSEL_EM ? &rho_em : &rho_pf) += counts[i] * e * e;
        }
        dpsel_account a = account_of(releases, mechanisms, counts, RELEASES, NULL, DPSEL_ADAPTIVE);
        /* pure / 1000 and rho = rho_em / 8e6 + rho_pf / 2e6 = (rho_em + 4 rho_pf) / 8e6,
         * decimals of at most 17 digits: compared as numbers read from text */
        mpq_t expected;
        mpq_init(expected);
        mpfr_t value, check;
        mpfr_inits2(REF, value, check, (mpfr_ptr)0);
        char text[64];
        thousandths(pure, text, sizeof text);
        set_decimal(value, a.pure);
        set_decimal(check, text);
        cr_expect(mpfr_equal_p(value, check), "trial %u: pure %s, expected %s", trial, a.pure, text);
        mpq_set_ui(expected, (unsigned long)(rho_em + 4 * rho_pf), 8000000);
        mpq_canonicalize(expected);
        char rho[64];
        /* 17 significant digits of a value with at most 9 fraction digits
         * below 10^4 are the value itself */
        mpfr_set_q(value, expected, MPFR_RNDN);
        mpfr_snprintf(rho, sizeof rho, "%.9Rf", value);
        set_decimal(value, a.rho);
        set_decimal(check, rho);
        cr_expect(mpfr_equal_p(value, check), "trial %u: rho %s, expected %s", trial, a.rho, rho);
        cr_expect_str_eq(a.best_method, "pure");
        cr_expect_str_eq(a.best, a.pure);
        cr_expect_str_eq(a.zcdp, "");
        mpfr_clears(value, check, (mpfr_ptr)0);
        mpq_clear(expected);
    }
}

/* n releases counted once each state what one release counted n times does. */
Test(account, one_release_counted_n_times_is_n_releases)
{
    dpsel_accountant *once = NULL, *each = NULL;
    cr_assert_eq(dpsel_accountant_new(&once), DPSEL_OK);
    cr_assert_eq(dpsel_accountant_new(&each), DPSEL_OK);
    cr_assert_eq(dpsel_accountant_add(once, DPSEL_EM, "0.5", 100), DPSEL_OK);
    for (int i = 0; i < 100; i++) {
        cr_assert_eq(dpsel_accountant_add(each, DPSEL_EM, "0.5", 1), DPSEL_OK);
    }
    dpsel_account a, b;
    cr_assert_eq(dpsel_accountant_report(once, "1e-6", DPSEL_ADAPTIVE, &a), DPSEL_OK);
    cr_assert_eq(dpsel_accountant_report(each, "1e-6", DPSEL_ADAPTIVE, &b), DPSEL_OK);
    cr_expect(memcmp(&a, &b, sizeof a) == 0);
    cr_expect_str_eq(a.pure, "50.000000000000000");
    cr_expect_str_eq(a.rho, "3.1250000000000000");
    dpsel_accountant_free(once);
    dpsel_accountant_free(each);
}

/* The Gaussian mechanism of the same rho: delta(eps) = Phi(mu/2 - eps/mu)
 * - e^eps Phi(-mu/2 - eps/mu), mu = sqrt(2 rho) (Balle & Wang 2018);
 * Phi(x) = erfc(-x / sqrt 2) / 2. */
static void gaussian_delta(const mpfr_t rho, const mpfr_t eps, mpfr_t out)
{
    mpfr_t mu, a, b, root2;
    mpfr_inits2(REF, mu, a, b, root2, (mpfr_ptr)0);
    mpfr_mul_2ui(mu, rho, 1, MPFR_RNDN);
    mpfr_sqrt(mu, mu, MPFR_RNDN);
    mpfr_sqrt_ui(root2, 2, MPFR_RNDN);
    mpfr_div(a, eps, mu, MPFR_RNDN);
    mpfr_div_2ui(b, mu, 1, MPFR_RNDN);
    mpfr_sub(out, b, a, MPFR_RNDN);                 /* mu/2 - eps/mu */
    mpfr_neg(out, out, MPFR_RNDN);
    mpfr_div(out, out, root2, MPFR_RNDN);
    mpfr_erfc(out, out, MPFR_RNDN);
    mpfr_div_2ui(out, out, 1, MPFR_RNDN);
    mpfr_add(a, b, a, MPFR_RNDN);                   /* mu/2 + eps/mu = -(-mu/2 - eps/mu) */
    mpfr_div(a, a, root2, MPFR_RNDN);
    mpfr_erfc(a, a, MPFR_RNDN);
    mpfr_div_2ui(a, a, 1, MPFR_RNDN);
    mpfr_exp(b, eps, MPFR_RNDN);
    mpfr_mul(a, a, b, MPFR_RNDN);
    mpfr_sub(out, out, a, MPFR_RNDN);
    mpfr_clears(mu, a, b, root2, (mpfr_ptr)0);
}

Test(account, zcdp_between_the_gaussian_curve_and_bun_steinke)
{
    static const struct {
        int mechanism;
        const char *eps;
        uint64_t k;
        const char *delta;
    } cases[] = {
        { DPSEL_EM, "0.1", 10, "1e-6" }, { DPSEL_EM, "0.1", 100, "1e-6" },
        { DPSEL_EM, "1", 10, "1e-6" }, { DPSEL_PF, "0.5", 50, "1e-5" },
        { DPSEL_PF, "0.01", 20000, "1e-9" }, { DPSEL_EM, "2", 3, "0.01" },
        { DPSEL_EM, "0.001", 1000000, "1e-12" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        dpsel_account a = homogeneous(cases[i].mechanism, cases[i].eps, cases[i].k, cases[i].delta,
                                      DPSEL_ADAPTIVE);
        mpfr_t rho, eps, delta, value, bound;
        mpfr_inits2(REF, rho, eps, delta, value, bound, (mpfr_ptr)0);
        set_decimal(rho, a.rho);
        set_decimal(eps, a.zcdp);
        set_decimal(delta, cases[i].delta);
        gaussian_delta(rho, eps, value);
        cr_expect(mpfr_lessequal_p(value, delta), "case %zu: zcdp %s beats the Gaussian curve",
                  i, a.zcdp);
        /* rho + 2 sqrt(rho ln(1/delta)) */
        mpfr_log(bound, delta, MPFR_RNDN);
        mpfr_neg(bound, bound, MPFR_RNDN);
        mpfr_mul(bound, bound, rho, MPFR_RNDN);
        mpfr_sqrt(bound, bound, MPFR_RNDN);
        mpfr_mul_2ui(bound, bound, 1, MPFR_RNDN);
        mpfr_add(bound, bound, rho, MPFR_RNDN);
        cr_expect(mpfr_lessequal_p(eps, bound), "case %zu: zcdp %s looser than Bun-Steinke", i,
                  a.zcdp);
        mpfr_clears(rho, eps, delta, value, bound, (mpfr_ptr)0);
    }
}

/* sum over outcomes of [P - e^eps' Q]_+ for the k-fold product of a pair
 * of two-point laws, P = (p, 1-p), Q = (q, 1-q): the i-th term has i
 * outcomes of the first kind.  Binomials exact in GMP. */
static void product_delta(uint64_t k, const mpfr_t p, const mpfr_t q, const mpfr_t eps_g,
                          mpfr_t out)
{
    mpfr_t a, b, c, term, grow;
    mpz_t binomial;
    mpfr_inits2(REF, a, b, c, term, grow, (mpfr_ptr)0);
    mpz_init(binomial);
    mpfr_exp(grow, eps_g, MPFR_RNDN);
    mpfr_set_zero(out, 1);
    for (uint64_t i = 0; i <= k; i++) {
        mpz_bin_uiui(binomial, (unsigned long)k, (unsigned long)i);
        mpfr_pow_ui(a, p, (unsigned long)i, MPFR_RNDN);
        mpfr_ui_sub(b, 1, p, MPFR_RNDN);
        mpfr_pow_ui(b, b, (unsigned long)(k - i), MPFR_RNDN);
        mpfr_mul(a, a, b, MPFR_RNDN);
        mpfr_pow_ui(b, q, (unsigned long)i, MPFR_RNDN);
        mpfr_ui_sub(c, 1, q, MPFR_RNDN);
        mpfr_pow_ui(c, c, (unsigned long)(k - i), MPFR_RNDN);
        mpfr_mul(b, b, c, MPFR_RNDN);
        mpfr_mul(b, b, grow, MPFR_RNDN);
        mpfr_sub(term, a, b, MPFR_RNDN);
        if (mpfr_sgn(term) > 0) {
            mpfr_mul_z(term, term, binomial, MPFR_RNDN);
            mpfr_add(out, out, term, MPFR_RNDN);
        }
    }
    mpz_clear(binomial);
    mpfr_clears(a, b, c, term, grow, (mpfr_ptr)0);
}

/* The worst case of one eps-bounded-range release at t in [0, eps]: P(A)
 * = (1 - e^(t - eps)) / (1 - e^-eps), Q(A) = (e^-t - e^-eps) / (1 - e^-eps). */
static void grr_pair(const mpfr_t eps, const mpfr_t t, mpfr_t p, mpfr_t q)
{
    mpfr_t scale, x;
    mpfr_inits2(REF, scale, x, (mpfr_ptr)0);
    mpfr_neg(x, eps, MPFR_RNDN);
    mpfr_exp(x, x, MPFR_RNDN);
    mpfr_ui_sub(scale, 1, x, MPFR_RNDN);
    mpfr_sub(p, t, eps, MPFR_RNDN);
    mpfr_exp(p, p, MPFR_RNDN);
    mpfr_ui_sub(p, 1, p, MPFR_RNDN);
    mpfr_div(p, p, scale, MPFR_RNDN);
    mpfr_neg(q, t, MPFR_RNDN);
    mpfr_exp(q, q, MPFR_RNDN);
    mpfr_sub(q, q, x, MPFR_RNDN);
    mpfr_div(q, q, scale, MPFR_RNDN);
    mpfr_clears(scale, x, (mpfr_ptr)0);
}

static void grr_at(uint64_t k, const mpfr_t eps, const mpfr_t eps_g, const mpfr_t t, mpfr_t out)
{
    mpfr_t p, q, value;
    mpfr_inits2(REF, p, q, value, (mpfr_ptr)0);
    if (mpfr_sgn(t) > 0 && mpfr_less_p(t, eps)) {
        grr_pair(eps, t, p, q);
        product_delta(k, p, q, eps_g, value);
        mpfr_max(out, out, value, MPFR_RNDN);
    }
    mpfr_clears(p, q, value, (mpfr_ptr)0);
}

/* The largest k-fold GRR delta at eps_g over t = eps j / steps, and the
 * stationary points (eps_g + (l + 1) eps) / (k + 1) of spec §5. */
static void grr_worst(uint64_t k, const mpfr_t eps, const mpfr_t eps_g, unsigned steps,
                      mpfr_t out)
{
    mpfr_t t;
    mpfr_init2(t, REF);
    mpfr_set_zero(out, 1);
    for (unsigned j = 1; j < steps; j++) {
        mpfr_mul_ui(t, eps, j, MPFR_RNDN);
        mpfr_div_ui(t, t, steps, MPFR_RNDN);
        grr_at(k, eps, eps_g, t, out);
    }
    for (uint64_t l = 0; l < k; l++) {
        mpfr_mul_ui(t, eps, (unsigned long)(l + 1), MPFR_RNDN);
        mpfr_add(t, t, eps_g, MPFR_RNDN);
        mpfr_div_ui(t, t, (unsigned long)(k + 1), MPFR_RNDN);
        grr_at(k, eps, eps_g, t, out);
    }
    mpfr_clear(t);
}

/* k-fold randomised response: P = (e^eps, 1) / (1 + e^eps), Q reversed. */
static void rr_delta(uint64_t k, const mpfr_t eps, const mpfr_t eps_g, mpfr_t out)
{
    mpfr_t p, q;
    mpfr_inits2(REF, p, q, (mpfr_ptr)0);
    mpfr_neg(q, eps, MPFR_RNDN);
    mpfr_exp(q, q, MPFR_RNDN);
    mpfr_add_ui(q, q, 1, MPFR_RNDN);
    mpfr_ui_div(p, 1, q, MPFR_RNDN);               /* e^eps / (1 + e^eps) */
    mpfr_ui_sub(q, 1, p, MPFR_RNDN);
    product_delta(k, p, q, eps_g, out);
    mpfr_clears(p, q, (mpfr_ptr)0);
}

typedef struct {
    const char *eps;
    uint64_t k;
    const char *delta;
} composition_case;

static const composition_case compositions[] = {
    { "0.1", 10, "1e-6" }, { "1", 2, "0.05" }, { "0.5", 20, "1e-5" }, { "1", 10, "1e-6" },
    { "0.05", 200, "1e-6" }, { "2", 5, "0.001" },
};

/* The stated epsilon holds against the worst case, and 1e-9 relative below
 * it the worst case passes delta. */
static void check_against_worst(const char *what, size_t i, const char *stated, uint64_t k,
                                const char *eps_text, const char *delta_text, int grr)
{
    mpfr_t eps, eps_g, below, delta, value;
    mpfr_inits2(REF, eps, eps_g, below, delta, value, (mpfr_ptr)0);
    set_decimal(eps, eps_text);
    set_decimal(eps_g, stated);
    set_decimal(delta, delta_text);
    if (grr) {
        grr_worst(k, eps, eps_g, 400, value);
    } else {
        rr_delta(k, eps, eps_g, value);
    }
    cr_expect(mpfr_lessequal_p(value, delta), "%s case %zu: delta %g at %s", what, i,
              mpfr_get_d(value, MPFR_RNDN), stated);
    mpfr_mul_d(below, eps_g, 1 - 1e-9, MPFR_RNDN);
    if (grr) {
        grr_worst(k, eps, below, 400, value);
    } else {
        rr_delta(k, eps, below, value);
    }
    cr_expect(mpfr_greater_p(value, delta), "%s case %zu: not tight at %s (delta %g)", what, i,
              stated, mpfr_get_d(value, MPFR_RNDN));
    mpfr_clears(eps, eps_g, below, delta, value, (mpfr_ptr)0);
}

Test(account, bounded_range_against_its_worst_case_pair, .timeout = 300)
{
    for (size_t i = 0; i < sizeof compositions / sizeof *compositions; i++) {
        const composition_case *c = &compositions[i];
        dpsel_account a = homogeneous(DPSEL_EM, c->eps, c->k, c->delta, DPSEL_NONADAPTIVE);
        check_against_worst("bounded range", i, a.bounded_range, c->k, c->eps, c->delta, 1);
    }
}

Test(account, dp_optimal_against_k_fold_randomised_response)
{
    for (size_t i = 0; i < sizeof compositions / sizeof *compositions; i++) {
        const composition_case *c = &compositions[i];
        dpsel_account a = homogeneous(DPSEL_PF, c->eps, c->k, c->delta, DPSEL_ADAPTIVE);
        check_against_worst("dp-optimal", i, a.dp_optimal, c->k, c->eps, c->delta, 0);
        cr_expect_str_eq(a.bounded_range, "", "PF is no bounded-range mechanism");
    }
}

/* Deltas computed apart (50 digits): at them, the stated epsilon is the
 * point's within 1e-12. */
Test(account, known_points)
{
    static const struct {
        int mechanism;
        dpsel_composition composition;
        const char *eps, *delta;
        uint64_t k;
        double expected;
    } points[] = {
        { DPSEL_PF, DPSEL_ADAPTIVE, "0.1", "0.00992962691739", 10, 0.5 },
        { DPSEL_EM, DPSEL_NONADAPTIVE, "0.1", "3.99781340526e-5", 10, 0.5 },
        { DPSEL_EM, DPSEL_NONADAPTIVE, "1", "0.0570053290285", 2, 1.0 },
        { DPSEL_EM, DPSEL_NONADAPTIVE, "1", "0.258475966411", 2, 0.1 },
    };
    for (size_t i = 0; i < sizeof points / sizeof *points; i++) {
        dpsel_account a = homogeneous(points[i].mechanism, points[i].eps, points[i].k,
                                      points[i].delta, points[i].composition);
        const char *stated = points[i].mechanism == DPSEL_PF ? a.dp_optimal : a.bounded_range;
        double value = strtod(stated, NULL);
        cr_expect(value >= points[i].expected * (1 - 1e-10) && value <= points[i].expected * (1 + 1e-10),
                  "point %zu: %s", i, stated);
    }
}

/* Adaptively, the bounded range is sum KL* + sqrt(sum eps^2 ln(1/delta) / 2),
 * KL*(eps) = x - 1 - ln x, x = eps / (e^eps - 1); never below the
 * non-adaptive optimum; and past the limits the optimal figures go. */
Test(account, adaptive_bound_and_limits)
{
    dpsel_account adaptive = homogeneous(DPSEL_EM, "0.1", 10, "1e-6", DPSEL_ADAPTIVE);
    dpsel_account batch = homogeneous(DPSEL_EM, "0.1", 10, "1e-6", DPSEL_NONADAPTIVE);
    mpfr_t eps, x, ln, expected, got;
    mpfr_inits2(REF, eps, x, ln, expected, got, (mpfr_ptr)0);
    set_decimal(eps, "0.1");
    mpfr_expm1(x, eps, MPFR_RNDN);
    mpfr_div(x, eps, x, MPFR_RNDN);
    mpfr_log(ln, x, MPFR_RNDN);
    mpfr_sub_ui(expected, x, 1, MPFR_RNDN);
    mpfr_sub(expected, expected, ln, MPFR_RNDN);
    mpfr_mul_ui(expected, expected, 10, MPFR_RNDN);
    set_decimal(x, "0.05");                         /* sum eps^2 / 2 */
    mpfr_set_ui(ln, 1000000, MPFR_RNDN);
    mpfr_log(ln, ln, MPFR_RNDN);
    mpfr_mul(x, x, ln, MPFR_RNDN);
    mpfr_sqrt(x, x, MPFR_RNDN);
    mpfr_add(expected, expected, x, MPFR_RNDN);
    set_decimal(got, adaptive.bounded_range);
    mpfr_sub(x, got, expected, MPFR_RNDN);
    mpfr_div(x, x, expected, MPFR_RNDN);
    cr_expect(mpfr_cmp_d(x, -1e-30) >= 0 && mpfr_cmp_d(x, 1e-15) < 0, "adaptive %s",
              adaptive.bounded_range);
    cr_expect_lt(strtod(batch.bounded_range, NULL), strtod(adaptive.bounded_range, NULL));
    cr_expect_str_eq(batch.best_method, "bounded-range");
    cr_expect_str_eq(adaptive.best_method, "zcdp");
    /* beyond the limits: the non-adaptive optimum falls back to the
     * adaptive bound, the dp-optimal figure is not computed */
    dpsel_account many = homogeneous(DPSEL_EM, "0.01", DPSEL_ACCOUNT_OPTIMAL_MAX + 1, "1e-6",
                                     DPSEL_NONADAPTIVE);
    cr_expect_str_eq(many.dp_optimal, "");
    dpsel_account just_past = homogeneous(DPSEL_EM, "0.01", DPSEL_ACCOUNT_NONADAPTIVE_MAX + 1,
                                          "1e-6", DPSEL_NONADAPTIVE);
    dpsel_account adaptive_past = homogeneous(DPSEL_EM, "0.01", DPSEL_ACCOUNT_NONADAPTIVE_MAX + 1,
                                              "1e-6", DPSEL_ADAPTIVE);
    cr_expect_str_eq(just_past.bounded_range, adaptive_past.bounded_range);
    mpfr_clears(eps, x, ln, expected, got, (mpfr_ptr)0);
}

/* Mixed releases: rho adds per mechanism, KOV takes the largest epsilon,
 * no bounded range; releases from parameters carry their realised epsilon. */
Test(account, mixed_releases_and_parameters)
{
    static const char *const texts[] = { "0.5", "0.2" };
    static const int mechanisms[] = { DPSEL_EM, DPSEL_PF };
    static const uint64_t counts[] = { 4, 3 };
    dpsel_account mixed = account_of(texts, mechanisms, counts, 2, "1e-6", DPSEL_ADAPTIVE);
    cr_expect_str_eq(mixed.pure, "2.6000000000000000");
    cr_expect_str_eq(mixed.rho, "0.18500000000000000");   /* 4 0.25 / 8 + 3 0.04 / 2 */
    cr_expect_str_eq(mixed.bounded_range, "");
    dpsel_account widest = homogeneous(DPSEL_PF, "0.5", 7, "1e-6", DPSEL_ADAPTIVE);
    cr_expect_str_eq(mixed.dp_optimal, widest.dp_optimal);
    cr_expect_eq(mixed.releases, 7);
    /* the realised epsilon of params, counted 5 times, is the epsilon of 5 D */
    dpsel_params p = base_params(3, 2, 7, 0), scaled = base_params(3, 2, 35, 0);
    dpsel_accountant *a = NULL;
    cr_assert_eq(dpsel_accountant_new(&a), DPSEL_OK);
    cr_assert_eq(dpsel_accountant_add_params(a, DPSEL_EM, &p, 5), DPSEL_OK);
    dpsel_account from_params;
    cr_assert_eq(dpsel_accountant_report(a, NULL, DPSEL_ADAPTIVE, &from_params), DPSEL_OK);
    char expected[64];
    cr_assert_eq(dpsel_params_epsilon(&scaled, 17, expected, sizeof expected), DPSEL_OK);
    cr_expect_str_eq(from_params.pure, expected);
    dpsel_accountant_free(a);
}

/* text is a figure: "inf", or a plain or exponent decimal without a sign
 * (digits, at most one point, then e[+-]digits), which MPFR reads whole. */
static int is_figure(const char *text)
{
    if (strcmp(text, "inf") == 0) {
        return 1;
    }
    size_t digits = strspn(text, "0123456789");
    const char *p = text + digits;
    if (*p == '.') {
        size_t fraction = strspn(p + 1, "0123456789");
        digits += fraction;
        p += 1 + fraction;
    }
    if (digits == 0) {
        return 0;
    }
    if (*p == 'e') {
        p++;
        if (*p != '+' && *p != '-') {
            return 0;
        }
        size_t exponent = strspn(p + 1, "0123456789");
        p += 1 + exponent;
        if (exponent == 0) {
            return 0;
        }
    }
    return *p == '\0';
}

/* Every figure of a is a figure (or "" where it does not apply). */
static void expect_figures(const dpsel_account *a, const char *what)
{
    const char *const figures[] = { a->pure, a->rho, a->zcdp, a->bounded_range, a->dp_optimal,
                                    a->best };
    for (size_t i = 0; i < sizeof figures / sizeof *figures; i++) {
        cr_expect(is_figure(figures[i]) || (i >= 2 && i <= 4 && figures[i][0] == '\0'),
                  "%s: figure %zu is '%s'", what, i, figures[i]);
    }
}

/* A negative epsilon at a large delta is stated as 0 (it holds whenever a
 * negative one does), the least epsilon 0 itself when delta allows it; and
 * every figure is a decimal from 1e-30 to 1e999999999. */
Test(account, figures_are_decimals_never_negative)
{
    dpsel_account em = homogeneous(DPSEL_EM, "0.001", 1, "0.5", DPSEL_ADAPTIVE);
    cr_expect_str_eq(em.zcdp, "0");                  /* CKS's bound: -0.693... */
    cr_expect_str_eq(em.dp_optimal, "0");            /* RR's delta at 0 is 0.0005 */
    cr_expect_str_eq(em.best, "0");
    cr_expect_str_eq(em.best_method, "zcdp");
    dpsel_account pf = homogeneous(DPSEL_PF, "0.001", 1, "1e-3", DPSEL_ADAPTIVE);
    cr_expect_str_eq(pf.zcdp, "0");
    static const char *const epsilons[] = { "1e-30", "0.001", "0.5", "10", "1e10", "1e19",
                                            "1e20", "1e300", "1e5000", "1e999999999" };
    static const char *const deltas[] = { "1e-300", "1e-6", "0.5", "0.9" };
    char what[96];
    for (size_t i = 0; i < sizeof epsilons / sizeof *epsilons; i++) {
        for (size_t j = 0; j < sizeof deltas / sizeof *deltas; j++) {
            for (int nonadaptive = 0; nonadaptive <= 1; nonadaptive++) {
                snprintf(what, sizeof what, "em:%sx3 at %s, %d", epsilons[i], deltas[j],
                         nonadaptive);
                dpsel_account a = homogeneous(DPSEL_EM, epsilons[i], 3, deltas[j],
                                              nonadaptive ? DPSEL_NONADAPTIVE : DPSEL_ADAPTIVE);
                expect_figures(&a, what);
            }
        }
    }
}

/* eps >= 1e20 made e^eps overflow and KL*(eps) infinite ("0.@Inf@"): it is
 * eps - ln eps - 1 + eps / (e^eps - 1) - ln(1 - e^-eps), the last two
 * terms below 1e-30 here; and KOV's figure for one release is at least
 * eps + ln(1 - delta) > eps - 1 and at most eps (to its 17 digits). */
Test(account, huge_epsilons_keep_finite_bounds)
{
    mpfr_exp_t emax = mpfr_get_emax();
    mpfr_set_emax(mpfr_get_emax_max());      /* 1e999999999 is beyond MPFR's default range */
    mpfr_t eps, expected, got, x;
    mpfr_inits2(REF, eps, expected, got, x, (mpfr_ptr)0);
    static const char *const epsilons[] = { "1e20", "1e300", "1e999999999" };
    for (size_t i = 0; i < sizeof epsilons / sizeof *epsilons; i++) {
        dpsel_account a = homogeneous(DPSEL_EM, epsilons[i], 1, "1e-3", DPSEL_ADAPTIVE);
        set_decimal(eps, epsilons[i]);
        mpfr_log(x, eps, MPFR_RNDN);
        mpfr_sub(expected, eps, x, MPFR_RNDN);
        mpfr_sub_ui(expected, expected, 1, MPFR_RNDN);      /* KL* */
        mpfr_set_ui(x, 1000, MPFR_RNDN);
        mpfr_log(x, x, MPFR_RNDN);
        mpfr_div_2ui(x, x, 1, MPFR_RNDN);
        mpfr_sqrt(x, x, MPFR_RNDN);
        mpfr_mul(x, x, eps, MPFR_RNDN);                     /* sqrt(eps^2 L / 2) */
        mpfr_add(expected, expected, x, MPFR_RNDN);
        set_decimal(got, a.bounded_range);
        mpfr_sub(x, got, expected, MPFR_RNDN);
        mpfr_div(x, x, expected, MPFR_RNDN);
        cr_expect(mpfr_cmp_d(x, 0) >= 0 && mpfr_cmp_d(x, 1e-15) < 0, "%s: bounded range %s",
                  epsilons[i], a.bounded_range);
        set_decimal(got, a.dp_optimal);
        mpfr_sub(x, got, eps, MPFR_RNDN);
        cr_expect(mpfr_cmp_si(x, -1) > 0, "%s: dp-optimal %s", epsilons[i], a.dp_optimal);
        mpfr_div(x, x, eps, MPFR_RNDN);
        cr_expect(mpfr_cmp_d(x, 1e-15) < 0, "%s: dp-optimal %s", epsilons[i], a.dp_optimal);
    }
    cr_expect_str_eq(homogeneous(DPSEL_EM, "1e20", 1, "1e-3", DPSEL_ADAPTIVE).bounded_range,
                     "2.8584610944249193e+20");
    mpfr_clears(eps, expected, got, x, (mpfr_ptr)0);
    mpfr_set_emax(emax);
}

/* MPFR's special values and signs, as the formatter writes them: mpfr_get_str
 * gives "@Inf@" and "-69314..." with an exponent that is not set for the
 * infinities. */
Test(account, mpfr_text_of_special_values)
{
    mpfr_t v;
    mpfr_init2(v, 64);
    char text[17 + DPSEL_EXACT_TEXT_EXTRA];
    mpfr_set_inf(v, 1);
    cr_expect_eq(dpsel_exact_mpfr_text(v, 17, MPFR_RNDU, text), DPSEL_OK);
    cr_expect_str_eq(text, "inf");
    mpfr_set_inf(v, -1);
    cr_expect_eq(dpsel_exact_mpfr_text(v, 17, MPFR_RNDU, text), DPSEL_OK);
    cr_expect_str_eq(text, "-inf");
    mpfr_set_zero(v, -1);
    cr_expect_eq(dpsel_exact_mpfr_text(v, 17, MPFR_RNDU, text), DPSEL_OK);
    cr_expect_str_eq(text, "0");
    mpfr_set_str(v, "-0.6931", 10, MPFR_RNDN);
    cr_expect_eq(dpsel_exact_mpfr_text(v, 4, MPFR_RNDU, text), DPSEL_OK);
    cr_expect_str_eq(text, "-0.6930");                  /* -0.69309999..., upward */
    mpfr_set_str(v, "-0.00048828125", 10, MPFR_RNDN);   /* -2^-11 */
    cr_expect_eq(dpsel_exact_mpfr_text(v, 8, MPFR_RNDD, text), DPSEL_OK);
    cr_expect_str_eq(text, "-0.00048828125");
    cr_expect_eq(dpsel_exact_mpfr_text(v, 3, MPFR_RNDD, text), DPSEL_OK);
    cr_expect_str_eq(text, "-0.000489");
    mpfr_set_str(v, "-1.25e-40", 10, MPFR_RNDN);
    cr_expect_eq(dpsel_exact_mpfr_text(v, 3, MPFR_RNDN, text), DPSEL_OK);
    cr_expect_str_eq(text, "-1.25e-40");
    mpfr_set_nan(v);
    strcpy(text, "untouched");
    cr_expect_eq(dpsel_exact_mpfr_text(v, 17, MPFR_RNDU, text), DPSEL_EINTERNAL);
    cr_expect_str_eq(text, "untouched");
    mpfr_clear(v);
}

/* The bounded range names the bound it states: DDR's non-adaptive optimum
 * up to DPSEL_ACCOUNT_NONADAPTIVE_MAX releases, the adaptive bound beyond
 * them (it was labelled "non-adaptive" there) or when asked. */
Test(account, bounded_range_names_its_composition)
{
    dpsel_account batch = homogeneous(DPSEL_EM, "0.01", DPSEL_ACCOUNT_NONADAPTIVE_MAX, "1e-6",
                                      DPSEL_NONADAPTIVE);
    cr_expect_str_eq(batch.bounded_range_composition, "non-adaptive");
    dpsel_account past = homogeneous(DPSEL_EM, "0.01", DPSEL_ACCOUNT_NONADAPTIVE_MAX + 1, "1e-6",
                                     DPSEL_NONADAPTIVE);
    cr_expect_str_eq(past.bounded_range_composition, "adaptive");
    dpsel_account asked = homogeneous(DPSEL_EM, "0.01", 2, "1e-6", DPSEL_ADAPTIVE);
    cr_expect_str_eq(asked.bounded_range_composition, "adaptive");
    dpsel_account pf = homogeneous(DPSEL_PF, "0.01", 2, "1e-6", DPSEL_NONADAPTIVE);
    cr_expect_str_eq(pf.bounded_range_composition, "");
    dpsel_account no_delta = homogeneous(DPSEL_EM, "0.01", 2, NULL, DPSEL_NONADAPTIVE);
    cr_expect_str_eq(no_delta.bounded_range_composition, "");
}

/* ------------------------------------------- groups (spec/accounting.md §8) */

static dpsel_group_account group_of(const char *const *releases, const int *mechanisms,
                                    const uint64_t *counts, size_t n, const char *delta,
                                    dpsel_composition composition, uint64_t group)
{
    dpsel_accountant *a = NULL;
    cr_assert_eq(dpsel_accountant_new(&a), DPSEL_OK);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(dpsel_accountant_add(a, (dpsel_mechanism)mechanisms[i], releases[i],
                                          counts[i]), DPSEL_OK);
    }
    dpsel_group_account out;
    cr_assert_eq(dpsel_accountant_report_group(a, delta, composition, group, &out), DPSEL_OK);
    dpsel_accountant_free(a);
    return out;
}

static void expect_same_account(const dpsel_account *a, const dpsel_account *b, const char *what)
{
    cr_expect_eq(a->releases, b->releases, "%s", what);
    cr_expect_str_eq(a->pure, b->pure, "%s", what);
    cr_expect_str_eq(a->rho, b->rho, "%s", what);
    cr_expect_str_eq(a->zcdp, b->zcdp, "%s", what);
    cr_expect_str_eq(a->bounded_range, b->bounded_range, "%s", what);
    cr_expect_str_eq(a->dp_optimal, b->dp_optimal, "%s", what);
    cr_expect_str_eq(a->best, b->best, "%s", what);
    cr_expect_str_eq(a->best_method, b->best_method, "%s", what);
    cr_expect_str_eq(a->bounded_range_composition, b->bounded_range_composition, "%s", what);
}

/* For groups of K every release counts as K eps: the account of releases
 * written with K eps directly, at every delta and composition. */
Test(account, group_is_the_account_of_k_times_each_epsilon)
{
    static const struct {
        uint64_t group;
        const char *eps[2], *scaled[2];
    } cases[] = {
        { 1, { "0.1", "0.25" }, { "0.1", "0.25" } },
        { 3, { "0.1", "0.25" }, { "0.3", "0.75" } },
        { 10, { "1e-3", "2" }, { "1e-2", "20" } },
        { 4294967296, { "1e-9", "1e-10" }, { "4.294967296", "0.4294967296" } },
    };
    const int mechanisms[2] = { DPSEL_EM, DPSEL_PF }, only_em[2] = { DPSEL_EM, DPSEL_EM };
    const uint64_t counts[2] = { 7, 2 };
    const char *deltas[] = { NULL, "1e-6", "0.3" };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (size_t d = 0; d < 3; d++) {
            for (int c = 0; c < 2; c++) {
                const int *m = c == 0 ? mechanisms : only_em;
                dpsel_composition how = c == 0 ? DPSEL_ADAPTIVE : DPSEL_NONADAPTIVE;
                dpsel_group_account g = group_of(cases[i].eps, m, counts, 2, deltas[d], how,
                                                 cases[i].group);
                dpsel_account direct = account_of(cases[i].scaled, m, counts, 2, deltas[d], how);
                char what[64];
                snprintf(what, sizeof what, "case %zu, delta %s, %d", i,
                         deltas[d] ? deltas[d] : "none", c);
                cr_expect_eq(g.group, cases[i].group, "%s", what);
                expect_same_account(&g.account, &direct, what);
                cr_expect_eq(g.epsilon[0] != '\0', deltas[d] != NULL, "%s", what);
                cr_expect_eq(g.delta[0] != '\0', deltas[d] != NULL, "%s", what);
            }
        }
    }
}

/* stated, a decimal, is k x best rounded up to 17 digits: exactly, in
 * rationals. */
static void expect_k_times(const char *stated, uint64_t k, const char *best)
{
    mpq_t exact, text, slack;
    mpq_inits(exact, text, slack, (mpq_ptr)0);
    cr_assert_eq(dpsel_exact_decimal_value(best, exact), DPSEL_OK);
    cr_assert_eq(dpsel_exact_decimal_value(stated, text), DPSEL_OK);
    mpz_mul_ui(mpq_numref(exact), mpq_numref(exact), (unsigned long)k);
    mpq_canonicalize(exact);
    cr_expect(mpq_cmp(text, exact) >= 0, "group %lu: epsilon %s below", (unsigned long)k, stated);
    mpq_set_ui(slack, 1, 1000000000000000);  /* 1e-15: the last of 17 digits */
    mpq_mul(slack, slack, exact);
    mpq_add(slack, slack, exact);
    cr_expect(mpq_cmp(text, slack) <= 0, "group %lu: epsilon %s loose", (unsigned long)k, stated);
    mpq_clears(exact, text, slack, (mpq_ptr)0);
}

/* The theorem: a group of 1 is the individual (best, delta) itself, and a
 * group of K is (K best, K e^((K - 1) best) delta), each figure at least
 * the value (computed here at 512 bits from the texts) and within 1e-15
 * of it. */
Test(account, group_theorem_figures)
{
    const char *eps = "0.1";
    const int em = DPSEL_EM;
    const uint64_t ten = 10;
    dpsel_account one = homogeneous(DPSEL_EM, eps, 10, "1e-6", DPSEL_ADAPTIVE);
    dpsel_group_account same = group_of(&eps, &em, &ten, 1, "1e-6", DPSEL_ADAPTIVE, 1);
    expect_same_account(&same.account, &one, "group 1");
    cr_expect_str_eq(same.epsilon, one.best);
    cr_expect_str_eq(same.delta, "1.0000000000000000e-6");
    const uint64_t groups[] = { 2, 3, 17, 1000 };
    mpfr_t best, value, stated, spread;
    mpfr_inits2(REF, best, value, stated, spread, (mpfr_ptr)0);
    set_decimal(best, one.best);
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        uint64_t k = groups[i];
        dpsel_group_account g = group_of(&eps, &em, &ten, 1, "1e-6", DPSEL_ADAPTIVE, k);
        expect_k_times(g.epsilon, k, one.best);
        mpfr_mul_ui(spread, best, (unsigned long)(k - 1), MPFR_RNDN);
        mpfr_exp(spread, spread, MPFR_RNDN);
        set_decimal(value, "1e-6");
        mpfr_mul(value, value, spread, MPFR_RNDN);
        mpfr_mul_ui(value, value, (unsigned long)k, MPFR_RNDN);
        set_decimal(stated, g.delta);
        cr_expect(mpfr_cmp(stated, value) >= 0, "group %lu: delta %s", (unsigned long)k, g.delta);
        mpfr_div(stated, stated, value, MPFR_RNDN);
        cr_expect(mpfr_cmp_d(stated, 1 + 1e-15) < 0, "group %lu: delta %s loose",
                  (unsigned long)k, g.delta);
    }
    dpsel_group_account far = group_of(&eps, &em, &ten, 1, "1e-6", DPSEL_ADAPTIVE, 100000);
    cr_expect(strstr(far.delta, "e+") != NULL, "a delta past 1 stated as it is: %s", far.delta);
    mpfr_clears(best, value, stated, spread, (mpfr_ptr)0);
}

Test(account, group_bad_arguments)
{
    dpsel_accountant *a = NULL;
    dpsel_group_account out;
    memset(&out, 0x5a, sizeof out);
    dpsel_group_account untouched = out;
    cr_assert_eq(dpsel_accountant_new(&a), DPSEL_OK);
    cr_expect_eq(dpsel_accountant_report_group(a, NULL, DPSEL_ADAPTIVE, 2, &out), DPSEL_EEMPTY);
    cr_assert_eq(dpsel_accountant_add(a, DPSEL_PF, "1", 1), DPSEL_OK);
    cr_expect_eq(dpsel_accountant_report_group(NULL, NULL, DPSEL_ADAPTIVE, 2, &out), DPSEL_ENULL);
    cr_expect_eq(dpsel_accountant_report_group(a, NULL, DPSEL_ADAPTIVE, 2, NULL), DPSEL_ENULL);
    cr_expect_eq(dpsel_accountant_report_group(a, NULL, DPSEL_ADAPTIVE, 0, &out), DPSEL_ERANGE);
    cr_expect_eq(dpsel_accountant_report_group(a, NULL, DPSEL_ADAPTIVE,
                                               DPSEL_ACCOUNT_GROUP_MAX + 1, &out), DPSEL_ERANGE);
    cr_expect_eq(dpsel_accountant_report_group(a, "1", DPSEL_ADAPTIVE, 2, &out), DPSEL_ERANGE);
    cr_expect_eq(dpsel_accountant_report_group(a, "x", DPSEL_ADAPTIVE, 2, &out), DPSEL_EEPSILON);
    cr_expect_eq(dpsel_accountant_report_group(a, NULL, (dpsel_composition)7, 2, &out),
                 DPSEL_ERANGE);
    cr_expect_eq(memcmp(&out, &untouched, sizeof out), 0, "*out written on failure");
    cr_expect_eq(dpsel_accountant_report_group(a, NULL, DPSEL_ADAPTIVE, DPSEL_ACCOUNT_GROUP_MAX,
                                               &out), DPSEL_OK);
    cr_expect_str_eq(out.account.pure, "4294967296.0000000");
    dpsel_accountant_free(a);
}
