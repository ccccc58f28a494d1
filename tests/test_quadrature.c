/* SPDX-License-Identifier: ISC */
/* PF's enclosures by certified quadrature (src/exact/quadrature.c): on the
 * same levels as the polynomial path, each path's enclosure contains the
 * exact rational and the other path's enclosure at 512 bits (at 128 bits of
 * working precision, and at 8 to 32 bits where every rounding matters); on
 * a thousand candidates they contain the polynomial path at 1024 bits; past
 * the polynomial path's 2^15 candidates the pmf holds,
 * narrow, and contains the closed forms of one best candidate against many
 * at one gap, also with 2^40 members in a group. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <mpfr.h>

#include "core/gap.h"
#include "exact/exact.h"
#include "support.h"

#define CHECK_BITS 512

/* The levels of scores: distinct clamped gaps (increasing) and their
 * candidates; level_of[r] for each candidate.  Returns the count. */
static size_t make_levels(const dpsel_params *p, const int64_t *s, size_t n, uint64_t *gap,
                          size_t *members, size_t *level_of)
{
    int64_t best = s[dpsel_core_argmax(s, n)];
    size_t count = 0;
    for (uint64_t g = 0; count < n; g++) {          /* gaps are few and small here */
        size_t m = 0;
        for (size_t r = 0; r < n; r++) {
            if (dpsel_core_clamped_gap(best, s[r], p->gap_cap) == g) {
                level_of[r] = count;
                m++;
            }
        }
        if (m > 0) {
            gap[count] = g;
            members[count++] = m;
        }
        if (g == p->gap_cap) {
            break;
        }
    }
    return count;
}

/* Both paths' bounds at precision prec. */
typedef struct {
    mpfr_t *lo, *hi;
} path_bounds;

static path_bounds enclose(const dpsel_params *p, dpsel_exact_pf_path path, const uint64_t *gap,
                           const size_t *members, size_t count, mpfr_prec_t prec)
{
    path_bounds b = { dpsel_exact_numbers_new(count, prec), dpsel_exact_numbers_new(count, prec) };
    cr_assert(b.lo != NULL && b.hi != NULL);
    cr_assert_eq(dpsel_exact_enclose_levels_by(DPSEL_PF, path, p->x, p->y, gap, members, count,
                                               prec, NULL, b.lo, b.hi), DPSEL_OK);
    return b;
}

static void path_bounds_free(path_bounds *b, size_t count)
{
    dpsel_exact_numbers_free(b->lo, count);
    dpsel_exact_numbers_free(b->hi, count);
}

/* [lo, hi] contains [inner_lo, inner_hi] but for that one's width (so that
 * a bound equal to an exactly representable value passes). */
static void expect_contains(const mpfr_t lo, const mpfr_t hi, const mpfr_t inner_lo,
                            const mpfr_t inner_hi, const char *what)
{
    mpfr_t width, end;
    mpfr_inits2(mpfr_get_prec(inner_lo) + 8, width, end, (mpfr_ptr)0);
    mpfr_sub(width, inner_hi, inner_lo, MPFR_RNDU);
    mpfr_add(end, inner_lo, width, MPFR_RNDU);
    cr_expect(mpfr_lessequal_p(lo, end), "%s: lower bound above the other's", what);
    mpfr_sub(end, inner_hi, width, MPFR_RNDD);
    cr_expect(mpfr_greaterequal_p(hi, end), "%s: upper bound below the other's", what);
    mpfr_clears(width, end, (mpfr_ptr)0);
}

/* Each path at prec contains the exact rationals and the other path at
 * CHECK_BITS (and is narrow at prec >= 128). */
static void check_paths(const dpsel_params *p, const int64_t *s, size_t n, mpfr_prec_t prec)
{
    uint64_t *gap = calloc(n, sizeof *gap);
    size_t *members = calloc(n, sizeof *members), *level_of = calloc(n, sizeof *level_of);
    cr_assert(gap != NULL && members != NULL && level_of != NULL);
    size_t count = make_levels(p, s, n, gap, members, level_of);
    dpsel_exact_pf_path paths[2] = { DPSEL_EXACT_PF_POLYNOMIAL, DPSEL_EXACT_PF_QUADRATURE };
    path_bounds at[2], fine[2];
    for (int k = 0; k < 2; k++) {
        at[k] = enclose(p, paths[k], gap, members, count, prec);
        fine[k] = enclose(p, paths[k], gap, members, count, CHECK_BITS);
    }
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, p, DPSEL_PF, s, n), DPSEL_OK);
    mpq_t exact;
    mpq_init(exact);
    char what[96];
    for (size_t r = 0; r < n; r++) {
        size_t l = level_of[r];
        pmf_rational(pmf, r, exact);
        for (int k = 0; k < 2; k++) {
            snprintf(what, sizeof what, "%s, prec %ld, n %zu, level %zu",
                     k ? "quadrature" : "polynomial", (long)prec, n, l);
            cr_expect(mpfr_cmp_q(at[k].lo[l], exact) <= 0, "%s: lower bound above exact", what);
            cr_expect(mpfr_cmp_q(at[k].hi[l], exact) >= 0, "%s: upper bound below exact", what);
            expect_contains(at[k].lo[l], at[k].hi[l], fine[1 - k].lo[l], fine[1 - k].hi[l], what);
            if (prec >= 128) {
                expect_narrow_1e30(at[k].lo[l], at[k].hi[l], what);
            }
        }
    }
    mpq_clear(exact);
    dpsel_pmf_free(pmf);
    for (int k = 0; k < 2; k++) {
        path_bounds_free(&at[k], count);
        path_bounds_free(&fine[k], count);
    }
    free(gap);
    free(members);
    free(level_of);
}

