/* SPDX-License-Identifier: ISC */
/*
 * The k best by peeling (dpsel_select_top) and its exact distribution
 * (dpsel_top_pmf):
 *   - the top pmf against an independent product of dpsel_pmf's exact
 *     rationals over the candidates left, and its tuples summing to 1;
 *   - the whole sampler, both rounds, by exact enumeration of its random
 *     bits against the top pmf (n = 3, k = 2, base 1/2 with a cap of 1);
 *   - releases fit the top pmf by chi-square (n = 6, k = 3: 120 tuples;
 *     false alarm 1e-6 per fit);
 *   - k = 1 is dpsel_select bit for bit; large n gives k distinct indices;
 *   - bad arguments leave the output untouched;
 *   - the exact size bounds the rationals' bits, counts each shared pmf's
 *     work once, and its limits refuse an exact request at once, before
 *     any exact work (the cliff of 145 candidates, 600 s and 2 GB).
 */
#include <criterion/criterion.h>
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exact/exact.h"
#include "exact_layer.h"
#include "support.h"

/* The exact probability of tuple t (rational). */
static void top_rational(const dpsel_top_pmf *top, size_t t, mpq_t out)
{
    char *text = NULL;
    cr_assert_eq(dpsel_top_pmf_probability(top, t, DPSEL_RATIONAL, &text), DPSEL_OK);
    cr_assert_eq(mpq_set_str(out, text, 10), 0, "bad rational %s", text);
    dpsel_string_free(text);
}

/* prod_j P_j(r_j), each P_j a pmf of the candidates left: computed here
 * from dpsel_pmf_new directly. */
static void product_of_rounds(const dpsel_params *p, dpsel_mechanism m, const int64_t *scores,
                              size_t n, const size_t *tuple, size_t k, mpq_t out)
{
    int64_t left[8];
    size_t origin[8];
    size_t count = n;
    memcpy(left, scores, n * sizeof *scores);
    for (size_t i = 0; i < n; i++) {
        origin[i] = i;
    }
    mpq_set_ui(out, 1, 1);
    mpq_t round;
    mpq_init(round);
    for (size_t j = 0; j < k; j++) {
        dpsel_pmf *pmf = NULL;
        cr_assert_eq(dpsel_pmf_new(&pmf, p, m, left, count), DPSEL_OK);
        size_t at = 0;
        while (origin[at] != tuple[j]) {
            at++;
        }
        pmf_rational(pmf, at, round);
        mpq_mul(out, out, round);
        dpsel_pmf_free(pmf);
        memmove(left + at, left + at + 1, (count - at - 1) * sizeof *left);
        memmove(origin + at, origin + at + 1, (count - at - 1) * sizeof *origin);
        count--;
    }
    mpq_clear(round);
}

Test(top, pmf_is_the_product_of_the_rounds)
{
    static const int64_t vectors[][5] = {
        { 0, 0, 0, 0, 0 }, { 5, 3, 3, 0, -2 }, { 100, 0, 99, 98, -100 }, { INT64_MIN, INT64_MAX, 7, 7, 0 },
    };
    for (size_t v = 0; v < sizeof vectors / sizeof *vectors; v++) {
        for (size_t i = 0; i < PMF_TEST_PARAMS; i++) {
            if (i == 3) {
                continue;  /* 4-megabit weights: test_pmf.c's, too slow for 60 tuples here */
            }
            dpsel_params p = pmf_test_params(i);
            for (int m = 0; m < 2; m++) {
                for (size_t k = 1; k <= 3; k++) {
                    dpsel_top_pmf *top = NULL;
                    cr_assert_eq(dpsel_top_pmf_new(&top, &p, m, vectors[v], 5, k), DPSEL_OK);
                    size_t count = dpsel_top_pmf_count(top);
                    cr_assert_eq(count, k == 1 ? 5 : k == 2 ? 20 : 60);
                    mpq_t got, expected, sum;
                    mpq_inits(got, expected, sum, (mpq_ptr)0);
                    size_t previous[3] = { 0 };
                    for (size_t t = 0; t < count; t++) {
                        size_t tuple[3];
                        cr_assert_eq(dpsel_top_pmf_tuple(top, t, tuple), DPSEL_OK);
                        if (t > 0) {  /* lexicographic order */
                            cr_expect(memcmp(previous, tuple, k * sizeof *tuple) != 0);
                        }
                        memcpy(previous, tuple, sizeof tuple);
                        top_rational(top, t, got);
                        product_of_rounds(&p, m, vectors[v], 5, tuple, k, expected);
                        cr_expect(mpq_equal(got, expected), "vector %zu, params %zu, %s, k %zu, "
                                  "tuple %zu", v, i, m ? "em" : "pf", k, t);
                        mpq_add(sum, sum, got);
                    }
                    cr_expect_eq(mpq_cmp_ui(sum, 1, 1), 0, "the tuples sum to 1");
                    mpq_clears(got, expected, sum, (mpq_ptr)0);
                    dpsel_top_pmf_free(top);
                }
            }
        }
    }
}

