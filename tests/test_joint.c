/* SPDX-License-Identifier: ISC */
/*
 * JointExp's sampler (src/exact/joint.c, joint_sample.c,
 * dpsel_quantiles_joint_select; spec/quantiles.md §8):
 *   - joint releases fit, tuple by tuple (one call each, or many from one
 *     dpsel_quantiles_joint_select_many), the joint pmf computed by listing
 *     every tuple in GMP rationals (tests/joint_reference.c), by chi-square
 *     at false-alarm 1e-6 per fit: ties, clamped values, empty data, m = 1
 *     to 4, bases 1/2, 3/4 and 13/16;
 *   - m = 1 against the definition: EM over the grid points with score
 *     -2 |b L(v) - a n| (the exact pmf of test support, no cap clamps);
 *   - the forward tables' bounds hold Z of the listed tuples, within 2^-40,
 *     on 300 random small cases (m 1 to 4, ties, clamped values, no values);
 *   - bad input: quantiles unsorted, repeated, not in lowest terms, B past
 *     its limit, grids, selectors;
 *   - the one limit of size, public: B log2(1/beta) <= DPSEL_JOINT_DECAY_MAX
 *     (B = 2^50 with beta = 2^-64 refused with 0 to 5 values; 16 taken,
 *     16.37 refused; the check against the integer rule on 262 080 bases
 *     and denominators), n past 2^56 DPSEL_ENOMEM; releases of B n = 3 10^19;
 *   - sizes at the limits: a 2^62-point grid with 9 quantiles;
 *   - the interrupt check stops a release;
 *   - the progress report (dpsel_quantiles_joint_select_many_progress):
 *     monotone, one total, the whole once at the end, the same releases,
 *     and a stop at any call cancels with out untouched;
 *   - the cost stated before the work (dpsel_quantiles_joint_select_cost):
 *     its steps and bytes from m, n and count, any n taken.
 */
#include <criterion/criterion.h>
#include <gmp.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "exact/joint.h"
#include "exact/mpfr_env.h"
#include "joint_reference.h"
#include "support.h"

static dpsel_selector *joint_selector(uint64_t x, unsigned y, const uint64_t *qa,
                                      const uint64_t *qb, size_t m)
{
    uint64_t sensitivity = 0;
    cr_assert_eq(dpsel_quantiles_joint_sensitivity(qa, qb, m, &sensitivity), DPSEL_OK);
    cr_assert_eq(sensitivity, joint_reference_sensitivity(qa, qb, m));
    dpsel_params params = base_params(x, y, sensitivity, 0);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &params), DPSEL_OK);
    return selector;
}

/* The index of tuple o in the reference's lexicographic list. */
static size_t tuple_index(const joint_reference *ref, const int64_t *o)
{
    for (size_t t = 0; t < ref->tuples; t++) {
        if (memcmp(&ref->tuple[t * ref->m], o, ref->m * sizeof *o) == 0) {
            return t;
        }
    }
    cr_assert_fail("released tuple not in the list");
    return 0;
}

/* draws releases fit the reference's joint pmf: made one call each, or
 * (batch) all by one dpsel_quantiles_joint_select_many. */
static void fit_joint(uint64_t x, unsigned y, const uint64_t *qa, const uint64_t *qb, size_t m,
                      const int64_t *values, size_t n, int64_t lower, int64_t upper,
                      uint64_t draws, uint64_t seed, int batch, const char *what)
{
    joint_reference ref;
    cr_assert_eq(joint_reference_new(&ref, x, y, qa, qb, m, values, n, lower, upper), 0);
    dpsel_selector *selector = joint_selector(x, y, qa, qb, m);
    dpsel_rng rng = seeded_rng(seed);
    uint64_t *counts = calloc(ref.tuples, sizeof *counts);
    int64_t *o = malloc(draws * m * sizeof *o);
    if (batch) {
        cr_assert_eq(dpsel_quantiles_joint_select_many(selector, qa, qb, m, values, n, lower,
                                                       upper, &rng, draws, o),
                     DPSEL_OK);
    }
    for (uint64_t d = 0; d < draws; d++) {
        if (!batch) {
            cr_assert_eq(dpsel_quantiles_joint_select(selector, qa, qb, m, values, n, lower,
                                                      upper, &rng, &o[d * m]),
                         DPSEL_OK);
        }
        counts[tuple_index(&ref, &o[d * m])]++;
    }
    mpq_t *p = malloc(ref.tuples * sizeof *p);
    for (size_t t = 0; t < ref.tuples; t++) {
        mpq_init(p[t]);
        mpq_set(p[t], ref.joint[t]);
    }
    expect_fit_and_clear(counts, p, ref.tuples, draws, what);
    free(p);
    free(o);
    free(counts);
    dpsel_selector_free(selector);
    joint_reference_free(&ref);
}

