/* SPDX-License-Identifier: ISC */
/* The exact pmf against an independent computation: EM by its formula, PF by
 * averaging over all n! visiting orders; the worst-case closed forms of the
 * permute-and-flip paper (Prop. 4); correctly rounded decimals. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/gap.h"
#include "exact/exact.h"
#include "support.h"

/* beta^min(g, cap) as an exact rational. */
static void clamped_weight(const dpsel_params *p, uint64_t gap, mpq_t w)
{
    uint64_t g = gap < p->gap_cap ? gap : p->gap_cap;
    mpz_ui_pow_ui(mpq_numref(w), p->x, g);
    mpz_ui_pow_ui(mpq_denref(w), 2, p->y * g);
    mpq_canonicalize(w);
}

static uint64_t gap_of(const int64_t *scores, size_t n, size_t r)
{
    int64_t best = scores[dpsel_core_argmax(scores, n)];
    return (uint64_t)best - (uint64_t)scores[r];
}

static void em_reference(const dpsel_params *p, const int64_t *s, size_t n, mpq_t *prob)
{
    mpq_t total;
    mpq_init(total);
    for (size_t r = 0; r < n; r++) {
        clamped_weight(p, gap_of(s, n, r), prob[r]);
        mpq_add(total, total, prob[r]);
    }
    for (size_t r = 0; r < n; r++) {
        mpq_div(prob[r], prob[r], total);
    }
    mpq_clear(total);
}

/* Adds to prob the outcome of visiting the candidates in the order perm,
 * weighted by 1/n! (applied by the caller). */
static void pf_order(mpq_t *w, const size_t *perm, size_t n, mpq_t *prob)
{
    mpq_t reach, term;
    mpq_inits(reach, term, (mpq_ptr)0);
    mpq_set_ui(reach, 1, 1);
    for (size_t i = 0; i < n; i++) {
        mpq_mul(term, reach, w[perm[i]]);
        mpq_add(prob[perm[i]], prob[perm[i]], term);
        mpq_set_ui(term, 1, 1);
        mpq_sub(term, term, w[perm[i]]);
        mpq_mul(reach, reach, term);
    }
    mpq_clears(reach, term, (mpq_ptr)0);
}

static void permutations(mpq_t *w, size_t *perm, size_t k, size_t n, mpq_t *prob,
                         unsigned long *count)
{
    if (k == n) {
        pf_order(w, perm, n, prob);
        (*count)++;
        return;
    }
    for (size_t i = k; i < n; i++) {
        size_t t = perm[k]; perm[k] = perm[i]; perm[i] = t;
        permutations(w, perm, k + 1, n, prob, count);
        t = perm[k]; perm[k] = perm[i]; perm[i] = t;
    }
}

static void pf_reference(const dpsel_params *p, const int64_t *s, size_t n, mpq_t *prob)
{
    mpq_t w[8];
    size_t perm[8];
    unsigned long count = 0;
    cr_assert_leq(n, 8);
    for (size_t r = 0; r < n; r++) {
        mpq_init(w[r]);
        clamped_weight(p, gap_of(s, n, r), w[r]);
        mpq_set_ui(prob[r], 0, 1);
        perm[r] = r;
    }
    permutations(w, perm, 0, n, prob, &count);
    mpq_t scale;
    mpq_init(scale);
    mpq_set_ui(scale, 1, count);
    for (size_t r = 0; r < n; r++) {
        mpq_mul(prob[r], prob[r], scale);
        mpq_clear(w[r]);
    }
    mpq_clear(scale);
}

/* Parses dpsel's decimal text ("0.25", "1.5e-07") into an exact rational and
 * the place value of its last digit. */
static void parse_decimal(const char *text, mpq_t value, mpq_t last_place)
{
    char digits[256] = { 0 };
    cr_assert_lt(strlen(text), sizeof digits, "%s: too long for the test", text);
    long exponent = 0, after_point = 0;
    size_t d = 0;
    int in_fraction = 0;
    for (const char *c = text; *c != '\0'; c++) {
        if (*c == '.') {
            in_fraction = 1;
        } else if (*c == 'e') {
            exponent = strtol(c + 1, NULL, 10);
            break;
        } else {
            digits[d++] = *c;
            after_point += in_fraction;
        }
    }
    long place = exponent - after_point;   /* value = digits * 10^place */
    mpz_set_str(mpq_numref(value), digits, 10);
    mpz_set_ui(mpq_denref(value), 1);
    mpz_set_ui(mpq_numref(last_place), 1);
    mpz_set_ui(mpq_denref(last_place), 1);
    mpz_t power;
    mpz_init(power);
    mpz_ui_pow_ui(power, 10, (unsigned long)labs(place));
    if (place >= 0) {
        mpz_mul(mpq_numref(value), mpq_numref(value), power);
        mpz_set(mpq_numref(last_place), power);
    } else {
        mpz_set(mpq_denref(value), power);
        mpz_set(mpq_denref(last_place), power);
    }
    mpq_canonicalize(value);
    mpq_canonicalize(last_place);
    mpz_clear(power);
}