typedef struct {
    const dpsel_selector *selector;
    dpsel_mechanism mechanism;
    const int64_t *scores;
    size_t n, k;
} top_case;

/* Outcome: the tuple's rank in lexicographic order (n = 3, k = 2: six). */
static int top_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    const top_case *c = arg;
    size_t tuple[2];
    int rc = dpsel_select_top(c->selector, c->mechanism, c->scores, c->n, c->k, rng, tuple);
    if (rc == DPSEL_OK) {
        *out = tuple[0] * (c->n - 1) + (tuple[1] > tuple[0] ? tuple[1] - 1 : tuple[1]);
    }
    return rc;
}

/* Base 1/2 with a gap cap of 1: dpsel_select's PF permutes (no race), a
 * tree of bit strings small enough to enumerate over both rounds.  EM's
 * rounds are loops of trials, whose trees are enumerated only where every
 * trial keeps (all scores equal); the fits below cover EM's rounds. */
Test(top, peeling_realises_the_pmf_by_enumeration, .timeout = 600)
{
    static const int64_t vectors[][3] = { { 0, 0, 0 }, { 2, 1, 0 }, { 0, 1, 3 } };
    dpsel_params p = base_params(1, 1, 1, 0);
    cr_assert_eq(dpsel_params_set_gap_cap(&p, 1), DPSEL_OK);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    for (int m = 0; m < 2; m++) {
        for (size_t v = 0; v < (m == DPSEL_EM ? 1 : sizeof vectors / sizeof *vectors); v++) {
            top_case c = { selector, m, vectors[v], 3, 2 };
            dpsel_top_pmf *top = NULL;
            cr_assert_eq(dpsel_top_pmf_new(&top, &p, m, vectors[v], 3, 2), DPSEL_OK);
            mpq_t mass[6], residual, exact;
            for (size_t t = 0; t < 6; t++) {
                mpq_init(mass[t]);
            }
            mpq_inits(residual, exact, (mpq_ptr)0);
            cr_assert_geq(enumerate_bits(top_sampler, &c, 6, ENUMERATION_DEPTH, mass, residual), 1);
            for (size_t t = 0; t < 6; t++) {
                char what[64];
                snprintf(what, sizeof what, "%s, vector %zu, tuple %zu", m ? "em" : "pf", v, t);
                top_rational(top, t, exact);
                expect_realised(mass[t], residual, exact, what);
                mpq_clear(mass[t]);
            }
            mpq_clears(residual, exact, (mpq_ptr)0);
            dpsel_top_pmf_free(top);
        }
    }
    dpsel_selector_free(selector);
}

