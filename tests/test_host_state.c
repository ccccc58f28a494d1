/* SPDX-License-Identifier: ISC */
/* dpsel inside a host that uses MPFR itself: every public function that
 * computes with MPFR works in whatever exponent range the host set (here
 * the double range, emin -1073 and emax 1024), gives the same results as in
 * MPFR's default range, and leaves the host's exponent range, its flags and
 * its constant caches as they were.  Criterion runs each test in a process
 * of its own, so the global MPFR state set here does not leak into others. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <mpfr.h>
#include <string.h>

#include "support.h"

#define HOST_EMIN (-1073)
#define HOST_EMAX 1024
#define HOST_FLAGS (MPFR_FLAGS_UNDERFLOW | MPFR_FLAGS_DIVBY0)
#define CACHE_PRECISION 1000
#define N 3

static const int64_t scores_a[N] = { 0, 5, 100 };
static const int64_t scores_b[N] = { 1, 5, 100 };

/* What every MPFR-using public function returns on fixed arguments. */
typedef struct {
    dpsel_params from_epsilon, from_base;
    char epsilon[40];
    size_t chosen[2];
    char *text[2][N + 1][4];  /* per mechanism, candidate (N: expected error):
                                 decimal, rational, lower, upper */
    dpsel_audit_result audit;
} outcomes;

static void pmf_texts(const dpsel_params *p, dpsel_mechanism m, char *text[N + 1][4])
{
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, p, m, scores_a, N), DPSEL_OK);
    for (size_t r = 0; r < N; r++) {
        cr_assert_eq(dpsel_pmf_probability(pmf, r, DPSEL_DECIMAL, &text[r][0]), DPSEL_OK);
        cr_assert_eq(dpsel_pmf_probability(pmf, r, DPSEL_RATIONAL, &text[r][1]), DPSEL_OK);
        cr_assert_eq(dpsel_pmf_probability_bounds(pmf, r, 36, &text[r][2], &text[r][3]),
                     DPSEL_OK);
    }
    cr_assert_eq(dpsel_pmf_expected_error(pmf, DPSEL_DECIMAL, &text[N][0]), DPSEL_OK);
    cr_assert_eq(dpsel_pmf_expected_error(pmf, DPSEL_RATIONAL, &text[N][1]), DPSEL_OK);
    cr_assert_eq(dpsel_pmf_expected_error_bounds(pmf, 36, &text[N][2], &text[N][3]), DPSEL_OK);
    dpsel_pmf_free(pmf);
}

/* Calls every public function that uses MPFR, asserting success.  Epsilon
 * 0.01 makes weights far below 2^-1073: beta^(2^19) in the selector's table,
 * beta^100 in the pmf. */
static void compute_all(outcomes *o)
{
    memset(o, 0, sizeof *o);
    cr_assert_eq(dpsel_params_from_epsilon(&o->from_epsilon, "0.01", 1, 0), DPSEL_OK);
    cr_assert_eq(dpsel_params_from_base(&o->from_base, 3, 2, 1, 0), DPSEL_OK);
    cr_assert_eq(dpsel_params_epsilon(&o->from_epsilon, 17, o->epsilon, sizeof o->epsilon),
                 DPSEL_OK);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &o->from_epsilon), DPSEL_OK);
    for (int m = 0; m < 2; m++) {
        dpsel_rng rng = seeded_rng(7);
        cr_assert_eq(dpsel_select(selector, (dpsel_mechanism)m, scores_a, N, &rng,
                                  &o->chosen[m]), DPSEL_OK);
        pmf_texts(&o->from_epsilon, (dpsel_mechanism)m, o->text[m]);
    }
    dpsel_selector_free(selector);
    cr_assert_eq(dpsel_audit(&o->audit, &o->from_epsilon, DPSEL_PF, scores_a, scores_b, N),
                 DPSEL_OK);
}