/* The decimal text has 17 significant digits and lies within half a unit
 * of its last digit from the exact value. */
static void check_decimal_text(const char *text, const mpq_t exact)
{
    if (mpq_sgn(exact) == 0) {
        cr_expect_str_eq(text, "0");
        return;
    }
    mpq_t value, place, error;
    mpq_inits(value, place, error, (mpq_ptr)0);
    parse_decimal(text, value, place);
    mpq_sub(error, value, exact);
    mpq_abs(error, error);
    mpq_mul_2exp(error, error, 1);
    cr_expect(mpq_cmp(error, place) <= 0, "%s is not correctly rounded", text);
    size_t significant = 0;
    int leading = 1;
    for (const char *c = text; *c != '\0' && *c != 'e'; c++) {
        if (*c >= '1' && *c <= '9') {
            leading = 0;
        }
        significant += !leading && *c >= '0' && *c <= '9';
    }
    cr_expect_eq(significant, 17, "%s has %zu significant digits", text, significant);
    mpq_clears(value, place, error, (mpq_ptr)0);
}

static void check_decimal(const dpsel_pmf *pmf, size_t r, const mpq_t exact)
{
    char *text = NULL;
    cr_assert_eq(dpsel_pmf_probability(pmf, r, DPSEL_DECIMAL, &text), DPSEL_OK);
    check_decimal_text(text, exact);
    dpsel_string_free(text);
}

/* The printed enclosure (36 digits, rounded outwards) contains the exact value. */
static void check_bounds_text(const char *lo_text, const char *hi_text, const mpq_t exact)
{
    mpq_t lo, hi, place;
    mpq_inits(lo, hi, place, (mpq_ptr)0);
    parse_decimal(lo_text, lo, place);
    parse_decimal(hi_text, hi, place);
    cr_expect(mpq_cmp(lo, exact) <= 0, "lower bound %s above the exact value", lo_text);
    cr_expect(mpq_cmp(hi, exact) >= 0, "upper bound %s below the exact value", hi_text);
    mpq_clears(lo, hi, place, (mpq_ptr)0);
}

static void check_probability_bounds(const dpsel_pmf *pmf, size_t r, const mpq_t exact)
{
    char *lo = NULL, *hi = NULL;
    cr_assert_eq(dpsel_pmf_probability_bounds(pmf, r, 36, &lo, &hi), DPSEL_OK);
    check_bounds_text(lo, hi, exact);
    dpsel_string_free(lo);
    dpsel_string_free(hi);
}

static void expected_error(const int64_t *s, size_t n, mpq_t *prob, mpq_t out)
{
    mpq_t term;
    mpq_init(term);
    mpq_set_ui(out, 0, 1);
    for (size_t r = 0; r < n; r++) {
        mpz_set_ui(mpq_numref(term), 0);
        mpz_import(mpq_numref(term), 1, 1, sizeof(uint64_t), 0, 0, (uint64_t[]){ gap_of(s, n, r) });
        mpz_set_ui(mpq_denref(term), 1);
        mpq_mul(term, term, prob[r]);
        mpq_add(out, out, term);
    }
    mpq_clear(term);
}

/* Compares dpsel's pmf and expected error with the reference; returns the
 * reference's expected error in err. */
