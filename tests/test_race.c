/* SPDX-License-Identifier: ISC */
/*
 * The race form of PF (src/core/race.c, spec/mechanisms.md §10) by exact
 * enumeration where the strings can be: the coin beta^t 2^s for any t, one
 * round of the coin w / (1 + w), and the whole race at unit 1 against the
 * pmf, plain and thinned (spec/mechanisms.md §13).  The thinned race at
 * epsilon 1 by chi-square, on a staircase and around lone candidates near
 * the leader.  The geometric draw (a chain of rounds per binary digit) by
 * chi-square.  The race at realistic parameters is checked by the
 * statistical tests of test_sampling.c and test_privacy.c, which go through
 * dpsel_select.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "api/selector.h"
#include "core/race.h"
#include "core/thin.h"
#include "exact/exact.h"
#include "exact_layer.h"
#include "support.h"

/* Bases of 1/2, 5/8, about 1/sqrt(2) (63 bits) and 3/4. */
static const uint64_t bases[][2] = { { 1, 1 }, { 5, 3 }, { 0xB504F333F9DE6485u >> 1 | 1, 63 },
                                     { 3, 2 } };

typedef struct {
    dpsel_decay_table table;
    dpsel_decay decay;
    uint64_t t;            /* the coin's exponent, or the geometric's last outcome */
    uint64_t scale;        /* the wide coin's scale */
} race_parts;

static void parts_init(race_parts *parts, const dpsel_params *p)
{
    cr_assert_eq(dpsel_exact_decay_table_build(&parts->table, p->x, p->y, p->gap_cap), DPSEL_OK);
    parts->decay = (dpsel_decay){ parts->table.powers, parts->table.npowers, p->gap_cap };
}

static int wide_coin_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    race_parts *parts = arg;
    int heads;
    int rc = dpsel_core_coin_wide_scaled(rng, &parts->decay, parts->t, parts->scale, &heads);
    *out = (size_t)heads;
    return rc;
}

Test(race, wide_coin_is_beta_to_the_t)
{
    mpq_t mass[2], residual, exact;
    mpq_inits(mass[0], mass[1], residual, exact, (mpq_ptr)0);
    for (size_t b = 0; b < 3; b++) {
        for (uint64_t cap = 1; cap <= 5; cap += 2) {
            dpsel_params p = base_params(bases[b][0], (unsigned)bases[b][1], 1, 0);
            cr_assert_eq(dpsel_params_set_gap_cap(&p, cap), DPSEL_OK);
            race_parts parts;
            parts_init(&parts, &p);
            /* t over several units (the high part's coins), as far as the
             * enumeration affords: at most 4 coins on a path */
            uint64_t unit = (uint64_t)1 << (parts.decay.npowers - 1);
            for (parts.t = 0; parts.t < 5 * unit; parts.t++) {
                if (parts.t / unit + (uint64_t)__builtin_popcountll(parts.t % unit) > 4) {
                    continue;
                }
                /* scales 0, half and all of the bound (beta^t 2^scale <= 1) */
                uint64_t bound = dpsel_core_lead_bound(&parts.decay, parts.t);
                for (parts.scale = 0; parts.scale <= bound;
                     parts.scale += parts.scale < bound / 2 ? bound / 2 : bound - bound / 2) {
                    char what[96];
                    snprintf(what, sizeof what, "base %zu, cap %llu, t %llu, scale %llu", b,
                             (unsigned long long)cap, (unsigned long long)parts.t,
                             (unsigned long long)parts.scale);
                    cr_assert_geq(enumerate_bits(wide_coin_sampler, &parts, 2,
                                                 ENUMERATION_DEPTH, mass, residual), 1);
                    beta_power(exact, p.x, p.y, parts.t);
                    mpz_mul_2exp(mpq_numref(exact), mpq_numref(exact), parts.scale);
                    mpq_canonicalize(exact);
                    expect_realised(mass[1], residual, exact, what);
                    if (bound == 0) {
                        break;
                    }
                }
            }
            dpsel_exact_decay_table_free(&parts.table);
        }
    }
    mpq_clears(mass[0], mass[1], residual, exact, (mpq_ptr)0);
}