static void check_fit(dpsel_mechanism m, const char *epsilon, uint64_t seed)
{
    enum { N = 6, K = 3, TUPLES = 120 };
    static const int64_t scores[N] = { 10, 9, 9, 7, 4, 0 };
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, epsilon, 1, 0), DPSEL_OK);
    dpsel_top_pmf *top = NULL;
    cr_assert_eq(dpsel_top_pmf_new(&top, &p, m, scores, N, K), DPSEL_OK);
    cr_assert_eq(dpsel_top_pmf_count(top), TUPLES);
    mpq_t prob[TUPLES];
    for (size_t t = 0; t < TUPLES; t++) {
        mpq_init(prob[t]);
        top_rational(top, t, prob[t]);
    }
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    dpsel_rng rng = seeded_rng(seed);
    uint64_t counts[TUPLES] = { 0 };
    const uint64_t draws = 100000;
    for (uint64_t d = 0; d < draws; d++) {
        size_t tuple[K];
        cr_assert_eq(dpsel_select_top(selector, m, scores, N, K, &rng, tuple), DPSEL_OK);
        /* the tuple's rank: lexicographic among distinct triples */
        size_t rank = 0;
        for (size_t t = 0; t < TUPLES; t++) {
            size_t candidate[K];
            cr_assert_eq(dpsel_top_pmf_tuple(top, t, candidate), DPSEL_OK);
            if (memcmp(candidate, tuple, sizeof tuple) == 0) {
                rank = t;
                break;
            }
        }
        counts[rank]++;
    }
    char what[48];
    snprintf(what, sizeof what, "top 3 of 6, %s, epsilon %s", m ? "em" : "pf", epsilon);
    expect_fit_and_clear(counts, prob, TUPLES, draws, what);
    dpsel_rng_wipe(&rng);
    dpsel_selector_free(selector);
    dpsel_top_pmf_free(top);
}

Test(top, releases_fit_the_pmf, .timeout = 300)
{
    check_fit(DPSEL_PF, "1", 71);
    check_fit(DPSEL_EM, "1", 72);
    check_fit(DPSEL_PF, "0.3", 73);
    check_fit(DPSEL_EM, "0.3", 74);
}

Test(top, one_is_select_and_many_are_distinct)
{
    enum { N = 100000, K = 50 };
    int64_t *scores = malloc(N * sizeof *scores);
    cr_assert(scores != NULL);
    for (size_t i = 0; i < N; i++) {
        scores[i] = (int64_t)((i * 7919) % 1000);
    }
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 1), DPSEL_OK);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    for (int m = 0; m < 2; m++) {
        dpsel_rng a = seeded_rng(81), b = seeded_rng(81);
        size_t one = N, index = N;
        cr_assert_eq(dpsel_select_top(selector, m, scores, N, 1, &a, &one), DPSEL_OK);
        cr_assert_eq(dpsel_select(selector, m, scores, N, &b, &index), DPSEL_OK);
        cr_expect_eq(one, index);
        size_t top[K];
        cr_assert_eq(dpsel_select_top(selector, m, scores, N, K, &a, top), DPSEL_OK);
        for (size_t i = 0; i < K; i++) {
            cr_expect_lt(top[i], N);
            cr_expect_geq(scores[top[i]], 990, "%s: a candidate far from the top chosen",
                          m ? "em" : "pf");
            for (size_t j = 0; j < i; j++) {
                cr_expect_neq(top[i], top[j]);
            }
        }
        dpsel_rng_wipe(&a);
        dpsel_rng_wipe(&b);
    }
    dpsel_selector_free(selector);
    free(scores);
}

