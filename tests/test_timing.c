/* SPDX-License-Identifier: ISC */
/*
 * The hardened mode (dpsel_select_hardened, spec/timing.md).
 *
 * Exact layer (enumeration of every bit string, support.c):
 *   - the fixed-pattern coin has P(heads) = beta^g exactly, and the
 *     distribution of the number of bits it reads is the same for every g;
 *   - hardened PF realises the exact pmf, and the distribution of the number
 *     of bits it reads is the same for different score vectors;
 *   - one hardened EM trial realises the EM distribution (EM is a fixed
 *     number of such independent trials) and reads bits independently of the
 *     scores in distribution.
 * Each "same distribution" check is also run on the default mode, where it
 * must find a difference: that shows the checks can fail.
 *
 * Statistical layer (in the style of dudect): Welch's t-test on the number
 * of bits consumed, for two classes of score vectors with the same n and
 * parameters, from a fixed seed.  The hardened mode must stay below
 * T_THRESHOLD, the default mode must exceed it.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "core/coin.h"
#include "core/em.h"
#include "core/em_levels.h"
#include "core/em_levels_hardened.h"
#include "core/gap.h"
#include "exact/exact.h"
#include "exact_layer.h"
#include "support.h"

/* dudect's threshold is |t| = 4.5, a two-sided false-alarm probability of
 * 6.8e-6 under the normal approximation; the suite's rule is at most 1e-6,
 * hence 5 (5.7e-7). */
#define T_THRESHOLD 5.0

/* A generator that forwards the bits of another and counts them. */
typedef struct {
    dpsel_rng *inner;
    uint64_t bits;
    dpsel_rng rng;      /* reads from inner through counting_bit */
} counted_rng;

static int counting_bit(void *context, unsigned *bit)
{
    counted_rng *c = context;
    c->bits++;
    return dpsel_internal_rng_bit(c->inner, bit) == DPSEL_OK ? 0 : 1;
}

/* c->rng counts what it reads of inner in c->bits (c must not move). */
static void counted_rng_init(counted_rng *c, dpsel_rng *inner)
{
    c->inner = inner;
    c->bits = 0;
    cr_assert_eq(dpsel_rng_init_custom(&c->rng, counting_bit, c), DPSEL_OK);
}

/* Largest number of bits whose count the exact layer records; a string
 * longer than that is an error of the test itself. */
#define MAX_BITS 96

/* Exact distribution of a sampler's bit count: mass[k] = P(k bits read). */
static void bit_count_distribution(sampler_fn sampler, void *arg, unsigned depth,
                                   mpq_t *mass, mpq_t residual)
{
    cr_assert_geq(enumerate_bits(sampler, arg, MAX_BITS + 1, depth, mass, residual), 1);
}

/* 1 if the two distributions (and their residuals) are equal. */
static int same_distribution(mpq_t *a, const mpq_t residual_a, mpq_t *b, const mpq_t residual_b)
{
    int same = mpq_equal(residual_a, residual_b);
    for (size_t k = 0; k <= MAX_BITS; k++) {
        same = same && mpq_equal(a[k], b[k]);
    }
    return same;
}

/* 1 if the sampler reads bits alike, in distribution, on the arguments a
 * and b (its outcome being the number of bits read). */
static int samplers_read_alike(sampler_fn sampler, void *a, void *b)
{
    mpq_t mass_a[MAX_BITS + 1], mass_b[MAX_BITS + 1], residual_a, residual_b;
    mpq_inits(residual_a, residual_b, (mpq_ptr)0);
    for (size_t k = 0; k <= MAX_BITS; k++) {
        mpq_inits(mass_a[k], mass_b[k], (mpq_ptr)0);
    }
    bit_count_distribution(sampler, a, ENUMERATION_DEPTH, mass_a, residual_a);
    bit_count_distribution(sampler, b, ENUMERATION_DEPTH, mass_b, residual_b);
    cr_expect(residual_small(residual_a), "bit count: residual %g", mpq_get_d(residual_a));
    int same = same_distribution(mass_a, residual_a, mass_b, residual_b);
    for (size_t k = 0; k <= MAX_BITS; k++) {
        mpq_clears(mass_a[k], mass_b[k], (mpq_ptr)0);
    }
    mpq_clears(residual_a, residual_b, (mpq_ptr)0);
    return same;
}

/* ---- the fixed-pattern coin ---- */

typedef struct {
    const dpsel_decay *decay;
    uint64_t g;
    int fixed;          /* 1: dpsel_core_coin_power_fixed, 0: dpsel_core_coin_power */
    int count_bits;     /* outcome: 1 the number of bits read, 0 heads */
} coin_arg;

