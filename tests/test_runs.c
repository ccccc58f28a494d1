/* SPDX-License-Identifier: ISC */
/*
 * Selection over runs of equal scores (src/api/runs.c): a total of at most
 * DPSEL_RUNS_EXPAND_MAX candidates is selected over them expanded, by
 * dpsel_select, and larger totals by levels (PF's race, EM by runs):
 *   - a small total releases, from one seed, the candidate dpsel_select
 *     releases on the expanded scores (PF; EM when the total is at most
 *     the cap), so the path is the one taken;
 *   - PF over a small total enumerated to 22 bits: every candidate's mass
 *     brackets its exact probability, and the brackets exclude the law of
 *     a run's score one lower, so the test can fail;
 *   - draws of EM over a small total, and of PF over 5000 candidates (the
 *     race), fit the exact pmf (chi-square, false alarm 1e-6 each; the
 *     large total's probabilities from the pmf's enclosures, 1e-30 wide);
 *   - a small total whose lengths do not add up to it is DPSEL_EINTERNAL.
 */
#include <criterion/criterion.h>
#include <gmp.h>
#include <stdlib.h>

#include "api/runs.h"
#include "exact_layer.h"
#include "support.h"

typedef struct {
    const dpsel_selector *selector;
    dpsel_mechanism mechanism;
    const int64_t *scores;
    const uint64_t *lengths;
    size_t count;
    uint64_t total;
} runs_case;

/* The candidates' scores, run by run, into expanded[0 .. c->total - 1]. */
static void expand(const runs_case *c, int64_t *expanded)
{
    size_t at = 0;
    for (size_t j = 0; j < c->count; j++) {
        for (uint64_t k = 0; k < c->lengths[j]; k++) {
            expanded[at++] = c->scores[j];
        }
    }
    cr_assert_eq(at, c->total);
}

/* One selection over the runs, as the candidate's position. */
static int runs_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    const runs_case *c = arg;
    size_t run = c->count;
    uint64_t offset = 0;
    int rc = dpsel_internal_runs_select(c->selector, c->mechanism, c->scores, c->lengths,
                                        c->count, c->total, rng, &run, &offset);
    if (rc != DPSEL_OK) {
        return rc;
    }
    cr_assert_lt(run, c->count);
    cr_assert_lt(offset, c->lengths[run]);
    size_t position = offset;
    for (size_t j = 0; j < run; j++) {
        position += c->lengths[j];
    }
    *out = position;
    return DPSEL_OK;
}

static dpsel_selector *selector_at(const char *epsilon, dpsel_params *p)
{
    cr_assert_eq(dpsel_params_from_epsilon(p, epsilon, 1, 0), DPSEL_OK);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, p), DPSEL_OK);
    return selector;
}

/* Six runs, one of them empty: 13 candidates. */
static const int64_t six_scores[] = { 4, 9, 9, 0, -30, 7 };
static const uint64_t six_lengths[] = { 3, 1, 0, 2, 5, 2 };
#define SIX_TOTAL 13

static void check_same_as_select(dpsel_mechanism m, const char *epsilon)
{
    dpsel_params p;
    dpsel_selector *selector = selector_at(epsilon, &p);
    runs_case c = { selector, m, six_scores, six_lengths, 6, SIX_TOTAL };
    cr_assert_leq(c.total, p.gap_cap, "EM expands only a total of at most the cap");
    int64_t expanded[SIX_TOTAL];
    expand(&c, expanded);
    for (uint64_t seed = 1; seed <= 200; seed++) {
        dpsel_rng by_runs = seeded_rng(seed), by_select = seeded_rng(seed);
        size_t from_runs = SIX_TOTAL, from_select = SIX_TOTAL;
        cr_assert_eq(runs_sampler(&c, &by_runs, &from_runs), DPSEL_OK);
        cr_assert_eq(dpsel_select(selector, m, expanded, SIX_TOTAL, &by_select, &from_select),
                     DPSEL_OK);
        cr_expect_eq(from_runs, from_select, "%s, epsilon %s, seed %lu: runs %zu, select %zu",
                     m == DPSEL_PF ? "pf" : "em", epsilon, (unsigned long)seed, from_runs,
                     from_select);
        dpsel_rng_wipe(&by_runs);
        dpsel_rng_wipe(&by_select);
    }
    dpsel_selector_free(selector);
}

Test(runs, small_totals_select_over_the_candidates_expanded)
{
    check_same_as_select(DPSEL_PF, "1");
    check_same_as_select(DPSEL_PF, "0.05");
    check_same_as_select(DPSEL_EM, "0.05");   /* a cap above 13 */
}

/* The enumeration's depth in bits (a second or so). */
#define SMALL_DEPTH 22