Test(joint, releases_fit_the_listed_pmf, .timeout = 300)
{
    const uint64_t half_a[] = { 1 }, half_b[] = { 2 };
    const uint64_t quart_a[] = { 1, 3 }, quart_b[] = { 4, 4 };
    const uint64_t three_a[] = { 1, 1, 3 }, three_b[] = { 4, 2, 4 };
    const uint64_t four_a[] = { 1, 1, 1, 9 }, four_b[] = { 10, 3, 2, 10 };
    const int64_t ties[] = { 2, 2, 4, 1, 9, -3 }, spread[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    fit_joint(1, 1, half_a, half_b, 1, ties, 6, 0, 6, 20000, 1, 0, "m 1, base 1/2");
    fit_joint(3, 2, quart_a, quart_b, 2, ties, 6, 0, 6, 30000, 2, 0, "m 2, base 3/4, ties");
    fit_joint(13, 4, three_a, three_b, 3, ties, 6, 0, 5, 40000, 3, 1,
              "m 3, base 13/16, in one batch");
    fit_joint(13, 4, three_a, three_b, 3, spread, 8, 1, 6, 40000, 4, 0, "m 3, clamped");
    fit_joint(3, 2, four_a, four_b, 4, spread, 5, 0, 4, 40000, 5, 0, "m 4, B 30");
    fit_joint(3, 2, three_a, three_b, 3, NULL, 0, 0, 4, 20000, 6, 0, "no values: uniform");
    const uint64_t tail_a[] = { 1, 19 }, tail_b[] = { 2, 20 };
    const int64_t low[] = { 0, 0, 1, 1, 2, 3, 3, 3, 1, 0 };
    fit_joint(15, 4, tail_a, tail_b, 2, low, 10, 0, 40, 60000, 7, 1,
              "a long last run, in one batch");
}

/* -2 |b L(v) - a n|: JointExp's utility for one quantile a / b. */
static int64_t single_score(uint64_t a, uint64_t b, const int64_t *values, size_t n, int64_t v)
{
    int64_t below = 0;
    for (size_t i = 0; i < n; i++) {
        below += values[i] < v;
    }
    int64_t u = (int64_t)b * below - (int64_t)(a * n);
    return -2 * (u < 0 ? -u : u);
}

Test(joint, one_quantile_is_em_on_its_definition, .timeout = 120)
{
    const uint64_t qa[] = { 1 }, qb[] = { 3 };
    const int64_t values[] = { 1, 3, 3, 5, 8 };
    enum { LOWER = 0, UPPER = 9, N = UPPER - LOWER + 1, DRAWS = 40000 };
    int64_t scores[N];
    for (int64_t v = LOWER; v <= UPPER; v++) {
        scores[v - LOWER] = single_score(qa[0], qb[0], values, 5, v);
    }
    dpsel_params params = base_params(3, 2, 1, 0);
    cr_assert_eq(dpsel_params_set_gap_cap(&params, 64), DPSEL_OK);  /* no gap clamped */
    mpq_t p[N];
    exact_pmf(&params, DPSEL_EM, scores, N, p);
    dpsel_selector *selector = joint_selector(3, 2, qa, qb, 1);
    dpsel_rng rng = seeded_rng(77);
    uint64_t counts[N] = { 0 };
    for (int d = 0; d < DRAWS; d++) {
        int64_t o;
        cr_assert_eq(dpsel_quantiles_joint_select(selector, qa, qb, 1, values, 5, LOWER, UPPER,
                                                  &rng, &o),
                     DPSEL_OK);
        counts[o - LOWER]++;
    }
    expect_fit_and_clear(counts, p, N, DRAWS, "m 1 against EM on -2 |b L - a n|");
    dpsel_selector_free(selector);
}

/* Whether the tables' Z encloses, tightly, sum beta^score over the listed
 * tuples (exact). */
static int encloses_listed_z(uint64_t x, unsigned y, const uint64_t *qa, const uint64_t *qb,
                             size_t m, const int64_t *sorted, size_t n, int64_t lower,
                             int64_t upper)
{
    joint_reference ref;
    cr_assert_eq(joint_reference_new(&ref, x, y, qa, qb, m, sorted, n, lower, upper), 0);
    mpq_t z, w;
    mpq_inits(z, w, (mpq_ptr)0);
    for (size_t t = 0; t < ref.tuples; t++) {
        mpz_ui_pow_ui(mpq_numref(w), x, (unsigned long)ref.score[t]);
        mpz_set_ui(mpq_denref(w), 1);
        mpz_mul_2exp(mpq_denref(w), mpq_denref(w), (mp_bitcnt_t)y * ref.score[t]);
        mpq_canonicalize(w);
        mpq_add(z, z, w);
    }
    dpsel_joint_problem p;
    cr_assert_eq(dpsel_exact_joint_problem_init(&p, x, y, qa, qb, m, sorted, n, lower, upper),
                 DPSEL_OK);
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    dpsel_joint_tables t;
    cr_assert_eq(dpsel_exact_joint_forward(&t, &p, 64, NULL, NULL), DPSEL_OK);
    mpfr_t width;
    mpfr_init2(width, 64);
    mpfr_div(width, t.z_hi, t.z_lo, MPFR_RNDU);
    int held = mpfr_cmp_q(t.z_lo, z) <= 0 && mpfr_cmp_q(t.z_hi, z) >= 0
               && mpfr_cmp_d(width, 1 + 0x1p-40) < 0;
    mpfr_clear(width);
    dpsel_exact_joint_tables_free(&t);
    dpsel_exact_mpfr_leave(&host);
    dpsel_exact_joint_problem_free(&p);
    mpq_clears(z, w, (mpq_ptr)0);
    joint_reference_free(&ref);
    return held;
}

Test(joint, forward_tables_enclose_the_listed_total, .timeout = 120)
{
    static const uint64_t pool[][2] = { { 1, 10 }, { 1, 4 }, { 1, 3 }, { 1, 2 }, { 3, 5 },
                                        { 3, 4 }, { 9, 10 }, { 19, 20 } };
    static const uint64_t bases[][2] = { { 1, 1 }, { 3, 2 }, { 13, 4 }, { 15, 4 }, { 1, 3 } };
    uint64_t state = 41;
    for (int c = 0; c < 300; c++) {
        uint64_t qa[4], qb[4];
        size_t m = 0;
        for (size_t i = 0; i < 8 && m < 4; i++) {
            if (lcg_next(&state) % 3 == 0 || (i == 7 && m == 0)) {
                qa[m] = pool[i][0];
                qb[m++] = pool[i][1];
            }
        }
        int64_t lower = (int64_t)(lcg_next(&state) % 5) - 2;
        int64_t upper = lower + (int64_t)(lcg_next(&state) % 7);
        size_t n = (size_t)(lcg_next(&state) % 8);
        int64_t sorted[8];
        for (size_t i = 0; i < n; i++) {
            sorted[i] = lower - 2 + (int64_t)(lcg_next(&state) % (uint64_t)(upper - lower + 5));
            for (size_t h = i; h > 0 && sorted[h - 1] > sorted[h]; h--) {
                int64_t swap = sorted[h];
                sorted[h] = sorted[h - 1];
                sorted[h - 1] = swap;
            }
        }
        /* a base the rule B log2(1/beta) <= 16 refuses gives way to the next */
        size_t taken = joint_reference_base_taken(bases, 5, (size_t)c,
                                                  joint_reference_denominator(qb, m));
        cr_assert(taken < 5);
        const uint64_t *base = bases[taken];
        cr_expect(encloses_listed_z(base[0], (unsigned)base[1], qa, qb, m, sorted, n, lower, upper),
                  "case %d: m %zu, n %zu, grid %lld .. %lld", c, m, n, (long long)lower,
                  (long long)upper);
    }
}

Test(joint, bad_input_is_refused)
{
    const uint64_t qa[] = { 1, 1 }, qb[] = { 2, 4 }, same_a[] = { 1, 2 }, same_b[] = { 2, 4 };
    const uint64_t ok_a[] = { 1, 3 }, ok_b[] = { 4, 4 };
    const uint64_t big_a[] = { 1, 1 }, big_b[] = { 999999999999999989u, 999999999999999967u };
    uint64_t d = 0;
    cr_expect_eq(dpsel_quantiles_joint_sensitivity(qa, qb, 2, &d), DPSEL_ERANGE, "unsorted");
    cr_expect_eq(dpsel_quantiles_joint_sensitivity(same_a, same_b, 2, &d), DPSEL_ERANGE,
                 "repeated, and 2/4 not in lowest terms");
    cr_expect_eq(dpsel_quantiles_joint_sensitivity(big_a, big_b, 2, &d), DPSEL_ERANGE,
                 "B past 10^18");
    cr_expect_eq(dpsel_quantiles_joint_sensitivity(ok_a, ok_b, 0, &d), DPSEL_ERANGE, "m = 0");
    cr_expect_eq(dpsel_quantiles_joint_sensitivity(NULL, ok_b, 2, &d), DPSEL_ENULL);
    cr_expect_eq(dpsel_quantiles_joint_sensitivity(ok_a, ok_b, 2, &d), DPSEL_OK);
    cr_expect_eq(d, 6, "2 (B - min d) with B = 4, d = 1, 2, 1");
    dpsel_selector *selector = joint_selector(1, 1, ok_a, ok_b, 2);
    dpsel_rng rng = seeded_rng(5);
    const int64_t values[] = { 1, 2, 3 };
    int64_t out[2] = { 77, 77 };
    cr_expect_eq(dpsel_quantiles_joint_select(selector, ok_a, ok_b, 2, values, 3, 4, 3, &rng, out),
                 DPSEL_ERANGE, "lower > upper");
    cr_expect_eq(dpsel_quantiles_joint_select(selector, ok_a, ok_b, 2, values, 3, INT64_MIN,
                                              INT64_MAX, &rng, out),
                 DPSEL_ERANGE, "a grid of 2^64 points");
    cr_expect_eq(dpsel_quantiles_joint_select(selector, qa, qb, 2, values, 3, 0, 9, &rng, out),
                 DPSEL_ERANGE, "unsorted");
    cr_expect_eq(dpsel_quantiles_joint_select(selector, ok_a, ok_b, 2, NULL, 3, 0, 9, &rng, out),
                 DPSEL_ENULL);
    cr_expect_eq(dpsel_quantiles_joint_select_many(selector, ok_a, ok_b, 2, values, 3, 0, 9, &rng,
                                                   0, out),
                 DPSEL_ERANGE, "count 0");
    cr_expect_eq(dpsel_quantiles_joint_select_many(selector, ok_a, ok_b, 2, values, 3, 0, 9, &rng,
                                                   SIZE_MAX / 8, out),
                 DPSEL_ERANGE, "count m past the memory");
    cr_expect(out[0] == 77 && out[1] == 77, "nothing written");
    dpsel_selector_free(selector);
    /* a selector made for a smaller sensitivity, or monotonic */
    dpsel_params params = base_params(1, 1, 5, 0), monotonic = base_params(1, 1, 6, 1);
    dpsel_selector *small = NULL, *mono = NULL;
    cr_assert_eq(dpsel_selector_new(&small, &params), DPSEL_OK);
    cr_assert_eq(dpsel_selector_new(&mono, &monotonic), DPSEL_OK);
    cr_expect_eq(dpsel_quantiles_joint_select(small, ok_a, ok_b, 2, values, 3, 0, 9, &rng, out),
                 DPSEL_ERANGE);
    cr_expect_eq(dpsel_quantiles_joint_select(mono, ok_a, ok_b, 2, values, 3, 0, 9, &rng, out),
                 DPSEL_ERANGE);
    dpsel_selector_free(small);
    dpsel_selector_free(mono);
}

/* The rank of grid point v among sorted[0 .. n - 1]: the values below it. */
static size_t rank_below(const int64_t *sorted, size_t n, int64_t v)
{
    size_t k = 0;
    while (k < n && sorted[k] < v) {
        k++;
    }
    return k;
}

Test(joint, decay_is_the_only_limit, .timeout = 60)
{
    /* The base is refused on the public parameters alone: B = 2^50 with
     * beta = 1 / 2^64 (B log2(1/beta) = 2^56) whatever the values, none,
     * 4 or 5 (a limit B n <= 2^52 would take 4 and refuse 5: a record
     * would decide) */
    const uint64_t qa[] = { 1 }, qb[] = { (uint64_t)1 << 50 };
    const int64_t values[] = { -5, 0, 7, 7, 9 };
    dpsel_selector *selector = joint_selector(1, 64, qa, qb, 1);
    dpsel_rng rng = seeded_rng(11);
    int64_t out[3] = { 77, 77, 77 };
    for (size_t n = 0; n <= 5; n++) {
        cr_expect_eq(dpsel_quantiles_joint_select(selector, qa, qb, 1, values, n, -10, 10, &rng,
                                                  out),
                     DPSEL_ERANGE, "B log2(1/beta) = 2^56 with %zu values", n);
    }
    cr_expect(out[0] == 77, "nothing written");
    dpsel_selector_free(selector);
    /* at the limit: q = 1/4 (B = 4, D = 6), beta = 1/16 gives B log2(1/beta)
     * = 16, taken; beta = 15/256 gives 16.37, refused */
    const uint64_t fa[] = { 1 }, fb[] = { 4 };
    selector = joint_selector(1, 4, fa, fb, 1);
    cr_expect_eq(dpsel_quantiles_joint_select(selector, fa, fb, 1, values, 5, -10, 10, &rng, out),
                 DPSEL_OK, "B log2(1/beta) = 16");
    dpsel_selector_free(selector);
    selector = joint_selector(15, 8, fa, fb, 1);
    cr_expect_eq(dpsel_quantiles_joint_select(selector, fa, fb, 1, values, 5, -10, 10, &rng, out),
                 DPSEL_ERANGE, "B log2(1/beta) = 16.37");
    dpsel_selector_free(selector);
    /* past 2^56 values the tables cannot be allocated: DPSEL_ENOMEM, not a
     * refusal (the values are not read) */
    dpsel_joint_problem problem;
    cr_expect_eq(dpsel_exact_joint_problem_init(&problem, 1, 4, fa, fb, 1, values,
                                                (size_t)DPSEL_JOINT_VALUES_ALLOCATABLE + 1, 0,
                                                9),
                 DPSEL_ENOMEM);
    dpsel_exact_joint_problem_free(&problem);
    dpsel_rng_wipe(&rng);
}

Test(joint, decay_check_is_exact)
{
    /* dpsel_exact_joint_decay_within against 2^(y B) <= 2^16 x^B in
     * integers: every base x / 2^y with x odd below 2^y, y <= 12, and B up
     * to 64 (exact hits of 16 among them: 1/2 with B = 16, 1/16 with B = 4) */
    size_t checked = 0, taken = 0;
    for (unsigned y = 1; y <= 12; y++) {
        for (uint64_t x = 1; x < ((uint64_t)1 << y); x += 2) {
            for (uint64_t b = 1; b <= 64; b++) {
                int within = joint_reference_decay_within(x, y, b);
                cr_assert_eq(dpsel_exact_joint_decay_within(x, y, b), within,
                             "x %llu, y %u, B %llu", (unsigned long long)x, y,
                             (unsigned long long)b);
                checked++;
                taken += (size_t)within;
            }
        }
    }
    cr_expect(taken > 0 && taken < checked);
    /* bases near 1 with B = 10^18: 2^64 - 204 gives B log2(1/beta) = 15.96,
     * 2^64 - 205 gives 16.03 (beyond any reference's integers: by hand) */
    const uint64_t big = 1000000000000000000u;
    cr_expect(dpsel_exact_joint_decay_within(UINT64_MAX - 203, 64, big));
    cr_expect(!dpsel_exact_joint_decay_within(UINT64_MAX - 204, 64, big));
}

Test(joint, b_n_past_2_to_64_releases, .timeout = 60)
{
    /* q = 1/5 and 1 - 10^-15 (B = 10^15) of 30 000 values: B n = 3 10^19
     * passes 2^64 (targets and kernel exponents in 128 bits, beta^e by
     * mpfr_pow_z), epsilon 4.  The old limit B n <= 2^52 refused it.  Each
     * rank off the best costs beta^(2B) = 2^-2.9 at least, so a first
     * quantile 40 ranks off has probability below 2^-100: none is. */
    const uint64_t qa[] = { 1, 999999999999999 }, qb[] = { 5, 1000000000000000 };
    enum { N = 30000, COUNT = 50 };
    int64_t *values = malloc(N * sizeof *values);
    cr_assert_not_null(values);
    for (size_t j = 0; j < N; j++) {
        values[j] = (int64_t)j * 10;
    }
    uint64_t sensitivity = 0;
    cr_assert_eq(dpsel_quantiles_joint_sensitivity(qa, qb, 2, &sensitivity), DPSEL_OK);
    dpsel_params params;
    cr_assert_eq(dpsel_params_from_epsilon(&params, "4", sensitivity, 0), DPSEL_OK);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &params), DPSEL_OK);
    dpsel_rng rng = seeded_rng(41);
    int64_t out[2 * COUNT];
    cr_assert_eq(dpsel_quantiles_joint_select_many(selector, qa, qb, 2, values, N, 0, 10 * N,
                                                   &rng, COUNT, out),
                 DPSEL_OK, "B n = 3 10^19");
    for (size_t r = 0; r < COUNT; r++) {
        size_t first = rank_below(values, N, out[2 * r]);
        size_t second = rank_below(values, N, out[2 * r + 1]);
        cr_expect(out[2 * r] <= out[2 * r + 1], "non-decreasing");
        cr_expect(first + 40 >= N / 5 && first <= N / 5 + 40, "release %zu: rank %zu", r, first);
        cr_expect(second + 40 >= N, "release %zu: rank %zu", r, second);
    }
    dpsel_rng_wipe(&rng);
    dpsel_selector_free(selector);
    free(values);
}