static int coin_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    const coin_arg *c = arg;
    counted_rng counted;
    counted_rng_init(&counted, rng);
    int heads = 0;
    const dpsel_decay *d = c->decay;
    int rc = c->fixed
        ? dpsel_core_coin_power_fixed(&counted.rng, d->powers, d->npowers, c->g, &heads)
        : dpsel_core_coin_power(&counted.rng, d->powers, d->npowers, c->g, &heads);
    *out = c->count_bits ? (size_t)counted.bits : (size_t)heads;
    return rc;
}

/* Checks the fixed coin for every g <= cap; returns 1 if the lazy coin's bit
 * count differed between some g and g = 0 (it should). */
static int check_fixed_coins(uint64_t x, unsigned y, uint64_t cap)
{
    dpsel_decay_table table;
    cr_assert_eq(dpsel_exact_decay_table_build(&table, x, y, cap), DPSEL_OK);
    dpsel_decay decay = { table.powers, table.npowers, cap };
    mpq_t heads[2], exact, residual, reference[MAX_BITS + 1], ref_residual,
          lazy_reference[MAX_BITS + 1], lazy_residual, mass[MAX_BITS + 1];
    mpq_inits(heads[0], heads[1], exact, residual, ref_residual, lazy_residual, (mpq_ptr)0);
    for (size_t k = 0; k <= MAX_BITS; k++) {
        mpq_inits(reference[k], lazy_reference[k], mass[k], (mpq_ptr)0);
    }
    /* The bit counts at g = 0, for both coins. */
    coin_arg fixed_zero = { &decay, 0, 1, 1 }, lazy_zero = { &decay, 0, 0, 1 };
    bit_count_distribution(coin_sampler, &fixed_zero, 200, reference, ref_residual);
    bit_count_distribution(coin_sampler, &lazy_zero, 200, lazy_reference, lazy_residual);
    cr_expect(mpq_sgn(ref_residual) == 0, "x=%lu y=%u: fixed coin not finished", x, y);
    int lazy_differs = 0;
    for (uint64_t g = 0; g <= cap; g++) {
        coin_arg heads_of = { &decay, g, 1, 0 };
        cr_assert_geq(enumerate_bits(coin_sampler, &heads_of, 2, 200, heads, residual), 1);
        mpz_ui_pow_ui(mpq_numref(exact), x, g);
        mpz_ui_pow_ui(mpq_denref(exact), 2, y * g);
        mpq_canonicalize(exact);
        cr_expect(mpq_sgn(residual) == 0 && mpq_equal(heads[1], exact),
                  "x=%lu y=%u g=%lu: P(heads) != beta^g", x, y, g);

        coin_arg bits_of = { &decay, g, 1, 1 };
        bit_count_distribution(coin_sampler, &bits_of, 200, mass, residual);
        cr_expect(same_distribution(mass, residual, reference, ref_residual),
                  "x=%lu y=%u g=%lu: the fixed coin's bit count depends on g", x, y, g);

        coin_arg lazy = { &decay, g, 0, 1 };
        bit_count_distribution(coin_sampler, &lazy, 200, mass, residual);
        lazy_differs |= !same_distribution(mass, residual, lazy_reference, lazy_residual);
    }
    for (size_t k = 0; k <= MAX_BITS; k++) {
        mpq_clears(reference[k], lazy_reference[k], mass[k], (mpq_ptr)0);
    }
    mpq_clears(heads[0], heads[1], exact, residual, ref_residual, lazy_residual, (mpq_ptr)0);
    dpsel_exact_decay_table_free(&table);
    return lazy_differs;
}

Test(hardened_exact, fixed_coin_is_beta_to_the_g_and_reads_alike_for_every_g)
{
    static const struct { uint64_t x; unsigned y; uint64_t cap; } bases[] = {
        { 1, 1, 12 },   /* 1/2 */
        { 3, 2, 12 },   /* 3/4 */
        { 5, 3, 9 },    /* 5/8 */
        { 1, 5, 4 },    /* 1/32: leading zeros */
        { 13, 4, 6 },   /* 13/16 */
    };
    for (size_t b = 0; b < sizeof bases / sizeof *bases; b++) {
        cr_expect(check_fixed_coins(bases[b].x, bases[b].y, bases[b].cap),
                  "base %lu/2^%u: the lazy coin's bit count should depend on g",
                  bases[b].x, bases[b].y);
    }
}

/* ---- hardened PF (its pmf: exact_layer.c) ---- */