Test(top, bad_arguments_leave_the_output_untouched)
{
    static const int64_t scores[3] = { 1, 2, 3 };
    dpsel_params p = base_params(1, 1, 1, 0);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    dpsel_rng rng = seeded_rng(1), wiped = seeded_rng(2);
    dpsel_rng_wipe(&wiped);
    size_t out[4] = { 7, 7, 7, 7 };
    const struct {
        const char *name;
        int rc, expected;
    } cases[] = {
        { "NULL selector", dpsel_select_top(NULL, DPSEL_PF, scores, 3, 2, &rng, out), DPSEL_ENULL },
        { "NULL scores", dpsel_select_top(selector, DPSEL_PF, NULL, 3, 2, &rng, out), DPSEL_ENULL },
        { "NULL rng", dpsel_select_top(selector, DPSEL_PF, scores, 3, 2, NULL, out), DPSEL_ENULL },
        { "NULL indices", dpsel_select_top(selector, DPSEL_PF, scores, 3, 2, &rng, NULL), DPSEL_ENULL },
        { "n = 0", dpsel_select_top(selector, DPSEL_PF, scores, 0, 1, &rng, out), DPSEL_EEMPTY },
        { "k = 0", dpsel_select_top(selector, DPSEL_PF, scores, 3, 0, &rng, out), DPSEL_ERANGE },
        { "k > n", dpsel_select_top(selector, DPSEL_EM, scores, 3, 4, &rng, out), DPSEL_ERANGE },
        { "mechanism 2", dpsel_select_top(selector, (dpsel_mechanism)2, scores, 3, 2, &rng, out), DPSEL_ERANGE },
        { "a wiped source", dpsel_select_top(selector, DPSEL_PF, scores, 3, 2, &wiped, out), DPSEL_ERANDOM },
        { "a wiped source, EM", dpsel_select_top(selector, DPSEL_EM, scores, 3, 3, &wiped, out), DPSEL_ERANDOM },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cr_expect_eq(cases[i].rc, cases[i].expected, "%s: %d", cases[i].name, cases[i].rc);
    }
    cr_expect(out[0] == 7 && out[1] == 7 && out[2] == 7 && out[3] == 7);
    dpsel_top_pmf *top = (dpsel_top_pmf *)(uintptr_t)1;
    cr_expect_eq(dpsel_top_pmf_new(NULL, &p, DPSEL_PF, scores, 3, 2), DPSEL_ENULL);
    cr_expect_eq(dpsel_top_pmf_new(&top, NULL, DPSEL_PF, scores, 3, 2), DPSEL_ENULL);
    cr_expect_eq(dpsel_top_pmf_new(&top, &p, DPSEL_PF, NULL, 3, 2), DPSEL_ENULL);
    cr_expect_eq(dpsel_top_pmf_new(&top, &p, DPSEL_PF, scores, 0, 1), DPSEL_EEMPTY);
    cr_expect_eq(dpsel_top_pmf_new(&top, &p, DPSEL_PF, scores, 3, 0), DPSEL_ERANGE);
    cr_expect_eq(dpsel_top_pmf_new(&top, &p, DPSEL_PF, scores, 3, 4), DPSEL_ERANGE);
    cr_expect_eq(dpsel_top_pmf_new(&top, &p, (dpsel_mechanism)2, scores, 3, 2), DPSEL_ERANGE);
    cr_expect(top == (dpsel_top_pmf *)(uintptr_t)1);
    int64_t many[300] = { 0 };
    cr_expect_eq(dpsel_top_pmf_new(&top, &p, DPSEL_PF, many, 300, 2), DPSEL_ETOOLARGE);
    cr_expect(top == (dpsel_top_pmf *)(uintptr_t)1);
    cr_assert_eq(dpsel_top_pmf_new(&top, &p, DPSEL_PF, scores, 3, 2), DPSEL_OK);
    size_t tuple[2] = { 9, 9 };
    char *text = NULL, *lo = NULL, *hi = NULL;
    cr_expect_eq(dpsel_top_pmf_tuple(top, 6, tuple), DPSEL_ERANGE);
    cr_expect_eq(dpsel_top_pmf_tuple(NULL, 0, tuple), DPSEL_ENULL);
    cr_expect(tuple[0] == 9 && tuple[1] == 9);
    cr_expect_eq(dpsel_top_pmf_probability(top, 6, DPSEL_DECIMAL, &text), DPSEL_ERANGE);
    cr_expect_eq(dpsel_top_pmf_probability(top, 0, (dpsel_format)2, &text), DPSEL_ERANGE);
    cr_expect_eq(dpsel_top_pmf_probability(top, 0, DPSEL_DECIMAL, NULL), DPSEL_ENULL);
    cr_expect_eq(dpsel_top_pmf_probability_bounds(top, 0, 0, &lo, &hi), DPSEL_ERANGE);
    cr_expect_eq(dpsel_top_pmf_probability_bounds(top, 6, 17, &lo, &hi), DPSEL_ERANGE);
    cr_expect(text == NULL && lo == NULL && hi == NULL);
    cr_expect_eq(dpsel_top_pmf_count(NULL), 0);
    dpsel_top_pmf_free(top);
    dpsel_top_pmf_free(NULL);
    dpsel_rng_wipe(&rng);
    dpsel_selector_free(selector);
}