Test(joint, sizes_at_the_limits, .timeout = 60)
{
    /* a grid of 2^62 points and 9 quantiles */
    const uint64_t da[] = { 1, 1, 3, 2, 1, 3, 7, 4, 9 }, db[] = { 10, 5, 10, 5, 2, 5, 10, 5, 10 };
    int64_t many[1000];
    uint64_t state = 3;
    for (size_t i = 0; i < 1000; i++) {
        many[i] = (int64_t)(lcg_next(&state) % 1000000) * 1000000;
    }
    int64_t lower = -((int64_t)1 << 61), upper = ((int64_t)1 << 61) - 1;
    dpsel_selector *selector = joint_selector(1, 1, da, db, 9);
    dpsel_rng rng = seeded_rng(11);
    int64_t deciles[9];
    cr_assert_eq(dpsel_quantiles_joint_select(selector, da, db, 9, many, 1000, lower, upper, &rng,
                                              deciles),
                 DPSEL_OK);
    for (size_t i = 1; i < 9; i++) {
        cr_expect(deciles[i - 1] <= deciles[i], "non-decreasing");
    }
    dpsel_selector_free(selector);
}

/* Counts the checks and stops at the stop-th (0: never). */
typedef struct {
    unsigned calls, stop;
} check_count;

static int stop_at(void *context, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    check_count *c = context;
    return ++c->calls == c->stop;
}

