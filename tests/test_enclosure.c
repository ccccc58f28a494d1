/* SPDX-License-Identifier: ISC */
/* The rigorous enclosures of the pmf (src/exact/enclosure.c): they contain
 * the exact rationals on small vectors (ties, n = 1, int64 extremes,
 * sensitivities 3 and 1000, explicit caps), they are narrower than 1e-30
 * relative, and on vectors of a thousand candidates they contain an
 * independent computation at 3000 bits (the monomial expansion of the PF
 * integrand, which cancels catastrophically and needs those bits). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <mpfr.h>

#include "exact/exact.h"
#include "support.h"

#define REFERENCE_BITS 3000

static void check_contains_exact(const mpfr_t lo, const mpfr_t hi, const mpq_t exact,
                                 const char *what)
{
    cr_expect(mpfr_cmp_q(lo, exact) <= 0, "%s: lower bound above the exact value", what);
    cr_expect(mpfr_cmp_q(hi, exact) >= 0, "%s: upper bound below the exact value", what);
    if (mpq_sgn(exact) != 0) {
        expect_narrow_1e30(lo, hi, what);
    }
}

/* Every probability and the expected error of one pmf against its exact
 * rationals (which test_pmf.c checks against an independent computation). */
static void check_pmf_against_exact(const dpsel_params *p, dpsel_mechanism m,
                                    const int64_t *scores, size_t n)
{
    dpsel_pmf *pmf = NULL;
    mpfr_t lo, hi;
    mpq_t exact;
    char *text = NULL;
    char what[96];
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    mpq_init(exact);
    cr_assert_eq(dpsel_pmf_new(&pmf, p, m, scores, n), DPSEL_OK);
    for (size_t r = 0; r < n; r++) {
        mpq_srcptr value = dpsel_exact_pmf_probability_exact(pmf, r);
        cr_assert(value != NULL, "no exact value for a small vector");
        dpsel_exact_pmf_probability_mpfr(pmf, r, lo, hi);
        snprintf(what, sizeof what, "base %lu/2^%u D %lu cap %lu mech %d n %zu r %zu",
                 (unsigned long)p->x, p->y, (unsigned long)p->sensitivity,
                 (unsigned long)p->gap_cap, m, n, r);
        check_contains_exact(lo, hi, value, what);
    }
    cr_assert_eq(dpsel_pmf_expected_error(pmf, DPSEL_RATIONAL, &text), DPSEL_OK);
    cr_assert_eq(mpq_set_str(exact, text, 10), 0);
    dpsel_string_free(text);
    dpsel_exact_pmf_expected_error_mpfr(pmf, lo, hi);
    snprintf(what, sizeof what, "expected error, mech %d n %zu", m, n);
    check_contains_exact(lo, hi, exact, what);
    dpsel_pmf_free(pmf);
    mpq_clear(exact);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

static dpsel_params small_params(size_t i)
{
    dpsel_params p;
    if (i < PMF_TEST_PARAMS) {
        return pmf_test_params(i);
    }
    switch (i) {
    case 5:
        cr_assert_eq(dpsel_params_from_epsilon(&p, "0.01", 1, 1), DPSEL_OK);
        return p;                                     /* beta within 2^-7 of 1 */
    case 6:
        p = base_params(UINT64_MAX, 64, 1, 0);        /* 1 - beta = 2^-64 */
        cr_assert_eq(dpsel_params_set_gap_cap(&p, 1000), DPSEL_OK);
        return p;
    default:
        cr_assert_eq(dpsel_params_from_epsilon(&p, "10", 1, 0), DPSEL_OK);
        return p;
    }
}

Test(enclosure, contains_the_exact_rationals)
{
    uint64_t state = 1;
    for (size_t pi = 0; pi < 8; pi++) {
        dpsel_params p = small_params(pi);
        for (int m = 0; m < 2; m++) {
            dpsel_mechanism mech = m ? DPSEL_EM : DPSEL_PF;
            /* sensitivity 1000 has 4-megabit rationals: kept small */
            size_t fixed_largest = pi == 3 ? 3 : 6;
            size_t largest = pi == 3 ? 0 : 40;
            for (size_t v = 0; v < PMF_TEST_VECTORS; v++) {
                for (size_t n = 1; n <= fixed_largest; n++) {
                    check_pmf_against_exact(&p, mech, pmf_test_vectors[v], n);
                }
            }
            /* random vectors with ties */
            for (size_t n = 7; n <= largest; n += 11) {
                int64_t scores[40];
                uint64_t spread = 1 + lcg_next(&state) % 60;
                for (size_t r = 0; r < n; r++) {
                    scores[r] = (int64_t)(lcg_next(&state) % spread);
                }
                check_pmf_against_exact(&p, mech, scores, n);
            }
        }
    }
}

/* beta^min(g, cap) for the gap of score s below best, rounded to nearest. */
static void reference_weight(const dpsel_params *p, int64_t best, int64_t s, mpfr_t w)
{
    uint64_t gap = (uint64_t)best - (uint64_t)s;
    uint64_t g = gap < p->gap_cap ? gap : p->gap_cap;
    mpfr_ui_pow_ui(w, (unsigned long)p->x, (unsigned long)g, MPFR_RNDN);
    mpfr_div_2ui(w, w, (unsigned long)(p->y * g), MPFR_RNDN);
}

/* P(r) for every r at REFERENCE_BITS, by another route than enclosure.c:
 * EM by its formula; PF by the monomial coefficients of
 * Q(t) = prod_j (1 - w_j t), the quotient Q / (1 - w_r t) by synthetic
 * division, and int_0^1 t^i dt = 1 / (i + 1). */
static void reference_pmf(const dpsel_params *p, dpsel_mechanism m, const int64_t *s,
                          size_t n, mpfr_t *prob)
{
    int64_t best = s[0];
    for (size_t r = 1; r < n; r++) {
        best = s[r] > best ? s[r] : best;
    }
    mpfr_t *w = malloc(n * sizeof *w);
    mpfr_t *q = malloc((n + 1) * sizeof *q);
    mpfr_t sum, quotient, term;
    mpfr_inits2(REFERENCE_BITS, sum, quotient, term, (mpfr_ptr)0);
    mpfr_set_ui(sum, 0, MPFR_RNDN);
    for (size_t r = 0; r < n; r++) {
        mpfr_init2(w[r], REFERENCE_BITS);
        reference_weight(p, best, s[r], w[r]);
        mpfr_add(sum, sum, w[r], MPFR_RNDN);
    }
    if (m == DPSEL_EM) {
        for (size_t r = 0; r < n; r++) {
            mpfr_div(prob[r], w[r], sum, MPFR_RNDN);
        }
    } else {
        for (size_t k = 0; k <= n; k++) {
            mpfr_init2(q[k], REFERENCE_BITS);
            mpfr_set_ui(q[k], k == 0, MPFR_RNDN);
        }
        for (size_t j = 0; j < n; j++) {            /* q *= (1 - w_j t) */
            for (size_t k = j + 1; k > 0; k--) {
                mpfr_mul(term, q[k - 1], w[j], MPFR_RNDN);
                mpfr_sub(q[k], q[k], term, MPFR_RNDN);
            }
        }
        for (size_t r = 0; r < n; r++) {
            int done = 0;                           /* same weight: same value */
            for (size_t e = 0; e < r && !done; e++) {
                if (mpfr_equal_p(w[e], w[r])) {
                    mpfr_set(prob[r], prob[e], MPFR_RNDN);
                    done = 1;
                }
            }
            if (done) {
                continue;
            }
            mpfr_set_ui(quotient, 0, MPFR_RNDN);
            mpfr_set_ui(sum, 0, MPFR_RNDN);
            for (size_t k = 0; k < n; k++) {         /* quotient_k = q_k + w quotient_(k-1) */
                mpfr_fma(quotient, quotient, w[r], q[k], MPFR_RNDN);
                mpfr_div_ui(term, quotient, (unsigned long)(k + 1), MPFR_RNDN);
                mpfr_add(sum, sum, term, MPFR_RNDN);
            }
            mpfr_mul(prob[r], sum, w[r], MPFR_RNDN);
        }
        for (size_t k = 0; k <= n; k++) {
            mpfr_clear(q[k]);
        }
    }
    for (size_t r = 0; r < n; r++) {
        mpfr_clear(w[r]);
    }
    free(w);
    free(q);
    mpfr_clears(sum, quotient, term, (mpfr_ptr)0);
}

/* lo (1 - 2^-1000) <= reference <= hi (1 + 2^-1000): the reference is good to
 * far more than 1000 bits, so an enclosure missing it by more is wrong. */
static void check_contains_reference(const mpfr_t lo, const mpfr_t hi, const mpfr_t ref,
                                     const char *what)
{
    mpfr_t slack;
    mpfr_init2(slack, REFERENCE_BITS);
    mpfr_div_2ui(slack, ref, 1000, MPFR_RNDN);
    mpfr_add(slack, slack, ref, MPFR_RNDN);
    cr_expect(mpfr_lessequal_p(lo, slack), "%s: lower bound above the reference", what);
    mpfr_div_2ui(slack, ref, 1000, MPFR_RNDN);
    mpfr_sub(slack, ref, slack, MPFR_RNDN);
    cr_expect(mpfr_greaterequal_p(hi, slack), "%s: upper bound below the reference", what);
    expect_narrow_1e30(lo, hi, what);
    mpfr_clear(slack);
}

static void check_large(const dpsel_params *p, dpsel_mechanism m, const int64_t *s, size_t n)
{
    dpsel_pmf *pmf = NULL;
    mpfr_t *prob = malloc(n * sizeof *prob);
    mpfr_t lo, hi, error, term;
    char what[64];
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    mpfr_inits2(REFERENCE_BITS, error, term, (mpfr_ptr)0);
    for (size_t r = 0; r < n; r++) {
        mpfr_init2(prob[r], REFERENCE_BITS);
    }
    reference_pmf(p, m, s, n, prob);
    cr_assert_eq(dpsel_pmf_new(&pmf, p, m, s, n), DPSEL_OK);
    int64_t best = s[0];
    for (size_t r = 1; r < n; r++) {
        best = s[r] > best ? s[r] : best;
    }
    mpfr_set_ui(error, 0, MPFR_RNDN);
    for (size_t r = 0; r < n; r++) {
        dpsel_exact_pmf_probability_mpfr(pmf, r, lo, hi);
        snprintf(what, sizeof what, "mech %d n %zu r %zu", m, n, r);
        check_contains_reference(lo, hi, prob[r], what);
        mpfr_mul_ui(term, prob[r], (unsigned long)(best - s[r]), MPFR_RNDN);
        mpfr_add(error, error, term, MPFR_RNDN);
    }
    dpsel_exact_pmf_expected_error_mpfr(pmf, lo, hi);
    check_contains_reference(lo, hi, error, "expected error");
    dpsel_pmf_free(pmf);
    for (size_t r = 0; r < n; r++) {
        mpfr_clear(prob[r]);
    }
    free(prob);
    mpfr_clears(lo, hi, error, term, (mpfr_ptr)0);
}

Test(enclosure, contains_a_high_precision_computation_at_a_thousand_candidates)
{
    enum { N = 1024 };
    static int64_t spread[N], blocks[N + 76];
    uint64_t state = 7;
    for (size_t r = 0; r < N; r++) {
        spread[r] = (int64_t)(lcg_next(&state) % 3000);    /* hundreds of levels */
    }
    for (size_t r = 0; r < N + 76; r++) {
        blocks[r] = r < 3 ? 500 : r < 40 ? 480 + (int64_t)(r % 7) : 0;  /* ties, many at the cap */
    }
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "0.01", 1, 1), DPSEL_OK);
    check_large(&p, DPSEL_PF, spread, N);
    check_large(&p, DPSEL_EM, spread, N);
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    check_large(&p, DPSEL_PF, blocks, N + 76);
    check_large(&p, DPSEL_EM, blocks, N + 76);
}

