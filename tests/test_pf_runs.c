/* SPDX-License-Identifier: ISC */
/*
 * PF over runs and levels in time proportional to them (src/exact/pf_runs.c,
 * src/api/runs.c; spec/quantiles.md §7):
 *   - every bit string of dpsel_exact_pf_groups (first enclosures of one
 *     bit) enumerated to a depth: the terminated strings' mass and that mass
 *     plus the unterminated one bracket PF's exact group probabilities
 *     (dpsel_pmf_new over the expanded candidates), for 5 bases (one of 64
 *     digits) and 2 to 4 groups of 1 to 3; the same brackets exclude the pmf of a wrong
 *     model (a gap one more, the counts ignored), so the test can fail;
 *   - the default first enclosure (8 bits) fits the group probabilities
 *     (chi-square, false alarm 1e-6; the quantile's and the partial finish's
 *     fits are in test_quantile.c and test_partial.c);
 *   - work: a quantile on a grid of 2^62 points and the finish of a forged
 *     state counting 2^62 candidates read a few hundred bits;
 *   - the interrupt check stops both; bad arguments are DPSEL_EINTERNAL.
 */
#include <criterion/criterion.h>
#include <gmp.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "exact/pf_runs.h"
#include "core/core.h"
#include "support.h"

typedef struct {
    uint64_t x;
    unsigned y;
    size_t count;
    uint64_t gaps[4], counts[4];
    unsigned first_bits;
} groups_case;

static int groups_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    const groups_case *c = arg;
    return dpsel_exact_pf_groups(c->x, c->y, c->gaps, c->counts, c->count, c->first_bits, rng,
                                 out);
}

/* PF's exact probability of each group, from the pmf of the candidates
 * expanded (scores -gap; every gap below the params' cap). */
static void group_probabilities(const groups_case *c, mpq_t *p)
{
    dpsel_params params = base_params(c->x, c->y, 1, 0);
    int64_t scores[12];
    size_t n = 0;
    for (size_t j = 0; j < c->count; j++) {
        cr_assert_lt(c->gaps[j], params.gap_cap);
        for (uint64_t k = 0; k < c->counts[j]; k++) {
            scores[n++] = -(int64_t)c->gaps[j];
        }
    }
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, &params, DPSEL_PF, scores, n), DPSEL_OK);
    mpq_t each;
    mpq_init(each);
    size_t r = 0;
    for (size_t j = 0; j < c->count; j++) {
        mpq_set_ui(p[j], 0, 1);
        for (uint64_t k = 0; k < c->counts[j]; k++) {
            pmf_rational(pmf, r++, each);
            mpq_add(p[j], p[j], each);
        }
    }
    mpq_clear(each);
    dpsel_pmf_free(pmf);
}

/* The wrong models a bracket must exclude: the last group's gap one more,
 * every count 1. */
enum { GAP_MORE, COUNTS_IGNORED, WRONG_MODELS };

static groups_case wrong_model(const groups_case *c, int which)
{
    groups_case w = *c;
    for (size_t j = 0; j < w.count; j++) {
        w.counts[j] = which == COUNTS_IGNORED ? 1 : w.counts[j];
    }
    w.gaps[w.count - 1] += which == GAP_MORE;
    return w;
}

/* Enumerates the case to `depth` bits: the brackets must hold PF's law;
 * excluded[k] is set when they exclude wrong model k. */
static void check_enumeration(const groups_case *c, unsigned depth, int *excluded)
{
    mpq_t mass[4], p[4], residual;
    mpq_init(residual);
    for (size_t j = 0; j < 4; j++) {
        mpq_inits(mass[j], p[j], (mpq_ptr)0);
    }
    groups_case run = *c;
    long complete = enumerate_bits(groups_sampler, &run, c->count, depth, mass, residual);
    cr_assert_gt(complete, 0, "base %lu/2^%u: the sampler failed", (unsigned long)c->x, c->y);
    group_probabilities(c, p);
    cr_expect(mass_brackets(mass, residual, p, c->count),
              "base %lu/2^%u, %zu groups: PF's law outside the brackets", (unsigned long)c->x,
              c->y, c->count);
    cr_expect_lt(mpq_get_d(residual), 0.15, "depth %u leaves %g unterminated", depth,
                 mpq_get_d(residual));
    for (int k = 0; k < WRONG_MODELS; k++) {
        groups_case wrong = wrong_model(c, k);
        group_probabilities(&wrong, p);
        excluded[k] = !mass_brackets(mass, residual, p, c->count);
    }
    for (size_t j = 0; j < 4; j++) {
        mpq_clears(mass[j], p[j], (mpq_ptr)0);
    }
    mpq_clear(residual);
}

