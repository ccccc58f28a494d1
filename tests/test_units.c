/* SPDX-License-Identifier: ISC */
/* Decimal scores in whole units (dpsel_decimal_to_units), the quantile's
 * grid (dpsel_grid_init, dpsel_grid_point), grid points back to decimals and
 * quantiles as fractions: values
 * by hand, then random decimals against an independent computation in
 * 128-bit integers (texts of up to 22 digits: both the 128-bit and the GMP
 * path).  Bad input is in test_api_errors.c. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>


#include "core/core.h"
#include "support.h"

typedef struct {
    const char *text, *unit;
    int64_t expected;
} units_value;

static const units_value units_values[] = {
    { "0.8731", "0.0001", 8731 },
    { "0.8731", "0.00001", 87310 },
    { "-12.5", "0.5", -25 },
    { "3", "1", 3 },
    { "+7", "7", 1 },
    { "-0", "1", 0 },
    { "0.000", "0.001", 0 },
    { "0.25", "0.05", 5 },
    { "1.000", "0.001", 1000 },
    { "1.5", "1.50", 1 },
    { "12", "4", 3 },
    { "1200", "400.0", 3 },
    { "9223372036854775807", "1", INT64_MAX },
    { "-9223372036854775808", "1", INT64_MIN },
    { "-0.9223372036854775808", "0.0000000000000000001", INT64_MIN },
    { "0.0000000000000000000000000000001", "0.0000000000000000000000000000001", 1 },
};

Test(units, values_by_hand)
{
    for (size_t i = 0; i < sizeof units_values / sizeof *units_values; i++) {
        const units_value *v = &units_values[i];
        int64_t value = 0;
        cr_expect_eq(dpsel_decimal_to_units(v->text, v->unit, &value), DPSEL_OK, "%s in units of %s",
                     v->text, v->unit);
        cr_expect_eq(value, v->expected, "%s in units of %s: %" PRId64, v->text, v->unit, value);
    }
}

/* m / 10^f as text (f fraction digits, all written out). */
static void decimal_text(int64_t m, unsigned f, char *out, size_t size)
{
    uint64_t magnitude = m < 0 ? -(uint64_t)m : (uint64_t)m;
    uint64_t scale = 1;
    for (unsigned i = 0; i < f; i++) {
        scale *= 10;
    }
    if (f == 0) {
        snprintf(out, size, "%s%" PRIu64, m < 0 ? "-" : "", magnitude);
    } else {
        snprintf(out, size, "%s%" PRIu64 ".%0*" PRIu64, m < 0 ? "-" : "", magnitude / scale,
                 (int)f, magnitude % scale);
    }
}

/* 128-bit integers, a GCC and clang extension (the reference computation). */
__extension__ typedef __int128 wide;

static wide power_of_ten(unsigned e)
{
    wide p = 1;
    for (unsigned i = 0; i < e; i++) {
        p *= 10;
    }
    return p;
}

/* Random texts m / 10^f and units k / 10^e (|m| < 2^20, or m a multiple of k
 * below 2^40; 1 <= k <= 2^20; f, e <= 9): m 10^e and k 10^f fit 128 bits, so
 * the expected code and value are computed there.  Half the texts are made
 * multiples of the unit. */
Test(units, random_decimals_against_128_bit_integers)
{
    dpsel_rng rng = seeded_rng(2026112501);
    unsigned multiples = 0, others = 0;
    for (unsigned trial = 0; trial < 20000; trial++) {
        uint64_t r[5];
        for (size_t i = 0; i < 5; i++) {
            cr_assert_eq(dpsel_internal_rng_bits(&rng, 40, &r[i]), DPSEL_OK);
        }
        unsigned f = (unsigned)(r[0] % 10), e = (unsigned)(r[1] % 10);
        int64_t k = (int64_t)(r[2] % (1 << 20)) + 1;
        int64_t m = (int64_t)(r[3] % ((uint64_t)1 << 20)) * (r[4] % 2 ? -1 : 1);
        if (trial % 2 == 0) {
            /* a multiple: (m k) / 10^e is m units of k / 10^e */
            m = m * k;
            f = e;
        }
        char text[64], unit[64];
        decimal_text(m, f, text, sizeof text);
        decimal_text(k, e, unit, sizeof unit);
        wide numerator = (wide)m * power_of_ten(e);
        wide denominator = (wide)k * power_of_ten(f);
        int64_t value = 0;
        int rc = dpsel_decimal_to_units(text, unit, &value);
        if (numerator % denominator != 0) {
            cr_expect_eq(rc, DPSEL_EUNIT, "%s in units of %s", text, unit);
            others++;
        } else {
            cr_expect_eq(rc, DPSEL_OK, "%s in units of %s", text, unit);
            cr_expect(value == numerator / denominator, "%s in units of %s: %" PRId64, text, unit,
                      value);
            multiples++;
        }
    }
    cr_expect_geq(multiples, 10000);
    cr_expect_geq(others, 5000);
    dpsel_rng_wipe(&rng);
}

