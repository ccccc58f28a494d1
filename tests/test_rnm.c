/* SPDX-License-Identifier: ISC */
/*
 * Report noisy max with Laplace noise (src/core/rnm.c, src/api/noisy_max.c,
 * spec/mechanisms.md §14).  Exact enumeration of the bit strings up to a
 * depth gives, for each output, a lower bound (the strings that end on it)
 * and an upper bound (plus the strings cut at the depth), which must
 * bracket the true probability: for von Neumann's integer part,
 * e^-k (1 - e^-1), and for two candidates at a gap d, P(second) =
 * e^(-d/b) (1 + d / (2b)) / 2 (the difference of two Laplace variables),
 * enclosed with MPFR in directed rounding; three equal scores give 1/3
 * each.  Chi-square fits against the same values (fixed seeds, false-alarm
 * rate 1e-6 each).  The digit-by-digit comparison is checked on random
 * inputs against the interval its drawn digits leave.  Top-k by peeling
 * (dpsel_rnm_select_top): the second round fitted given the first, every
 * candidate once in the top n of n.  The public scale and the accountant's
 * RNM releases.  Bad input.
 */
#include <criterion/criterion.h>
#include <gmp.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#include "api/exp_digits.h"
#include "core/rnm.h"
#include "exact/exact.h"
#include "support.h"

/* ------------------------------------------------- enclosures of the truth */

/* [lo, hi] around e^-k (1 - e^-1), at 128 bits, rounded outward. */
static void whole_part_enclosure(unsigned k, mpfr_t lo, mpfr_t hi)
{
    mpfr_t t;
    mpfr_init2(t, 128);
    for (int side = 0; side < 2; side++) {
        mpfr_ptr out = side ? hi : lo;
        mpfr_rnd_t toward = side ? MPFR_RNDU : MPFR_RNDD;
        mpfr_rnd_t away = side ? MPFR_RNDD : MPFR_RNDU;
        mpfr_set_si(t, -1, MPFR_RNDN);
        mpfr_exp(t, t, away);                  /* e^-1, rounded against the side */
        mpfr_ui_sub(t, 1, t, toward);          /* 1 - e^-1 */
        mpfr_set_si(out, -(long)k, MPFR_RNDN);
        mpfr_exp(out, out, toward);
        mpfr_mul(out, out, t, toward);
    }
    mpfr_clear(t);
}

/* [lo, hi] around e^(-d/b) (1 + d / (2b)) / 2 with b = w / p: the function
 * u -> e^-u (1 + u/2) falls with u = d p / w, so lo takes u rounded up and
 * both factors at it rounded down (and hi the other way). */
static void second_of_two_enclosure(uint64_t d, uint64_t w, uint64_t p, mpfr_t lo, mpfr_t hi)
{
    mpfr_t u, f;
    mpfr_inits2(128, u, f, (mpfr_ptr)0);
    for (int side = 0; side < 2; side++) {
        mpfr_ptr out = side ? hi : lo;
        mpfr_rnd_t toward = side ? MPFR_RNDU : MPFR_RNDD;
        mpfr_rnd_t away = side ? MPFR_RNDD : MPFR_RNDU;
        mpfr_set_ui(u, d, MPFR_RNDN);
        mpfr_mul_ui(u, u, p, away);
        mpfr_div_ui(u, u, w, away);
        mpfr_neg(f, u, MPFR_RNDN);
        mpfr_exp(f, f, toward);
        mpfr_div_2ui(u, u, 1, MPFR_RNDN);
        mpfr_add_ui(u, u, 1, toward);
        mpfr_mul(out, f, u, toward);
        mpfr_div_2ui(out, out, 1, MPFR_RNDN);
    }
    mpfr_clears(u, f, (mpfr_ptr)0);
}

/* That lower <= lo and hi <= lower + residual: the enumeration's bounds
 * bracket the enclosure (the truth is never a dyadic of the depth). */
