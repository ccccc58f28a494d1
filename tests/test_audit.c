/* SPDX-License-Identifier: ISC */
/* The privacy audit (dpsel_audit, src/exact/audit.c).
 *   - On 3000 small random pairs (PF and EM, monotonic or not, D 1 and 2,
 *     caps, distances 0 to 3) the verdict equals the truth computed here
 *     from the exact rationals (never undecided), true neighbours always
 *     hold, the loss bounds contain the exact loss, and the neighbour check
 *     matches an independent one.
 *   - On HEPTH (1024 bins, beyond PF's exact rationals) true neighbours hold
 *     at the realised epsilon, the tight PF case included (decided by the
 *     exact argument of spec §9), and a pair at distance 2 audited with
 *     D = 1 is broken.
 *   - A breach far below the enclosures' width is caught by the exact
 *     rationals, and reported undecided (never "holds") without them. */
#include <criterion/criterion.h>
#include <mpfr.h>
#include <stdio.h>
#include <string.h>

#include "support.h"

#define LOSS_BITS 320

static uint64_t audit_random(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return *state >> 33;
}

static dpsel_audit_result run_audit(const dpsel_params *p, dpsel_mechanism m,
                                    const int64_t *a, const int64_t *b, size_t n)
{
    dpsel_audit_result result;
    cr_assert_eq(dpsel_audit(&result, p, m, a, b, n), DPSEL_OK);
    return result;
}

/* Whether P_f(r) / P_t(r) <= beta^-m for every r, from the exact
 * rationals: P_f x^m <= P_t 2^(y m). */
static int ratios_within(const dpsel_pmf *f, const dpsel_pmf *t, size_t n,
                         const dpsel_params *p, unsigned long m)
{
    mpq_t pf, pt;
    mpz_t left, right;
    mpq_inits(pf, pt, (mpq_ptr)0);
    mpz_inits(left, right, (mpz_ptr)0);
    int within = 1;
    for (size_t r = 0; r < n; r++) {
        pmf_rational(f, r, pf);
        pmf_rational(t, r, pt);
        mpz_ui_pow_ui(left, (unsigned long)p->x, m);
        mpz_mul(left, left, mpq_numref(pf));
        mpz_mul(left, left, mpq_denref(pt));
        mpz_mul_2exp(right, mpq_numref(pt), p->y * m);
        mpz_mul(right, right, mpq_denref(pf));
        within &= mpz_cmp(left, right) <= 0;
    }
    mpq_clears(pf, pt, (mpq_ptr)0);
    mpz_clears(left, right, (mpz_ptr)0);
    return within;
}

/* lo <= max_r |ln(P_a(r) / P_b(r))| <= hi, from the exact rationals. */
static void exact_loss(const dpsel_pmf *a, const dpsel_pmf *b, size_t n, mpfr_t lo, mpfr_t hi)
{
    mpq_t pa, pb, ratio;
    mpfr_t down, up;
    mpq_inits(pa, pb, ratio, (mpq_ptr)0);
    mpfr_inits2(LOSS_BITS, down, up, (mpfr_ptr)0);
    mpfr_set_ui(lo, 0, MPFR_RNDD);
    mpfr_set_ui(hi, 0, MPFR_RNDU);
    for (size_t r = 0; r < n; r++) {
        pmf_rational(a, r, pa);
        pmf_rational(b, r, pb);
        mpq_div(ratio, pa, pb);
        if (mpq_cmp_ui(ratio, 1, 1) < 0) {
            mpq_inv(ratio, ratio);
        }
        mpfr_set_q(down, ratio, MPFR_RNDD);
        mpfr_log(down, down, MPFR_RNDD);
        mpfr_set_q(up, ratio, MPFR_RNDU);
        mpfr_log(up, up, MPFR_RNDU);
        mpfr_max(lo, lo, down, MPFR_RNDD);
        mpfr_max(hi, hi, up, MPFR_RNDU);
    }
    mpq_clears(pa, pb, ratio, (mpq_ptr)0);
    mpfr_clears(down, up, (mpfr_ptr)0);
}