/* One best candidate and n - 1 at the cap (weight w = beta^C): PF gives the
 * best (1 - (1 - w)^n) / (n w), EM 1 / (1 + (n - 1) w).  n = 4097 is beyond
 * the exact rationals, so the pmf holds only its enclosure, and its decimal
 * comes from it: it must be the closed form correctly rounded. */
Test(enclosure, closed_forms_beyond_the_exact_limits)
{
    enum { N = 4097 };
    static int64_t scores[N];
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    scores[0] = 1000;
    mpfr_t w, pf, em, lo, hi;
    mpfr_inits2(REFERENCE_BITS, w, pf, em, (mpfr_ptr)0);
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    reference_weight(&p, 1000, 0, w);
    mpfr_ui_sub(pf, 1, w, MPFR_RNDN);
    mpfr_pow_ui(pf, pf, N, MPFR_RNDN);
    mpfr_ui_sub(pf, 1, pf, MPFR_RNDN);
    mpfr_div(pf, pf, w, MPFR_RNDN);
    mpfr_div_ui(pf, pf, N, MPFR_RNDN);
    mpfr_mul_ui(em, w, N - 1, MPFR_RNDN);
    mpfr_add_ui(em, em, 1, MPFR_RNDN);
    mpfr_ui_div(em, 1, em, MPFR_RNDN);
    for (int m = 0; m < 2; m++) {
        dpsel_pmf *pmf = NULL;
        char *text = NULL;
        cr_assert_eq(dpsel_pmf_new(&pmf, &p, m ? DPSEL_EM : DPSEL_PF, scores, N), DPSEL_OK);
        cr_expect(m == 1 || dpsel_exact_pmf_probability_exact(pmf, 0) == NULL);
        dpsel_exact_pmf_probability_mpfr(pmf, 0, lo, hi);
        check_contains_reference(lo, hi, m ? em : pf, m ? "EM best" : "PF best");
        cr_assert_eq(dpsel_pmf_probability(pmf, 0, DPSEL_DECIMAL, &text), DPSEL_OK);
        char *expected = NULL;
        cr_assert_eq(dpsel_exact_mpfr_to_string(m ? em : pf, 17, MPFR_RNDN, &expected), DPSEL_OK);
        cr_expect_str_eq(text, expected);
        dpsel_string_free(expected);
        dpsel_string_free(text);
        dpsel_pmf_free(pmf);
    }
    mpfr_clears(w, pf, em, lo, hi, (mpfr_ptr)0);
}