static void expect_bracket(const mpq_t lower, const mpq_t residual, const mpfr_t lo,
                           const mpfr_t hi, const char *what)
{
    mpq_t upper;
    mpq_init(upper);
    mpq_add(upper, lower, residual);
    cr_expect_geq(mpfr_cmp_q(lo, lower), 0, "%s: the truth is below the strings that end on it",
                  what);
    cr_expect_leq(mpfr_cmp_q(hi, upper), 0, "%s: the truth is above every string left", what);
    mpq_clear(upper);
}

/* --------------------------------------------------------- enumeration */

/* Exp(1)'s integer part, 0..3, and 4 for "4 or more". */
static int whole_part_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    (void)arg;
    dpsel_urand fraction;
    dpsel_urand run[2];
    uint64_t whole = 0;
    int rc = dpsel_core_exponential(rng, &fraction, run, &whole);
    *out = whole < 4 ? (size_t)whole : 4;
    return rc;
}

Test(rnm, whole_part_is_geometric_e)
{
    mpq_t mass[5], residual;
    for (size_t k = 0; k < 5; k++) {
        mpq_init(mass[k]);
    }
    mpq_init(residual);
    cr_assert_geq(enumerate_bits(whole_part_sampler, NULL, 5, 24, mass, residual), 1);
    mpfr_t lo, hi;
    mpfr_inits2(128, lo, hi, (mpfr_ptr)0);
    for (unsigned k = 0; k < 4; k++) {
        whole_part_enclosure(k, lo, hi);
        expect_bracket(mass[k], residual, lo, hi, "P(K = k)");
    }
    /* 0.062 at depth 24 */
    cr_expect_lt(mpq_get_d(residual), 0.07, "the depth leaves %g unresolved", mpq_get_d(residual));
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    for (size_t k = 0; k < 5; k++) {
        mpq_clear(mass[k]);
    }
    mpq_clear(residual);
}

typedef struct {
    const char *epsilon;
    uint64_t sensitivity;
    int monotonic;
    const int64_t *scores;
    size_t n;
} rnm_case;

static int rnm_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    const rnm_case *c = arg;
    return dpsel_rnm_select(c->epsilon, c->sensitivity, c->monotonic, c->scores, c->n, rng, out);
}

Test(rnm, three_equal_scores_by_enumeration)
{
    static const int64_t scores[3] = { 7, 7, 7 };
    rnm_case c = { "1", 1, 0, scores, 3 };
    mpq_t mass[3], residual;
    for (size_t r = 0; r < 3; r++) {
        mpq_init(mass[r]);
    }
    mpq_init(residual);
    cr_assert_geq(enumerate_bits(rnm_sampler, &c, 3, 22, mass, residual), 1);
    mpfr_t third;
    mpfr_init2(third, 128);
    for (size_t r = 0; r < 3; r++) {
        mpfr_set_ui(third, 1, MPFR_RNDN);
        mpfr_div_ui(third, third, 3, MPFR_RNDD);
        cr_expect_geq(mpfr_cmp_q(third, mass[r]), 0, "candidate %zu above 1/3", r);
        mpfr_set_ui(third, 1, MPFR_RNDN);
        mpfr_div_ui(third, third, 3, MPFR_RNDU);
        mpq_t upper;
        mpq_init(upper);
        mpq_add(upper, mass[r], residual);
        cr_expect_leq(mpfr_cmp_q(third, upper), 0, "candidate %zu below 1/3", r);
        mpq_clear(upper);
    }
    /* 0.533 at depth 22 (4 s): each string draws three signs and exponentials */
    cr_expect_lt(mpq_get_d(residual), 0.54, "the depth leaves %g unresolved", mpq_get_d(residual));
    mpfr_clear(third);
    for (size_t r = 0; r < 3; r++) {
        mpq_clear(mass[r]);
    }
    mpq_clear(residual);
}

