/* SPDX-License-Identifier: ISC */
/*
 * Report noisy max's exact distribution (src/exact/rnm_pmf.c,
 * dpsel_rnm_pmf_new, spec/mechanisms.md §14 "The exact distribution").
 * Each check compares two rigorous enclosures of one truth, which must
 * overlap: the pmf's against closed forms (two candidates at a gap d:
 * P(second) = e^(-d/b) (1 + d/(2b)) / 2; n equal scores: 1/n), against
 * the enumeration of the sampler's bit strings (the strings that end on
 * an output and those cut at the depth bracket it), grouped candidates
 * against the same candidates one by one, and the probabilities' sum
 * against 1; the expected error against sum_r g_r P(r).  Bad input, the
 * refusal of exact rationals, the work bound and cancellation.
 */
#include <criterion/criterion.h>
#include <gmp.h>
#include <mpfr.h>
#include <stdlib.h>

#include "exact/exact.h"
#include "exact/mpfr_env.h"
#include "support.h"

#define PRECISION 256

static dpsel_pmf *rnm_pmf(const char *epsilon, uint64_t sensitivity, int monotonic,
                          const int64_t *scores, const uint64_t *multiplicity, size_t n)
{
    dpsel_pmf *pmf = NULL;
    int rc = dpsel_rnm_pmf_new(&pmf, epsilon, sensitivity, monotonic, scores, multiplicity, n,
                               NULL, NULL);
    cr_assert_eq(rc, DPSEL_OK, "dpsel_rnm_pmf_new: %s", dpsel_strerror(rc));
    return pmf;
}

/* The pmf's [lo, hi] of candidate r meets [want_lo, want_hi], and its
 * relative width is below 1e-30. */
static void expect_overlap(const dpsel_pmf *pmf, size_t r, const mpfr_t want_lo,
                           const mpfr_t want_hi, const char *what)
{
    mpfr_t lo, hi, width;
    mpfr_inits2(PRECISION, lo, hi, width, (mpfr_ptr)0);
    dpsel_exact_pmf_probability_mpfr(pmf, r, lo, hi);
    cr_expect_leq(mpfr_cmp(lo, want_hi), 0, "%s, candidate %zu: the pmf is above the truth",
                  what, r);
    cr_expect_geq(mpfr_cmp(hi, want_lo), 0, "%s, candidate %zu: the pmf is below the truth",
                  what, r);
    mpfr_sub(width, hi, lo, MPFR_RNDU);
    mpfr_div(width, width, lo, MPFR_RNDU);
    cr_expect_lt(mpfr_cmp_d(width, 1e-30), 0, "%s, candidate %zu: too wide", what, r);
    mpfr_clears(lo, hi, width, (mpfr_ptr)0);
}

/* ---------------------------------------------------------- closed forms */

/* [lo, hi] around f(u) = e^-u / 2 + u e^-u / 4 (u = d / b = d p / w), which
 * falls with u: lo from u's upper bound, every step rounded down. */
static void second_of_pair(uint64_t d, uint64_t w, uint64_t p, mpfr_t lo, mpfr_t hi)
{
    mpfr_t u, e;
    mpfr_inits2(PRECISION, u, e, (mpfr_ptr)0);
    for (int upper = 0; upper < 2; upper++) {
        mpfr_rnd_t down = upper ? MPFR_RNDU : MPFR_RNDD;
        mpfr_rnd_t up = upper ? MPFR_RNDD : MPFR_RNDU;
        mpfr_ptr out = upper ? hi : lo;
        mpfr_set_ui(u, (unsigned long)d, MPFR_RNDN);
        mpfr_mul_ui(u, u, (unsigned long)p, up);
        mpfr_div_ui(u, u, (unsigned long)w, up);
        mpfr_neg(e, u, MPFR_RNDN);
        mpfr_exp(e, e, down);                       /* e^-u */
        mpfr_mul(out, u, e, down);
        mpfr_div_2ui(out, out, 2, MPFR_RNDN);       /* u e^-u / 4 */
        mpfr_div_2ui(e, e, 1, MPFR_RNDN);
        mpfr_add(out, out, e, down);
    }
    mpfr_clears(u, e, (mpfr_ptr)0);
}