Test(joint, the_interrupt_check_stops_a_release)
{
    const uint64_t qa[] = { 1, 1 }, qb[] = { 4, 2 };
    enum { N = 20000 };
    int64_t *values = malloc(N * sizeof *values);
    for (size_t i = 0; i < N; i++) {
        values[i] = (int64_t)(i * 7919 % N);
    }
    dpsel_selector *selector = joint_selector(1, 1, qa, qb, 2);
    int64_t out[2] = { 5, 5 };
    check_count all = { 0, 0 };
    dpsel_rng rng = seeded_rng(13);
    cr_assert_eq(dpsel_rng_set_interrupt(&rng, stop_at, &all), DPSEL_OK);
    cr_assert_eq(dpsel_quantiles_joint_select(selector, qa, qb, 2, values, N, 0, N, &rng, out),
                 DPSEL_OK);
    cr_assert_gt(all.calls, 40, "the sort, both forward passes and the draws ask: %u", all.calls);
    /* stopped in the sort, in the forward passes, in the last draw's pass */
    const unsigned stops[] = { 1, all.calls / 2, all.calls - 1, all.calls };
    for (size_t s = 0; s < sizeof stops / sizeof *stops; s++) {
        check_count c = { 0, stops[s] };
        out[0] = out[1] = 5;
        rng = seeded_rng(13);
        cr_assert_eq(dpsel_rng_set_interrupt(&rng, stop_at, &c), DPSEL_OK);
        cr_expect_eq(dpsel_quantiles_joint_select(selector, qa, qb, 2, values, N, 0, N, &rng, out),
                     DPSEL_ECANCELED, "stopped at check %u of %u", stops[s], all.calls);
        cr_expect(out[0] == 5 && out[1] == 5, "nothing released");
    }
    free(values);
    dpsel_selector_free(selector);
}