static dpsel_params params_for(size_t i)
{
    dpsel_params p;
    if (i < PMF_TEST_PARAMS) {
        return pmf_test_params(i);
    }
    const char *epsilon = i == PMF_TEST_PARAMS ? "0.01" : "10";
    cr_assert_eq(dpsel_params_from_epsilon(&p, epsilon, 1, 0), DPSEL_OK);
    return p;
}

Test(quadrature, both_paths_contain_the_exact_rationals_and_each_other)
{
    uint64_t state = 5;
    for (size_t pi = 0; pi < PMF_TEST_PARAMS + 2; pi++) {
        dpsel_params p = params_for(pi);
        if (p.sensitivity == 1000) {
            continue;  /* 4-megabit exact rationals: test_enclosure.c's */
        }
        for (size_t v = 0; v < PMF_TEST_VECTORS; v++) {
            for (size_t n = 1; n <= 6; n += 5) {
                check_paths(&p, pmf_test_vectors[v], n, 128);
            }
        }
        for (size_t n = 9; n <= 40; n += 31) {
            int64_t scores[40];
            uint64_t spread = 1 + lcg_next(&state) % 60;
            for (size_t r = 0; r < n; r++) {
                scores[r] = (int64_t)(lcg_next(&state) % spread);
            }
            check_paths(&p, scores, n, 128);
        }
    }
}

Test(quadrature, holds_at_low_precision)
{
    uint64_t state = 11;
    dpsel_params params[3] = { base_params(3, 2, 1, 0), params_for(PMF_TEST_PARAMS),
                               params_for(PMF_TEST_PARAMS + 1) };
    for (mpfr_prec_t prec = 8; prec <= 32; prec += 8) {
        for (size_t trial = 0; trial < 12; trial++) {
            size_t n = 2 + lcg_next(&state) % 30;
            int64_t scores[32];
            for (size_t r = 0; r < n; r++) {
                scores[r] = (int64_t)(lcg_next(&state) % (1 + trial % 13));
            }
            check_paths(&params[trial % 3], scores, n, prec);
        }
    }
}

/* A thousand candidates over hundreds of levels, and with ties and many at
 * the cap: the quadrature at 128 bits contains the polynomial path at 1024. */
Test(quadrature, contains_the_polynomial_path_at_1024_bits)
{
    enum { N = 1000 };
    static int64_t scores[N];
    uint64_t state = 13;
    dpsel_params p;
    for (int v = 0; v < 2; v++) {
        for (size_t r = 0; r < N; r++) {
            scores[r] = v == 0 ? (int64_t)(lcg_next(&state) % 3000)
                               : r < 3 ? 500 : r < 40 ? 480 + (int64_t)(r % 7) : 0;
        }
        cr_assert_eq(dpsel_params_from_epsilon(&p, v == 0 ? "0.01" : "1", 1, 0), DPSEL_OK);
        uint64_t gap[N];
        size_t members[N], level_of[N];
        size_t count = make_levels(&p, scores, N, gap, members, level_of);
        path_bounds quad = enclose(&p, DPSEL_EXACT_PF_QUADRATURE, gap, members, count, 128);
        path_bounds poly = enclose(&p, DPSEL_EXACT_PF_POLYNOMIAL, gap, members, count, 1024);
        for (size_t l = 0; l < count; l++) {
            char what[64];
            snprintf(what, sizeof what, "vector %d level %zu", v, l);
            expect_contains(quad.lo[l], quad.hi[l], poly.lo[l], poly.hi[l], what);
            expect_narrow_1e30(quad.lo[l], quad.hi[l], what);
        }
        path_bounds_free(&quad, count);
        path_bounds_free(&poly, count);
    }
}

/* PF on one best candidate and m others at weight w: the best has
 * int_0^1 (1 - w t)^m dt = (1 - (1 - w)^(m+1)) / ((m + 1) w), at 3000 bits
 * (good to far more than the 1e-30 checked). */
