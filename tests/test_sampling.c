/* SPDX-License-Identifier: ISC */
/*
 * The samplers against the exact pmf.
 *
 * Exact layer: every bit string a sampler can read is enumerated up to a
 * depth bound (support.c); for every candidate r,
 *     realised(r) <= pmf(r) <= realised(r) + residual,
 * with pmf the exact rational, and the pmf's enclosure [lo, hi] must meet
 * [realised(r), realised(r) + residual] (see expect_pmf_within).
 * Deterministic: it holds or it does not.
 *
 * Statistical layer: chi-square goodness of fit of many draws against the
 * pmf (exact, or its enclosure beyond the exact rationals), cells merged to
 * expect >= 5 draws, false-alarm probability 1e-6 per test (fixed seeds, so
 * the seeded tests are deterministic too).
 * Power: with N draws, a cell of probability p whose realised probability is
 * off by a relative delta adds about N p delta^2 to the statistic, so a test
 * with critical value K catches delta >~ sqrt(K / (N p)); for N = 10^5 and
 * p = 0.1 and K ~ 30 (few cells), that is a 5.5% relative error in that cell.
 */
#include <criterion/criterion.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/em.h"
#include "exact/exact.h"
#include "exact_layer.h"
#include "support.h"

static const int64_t small_vectors[][5] = {
    { 0, 0, 0, 0, 0 },
    { 0, -1, -2, -3, -4 },
    { 4, 4, 1, -2, 4 },
    { INT64_MAX, INT64_MIN, INT64_MAX - 2, 0, -1 },
    { -7, -9, -8, -7, -30 },
};

Test(exact_layer, pf_and_em_realise_the_pmf)
{
    const uint64_t bases[][2] = { { 1, 1 }, { 3, 2 }, { 5, 3 }, { 0xB504F333F9DE6485u >> 1 | 1, 63 } };
    for (size_t b = 0; b < sizeof bases / sizeof *bases; b++) {
        dpsel_params p = base_params(bases[b][0], (unsigned)bases[b][1], 1, 0);
        for (size_t v = 0; v < sizeof small_vectors / sizeof *small_vectors; v++) {
            for (size_t n = 1; n <= 4; n++) {
                char what[64];
                snprintf(what, sizeof what, "base %zu, vector %zu, n %zu", b, v, n);
                check_pf_by_enumeration(&p, small_vectors[v], n, PF_PERMUTATION, what);
                check_em_by_enumeration(dpsel_core_em_trial, &p, small_vectors[v], n, what);
            }
        }
    }
}

/* The bases dpsel picks for epsilon 1 with sensitivities 3 and 1000,
 * monotonic and not (y from 61 to 64, gap caps from 134 to 88723), at n = 5
 * and 6, with ties, gaps clamped at the cap and int64 extremes.  The cost of
 * the enumeration: the coin beta^g is one coin per set bit of g, and each
 * coin, like each uniform integer with rejection, reads a random number of
 * bits; the strings of up to 48 bits number about 48^k / k! for k such steps
 * on a path.  So the vectors have at most three candidates below the best
 * score, with gaps of one or two set bits (four below the best took six
 * minutes).  The cap is reached at D = 3 only: at D = 1000 it makes the exact
 * rationals megabits long (seconds per pmf). */
Test(exact_layer, pf_and_em_realise_the_pmf_with_sensitivities_3_and_1000, .timeout = 600)
{
    static const struct { uint64_t sensitivity; int64_t scores[6]; } cases[] = {
        { 3, { 0, -1, -2, 0, -4, 0 } },
        { 3, { 0, -3, 0, 0, -8, 0 } },
        { 3, { INT64_MAX, INT64_MIN, INT64_MAX, INT64_MAX - 4, INT64_MAX, INT64_MAX } },
        { 1000, { 0, -1024, 0, 0, -4096, 0 } },
        { 1000, { INT64_MAX, INT64_MAX - 2048, INT64_MAX, INT64_MAX, INT64_MAX - 8192,
                  INT64_MAX - 1 } },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        for (int monotonic = 0; monotonic <= 1; monotonic++) {
            dpsel_params p;
            cr_assert_eq(dpsel_params_from_epsilon(&p, "1", cases[c].sensitivity, monotonic),
                         DPSEL_OK);
            for (size_t n = 5; n <= 6; n++) {
                char what[64];
                snprintf(what, sizeof what, "vector %zu, D %llu, monotonic %d, n %zu", c,
                         (unsigned long long)cases[c].sensitivity, monotonic, n);
                check_pf_by_enumeration(&p, cases[c].scores, n, PF_PERMUTATION, what);
                check_em_by_enumeration(dpsel_core_em_trial, &p, cases[c].scores, n, what);
            }
        }
    }
}