/* At a few bits of working precision every rounding matters: the bounds
 * must still hold (a rounding in the wrong direction shows up here). */
Test(enclosure, holds_at_low_precision)
{
    uint64_t state = 3;
    dpsel_params params[3] = { base_params(3, 2, 1, 0), small_params(5), small_params(6) };
    for (mpfr_prec_t prec = 8; prec <= 32; prec += 8) {
        for (size_t trial = 0; trial < 60; trial++) {
            dpsel_params p = params[trial % 3];
            size_t n = 2 + lcg_next(&state) % 30;
            int64_t scores[32];
            for (size_t r = 0; r < n; r++) {
                scores[r] = (int64_t)(lcg_next(&state) % (1 + trial % 13));
            }
            dpsel_pmf *pmf = NULL;
            cr_assert_eq(dpsel_pmf_new(&pmf, &p, (trial / 3) % 2 ? DPSEL_EM : DPSEL_PF,
                                       scores, n), DPSEL_OK);
            /* the levels of the vector, from the pmf's exact values */
            uint64_t gap[32];
            size_t members[32] = { 0 }, count = 0, level_of[32];
            int64_t best = scores[0];
            for (size_t r = 1; r < n; r++) {
                best = scores[r] > best ? scores[r] : best;
            }
            for (uint64_t g = 0; g <= p.gap_cap && g <= 13; g++) {
                for (size_t r = 0; r < n; r++) {
                    uint64_t gr = (uint64_t)(best - scores[r]);
                    gr = gr < p.gap_cap ? gr : p.gap_cap;
                    if (gr == g) {
                        if (members[count] == 0) {
                            gap[count] = g;
                        }
                        members[count]++;
                        level_of[r] = count;
                    }
                }
                count += members[count] != 0;
            }
            mpfr_t lo[32], hi[32];
            for (size_t l = 0; l < count; l++) {
                mpfr_inits2(prec, lo[l], hi[l], (mpfr_ptr)0);
            }
            cr_assert_eq(dpsel_exact_enclose_levels((trial / 3) % 2 ? DPSEL_EM : DPSEL_PF, p.x, p.y,
                                                    gap, members, count, prec, NULL, lo, hi),
                         DPSEL_OK);
            for (size_t r = 0; r < n; r++) {
                mpq_srcptr exact = dpsel_exact_pmf_probability_exact(pmf, r);
                cr_assert(exact != NULL);
                cr_expect(mpfr_cmp_q(lo[level_of[r]], exact) <= 0, "prec %ld trial %zu r %zu: lo",
                          (long)prec, trial, r);
                cr_expect(mpfr_cmp_q(hi[level_of[r]], exact) >= 0, "prec %ld trial %zu r %zu: hi",
                          (long)prec, trial, r);
            }
            for (size_t l = 0; l < count; l++) {
                mpfr_clears(lo[l], hi[l], (mpfr_ptr)0);
            }
            dpsel_pmf_free(pmf);
        }
    }
}