static void closed_form_best(const dpsel_params *p, uint64_t gap, uint64_t m, mpfr_t out)
{
    mpfr_t w, power;
    mpfr_inits2(3000, w, power, (mpfr_ptr)0);
    mpfr_ui_pow_ui(w, (unsigned long)p->x, (unsigned long)gap, MPFR_RNDN);
    mpfr_div_2ui(w, w, (unsigned long)(p->y * gap), MPFR_RNDN);
    mpfr_ui_sub(power, 1, w, MPFR_RNDN);
    mpfr_pow_ui(power, power, (unsigned long)(m + 1), MPFR_RNDN);
    mpfr_ui_sub(out, 1, power, MPFR_RNDN);
    mpfr_div(out, out, w, MPFR_RNDN);
    mpfr_div_ui(out, out, (unsigned long)(m + 1), MPFR_RNDN);
    mpfr_clears(w, power, (mpfr_ptr)0);
}

/* The n candidates' (groups') probabilities times their members add up to
 * an enclosure of 1, and each is narrow. */
static void expect_total(const dpsel_pmf *pmf, const uint64_t *multiplicity, size_t n,
                         const char *what)
{
    mpfr_t lo, hi, total_lo, total_hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    mpfr_inits2(256, total_lo, total_hi, (mpfr_ptr)0);
    mpfr_set_ui(total_lo, 0, MPFR_RNDD);
    mpfr_set_ui(total_hi, 0, MPFR_RNDU);
    for (size_t r = 0; r < n; r++) {
        unsigned long m = multiplicity != NULL ? (unsigned long)multiplicity[r] : 1;
        dpsel_exact_pmf_probability_mpfr(pmf, r, lo, hi);
        expect_narrow_1e30(lo, hi, what);
        mpfr_mul_ui(lo, lo, m, MPFR_RNDD);
        mpfr_mul_ui(hi, hi, m, MPFR_RNDU);
        mpfr_add(total_lo, total_lo, lo, MPFR_RNDD);
        mpfr_add(total_hi, total_hi, hi, MPFR_RNDU);
    }
    cr_expect(mpfr_cmp_ui(total_lo, 1) <= 0 && mpfr_cmp_ui(total_hi, 1) >= 0,
              "%s: the probabilities do not add up to an enclosure of 1", what);
    mpfr_clears(lo, hi, total_lo, total_hi, (mpfr_ptr)0);
}

/* Candidate 0's enclosure contains value (to 2^-1000 of it). */
static void expect_best(const dpsel_pmf *pmf, const mpfr_t value, const char *what)
{
    mpfr_t lo, hi, slack;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    mpfr_init2(slack, 3000);
    dpsel_exact_pmf_probability_mpfr(pmf, 0, lo, hi);
    mpfr_div_2ui(slack, value, 1000, MPFR_RNDN);
    mpfr_add(slack, value, slack, MPFR_RNDN);
    cr_expect(mpfr_lessequal_p(lo, slack), "%s: lower bound above the closed form", what);
    mpfr_div_2ui(slack, value, 1000, MPFR_RNDN);
    mpfr_sub(slack, value, slack, MPFR_RNDN);
    cr_expect(mpfr_greaterequal_p(hi, slack), "%s: upper bound below the closed form", what);
    mpfr_clears(lo, hi, slack, (mpfr_ptr)0);
}

Test(quadrature, past_the_polynomial_limit)
{
    enum { N = 40000 };
    static int64_t scores[N];
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "0.01", 1, 0), DPSEL_OK);
    scores[0] = 700;                           /* the rest at gap 700 */
    mpfr_t value;
    mpfr_init2(value, 3000);
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_PF, scores, N), DPSEL_OK);
    closed_form_best(&p, 700, N - 1, value);
    expect_best(pmf, value, "40000 candidates");
    expect_total(pmf, NULL, N, "40000 candidates");
    dpsel_pmf_free(pmf);
    /* groups: the best alone, 2^40 members at gap 3000 (and 7 at gap 9) */
    static const int64_t group_scores[3] = { 3000, 0, 2991 };
    static const uint64_t multiplicity[3] = { 1, (uint64_t)1 << 40, 7 };
    for (size_t n = 2; n <= 3; n++) {
        cr_assert_eq(dpsel_pmf_new_grouped(&pmf, &p, DPSEL_PF, group_scores, multiplicity, n),
                     DPSEL_OK);
        if (n == 2) {
            closed_form_best(&p, 3000, multiplicity[1], value);
            expect_best(pmf, value, "a group of 2^40");
        }
        expect_total(pmf, multiplicity, n, "groups of 2^40 and 7");
        dpsel_pmf_free(pmf);
    }
    mpfr_clear(value);
}