typedef struct {
    const dpsel_selector *selector;
    dpsel_mechanism mechanism;
    const int64_t *scores;
    size_t n;
    int hardened;
} selection;

/* A selection whose outcome is the number of random bits it read. */
static int selection_bits(void *arg, dpsel_rng *rng, size_t *out)
{
    const selection *s = arg;
    counted_rng counted;
    counted_rng_init(&counted, rng);
    size_t index = 0;
    int rc = (s->hardened ? dpsel_select_hardened : dpsel_select)(
        s->selector, s->mechanism, s->scores, s->n, &counted.rng, &index);
    *out = (size_t)counted.bits;
    return rc;
}

/* Small caps keep every coin short (beta^(2^i) has 2^i y bits at most), so
 * that the whole hardened sampler fits the enumeration. */
static dpsel_params capped_params(uint64_t x, unsigned y, uint64_t cap)
{
    dpsel_params p = base_params(x, y, 1, 0);
    cr_assert_eq(dpsel_params_set_gap_cap(&p, cap), DPSEL_OK);
    return p;
}

static const int64_t pf_vectors[][3] = {
    { 0, 0, 0 },
    { 0, -1, -2 },
    { 5, -1, 4 },                         /* gaps beyond the cap */
    { INT64_MAX, INT64_MIN, INT64_MAX },  /* the int64 extremes, a tie */
};

Test(hardened_exact, pf_realises_the_pmf, .timeout = 300)
{
    const dpsel_params params[] = { capped_params(1, 1, 3), capped_params(3, 2, 3),
                                    capped_params(5, 3, 2) };
    for (size_t b = 0; b < sizeof params / sizeof *params; b++) {
        for (size_t v = 0; v < sizeof pf_vectors / sizeof *pf_vectors; v++) {
            for (size_t n = 1; n <= 3; n++) {
                check_pf_by_enumeration(&params[b], pf_vectors[v], n, PF_HARDENED, "hardened");
            }
        }
    }
}

/* Exact bit-count distributions of a selection on two score vectors. */
static int bit_counts_equal(const dpsel_params *p, dpsel_mechanism m, int hardened,
                            const int64_t *a, const int64_t *b, size_t n)
{
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, p), DPSEL_OK);
    selection sa = { selector, m, a, n, hardened };
    selection sb = { selector, m, b, n, hardened };
    int same = samplers_read_alike(selection_bits, &sa, &sb);
    dpsel_selector_free(selector);
    return same;
}

Test(hardened_exact, pf_reads_alike_for_every_score_vector, .timeout = 300)
{
    const dpsel_params params[] = { capped_params(1, 1, 3), capped_params(3, 2, 3) };
    for (size_t b = 0; b < sizeof params / sizeof *params; b++) {
        for (size_t v = 1; v < sizeof pf_vectors / sizeof *pf_vectors; v++) {
            cr_expect(bit_counts_equal(&params[b], DPSEL_PF, 1, pf_vectors[0], pf_vectors[v], 3),
                      "hardened PF: bit counts of vectors 0 and %zu differ", v);
            cr_expect(!bit_counts_equal(&params[b], DPSEL_PF, 0, pf_vectors[0], pf_vectors[v], 3),
                      "default PF: bit counts of vectors 0 and %zu should differ", v);
        }
    }
}

/* ---- hardened EM: one trial (the mechanism repeats it a fixed number of times) ---- */

typedef struct {
    dpsel_decay decay;
    const int64_t *scores;
    size_t n;
    int64_t best;
    int hardened;
} trial_arg;

/* One EM trial whose outcome is the number of random bits it read. */
static int trial_bits(void *arg, dpsel_rng *rng, size_t *out)
{
    const trial_arg *t = arg;
    counted_rng counted;
    counted_rng_init(&counted, rng);
    size_t candidate = 0;
    int kept = 0;
    int rc = t->hardened
        ? dpsel_core_em_trial_hardened(&counted.rng, &t->decay, t->scores, t->n, t->best,
                                       &candidate, &kept)
        : dpsel_core_em_trial(&counted.rng, &t->decay, t->scores, t->n, t->best, &candidate, &kept);
    *out = (size_t)counted.bits;
    return rc;
}

static int trial_bit_counts_equal(const dpsel_params *p, int hardened, const int64_t *a,
                                  const int64_t *b, size_t n)
{
    dpsel_decay_table table;
    cr_assert_eq(dpsel_exact_decay_table_build(&table, p->x, p->y, p->gap_cap), DPSEL_OK);
    trial_arg ta = { { table.powers, table.npowers, p->gap_cap }, a, n,
                     dpsel_core_max_score(a, n), hardened };
    trial_arg tb = { { table.powers, table.npowers, p->gap_cap }, b, n,
                     dpsel_core_max_score(b, n), hardened };
    int same = samplers_read_alike(trial_bits, &ta, &tb);
    dpsel_exact_decay_table_free(&table);
    return same;
}

