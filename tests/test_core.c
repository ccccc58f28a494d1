/* SPDX-License-Identifier: ISC */
/* The verified core's primitives: gaps, validation, uniform integers, the
 * shuffle step and coins (exact enumeration of their random bits), and the
 * exact decay table. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/coin.h"
#include "core/gap.h"
#include "core/pf.h"
#include "core/precision.h"
#include "core/uniform.h"
#include "core/validate.h"
#include "exact/exact.h"
#include "support.h"

Test(gaps, exact_at_the_int64_extremes)
{
    cr_assert_eq(dpsel_core_clamped_gap(INT64_MAX, INT64_MIN, UINT64_MAX), UINT64_MAX);
    cr_assert_eq(dpsel_core_clamped_gap(INT64_MAX, INT64_MIN, 1000), 1000);
    cr_assert_eq(dpsel_core_clamped_gap(0, INT64_MIN, UINT64_MAX), (uint64_t)1 << 63);
    cr_assert_eq(dpsel_core_clamped_gap(INT64_MAX, 0, UINT64_MAX), (uint64_t)INT64_MAX);
    cr_assert_eq(dpsel_core_clamped_gap(-5, -5, 7), 0);
    cr_assert_eq(dpsel_core_clamped_gap(-5, -12, 7), 7);
    cr_assert_eq(dpsel_core_clamped_gap(-5, -11, 7), 6);
}

Test(gaps, argmax_takes_the_first_of_ties)
{
    int64_t scores[] = { 3, 9, INT64_MIN, 9, INT64_MAX - 1 };
    cr_assert_eq(dpsel_core_argmax(scores, 4), 1);
    cr_assert_eq(dpsel_core_argmax(scores, 5), 4);
    cr_assert_eq(dpsel_core_argmax(scores, 1), 0);
}

Test(validation, bit_lengths)
{
    cr_assert_eq(dpsel_core_bitlen(0), 0);
    cr_assert_eq(dpsel_core_bitlen(1), 1);
    cr_assert_eq(dpsel_core_bitlen(255), 8);
    cr_assert_eq(dpsel_core_bitlen(256), 9);
    cr_assert_eq(dpsel_core_bitlen(UINT64_MAX), 64);
}

Test(validation, decimal_syntax)
{
    const char *good[] = { "1", "0.5", ".5", "5.", "1e-3", "2E+4", "0012.3400e7", "1e123456789" };
    const char *bad[] = { "", ".", "-1", "+1", "1e", "1e+", "e5", "1.2.3", " 1", "1 ", "nan",
                          "inf", "0x1p3", "1e1234567890", "1,5" };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        cr_expect(dpsel_core_decimal_syntax(good[i], 100), "rejected %s", good[i]);
    }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_expect(!dpsel_core_decimal_syntax(bad[i], 100), "accepted %s", bad[i]);
    }
    cr_expect(!dpsel_core_decimal_syntax("12345", 4), "accepted a string past max_len");
}

Test(validation, bases)
{
    cr_assert(dpsel_core_base_valid(1, 1));
    cr_assert(dpsel_core_base_valid(UINT64_MAX, 64));
    cr_assert(dpsel_core_base_valid(7, 3));
    cr_assert(!dpsel_core_base_valid(8, 3));
    cr_assert(!dpsel_core_base_valid(0, 3));
    cr_assert(!dpsel_core_base_valid(1, 0));
    cr_assert(!dpsel_core_base_valid(1, 65));
}

/* ---- uniform integers: every value gets exactly the same mass ---- */

static int uniform_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    uint64_t value;
    int rc = dpsel_core_uniform(rng, *(const uint64_t *)arg, &value);
    *out = (size_t)value;
    return rc;
}

Test(uniform, every_value_has_equal_mass_by_enumeration)
{
    for (uint64_t k = 1; k <= 13; k++) {
        mpq_t mass[13], residual, expected;
        for (size_t r = 0; r < k; r++) {
            mpq_init(mass[r]);
        }
        mpq_inits(residual, expected, (mpq_ptr)0);
        cr_assert_geq(enumerate_bits(uniform_sampler, &k, k, 40, mass, residual), 1);
        mpq_set_ui(expected, 1, k);
        for (size_t r = 0; r < k; r++) {
            cr_expect(mpq_equal(mass[r], mass[0]), "k=%lu: value %zu has a different mass", k, r);
            cr_expect(mpq_cmp(mass[r], expected) <= 0);
        }
        /* residual below 2^-30 */
        mpq_set_ui(expected, 1, 1u << 30);
        cr_expect(mpq_cmp(residual, expected) < 0, "k=%lu: residual too large", k);
        for (size_t r = 0; r < k; r++) {
            mpq_clear(mass[r]);
        }
        mpq_clears(residual, expected, (mpq_ptr)0);
    }
}