/* The reported loss bounds contain the exact loss. */
static void check_loss_bounds(const dpsel_audit_result *result, const dpsel_pmf *a,
                              const dpsel_pmf *b, size_t n)
{
    mpfr_t lo, hi, reported_lo, reported_hi;
    mpfr_inits2(LOSS_BITS, lo, hi, reported_lo, reported_hi, (mpfr_ptr)0);
    exact_loss(a, b, n, lo, hi);
    /* the decimal strings are exact rounded values: parse them outwards */
    cr_assert_eq(mpfr_set_str(reported_lo, result->loss_lower, 10, MPFR_RNDD), 0);
    cr_assert_eq(mpfr_set_str(reported_hi, result->loss_upper, 10, MPFR_RNDU), 0);
    cr_expect(mpfr_lessequal_p(reported_lo, hi), "loss lower bound %s above the exact loss",
              result->loss_lower);
    cr_expect(mpfr_lessequal_p(lo, reported_hi), "loss upper bound %s below the exact loss",
              result->loss_upper);
    mpfr_clears(lo, hi, reported_lo, reported_hi, (mpfr_ptr)0);
}

/* The neighbour fields, checked independently. */
static void check_neighbour_fields(const dpsel_audit_result *result, const dpsel_params *p,
                                   const int64_t *a, const int64_t *b, size_t n)
{
    int64_t distance = 0;
    int up = 1, down = 1;
    for (size_t r = 0; r < n; r++) {
        int64_t d = b[r] - a[r];  /* small scores: no overflow */
        distance = d > distance ? d : -d > distance ? -d : distance;
        up &= d >= 0;
        down &= d <= 0;
    }
    cr_expect_eq(result->distance, (uint64_t)distance);
    cr_expect_eq(result->b_at_least_a, up);
    cr_expect_eq(result->b_at_most_a, down);
    cr_expect_eq(result->neighbours,
                 (uint64_t)distance <= p->sensitivity && (!p->monotonic || up || down));
}

Test(audit, small_pairs_match_the_exact_truth)
{
    static const uint64_t bases[][2] = { { 1, 1 }, { 3, 2 }, { 7, 3 }, { 5, 3 }, { 15, 4 } };
    uint64_t state = 20261123;
    unsigned tallies[3] = { 0 };
    for (int trial = 0; trial < 3000; trial++) {
        size_t n = 1 + audit_random(&state) % 5;
        const uint64_t *base = bases[audit_random(&state) % 5];
        uint64_t sensitivity = 1 + audit_random(&state) % 2;
        int monotonic = (int)(audit_random(&state) % 2);
        dpsel_mechanism m = audit_random(&state) % 2 ? DPSEL_EM : DPSEL_PF;
        dpsel_params p = base_params(base[0], (unsigned)base[1], sensitivity, monotonic);
        if (audit_random(&state) % 3 == 0) {
            cr_assert_eq(dpsel_params_set_gap_cap(&p, 1 + audit_random(&state) % 4), DPSEL_OK);
        }
        int64_t a[5], b[5];
        int64_t spread = (int64_t)(audit_random(&state) % 4);   /* distance up to 3 */
        int one_sided = (int)(audit_random(&state) % 2);
        for (size_t r = 0; r < n; r++) {
            a[r] = (int64_t)(audit_random(&state) % 13) - 6;
            int64_t d = (int64_t)(audit_random(&state) % (uint64_t)(2 * spread + 1)) - spread;
            b[r] = a[r] + (one_sided && d < 0 ? -d : d);
        }
        dpsel_audit_result result = run_audit(&p, m, a, b, n);
        dpsel_pmf *pa = NULL, *pb = NULL;
        cr_assert_eq(dpsel_pmf_new(&pa, &p, m, a, n), DPSEL_OK);
        cr_assert_eq(dpsel_pmf_new(&pb, &p, m, b, n), DPSEL_OK);
        unsigned long factor = (unsigned long)((monotonic ? 1 : 2) * sensitivity);
        int holds = ratios_within(pa, pb, n, &p, factor) && ratios_within(pb, pa, n, &p, factor);
        cr_assert_eq(result.verdict, holds ? DPSEL_AUDIT_HOLDS : DPSEL_AUDIT_BROKEN,
                     "trial %d: verdict %d, truth %s", trial, result.verdict,
                     holds ? "holds" : "broken");
        check_neighbour_fields(&result, &p, a, b, n);
        if (result.neighbours) {
            cr_assert_eq(result.verdict, DPSEL_AUDIT_HOLDS, "trial %d: neighbours broken", trial);
        }
        check_loss_bounds(&result, pa, pb, n);
        tallies[result.verdict]++;
        dpsel_pmf_free(pa);
        dpsel_pmf_free(pb);
    }
    /* both verdicts occur often: the comparison is exercised both ways */
    cr_expect(tallies[DPSEL_AUDIT_HOLDS] > 500 && tallies[DPSEL_AUDIT_BROKEN] > 200,
              "holds %u, broken %u", tallies[DPSEL_AUDIT_HOLDS], tallies[DPSEL_AUDIT_BROKEN]);
}