static const int64_t em_vectors[][4] = {
    { 0, 0, 0, 0 },
    { 0, -1, -2, -3 },
    { 4, 4, 1, -2 },
    { INT64_MAX, INT64_MIN, INT64_MAX - 2, 0 },
};

Test(hardened_exact, em_trial_realises_the_pmf_and_reads_alike)
{
    const dpsel_params params[] = { capped_params(1, 1, 3), capped_params(3, 2, 3),
                                    capped_params(5, 3, 2) };
    for (size_t b = 0; b < sizeof params / sizeof *params; b++) {
        for (size_t v = 0; v < sizeof em_vectors / sizeof *em_vectors; v++) {
            for (size_t n = 1; n <= 4; n++) {
                check_em_by_enumeration(dpsel_core_em_trial_hardened, &params[b], em_vectors[v],
                                        n, "hardened");
            }
            if (v > 0) {
                cr_expect(trial_bit_counts_equal(&params[b], 1, em_vectors[0], em_vectors[v], 4),
                          "hardened EM trial: bit counts of vectors 0 and %zu differ", v);
                cr_expect(!trial_bit_counts_equal(&params[b], 0, em_vectors[0], em_vectors[v], 4),
                          "default EM trial: bit counts of vectors 0 and %zu should differ", v);
            }
        }
    }
}

/* ---- hardened EM by levels: the count, one trial, the whole sampler ---- */

#define LEVELS_MAX_CAP 8

typedef struct {
    dpsel_decay_table table;
    dpsel_decay decay;
    unsigned envelope, width;
    uint64_t mask;
    uint64_t levels[LEVELS_MAX_CAP + 1];
    int hardened;      /* the hardened trial, or the default one */
    int count_bits;    /* outcome: the bits read, or the kept level (cap + 1: none) */
} level_trial_case;

/* The levels of n scores by the hardened count (checked against a plain
 * count) and their running sums; the draw's width and mask as
 * dpsel_core_em_levels_hardened takes them. */
static void level_trial_case_init(level_trial_case *c, const dpsel_params *p,
                                  unsigned envelope, const int64_t *scores, size_t n)
{
    cr_assert_leq(p->gap_cap, LEVELS_MAX_CAP);
    cr_assert_eq(dpsel_exact_decay_table_build(&c->table, p->x, p->y, p->gap_cap), DPSEL_OK);
    c->decay = (dpsel_decay){ c->table.powers, c->table.npowers, p->gap_cap };
    c->envelope = envelope;
    int64_t best = dpsel_core_max_score(scores, n);
    dpsel_core_em_levels_count_hardened(&c->decay, scores, n, best, c->levels);
    for (uint64_t g = 0; g <= p->gap_cap; g++) {
        uint64_t plain = 0;
        for (size_t i = 0; i < n; i++) {
            plain += dpsel_core_clamped_gap(best, scores[i], p->gap_cap) == g;
        }
        cr_expect_eq(c->levels[g], plain, "hardened count of level %lu", (unsigned long)g);
    }
    cr_assert_eq(dpsel_core_em_levels_sum(&c->decay, envelope, c->levels), DPSEL_OK);
    c->width = dpsel_core_bitlen((uint64_t)n) + envelope;
    for (c->mask = 0; c->mask < c->levels[p->gap_cap] - 1; c->mask = 2 * c->mask + 1) {
    }
}

static int level_trial_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    const level_trial_case *c = arg;
    counted_rng counted;
    counted_rng_init(&counted, rng);
    uint64_t level = 0;
    int kept = 0;
    int rc = c->hardened
        ? dpsel_core_em_level_trial_hardened(&counted.rng, &c->decay, c->levels, c->envelope,
                                             c->width, c->mask, &level, &kept)
        : dpsel_core_em_level_trial(&counted.rng, &c->decay, c->levels, c->envelope, &level, &kept);
    *out = c->count_bits ? (size_t)counted.bits
                         : (kept ? (size_t)level : (size_t)c->decay.cap + 1);
    return rc;
}

static const int64_t level_vectors[][4] = {
    { 0, 0, 0, 0 }, { 0, -1, -2, -3 }, { 5, 5, -100, 3 }, { INT64_MIN, INT64_MAX, 7, 7 },
};