static void outcomes_free(outcomes *o)
{
    for (int m = 0; m < 2; m++) {
        for (size_t r = 0; r <= N; r++) {
            for (int k = 0; k < 4; k++) {
                dpsel_string_free(o->text[m][r][k]);
            }
        }
    }
}

static void expect_same_params(const dpsel_params *a, const dpsel_params *b)
{
    cr_expect(a->x == b->x && a->y == b->y && a->sensitivity == b->sensitivity
              && a->monotonic == b->monotonic && a->gap_cap == b->gap_cap,
              "params %" PRIu64 "/2^%u cap %" PRIu64 " and %" PRIu64 "/2^%u cap %" PRIu64,
              a->x, a->y, a->gap_cap, b->x, b->y, b->gap_cap);
}

static void expect_same(const outcomes *a, const outcomes *b)
{
    expect_same_params(&a->from_epsilon, &b->from_epsilon);
    expect_same_params(&a->from_base, &b->from_base);
    cr_expect_str_eq(a->epsilon, b->epsilon);
    for (int m = 0; m < 2; m++) {
        cr_expect_eq(a->chosen[m], b->chosen[m]);
        for (size_t r = 0; r <= N; r++) {
            for (int k = 0; k < 4; k++) {
                cr_expect_str_eq(a->text[m][r][k], b->text[m][r][k]);
            }
        }
    }
    cr_expect_eq(a->audit.verdict, b->audit.verdict);
    cr_expect_eq(a->audit.decided_exactly, b->audit.decided_exactly);
    cr_expect_str_eq(a->audit.loss_lower, b->audit.loss_lower);
    cr_expect_str_eq(a->audit.loss_upper, b->audit.loss_upper);
}

static void set_flags(mpfr_flags_t flags)
{
    mpfr_flags_clear(MPFR_FLAGS_ALL);
    mpfr_flags_set(flags);
}

Test(host_state, results_as_in_the_default_range_and_the_state_kept)
{
    outcomes reference, hosted;
    compute_all(&reference);
    cr_assert_eq(mpfr_set_emin(HOST_EMIN), 0);
    cr_assert_eq(mpfr_set_emax(HOST_EMAX), 0);
    set_flags(HOST_FLAGS);
    compute_all(&hosted);
    expect_same(&reference, &hosted);
    cr_expect_eq(mpfr_get_emin(), HOST_EMIN);
    cr_expect_eq(mpfr_get_emax(), HOST_EMAX);
    cr_expect_eq(mpfr_flags_save(), HOST_FLAGS, "flags %#x, the host left %#x",
                 (unsigned)mpfr_flags_save(), (unsigned)HOST_FLAGS);
    outcomes_free(&reference);
    outcomes_free(&hosted);
}

Test(host_state, flags_left_exactly_as_the_host_set_them)
{
    const mpfr_flags_t cases[] = { 0, MPFR_FLAGS_INEXACT, HOST_FLAGS, MPFR_FLAGS_ALL };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        outcomes o;
        set_flags(cases[i]);
        compute_all(&o);
        cr_expect_eq(mpfr_flags_save(), cases[i], "flags %#x, the host left %#x",
                     (unsigned)mpfr_flags_save(), (unsigned)cases[i]);
        outcomes_free(&o);
    }
}

Test(host_state, the_host_constant_cache_survives)
{
    mpfr_t log2;
    mpfr_init2(log2, CACHE_PRECISION);
    mpfr_const_log2(log2, MPFR_RNDN);   /* the host's cache of log 2 */
    outcomes o;
    compute_all(&o);
    outcomes_free(&o);
    allocations counted;
    gmp_count_start(&counted);
    mpfr_const_log2(log2, MPFR_RNDN);
    gmp_count_stop();
    cr_expect_eq(counted.calls, 0, "log 2 recomputed: %zu allocations", counted.calls);
    mpfr_clear(log2);
    mpfr_free_cache();
}
