/* SPDX-License-Identifier: ISC */
/*
 * The progress report of a pmf (dpsel_pmf_new_progress) and the exact
 * rationals' size known before the work (dpsel_pmf_exact_work,
 * dpsel_quantile_pmf_exact_work):
 *   - the report's fraction never goes back, keeps one total, and ends at
 *     done == total, once, as the last call; PF by the polynomial path, PF
 *     by quadrature, EM;
 *   - the pmf made with a report is the one made without;
 *   - a report that asks to stop, at its first, a middle or its last call,
 *     ends the call with DPSEL_ECANCELED and *out untouched (make
 *     sanitize and valgrind see that nothing leaks);
 *   - the exact work and limit say beforehand whether the exact rationals
 *     are refused, as a request for them then does; a top pmf's bounds
 *     (dpsel_top_pmf_exact_bound) are at most its stated size.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdlib.h>

#include "dpsel.h"
#include "support.h"

typedef struct {
    const char *name;
    dpsel_mechanism mechanism;
    const char *epsilon;
    size_t n;
    int64_t spread;  /* scores r mod spread */
} pmf_case;

/* 1024 distinct scores (the polynomial path), 20000 in 8 levels (the
 * quadrature), EM on 10^5: each under a second. */
static const pmf_case cases[] = {
    { "pf, polynomial", DPSEL_PF, "0.01", 1024, 1024 },
    { "pf, quadrature", DPSEL_PF, "0.5", 20000, 8 },
    { "em", DPSEL_EM, "0.01", 100000, 1000 },
};

static int64_t *case_scores(const pmf_case *c)
{
    int64_t *scores = malloc(c->n * sizeof *scores);
    cr_assert(scores != NULL);
    for (size_t r = 0; r < c->n; r++) {
        scores[r] = (int64_t)(r % (size_t)c->spread);
    }
    return scores;
}

static dpsel_params case_params(const pmf_case *c)
{
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, c->epsilon, 1, 0), DPSEL_OK);
    return p;
}

static void expect_same_bounds(const dpsel_pmf *a, const dpsel_pmf *b, size_t r, const char *name)
{
    char *lo[2] = { NULL, NULL }, *hi[2] = { NULL, NULL };
    cr_assert_eq(dpsel_pmf_probability_bounds(a, r, 36, &lo[0], &hi[0]), DPSEL_OK);
    cr_assert_eq(dpsel_pmf_probability_bounds(b, r, 36, &lo[1], &hi[1]), DPSEL_OK);
    cr_expect_str_eq(lo[0], lo[1], "%s: candidate %zu's bounds differ with a report", name, r);
    cr_expect_str_eq(hi[0], hi[1], "%s: candidate %zu's bounds differ with a report", name, r);
    for (int k = 0; k < 2; k++) {
        dpsel_string_free(lo[k]);
        dpsel_string_free(hi[k]);
    }
}

Test(progress, a_monotone_fraction_that_ends_at_one)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const pmf_case *c = &cases[i];
        int64_t *scores = case_scores(c);
        dpsel_params p = case_params(c);
        progress_probe seen = { 0 };
        dpsel_pmf *reported = NULL, *plain = NULL;
        cr_assert_eq(dpsel_pmf_new_progress(&reported, &p, c->mechanism, scores, NULL, c->n,
                                            progress_probe_report, &seen), DPSEL_OK, "%s", c->name);
        cr_assert_eq(dpsel_pmf_new(&plain, &p, c->mechanism, scores, c->n), DPSEL_OK);
        cr_expect_geq(seen.calls, 1, "%s: no report", c->name);
        cr_expect_eq(seen.backwards, 0, "%s: the fraction went back", c->name);
        cr_expect_eq(seen.new_totals, 0, "%s: the total changed", c->name);
        cr_expect_eq(seen.beyond, 0, "%s: done above total", c->name);
        cr_expect_eq(seen.complete, 1, "%s: %" PRIu64 " calls with done == total", c->name,
                     seen.complete);
        cr_expect_eq(seen.last_done, seen.total, "%s: the last call is not the whole", c->name);
        if (i == 0) {  /* the polynomial path reports row by row: many calls */
            cr_expect_geq(seen.calls, 10, "%s: %" PRIu64 " calls only", c->name, seen.calls);
        }
        expect_same_bounds(reported, plain, 0, c->name);
        expect_same_bounds(reported, plain, c->n - 1, c->name);
        dpsel_pmf_free(reported);
        dpsel_pmf_free(plain);
        free(scores);
    }
}