/* HEPTH with 4 adjacent bins summed: 1024 candidates, counts up to 1571. */
static void hepth_1024(int64_t counts[1024])
{
    FILE *f = fopen("examples/hepth.csv", "r");
    cr_assert(f != NULL, "examples/hepth.csv: run the tests from the repository root");
    char line[256];
    long long bin, count;
    size_t bins = 0;
    memset(counts, 0, 1024 * sizeof *counts);
    while (fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "%lld,%lld", &bin, &count) == 2) {
            cr_assert(bin >= 0 && bin < 4096);
            counts[bin / 4] += count;
            bins++;
        }
    }
    fclose(f);
    cr_assert_eq(bins, 4096);
}

/* The reported loss upper bound is at most the realised epsilon rounded up
 * to the same 36 digits, as decimals (parsing both to nearest at 320 bits
 * keeps the order of distinct 36-digit decimals). */
static void check_loss_below_epsilon(const dpsel_audit_result *result, const dpsel_params *p)
{
    char epsilon[64];
    mpfr_t loss, eps;
    mpfr_inits2(LOSS_BITS, loss, eps, (mpfr_ptr)0);
    cr_assert_eq(dpsel_params_epsilon(p, 36, epsilon, sizeof epsilon), DPSEL_OK);
    mpfr_set_str(loss, result->loss_upper, 10, MPFR_RNDN);
    mpfr_set_str(eps, epsilon, 10, MPFR_RNDN);
    cr_expect(mpfr_lessequal_p(loss, eps), "loss <= %s above epsilon <= %s",
              result->loss_upper, epsilon);
    mpfr_clears(loss, eps, (mpfr_ptr)0);
}

Test(audit, hepth_neighbours_hold_at_the_realised_epsilon, .timeout = 120)
{
    int64_t a[1024], b[1024];
    hepth_1024(a);
    dpsel_params monotonic, general;
    cr_assert_eq(dpsel_params_from_epsilon(&monotonic, "0.01", 1, 1), DPSEL_OK);
    cr_assert_eq(dpsel_params_from_epsilon(&general, "0.01", 1, 0), DPSEL_OK);
    /* one record added to bin 500 (mode task: monotonic) */
    memcpy(b, a, sizeof b);
    b[500] += 1;
    for (int m = 0; m < 2; m++) {
        dpsel_audit_result result = run_audit(&monotonic, (dpsel_mechanism)m, a, b, 1024);
        cr_expect_eq(result.verdict, DPSEL_AUDIT_HOLDS, "mechanism %d", m);
        cr_expect(result.neighbours && result.distance == 1 && result.b_at_least_a);
        cr_expect_eq(result.output, 500);
        check_loss_below_epsilon(&result, &monotonic);
        if (m == DPSEL_PF) {
            /* P_b(500) / P_a(500) = e^epsilon exactly: only the exact
             * argument proves it (no exact rationals at this size) */
            cr_expect_geq(result.decided_exactly, 1);
        }
    }
    /* scores moved both ways by at most 1, audited without --monotonic */
    b[803] -= 1;
    b[17] -= 1;
    for (int m = 0; m < 2; m++) {
        dpsel_audit_result result = run_audit(&general, (dpsel_mechanism)m, a, b, 1024);
        cr_expect_eq(result.verdict, DPSEL_AUDIT_HOLDS, "mechanism %d", m);
        cr_expect(result.neighbours && !result.b_at_least_a && !result.b_at_most_a);
        check_loss_below_epsilon(&result, &general);
    }
}

Test(audit, a_sensitivity_too_small_for_the_pair_is_broken, .timeout = 120)
{
    int64_t a[1024], b[1024];
    hepth_1024(a);
    memcpy(b, a, sizeof b);
    b[803] += 2;   /* the mode, 1571: two records */
    dpsel_params d1, d2;
    cr_assert_eq(dpsel_params_from_base(&d1, 2797128963144291325u, 62, 1, 1), DPSEL_OK);
    cr_assert_eq(dpsel_params_from_base(&d2, 2797128963144291325u, 62, 2, 1), DPSEL_OK);
    for (int m = 0; m < 2; m++) {
        dpsel_audit_result result = run_audit(&d1, (dpsel_mechanism)m, a, b, 1024);
        cr_expect_eq(result.verdict, DPSEL_AUDIT_BROKEN, "mechanism %d with D = 1", m);
        cr_expect(!result.neighbours && result.distance == 2);
        result = run_audit(&d2, (dpsel_mechanism)m, a, b, 1024);
        cr_expect_eq(result.verdict, DPSEL_AUDIT_HOLDS, "mechanism %d with D = 2", m);
        cr_expect(result.neighbours);
    }
}

