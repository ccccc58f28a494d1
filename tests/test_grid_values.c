/* SPDX-License-Identifier: ISC */
/* Raw values of any length on the quantile's grid (dpsel_grid_point): one
 * record must never decide whether a release happens, so every number is
 * clamped and rounded down, whatever its length and exponent
 * (spec/quantiles.md §6).  Values by hand (200 and 10000 digits,
 * huge exponents, infinities, NaN), then random long values against an
 * independent computation in GMP rationals.  The malformed texts that stay
 * refused are at the end. */
#include <criterion/criterion.h>
#include <gmp.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "support.h"

/* A text of `count` copies of c after `head` and before `tail`, malloc'd. */
static char *repeated(const char *head, char c, size_t count, const char *tail)
{
    size_t h = strlen(head), t = strlen(tail);
    char *text = malloc(h + count + t + 1);
    cr_assert_not_null(text);
    memcpy(text, head, h);
    memset(text + h, c, count);
    memcpy(text + h + count, tail, t + 1);
    return text;
}

static int64_t point_of(const dpsel_grid *g, const char *value)
{
    int64_t point = INT64_MIN + 12345;
    cr_assert_eq(dpsel_grid_point(g, value, &point), DPSEL_OK, "%.60s (%zu characters)", value,
                 strlen(value));
    return point;
}

/* Values written by hand and their kin on the grid -10 .. 10 in steps of
 * 0.25 (points -40 .. 40). */
