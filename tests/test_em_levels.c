/* SPDX-License-Identifier: ISC */
/*
 * EM by levels (src/core/em_levels.c, spec/mechanisms.md §12): one trial
 * by exact enumeration (level g kept with probability c_g beta^g 2^E / T
 * exactly, T the total of the running sums); the whole sampler by
 * chi-square against the pmf, directly and through dpsel_select on a score
 * vector whose uniform trials mostly fail.
 */
#include <criterion/criterion.h>
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/em_levels.h"
#include "core/gap.h"
#include "exact/exact.h"
#include "exact_layer.h"
#include "support.h"

#define MAX_CAP 8

typedef struct {
    dpsel_decay_table table;
    dpsel_decay decay;
    unsigned envelope;
    uint64_t levels[MAX_CAP + 1];
} level_case;

static void case_init(level_case *c, uint64_t x, unsigned y, uint64_t cap, unsigned envelope,
                      const int64_t *scores, size_t n)
{
    cr_assert_leq(cap, MAX_CAP);
    cr_assert_eq(dpsel_exact_decay_table_build(&c->table, x, y, cap), DPSEL_OK);
    c->decay = (dpsel_decay){ c->table.powers, c->table.npowers, cap };
    c->envelope = envelope;
    int64_t best = scores[dpsel_core_argmax(scores, n)];
    cr_assert_eq(dpsel_core_em_levels_build(&c->decay, scores, n, best, envelope, c->levels),
                 DPSEL_OK);
}

/* Outcome: the kept level, or cap + 1 for a rejected trial. */
static int trial_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    level_case *c = arg;
    uint64_t level = 0;
    int kept = 0;
    int rc = dpsel_core_em_level_trial(rng, &c->decay, c->levels, c->envelope, &level, &kept);
    *out = kept ? (size_t)level : (size_t)c->decay.cap + 1;
    return rc;
}

Test(em_levels, one_trial_keeps_level_g_with_c_g_beta_g)
{
    static const int64_t scores[][4] = {
        { 0, 0, 0, 0 }, { 0, -1, -2, -3 }, { 5, 5, -100, 3 }, { INT64_MIN, INT64_MAX, 7, 7 },
    };
    static const uint64_t bases[][3] = { { 1, 1, 3 }, { 3, 2, 5 }, { 5, 3, 8 } };  /* x, y, cap */
    static const unsigned envelopes[] = { 0, 2, 5 };
    for (size_t b = 0; b < sizeof bases / sizeof *bases; b++) {
        for (size_t e = 0; e < sizeof envelopes / sizeof *envelopes; e++) {
            for (size_t v = 0; v < sizeof scores / sizeof *scores; v++) {
                level_case c;
                uint64_t cap = bases[b][2];
                case_init(&c, bases[b][0], (unsigned)bases[b][1], cap, envelopes[e], scores[v], 4);
                uint64_t counts[MAX_CAP + 1] = { 0 };
                int64_t best = scores[v][dpsel_core_argmax(scores[v], 4)];
                for (size_t i = 0; i < 4; i++) {
                    counts[dpsel_core_clamped_gap(best, scores[v][i], cap)]++;
                }
                mpq_t mass[MAX_CAP + 2], residual, exact;
                for (size_t g = 0; g <= cap + 1; g++) {
                    mpq_init(mass[g]);
                }
                mpq_inits(residual, exact, (mpq_ptr)0);
                cr_assert_geq(enumerate_bits(trial_sampler, &c, cap + 2, ENUMERATION_DEPTH,
                                             mass, residual), 1);
                for (uint64_t g = 0; g <= cap; g++) {
                    /* c_g beta^g 2^envelope / T */
                    char what[80];
                    snprintf(what, sizeof what, "base %zu, envelope %u, vector %zu, level %lu",
                             b, envelopes[e], v, (unsigned long)g);
                    level_keep_probability(exact, bases[b][0], (unsigned)bases[b][1], g,
                                           counts[g], envelopes[e], c.levels[cap]);
                    expect_realised(mass[g], residual, exact, what);
                }
                for (size_t g = 0; g <= cap + 1; g++) {
                    mpq_clear(mass[g]);
                }
                mpq_clears(residual, exact, (mpq_ptr)0);
                dpsel_exact_decay_table_free(&c.table);
            }
        }
    }
}

/* The whole of dpsel_core_em_levels against the exact pmf, by chi-square
 * (false alarm 1e-6 per fit). */