/* Bits 0, then `ones` ones, then zeros (ones = UINT64_MAX: ones forever). */
typedef struct {
    uint64_t read, ones;
} bit_pattern;

static int pattern_bit(void *context, unsigned *bit)
{
    bit_pattern *p = context;
    uint64_t at = p->read++;
    *bit = at > 0 && at <= p->ones;
    return 0;
}

Test(joint, undecided_draws_refine_the_tables_up_to_the_cap)
{
    /* one value at 0 on the grid 0 .. 1, the median: runs {0} and {1} of
     * equal weight beta^2, so U = 1/2 is the boundary: 0111... decides
     * nothing until a 0 comes, and never if none does */
    const uint64_t qa[] = { 1 }, qb[] = { 2 };
    const int64_t values[] = { 0 };
    dpsel_selector *selector = joint_selector(1, 1, qa, qb, 1);
    bit_pattern forever = { 0, UINT64_MAX }, late = { 0, 200 };
    dpsel_rng rng;
    int64_t out = 7;
    cr_assert_eq(dpsel_rng_init_custom(&rng, pattern_bit, &forever), DPSEL_OK);
    cr_expect_eq(dpsel_quantiles_joint_select(selector, qa, qb, 1, values, 1, 0, 1, &rng, &out),
                 DPSEL_EUNLIKELY, "U = 1/2 from below: undecided at every precision");
    cr_expect_eq(out, 7, "nothing released");
    cr_expect_gt(forever.read, DPSEL_JOINT_PREC_MAX, "read past the last precision");
    cr_assert_eq(dpsel_rng_init_custom(&rng, pattern_bit, &late), DPSEL_OK);
    cr_expect_eq(dpsel_quantiles_joint_select(selector, qa, qb, 1, values, 1, 0, 1, &rng, &out),
                 DPSEL_OK, "decided at 256 bits");
    cr_expect_eq(out, 0, "U just below 1/2: the first run");
    dpsel_selector_free(selector);
}