/* 1 if one level trial (hardened or default) reads bits alike, in
 * distribution, on the score vectors a and b. */
static int level_trial_bits_equal(const dpsel_params *p, unsigned envelope, int hardened,
                                  const int64_t *a, const int64_t *b)
{
    level_trial_case ca = { .hardened = hardened, .count_bits = 1 };
    level_trial_case cb = { .hardened = hardened, .count_bits = 1 };
    level_trial_case_init(&ca, p, envelope, a, 4);
    level_trial_case_init(&cb, p, envelope, b, 4);
    int same = samplers_read_alike(level_trial_sampler, &ca, &cb);
    dpsel_exact_decay_table_free(&ca.table);
    dpsel_exact_decay_table_free(&cb.table);
    return same;
}

/* Level g kept with probability c_g beta^g 2^envelope / (mask + 1) by
 * enumeration. */
static void check_level_trial(const dpsel_params *p, unsigned envelope, size_t v)
{
    uint64_t cap = p->gap_cap;
    level_trial_case c = { .hardened = 1 };
    level_trial_case_init(&c, p, envelope, level_vectors[v], 4);
    mpq_t mass[LEVELS_MAX_CAP + 2], residual, exact;
    for (size_t g = 0; g <= cap + 1; g++) {
        mpq_init(mass[g]);
    }
    mpq_inits(residual, exact, (mpq_ptr)0);
    cr_assert_geq(enumerate_bits(level_trial_sampler, &c, cap + 2, ENUMERATION_DEPTH, mass,
                                 residual), 1);
    int64_t best = dpsel_core_max_score(level_vectors[v], 4);
    for (uint64_t g = 0; g <= cap; g++) {
        uint64_t members = 0;
        for (size_t i = 0; i < 4; i++) {
            members += dpsel_core_clamped_gap(best, level_vectors[v][i], cap) == g;
        }
        char what[80];
        snprintf(what, sizeof what, "base %lu/2^%u, envelope %u, vector %zu, level %lu",
                 (unsigned long)p->x, p->y, envelope, v, (unsigned long)g);
        level_keep_probability(exact, p->x, p->y, g, members, envelope, c.mask + 1);
        expect_realised(mass[g], residual, exact, what);
    }
    for (size_t g = 0; g <= cap + 1; g++) {
        mpq_clear(mass[g]);
    }
    mpq_clears(residual, exact, (mpq_ptr)0);
    dpsel_exact_decay_table_free(&c.table);
}

/* A kept level has the EM distribution of levels; the bits read are
 * distributed alike for every score vector (the default trial's are not,
 * which shows that the comparison can fail). */
Test(hardened_exact, em_level_trial_keeps_level_g_with_c_g_beta_g_and_reads_alike,
     .timeout = 300)
{
    const dpsel_params params[] = { capped_params(1, 1, 3), capped_params(3, 2, 5),
                                    capped_params(5, 3, 4) };
    static const unsigned envelopes[] = { 0, 3 };
    for (size_t b = 0; b < sizeof params / sizeof *params; b++) {
        for (size_t e = 0; e < sizeof envelopes / sizeof *envelopes; e++) {
            unsigned default_differs = 0;
            for (size_t v = 0; v < sizeof level_vectors / sizeof *level_vectors; v++) {
                check_level_trial(&params[b], envelopes[e], v);
                if (v > 0) {
                    cr_expect(level_trial_bits_equal(&params[b], envelopes[e], 1,
                                                     level_vectors[0], level_vectors[v]),
                              "hardened level trial, base %zu, envelope %u: bit counts of "
                              "vectors 0 and %zu differ", b, envelopes[e], v);
                    default_differs += !level_trial_bits_equal(&params[b], envelopes[e], 0,
                                                               level_vectors[0],
                                                               level_vectors[v]);
                }
            }
            cr_expect_gt(default_differs, 0, "default level trial, base %zu, envelope %u: "
                         "bit counts should differ", b, envelopes[e]);
        }
    }
}

/* The level trials: ceil(512 / prod m_i), m_i = beta^(2^i) 2^lead_i, by
 * hand: base 1/2, m_i = 1/2 for each of 2 powers (cap 3), 2048; base 3/4
 * with cap 5, m = 3/4, 9/16, 81/128: 512 8192 / 2187 = 1917.86..., 1918. */