Test(em_levels, sampler_fits_the_pmf, .timeout = 300)
{
    enum { N = 40 };
    int64_t scores[N];
    for (size_t i = 0; i < N; i++) {
        scores[i] = (int64_t)((i * 7919) % 23) - (i % 5 == 0 ? 1000 : 0);
    }
    static const char *epsilons[] = { "0.5", "2" };
    for (size_t e = 0; e < sizeof epsilons / sizeof *epsilons; e++) {
        dpsel_params p;
        cr_assert_eq(dpsel_params_from_epsilon(&p, epsilons[e], 1, 0), DPSEL_OK);
        dpsel_decay_table table;
        cr_assert_eq(dpsel_exact_decay_table_build(&table, p.x, p.y, p.gap_cap), DPSEL_OK);
        dpsel_decay decay = { table.powers, table.npowers, p.gap_cap };
        cr_assert_leq(decay.npowers, DPSEL_LEVELS_MAX_POWERS);
        uint64_t *levels = calloc(p.gap_cap + 1, sizeof *levels);
        uint64_t counts[N] = { 0 };
        mpq_t prob[N];
        dpsel_pmf *pmf = NULL;
        cr_assert(levels != NULL);
        cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_EM, scores, N), DPSEL_OK);
        for (size_t r = 0; r < N; r++) {
            mpq_init(prob[r]);
            pmf_rational(pmf, r, prob[r]);
        }
        dpsel_rng rng = seeded_rng(700 + e);
        size_t top = dpsel_core_argmax(scores, N);
        const uint64_t draws = 200000;
        for (uint64_t d = 0; d < draws; d++) {
            size_t index = N;
            cr_assert_eq(dpsel_core_em_levels(&rng, &decay, scores, N, top, 57, levels, &index),
                         DPSEL_OK);
            counts[index]++;
        }
        char label[64];
        snprintf(label, sizeof label, "epsilon %s", epsilons[e]);
        expect_fit_and_clear(counts, prob, N, draws, label);
        dpsel_pmf_free(pmf);
        free(levels);
        dpsel_exact_decay_table_free(&table);
        dpsel_rng_wipe(&rng);
    }
}

/* Through dpsel_select: 2^17 candidates of which few are near the top, so
 * that the 1024 uniform trials mostly fail and the levels decide; the
 * released candidates' gaps against the exact pmf summed per gap.  The
 * cells: the top (candidate 77), gaps near and middle (every 4096th and
 * 1024th candidate, or at epsilon 0.01 every 32768th and 16384th) and a gap
 * beyond the cap (the rest). */
enum { LEVELS_N = 1 << 17, CELLS = 4 };

typedef struct {
    const char *epsilon;
    int64_t cell_score[CELLS];
    size_t near_every, middle_every;
} levels_case;

static void check_select_by_levels(const levels_case *c)
{
    int64_t *scores = malloc(LEVELS_N * sizeof *scores);
    cr_assert(scores != NULL);
    for (size_t i = 0; i < LEVELS_N; i++) {
        scores[i] = i == 77                        ? c->cell_score[0]
                    : i % c->near_every == 5       ? c->cell_score[1]
                    : i % c->middle_every == 9     ? c->cell_score[2]
                                                   : c->cell_score[3];
    }
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, c->epsilon, 1, 0), DPSEL_OK);
    cr_assert_lt(p.gap_cap, LEVELS_N, "the levels' scratch fits: cap %llu",
                 (unsigned long long)p.gap_cap);
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_EM, scores, LEVELS_N), DPSEL_OK);
    mpq_t prob[CELLS], each;
    for (size_t k = 0; k < CELLS; k++) {
        mpq_init(prob[k]);
    }
    mpq_init(each);
    for (size_t k = 0; k < CELLS; k++) {
        size_t members = 0;
        size_t some = 0;
        for (size_t i = 0; i < LEVELS_N; i++) {
            if (scores[i] == c->cell_score[k]) {
                members++;
                some = i;
            }
        }
        pmf_rational(pmf, some, each);
        mpz_mul_ui(mpq_numref(each), mpq_numref(each), members);
        mpq_canonicalize(each);
        mpq_set(prob[k], each);
    }
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    dpsel_rng rng = seeded_rng(4242);
    uint64_t counts[CELLS] = { 0 };
    const uint64_t draws = 20000;
    for (uint64_t d = 0; d < draws; d++) {
        size_t index = LEVELS_N;
        cr_assert_eq(dpsel_select(selector, DPSEL_EM, scores, LEVELS_N, &rng, &index), DPSEL_OK);
        size_t k = 0;
        while (k < CELLS && scores[index] != c->cell_score[k]) {
            k++;
        }
        cr_assert_lt(k, CELLS);
        counts[k]++;
    }
    char label[48];
    snprintf(label, sizeof label, "levels at epsilon %s", c->epsilon);
    expect_fit_and_clear(counts, prob, CELLS, draws, label);
    mpq_clear(each);
    dpsel_selector_free(selector);
    dpsel_pmf_free(pmf);
    dpsel_rng_wipe(&rng);
    free(scores);
}

Test(em_levels, select_switches_to_levels_exactly, .timeout = 300)
{
    check_select_by_levels(&(levels_case){ "1", { 0, -1, -4, -1000 }, 4096, 1024 });
}

/* Epsilon 0.01: the gap cap 8873 takes a table of 14 powers, once left to
 * uniform trials (about n / 11 of them per selection here). */
Test(em_levels, select_takes_levels_at_a_cap_above_2_to_the_13, .timeout = 300)
{
    const levels_case c = { "0.01", { 0, -1, -40, -100000 }, 32768, 16384 };
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, c.epsilon, 1, 0), DPSEL_OK);
    cr_assert_gt(p.gap_cap, 8192);
    check_select_by_levels(&c);
}