static int odds_round_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    race_parts *parts = arg;
    unsigned outcome = 0;
    int rc = dpsel_core_odds_round(rng, &parts->decay.powers[parts->t], &outcome);
    *out = outcome;
    return rc;
}

/* The odds coin repeats independent, alike rounds, so one round is
 * enumerated (the whole coin's strings are too many): P(0) = 1/2 and
 * P(1) = w/2 make the coin w / (1 + w) (spec/mechanisms.md §10). */
Test(race, odds_round_is_one_half_and_w_over_two)
{
    mpq_t mass[3], residual, exact;
    mpq_inits(mass[0], mass[1], mass[2], residual, exact, (mpq_ptr)0);
    for (size_t b = 0; b < sizeof bases / sizeof *bases; b++) {
        dpsel_params p = base_params(bases[b][0], (unsigned)bases[b][1], 1, 0);
        cr_assert_eq(dpsel_params_set_gap_cap(&p, 7), DPSEL_OK);
        race_parts parts;
        parts_init(&parts, &p);
        for (parts.t = 0; parts.t < parts.decay.npowers; parts.t++) {
            char what[64];
            snprintf(what, sizeof what, "base %zu, power 2^%llu", b,
                     (unsigned long long)parts.t);
            cr_assert_geq(enumerate_bits(odds_round_sampler, &parts, 3, ENUMERATION_DEPTH,
                                         mass, residual), 1);
            mpq_set_ui(exact, 1, 2);
            expect_realised(mass[0], residual, exact, what);
            beta_power(exact, p.x, p.y, (uint64_t)1 << parts.t);
            mpq_div_2exp(exact, exact, 1);
            expect_realised(mass[1], residual, exact, what);
        }
        dpsel_exact_decay_table_free(&parts.table);
    }
    mpq_clears(mass[0], mass[1], mass[2], residual, exact, (mpq_ptr)0);
}

/* Outcomes 0 .. GEOMETRIC_SHOWN - 1, and the rest in one more cell. */
#define GEOMETRIC_SHOWN 40
#define GEOMETRIC_DRAWS 200000

/* The geometric draw's strings are too many to enumerate (a chain of odds
 * rounds per digit), so its distribution is tested by chi-square, false
 * alarm 1e-6 per case, with units from 1 to 2^6 (eps 1: the default cap
 * of 89 has top 6): P(k) = beta^k - beta^(k+1), P(>= SHOWN) = beta^SHOWN. */
Test(race, geometric_draw_has_tail_beta_to_the_k, .timeout = 300)
{
    static const char *epsilons[] = { "0.5", "1", "2.5" };
    mpq_t prob[GEOMETRIC_SHOWN + 1], next;
    mpq_init(next);
    for (size_t k = 0; k <= GEOMETRIC_SHOWN; k++) {
        mpq_init(prob[k]);
    }
    dpsel_rng rng;
    cr_assert_eq(dpsel_rng_init_seeded(&rng, (const unsigned char *)"geometric", 9), DPSEL_OK);
    for (size_t e = 0; e < sizeof epsilons / sizeof *epsilons; e++) {
        for (uint64_t cap = 1; cap <= 64; cap *= 4) {
            dpsel_params p;
            cr_assert_eq(dpsel_params_from_epsilon(&p, epsilons[e], 1, 1), DPSEL_OK);
            cr_assert_eq(dpsel_params_set_gap_cap(&p, cap), DPSEL_OK);
            race_parts parts;
            parts_init(&parts, &p);
            if (!dpsel_core_race_applies(&parts.decay)) {
                dpsel_exact_decay_table_free(&parts.table);
                continue;       /* the top power is not below 1/2 */
            }
            uint64_t counts[GEOMETRIC_SHOWN + 1] = { 0 };
            for (unsigned d = 0; d < GEOMETRIC_DRAWS; d++) {
                uint64_t draw;
                cr_assert_eq(dpsel_core_geometric(&rng, &parts.decay, &draw), DPSEL_OK);
                counts[draw < GEOMETRIC_SHOWN ? draw : GEOMETRIC_SHOWN]++;
            }
            for (uint64_t k = 0; k <= GEOMETRIC_SHOWN; k++) {
                beta_power(prob[k], p.x, p.y, k);
                if (k < GEOMETRIC_SHOWN) {
                    beta_power(next, p.x, p.y, k + 1);
                    mpq_sub(prob[k], prob[k], next);
                }
            }
            double statistic;
            unsigned dof;
            cr_expect(chi_square_fits(counts, prob, GEOMETRIC_SHOWN + 1, GEOMETRIC_DRAWS,
                                      &statistic, &dof),
                      "eps %s, cap %llu: chi-square %.1f with %u dof", epsilons[e],
                      (unsigned long long)cap, statistic, dof);
            dpsel_exact_decay_table_free(&parts.table);
        }
    }
    dpsel_rng_wipe(&rng);
    for (size_t k = 0; k <= GEOMETRIC_SHOWN; k++) {
        mpq_clear(prob[k]);
    }
    mpq_clear(next);
}