Test(hardened_levels, trial_counts)
{
    static const struct { uint64_t x; unsigned y; uint64_t cap, trials; } cases[] = {
        { 1, 1, 3, 2048 }, { 3, 2, 5, 1918 }, { 3, 2, 3, 1214 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        dpsel_decay_table table;
        cr_assert_eq(dpsel_exact_decay_table_build(&table, cases[i].x, cases[i].y, cases[i].cap),
                     DPSEL_OK);
        uint64_t trials = 0;
        cr_assert_eq(dpsel_exact_level_trials(&table, &trials), DPSEL_OK);
        cr_expect_eq(trials, cases[i].trials, "base %lu/2^%u, cap %lu: %lu trials",
                     (unsigned long)cases[i].x, cases[i].y, (unsigned long)cases[i].cap,
                     (unsigned long)trials);
        dpsel_exact_decay_table_free(&table);
    }
}

/* Scores for the whole hardened EM by levels: N_LEVELS candidates, three in
 * four at gaps 0 to 3 (the levels whose unit is 2^E at base 3/4), the rest
 * at 4 and beyond the cap 5 (unit 2^(E - 1)).  The total is then about
 * 1.75 times a power of 2, so a draw under half the mask would miss about
 * 40% of it. */
#define N_LEVELS 256
static void levels_scores(int64_t *scores)
{
    for (size_t i = 0; i < N_LEVELS; i++) {
        scores[i] = i % 4 ? 10 - (int64_t)((i * 7919) % 4) : 6 - (int64_t)(i % 5);
    }
}

/* The whole sampler, directly and through dpsel_select_hardened (which
 * takes it at this n and cap), against the exact pmf by chi-square (false
 * alarm 1e-6 per fit). */
Test(hardened_levels, sampler_fits_the_pmf, .timeout = 300)
{
    int64_t scores[N_LEVELS];
    levels_scores(scores);
    const dpsel_params p = capped_params(3, 2, 5);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    dpsel_decay_table table;
    cr_assert_eq(dpsel_exact_decay_table_build(&table, p.x, p.y, p.gap_cap), DPSEL_OK);
    dpsel_decay decay = { table.powers, table.npowers, p.gap_cap };
    uint64_t trials;
    cr_assert_eq(dpsel_exact_level_trials(&table, &trials), DPSEL_OK);
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_EM, scores, N_LEVELS), DPSEL_OK);
    for (int through_select = 0; through_select <= 1; through_select++) {
        uint64_t counts[N_LEVELS] = { 0 };
        uint64_t levels[LEVELS_MAX_CAP + 1];
        mpq_t prob[N_LEVELS];
        for (size_t r = 0; r < N_LEVELS; r++) {
            mpq_init(prob[r]);
            pmf_rational(pmf, r, prob[r]);
        }
        dpsel_rng rng = seeded_rng(0x1e7e1 + (uint64_t)through_select);
        const uint64_t draws = 20000;
        for (uint64_t d = 0; d < draws; d++) {
            size_t index = N_LEVELS;
            int rc = through_select
                ? dpsel_select_hardened(selector, DPSEL_EM, scores, N_LEVELS, &rng, &index)
                : dpsel_core_em_levels_hardened(&rng, &decay, scores, N_LEVELS, 55, trials, levels,
                                                &index);
            cr_assert_eq(rc, DPSEL_OK);
            counts[index]++;
        }
        expect_fit_and_clear(counts, prob, N_LEVELS, draws,
                             through_select ? "dpsel_select_hardened" : "core");
        dpsel_rng_wipe(&rng);
    }
    dpsel_pmf_free(pmf);
    dpsel_exact_decay_table_free(&table);
    dpsel_selector_free(selector);
}

/* ---- errors: the same codes as dpsel_select, the index untouched ---- */

static int failing_bit(void *context, unsigned *bit)
{
    (void)context;
    (void)bit;
    return 1;
}