/* ---- statistical layer ---- */

static void check_fit(const dpsel_params *p, dpsel_mechanism m, const int64_t *scores,
                      size_t n, dpsel_rng *rng, uint64_t draws, const char *what)
{
    uint64_t *counts = calloc(n, sizeof *counts);
    mpq_t *prob = calloc(n, sizeof *prob);
    dpsel_pmf *pmf = NULL;
    cr_assert(counts != NULL && prob != NULL);
    cr_assert_eq(dpsel_pmf_new(&pmf, p, m, scores, n), DPSEL_OK, "%s: no pmf", what);
    for (size_t r = 0; r < n; r++) {
        mpq_init(prob[r]);
        pmf_value(pmf, r, prob[r]);
    }
    draw_counts(p, m, scores, n, rng, draws, counts);
    char label[128];
    snprintf(label, sizeof label, "%s, mechanism %d", what, (int)m);
    expect_fit_and_clear(counts, prob, n, draws, label);
    free(prob);
    free(counts);
    dpsel_pmf_free(pmf);
}

/* Fills v[0..n-1] with a family of score vectors (see the cases below). */
static void fill_scores(int64_t *v, size_t n, int family, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        switch (family) {
        case 0: v[i] = 7; break;                                  /* all equal */
        case 1: v[i] = i == n / 2 ? 100 : 0; break;               /* one dominant */
        case 2: v[i] = i == 0 ? 0 : -3; break;                    /* two-level worst case */
        case 3: v[i] = (int64_t)(i % 3); break;                   /* many ties */
        case 4: v[i] = (int64_t)(rand_r(&seed) % 41) - 20; break; /* random integers */
        default: v[i] = i % 2 ? INT64_MAX - (int64_t)(i % 5) : INT64_MIN + (int64_t)i; break;
        }
    }
}

Test(statistical_layer, seeded_draws_fit_the_pmf, .timeout = 600)
{
    static int64_t scores[1000];
    struct { const char *name; int family; size_t n; const char *epsilon; const char *base;
             uint64_t sensitivity; int monotonic; } cases[] = {
        { "all equal, n 50", 0, 50, "1", NULL, 1, 0 },
        { "one dominant, n 30, eps 0.05", 1, 30, "0.05", NULL, 1, 0 },
        { "two-level, n 8, eps 2", 2, 8, "2", NULL, 1, 0 },
        { "many ties, n 60, D 3, monotonic", 3, 60, "0.3", NULL, 3, 1 },
        { "random, n 100, eps 1", 4, 100, "1", NULL, 1, 0 },
        { "random, n 12, D 1000, eps 400", 4, 12, "400", NULL, 1000, 0 },
        { "int64 extremes, n 6", 5, 6, "0.5", NULL, 1, 0 },
        { "n 1", 4, 1, "1", NULL, 1, 0 },
        { "base near 0: 1/2^40", 3, 9, NULL, "1/2^40", 1, 0 },
        { "base near 1: (2^40-1)/2^40", 4, 40, NULL, "1099511627775/2^40", 1, 1 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        dpsel_params p;
        if (cases[c].base != NULL) {
            uint64_t x = strtoull(cases[c].base, NULL, 10);
            p = base_params(x, 40, cases[c].sensitivity, cases[c].monotonic);
        } else {
            cr_assert_eq(dpsel_params_from_epsilon(&p, cases[c].epsilon, cases[c].sensitivity,
                                                   cases[c].monotonic), DPSEL_OK);
        }
        fill_scores(scores, cases[c].n, cases[c].family, (unsigned)c + 1);
        for (int m = 0; m < 2; m++) {
            dpsel_rng rng = seeded_rng(1000 + 2 * c + (uint64_t)m);
            check_fit(&p, m == 0 ? DPSEL_PF : DPSEL_EM, scores, cases[c].n, &rng, 100000,
                      cases[c].name);
        }
    }
}

/* EM at n = 10^4 against its exact pmf. */
Test(statistical_layer, em_draws_fit_at_ten_thousand_candidates, .timeout = 600)
{
    static int64_t scores[10000];
    dpsel_params p;
    fill_scores(scores, 10000, 4, 99);
    cr_assert_eq(dpsel_params_from_epsilon(&p, "0.2", 1, 1), DPSEL_OK);
    dpsel_rng rng = seeded_rng(4242);
    check_fit(&p, DPSEL_EM, scores, 10000, &rng, 100000, "random, n 10^4");
}

/* PF at n = 10^4: beyond the exact rationals (n <= 4096), against the
 * enclosure (see pmf_value).  Three score levels (many ties): the enclosure
 * costs O(n^2 log L) for L levels, a few seconds here. */
Test(statistical_layer, pf_draws_fit_at_ten_thousand_candidates, .timeout = 600)
{
    static int64_t scores[10000];
    dpsel_params p;
    fill_scores(scores, 10000, 3, 0);
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 1), DPSEL_OK);
    dpsel_rng rng = seeded_rng(4243);
    check_fit(&p, DPSEL_PF, scores, 10000, &rng, 100000, "many ties, n 10^4");
}