static void check_against_reference(const dpsel_params *p, dpsel_mechanism m,
                                    const int64_t *s, size_t n, mpq_t err)
{
    mpq_t ref[8], got, total, dpsel_err;
    dpsel_pmf *pmf = NULL;
    mpq_inits(got, total, dpsel_err, (mpq_ptr)0);
    for (size_t r = 0; r < n; r++) {
        mpq_init(ref[r]);
    }
    (m == DPSEL_EM ? em_reference : pf_reference)(p, s, n, ref);
    cr_assert_eq(dpsel_pmf_new(&pmf, p, m, s, n), DPSEL_OK);
    for (size_t r = 0; r < n; r++) {
        pmf_rational(pmf, r, got);
        cr_expect(mpq_equal(got, ref[r]), "mechanism %d, candidate %zu differs", m, r);
        mpq_add(total, total, got);
        check_decimal(pmf, r, ref[r]);
        check_probability_bounds(pmf, r, ref[r]);
    }
    cr_expect(mpq_cmp_ui(total, 1, 1) == 0, "probabilities do not sum to 1");
    expected_error(s, n, ref, err);
    char *text = NULL;
    cr_assert_eq(dpsel_pmf_expected_error(pmf, DPSEL_RATIONAL, &text), DPSEL_OK);
    mpq_set_str(dpsel_err, text, 10);
    cr_expect(mpq_equal(dpsel_err, err), "expected error differs");
    dpsel_string_free(text);
    char *lo = NULL, *hi = NULL;
    cr_assert_eq(dpsel_pmf_expected_error_bounds(pmf, 36, &lo, &hi), DPSEL_OK);
    check_bounds_text(lo, hi, err);
    dpsel_string_free(lo);
    dpsel_string_free(hi);
    dpsel_pmf_free(pmf);
    for (size_t r = 0; r < n; r++) {
        mpq_clear(ref[r]);
    }
    mpq_clears(got, total, dpsel_err, (mpq_ptr)0);
}

static const int64_t vectors[][6] = {
    { 5, 5, 5, 5, 5, 5 },                                   /* all ties */
    { -3, -1, -7, -1, -2, -40 },                            /* negative, ties at the top */
    { INT64_MAX, INT64_MIN, 0, INT64_MAX - 1, -1, INT64_MIN + 1 },  /* extremes */
    { 100, 0, 99, 1, 98, 2 },
    { 0, -1, -2, -3, -4, -5 },
    { 7, 3, 7, 3, 7, 3 },
};

/* The shared parameter sets, and one from an epsilon, not monotonic. */
static dpsel_params test_params(size_t i)
{
    dpsel_params p;
    if (i < PMF_TEST_PARAMS) {
        return pmf_test_params(i);
    }
    cr_assert_eq(dpsel_params_from_epsilon(&p, "2.5", 1, 0), DPSEL_OK);
    return p;
}

Test(pmf, equals_an_independent_exact_computation)
{
    for (size_t pi = 0; pi < 6; pi++) {
        dpsel_params p = test_params(pi);
        for (size_t v = 0; v < sizeof vectors / sizeof *vectors; v++) {
            /* params 3 has 4-megabit weights: the n! reference is kept small */
            size_t largest = pi == 3 ? 3 : 6;
            for (size_t n = 1; n <= largest; n += (n < 3 ? 1 : 3)) {
                mpq_t err_pf, err_em;
                mpq_inits(err_pf, err_em, (mpq_ptr)0);
                check_against_reference(&p, DPSEL_PF, vectors[v], n, err_pf);
                check_against_reference(&p, DPSEL_EM, vectors[v], n, err_em);
                cr_expect(mpq_cmp(err_pf, err_em) <= 0,
                          "params %zu vector %zu n %zu: PF error above EM", pi, v, n);
                mpq_clears(err_pf, err_em, (mpq_ptr)0);
            }
        }
    }
}

/* Prop. 4 of McKenna & Sheldon: q = (0, -c, ..., -c), p = beta^c:
 * EM error c (n-1) p / (1 + (n-1) p), PF error c (1 - (1 - (1-p)^n) / (n p)). */
