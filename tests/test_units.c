/* Decimal scores in whole units (dpsel_decimal_to_units): values by hand,
 * then random decimals against an independent computation in 128-bit
 * integers.  Bad input is in test_api_errors.c. */
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