Test(hardened_errors, same_codes_as_dpsel_select)
{
    dpsel_params p = base_params(1, 1, 1, 0);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    const int64_t scores[3] = { 1, 2, 3 };
    dpsel_rng rng = seeded_rng(7), broken;
    cr_assert_eq(dpsel_rng_init_custom(&broken, failing_bit, NULL), DPSEL_OK);
    for (int m = DPSEL_PF; m <= DPSEL_EM; m++) {
        dpsel_mechanism mech = (dpsel_mechanism)m;
        size_t index = 99;
        cr_expect_eq(dpsel_select_hardened(NULL, mech, scores, 3, &rng, &index), DPSEL_ENULL);
        cr_expect_eq(dpsel_select_hardened(selector, mech, NULL, 3, &rng, &index), DPSEL_ENULL);
        cr_expect_eq(dpsel_select_hardened(selector, mech, scores, 3, NULL, &index), DPSEL_ENULL);
        cr_expect_eq(dpsel_select_hardened(selector, mech, scores, 3, &rng, NULL), DPSEL_ENULL);
        cr_expect_eq(dpsel_select_hardened(selector, mech, scores, 0, &rng, &index), DPSEL_EEMPTY);
        cr_expect_eq(dpsel_select_hardened(selector, mech, scores, DPSEL_MAX_CANDIDATES + 1,
                                           &rng, &index), DPSEL_ERANGE);
        cr_expect_eq(dpsel_select_hardened(selector, mech, scores, 3, &broken, &index),
                     DPSEL_ERANDOM);
        cr_expect_eq(index, 99);
        cr_expect_eq(dpsel_select_hardened(selector, mech, scores, 3, &rng, &index), DPSEL_OK);
        cr_expect_lt(index, 3);
    }
    size_t index = 99;
    cr_expect_eq(dpsel_select_hardened(selector, (dpsel_mechanism)2, scores, 3, &rng, &index),
                 DPSEL_ERANGE);
    cr_expect_eq(index, 99);
    dpsel_selector_free(selector);
}

/* ---- the hardened work is a function of the random bits alone ---- */

/* Bits one selection reads from the seeded stream `seed`. */
static uint64_t bits_read(const dpsel_selector *selector, dpsel_mechanism m, int hardened,
                          const int64_t *scores, size_t n, uint64_t seed)
{
    dpsel_rng stream = seeded_rng(seed);
    counted_rng counted;
    counted_rng_init(&counted, &stream);
    size_t index;
    int rc = (hardened ? dpsel_select_hardened : dpsel_select)(selector, m, scores, n,
                                                               &counted.rng, &index);
    cr_assert_eq(rc, DPSEL_OK);
    return counted.bits;
}

static const int64_t mixed_scores[8] = { 3, -2, 3, 100, 7, INT64_MIN, 99, 0 };
static const int64_t flat_scores[8] = { 0 };

/* Hardened: every branch and every bit read depends on the random stream
 * and the public parameters only, so the same stream gives the same count
 * whatever the scores; the default mode differs on most streams. */
Test(timing, hardened_bits_depend_on_the_stream_alone)
{
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    for (int m = DPSEL_PF; m <= DPSEL_EM; m++) {
        unsigned default_differs = 0;
        for (uint64_t seed = 0; seed < 100; seed++) {
            dpsel_mechanism mech = (dpsel_mechanism)m;
            cr_expect_eq(bits_read(selector, mech, 1, flat_scores, 8, seed),
                         bits_read(selector, mech, 1, mixed_scores, 8, seed),
                         "hardened %d, seed %lu: bit counts differ", m, seed);
            default_differs += bits_read(selector, mech, 0, flat_scores, 8, seed)
                            != bits_read(selector, mech, 0, mixed_scores, 8, seed);
        }
        cr_expect_gt(default_differs, 50, "default %d: bit counts differ on %u seeds of 100",
                     m, default_differs);
    }
    dpsel_selector_free(selector);
}

/* The same for EM by levels (N_LEVELS candidates, base 3/4 with cap 5). */
Test(timing, hardened_levels_bits_depend_on_the_stream_alone)
{
    const dpsel_params p = capped_params(3, 2, 5);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    int64_t flat[N_LEVELS] = { 0 }, spread[N_LEVELS];
    levels_scores(spread);
    spread[5] = INT64_MIN;
    for (uint64_t seed = 0; seed < 20; seed++) {
        cr_expect_eq(bits_read(selector, DPSEL_EM, 1, flat, N_LEVELS, seed),
                     bits_read(selector, DPSEL_EM, 1, spread, N_LEVELS, seed),
                     "hardened EM by levels, seed %lu: bit counts differ", seed);
    }
    dpsel_selector_free(selector);
}

/* ---- statistical layer: Welch's t-test on the bits consumed ---- */

typedef struct {
    double sum;
    double sum_squares;
    uint64_t count;
} moments;

static void add_sample(moments *m, double v)
{
    m->sum += v;
    m->sum_squares += v * v;
    m->count++;
}

static double variance(const moments *m)
{
    double count = (double)m->count, mean = m->sum / count;
    return (m->sum_squares - count * mean * mean) / (count - 1);
}

static double standard_deviation(const moments *m)
{
    return sqrt(variance(m));
}

/* Welch's t statistic of two samples. */
static double welch_t(const moments *a, const moments *b)
{
    double mean_a = a->sum / (double)a->count, mean_b = b->sum / (double)b->count;
    double se = sqrt(variance(a) / (double)a->count + variance(b) / (double)b->count);
    return se > 0 ? (mean_a - mean_b) / se : (mean_a == mean_b ? 0.0 : INFINITY);
}

