/* SPDX-License-Identifier: ISC */
/* The exact layer's checks, shared by test_sampling.c and test_timing.c (see
 * exact_layer.h): a sampler's bit strings enumerated and the realised
 * probabilities compared with the pmf. */
#include "exact_layer.h"

#include <criterion/criterion.h>
#include <mpfr.h>
#include <stdlib.h>

#include "api/selector.h"
#include "core/gap.h"
#include "core/pf.h"
#include "core/thin.h"
#include "exact/exact.h"
#include "support.h"

typedef struct {
    const dpsel_selector *selector;
    const int64_t *scores;
    size_t n;
    pf_form form;
    dpsel_decay decay;
    size_t scratch[MAX_ENUMERATED];
} selection;

/* The scores through a stream, in the form s->form says. */
static int streamed(const selection *s, dpsel_rng *rng, size_t *out)
{
    int64_t best = s->scores[0];
    for (size_t i = 1; i < s->n; i++) {
        best = s->scores[i] > best ? s->scores[i] : best;
    }
    dpsel_pf_stream stream;
    int rc = dpsel_pf_stream_start(&stream, s->selector, best);
    for (size_t i = 0; i < s->n && rc == DPSEL_OK; i++) {
        rc = s->form == PF_STREAMED ? dpsel_pf_stream_add(&stream, s->scores[i], rng)
                                    : dpsel_pf_stream_add_scores(&stream, &s->scores[i], 1, rng);
    }
    return rc == DPSEL_OK ? dpsel_pf_stream_finish(&stream, rng, out) : rc;
}

static int select_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    selection *s = arg;
    switch (s->form) {
    case PF_PERMUTATION:
        return dpsel_core_pf(rng, &s->decay, s->scores, s->n, s->scratch, out);
    case PF_HARDENED:
        return dpsel_select_hardened(s->selector, DPSEL_PF, s->scores, s->n, rng, out);
    case PF_THINNED_RACE:
    case PF_THINNED_SPANS: {
        int64_t maxima[DPSEL_RACE_SPANS];
        size_t span = s->form == PF_THINNED_SPANS ? 2 : dpsel_core_race_span(s->n);
        size_t top = dpsel_core_top_and_maxima(s->scores, s->n, span, maxima);
        return dpsel_core_race_rest(rng, &s->decay, &s->selector->thinning.core, s->scores,
                                    s->n, top, maxima, span, NULL, 0, out);
    }
    case PF_STREAMED:
    case PF_STREAMED_SINGLY:
        return streamed(s, rng, out);
    default:
        return dpsel_select(s->selector, DPSEL_PF, s->scores, s->n, rng, out);
    }
}

/* The exact probability of candidate r, or beyond the exact rationals' size
 * limits the lower end of its enclosure: its relative width, below 1e-30, is
 * far below the test's resolution (the statistic is computed in doubles, and
 * a relative error e in every cell moves it by about N e^2). */