Test(pmf, worst_case_closed_forms)
{
    const uint64_t bases[][2] = { { 1, 1 }, { 3, 2 }, { 29, 5 } };
    for (size_t b = 0; b < 3; b++) {
        dpsel_params params = base_params(bases[b][0], (unsigned)bases[b][1], 1, 0);
        for (size_t n = 2; n <= 40; n += 7) {
            for (uint64_t c = 1; c <= 6; c++) {
                int64_t scores[40] = { 0 };
                for (size_t r = 1; r < n; r++) {
                    scores[r] = -(int64_t)c;
                }
                mpq_t p, em, pf, t, u, got;
                mpq_inits(p, em, pf, t, u, got, (mpq_ptr)0);
                clamped_weight(&params, c, p);
                /* EM */
                mpq_set_ui(t, n - 1, 1);
                mpq_mul(t, t, p);                 /* (n-1) p */
                mpq_set_ui(u, 1, 1);
                mpq_add(u, u, t);                 /* 1 + (n-1) p */
                mpq_div(em, t, u);
                mpq_set_ui(u, c, 1);
                mpq_mul(em, em, u);
                /* PF */
                mpq_set_ui(t, 1, 1);
                mpq_sub(t, t, p);                 /* 1 - p */
                mpq_set_ui(u, 1, 1);
                for (size_t i = 0; i < n; i++) {
                    mpq_mul(u, u, t);             /* (1-p)^n */
                }
                mpq_set_ui(t, 1, 1);
                mpq_sub(t, t, u);                 /* 1 - (1-p)^n */
                mpq_set_ui(u, n, 1);
                mpq_mul(u, u, p);
                mpq_div(t, t, u);
                mpq_set_ui(pf, 1, 1);
                mpq_sub(pf, pf, t);
                mpq_set_ui(u, c, 1);
                mpq_mul(pf, pf, u);

                const dpsel_mechanism mechanisms[2] = { DPSEL_EM, DPSEL_PF };
                for (int m = 0; m < 2; m++) {
                    dpsel_pmf *pmf = NULL;
                    char *text = NULL;
                    cr_assert_eq(dpsel_pmf_new(&pmf, &params, mechanisms[m], scores, n), DPSEL_OK);
                    cr_assert_eq(dpsel_pmf_expected_error(pmf, DPSEL_RATIONAL, &text), DPSEL_OK);
                    mpq_set_str(got, text, 10);
                    cr_expect(mpq_equal(got, m == 0 ? em : pf), "n=%zu c=%lu mech %d: %s", n, c, m, text);
                    dpsel_string_free(text);
                    dpsel_pmf_free(pmf);
                }
                cr_expect(mpq_cmp(pf, em) <= 0);
                mpq_clears(p, em, pf, t, u, got, (mpq_ptr)0);
            }
        }
    }
}

Test(pmf, errors)
{
    dpsel_params p = base_params(1, 1, 1, 0);
    dpsel_pmf *pmf = NULL;
    int64_t s[1] = { 0 };
    char *text = NULL;
    cr_expect_eq(dpsel_pmf_new(NULL, &p, DPSEL_PF, s, 1), DPSEL_ENULL);
    cr_expect_eq(dpsel_pmf_new(&pmf, NULL, DPSEL_PF, s, 1), DPSEL_ENULL);
    cr_expect_eq(dpsel_pmf_new(&pmf, &p, DPSEL_PF, NULL, 1), DPSEL_ENULL);
    cr_expect_eq(dpsel_pmf_new(&pmf, &p, DPSEL_PF, s, 0), DPSEL_EEMPTY);
    cr_expect_eq(dpsel_pmf_new(&pmf, &p, (dpsel_mechanism)7, s, 1), DPSEL_ERANGE);
    dpsel_params bad = p;
    bad.x = 2;
    cr_expect_eq(dpsel_pmf_new(&pmf, &bad, DPSEL_PF, s, 1), DPSEL_ERANGE);
    cr_expect(pmf == NULL, "output written on failure");
    cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_EM, s, 1), DPSEL_OK);
    cr_expect_eq(dpsel_pmf_probability(pmf, 1, DPSEL_DECIMAL, &text), DPSEL_ERANGE);
    cr_expect_eq(dpsel_pmf_probability(pmf, 0, (dpsel_format)9, &text), DPSEL_ERANGE);
    cr_expect_eq(dpsel_pmf_probability(pmf, 0, DPSEL_DECIMAL, NULL), DPSEL_ENULL);
    cr_expect(text == NULL);
    cr_assert_eq(dpsel_pmf_probability(pmf, 0, DPSEL_RATIONAL, &text), DPSEL_OK);
    cr_expect_str_eq(text, "1/1");
    dpsel_string_free(text);
    cr_assert_eq(dpsel_pmf_probability(pmf, 0, DPSEL_DECIMAL, &text), DPSEL_OK);
    cr_expect_str_eq(text, "1.0000000000000000");
    dpsel_string_free(text);
    dpsel_pmf_free(pmf);
}

/* Beyond the exact limits the pmf holds the enclosure: a decimal, bounds, but
 * no rational; PF beyond 2^15 candidates (refused before its quadrature) too. */