/* Two candidates at gap d, enumerated: P(second) bracketed. */
static void expect_two_by_enumeration(const char *epsilon, uint64_t sensitivity, int monotonic,
                                      int64_t d, unsigned depth)
{
    int64_t scores[2] = { d, 0 };
    rnm_case c = { epsilon, sensitivity, monotonic, scores, 2 };
    uint64_t w, p;
    cr_assert_eq(dpsel_exact_rnm_scale(epsilon, sensitivity, monotonic, &w, &p), DPSEL_OK);
    mpq_t mass[2], residual;
    mpq_inits(mass[0], mass[1], residual, (mpq_ptr)0);
    cr_assert_geq(enumerate_bits(rnm_sampler, &c, 2, depth, mass, residual), 1);
    mpfr_t lo, hi;
    mpfr_inits2(128, lo, hi, (mpfr_ptr)0);
    second_of_two_enclosure((uint64_t)d, w, p, lo, hi);
    expect_bracket(mass[1], residual, lo, hi, "P(second of two)");
    /* 0.24 to 0.33 at depth 21 (about 1 s each) */
    cr_expect_lt(mpq_get_d(residual), 0.34, "the depth leaves %g unresolved", mpq_get_d(residual));
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    mpq_clears(mass[0], mass[1], residual, (mpq_ptr)0);
}

Test(rnm, two_scores_by_enumeration)
{
    expect_two_by_enumeration("1", 1, 1, 1, 21);      /* b = 1 */
    expect_two_by_enumeration("0.7", 3, 0, 5, 21);    /* b = 60/7 */
    expect_two_by_enumeration("2", 1, 1, 3, 21);      /* b = 1/2: the gap decides often */
    /* b = 1, gap 4: the second needs K >= 2 to 5 against the first's floor,
     * drawn first from e^-k's digits (race_candidate's threshold) */
    expect_two_by_enumeration("1", 1, 1, 4, 21);
}

/* ----------------------------------------- the threshold K >= k from e^-k */

Test(rnm, exp_digits_are_e_to_minus_k)
{
    mpfr_t lo, hi;
    mpfr_inits2(1024, lo, hi, (mpfr_ptr)0);
    mpz_t down, up, table;
    mpz_inits(down, up, table, NULL);
    for (unsigned k = 1; k <= DPSEL_EXP_WHOLE_MAX; k++) {
        mpfr_set_si(lo, -(long)k, MPFR_RNDN);
        mpfr_exp(lo, lo, MPFR_RNDD);
        mpfr_set_si(hi, -(long)k, MPFR_RNDN);
        mpfr_exp(hi, hi, MPFR_RNDU);
        mpfr_mul_2ui(lo, lo, DPSEL_URAND_BITS, MPFR_RNDD);
        mpfr_mul_2ui(hi, hi, DPSEL_URAND_BITS, MPFR_RNDU);
        mpfr_get_z(down, lo, MPFR_RNDD);
        mpfr_get_z(up, hi, MPFR_RNDD);
        cr_assert_eq(mpz_cmp(down, up), 0, "e^-%u: 1024 bits do not fix 256 digits", k);
        mpz_set_ui(table, 0);
        for (unsigned w = 0; w < DPSEL_URAND_WORDS; w++) {
            mpz_mul_2exp(table, table, 64);
            mpz_add_ui(table, table, dpsel_internal_exp_digits[k - 1][w]);
        }
        cr_expect_eq(mpz_cmp(table, down), 0, "the digits of e^-%u", k);
    }
    mpz_clears(down, up, table, NULL);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

/* [U < e^-k] for k = *arg: outcome 1 when below. */
static int below_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    int below = 0;
    int rc = dpsel_core_uniform_below(rng, dpsel_internal_exp_digits[*(const unsigned *)arg - 1], &below);
    *out = (size_t)below;
    return rc;
}