void pmf_value(const dpsel_pmf *pmf, size_t r, mpq_t out)
{
    mpq_srcptr exact = dpsel_exact_pmf_probability_exact(pmf, r);
    if (exact != NULL) {
        mpq_set(out, exact);
        return;
    }
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    dpsel_exact_pmf_probability_mpfr(pmf, r, lo, hi);
    mpfr_get_q(out, lo);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

int residual_small(const mpq_t residual)
{
    mpq_t bound;
    mpq_init(bound);
    mpz_set_ui(mpq_numref(bound), 1);
    mpz_ui_pow_ui(mpq_denref(bound), 2, RESIDUAL_LOG2);
    int small = mpq_cmp(residual, bound) < 0;
    mpq_clear(bound);
    return small;
}

/* Checks the bounds lower <= P(r) <= upper that an enumeration proves about
 * the realised probability against the pmf.  With the exact rational, it must
 * lie in [lower, upper].  The enclosure lo <= P(r) <= hi (always held, and
 * the only value beyond the exact rationals' size limits) is compared too:
 * if the sampler and the enclosure are both right, both intervals contain the
 * true P(r), so they meet: lower <= hi and lo <= upper.  The check is sound
 * (it never fails on a correct sampler and a correct enclosure); it catches
 * a sampler off by more than the residual plus the enclosure's width (below
 * 1e-30 relative, negligible next to the residual 2^-24). */
void expect_pmf_within(const dpsel_pmf *pmf, size_t r, const mpq_t lower,
                       const mpq_t upper, const char *mechanism, const char *what)
{
    mpq_srcptr exact = dpsel_exact_pmf_probability_exact(pmf, r);
    if (exact != NULL) {
        cr_expect(mpq_cmp(lower, exact) <= 0 && mpq_cmp(exact, upper) <= 0,
                  "%s, %s, candidate %zu: exact %.12g outside the realised [%.12g, %.12g]",
                  mechanism, what, r, mpq_get_d(exact), mpq_get_d(lower), mpq_get_d(upper));
    }
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    dpsel_exact_pmf_probability_mpfr(pmf, r, lo, hi);
    cr_expect(mpfr_cmp_q(hi, lower) >= 0 && mpfr_cmp_q(lo, upper) <= 0,
              "%s, %s, candidate %zu: enclosure [%.12g, %.12g] misses the realised [%.12g, %.12g]",
              mechanism, what, r, mpfr_get_d(lo, MPFR_RNDD), mpfr_get_d(hi, MPFR_RNDU),
              mpq_get_d(lower), mpq_get_d(upper));
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

/* PF: the whole sampler is enumerated; P(r) lies in [m_r, m_r + residual]. */
void check_pf_by_enumeration(const dpsel_params *p, const int64_t *scores, size_t n,
                             pf_form form, const char *what)
{
    dpsel_selector *selector = NULL;
    dpsel_pmf *pmf = NULL;
    dpsel_decay_table table;
    cr_assert_leq(n, MAX_ENUMERATED);
    cr_assert_eq(dpsel_selector_new(&selector, p), DPSEL_OK);
    cr_assert_eq(dpsel_pmf_new(&pmf, p, DPSEL_PF, scores, n), DPSEL_OK);
    cr_assert_eq(dpsel_exact_decay_table_build(&table, p->x, p->y, p->gap_cap), DPSEL_OK);
    selection s = { selector, scores, n, form, { table.powers, table.npowers, p->gap_cap }, { 0 } };
    mpq_t mass[MAX_ENUMERATED], residual, upper;
    mpq_inits(residual, upper, (mpq_ptr)0);
    for (size_t r = 0; r < n; r++) {
        mpq_init(mass[r]);
    }
    cr_assert_geq(enumerate_bits(select_sampler, &s, n, ENUMERATION_DEPTH, mass, residual), 1);
    cr_expect(residual_small(residual), "PF, %s: residual %g", what, mpq_get_d(residual));
    for (size_t r = 0; r < n; r++) {
        mpq_add(upper, mass[r], residual);
        expect_pmf_within(pmf, r, mass[r], upper, "PF", what);
        mpq_clear(mass[r]);
    }
    mpq_clears(residual, upper, (mpq_ptr)0);
    dpsel_exact_decay_table_free(&table);
    dpsel_pmf_free(pmf);
    dpsel_selector_free(selector);
}

#define FIT_MAX 4096
#define FIT_DRAWS 50000
#define STAIRCASE_N 4000

void check_pf_fit(pf_form form, const int64_t *scores, size_t n, uint64_t seed, const char *what)
{
    static uint64_t counts[FIT_MAX];
    static mpq_t prob[FIT_MAX];
    cr_assert_leq(n, FIT_MAX);
    for (size_t i = 0; i < n; i++) {
        counts[i] = 0;
    }
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    dpsel_selector *selector = NULL;
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_PF, scores, n), DPSEL_OK);
    selection s = { selector, scores, n, form, dpsel_selector_decay(selector), { 0 } };
    dpsel_rng rng = seeded_rng(seed);
    for (size_t d = 0; d < FIT_DRAWS; d++) {
        size_t index;
        cr_assert_eq(select_sampler(&s, &rng, &index), DPSEL_OK, "%s", what);
        counts[index]++;
    }
    for (size_t r = 0; r < n; r++) {
        mpq_init(prob[r]);
        pmf_value(pmf, r, prob[r]);
    }
    expect_fit_and_clear(counts, prob, n, FIT_DRAWS, what);
    dpsel_rng_wipe(&rng);
    dpsel_pmf_free(pmf);
    dpsel_selector_free(selector);
}