/* The bits of tuple t's rational, numerator and denominator. */
static uint64_t rational_bits(const dpsel_top_pmf *top, size_t t, mpq_t value)
{
    top_rational(top, t, value);
    return (uint64_t)(mpz_sizeinbase(mpq_numref(value), 2) + mpz_sizeinbase(mpq_denref(value), 2));
}

/* Tuple t's printed enclosure holds its exact value. */
static void expect_enclosed(const dpsel_top_pmf *top, size_t t, const mpq_t value)
{
    char *lo = NULL, *hi = NULL;
    cr_assert_eq(dpsel_top_pmf_probability_bounds(top, t, 40, &lo, &hi), DPSEL_OK);
    mpfr_t bound;
    mpfr_init2(bound, 256);
    mpfr_set_str(bound, lo, 10, MPFR_RNDD);   /* exact decimals below 1e-30 of 2^-256 */
    cr_expect_leq(mpfr_cmp_q(bound, value), 0, "tuple %zu: lower %s", t, lo);
    mpfr_set_str(bound, hi, 10, MPFR_RNDU);
    cr_expect_geq(mpfr_cmp_q(bound, value), 0, "tuple %zu: upper %s", t, hi);
    mpfr_clear(bound);
    dpsel_string_free(lo);
    dpsel_string_free(hi);
}

/* The pmf work of a plain pmf of these scores (exact.h's count). */
static uint64_t pmf_work(const dpsel_params *p, dpsel_mechanism m, const int64_t *scores,
                         size_t n)
{
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, p, m, scores, n), DPSEL_OK);
    uint64_t work, bits;
    dpsel_exact_pmf_exact_size(pmf, &work, &bits);
    dpsel_pmf_free(pmf);
    return work;
}

/* The stated size is an upper bound of the true one: the rationals' bits
 * summed over the tuples; with ties, removing either of two equal scores
 * leaves one pmf for the last round, built (and its work counted) once;
 * every enclosure, the shared leaves' too, holds the exact value. */
Test(top, exact_size_bounds_the_rationals_and_shares_pmfs)
{
    static const int64_t vectors[][6] = {
        { 0, 0, 0, 0, 0, 0 }, { 5, 3, 3, 0, -2, 3 }, { 100, 0, 99, 98, -100, 1 },
        { 40, 7, 7, 0, 7, 40 },
    };
    mpq_t value;
    mpq_init(value);
    for (size_t v = 0; v < sizeof vectors / sizeof *vectors; v++) {
        for (size_t i = 0; i < PMF_TEST_PARAMS; i++) {
            if (i == 3) {
                continue;  /* 4-megabit weights: too slow for 120 tuples here */
            }
            dpsel_params p = pmf_test_params(i);
            for (int m = 0; m < 2; m++) {
                for (size_t k = 1; k <= 3; k++) {
                    dpsel_top_pmf *top = NULL;
                    cr_assert_eq(dpsel_top_pmf_new(&top, &p, m, vectors[v], 6, k), DPSEL_OK);
                    uint64_t work, bits, used = 0;
                    cr_assert_eq(dpsel_top_pmf_exact_size(top, &work, &bits), DPSEL_OK);
                    for (size_t t = 0; t < dpsel_top_pmf_count(top); t++) {
                        used += rational_bits(top, t, value);
                        expect_enclosed(top, t, value);
                    }
                    cr_expect_leq(used, bits, "vector %zu, params %zu, m %d, k %zu", v, i, m, k);
                    cr_expect_gt(work, 0);
                    dpsel_top_pmf_free(top);
                }
            }
        }
    }
    mpq_clear(value);
    /* six equal scores, k = 2: the root's pmf and one leaf's, not six */
    dpsel_params p = pmf_test_params(1);
    dpsel_top_pmf *top = NULL;
    cr_assert_eq(dpsel_top_pmf_new(&top, &p, DPSEL_PF, vectors[0], 6, 2), DPSEL_OK);
    uint64_t work, bits;
    cr_assert_eq(dpsel_top_pmf_exact_size(top, &work, &bits), DPSEL_OK);
    cr_expect_eq(work, pmf_work(&p, DPSEL_PF, vectors[0], 6) + pmf_work(&p, DPSEL_PF, vectors[0], 5));
    dpsel_top_pmf_free(top);
}