Test(rnm, uniform_below_e_to_minus_k_by_enumeration)
{
    static const unsigned ks[3] = { 1, 3, 128 };
    mpq_t mass[2], residual;
    mpq_inits(mass[0], mass[1], residual, (mpq_ptr)0);
    mpfr_t lo, hi;
    mpfr_inits2(128, lo, hi, (mpfr_ptr)0);
    for (size_t i = 0; i < 3; i++) {
        unsigned k = ks[i];
        mpq_set_ui(mass[0], 0, 1);
        mpq_set_ui(mass[1], 0, 1);
        cr_assert_geq(enumerate_bits(below_sampler, (void *)&k, 2, 20, mass, residual), 1);
        mpfr_set_si(lo, -(long)k, MPFR_RNDN);
        mpfr_exp(lo, lo, MPFR_RNDD);
        mpfr_set_si(hi, -(long)k, MPFR_RNDN);
        mpfr_exp(hi, hi, MPFR_RNDU);
        expect_bracket(mass[1], residual, lo, hi, "P(U < e^-k)");
        /* each bit decides with probability 1/2: 2^-20 left at depth 20 */
        cr_expect_leq(mpq_get_d(residual), 1.0 / (1 << 20), "e^-%u: %g unresolved", k,
                      mpq_get_d(residual));
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    mpq_clears(mass[0], mass[1], residual, (mpq_ptr)0);
}

/* -------------------------------------------------------------- chi-square */

/* draws selections into counts[0..n-1], from a fixed seed. */
static void rnm_counts(const rnm_case *c, uint64_t seed, uint64_t draws, uint64_t *counts)
{
    dpsel_rng rng = seeded_rng(seed);
    for (uint64_t i = 0; i < draws; i++) {
        size_t r = 0;
        cr_assert_eq(dpsel_rnm_select(c->epsilon, c->sensitivity, c->monotonic, c->scores, c->n,
                                      &rng, &r), DPSEL_OK);
        counts[r]++;
    }
    dpsel_rng_wipe(&rng);
}

Test(rnm, two_scores_fit)
{
    /* b = 60/7, gap 5: P(second) about 0.34; 10^5 draws find a bias of
     * 0.006 (a 2% relative error) with power above 0.99 at false alarm 1e-6 */
    static const int64_t scores[2] = { 5, 0 };
    rnm_case c = { "0.7", 3, 0, scores, 2 };
    uint64_t counts[2] = { 0, 0 };
    rnm_counts(&c, 40, 100000, counts);
    mpfr_t lo, hi;
    mpfr_inits2(128, lo, hi, (mpfr_ptr)0);
    second_of_two_enclosure(5, 60, 7, lo, hi);
    mpq_t p[2];
    mpq_inits(p[0], p[1], (mpq_ptr)0);
    mpfr_get_q(p[1], lo);  /* within 2^-120 of the truth */
    mpq_set_ui(p[0], 1, 1);
    mpq_sub(p[0], p[0], p[1]);
    expect_fit_and_clear(counts, p, 2, 100000, "rnm, two scores at b = 60/7");
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

Test(rnm, equal_scores_fit)
{
    static const int64_t scores[5] = { -3, -3, -3, -3, -3 };
    rnm_case c = { "0.25", 2, 0, scores, 5 };
    uint64_t counts[5] = { 0 };
    rnm_counts(&c, 41, 50000, counts);
    mpq_t p[5];
    for (size_t r = 0; r < 5; r++) {
        mpq_init(p[r]);
        mpq_set_ui(p[r], 1, 5);
    }
    expect_fit_and_clear(counts, p, 5, 50000, "rnm, five equal scores");
}

/* ------------------------------------------------- the lazy comparison */

/* [lo, hi] of a lazy uniform from its drawn digits. */
static void urand_interval(const dpsel_urand *u, mpq_t lo, mpq_t hi)
{
    mpz_t x;
    mpz_init(x);
    for (unsigned w = 0; w < DPSEL_URAND_WORDS; w++) {
        mpz_mul_2exp(x, x, 64);
        mpz_add_ui(x, x, u->words[w]);
    }
    mpq_set_z(lo, x);
    mpq_div_2exp(lo, lo, DPSEL_URAND_BITS);
    mpq_set_ui(hi, 1, 1);
    mpq_div_2exp(hi, hi, u->nbits);
    mpq_add(hi, hi, lo);
    mpz_clear(x);
}

/* V's interval after the call, from what the digits drawn leave open. */
static void beats_interval(int whole, uint64_t rem, uint64_t den, int a_positive,
                           const dpsel_urand *a, int b_positive, const dpsel_urand *b,
                           mpq_t v_lo, mpq_t v_hi)
{
    mpq_t a_lo, a_hi, b_lo, b_hi, t;
    mpq_inits(a_lo, a_hi, b_lo, b_hi, t, (mpq_ptr)0);
    urand_interval(a, a_lo, a_hi);
    urand_interval(b, b_lo, b_hi);
    mpz_set_ui(mpq_numref(t), rem);
    mpz_set_ui(mpq_denref(t), den);
    mpq_canonicalize(t);
    mpq_set_si(v_lo, whole, 1);
    mpq_add(v_lo, v_lo, t);
    mpq_set(v_hi, v_lo);
    /* + s_a F_a - s_b F_b, each end from the matching end of F */
    if (a_positive) {
        mpq_add(v_lo, v_lo, a_lo), mpq_add(v_hi, v_hi, a_hi);
    } else {
        mpq_sub(v_lo, v_lo, a_hi), mpq_sub(v_hi, v_hi, a_lo);
    }
    if (b_positive) {
        mpq_sub(v_lo, v_lo, b_hi), mpq_sub(v_hi, v_hi, b_lo);
    } else {
        mpq_add(v_lo, v_lo, b_lo), mpq_add(v_hi, v_hi, b_hi);
    }
    mpq_clears(a_lo, a_hi, b_lo, b_hi, t, (mpq_ptr)0);
}

Test(rnm, comparison_decides_only_what_its_digits_prove)
{
    dpsel_rng rng = seeded_rng(42);
    mpq_t v_lo, v_hi;
    mpq_inits(v_lo, v_hi, (mpq_ptr)0);
    unsigned decided[2] = { 0, 0 };
    for (unsigned trial = 0; trial < 20000; trial++) {
        uint64_t draw;
        cr_assert_eq(dpsel_internal_rng_bits(&rng, 63, &draw), DPSEL_OK);
        /* small and large denominators, up to 2^63 */
        uint64_t den = trial % 3 == 0 ? draw % 5 + 1 : trial % 3 == 1 ? draw + 1 : draw | 1;
        uint64_t rem;
        cr_assert_eq(dpsel_internal_rng_bits(&rng, 63, &rem), DPSEL_OK);
        rem %= den;
        int whole = (int)(trial % 4) - 2;
        int a_positive = (int)(trial / 4 % 2), b_positive = (int)(trial / 8 % 2);
        dpsel_urand a, b;
        dpsel_core_urand_reset(&a);
        dpsel_core_urand_reset(&b);
        if (trial % 16 == 0) {
            b.words[0] = draw << 1;  /* a leader with digits drawn before */
            b.nbits = 40;
            b.words[0] &= ~(((uint64_t)1 << 24) - 1);
        }
        int beats = -1;
        cr_assert_eq(dpsel_core_rnm_beats(&rng, whole, rem, den, a_positive, &a, b_positive, &b,
                                          &beats), DPSEL_OK);
        beats_interval(whole, rem, den, a_positive, &a, b_positive, &b, v_lo, v_hi);
        if (beats) {
            cr_assert_geq(mpq_sgn(v_lo), 0, "trial %u: beats, but V may be negative", trial);
        } else {
            cr_assert_leq(mpq_sgn(v_hi), 0, "trial %u: loses, but V may be positive", trial);
        }
        decided[beats]++;
    }
    cr_expect(decided[0] > 1000 && decided[1] > 1000, "one-sided trials: %u, %u", decided[0],
              decided[1]);
    mpq_clears(v_lo, v_hi, (mpq_ptr)0);
    dpsel_rng_wipe(&rng);
}

/* ----------------------------------------------------------- bad input */

Test(rnm, bad_input)
{
    static const int64_t scores[2] = { 1, 2 };
    dpsel_rng rng = seeded_rng(1);
    size_t index = 99;
    cr_expect_eq(dpsel_rnm_select(NULL, 1, 0, scores, 2, &rng, &index), DPSEL_ENULL);
    cr_expect_eq(dpsel_rnm_select("1", 1, 0, NULL, 2, &rng, &index), DPSEL_ENULL);
    cr_expect_eq(dpsel_rnm_select("1", 1, 0, scores, 2, NULL, &index), DPSEL_ENULL);
    cr_expect_eq(dpsel_rnm_select("1", 1, 0, scores, 2, &rng, NULL), DPSEL_ENULL);
    cr_expect_eq(dpsel_rnm_select("1", 1, 0, scores, 0, &rng, &index), DPSEL_EEMPTY);
    cr_expect_eq(dpsel_rnm_select("1", 0, 0, scores, 2, &rng, &index), DPSEL_ERANGE);
    cr_expect_eq(dpsel_rnm_select("1", 1, 2, scores, 2, &rng, &index), DPSEL_ERANGE);
    static const char *const bad[] = { "0", "0.000", "-1", "", "1e", "abc", " 1", "1e41",
                                       "1e-30", "5e999999999", "9223372036854775808",
                                       "0.00000000000000000001" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(dpsel_rnm_select(bad[i], 1, 0, scores, 2, &rng, &index), DPSEL_EEPSILON,
                     "epsilon \"%s\"", bad[i]);
    }
    cr_expect_eq(index, 99, "written on failure");
    /* the extremes that fit: b = 2^62 - 1 and P = 2^62 - 1 */
    uint64_t w, p;
    cr_expect_eq(dpsel_exact_rnm_scale("1", 4611686018427387903u, 1, &w, &p), DPSEL_OK);
    cr_expect_eq(w, 4611686018427387903u);
    cr_expect_eq(dpsel_exact_rnm_scale("4611686018427387903", 1, 1, &w, &p), DPSEL_OK);
    cr_expect(w == 1 && p == 4611686018427387903u);
    cr_expect_eq(dpsel_exact_rnm_scale("0.25e1", 3, 0, &w, &p), DPSEL_OK);
    cr_expect(w == 12 && p == 5, "b = 6 / 2.5 = 12/5, got %llu/%llu", (unsigned long long)w,
              (unsigned long long)p);
    /* the selector's functions refuse RNM: its epsilon is a decimal */
    dpsel_params params = base_params(1, 1, 1, 0);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &params), DPSEL_OK);
    cr_expect_eq(dpsel_select(selector, DPSEL_RNM, scores, 2, &rng, &index), DPSEL_ERANGE);
    cr_expect_eq(dpsel_select_top(selector, DPSEL_RNM, scores, 2, 1, &rng, &index), DPSEL_ERANGE);
    dpsel_selector_free(selector);
    dpsel_rng_wipe(&rng);
}