Test(pmf, bounds_only_beyond_the_exact_limits)
{
    enum { N = 4097, HUGE = 32769 };
    static int64_t scores[HUGE];
    dpsel_params p;
    dpsel_pmf *pmf = NULL;
    char *text = NULL, *lo = NULL, *hi = NULL;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    scores[0] = 1000;                 /* one best, the others at the cap */
    cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_PF, scores, N), DPSEL_OK);
    cr_expect_eq(dpsel_pmf_probability(pmf, 0, DPSEL_RATIONAL, &text), DPSEL_ETOOLARGE);
    cr_expect_eq(dpsel_pmf_expected_error(pmf, DPSEL_RATIONAL, &text), DPSEL_ETOOLARGE);
    cr_expect(text == NULL, "output written on failure");
    /* the values are checked in test_enclosure.c (closed_forms_beyond_the_exact_limits) */
    cr_assert_eq(dpsel_pmf_probability(pmf, 0, DPSEL_DECIMAL, &text), DPSEL_OK);
    cr_assert_eq(dpsel_pmf_probability_bounds(pmf, 0, 40, &lo, &hi), DPSEL_OK);
    dpsel_string_free(text);
    dpsel_string_free(lo);
    dpsel_string_free(hi);
    dpsel_pmf_free(pmf);
    pmf = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_PF, scores, HUGE), DPSEL_OK);
    cr_expect_eq(dpsel_pmf_probability(pmf, 0, DPSEL_RATIONAL, &text), DPSEL_ETOOLARGE);
    cr_assert_eq(dpsel_pmf_probability(pmf, 0, DPSEL_DECIMAL, &text), DPSEL_OK);
    dpsel_string_free(text);
    dpsel_pmf_free(pmf);
    cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_EM, scores, HUGE), DPSEL_OK);
    dpsel_pmf_free(pmf);
}

/* The decimals and enclosures of a candidate's probability and of the
 * expected error, with the largest GMP block allocated meanwhile. */
static size_t largest_block_for_decimals(const dpsel_pmf *pmf, size_t n)
{
    allocations counted;
    char *text[3] = { NULL, NULL, NULL };
    gmp_count_start(&counted);
    for (size_t r = 0; r <= n; r++) {
        cr_assert_eq(r < n ? dpsel_pmf_probability(pmf, r, DPSEL_DECIMAL, &text[0])
                           : dpsel_pmf_expected_error(pmf, DPSEL_DECIMAL, &text[0]), DPSEL_OK);
        cr_assert_eq(r < n ? dpsel_pmf_probability_bounds(pmf, r, 36, &text[1], &text[2])
                           : dpsel_pmf_expected_error_bounds(pmf, 36, &text[1], &text[2]),
                     DPSEL_OK);
        for (int k = 0; k < 3; k++) {
            dpsel_string_free(text[k]);
            text[k] = NULL;
        }
    }
    gmp_count_stop();
    return counted.largest;
}

/* Exact rationals only when asked for.  PF and EM on 128 candidates 0..127
 * at epsilon 0.01 (y = 64, gaps up to 127: rationals of about
 * n y Gmax = 10^6 bits, 128 KiB) give every decimal and enclosure from the
 * enclosures alone: no GMP block of even 32 KiB is allocated by
 * dpsel_pmf_new or by those requests (the eager exact computation allocates
 * blocks the size of the rationals).  The rationals are computed when a
 * DPSEL_RATIONAL is requested, and lie within the enclosures. */
Test(pmf, exact_rationals_only_on_request)
{
    enum { N = 128, BLOCK_LIMIT = 1 << 15 };
    int64_t scores[N];
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "0.01", 1, 0), DPSEL_OK);
    for (size_t r = 0; r < N; r++) {
        scores[r] = (int64_t)r;
    }
    for (int m = 0; m < 2; m++) {
        dpsel_pmf *pmf = NULL;
        allocations counted;
        gmp_count_start(&counted);
        cr_assert_eq(dpsel_pmf_new(&pmf, &p, (dpsel_mechanism)m, scores, N), DPSEL_OK);
        gmp_count_stop();
        cr_expect_lt(counted.largest, BLOCK_LIMIT, "mechanism %d: dpsel_pmf_new allocated "
                     "a block of %zu bytes", m, counted.largest);
        size_t largest = largest_block_for_decimals(pmf, N);
        cr_expect_lt(largest, BLOCK_LIMIT, "mechanism %d: the decimals allocated a block of "
                     "%zu bytes", m, largest);
        if (m == DPSEL_EM) {
            mpq_t exact;
            mpfr_t lo, hi;
            mpq_init(exact);
            mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
            for (size_t r = 0; r < N; r += N - 1) {
                pmf_rational(pmf, r, exact);
                dpsel_exact_pmf_probability_mpfr(pmf, r, lo, hi);
                cr_expect(mpfr_cmp_q(lo, exact) <= 0 && mpfr_cmp_q(hi, exact) >= 0,
                          "candidate %zu: the rational lies outside the enclosure", r);
            }
            mpfr_clears(lo, hi, (mpfr_ptr)0);
            mpq_clear(exact);
        }
        dpsel_pmf_free(pmf);
    }
}

