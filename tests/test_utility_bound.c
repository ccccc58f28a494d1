/* SPDX-License-Identifier: ISC */
/*
 * pmf's utility-theorem lines (src/cli/utility_bound.c, spec/mechanisms.md
 * §15) against an independent computation: on 300 random score vectors
 * (fixed seed; EM and PF, general and monotonic, three epsilons, some gap
 * caps), the candidates past B_t = (ln(n/|OPT|) + t) / ln(1/beta) found by
 * testing g ln(1/beta) > ln(n/|OPT|) + t at 1024 bits, and their tail
 * summed from the pmf's exact rationals: the printed enclosure must hold
 * it and be narrow, and for EM without clamping below B_t the tail must be
 * at most e^-t (the theorem itself, which a wrong B_t would break).
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <gmp.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#include "cli/utility_bound.h"
#include "dpsel.h"

#define REF 1024

static uint64_t next(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return *state >> 33;
}

/* Whether gap g is past B_t: g ln(2^y / x) > ln(n / m) + t, at REF bits. */
static int past_bound(const dpsel_params *p, size_t n, size_t m, unsigned t, uint64_t g)
{
    mpfr_t rate, limit, ratio;
    mpfr_inits2(REF, rate, limit, ratio, (mpfr_ptr)0);
    mpfr_set_uj(rate, p->x, MPFR_RNDN);
    mpfr_div_2ui(rate, rate, p->y, MPFR_RNDN);
    mpfr_log(rate, rate, MPFR_RNDN);
    mpfr_neg(rate, rate, MPFR_RNDN);
    mpfr_mul_ui(rate, rate, (unsigned long)g, MPFR_RNDN);
    mpfr_set_ui(limit, (unsigned long)n, MPFR_RNDN);
    mpfr_div_ui(limit, limit, (unsigned long)m, MPFR_RNDN);
    mpfr_log(limit, limit, MPFR_RNDN);
    mpfr_add_ui(limit, limit, t, MPFR_RNDN);
    int past = mpfr_greater_p(rate, limit);
    mpfr_clears(rate, limit, ratio, (mpfr_ptr)0);
    return past;
}

/* The exact probability that the error passes B_t. */
static void exact_tail(const dpsel_pmf *pmf, const dpsel_params *p, const int64_t *scores,
                       size_t n, unsigned t, mpq_t tail)
{
    int64_t best = scores[0];
    size_t m = 0;
    for (size_t r = 0; r < n; r++) {
        best = scores[r] > best ? scores[r] : best;
    }
    for (size_t r = 0; r < n; r++) {
        m += scores[r] == best;
    }
    mpq_t term;
    mpq_init(term);
    mpq_set_ui(tail, 0, 1);
    for (size_t r = 0; r < n; r++) {
        if (!past_bound(p, n, m, t, (uint64_t)(best - scores[r]))) {
            continue;
        }
        char *text = NULL;
        cr_assert_eq(dpsel_pmf_probability(pmf, r, DPSEL_RATIONAL, &text), DPSEL_OK);
        cr_assert_eq(mpq_set_str(term, text, 10), 0);
        mpq_canonicalize(term);
        mpq_add(tail, tail, term);
        dpsel_string_free(text);
    }
    mpq_clear(term);
}

/* lower <= exact <= upper, upper - lower <= 1e-15 (exact + 1e-300), and for
 * EM unclamped past the bound, exact <= e^-t. */
static void check_tail(const utility_tail *tail, const mpq_t exact, int theorem, const char *what)
{
    mpfr_t lower, upper, bound;
    mpfr_inits2(REF, lower, upper, bound, (mpfr_ptr)0);
    mpfr_strtofr(lower, tail->lower, NULL, 10, MPFR_RNDD);
    mpfr_strtofr(upper, tail->upper, NULL, 10, MPFR_RNDU);
    cr_expect(mpfr_cmp_q(lower, exact) <= 0, "%s t %u: lower %s above", what, tail->t, tail->lower);
    cr_expect(mpfr_cmp_q(upper, exact) >= 0, "%s t %u: upper %s below", what, tail->t, tail->upper);
    mpfr_sub(bound, upper, lower, MPFR_RNDN);
    mpfr_set_q(lower, exact, MPFR_RNDN);
    mpfr_mul_d(lower, lower, 1e-15, MPFR_RNDN);
    mpfr_add_d(lower, lower, 1e-300, MPFR_RNDN);
    cr_expect(mpfr_lessequal_p(bound, lower), "%s t %u: [%s, %s] wide", what, tail->t,
              tail->lower, tail->upper);
    if (theorem) {
        mpfr_set_si(bound, -(long)tail->t, MPFR_RNDN);
        mpfr_exp(bound, bound, MPFR_RNDN);
        cr_expect(mpfr_cmp_q(bound, exact) >= 0, "%s t %u: the theorem fails", what, tail->t);
    }
    mpfr_clears(lower, upper, bound, (mpfr_ptr)0);
}

Test(utility_bound, tails_against_exact_rationals)
{
    static const char *const epsilons[] = { "0.3", "1", "2.5" };
    uint64_t state = 40;
    for (unsigned trial = 0; trial < 300; trial++) {
        size_t n = 2 + next(&state) % 11;
        int64_t scores[12];
        for (size_t r = 0; r < n; r++) {
            scores[r] = (int64_t)(next(&state) % 31) - 10;
        }
        dpsel_mechanism mechanism = trial % 2 ? DPSEL_EM : DPSEL_PF;
        int monotonic = (trial / 2) % 2;
        uint64_t cap = trial % 5 == 0 ? 1 + next(&state) % 6 : 0;
        dpsel_params params;
        cr_assert_eq(dpsel_params_from_epsilon(&params, epsilons[trial % 3], 1, monotonic),
                     DPSEL_OK);
        if (cap != 0) {
            cr_assert_eq(dpsel_params_set_gap_cap(&params, cap), DPSEL_OK);
        }
        dpsel_pmf *pmf = NULL;
        cr_assert_eq(dpsel_pmf_new(&pmf, &params, mechanism, scores, n), DPSEL_OK);
        pmf_text text[12];
        memset(text, 0, sizeof text);
        for (size_t r = 0; r < n; r++) {
            cr_assert_eq(pmf_text_make(pmf, r, n, DPSEL_DECIMAL, &text[r]), DPSEL_OK);
        }
        options o;
        memset(&o, 0, sizeof o);
        candidates cand = { n, scores, NULL, NULL };
        utility_tails tails;
        cli_error error;
        memset(&error, 0, sizeof error);
        cr_assert_eq(utility_tails_make(&o, &params, &cand, text, &tails, &error), 0);
        char what[64];
        snprintf(what, sizeof what, "trial %u (%s, cap %lu)", trial,
                 mechanism == DPSEL_EM ? "em" : "pf", (unsigned long)cap);
        mpq_t exact;
        mpq_init(exact);
        for (int i = 0; i < UTILITY_TAILS; i++) {
            exact_tail(pmf, &params, scores, n, tails.tail[i].t, exact);
            check_tail(&tails.tail[i], exact, mechanism == DPSEL_EM && cap == 0, what);
        }
        mpq_clear(exact);
        for (size_t r = 0; r < n; r++) {
            pmf_text_free(&text[r]);
        }
        dpsel_pmf_free(pmf);
    }
}