/* ----------------------------------------------------------- quantile grids */

Test(units, grids_by_hand)
{
    static const struct {
        const char *lower, *upper, *resolution;
        int64_t low, high;
        const char *unit;
    } grids[] = {
        { "0", "120", NULL, 0, 120, "1" },
        { "0.5", "10", NULL, 5, 100, "0.1" },
        { "-1.25", "3", NULL, -125, 300, "0.01" },
        { "0", "100", "0.25", 0, 400, "0.25" },
        { "1000", "5000", "500", 2, 10, "500" },
        { "7", "7", NULL, 7, 7, "1" },
    };
    for (size_t i = 0; i < sizeof grids / sizeof *grids; i++) {
        dpsel_grid g;
        cr_assert_eq(dpsel_grid_init(&g, grids[i].lower, grids[i].upper, grids[i].resolution),
                     DPSEL_OK, "grid %zu", i);
        cr_expect(g.lower == grids[i].low && g.upper == grids[i].high, "grid %zu", i);
        cr_expect_str_eq(g.resolution, grids[i].unit, "grid %zu", i);
    }
    static const struct {
        const char *value;
        int64_t point;
    } points[] = {
        /* on the grid 0 .. 10 in steps of 0.25: floor(clamp(v, 0, 10) / 0.25) */
        { "0", 0 }, { "0.24", 0 }, { "0.25", 1 }, { "3.999", 15 }, { "10", 40 },
        { "10.01", 40 }, { "-0.01", 0 }, { "-1000000000000000000000000", 0 },
        { "99999999999999999999999999999999", 40 }, { "+2.5", 10 },
        { "2.50000000000000000000000000000001", 10 }, { "2.49999999999999999999999999999999", 9 },
    };
    dpsel_grid g;
    cr_assert_eq(dpsel_grid_init(&g, "0", "10", "0.25"), DPSEL_OK);
    for (size_t i = 0; i < sizeof points / sizeof *points; i++) {
        int64_t point = -1;
        cr_expect_eq(dpsel_grid_point(&g, points[i].value, &point), DPSEL_OK, "%s", points[i].value);
        cr_expect_eq(point, points[i].point, "%s: %" PRId64, points[i].value, point);
    }
    /* negative grids round down too: -0.5 is on the grid point -1 of unit 1 */
    cr_assert_eq(dpsel_grid_init(&g, "-10", "10", NULL), DPSEL_OK);
    int64_t point = 0;
    cr_expect_eq(dpsel_grid_point(&g, "-0.5", &point), DPSEL_OK);
    cr_expect_eq(point, -1);
    cr_expect_eq(dpsel_grid_point(&g, "-3", &point), DPSEL_OK);
    cr_expect_eq(point, -3);
}

/* floor(m / 10^f over k / 10^e) for random texts, short (the 128-bit
 * path) and long (up to 30 digits: GMP), against 128-bit integers. */