Test(progress, cancelling_returns_the_code_and_writes_nothing)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const pmf_case *c = &cases[i];
        int64_t *scores = case_scores(c);
        dpsel_params p = case_params(c);
        progress_probe all = { 0 };
        dpsel_pmf *pmf = NULL;
        cr_assert_eq(dpsel_pmf_new_progress(&pmf, &p, c->mechanism, scores, NULL, c->n,
                                            progress_probe_report, &all), DPSEL_OK);
        dpsel_pmf_free(pmf);
        uint64_t stops[3] = { 1, (all.calls + 1) / 2, all.calls };
        for (int k = 0; k < 3; k++) {
            progress_probe stopping = { .stop_at = stops[k] };
            dpsel_pmf *sentinel = (dpsel_pmf *)&stopping;
            pmf = sentinel;
            cr_expect_eq(dpsel_pmf_new_progress(&pmf, &p, c->mechanism, scores, NULL, c->n,
                                                progress_probe_report, &stopping), DPSEL_ECANCELED,
                         "%s: stopped at call %" PRIu64, c->name, stops[k]);
            cr_expect(pmf == sentinel, "%s: *out written on cancel", c->name);
            cr_expect_eq(stopping.calls, stops[k], "%s: asked again after a stop", c->name);
        }
        free(scores);
    }
}

Test(progress, no_report_without_a_function)
{
    const pmf_case *c = &cases[0];
    int64_t *scores = case_scores(c);
    dpsel_params p = case_params(c);
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_pmf_new_progress(&pmf, &p, c->mechanism, scores, NULL, c->n, NULL, NULL),
                 DPSEL_OK);
    dpsel_pmf_free(pmf);
    cr_expect_eq(dpsel_pmf_new_progress(NULL, &p, c->mechanism, scores, NULL, c->n, NULL, NULL),
                 DPSEL_ENULL);
    uint64_t zero = 0;
    cr_expect_eq(dpsel_pmf_new_progress(&pmf, &p, c->mechanism, scores, &zero, 1, NULL, NULL),
                 DPSEL_ERANGE);
    free(scores);
}

/* work > limit exactly when a request for a rational is refused. */
static void expect_refusal_as_said(const dpsel_params *p, dpsel_mechanism m,
                                   const int64_t *scores, size_t n, int refused)
{
    uint64_t work = 0, limit = 0;
    dpsel_pmf *pmf = NULL;
    char *text = NULL;
    cr_assert_eq(dpsel_pmf_exact_work(p, m, scores, NULL, n, &work, &limit), DPSEL_OK);
    cr_expect_eq(work > limit, refused, "n %zu: work %" PRIu64 ", limit %" PRIu64, n, work,
                 limit);
    cr_assert_eq(dpsel_pmf_new(&pmf, p, m, scores, n), DPSEL_OK);
    int rc = dpsel_pmf_probability(pmf, 0, DPSEL_RATIONAL, &text);
    cr_expect_eq(rc, work > limit ? DPSEL_ETOOLARGE : DPSEL_OK, "n %zu: %d", n, rc);
    dpsel_string_free(text);
    dpsel_pmf_free(pmf);
}

/* PF: 64 candidates are within the limit, 4097 are not (PF's exact
 * rationals stop at 4096 candidates); EM: 4097 candidates in 8 levels are
 * within it, and 64 levels (y G + 64) with G = 2^20 and y = 64 (epsilon
 * 1e-5) just beyond 2^32. */
Test(progress, the_exact_size_before_the_work)
{
    enum { N = 4097 };
    static int64_t scores[N];
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    cr_assert_eq(dpsel_params_set_gap_cap(&p, 8), DPSEL_OK);
    for (size_t r = 0; r < N; r++) {
        scores[r] = (int64_t)(r % 8);
    }
    expect_refusal_as_said(&p, DPSEL_PF, scores, 64, 0);
    expect_refusal_as_said(&p, DPSEL_PF, scores, N, 1);
    expect_refusal_as_said(&p, DPSEL_EM, scores, N, 0);
    dpsel_params far;
    cr_assert_eq(dpsel_params_from_epsilon(&far, "0.00001", 1, 0), DPSEL_OK);
    cr_assert_eq(dpsel_params_set_gap_cap(&far, (uint64_t)1 << 20), DPSEL_OK);
    int64_t spread[64];
    for (size_t r = 0; r < 64; r++) {
        spread[r] = (int64_t)r << 14;  /* gaps up to 63 x 2^14 */
    }
    spread[0] = spread[63] - ((int64_t)1 << 20);  /* and one of 2^20 */
    expect_refusal_as_said(&far, DPSEL_EM, spread, 64, 1);
    uint64_t work = 0, limit = 0, one = 1;
    cr_expect_eq(dpsel_pmf_exact_work(NULL, DPSEL_PF, scores, NULL, N, &work, &limit),
                 DPSEL_ENULL);
    cr_expect_eq(dpsel_pmf_exact_work(&p, DPSEL_PF, scores, NULL, N, NULL, &limit), DPSEL_ENULL);
    cr_expect_eq(dpsel_pmf_exact_work(&p, DPSEL_PF, scores, NULL, 0, &work, &limit),
                 DPSEL_EEMPTY);
    cr_expect_eq(dpsel_pmf_exact_work(&p, DPSEL_PF, scores, &one, 1, &work, &limit), DPSEL_OK);
}