static const int64_t race_vectors[][4] = {
    { 0, 0, 0, 0 },
    { 0, -1, -2, -3 },
    { 2, 2, -1, 2 },
    { INT64_MIN, INT64_MAX, INT64_MAX - 1, INT64_MIN },
    { -7, -9, -8, -7 },
};

/* The whole race, through dpsel_select, against the pmf, at unit 1 and
 * beta = 1/4 (a geometric draw is a run of coins beta, so the strings can
 * be enumerated; at beta = 3/8, or at unit 2, the residual stays above
 * 2^-24 after ten minutes): the leader, the thresholds, the excess and the
 * ties.  Then bases of 1/2 and 3/4 at cap 1, where dpsel_select permutes. */
Test(race, race_realises_the_pmf, .timeout = 600)
{
    static const uint64_t race_bases[][2] = { { 1, 2 }, { 1, 1 }, { 3, 2 } };
    for (size_t b = 0; b < sizeof race_bases / sizeof *race_bases; b++) {
        dpsel_params p = base_params(race_bases[b][0], (unsigned)race_bases[b][1], 1, 0);
        cr_assert_eq(dpsel_params_set_gap_cap(&p, 1), DPSEL_OK);
        race_parts parts;
        parts_init(&parts, &p);
        cr_assert_eq(dpsel_core_race_applies(&parts.decay), b < 1, "base %zu", b);
        dpsel_exact_decay_table_free(&parts.table);
        for (size_t v = 0; v < sizeof race_vectors / sizeof *race_vectors; v++) {
            for (size_t n = 1; n <= 4; n++) {
                char what[96];
                snprintf(what, sizeof what, "race, base %zu, vector %zu, n %zu", b, v, n);
                check_pf_by_enumeration(&p, race_vectors[v], n, PF_AS_SELECTED, what);
            }
        }
    }
}

/* Gaps 0 and 1 (cap 1) in several orders: the top first, second, third,
 * tied (n = 4 with the top last leaves a residual just above 2^-24). */
static const int64_t thinning_vectors[][4] = {
    { 0, -1, -1, -1 },
    { -1, 0, -1, -1 },
    { -1, -1, 0, -1 },
    { -1, 0, -1, 0 },
};

typedef struct {
    size_t vector;
    size_t n;
    pf_form form;
} thinning_case;

/* Each vector at n = 3 and 4 in blocks; then n = 3 in spans of two
 * candidates, the top first (the span after it thinned whole, unread) and
 * third (the span of two before it); then each vector at n = 3 through a
 * stream (test_stream.c), in one block and one score per call (every
 * candidate raced from the floor until a leader).  One case per Criterion
 * job: the cases take from a second to a minute each, and run side by
 * side. */