Test(pf_runs, enumeration_brackets_pf, .timeout = 600)
{
    static const groups_case cases[] = {
        { 1, 1, 2, { 0, 1 }, { 1, 2 }, 1 },
        { 3, 2, 3, { 0, 2, 1 }, { 2, 1, 3 }, 1 },
        { 1, 2, 3, { 2, 0, 1 }, { 3, 1, 1 }, 1 },         /* the first group not the best */
        { 13, 4, 4, { 1, 0, 3, 2 }, { 1, 3, 2, 1 }, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int excluded[WRONG_MODELS];
        check_enumeration(&cases[i], 18, excluded);
        /* the last case's base is too close to 1 for a gap more to show */
        cr_expect(excluded[GAP_MORE] || i == 3, "case %zu: a gap one more not excluded", i);
        cr_expect(excluded[COUNTS_IGNORED], "case %zu: the counts ignored not excluded", i);
    }
    /* a base of 64 digits, close to 1 (epsilon 0.7 at sensitivity 1000) */
    dpsel_params wide = pmf_test_params(3);
    groups_case c = { wide.x, wide.y, 3, { 0, 1, 2 }, { 3, 1, 2 }, 1 };
    int excluded[WRONG_MODELS];
    check_enumeration(&c, 18, excluded);
}

/* The default first enclosure: draws of the groups fit their probabilities. */
Test(pf_runs, default_schedule_fits_the_group_probabilities, .timeout = 300)
{
    groups_case c = { 13, 4, 4, { 1, 0, 3, 2 }, { 1, 3, 2, 1 }, DPSEL_PF_RUNS_FIRST_BITS };
    mpq_t p[4];
    for (size_t j = 0; j < 4; j++) {
        mpq_init(p[j]);
    }
    group_probabilities(&c, p);
    dpsel_rng rng = seeded_rng(71);
    uint64_t counts[4] = { 0 };
    const uint64_t draws = 100000;
    for (uint64_t d = 0; d < draws; d++) {
        size_t group = 4;
        cr_assert_eq(groups_sampler(&c, &rng, &group), DPSEL_OK);
        cr_assert_lt(group, 4);
        counts[group]++;
    }
    expect_fit_and_clear(counts, p, 4, draws, "pf groups, first enclosure of 8 bits");
    dpsel_rng_wipe(&rng);
}

/* A seeded source that counts the bits read through it. */
typedef struct {
    dpsel_rng inner;
    uint64_t bits;
} counting_source;

static int counting_bit(void *context, unsigned *bit)
{
    counting_source *s = context;
    s->bits++;
    return dpsel_internal_rng_bit(&s->inner, bit);
}

static dpsel_rng counting_rng(counting_source *s, uint64_t seed)
{
    s->inner = seeded_rng(seed);
    s->bits = 0;
    dpsel_rng rng;
    cr_assert_eq(dpsel_rng_init_custom(&rng, counting_bit, s), DPSEL_OK);
    return rng;
}

/* The most bits a selection below may read: its levels' first enclosures
 * and a few refinements, the member's uniform integer (about 64 bits). */
#define WORK_BITS_MAX 2048

/* A grid of 2^62 points (the largest), five values: each release reads a
 * few hundred bits, where racing the points would take centuries. */
Test(pf_runs, quantile_on_a_grid_of_2_to_the_62_reads_few_bits, .timeout = 60)
{
    static const int64_t values[] = { 5, 1000000007, (int64_t)1 << 40, (int64_t)1 << 61,
                                      ((int64_t)1 << 62) - 9 };
    const int64_t upper = ((int64_t)1 << 62) - 1;
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    counting_source source;
    dpsel_rng rng = counting_rng(&source, 73);
    for (int i = 0; i < 20; i++) {
        uint64_t before = source.bits;
        int64_t value = -1;
        cr_assert_eq(dpsel_quantile_select(selector, DPSEL_PF, 1, 2, values, 5, 0, upper, &rng,
                                           &value), DPSEL_OK);
        cr_expect(value >= 0 && value <= upper);
        cr_expect_lt(source.bits - before, WORK_BITS_MAX, "release %d read %lu bits", i,
                     (unsigned long)(source.bits - before));
    }
    dpsel_rng_wipe(&rng);
    dpsel_rng_wipe(&source.inner);
    dpsel_selector_free(selector);
}

static void put_u64(unsigned char *at, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        at[i] = (unsigned char)(v >> (8 * i));
    }
}