void check_pf_staircase_fit(pf_form form, uint64_t seed, const char *what)
{
    static int64_t scores[STAIRCASE_N];
    unsigned fill = 17;
    for (size_t i = 0; i < STAIRCASE_N; i++) {
        scores[i] = i + 1 == STAIRCASE_N ? 100 : 76 + rand_r(&fill) % 13;
    }
    check_pf_fit(form, scores, STAIRCASE_N, seed, what);
}

/* EM repeats independent, identical trials until one keeps its candidate, so
 * P(r) = a_r / sum_j a_j with a_r the probability that one trial keeps r.
 * One trial is enumerated: a_r lies in [m_r, m_r + residual], hence
 * m_r / (M + residual) <= P(r) <= (m_r + residual) / M with M = sum m_j. */
typedef struct {
    em_trial_fn trial;
    dpsel_decay decay;
    const int64_t *scores;
    size_t n;
    int64_t best;
} em_trial_arg;

static int em_trial_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    const em_trial_arg *t = arg;
    size_t candidate = 0;
    int kept = 0;
    int rc = t->trial(rng, &t->decay, t->scores, t->n, t->best, &candidate, &kept);
    *out = kept ? candidate : t->n;
    return rc;
}

void check_em_by_enumeration(em_trial_fn trial, const dpsel_params *p, const int64_t *scores,
                             size_t n, const char *what)
{
    dpsel_decay_table table;
    dpsel_pmf *pmf = NULL;
    cr_assert_leq(n, MAX_ENUMERATED);
    cr_assert_eq(dpsel_exact_decay_table_build(&table, p->x, p->y, p->gap_cap), DPSEL_OK);
    cr_assert_eq(dpsel_pmf_new(&pmf, p, DPSEL_EM, scores, n), DPSEL_OK);
    em_trial_arg arg = { trial, { table.powers, table.npowers, p->gap_cap }, scores, n,
                         scores[dpsel_core_argmax(scores, n)] };
    mpq_t mass[MAX_ENUMERATED + 1], residual, kept, lower, upper, t;
    mpq_inits(residual, kept, lower, upper, t, (mpq_ptr)0);
    for (size_t r = 0; r <= n; r++) {
        mpq_init(mass[r]);
    }
    cr_assert_geq(enumerate_bits(em_trial_sampler, &arg, n + 1, ENUMERATION_DEPTH, mass, residual), 1);
    cr_expect(residual_small(residual), "EM trial, %s: residual %g", what, mpq_get_d(residual));
    for (size_t r = 0; r < n; r++) {
        mpq_add(kept, kept, mass[r]);
    }
    for (size_t r = 0; r < n; r++) {
        mpq_add(t, kept, residual);
        mpq_div(lower, mass[r], t);
        mpq_add(upper, mass[r], residual);
        mpq_div(upper, upper, kept);
        expect_pmf_within(pmf, r, lower, upper, "EM", what);
    }
    for (size_t r = 0; r <= n; r++) {
        mpq_clear(mass[r]);
    }
    mpq_clears(residual, kept, lower, upper, t, (mpq_ptr)0);
    dpsel_pmf_free(pmf);
    dpsel_exact_decay_table_free(&table);
}

/* Expects mass <= exact <= mass + residual. */
void expect_realised(const mpq_t mass, const mpq_t residual, const mpq_t exact,
                            const char *what)
{
    mpq_t upper;
    mpq_init(upper);
    mpq_add(upper, mass, residual);
    cr_expect(residual_small(residual), "%s: residual %g", what, mpq_get_d(residual));
    cr_expect(mpq_cmp(mass, exact) <= 0 && mpq_cmp(exact, upper) <= 0,
              "%s: exact %.12g outside the realised [%.12g, %.12g]", what, mpq_get_d(exact),
              mpq_get_d(mass), mpq_get_d(upper));
    mpq_clear(upper);
}