/* A source of a fixed bit, to reach the extremes of a large range. */
static int constant_bit(void *context, unsigned *bit)
{
    *bit = *(const unsigned *)context;
    return 0;
}

Test(uniform, full_range_extremes)
{
    dpsel_rng rng;
    unsigned bit = 0;
    uint64_t value = 1;
    cr_assert_eq(dpsel_rng_init_custom(&rng, constant_bit, &bit), DPSEL_OK);
    cr_assert_eq(dpsel_core_uniform(&rng, (uint64_t)1 << 63, &value), DPSEL_OK);
    cr_assert_eq(value, 0);
    bit = 1;
    cr_assert_eq(dpsel_core_uniform(&rng, (uint64_t)1 << 63, &value), DPSEL_OK);
    cr_assert_eq(value, ((uint64_t)1 << 63) - 1);
    /* all ones never fits [0, 3): a broken source ends in DPSEL_EUNLIKELY */
    cr_assert_eq(dpsel_core_uniform(&rng, 3, &value), DPSEL_EUNLIKELY);
}

/* ---- the permutation: n shuffle steps give each of the n! orders mass 1/n! ---- */

typedef struct {
    size_t n;          /* at most 5 */
    size_t factorial;  /* n! */
} shuffle_size;

/* Rank of scratch[0 .. n - 1] among the permutations of 0 .. n - 1 (its
 * Lehmer code read in the factorial base), or n! if it is none. */
static size_t permutation_rank(const size_t *scratch, const shuffle_size *size)
{
    int seen[5] = { 0 };
    size_t rank = 0;
    for (size_t a = 0; a < size->n; a++) {
        if (scratch[a] >= size->n || seen[scratch[a]]) {
            return size->factorial;
        }
        seen[scratch[a]] = 1;
        size_t smaller_after = 0;
        for (size_t b = a + 1; b < size->n; b++) {
            smaller_after += scratch[b] < scratch[a];
        }
        rank = rank * (size->n - a) + smaller_after;
    }
    return rank;
}

/* The n steps of a Fisher-Yates shuffle of the identity. */
static int shuffle_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    const shuffle_size *size = arg;
    size_t scratch[5];
    for (size_t a = 0; a < size->n; a++) {
        scratch[a] = a;
    }
    for (size_t i = 0; i < size->n; i++) {
        int rc = dpsel_core_shuffle_step(rng, scratch, size->n, i);
        if (rc != DPSEL_OK) {
            return rc;
        }
    }
    *out = permutation_rank(scratch, size);
    return DPSEL_OK;
}

Test(shuffle, every_order_has_mass_one_over_n_factorial_by_enumeration)
{
    shuffle_size size = { 0, 1 };
    for (size.n = 1; size.n <= 5; size.n++) {
        size.factorial *= size.n;
        size_t orders = size.factorial;
        /* outcome n! collects anything that is not a permutation */
        mpq_t mass[121], residual, exact, upper;
        for (size_t r = 0; r <= orders; r++) {
            mpq_init(mass[r]);
        }
        mpq_inits(residual, exact, upper, (mpq_ptr)0);
        cr_assert_geq(enumerate_bits(shuffle_sampler, &size, orders + 1, 48, mass, residual), 1);
        mpq_set_ui(exact, 1, orders);
        for (size_t r = 0; r < orders; r++) {
            mpq_add(upper, mass[r], residual);
            cr_expect(mpq_cmp(mass[r], exact) <= 0 && mpq_cmp(exact, upper) <= 0,
                      "n=%zu: order %zu has mass %.12g, residual %.3g", size.n, r,
                      mpq_get_d(mass[r]), mpq_get_d(residual));
        }
        cr_expect(mpq_sgn(mass[orders]) == 0, "n=%zu: an arrangement that is no permutation",
                  size.n);
        /* residual below 2^-30; none where every range is a power of 2 */
        mpq_set_ui(upper, 1, 1u << 30);
        cr_expect(mpq_cmp(residual, upper) < 0, "n=%zu: residual %.3g", size.n,
                  mpq_get_d(residual));
        cr_expect(size.n > 2 || mpq_sgn(residual) == 0, "n=%zu: residual without rejection",
                  size.n);
        for (size_t r = 0; r <= orders; r++) {
            mpq_clear(mass[r]);
        }
        mpq_clears(residual, exact, upper, (mpq_ptr)0);
    }
}

/* ---- coins ---- */

typedef struct {
    const dpsel_dyadic *powers;
    unsigned npowers;
    uint64_t g;
} power_coin;