/* m = 9 quantiles of 3000 values, 4 releases: a few hundred ms. */
enum { PROGRESS_M = 9, PROGRESS_N = 3000, PROGRESS_COUNT = 4 };
static const uint64_t progress_a[PROGRESS_M] = { 1, 1, 3, 2, 1, 3, 7, 4, 9 };
static const uint64_t progress_b[PROGRESS_M] = { 10, 5, 10, 5, 2, 5, 10, 5, 10 };

static int64_t *progress_values(void)
{
    int64_t *values = malloc(PROGRESS_N * sizeof *values);
    cr_assert(values != NULL);
    for (size_t i = 0; i < PROGRESS_N; i++) {
        values[i] = (int64_t)(i * 7919 % 5000);
    }
    return values;
}

/* The report's fraction never goes back, keeps one total (the stated
 * steps), comes often (a rank at a time) and ends once at the whole; the
 * releases are those made without a report. */
Test(joint, a_release_reports_its_progress_in_the_stated_steps, .timeout = 60)
{
    int64_t *values = progress_values();
    dpsel_selector *selector = joint_selector(1, 1, progress_a, progress_b, PROGRESS_M);
    int64_t reported[PROGRESS_M * PROGRESS_COUNT], plain[PROGRESS_M * PROGRESS_COUNT];
    progress_probe seen = { 0 };
    dpsel_rng rng = seeded_rng(29);
    cr_assert_eq(dpsel_quantiles_joint_select_many_progress(
                     selector, progress_a, progress_b, PROGRESS_M, values, PROGRESS_N, 0, 5000,
                     &rng, PROGRESS_COUNT, reported, progress_probe_report, &seen), DPSEL_OK);
    rng = seeded_rng(29);
    cr_assert_eq(dpsel_quantiles_joint_select_many(selector, progress_a, progress_b, PROGRESS_M,
                                                   values, PROGRESS_N, 0, 5000, &rng,
                                                   PROGRESS_COUNT, plain), DPSEL_OK);
    cr_expect_arr_eq(reported, plain, sizeof plain, "a report changed the releases");
    uint64_t steps = 0, bytes = 0;
    cr_assert_eq(dpsel_quantiles_joint_select_cost(PROGRESS_M, PROGRESS_N, PROGRESS_COUNT,
                                                   &steps, &bytes), DPSEL_OK);
    cr_expect_eq(seen.total, 1u << 20, "the report's scale");
    cr_expect_geq(seen.calls, 10, "%" PRIu64 " reports only", seen.calls);
    cr_expect_eq(seen.backwards + seen.new_totals + seen.beyond, 0);
    cr_expect_eq(seen.complete, 1, "%" PRIu64 " calls with done == total", seen.complete);
    cr_expect_eq(seen.last_done, seen.total, "the last call is not the whole");
    free(values);
    dpsel_selector_free(selector);
}