/* n candidates with the scores (37 i) mod 100, i = 1..n. */
static int64_t *spread_scores(size_t n)
{
    int64_t *scores = malloc(n * sizeof *scores);
    cr_assert_not_null(scores);
    for (size_t i = 0; i < n; i++) {
        scores[i] = (int64_t)(((i + 1) * 37) % 100);
    }
    return scores;
}

/* The size of a top 2 at epsilon 1: whether it is within the limits, and
 * whether an exact request is refused (at once: no pmf's rationals are
 * computed before the check) while the decimals stay. */
static int within_limits(dpsel_mechanism m, size_t n, uint64_t *work, uint64_t *bits)
{
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    int64_t *scores = spread_scores(n);
    dpsel_top_pmf *top = NULL;
    cr_assert_eq(dpsel_top_pmf_new(&top, &p, m, scores, n, 2), DPSEL_OK);
    cr_assert_eq(dpsel_top_pmf_exact_size(top, work, bits), DPSEL_OK);
    int within = *work <= DPSEL_TOP_PMF_EXACT_WORK_MAX && *bits <= DPSEL_TOP_PMF_EXACT_BITS_MAX;
    char *text = NULL;
    int rc = dpsel_top_pmf_probability(top, 0, DPSEL_RATIONAL, &text);
    cr_expect_eq(rc, within ? DPSEL_OK : DPSEL_ETOOLARGE, "n %zu: %d", n, rc);
    dpsel_string_free(text);
    text = NULL;
    cr_expect_eq(dpsel_top_pmf_probability(top, 0, DPSEL_DECIMAL, &text), DPSEL_OK);
    dpsel_string_free(text);
    dpsel_top_pmf_free(top);
    free(scores);
    return within;
}

/* The limits where they fall on these scores: EM's rationals (the bits)
 * pass at 110 candidates, not at 111; PF's at 28, not 29; and 145 and 146
 * PF candidates, whose exact pmf would take over 600 s and 1.96 GB, are
 * refused at once, by both limits. */
Test(top, exact_limits_fall_before_the_work, .timeout = 120)
{
    uint64_t work, bits;
    cr_expect(within_limits(DPSEL_EM, 110, &work, &bits));
    cr_expect(!within_limits(DPSEL_EM, 111, &work, &bits));
    cr_expect_gt(bits, DPSEL_TOP_PMF_EXACT_BITS_MAX);
    cr_expect(within_limits(DPSEL_PF, 28, &work, &bits));
    cr_expect(!within_limits(DPSEL_PF, 29, &work, &bits));
    for (size_t n = 145; n <= 146; n++) {
        cr_expect(!within_limits(DPSEL_PF, n, &work, &bits));
        cr_expect_gt(work, DPSEL_TOP_PMF_EXACT_WORK_MAX);
        cr_expect_gt(bits, DPSEL_TOP_PMF_EXACT_BITS_MAX);
    }
}