Test(pmf, bounds_errors)
{
    dpsel_params p = base_params(1, 1, 1, 0);
    dpsel_pmf *pmf = NULL;
    int64_t s[2] = { 0, -1 };
    char *lo = NULL, *hi = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_PF, s, 2), DPSEL_OK);
    cr_expect_eq(dpsel_pmf_probability_bounds(NULL, 0, 20, &lo, &hi), DPSEL_ENULL);
    cr_expect_eq(dpsel_pmf_probability_bounds(pmf, 0, 20, NULL, &hi), DPSEL_ENULL);
    cr_expect_eq(dpsel_pmf_probability_bounds(pmf, 0, 20, &lo, NULL), DPSEL_ENULL);
    cr_expect_eq(dpsel_pmf_probability_bounds(pmf, 2, 20, &lo, &hi), DPSEL_ERANGE);
    cr_expect_eq(dpsel_pmf_probability_bounds(pmf, 0, 0, &lo, &hi), DPSEL_ERANGE);
    cr_expect_eq(dpsel_pmf_probability_bounds(pmf, 0, 101, &lo, &hi), DPSEL_ERANGE);
    cr_expect_eq(dpsel_pmf_expected_error_bounds(NULL, 20, &lo, &hi), DPSEL_ENULL);
    cr_expect_eq(dpsel_pmf_expected_error_bounds(pmf, 0, &lo, &hi), DPSEL_ERANGE);
    cr_expect(lo == NULL && hi == NULL, "output written on failure");
    /* exact dyadic values give equal ends: P = 3/4 and 1/4, error 1/4 */
    cr_assert_eq(dpsel_pmf_probability_bounds(pmf, 0, 1, &lo, &hi), DPSEL_OK);
    cr_expect_str_eq(lo, "0.7");
    cr_expect_str_eq(hi, "0.8");
    dpsel_string_free(lo);
    dpsel_string_free(hi);
    cr_assert_eq(dpsel_pmf_expected_error_bounds(pmf, 5, &lo, &hi), DPSEL_OK);
    cr_expect_str_eq(lo, "0.25000");
    cr_expect_str_eq(hi, "0.25000");
    dpsel_string_free(lo);
    dpsel_string_free(hi);
    dpsel_pmf_free(pmf);
}

/* ------------------------------------------- the expected error in units */

/* The expected error in units of `unit` against E x unit, E the exact
 * rational of dpsel_pmf_expected_error: the rational equal, the decimal
 * correctly rounded, the enclosure around it and narrow (below 1e-30
 * relative); unit "1" prints exactly dpsel_pmf_expected_error's texts. */
static void check_in_units(const dpsel_pmf *pmf, const char *unit)
{
    mpq_t expected, scale, place, got;
    char *text = NULL, *lo = NULL, *hi = NULL;
    mpq_inits(expected, scale, place, got, (mpq_ptr)0);
    cr_assert_eq(dpsel_pmf_expected_error(pmf, DPSEL_RATIONAL, &text), DPSEL_OK);
    mpq_set_str(expected, text, 10);
    dpsel_string_free(text);
    parse_decimal(unit, scale, place);
    mpq_mul(expected, expected, scale);
    cr_assert_eq(dpsel_pmf_expected_error_in_units(pmf, unit, DPSEL_RATIONAL, &text), DPSEL_OK);
    mpq_set_str(got, text, 10);
    cr_expect(mpq_equal(got, expected), "unit %s: %s is not E x unit", unit, text);
    dpsel_string_free(text);
    cr_assert_eq(dpsel_pmf_expected_error_in_units(pmf, unit, DPSEL_DECIMAL, &text), DPSEL_OK);
    check_decimal_text(text, expected);
    cr_assert_eq(dpsel_pmf_expected_error_bounds_in_units(pmf, unit, 36, &lo, &hi), DPSEL_OK);
    check_bounds_text(lo, hi, expected);
    mpq_t lo_value, hi_value;
    mpq_inits(lo_value, hi_value, (mpq_ptr)0);
    parse_decimal(lo, lo_value, place);
    parse_decimal(hi, hi_value, place);
    mpq_sub(hi_value, hi_value, lo_value);           /* the width ... */
    mpq_set_ui(place, 1, 1000000000);
    mpq_mul(place, place, place);
    mpq_mul(place, place, place);                     /* 1e-36 ... */
    mpq_mul(place, place, expected);
    mpz_mul_ui(mpq_numref(place), mpq_numref(place), 1000000);  /* 1e-30 E x unit */
    mpq_canonicalize(place);
    cr_expect(mpq_cmp(hi_value, place) <= 0, "unit %s: [%s, %s] is too wide", unit, lo, hi);
    mpq_clears(lo_value, hi_value, (mpq_ptr)0);
    if (strcmp(unit, "1") == 0) {
        char *plain = NULL, *plain_lo = NULL, *plain_hi = NULL;
        cr_assert_eq(dpsel_pmf_expected_error(pmf, DPSEL_DECIMAL, &plain), DPSEL_OK);
        cr_assert_eq(dpsel_pmf_expected_error_bounds(pmf, 36, &plain_lo, &plain_hi), DPSEL_OK);
        cr_expect_str_eq(text, plain);
        cr_expect_str_eq(lo, plain_lo);
        cr_expect_str_eq(hi, plain_hi);
        dpsel_string_free(plain);
        dpsel_string_free(plain_lo);
        dpsel_string_free(plain_hi);
    }
    dpsel_string_free(text);
    dpsel_string_free(lo);
    dpsel_string_free(hi);
    mpq_clears(expected, scale, place, got, (mpq_ptr)0);
}