/* A report that asks to stop, at its first, a middle or its last call
 * (the whole, once the releases are drawn), ends the call with
 * DPSEL_ECANCELED and out untouched. */
Test(joint, a_report_that_stops_cancels_the_release, .timeout = 60)
{
    int64_t *values = progress_values();
    dpsel_selector *selector = joint_selector(1, 1, progress_a, progress_b, PROGRESS_M);
    int64_t out[PROGRESS_M];
    progress_probe all = { 0 };
    dpsel_rng rng = seeded_rng(31);
    cr_assert_eq(dpsel_quantiles_joint_select_many_progress(
                     selector, progress_a, progress_b, PROGRESS_M, values, PROGRESS_N, 0, 5000,
                     &rng, 1, out, progress_probe_report, &all), DPSEL_OK);
    const uint64_t stops[] = { 1, (all.calls + 1) / 2, all.calls };
    for (size_t k = 0; k < sizeof stops / sizeof *stops; k++) {
        progress_probe stopping = { .stop_at = stops[k] };
        memset(out, 0x55, sizeof out);
        rng = seeded_rng(31);
        cr_expect_eq(dpsel_quantiles_joint_select_many_progress(
                         selector, progress_a, progress_b, PROGRESS_M, values, PROGRESS_N, 0,
                         5000, &rng, 1, out, progress_probe_report, &stopping), DPSEL_ECANCELED,
                     "stopped at call %" PRIu64 " of %" PRIu64, stops[k], all.calls);
        cr_expect_eq(stopping.calls, stops[k], "asked again after a stop");
        for (size_t i = 0; i < PROGRESS_M; i++) {
            cr_expect_eq((uint64_t)out[i], 0x5555555555555555u, "out written on a cancel");
        }
    }
    free(values);
    dpsel_selector_free(selector);
}