/* A quantile's exact size is that of its grouped pmf. */
Test(progress, the_quantile_exact_size_before_the_work)
{
    static const int64_t values[] = { 3, 1, 4, 1, 5, 9, 2, 6 };
    uint64_t a = 0, b = 0, sensitivity = 0;
    dpsel_params p;
    dpsel_quantile_runs *runs = NULL;
    cr_assert_eq(dpsel_quantile_fraction("0.5", &a, &b, &sensitivity), DPSEL_OK);
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", sensitivity, 0), DPSEL_OK);
    cr_assert_eq(dpsel_quantile_runs_new(&runs, a, b, values, 8, 0, 10000), DPSEL_OK);
    uint64_t work[2] = { 0, 0 }, limit[2] = { 0, 0 };
    for (int m = 0; m < 2; m++) {
        cr_assert_eq(dpsel_quantile_pmf_exact_work(&p, (dpsel_mechanism)m, runs, &work[m],
                                                   &limit[m]), DPSEL_OK);
        cr_expect_gt(work[m], 0);
    }
    cr_expect_gt(work[DPSEL_PF], limit[DPSEL_PF], "PF over 10001 grid points is beyond");
    cr_expect_leq(work[DPSEL_EM], limit[DPSEL_EM]);
    cr_expect_eq(dpsel_quantile_pmf_exact_work(&p, DPSEL_PF, NULL, &work[0], &limit[0]),
                 DPSEL_ENULL);
    dpsel_quantile_runs_free(runs);
}

/* The top pmf's bounds, known before the work, are at most the sizes the
 * built top pmf states, and when they pass a limit so does the size (and
 * an exact request is refused). */
Test(progress, the_top_exact_bound_before_the_work)
{
    static const struct {
        const char *epsilon;
        size_t n, k;
        int beyond;
    } tops[] = { { "1", 6, 2, 0 }, { "1", 12, 3, 0 }, { "0.01", 100, 2, 1 }, { "0.001", 41, 3, 1 } };
    int64_t scores[200];
    for (size_t r = 0; r < 200; r++) {
        scores[r] = (int64_t)r;
    }
    for (size_t i = 0; i < sizeof tops / sizeof tops[0]; i++) {
        dpsel_params p;
        cr_assert_eq(dpsel_params_from_epsilon(&p, tops[i].epsilon, 1, 0), DPSEL_OK);
        uint64_t work = 0, bits = 0, top_work = 0, top_bits = 0;
        cr_assert_eq(dpsel_top_pmf_exact_bound(&p, DPSEL_PF, scores, tops[i].n, tops[i].k,
                                               &work, &bits), DPSEL_OK);
        int beyond = work > DPSEL_TOP_PMF_EXACT_WORK_MAX || bits > DPSEL_TOP_PMF_EXACT_BITS_MAX;
        cr_expect_eq(beyond, tops[i].beyond, "case %zu: work %" PRIu64 ", bits %" PRIu64, i,
                     work, bits);
        dpsel_top_pmf *top = NULL;
        char *text = NULL;
        cr_assert_eq(dpsel_top_pmf_new(&top, &p, DPSEL_PF, scores, tops[i].n, tops[i].k),
                     DPSEL_OK);
        cr_assert_eq(dpsel_top_pmf_exact_size(top, &top_work, &top_bits), DPSEL_OK);
        cr_expect_leq(work, top_work, "case %zu: the work bound passes the size", i);
        cr_expect_leq(bits, top_bits, "case %zu: the bits bound passes the size", i);
        if (beyond) {
            cr_expect_eq(dpsel_top_pmf_probability(top, 0, DPSEL_RATIONAL, &text),
                         DPSEL_ETOOLARGE);
        }
        dpsel_string_free(text);
        dpsel_top_pmf_free(top);
    }
    uint64_t work, bits;
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    cr_expect_eq(dpsel_top_pmf_exact_bound(&p, DPSEL_PF, scores, 200, 0, &work, &bits),
                 DPSEL_ERANGE);
    cr_expect_eq(dpsel_top_pmf_exact_bound(&p, DPSEL_PF, scores, 200, 3, &work, &bits),
                 DPSEL_ETOOLARGE);  /* 200 x 199 x 198 tuples */
    cr_expect_eq(dpsel_top_pmf_exact_bound(&p, DPSEL_PF, NULL, 200, 2, &work, &bits),
                 DPSEL_ENULL);
}