/* ------------------------------------------------------------- interrupt */

static int stop_at_once(void *context, uint64_t done, uint64_t total)
{
    (void)done;
    *(uint64_t *)context = total;
    return 1;
}

Test(rnm, interrupt_check_cancels)
{
    static int64_t scores[5000];
    dpsel_rng rng = seeded_rng(7);
    uint64_t total = 0;
    cr_assert_eq(dpsel_rng_set_interrupt(&rng, stop_at_once, &total), DPSEL_OK);
    size_t index = 99;
    cr_expect_eq(dpsel_rnm_select("1", 1, 0, scores, 5000, &rng, &index), DPSEL_ECANCELED);
    cr_expect_eq(index, 99, "written on cancel");
    cr_expect_eq(total, 5000, "the check is told the candidates in all");
    dpsel_rng_wipe(&rng);
}

/* ------------------------------------------------------ top-k by peeling */

static int rnm_top_pair(dpsel_rng *rng, const int64_t *scores, size_t out[2])
{
    return dpsel_rnm_select_top("0.7", 3, 0, scores, 3, 2, rng, out);
}

Test(rnm, top_two_by_peeling_fit)
{
    /* The top 2 of {5, 0, 0} at b = 60/7: after a 0 is chosen the second
     * round is RNM on {5, 0}, the other 0 chosen with s = e^-u (1 + u/2) / 2
     * (u = 5 * 7/60); after the 5, each 0 with 1/2.  Fits of the tuples
     * given the first choice (false alarm 1e-6 each); about 27000 of the
     * 60000 draws start with a 0, which finds a bias of 0.02 in s with
     * power above 0.99. */
    static const int64_t scores[3] = { 5, 0, 0 };
    uint64_t after_zero[4] = { 0 };  /* (1, 0), (1, 2), (2, 0), (2, 1) */
    uint64_t after_five[2] = { 0 };  /* (0, 1), (0, 2) */
    dpsel_rng rng = seeded_rng(43);
    for (unsigned i = 0; i < 60000; i++) {
        size_t t[2] = { 9, 9 };
        cr_assert_eq(rnm_top_pair(&rng, scores, t), DPSEL_OK);
        cr_assert(t[0] < 3 && t[1] < 3 && t[0] != t[1], "tuple (%zu, %zu)", t[0], t[1]);
        if (t[0] == 0) {
            after_five[t[1] - 1]++;
        } else {
            after_zero[2 * (t[0] - 1) + (t[1] != 0)]++;
        }
    }
    dpsel_rng_wipe(&rng);
    mpfr_t lo, hi;
    mpfr_inits2(128, lo, hi, (mpfr_ptr)0);
    second_of_two_enclosure(5, 60, 7, lo, hi);
    mpq_t p[4];
    for (size_t c = 0; c < 4; c++) {
        mpq_init(p[c]);
    }
    mpfr_get_q(p[1], lo);  /* within 2^-120 of s */
    mpq_div_2exp(p[1], p[1], 1);
    mpq_set_ui(p[0], 1, 2);
    mpq_sub(p[0], p[0], p[1]);
    mpq_set(p[2], p[0]);
    mpq_set(p[3], p[1]);
    expect_fit_and_clear(after_zero, p, 4, after_zero[0] + after_zero[1] + after_zero[2] +
                         after_zero[3], "rnm top 2, a 0 first");
    for (size_t c = 0; c < 2; c++) {
        mpq_init(p[c]);
        mpq_set_ui(p[c], 1, 2);
    }
    expect_fit_and_clear(after_five, p, 2, after_five[0] + after_five[1], "rnm top 2, 5 first");
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

Test(rnm, top_all_is_a_permutation)
{
    static const int64_t scores[6] = { 3, -1, 3, 7, 0, 3 };
    dpsel_rng rng = seeded_rng(44);
    for (unsigned i = 0; i < 200; i++) {
        size_t t[6];
        unsigned seen = 0;
        cr_assert_eq(dpsel_rnm_select_top("1", 1, 1, scores, 6, 6, &rng, t), DPSEL_OK);
        for (size_t j = 0; j < 6; j++) {
            cr_assert_lt(t[j], 6);
            seen |= 1u << t[j];
        }
        cr_assert_eq(seen, 0x3fu, "draw %u: not every candidate once", i);
    }
    dpsel_rng_wipe(&rng);
}

Test(rnm, top_bad_input_and_interrupt)
{
    static const int64_t scores[3] = { 1, 2, 3 };
    static int64_t zeros[5000];
    dpsel_rng rng = seeded_rng(45);
    size_t t[3] = { 99, 99, 99 };
    cr_expect_eq(dpsel_rnm_select_top("1", 1, 0, scores, 3, 0, &rng, t), DPSEL_ERANGE);
    cr_expect_eq(dpsel_rnm_select_top("1", 1, 0, scores, 3, 4, &rng, t), DPSEL_ERANGE);
    cr_expect_eq(dpsel_rnm_select_top("1", 1, 0, scores, 0, 1, &rng, t), DPSEL_EEMPTY);
    cr_expect_eq(dpsel_rnm_select_top(NULL, 1, 0, scores, 3, 2, &rng, t), DPSEL_ENULL);
    cr_expect_eq(dpsel_rnm_select_top("1", 1, 0, scores, 3, 2, &rng, NULL), DPSEL_ENULL);
    cr_expect_eq(dpsel_rnm_select_top("1e-30", 1, 0, scores, 3, 2, &rng, t), DPSEL_EEPSILON);
    cr_expect_eq(dpsel_rnm_select_top("1", 0, 0, scores, 3, 2, &rng, t), DPSEL_ERANGE);
    cr_expect(t[0] == 99 && t[1] == 99 && t[2] == 99, "written on failure");
    uint64_t total = 0;
    cr_assert_eq(dpsel_rng_set_interrupt(&rng, stop_at_once, &total), DPSEL_OK);
    cr_expect_eq(dpsel_rnm_select_top("1", 1, 0, zeros, 5000, 2, &rng, t), DPSEL_ECANCELED);
    cr_expect_eq(t[0], 99, "written on cancel");
    dpsel_rng_wipe(&rng);
}

Test(rnm, public_scale)
{
    uint64_t w = 0, p = 0;
    cr_expect_eq(dpsel_rnm_scale("0.25e1", 3, 0, &w, &p), DPSEL_OK);
    cr_expect(w == 12 && p == 5, "b = 6 / 2.5 = 12/5, got %llu/%llu", (unsigned long long)w,
              (unsigned long long)p);
    cr_expect_eq(dpsel_rnm_scale("1e-18", 1, 1, &w, &p), DPSEL_OK);
    cr_expect(w == 1000000000000000000u && p == 1);
    w = p = 7;
    cr_expect_eq(dpsel_rnm_scale("1e-19", 1, 0, &w, &p), DPSEL_EEPSILON);
    cr_expect_eq(dpsel_rnm_scale("x", 1, 0, &w, &p), DPSEL_EEPSILON);
    cr_expect_eq(dpsel_rnm_scale("1", 0, 0, &w, &p), DPSEL_ERANGE);
    cr_expect_eq(dpsel_rnm_scale(NULL, 1, 0, &w, &p), DPSEL_ENULL);
    cr_expect_eq(dpsel_rnm_scale("1", 1, 0, NULL, &p), DPSEL_ENULL);
    cr_expect(w == 7 && p == 7, "written on failure");
}

Test(rnm, accountant_takes_rnm_as_a_decimal)
{
    dpsel_accountant *a = NULL;
    cr_assert_eq(dpsel_accountant_new(&a), DPSEL_OK);
    dpsel_params params = base_params(1, 1, 1, 0);
    cr_expect_eq(dpsel_accountant_add_params(a, DPSEL_RNM, &params, 1), DPSEL_ERANGE);
    cr_assert_eq(dpsel_accountant_add(a, DPSEL_RNM, "0.5", 3), DPSEL_OK);
    dpsel_account out;
    cr_assert_eq(dpsel_accountant_report(a, NULL, DPSEL_ADAPTIVE, &out), DPSEL_OK);
    /* 3 x 0.5, and rho 3 x 0.5^2 / 2 as for PF (a generic eps-DP release) */
    cr_expect_str_eq(out.pure, "1.5000000000000000");
    cr_expect_str_eq(out.rho, "0.37500000000000000");
    cr_expect_eq(out.bounded_range[0], '\0', "RNM is not claimed bounded range");
    dpsel_accountant_free(a);
}