/* The OS source: real randomness, so this one is not deterministic; its
 * false-alarm probability is 1e-6 per mechanism. */
Test(statistical_layer, os_source_draws_fit_the_pmf)
{
    int64_t scores[6] = { 5, 3, 5, 0, 4, -1 };
    dpsel_params p;
    dpsel_rng rng;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    cr_assert_eq(dpsel_rng_init_os(&rng), DPSEL_OK);
    check_fit(&p, DPSEL_PF, scores, 6, &rng, 20000, "OS source");
    check_fit(&p, DPSEL_EM, scores, 6, &rng, 20000, "OS source");
    dpsel_rng_wipe(&rng);
}

/* The command-line tool end to end: 10^5 draws of `dpsel select --count`
 * fit `dpsel pmf --exact` (false-alarm probability 1e-6 per mechanism). */
static void check_tool_fit(const char *tool, const char *mechanism)
{
    const char *input = "examples/poll.csv";
    char command[512];
    snprintf(command, sizeof command, "%s pmf --exact --mechanism %s --epsilon 0.5 --monotonic %s",
             tool, mechanism, input);
    FILE *pipe = popen(command, "r");
    cr_assert(pipe != NULL);
    char line[8192];
    mpq_t prob[16];
    char labels[16][64];
    size_t n = 0;
    while (fgets(line, sizeof line, pipe) != NULL) {
        char *last = strrchr(line, ',');
        if (line[0] == '#' || strncmp(line, "label,", 6) == 0 || last == NULL) {
            continue;
        }
        cr_assert_lt(n, 16);
        *strchr(line, ',') = '\0';
        cr_assert_lt(strlen(line), sizeof labels[n]);
        memcpy(labels[n], line, strlen(line) + 1);
        last[strcspn(last, "\n")] = '\0';
        mpq_init(prob[n]);
        cr_assert_eq(mpq_set_str(prob[n], last + 1, 10), 0);
        mpq_canonicalize(prob[n]);
        n++;
    }
    cr_assert_eq(pclose(pipe), 0);
    cr_assert_geq(n, 2);

    uint64_t counts[16] = { 0 };
    snprintf(command, sizeof command,
             "%s select --count 100000 --seed 5eed --mechanism %s --epsilon 0.5 --monotonic %s 2>/dev/null",
             tool, mechanism, input);
    pipe = popen(command, "r");
    cr_assert(pipe != NULL);
    uint64_t draws = 0;
    while (fgets(line, sizeof line, pipe) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        size_t r = 0;
        while (r < n && strcmp(labels[r], line) != 0) {
            r++;
        }
        cr_assert_lt(r, n, "unknown label %s", line);
        counts[r]++;
        draws++;
    }
    cr_assert_eq(pclose(pipe), 0);
    cr_assert_eq(draws, 100000);
    char label[32];
    snprintf(label, sizeof label, "tool, %s", mechanism);
    expect_fit_and_clear(counts, prob, n, draws, label);
}

Test(statistical_layer, tool_draws_fit_the_tool_pmf)
{
    const char *tool = getenv("DPSEL_TOOL");
    cr_assert(tool != NULL, "set DPSEL_TOOL to the dpsel binary (make test does)");
    check_tool_fit(tool, "pf");
    check_tool_fit(tool, "em");
}

/* The mutation a fit test must catch: draws from the wrong mechanism. */
Test(statistical_layer, the_fit_test_can_fail)
{
    int64_t scores[12] = { 10, 9, 9, 7, 10, 3, -2, 8, 10, 0, 6, 9 };
    dpsel_params p;
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_PF, scores, 12), DPSEL_OK);
    mpq_t prob[12];
    for (size_t r = 0; r < 12; r++) {
        mpq_init(prob[r]);
        pmf_rational(pmf, r, prob[r]);
    }
    uint64_t counts[12] = { 0 };
    dpsel_rng rng = seeded_rng(77);
    draw_counts(&p, DPSEL_EM, scores, 12, &rng, 100000, counts);
    double statistic;
    unsigned dof;
    cr_expect(!chi_square_fits(counts, prob, 12, 100000, &statistic, &dof),
              "EM draws passed as PF: chi-square %.2f", statistic);
    for (size_t r = 0; r < 12; r++) {
        mpq_clear(prob[r]);
    }
    dpsel_pmf_free(pmf);
}