/* An audit reports through both pmfs and its comparisons, and cancels. */
Test(progress, an_audit_reports_and_cancels)
{
    enum { N = 1024 };
    static int64_t a[N], b[N];
    for (size_t r = 0; r < N; r++) {
        a[r] = (int64_t)r;
        b[r] = (int64_t)r + (r == 7);
    }
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "0.01", 1, 0), DPSEL_OK);
    dpsel_audit_result reported, plain;
    progress_probe seen = { 0 };
    cr_assert_eq(dpsel_audit_progress(&reported, &p, DPSEL_PF, a, b, N, progress_probe_report,
                                      &seen),
                 DPSEL_OK);
    cr_assert_eq(dpsel_audit(&plain, &p, DPSEL_PF, a, b, N), DPSEL_OK);
    cr_expect_geq(seen.calls, 20, "%" PRIu64 " calls only", seen.calls);
    cr_expect_eq(seen.backwards + seen.new_totals + seen.beyond, 0);
    cr_expect_eq(seen.complete, 1);
    cr_expect_eq(seen.last_done, seen.total);
    cr_expect_str_eq(reported.loss_upper, plain.loss_upper);
    uint64_t stops[3] = { 1, (seen.calls + 1) / 2, seen.calls };
    for (int k = 0; k < 3; k++) {
        progress_probe stopping = { .stop_at = stops[k] };
        dpsel_audit_result untouched = { .distance = 12345 };
        cr_expect_eq(dpsel_audit_progress(&untouched, &p, DPSEL_PF, a, b, N, progress_probe_report,
                                          &stopping), DPSEL_ECANCELED, "stopped at %" PRIu64,
                     stops[k]);
        cr_expect_eq(untouched.distance, 12345, "*out written on cancel");
        cr_expect_eq(stopping.calls, stops[k]);
    }
}

/* A quantile's pmf reports as a pmf does, and cancels. */
Test(progress, a_quantile_pmf_reports_and_cancels)
{
    int64_t values[500];
    for (size_t i = 0; i < 500; i++) {
        values[i] = (int64_t)(i * 7 % 3001);
    }
    uint64_t a = 0, b = 0, sensitivity = 0;
    dpsel_params p;
    dpsel_quantile_runs *runs = NULL;
    cr_assert_eq(dpsel_quantile_fraction("0.9", &a, &b, &sensitivity), DPSEL_OK);
    cr_assert_eq(dpsel_params_from_epsilon(&p, "0.1", sensitivity, 0), DPSEL_OK);
    cr_assert_eq(dpsel_quantile_runs_new(&runs, a, b, values, 500, 0, 3000), DPSEL_OK);
    progress_probe seen = { 0 }, stopping = { .stop_at = 1 };
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_quantile_pmf_new_progress(&pmf, &p, DPSEL_PF, runs,
                                                 progress_probe_report, &seen),
                 DPSEL_OK);
    dpsel_pmf_free(pmf);
    cr_expect_eq(seen.backwards + seen.new_totals + seen.beyond, 0);
    cr_expect_eq(seen.complete, 1);
    cr_expect_eq(seen.last_done, seen.total);
    pmf = NULL;
    cr_expect_eq(dpsel_quantile_pmf_new_progress(&pmf, &p, DPSEL_PF, runs, progress_probe_report,
                                                 &stopping), DPSEL_ECANCELED);
    cr_expect(pmf == NULL);
    cr_expect_eq(dpsel_quantile_pmf_new_progress(&pmf, &p, DPSEL_PF, NULL, NULL, NULL),
                 DPSEL_ENULL);
    dpsel_quantile_runs_free(runs);
}