static int power_coin_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    const power_coin *c = arg;
    int heads = 0;
    int rc = dpsel_core_coin_power(rng, c->powers, c->npowers, c->g, &heads);
    *out = (size_t)heads;
    return rc;
}

static void check_power_coins(uint64_t x, unsigned y, uint64_t cap)
{
    dpsel_decay_table table;
    cr_assert_eq(dpsel_exact_decay_table_build(&table, x, y, cap), DPSEL_OK);
    for (uint64_t g = 0; g <= cap; g++) {
        power_coin coin = { table.powers, table.npowers, g };
        mpq_t mass[2], residual, exact;
        mpq_inits(mass[0], mass[1], residual, exact, (mpq_ptr)0);
        cr_assert_geq(enumerate_bits(power_coin_sampler, &coin, 2, 200, mass, residual), 1);
        beta_power(exact, x, y, g);
        cr_expect(mpq_sgn(residual) == 0, "x=%lu y=%u g=%lu: coin not finished", x, y, g);
        cr_expect(mpq_equal(mass[1], exact), "x=%lu y=%u g=%lu: P(heads) != beta^g", x, y, g);
        mpq_clears(mass[0], mass[1], residual, exact, (mpq_ptr)0);
    }
    dpsel_exact_decay_table_free(&table);
}

Test(coins, heads_probability_is_exactly_beta_to_the_gap)
{
    check_power_coins(1, 1, 12);   /* 1/2 */
    check_power_coins(3, 2, 12);   /* 3/4 */
    check_power_coins(5, 3, 9);    /* 5/8 */
    check_power_coins(1, 5, 4);    /* 1/32: leading zeros */
    check_power_coins(13, 4, 6);   /* 13/16 */
}

Test(coins, a_dyadic_coin_with_leading_zeros)
{
    /* t = 2^-3 * 0.101 = 5/64 */
    uint64_t word = (uint64_t)5 << 61;
    dpsel_dyadic t = { &word, 3, 3 };
    dpsel_dyadic powers[1] = { t };
    power_coin coin = { powers, 1, 1 };
    mpq_t mass[2], residual, exact;
    mpq_inits(mass[0], mass[1], residual, exact, (mpq_ptr)0);
    cr_assert_geq(enumerate_bits(power_coin_sampler, &coin, 2, 10, mass, residual), 1);
    mpq_set_ui(exact, 5, 64);
    cr_expect(mpq_equal(mass[1], exact));
    cr_expect(mpq_sgn(residual) == 0);
    mpq_clears(mass[0], mass[1], residual, exact, (mpq_ptr)0);
}

/* ---- the exact decay table ---- */

Test(decay_table, digits_equal_the_exact_powers)
{
    const uint64_t bases[][2] = { { UINT64_MAX, 64 }, { 3, 2 }, { 1, 1 }, { 0x9E3779B97F4A7C15u, 64 },
                                  { 1, 64 }, { 12345, 20 } };
    for (size_t b = 0; b < sizeof bases / sizeof *bases; b++) {
        uint64_t x = bases[b][0];
        unsigned y = (unsigned)bases[b][1];
        dpsel_decay_table table;
        cr_assert_eq(dpsel_exact_decay_table_build(&table, x, y, 5000), DPSEL_OK);
        cr_assert_eq(table.npowers, 13);
        for (unsigned i = 0; i < table.npowers; i++) {
            /* beta^(2^i) = x^(2^i) / 2^(y 2^i); digits: lead zeros, then x^(2^i) */
            mpz_t exact, stored;
            mpz_inits(exact, stored, (mpz_ptr)0);
            mpz_ui_pow_ui(exact, x, (unsigned long)1 << i);
            const dpsel_dyadic *t = &table.powers[i];
            size_t words = (size_t)((t->ndigits + 63) / 64);
            mpz_import(stored, words, 1, sizeof(uint64_t), 0, 0, t->words);
            mpz_fdiv_q_2exp(stored, stored, words * 64 - t->ndigits);
            /* stored / 2^(lead + ndigits) == exact / 2^(y 2^i), cross-multiplied */
            mpz_mul_2exp(stored, stored, (mp_bitcnt_t)y << i);
            mpz_mul_2exp(exact, exact, t->lead + t->ndigits);
            cr_expect(mpz_cmp(stored, exact) == 0, "x=%lu y=%u i=%u: wrong digits", x, y, i);
            mpz_clears(exact, stored, (mpz_ptr)0);
        }
        dpsel_exact_decay_table_free(&table);
    }
}

Test(decay_table, precision_bookkeeping)
{
    cr_assert_eq(dpsel_core_power_precision(64, 0), 64);
    cr_assert_eq(dpsel_core_power_precision(64, 20), (uint64_t)64 << 20);
    cr_assert_eq(dpsel_core_power_precision(1, 3), 8);
}