Test(runs, small_pf_totals_enumerated_bracket_the_pmf, .timeout = 300)
{
    static const int64_t scores[] = { 2, 0, 3 };
    static const uint64_t lengths[] = { 2, 1, 2 };
    enum { N = 5 };
    dpsel_params p = base_params(1, 1, 1, 0);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    runs_case c = { selector, DPSEL_PF, scores, lengths, 3, N };
    int64_t expanded[N];
    expand(&c, expanded);
    mpq_t mass[N], exact[N], wrong[N], residual;
    mpq_init(residual);
    for (size_t r = 0; r < N; r++) {
        mpq_init(mass[r]);
    }
    cr_assert_geq(enumerate_bits(runs_sampler, &c, N, SMALL_DEPTH, mass, residual), 1);
    cr_expect_lt(mpq_get_d(residual), 0.15, "depth %d leaves %g unterminated", SMALL_DEPTH,
                 mpq_get_d(residual));
    exact_pmf(&p, DPSEL_PF, expanded, N, exact);
    cr_expect(mass_brackets(mass, residual, exact, N), "PF's law outside the brackets");
    expanded[0] = expanded[1] = scores[0] - 1;  /* the first run's score one lower */
    exact_pmf(&p, DPSEL_PF, expanded, N, wrong);
    cr_expect_not(mass_brackets(mass, residual, wrong, N), "a wrong law not excluded");
    for (size_t r = 0; r < N; r++) {
        mpq_clears(mass[r], exact[r], wrong[r], (mpq_ptr)0);
    }
    mpq_clear(residual);
    dpsel_selector_free(selector);
}

/* Draws of the case fit the pmf of its candidates, summed run by run. */
static void check_runs_fit(const runs_case *c, const dpsel_params *p, uint64_t draws,
                           uint64_t seed, const char *what)
{
    int64_t *expanded = malloc(c->total * sizeof *expanded);
    mpq_t per_run[6];
    uint64_t counts[6] = { 0 };
    cr_assert(expanded != NULL && c->count <= 6);
    expand(c, expanded);
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, p, c->mechanism, expanded, c->total), DPSEL_OK);
    mpz_t length;
    mpz_init(length);
    for (size_t j = 0, first = 0; j < c->count; first += c->lengths[j++]) {
        /* a run's candidates are equally likely */
        mpq_init(per_run[j]);
        if (c->lengths[j] > 0) {
            pmf_value(pmf, first, per_run[j]);
            mpz_set_ui(length, c->lengths[j]);
            mpz_mul(mpq_numref(per_run[j]), mpq_numref(per_run[j]), length);
            mpq_canonicalize(per_run[j]);
        }
    }
    mpz_clear(length);
    dpsel_pmf_free(pmf);
    dpsel_rng rng = seeded_rng(seed);
    for (uint64_t d = 0; d < draws; d++) {
        size_t run = c->count;
        uint64_t offset = 0;
        cr_assert_eq(dpsel_internal_runs_select(c->selector, c->mechanism, c->scores, c->lengths,
                                                c->count, c->total, &rng, &run, &offset),
                     DPSEL_OK);
        cr_assert_lt(run, c->count);
        counts[run]++;
    }
    expect_fit_and_clear(counts, per_run, c->count, draws, what);
    dpsel_rng_wipe(&rng);
    free(expanded);
}

Test(runs, small_em_totals_fit_the_pmf, .timeout = 120)
{
    dpsel_params p;
    dpsel_selector *selector = selector_at("0.05", &p);
    runs_case c = { selector, DPSEL_EM, six_scores, six_lengths, 6, SIX_TOTAL };
    check_runs_fit(&c, &p, 100000, 81, "em over 13 candidates, expanded");
    dpsel_selector_free(selector);
}

/* Above DPSEL_RUNS_EXPAND_MAX the levels' race releases: it fits too. */
Test(runs, large_pf_totals_race_and_fit_the_pmf, .timeout = 300)
{
    static const int64_t scores[] = { 0, -1, -3, -2 };
    static const uint64_t lengths[] = { 1, 999, 1000, 3000 };
    cr_assert_gt(1 + 999 + 1000 + 3000, DPSEL_RUNS_EXPAND_MAX);
    dpsel_params p;
    dpsel_selector *selector = selector_at("1", &p);
    runs_case c = { selector, DPSEL_PF, scores, lengths, 4, 5000 };
    check_runs_fit(&c, &p, 20000, 82, "pf over 5000 candidates, by levels");
    dpsel_selector_free(selector);
}

Test(runs, small_totals_whose_lengths_do_not_add_up_are_internal_errors)
{
    dpsel_params p;
    dpsel_selector *selector = selector_at("1", &p);
    dpsel_rng rng = seeded_rng(83);
    size_t run = 99;
    uint64_t offset = 99;
    static const dpsel_mechanism mechanisms[] = { DPSEL_PF, DPSEL_EM };
    for (size_t i = 0; i < 2; i++) {
        dpsel_mechanism m = mechanisms[i];
        cr_expect_eq(dpsel_internal_runs_select(selector, m, six_scores, six_lengths, 6,
                                                SIX_TOTAL + 1, &rng, &run, &offset),
                     DPSEL_EINTERNAL);
        cr_expect_eq(dpsel_internal_runs_select(selector, m, six_scores, six_lengths, 6,
                                                SIX_TOTAL - 1, &rng, &run, &offset),
                     DPSEL_EINTERNAL);
    }
    cr_expect(run == 99 && offset == 99, "output written");
    dpsel_rng_wipe(&rng);
    dpsel_selector_free(selector);
}