Test(grid_values, long_values_by_hand)
{
    dpsel_grid g;
    cr_assert_eq(dpsel_grid_init(&g, "-10", "10", "0.25"), DPSEL_OK);
    static const struct {
        const char *head;
        char fill;
        size_t count;
        const char *tail;
        int64_t point;
    } cases[] = {
        { "1", '0', 200, "", 40 },                /* 10^200: the upper end */
        { "-1", '0', 200, "", -40 },
        { "1", '0', 10000, "", 40 },
        { "0.5", '0', 130, "", 2 },               /* 0.5 exactly */
        { "-0.5", '0', 130, "", -2 },
        { "0.5", '0', 10000, "1", 2 },            /* just above 0.5 */
        { "-0.5", '0', 10000, "1", -3 },          /* just below -0.5 */
        { "0.", '0', 10000, "1", 0 },             /* 10^-10001 */
        { "-0.", '0', 10000, "1", -1 },           /* -10^-10001: rounds down */
        { "-0.", '0', 999, "1", -1 },             /* -1e-1000 */
        { "0.", '0', 10000, "", 0 },
        { "-0.", '0', 10000, "", 0 },
        { "2.", '9', 10000, "", 11 },             /* below 3 by 10^-10000 */
        { "", '9', 10000, ".5", 40 },
        { "-", '9', 10000, ".5", -40 },
        { "0.2", '4', 200, "e1", 9 },             /* 2.444...: point 9 */
        { "", '0', 10000, "3.25", 13 },           /* leading zeros */
        { "1", '0', 200, "e-200", 4 },            /* 1 */
        { "-1", '0', 200, "e-201", -1 },          /* -0.1 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *text = repeated(cases[i].head, cases[i].fill, cases[i].count, cases[i].tail);
        int64_t point = point_of(&g, text);
        cr_expect_eq(point, cases[i].point, "case %zu: %" PRId64, i, point);
        free(text);
    }
    static const struct {
        const char *text;
        int64_t point;
    } exponents[] = {
        { "1e200", 40 }, { "1E+200", 40 }, { "-1e200", -40 }, { "1e-200", 0 },
        { "-1e-200", -1 }, { "-1e-1000", -1 }, { "2.5e0", 10 }, { "25e-1", 10 },
        { "0.025e2", 10 }, { "-0.25E1", -10 }, { "3e0000000000000000000000000000001", 40 },
        { "1e99999999999999999999999999999999999999", 40 },
        { "-1e99999999999999999999999999999999999999", -40 },
        { "1e-99999999999999999999999999999999999999", 0 },
        { "-1e-99999999999999999999999999999999999999", -1 },
        { "0e99999999999999999999999999999999999999", 0 },
        { "-0e-99999999999999999999999999999999999999", 0 },
        { "0.0000000000000000000000000000000000000001e41", 40 },
        { "inf", 40 }, { "+Infinity", 40 }, { "-inf", -40 }, { "-INFINITY", -40 },
        { "NaN", 40 }, { "-nan", 40 }, { "+NAN", 40 },
    };
    for (size_t i = 0; i < sizeof exponents / sizeof *exponents; i++) {
        int64_t point = point_of(&g, exponents[i].text);
        cr_expect_eq(point, exponents[i].point, "%s: %" PRId64, exponents[i].text, point);
    }
}

/* m / 10^e written out with e fraction digits (e <= 150), into out. */
static void scaled_text(int64_t m, unsigned e, char *out, size_t size)
{
    char digits[200];
    uint64_t magnitude = m < 0 ? -(uint64_t)m : (uint64_t)m;
    int count = snprintf(digits, sizeof digits, "%0*" PRIu64, (int)e + 1, magnitude);
    size_t whole = (size_t)count - e;
    snprintf(out, size, "%s%.*s%s%s", m < 0 ? "-" : "", (int)whole, digits, e > 0 ? "." : "",
             digits + whole);
}

/* Grids whose ends are far from 0 and whose resolution is long: a value
 * beyond them by one unit in its last of many digits is still clamped. */
Test(grid_values, long_values_at_far_grid_ends)
{
    dpsel_grid g;
    char step[200], lower[200];
    scaled_text(1, 121, step, sizeof step);                    /* R = 10^-121 */
    scaled_text(-INT64_MAX, 121, lower, sizeof lower);
    cr_assert_eq(dpsel_grid_init(&g, lower, "0", step), DPSEL_OK);
    cr_assert_eq(g.lower, -INT64_MAX);
    cr_expect_eq(point_of(&g, lower), -INT64_MAX);
    cr_expect_eq(point_of(&g, "-1"), -INT64_MAX);
    cr_expect_eq(point_of(&g, "-9223372036854775806e-121"), -INT64_MAX + 1);
    /* a hair below -9223372036854775805 units */
    cr_expect_eq(point_of(&g, "-922337203685477580500000000000000000000001e-144"),
                 -INT64_MAX + 1);
    cr_expect_eq(point_of(&g, "-1e-121"), -1);
    cr_expect_eq(point_of(&g, "-1e-122"), -1);
    cr_expect_eq(point_of(&g, "1e-300"), 0);
    cr_expect_eq(point_of(&g, "1"), 0);
    /* the widest grid of unit 1, and values just beyond its ends */
    cr_assert_eq(dpsel_grid_init(&g, "-9223372036854775808", "9223372036854775807", "1"),
                 DPSEL_OK);
    cr_expect_eq(point_of(&g, "9223372036854775807.9"), INT64_MAX);
    cr_expect_eq(point_of(&g, "9223372036854775808"), INT64_MAX);
    cr_expect_eq(point_of(&g, "-9223372036854775808.0000000001"), INT64_MIN);
    cr_expect_eq(point_of(&g, "-9223372036854775807.5"), INT64_MIN);
    cr_expect_eq(point_of(&g, "-9223372036854775807"), -INT64_MAX);
    char *huge = repeated("9", '9', 300, "e-280");
    cr_expect_eq(point_of(&g, huge), INT64_MAX);
    free(huge);
}

/* The value of text (digits with an optional point and an exponent in the
 * int range) as a rational, independently of the library. */
static void rational_of(const char *text, mpq_t value)
{
    const char *e = strpbrk(text, "eE");
    long exponent = e != NULL ? strtol(e + 1, NULL, 10) : 0;
    size_t length = e != NULL ? (size_t)(e - text) : strlen(text);
    char *digits = malloc(length + 1);
    cr_assert_not_null(digits);
    size_t n = 0, fraction = 0;
    int after_point = 0;
    for (size_t i = 0; i < length; i++) {
        if (text[i] == '.') {
            after_point = 1;
        } else {
            digits[n++] = text[i];
            fraction += after_point && text[i] != '-' && text[i] != '+';
        }
    }
    digits[n] = '\0';
    mpz_t scale;
    mpz_init(scale);
    cr_assert_eq(mpz_set_str(mpq_numref(value), digits + (digits[0] == '+'), 10), 0);
    mpz_set_ui(mpq_denref(value), 1);
    long shift = exponent - (long)fraction;
    mpz_ui_pow_ui(scale, 10, (unsigned long)labs(shift));
    if (shift >= 0) {
        mpz_mul(mpq_numref(value), mpq_numref(value), scale);
    } else {
        mpz_set(mpq_denref(value), scale);
    }
    mpq_canonicalize(value);
    mpz_clear(scale);
    free(digits);
}

/* floor(clamp(value, A, B) / R) in rationals. */
static int64_t expected_point(const char *value, const char *lower, const char *upper,
                              const char *resolution)
{
    mpq_t v, a, b, r;
    mpq_inits(v, a, b, r, (mpq_ptr)0);
    rational_of(value, v);
    rational_of(lower, a);
    rational_of(upper, b);
    rational_of(resolution, r);
    if (mpq_cmp(v, a) < 0) {
        mpq_set(v, a);
    }
    if (mpq_cmp(v, b) > 0) {
        mpq_set(v, b);
    }
    mpq_div(v, v, r);
    mpz_t q;
    mpz_init(q);
    mpz_fdiv_q(q, mpq_numref(v), mpq_denref(v));
    cr_assert(mpz_fits_slong_p(q));
    int64_t point = mpz_get_si(q);
    mpz_clear(q);
    mpq_clears(v, a, b, r, (mpq_ptr)0);
    return point;
}

static uint64_t draw(dpsel_rng *rng, uint64_t bound)
{
    uint64_t r;
    cr_assert_eq(dpsel_internal_rng_bits(rng, 62, &r), DPSEL_OK);
    return r % bound;
}

/* A random value of 1 to `length` digits: all 9s, or a nonzero digit,
 * zeros and a random last digit (values next to a grid point), or random
 * digits; a sign or none, a point or none; an exponent or none, the
 * exponent random or one that puts the value at up to about 10^(scale). */
static char *random_value(dpsel_rng *rng, size_t length, int scale)
{
    size_t n = 1 + draw(rng, length);
    char *text = malloc(n + 40);
    cr_assert_not_null(text);
    static const char *const signs[] = { "", "-", "+" };
    size_t pos = (size_t)sprintf(text, "%s", signs[draw(rng, 3)]);
    unsigned style = (unsigned)draw(rng, 4);
    size_t point = draw(rng, n + 1);  /* digits before the point; n or 0: none */
    for (size_t i = 0; i < n; i++) {
        if (i == point && i > 0) {
            text[pos++] = '.';
        }
        int random_digit = style >= 2 || (style == 1 && (i == 0 || i == n - 1));
        text[pos++] = style == 0 ? '9' : random_digit ? (char)('0' + draw(rng, 10)) : '0';
    }
    unsigned exponent = (unsigned)draw(rng, 3);
    int whole = (int)(point > 0 ? point : n);
    if (exponent == 1) {
        pos += (size_t)sprintf(text + pos, "e%s%d", draw(rng, 2) ? "-" : "",
                               (int)draw(rng, (uint64_t)n + 60));
    } else if (exponent == 2) {
        pos += (size_t)sprintf(text + pos, "E%d", scale - whole - (int)draw(rng, 10));
    }
    text[pos] = '\0';
    return text;
}

/* Random long values (up to 200, 10000 and 30 digits) on random grids
 * (resolutions k 10^-e with up to 40 fraction digits, ends within 10^6
 * units), against floor(clamp(v, A, B) / R) in GMP rationals. */
Test(grid_values, random_long_values_against_rationals)
{
    dpsel_rng rng = seeded_rng(2026112635);
    static const size_t lengths[] = { 30, 200, 10000 };
    unsigned inside = 0, outside = 0;
    for (unsigned trial = 0; trial < 3000; trial++) {
        unsigned e = (unsigned)draw(&rng, 41);
        int64_t k = 1 + (int64_t)draw(&rng, 999);
        int64_t low = (int64_t)draw(&rng, 2000001) - 1000000;
        int64_t high = low + (int64_t)draw(&rng, 2000001);
        char plain[3][200];
        scaled_text(k, e, plain[0], sizeof plain[0]);
        scaled_text(low * k, e, plain[1], sizeof plain[1]);
        scaled_text(high * k, e, plain[2], sizeof plain[2]);
        dpsel_grid g;
        cr_assert_eq(dpsel_grid_init(&g, plain[1], plain[2], plain[0]), DPSEL_OK,
                     "%s %s %s", plain[1], plain[2], plain[0]);
        cr_assert(g.lower == low && g.upper == high);
        char *value = random_value(&rng, lengths[trial % 3], 9 - (int)e);
        int64_t expected = expected_point(value, plain[1], plain[2], plain[0]);
        int64_t point = point_of(&g, value);
        cr_expect_eq(point, expected, "%.80s... on %s .. %s step %s: %" PRId64 ", not %" PRId64,
                     value, plain[1], plain[2], plain[0], point, expected);
        if (expected > low && expected < high) {
            inside++;
        } else {
            outside++;
        }
        free(value);
    }
    /* both sides of the clamp are exercised */
    cr_expect_geq(inside, 300, "%u inside", inside);
    cr_expect_geq(outside, 300, "%u outside", outside);
    dpsel_rng_wipe(&rng);
}

/* Texts that are not numbers stay refused: they are a file's format, not a
 * record's value. */
Test(grid_values, texts_that_are_not_numbers)
{
    dpsel_grid g;
    cr_assert_eq(dpsel_grid_init(&g, "0", "10", NULL), DPSEL_OK);
    static const char *const bad[] = {
        "", "-", "+", ".", "1.", ".5", "1e", "1e+", "1e-", "e5", "1.5.2", "--1", "+-1", "in",
        "infinit", "infinityy", "nanx", "na", " 1", "1 ", "1,5", "0x10", "1e5.5", "1ee5",
        "1e 5", "inf5", "--inf", "+-nan", "\xef\xbc\x91",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int64_t point = 77;
        cr_expect_eq(dpsel_grid_point(&g, bad[i], &point), DPSEL_EDECIMAL, "'%s'", bad[i]);
        cr_expect_eq(point, 77, "'%s' wrote its point", bad[i]);
    }
}