/* The t statistic of the bits consumed by `runs` selections per class,
 * the classes alternating on one seeded stream (as dudect interleaves them). */
static double bits_t_statistic(const dpsel_params *p, dpsel_mechanism m, int hardened,
                               const int64_t *class_a, const int64_t *class_b, size_t n,
                               uint64_t runs, uint64_t seed)
{
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, p), DPSEL_OK);
    dpsel_rng stream = seeded_rng(seed);
    moments bits[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
    for (uint64_t i = 0; i < 2 * runs; i++) {
        counted_rng counted;
        counted_rng_init(&counted, &stream);
        size_t index;
        const int64_t *scores = i % 2 ? class_b : class_a;
        int rc = (hardened ? dpsel_select_hardened : dpsel_select)(selector, m, scores, n,
                                                                   &counted.rng, &index);
        cr_assert_eq(rc, DPSEL_OK);
        add_sample(&bits[i % 2], (double)counted.bits);
    }
    dpsel_selector_free(selector);
    double t = welch_t(&bits[0], &bits[1]);
    printf("timing: %s %s, n %zu, %lu runs per class: mean bits %.2f vs %.2f "
           "(standard deviations %.1f, %.1f), t = %.2f\n",
           m == DPSEL_PF ? "PF" : "EM", hardened ? "hardened" : "default", n, runs,
           bits[0].sum / (double)runs, bits[1].sum / (double)runs,
           standard_deviation(&bits[0]), standard_deviation(&bits[1]), t);
    return t;
}

/* Class A: all scores equal.  Class B: one dominant score, the others far
 * below (beyond the gap cap). */
#define CLASS_N 16
static const int64_t equal_scores[CLASS_N] = { 0 };
static const int64_t dominant_scores[CLASS_N] = {
    -1000, -1000, -1000, -1000, -1000, -1000, -1000, 0,
    -1000, -1000, -1000, -1000, -1000, -1000, -1000, -1000,
};

/* The classes' parameters: epsilon 1, sensitivity 1. */
static dpsel_params epsilon_1(void)
{
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    return p;
}

Test(timing, pf_bits_consumed_welch_t, .timeout = 300)
{
    const dpsel_params p = epsilon_1();
    double hardened = bits_t_statistic(&p, DPSEL_PF, 1, equal_scores, dominant_scores, CLASS_N,
                                       20000, 0x7131);
    double normal = bits_t_statistic(&p, DPSEL_PF, 0, equal_scores, dominant_scores, CLASS_N,
                                     20000, 0x7131);
    cr_expect_lt(fabs(hardened), T_THRESHOLD, "hardened PF: t = %.2f", hardened);
    cr_expect_gt(fabs(normal), T_THRESHOLD, "default PF: t = %.2f", normal);
}

Test(timing, em_bits_consumed_welch_t, .timeout = 300)
{
    const dpsel_params p = epsilon_1();
    double hardened = bits_t_statistic(&p, DPSEL_EM, 1, equal_scores, dominant_scores, CLASS_N,
                                       1000, 0x7132);
    double normal = bits_t_statistic(&p, DPSEL_EM, 0, equal_scores, dominant_scores, CLASS_N,
                                     1000, 0x7132);
    cr_expect_lt(fabs(hardened), T_THRESHOLD, "hardened EM: t = %.2f", hardened);
    cr_expect_gt(fabs(normal), T_THRESHOLD, "default EM: t = %.2f", normal);
}

/* The same classes at N_LEVELS candidates and base 3/4 with cap 5, where
 * dpsel_select_hardened takes EM by levels. */
Test(timing, em_by_levels_bits_consumed_welch_t, .timeout = 300)
{
    const dpsel_params p = capped_params(3, 2, 5);
    int64_t equal[N_LEVELS] = { 0 }, dominant[N_LEVELS];
    for (size_t i = 0; i < N_LEVELS; i++) {
        dominant[i] = i == N_LEVELS / 2 ? 0 : -1000;
    }
    double hardened = bits_t_statistic(&p, DPSEL_EM, 1, equal, dominant, N_LEVELS, 1000, 0x7133);
    double normal = bits_t_statistic(&p, DPSEL_EM, 0, equal, dominant, N_LEVELS, 1000, 0x7133);
    cr_expect_lt(fabs(hardened), T_THRESHOLD, "hardened EM by levels: t = %.2f", hardened);
    cr_expect_gt(fabs(normal), T_THRESHOLD, "default EM: t = %.2f", normal);
}