Test(units, random_grid_points_against_128_bit_integers)
{
    dpsel_rng rng = seeded_rng(2026112602);
    for (unsigned trial = 0; trial < 20000; trial++) {
        uint64_t r[6];
        for (size_t i = 0; i < 6; i++) {
            cr_assert_eq(dpsel_internal_rng_bits(&rng, 40, &r[i]), DPSEL_OK);
        }
        /* a mantissa of up to 22 digits: below 10^22 < 2^74 */
        wide magnitude = ((wide)r[0] << 34) ^ (wide)r[1];
        magnitude %= power_of_ten(1 + (unsigned)(r[2] % 22));
        wide m = r[3] % 2 ? -magnitude : magnitude;
        unsigned f = (unsigned)(r[2] / 22 % 9), e = (unsigned)(r[4] % 9);
        int64_t k = (int64_t)(r[5] % 1000) + 1;
        char text[64], unit[64], digits[40];
        /* m / 10^f written out, the mantissa's digits from the 128-bit value */
        size_t used = 0;
        wide rest = magnitude;
        do {
            digits[used++] = (char)('0' + (int)(rest % 10));
            rest /= 10;
        } while (rest > 0);
        while (used <= f) {
            digits[used++] = '0';
        }
        size_t pos = 0;
        if (m < 0) {
            text[pos++] = '-';
        }
        for (size_t i = used; i-- > 0;) {
            text[pos++] = digits[i];
            if (i == f && f > 0) {
                text[pos++] = '.';
            }
        }
        text[pos] = '\0';
        decimal_text(k, e, unit, sizeof unit);
        /* the grid of +-2^40 units of k / 10^e */
        char lower[48], upper[48];
        decimal_text(-((int64_t)1 << 40) * k, e, lower, sizeof lower);
        decimal_text(((int64_t)1 << 40) * k, e, upper, sizeof upper);
        dpsel_grid g;
        cr_assert_eq(dpsel_grid_init(&g, lower, upper, unit), DPSEL_OK);
        cr_assert(g.lower == -((int64_t)1 << 40) && g.upper == (int64_t)1 << 40);
        wide numerator = m * power_of_ten(e);
        wide denominator = (wide)k * power_of_ten(f);
        wide floor = numerator / denominator - (numerator % denominator < 0);
        wide expected = floor < g.lower ? g.lower : floor > g.upper ? g.upper : floor;
        int64_t point = 0;
        cr_expect_eq(dpsel_grid_point(&g, text, &point), DPSEL_OK, "%s in units of %s", text, unit);
        cr_expect(point == (int64_t)expected, "%s in units of %s: %" PRId64, text, unit, point);
    }
    dpsel_rng_wipe(&rng);
}

Test(units, units_to_decimal_by_hand)
{
    static const struct {
        int64_t units;
        const char *unit, *text;
    } cases[] = {
        { 37, "1", "37" }, { 3, "0.25", "0.75" }, { -6, "0.25", "-1.50" }, { 0, "0.01", "0.00" },
        { 7, "0.001", "0.007" }, { -7, "0.001", "-0.007" }, { 2, "500", "1000" },
        { 3, "1.50", "4.50" }, { INT64_MIN, "1", "-9223372036854775808" },
        { INT64_MAX, "0.1", "922337203685477580.7" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char buf[DPSEL_UNITS_TEXT_MAX];
        cr_expect_eq(dpsel_units_to_decimal(cases[i].units, cases[i].unit, buf, sizeof buf),
                     DPSEL_OK);
        cr_expect_str_eq(buf, cases[i].text, "%" PRId64 " units of %s", cases[i].units,
                         cases[i].unit);
    }
}

Test(units, quantile_fractions_by_hand)
{
    static const struct {
        const char *q;
        uint64_t a, b, sensitivity;
    } cases[] = {
        { "0.5", 1, 2, 1 }, { "0.25", 1, 4, 3 }, { "0.75", 3, 4, 3 }, { "0.95", 19, 20, 19 },
        { "0.333", 333, 1000, 667 }, { "0.50", 1, 2, 1 }, { "+0.1", 1, 10, 9 },
        { "0.000000000000000001", 1, 1000000000000000000u, 999999999999999999u },
        { "0.100000000000000000000", 1, 10, 9 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint64_t a = 0, b = 0, d = 0;
        cr_expect_eq(dpsel_quantile_fraction(cases[i].q, &a, &b, &d), DPSEL_OK, "%s", cases[i].q);
        cr_expect(a == cases[i].a && b == cases[i].b && d == cases[i].sensitivity, "%s", cases[i].q);
    }
}