/* beta = 3/4, cap 1000, D = 2, monotonic (e^epsilon = 16/9): b raises
 * candidate 1 by two and lowers candidate 2 (weight (3/4)^760 ~ 2^-315) by
 * one, so the pair is not monotonic.  Under PF, P_b(1) / P_a(1) =
 * (16/9) (1 + ~2^-317): above e^epsilon by far less than the enclosures'
 * width. */
static void breach_below_the_width(int64_t *a, int64_t *b, size_t n, dpsel_params *p)
{
    *p = base_params(3, 2, 2, 1);
    cr_assert_eq(dpsel_params_set_gap_cap(p, 1000), DPSEL_OK);
    for (size_t r = 0; r < n; r++) {
        a[r] = b[r] = -900;   /* padding, equal in both */
    }
    a[0] = b[0] = 10;
    a[1] = 0;
    b[1] = 2;
    a[2] = -750;
    b[2] = -751;
}

Test(audit, exact_rationals_catch_a_breach_below_the_enclosure_width)
{
    int64_t a[3], b[3];
    dpsel_params p;
    breach_below_the_width(a, b, 3, &p);
    dpsel_audit_result result = run_audit(&p, DPSEL_PF, a, b, 3);
    cr_expect_eq(result.verdict, DPSEL_AUDIT_BROKEN);
    cr_expect_geq(result.decided_exactly, 1);
    cr_expect(result.output == 1 && !result.a_over_b && !result.neighbours);
    /* EM: P_b(1) / P_a(1) = (16/9) S_a / S_b, and S_b > S_a */
    result = run_audit(&p, DPSEL_EM, a, b, 3);
    cr_expect_eq(result.verdict, DPSEL_AUDIT_HOLDS);
}

Test(audit, undecided_without_exact_rationals_never_holds)
{
    static int64_t a[4097], b[4097];   /* beyond PF's exact limit of 4096 */
    dpsel_params p;
    breach_below_the_width(a, b, 4097, &p);
    dpsel_audit_result result = run_audit(&p, DPSEL_PF, a, b, 4097);
    cr_expect_eq(result.verdict, DPSEL_AUDIT_UNDECIDED);
}

Test(audit, neighbour_check_at_the_int64_extremes)
{
    const int64_t a[2] = { INT64_MIN, 0 };
    const int64_t b[2] = { INT64_MAX, 0 };
    dpsel_params p = base_params(1, 1, 1, 0);
    dpsel_audit_result result = run_audit(&p, DPSEL_EM, a, b, 2);
    cr_expect_eq(result.distance, UINT64_MAX);
    cr_expect(result.b_at_least_a && !result.b_at_most_a && !result.neighbours);
    cr_expect_eq(result.verdict, DPSEL_AUDIT_BROKEN);
}

Test(audit, errors_leave_the_result_untouched)
{
    const int64_t a[2] = { 1, 2 };
    dpsel_params p = base_params(1, 1, 1, 0);
    dpsel_params bad = p;
    bad.y = 0;
    dpsel_audit_result result, before;
    memset(&result, 0xA5, sizeof result);
    before = result;
    cr_expect_eq(dpsel_audit(NULL, &p, DPSEL_PF, a, a, 2), DPSEL_ENULL);
    cr_expect_eq(dpsel_audit(&result, NULL, DPSEL_PF, a, a, 2), DPSEL_ENULL);
    cr_expect_eq(dpsel_audit(&result, &p, DPSEL_PF, NULL, a, 2), DPSEL_ENULL);
    cr_expect_eq(dpsel_audit(&result, &p, DPSEL_PF, a, NULL, 2), DPSEL_ENULL);
    cr_expect_eq(dpsel_audit(&result, &p, DPSEL_PF, a, a, 0), DPSEL_EEMPTY);
    cr_expect_eq(dpsel_audit(&result, &bad, DPSEL_PF, a, a, 2), DPSEL_ERANGE);
    cr_expect_eq(dpsel_audit(&result, &p, (dpsel_mechanism)2, a, a, 2), DPSEL_ERANGE);
    cr_expect_eq(memcmp(&result, &before, sizeof result), 0);
    /* identical vectors: loss exactly 0 */
    result = run_audit(&p, DPSEL_PF, a, a, 2);
    cr_expect_eq(result.verdict, DPSEL_AUDIT_HOLDS);
    cr_expect_eq(result.distance, 0);
    cr_expect_str_eq(result.loss_lower, "0");
}