/* A state of three levels (members of 2 bytes) serialised, then forged to
 * count 2^62 - 2, 1 and 1 candidates, its unkeyed checksum recomputed. */
static unsigned char *forged_state(const dpsel_params *p, size_t *size)
{
    dpsel_partial *a = NULL;
    cr_assert_eq(dpsel_partial_new(&a, p), DPSEL_OK);
    dpsel_rng rng = seeded_rng(74);
    static const int64_t scores[] = { 10, 9, 7 };
    static const char *members[] = { "aa", "bb", "cc" };
    for (size_t i = 0; i < 3; i++) {
        cr_assert_eq(dpsel_partial_add(a, scores[i], members[i], 2, &rng), DPSEL_OK);
    }
    cr_assert_eq(dpsel_partial_serialize(a, NULL, 0, size), DPSEL_OK);
    cr_assert_eq(*size, 56 + 3 * 22 + 32);
    unsigned char *buf = malloc(*size);
    cr_assert(buf != NULL);
    size_t written = 0;
    cr_assert_eq(dpsel_partial_serialize(a, buf, *size, &written), DPSEL_OK);
    const uint64_t total = (uint64_t)1 << 62;
    put_u64(buf + 32, total);            /* spec/partial.md §4: total, then the levels */
    put_u64(buf + 56 + 8, total - 2);    /* gap 0 */
    crypto_generichash(buf + *size - 32, 32, buf, *size - 32, NULL, 0);
    dpsel_partial_free(a);
    dpsel_rng_wipe(&rng);
    return buf;
}

/* Finishing a forged state that counts 2^62 candidates reads a few hundred
 * bits, where racing them would take centuries. */
Test(pf_runs, forged_state_of_2_to_the_62_finishes_with_few_bits, .timeout = 60)
{
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    size_t size = 0;
    unsigned char *buf = forged_state(&p, &size);
    counting_source source;
    dpsel_rng rng = counting_rng(&source, 75);
    unsigned released_best = 0;
    for (int i = 0; i < 20; i++) {
        dpsel_partial *state = NULL;
        cr_assert_eq(dpsel_partial_deserialize(&state, &p, buf, size), DPSEL_OK);
        uint64_t before = source.bits;
        const void *member = NULL;
        size_t member_size = 0;
        cr_assert_eq(dpsel_partial_finish(state, selector, DPSEL_PF, &rng, &member,
                                          &member_size), DPSEL_OK);
        cr_expect_eq(member_size, 2);
        released_best += memcmp(member, "aa", 2) == 0;
        cr_expect_lt(source.bits - before, WORK_BITS_MAX, "finish %d read %lu bits", i,
                     (unsigned long)(source.bits - before));
        dpsel_partial_free(state);
    }
    /* the others have probability about 2^-62 each */
    cr_expect_eq(released_best, 20);
    free(buf);
    dpsel_rng_wipe(&rng);
    dpsel_rng_wipe(&source.inner);
    dpsel_selector_free(selector);
}

/* An interrupt check that stops once asked past `after`, recording what
 * it was told. */