static const char *const test_units[] = {
    "1", "0.001", "0.25", "7", "1.0000", "0.0000000000000000000000000000003",
    "123456789012345678901234567890.5", "4.0000000000000002",
};

Test(pmf, expected_error_in_units_against_the_rational)
{
    for (size_t pi = 0; pi < 6; pi++) {
        dpsel_params p = test_params(pi);
        for (size_t v = 0; v < sizeof vectors / sizeof *vectors; v++) {
            for (int m = 0; m < 2; m++) {
                dpsel_pmf *pmf = NULL;
                /* params 3 (4-megabit weights): one vector, of small gaps */
                size_t n = pi != 3 ? 6 : v == 4 ? 3 : 0;
                if (n == 0) {
                    continue;
                }
                cr_assert_eq(dpsel_pmf_new(&pmf, &p, (dpsel_mechanism)m, vectors[v], n), DPSEL_OK);
                for (size_t u = 0; u < sizeof test_units / sizeof *test_units; u++) {
                    check_in_units(pmf, test_units[u]);
                }
                dpsel_pmf_free(pmf);
            }
        }
    }
}

/* PF with base 1/2 on { 1, 0 }: E = 1/4 exactly. */
Test(pmf, expected_error_in_units_by_hand)
{
    static const char *const cases[][4] = {
        /* unit, rational, decimal, bounds to 20 digits */
        { "1", "1/4", "0.25000000000000000", "0.25000000000000000000" },
        { "0.25", "1/16", "0.062500000000000000", "0.062500000000000000000" },
        { "12.5", "25/8", "3.1250000000000000", "3.1250000000000000000" },
        { "0.001", "1/4000", "0.00025000000000000000", NULL },
        { "0.0010", "1/4000", "0.00025000000000000000", NULL },
        { "1000", "250/1", "250.00000000000000", "250.00000000000000000" },
        /* E x unit = 1.00000000000000005, a tie of the 17th digit, beyond
         * any enclosure: from the exact rational, to even */
        { "4.0000000000000002", "100000000000000005/100000000000000000", "1.0000000000000000", NULL },
        { "4.0000000000000006", "100000000000000015/100000000000000000", "1.0000000000000002", NULL },
    };
    dpsel_params p = base_params(1, 1, 1, 0);
    const int64_t scores[] = { 1, 0 };
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_PF, scores, 2), DPSEL_OK);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *text = NULL, *lo = NULL, *hi = NULL;
        mpq_t expected;
        mpq_init(expected);
        mpq_set_str(expected, cases[i][1], 10);
        mpq_canonicalize(expected);
        cr_assert_eq(dpsel_pmf_expected_error_in_units(pmf, cases[i][0], DPSEL_RATIONAL, &text),
                     DPSEL_OK);
        mpq_t got;
        mpq_init(got);
        mpq_set_str(got, text, 10);
        cr_expect(mpq_equal(got, expected), "unit %s: %s, not %s", cases[i][0], text, cases[i][1]);
        dpsel_string_free(text);
        cr_assert_eq(dpsel_pmf_expected_error_in_units(pmf, cases[i][0], DPSEL_DECIMAL, &text),
                     DPSEL_OK);
        cr_expect_str_eq(text, cases[i][2], "unit %s", cases[i][0]);
        dpsel_string_free(text);
        cr_assert_eq(dpsel_pmf_expected_error_bounds_in_units(pmf, cases[i][0], 20, &lo, &hi),
                     DPSEL_OK);
        if (cases[i][3] != NULL) {  /* a dyadic E x unit: both ends exact */
            cr_expect_str_eq(lo, cases[i][3], "unit %s", cases[i][0]);
            cr_expect_str_eq(hi, cases[i][3], "unit %s", cases[i][0]);
        }
        check_bounds_text(lo, hi, expected);
        dpsel_string_free(lo);
        dpsel_string_free(hi);
        mpq_clears(expected, got, (mpq_ptr)0);
    }
    dpsel_pmf_free(pmf);
}