/* The cost before the work: the forward tables' 4 m (m + 8) (n + 1)
 * steps, Z's 6 (n + 1), m (6 (n + 1) + 8 m) a release; the tables' 160 m
 * (n + 1) bytes and a little more.  Any n is taken (saturated, never
 * refused); m and count are checked. */
Test(joint, the_cost_is_stated_from_the_sizes)
{
    uint64_t steps = 0, bytes = 0;
    cr_assert_eq(dpsel_quantiles_joint_select_cost(999, 2000, 1, &steps, &bytes), DPSEL_OK);
    uint64_t tables = UINT64_C(4) * 999 * (999 + 8) * 2001, release = 999u * (6 * 2001 + 8 * 999);
    cr_expect_eq(steps, tables + 6 * 2001 + release, "steps %" PRIu64, steps);
    cr_expect_geq(bytes, UINT64_C(160) * 999 * 2001, "bytes %" PRIu64, bytes);
    cr_expect_leq(bytes, UINT64_C(161) * 999 * 2001, "bytes %" PRIu64, bytes);
    uint64_t more = 0;
    cr_assert_eq(dpsel_quantiles_joint_select_cost(999, 2000, 3, &more, &bytes), DPSEL_OK);
    cr_expect_eq(more, steps + 2 * release);
    cr_expect_eq(dpsel_quantiles_joint_select_cost(1024, SIZE_MAX, SIZE_MAX, &steps, &bytes),
                 DPSEL_OK, "no n is refused");
    cr_expect(steps == UINT64_MAX && bytes == UINT64_MAX, "saturated");
    cr_expect_eq(dpsel_quantiles_joint_select_cost(1, 0, 1, &steps, &bytes), DPSEL_OK);
    cr_expect_eq(dpsel_quantiles_joint_select_cost(0, 10, 1, &steps, &bytes), DPSEL_ERANGE);
    cr_expect_eq(dpsel_quantiles_joint_select_cost(1025, 10, 1, &steps, &bytes), DPSEL_ERANGE);
    cr_expect_eq(dpsel_quantiles_joint_select_cost(3, 10, 0, &steps, &bytes), DPSEL_ERANGE);
    cr_expect_eq(dpsel_quantiles_joint_select_cost(3, 10, 1, NULL, &bytes), DPSEL_ENULL);
    cr_expect_eq(dpsel_quantiles_joint_select_cost(3, 10, 1, &steps, NULL), DPSEL_ENULL);
}