static void expect_pair(const char *epsilon, uint64_t sensitivity, int monotonic, int64_t d)
{
    int64_t scores[2] = { d, 0 };
    uint64_t w, p;
    cr_assert_eq(dpsel_exact_rnm_scale(epsilon, sensitivity, monotonic, &w, &p), DPSEL_OK);
    dpsel_pmf *pmf = rnm_pmf(epsilon, sensitivity, monotonic, scores, NULL, 2);
    mpfr_t lo, hi;
    mpfr_inits2(PRECISION, lo, hi, (mpfr_ptr)0);
    second_of_pair((uint64_t)d, w, p, lo, hi);
    expect_overlap(pmf, 1, lo, hi, epsilon);
    mpfr_ui_sub(lo, 1, lo, MPFR_RNDU);   /* P(first) = 1 - P(second) */
    mpfr_ui_sub(hi, 1, hi, MPFR_RNDD);
    expect_overlap(pmf, 0, hi, lo, epsilon);
    dpsel_pmf_free(pmf);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

Test(rnm_pmf, two_candidates_closed_form)
{
    expect_pair("1", 1, 1, 1);        /* b = 1 */
    expect_pair("1", 1, 1, 3);
    expect_pair("0.7", 3, 0, 5);      /* b = 60/7 */
    expect_pair("2", 1, 1, 40);       /* b = 1/2: P(second) near e^-80 */
    expect_pair("0.001", 1, 0, 1);    /* b = 2000: nearly a tie */
}

/* The decimal of a probability near 2^-(2^50), whose decimal exponent has
 * 15 digits: rounded from the enclosure's binary ends, not by powers of ten
 * of as many digits as the exponent. */
Test(rnm_pmf, a_far_second_has_its_decimal)
{
    int64_t scores[2] = { (int64_t)1 << 50, 0 };
    uint64_t w, p;
    cr_assert_eq(dpsel_exact_rnm_scale("1", 1, 1, &w, &p), DPSEL_OK);
    dpsel_pmf *pmf = rnm_pmf("1", 1, 1, scores, NULL, 2);
    mpfr_t lo, hi;
    mpfr_inits2(PRECISION, lo, hi, (mpfr_ptr)0);
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);   /* the closed form's exponent is past MPFR's default */
    second_of_pair((uint64_t)1 << 50, w, p, lo, hi);
    char want[DPSEL_EXACT_DECIMAL_DIGITS + DPSEL_EXACT_TEXT_EXTRA];
    cr_assert_eq(dpsel_exact_mpfr_text(lo, DPSEL_EXACT_DECIMAL_DIGITS, MPFR_RNDN, want),
                 DPSEL_OK);
    dpsel_exact_mpfr_leave(&host);
    char *text = NULL;
    cr_assert_eq(dpsel_pmf_probability(pmf, 1, DPSEL_DECIMAL, &text), DPSEL_OK);
    cr_expect_str_eq(text, want);
    dpsel_string_free(text);
    cr_assert_eq(dpsel_pmf_probability(pmf, 0, DPSEL_DECIMAL, &text), DPSEL_OK);
    cr_expect_str_eq(text, "1.0000000000000000");
    dpsel_string_free(text);
    dpsel_pmf_free(pmf);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

static void expect_equal(size_t n, const uint64_t *multiplicity, uint64_t total)
{
    int64_t scores[8] = { 0 };
    for (size_t r = 0; r < n; r++) {
        scores[r] = -7;
    }
    dpsel_pmf *pmf = rnm_pmf("0.5", 2, 0, scores, multiplicity, n);
    mpfr_t lo, hi;
    mpfr_inits2(PRECISION, lo, hi, (mpfr_ptr)0);
    for (size_t r = 0; r < n; r++) {
        uint64_t members = multiplicity != NULL ? multiplicity[r] : 1;
        mpfr_set_ui(lo, (unsigned long)members, MPFR_RNDN);
        mpfr_div_ui(lo, lo, (unsigned long)total, MPFR_RNDD);
        mpfr_set_ui(hi, (unsigned long)members, MPFR_RNDN);
        mpfr_div_ui(hi, hi, (unsigned long)total, MPFR_RNDU);
        mpfr_t one_lo, one_hi;   /* the pmf's bounds are of one member: scale */
        mpfr_inits2(PRECISION, one_lo, one_hi, (mpfr_ptr)0);
        mpfr_div_ui(one_lo, lo, (unsigned long)members, MPFR_RNDD);
        mpfr_div_ui(one_hi, hi, (unsigned long)members, MPFR_RNDU);
        expect_overlap(pmf, r, one_lo, one_hi, "equal scores");
        mpfr_clears(one_lo, one_hi, (mpfr_ptr)0);
    }
    char *text = NULL;
    cr_expect_eq(dpsel_pmf_expected_error(pmf, DPSEL_DECIMAL, &text), DPSEL_OK);
    cr_expect_str_eq(text, "0");
    dpsel_string_free(text);
    dpsel_pmf_free(pmf);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

Test(rnm_pmf, equal_scores_are_uniform)
{
    expect_equal(1, NULL, 1);
    expect_equal(2, NULL, 2);
    expect_equal(3, NULL, 3);
    expect_equal(7, NULL, 7);
    static const uint64_t groups[3] = { 1, 5, 30 };
    expect_equal(3, groups, 36);
}

/* ----------------------------------------------------------- enumeration */

typedef struct {
    const int64_t *scores;
    size_t n;
} rnm_case;

static int rnm_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    const rnm_case *c = arg;
    return dpsel_rnm_select("1", 1, 1, c->scores, c->n, rng, out);
}

Test(rnm_pmf, bracketed_by_the_samplers_bit_strings)
{
    static const int64_t scores[3] = { 1, 0, 2 };
    rnm_case c = { scores, 3 };
    mpq_t mass[3], residual;
    for (size_t r = 0; r < 3; r++) {
        mpq_init(mass[r]);
    }
    mpq_init(residual);
    cr_assert_geq(enumerate_bits(rnm_sampler, &c, 3, 22, mass, residual), 1);
    dpsel_pmf *pmf = rnm_pmf("1", 1, 1, scores, NULL, 3);
    mpfr_t lo, hi;
    mpfr_inits2(PRECISION, lo, hi, (mpfr_ptr)0);
    for (size_t r = 0; r < 3; r++) {
        mpq_t upper;
        mpq_init(upper);
        mpq_add(upper, mass[r], residual);
        dpsel_exact_pmf_probability_mpfr(pmf, r, lo, hi);
        cr_expect_geq(mpfr_cmp_q(lo, mass[r]), 0, "candidate %zu below its ended strings", r);
        cr_expect_leq(mpfr_cmp_q(hi, upper), 0, "candidate %zu above every string left", r);
        mpq_clear(upper);
    }
    /* 0.53 at depth 22 (3 s): three signs and exponentials per string */
    cr_expect_lt(mpq_get_d(residual), 0.6, "the depth leaves %g unresolved", mpq_get_d(residual));
    dpsel_pmf_free(pmf);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    for (size_t r = 0; r < 3; r++) {
        mpq_clear(mass[r]);
    }
    mpq_clear(residual);
}

/* ------------------------------------------------ sums, groups and errors */

/* Sum of the members' lower and upper bounds, and of gap times them. */
static void sums(const dpsel_pmf *pmf, const int64_t *scores, const uint64_t *multiplicity,
                 size_t n, mpfr_t total_lo, mpfr_t total_hi, mpfr_t error_lo, mpfr_t error_hi)
{
    int64_t best = scores[0];
    for (size_t r = 1; r < n; r++) {
        best = scores[r] > best ? scores[r] : best;
    }
    mpfr_t lo, hi;
    mpfr_inits2(PRECISION, lo, hi, (mpfr_ptr)0);
    mpfr_set_ui(total_lo, 0, MPFR_RNDN);
    mpfr_set_ui(total_hi, 0, MPFR_RNDN);
    mpfr_set_ui(error_lo, 0, MPFR_RNDN);
    mpfr_set_ui(error_hi, 0, MPFR_RNDN);
    for (size_t r = 0; r < n; r++) {
        unsigned long members = multiplicity != NULL ? (unsigned long)multiplicity[r] : 1;
        dpsel_exact_pmf_probability_mpfr(pmf, r, lo, hi);
        mpfr_mul_ui(lo, lo, members, MPFR_RNDD);
        mpfr_mul_ui(hi, hi, members, MPFR_RNDU);
        mpfr_add(total_lo, total_lo, lo, MPFR_RNDD);
        mpfr_add(total_hi, total_hi, hi, MPFR_RNDU);
        mpfr_mul_ui(lo, lo, (unsigned long)(best - scores[r]), MPFR_RNDD);
        mpfr_mul_ui(hi, hi, (unsigned long)(best - scores[r]), MPFR_RNDU);
        mpfr_add(error_lo, error_lo, lo, MPFR_RNDD);
        mpfr_add(error_hi, error_hi, hi, MPFR_RNDU);
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

static void expect_sums(const char *epsilon, int monotonic, const int64_t *scores,
                        const uint64_t *multiplicity, size_t n)
{
    dpsel_pmf *pmf = rnm_pmf(epsilon, 1, monotonic, scores, multiplicity, n);
    mpfr_t total_lo, total_hi, error_lo, error_hi, lo, hi;
    mpfr_inits2(PRECISION, total_lo, total_hi, error_lo, error_hi, lo, hi, (mpfr_ptr)0);
    sums(pmf, scores, multiplicity, n, total_lo, total_hi, error_lo, error_hi);
    cr_expect_leq(mpfr_cmp_ui(total_lo, 1), 0, "%s: the lower bounds add up above 1", epsilon);
    cr_expect_geq(mpfr_cmp_ui(total_hi, 1), 0, "%s: the upper bounds add up below 1", epsilon);
    mpfr_sub(total_hi, total_hi, total_lo, MPFR_RNDU);
    cr_expect_lt(mpfr_cmp_d(total_hi, 1e-29), 0, "%s: the sum's enclosure is too wide", epsilon);
    dpsel_exact_pmf_expected_error_mpfr(pmf, lo, hi);
    cr_expect(mpfr_lessequal_p(lo, error_hi) && mpfr_lessequal_p(error_lo, hi),
              "%s: the expected error is not sum g P", epsilon);
    dpsel_pmf_free(pmf);
    mpfr_clears(total_lo, total_hi, error_lo, error_hi, lo, hi, (mpfr_ptr)0);
}

Test(rnm_pmf, probabilities_add_up_to_one)
{
    static const int64_t staircase[10] = { 0, -1, -2, -3, -4, -5, -6, -7, -8, -9 };
    expect_sums("1", 1, staircase, NULL, 10);
    expect_sums("0.1", 0, staircase, NULL, 10);
    static const int64_t mixed[6] = { 0, 0, -1, -2, -2, -5 };
    expect_sums("0.7", 0, mixed, NULL, 6);
    static const int64_t far[4] = { 1000, 0, 999, -5000 };
    expect_sums("3", 1, far, NULL, 4);
    static const uint64_t groups[4] = { 3, 100, 1, 40 };
    expect_sums("0.25", 0, far, groups, 4);
    int64_t many[300];
    for (size_t r = 0; r < 300; r++) {
        many[r] = r % 3 == 0 ? 0 : -(int64_t)(r % 7);
    }
    expect_sums("0.5", 0, many, NULL, 300);
}

Test(rnm_pmf, groups_match_the_candidates_one_by_one)
{
    static const int64_t grouped[3] = { 4, 9, 4 - 3 };
    static const uint64_t members[3] = { 2, 3, 1 };
    static const int64_t single[6] = { 4, 9, 9, 4, 9, 1 };
    static const size_t group_of[6] = { 0, 1, 1, 0, 1, 2 };
    dpsel_pmf *groups = rnm_pmf("0.3", 2, 0, grouped, members, 3);
    dpsel_pmf *ones = rnm_pmf("0.3", 2, 0, single, NULL, 6);
    mpfr_t lo, hi;
    mpfr_inits2(PRECISION, lo, hi, (mpfr_ptr)0);
    for (size_t r = 0; r < 6; r++) {
        dpsel_exact_pmf_probability_mpfr(groups, group_of[r], lo, hi);
        expect_overlap(ones, r, lo, hi, "grouped");
    }
    dpsel_pmf_free(groups);
    dpsel_pmf_free(ones);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

/* Two close levels of many candidates each: the expansion's terms cancel
 * (about 1.6 bits a candidate), and the enclosure stays narrow. */
Test(rnm_pmf, cancellation_is_paid_for)
{
    static int64_t scores[1000];
    for (size_t r = 0; r < 1000; r++) {
        scores[r] = r < 1 ? 3 : 0;
    }
    expect_sums("0.1", 0, scores, NULL, 1000);
}

/* -------------------------------------------------------------- bad input */

static int cancel_at_once(void *context, uint64_t done, uint64_t total)
{
    (void)context;
    (void)done;
    (void)total;
    return 1;
}

Test(rnm_pmf, bad_input)
{
    static const int64_t scores[3] = { 3, 1, 2 };
    static const uint64_t zero_member[3] = { 1, 0, 1 };
    dpsel_pmf *pmf = NULL;
    cr_expect_eq(dpsel_rnm_pmf_new(NULL, "1", 1, 0, scores, NULL, 3, NULL, NULL), DPSEL_ENULL);
    cr_expect_eq(dpsel_rnm_pmf_new(&pmf, NULL, 1, 0, scores, NULL, 3, NULL, NULL), DPSEL_ENULL);
    cr_expect_eq(dpsel_rnm_pmf_new(&pmf, "1", 1, 0, NULL, NULL, 3, NULL, NULL), DPSEL_ENULL);
    cr_expect_eq(dpsel_rnm_pmf_new(&pmf, "1", 1, 0, scores, NULL, 0, NULL, NULL), DPSEL_EEMPTY);
    cr_expect_eq(dpsel_rnm_pmf_new(&pmf, "1", 0, 0, scores, NULL, 3, NULL, NULL), DPSEL_ERANGE);
    cr_expect_eq(dpsel_rnm_pmf_new(&pmf, "1", 1, 2, scores, NULL, 3, NULL, NULL), DPSEL_ERANGE);
    cr_expect_eq(dpsel_rnm_pmf_new(&pmf, "1", 1, 0, scores, zero_member, 3, NULL, NULL),
                 DPSEL_ERANGE);
    cr_expect_eq(dpsel_rnm_pmf_new(&pmf, "-1", 1, 0, scores, NULL, 3, NULL, NULL),
                 DPSEL_EEPSILON);
    cr_expect_eq(dpsel_rnm_pmf_new(&pmf, "0", 1, 0, scores, NULL, 3, NULL, NULL), DPSEL_EEPSILON);
    cr_expect_eq(dpsel_rnm_pmf_new(&pmf, "1", 1, 0, scores, NULL, 3, cancel_at_once, NULL),
                 DPSEL_ECANCELED);
    cr_expect_null(pmf, "nothing is made on failure");
    dpsel_params params;
    cr_assert_eq(dpsel_params_from_epsilon(&params, "1", 1, 0), DPSEL_OK);
    cr_expect_eq(dpsel_pmf_new(&pmf, &params, DPSEL_RNM, scores, 3), DPSEL_ERANGE,
                 "the params path refuses RNM: its epsilon is a decimal");
}

Test(rnm_pmf, no_exact_rationals)
{
    static const int64_t scores[3] = { 3, 1, 2 };
    dpsel_pmf *pmf = rnm_pmf("1", 1, 0, scores, NULL, 3);
    char *text = NULL;
    cr_expect_eq(dpsel_pmf_probability(pmf, 0, DPSEL_RATIONAL, &text), DPSEL_ERANGE);
    cr_expect_eq(dpsel_pmf_expected_error(pmf, DPSEL_RATIONAL, &text), DPSEL_ERANGE);
    cr_expect_null(text);
    cr_expect_eq(dpsel_pmf_probability(pmf, 0, DPSEL_DECIMAL, &text), DPSEL_OK);
    dpsel_string_free(text);
    dpsel_pmf_free(pmf);
}

Test(rnm_pmf, work_is_bounded_before_it_starts)
{
    dpsel_pmf *pmf = NULL;
    static const int64_t scores[2] = { 0, 1 };
    static const uint64_t crowd[2] = { 1, (uint64_t)1 << 17 };
    cr_expect_eq(dpsel_rnm_pmf_new(&pmf, "1", 1, 0, scores, crowd, 2, NULL, NULL),
                 DPSEL_ETOOLARGE, "past 65536 candidates");
    static const int64_t apart[2] = { INT64_MAX, INT64_MIN };
    cr_expect_eq(dpsel_rnm_pmf_new(&pmf, "1", 1, 0, apart, NULL, 2, NULL, NULL),
                 DPSEL_ETOOLARGE, "e^(-2^64 / b) is below MPFR's range");
    int64_t *distinct = malloc(3000 * sizeof *distinct);
    cr_assert_not_null(distinct);
    for (size_t r = 0; r < 3000; r++) {
        distinct[r] = -(int64_t)r;
    }
    cr_expect_eq(dpsel_rnm_pmf_new(&pmf, "1", 1, 0, distinct, NULL, 3000, NULL, NULL),
                 DPSEL_ETOOLARGE, "n^3 work refused before it starts");
    free(distinct);
    cr_expect_null(pmf);
}

/* ------------------------------------------------------------------ audit */

static dpsel_audit_verdict rnm_verdict(int monotonic, const int64_t *a, const int64_t *b,
                                       size_t n, dpsel_audit_result *result)
{
    int rc = dpsel_rnm_audit(result, "1", 1, monotonic, a, b, n, NULL, NULL);
    cr_assert_eq(rc, DPSEL_OK, "dpsel_rnm_audit: %s", dpsel_strerror(rc));
    return result->verdict;
}

/* The notebook's scale D / epsilon on scores that are not monotonic (one up
 * by D, one down) is 2 epsilon-DP: at a gap of 11 the second's ratio is
 * e^1.83 > e^1, broken; the scale 2 D / epsilon holds (loss 0.857). */
Test(rnm_pmf, audit_catches_the_notebooks_scale)
{
    static const int64_t a[2] = { 11, 0 };
    static const int64_t b[2] = { 10, 1 };
    dpsel_audit_result result;
    cr_expect_eq(rnm_verdict(1, a, b, 2, &result), DPSEL_AUDIT_BROKEN, "D / epsilon");
    cr_expect_eq(result.output, 1);
    cr_expect_str_eq(result.loss_lower, "1.83294591533683380800845613639981069");
    cr_expect_eq(rnm_verdict(0, a, b, 2, &result), DPSEL_AUDIT_HOLDS, "2 D / epsilon");
    cr_expect(result.neighbours);
    cr_expect_str_eq(result.loss_upper, "0.856899156359326670057482871416605261");
}

/* Monotonic neighbours at D / epsilon hold: every score up by at most 1. */
Test(rnm_pmf, audit_holds_for_monotonic_neighbours)
{
    static const int64_t a[5] = { 41, 38, 40, 12, 33 };
    static const int64_t b[5] = { 41, 39, 41, 12, 34 };
    dpsel_audit_result result;
    cr_expect_eq(rnm_verdict(1, a, b, 5, &result), DPSEL_AUDIT_HOLDS);
    cr_expect(result.neighbours && result.b_at_least_a);
    cr_expect_eq(rnm_verdict(0, a, b, 5, &result), DPSEL_AUDIT_HOLDS);
}

Test(rnm_pmf, audit_bad_input)
{
    static const int64_t a[2] = { 1, 0 };
    dpsel_audit_result result;
    cr_expect_eq(dpsel_rnm_audit(NULL, "1", 1, 0, a, a, 2, NULL, NULL), DPSEL_ENULL);
    cr_expect_eq(dpsel_rnm_audit(&result, NULL, 1, 0, a, a, 2, NULL, NULL), DPSEL_ENULL);
    cr_expect_eq(dpsel_rnm_audit(&result, "1", 1, 0, a, NULL, 2, NULL, NULL), DPSEL_ENULL);
    cr_expect_eq(dpsel_rnm_audit(&result, "1", 1, 0, a, a, 0, NULL, NULL), DPSEL_EEMPTY);
    cr_expect_eq(dpsel_rnm_audit(&result, "x", 1, 0, a, a, 2, NULL, NULL), DPSEL_EEPSILON);
    cr_expect_eq(dpsel_rnm_audit(&result, "1", 0, 0, a, a, 2, NULL, NULL), DPSEL_ERANGE);
    cr_expect_eq(dpsel_rnm_audit(&result, "1", 1, 0, a, a, 2, cancel_at_once, NULL),
                 DPSEL_ECANCELED);
    dpsel_params params;
    cr_assert_eq(dpsel_params_from_epsilon(&params, "1", 1, 0), DPSEL_OK);
    cr_expect_eq(dpsel_audit(&result, &params, DPSEL_RNM, a, a, 2), DPSEL_ERANGE);
}