/* A unit (100 fraction digits) that puts E x unit within about 1e-100 of the
 * rounding tie 1.00000000000000005, E the middle of the pmf's enclosure of
 * its expected error: no enclosure decides that decimal. */
static void unit_at_a_tie(const dpsel_pmf *pmf, char *unit, size_t size)
{
    mpfr_t lo, hi, middle, tie;
    mpfr_inits2(MPFR_PREC_MIN, lo, hi, (mpfr_ptr)0);
    mpfr_inits2(1024, middle, tie, (mpfr_ptr)0);
    dpsel_exact_pmf_expected_error_mpfr(pmf, lo, hi);
    mpfr_add(middle, lo, hi, MPFR_RNDN);
    mpfr_div_2ui(middle, middle, 1, MPFR_RNDN);
    mpfr_set_str(tie, "1.00000000000000005", 10, MPFR_RNDN);
    mpfr_div(middle, tie, middle, MPFR_RNDN);
    cr_assert_lt(mpfr_snprintf(unit, size, "%.100Rf", middle), (int)size);
    mpfr_clears(lo, hi, middle, tie, (mpfr_ptr)0);
}

/* Beyond the exact limits (EM over 101 levels up to a gap of 10^6 at y =
 * 64: about 6.5e9 bits of weight arithmetic), a decimal that the enclosure
 * leaves undecided is DPSEL_ETOOLARGE, never a guess; the bounds are still
 * given, and a unit the enclosure decides gives its decimal.  Within the
 * limits (the same scores with a gap cap of 100) the same kind of unit gets
 * its decimal from the exact rational. */
Test(pmf, expected_error_in_units_never_a_guess)
{
    enum { N = 101 };
    int64_t scores[N];
    for (size_t r = 0; r + 1 < N; r++) {
        scores[r] = -(int64_t)r;
    }
    scores[N - 1] = -1000000;
    for (int within = 0; within < 2; within++) {
        dpsel_params p;
        cr_assert_eq(dpsel_params_from_epsilon(&p, "0.01", 1, 0), DPSEL_OK);
        cr_assert_eq(dpsel_params_set_gap_cap(&p, within ? 100 : (uint64_t)1 << 20), DPSEL_OK);
        dpsel_pmf *pmf = NULL;
        char unit[160], *text = NULL, *lo = NULL, *hi = NULL;
        cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_EM, scores, N), DPSEL_OK);
        unit_at_a_tie(pmf, unit, sizeof unit);
        int rc = dpsel_pmf_expected_error_in_units(pmf, unit, DPSEL_DECIMAL, &text);
        if (within) {
            cr_assert_eq(rc, DPSEL_OK);
            check_in_units(pmf, unit);
        } else {
            cr_expect_eq(rc, DPSEL_ETOOLARGE, "unit %s: %s", unit, dpsel_strerror(rc));
            cr_expect(text == NULL, "output written on failure");
            cr_expect_eq(dpsel_pmf_expected_error_in_units(pmf, unit, DPSEL_RATIONAL, &text),
                         DPSEL_ETOOLARGE);
            cr_expect_eq(dpsel_pmf_expected_error_bounds_in_units(pmf, unit, 36, &lo, &hi),
                         DPSEL_OK);
            cr_expect(strcmp(lo, "1.00000000000000005") < 0 && strcmp(hi, "1.00000000000000005") > 0,
                      "[%s, %s] does not hold the tie", lo, hi);
            cr_expect_eq(dpsel_pmf_expected_error_in_units(pmf, "0.001", DPSEL_DECIMAL, &text),
                         DPSEL_OK);
        }
        dpsel_string_free(text);
        dpsel_string_free(lo);
        dpsel_string_free(hi);
        dpsel_pmf_free(pmf);
    }
}