typedef struct {
    uint64_t after, calls;
    int done_beyond_total;
} stopper;

static int stop_after(void *context, uint64_t done, uint64_t total)
{
    stopper *s = context;
    s->calls++;
    s->done_beyond_total |= done > total;
    return done >= s->after;
}

Test(pf_runs, the_interrupt_check_stops_the_race_and_the_runs)
{
    enum { GROUPS = 10000 };
    uint64_t *gaps = malloc(GROUPS * sizeof *gaps), *counts = malloc(GROUPS * sizeof *counts);
    cr_assert(gaps != NULL && counts != NULL);
    for (size_t j = 0; j < GROUPS; j++) {
        gaps[j] = j % 64;
        counts[j] = 1 + j % 3;
    }
    dpsel_rng rng = seeded_rng(76);
    stopper s = { 4096, 0, 0 };
    cr_assert_eq(dpsel_rng_set_interrupt(&rng, stop_after, &s), DPSEL_OK);
    size_t group = GROUPS;
    cr_expect_eq(dpsel_exact_pf_groups(1, 1, gaps, counts, GROUPS, 8, &rng, &group),
                 DPSEL_ECANCELED);
    cr_expect_eq(group, GROUPS, "output written");
    cr_expect_eq(s.calls, 1);
    s.after = GROUPS;  /* asked at 4096 and 8192: goes on */
    cr_expect_eq(dpsel_exact_pf_groups(1, 1, gaps, counts, GROUPS, 8, &rng, &group), DPSEL_OK);
    cr_expect_lt(group, GROUPS);
    cr_expect_eq(s.calls, 3);
    /* a quantile's runs: the first check stops it */
    int64_t values[100];
    for (size_t i = 0; i < 100; i++) {
        values[i] = (int64_t)(i * i);
    }
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    dpsel_quantile_runs *runs = NULL;
    cr_assert_eq(dpsel_quantile_runs_new(&runs, 1, 2, values, 100, 0, 100000), DPSEL_OK);
    s.after = 0;
    int64_t value = -1;
    cr_expect_eq(dpsel_quantile_select_runs(selector, DPSEL_PF, runs, &rng, &value),
                 DPSEL_ECANCELED);
    cr_expect_eq(value, -1, "output written");
    cr_expect_not(s.done_beyond_total);
    dpsel_quantile_runs_free(runs);
    dpsel_selector_free(selector);
    dpsel_rng_wipe(&rng);
    free(gaps);
    free(counts);
}

Test(pf_runs, arguments_outside_the_contract)
{
    const uint64_t gaps[] = { 0, DPSEL_GAP_CAP_MAX + 1 }, counts[] = { 1, 0 };
    const uint64_t ones[] = { 1, 1 };
    dpsel_rng rng = seeded_rng(77);
    size_t group = 9;
    cr_expect_eq(dpsel_exact_pf_groups(1, 1, gaps, ones, 0, 8, &rng, &group), DPSEL_EINTERNAL);
    cr_expect_eq(dpsel_exact_pf_groups(1, 1, gaps, counts, 2, 8, &rng, &group), DPSEL_EINTERNAL);
    cr_expect_eq(dpsel_exact_pf_groups(1, 1, gaps, ones, 2, 8, &rng, &group), DPSEL_EINTERNAL);
    cr_expect_eq(dpsel_exact_pf_groups(1, 1, gaps, ones, 1, 0, &rng, &group), DPSEL_EINTERNAL);
    cr_expect_eq(dpsel_exact_pf_groups(1, 1, gaps, ones, 1, DPSEL_PF_RUNS_MAX_BITS + 1, &rng,
                                       &group), DPSEL_EINTERNAL);
    cr_expect_eq(dpsel_exact_pf_groups(2, 1, gaps, ones, 1, 8, &rng, &group), DPSEL_EINTERNAL);
    cr_expect_eq(group, 9, "output written");
    cr_expect_eq(dpsel_exact_pf_groups(1, 1, gaps, ones, 1, 8, &rng, &group), DPSEL_OK);
    cr_expect_eq(group, 0);
    dpsel_rng_wipe(&rng);
}