ParameterizedTestParameters(race, thinned_race_realises_the_pmf)
{
    enum { vectors = sizeof thinning_vectors / sizeof *thinning_vectors,
           in_blocks = 2 * vectors, streamed = in_blocks + 2 };
    static thinning_case cases[streamed + 2 * vectors];
    for (size_t c = 0; c < in_blocks; c++) {
        cases[c] = (thinning_case){ c / 2, 3 + c % 2, PF_THINNED_RACE };
    }
    cases[in_blocks] = (thinning_case){ 0, 3, PF_THINNED_SPANS };
    cases[in_blocks + 1] = (thinning_case){ 2, 3, PF_THINNED_SPANS };
    for (size_t c = 0; c < 2 * vectors; c++) {
        cases[streamed + c] = (thinning_case){ c / 2, 3,
                                               c % 2 ? PF_STREAMED_SINGLY : PF_STREAMED };
    }
    return cr_make_param_array(thinning_case, cases, sizeof cases / sizeof *cases);
}

static const char *form_name(pf_form form)
{
    switch (form) {
    case PF_THINNED_SPANS:
        return "spans of 2";
    case PF_STREAMED:
        return "a stream's block";
    case PF_STREAMED_SINGLY:
        return "a stream, one score per call";
    default:
        return "blocks";
    }
}

/* The thinned race (no visits: every candidate through its blocks or
 * spans) against the pmf, at beta = 2^-8 and cap 1: unit 1, and beta^1 <
 * 2^-7, so every candidate below the top is in a thinned block or span
 * (level k = 7 when the top's noise is 0, k = 14 when it is 1, ...): the
 * dominating coins, the digits of the first heads and the thinning coins
 * are all enumerated. */
ParameterizedTest(thinning_case *c, race, thinned_race_realises_the_pmf, .timeout = 600)
{
    /* The three largest trees (n = 4 in blocks, vectors 0 to 2) take 6
     * minutes of the sanitizer run (tests/sanitize.sh) and run no line of
     * the library that the other cases do not (gcov, 2026-11-25): there,
     * vector 3 stands for n = 4. */
    if (getenv("DPSEL_TEST_SANITIZED") && c->form == PF_THINNED_RACE && c->n == 4
        && c->vector < 3) {
        cr_skip_test("the sanitizer run leaves the largest enumerations to make test");
    }
    dpsel_params p = base_params(1, 8, 1, 0);
    cr_assert_eq(dpsel_params_set_gap_cap(&p, 1), DPSEL_OK);
    char what[96];
    snprintf(what, sizeof what, "thinned race in %s, vector %zu, n %zu", form_name(c->form),
             c->vector, c->n);
    check_pf_by_enumeration(&p, thinning_vectors[c->vector], c->n, c->form, what);
}

/* The thinned race alone (no visits) on the staircase of exact_layer.h. */
Test(race, thinned_race_fits_the_pmf, .timeout = 600)
{
    check_pf_staircase_fit(PF_THINNED_RACE, 1713, "thinned race");
}

/* Candidates near the leader, lone among far ones, where the
 * race halves a block's pieces around each near one and declines to thin a
 * long piece at a low level: 4096 candidates (four blocks) at epsilon 1,
 * the top (100) at 2500, one in 97 at gap 12 or 13 (levels k = 7 and 8,
 * pieces of at most 2 or 4 positions), one in 331 at gap 3 (never
 * thinned), the rest at 0 (gaps at the cap).  The race alone and a stream,
 * each fitted to the pmf as check_pf_fit does (false-alarm probability
 * 1e-6 each). */
Test(race, lone_near_candidates_fit_the_pmf, .timeout = 600)
{
    enum { N = 4096 };
    static int64_t scores[N];
    for (size_t i = 0; i < N; i++) {
        scores[i] = i == 2500 ? 100 : i % 331 == 7 ? 97 : i % 97 == 5 ? 88 - (int64_t)(i % 2) : 0;
    }
    check_pf_fit(PF_THINNED_RACE, scores, N, 3901, "thinned race, lone near candidates");
    check_pf_fit(PF_STREAMED, scores, N, 3902, "stream, lone near candidates");
}
