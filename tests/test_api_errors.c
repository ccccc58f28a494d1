/* SPDX-License-Identifier: ISC */
/* Bad input to every public function: each case of the tables below gets its
 * documented error code and leaves every output untouched (the outputs are
 * filled with a sentinel before the call and compared after it).  That
 * nothing leaks is checked by `make sanitize` (LeakSanitizer). */
#include <criterion/criterion.h>
#include <limits.h>
#include <string.h>

#include "support.h"

#define N_OF(array) (sizeof (array) / sizeof *(array))
#define SENTINEL 0xa5

/* ------------------------------------------------------------ outputs */

/* Every output parameter a case may write, sentinel-filled before each call. */
typedef struct {
    dpsel_params params;
    dpsel_selector *selector;
    dpsel_pmf *pmf;
    char *string, *string2;
    size_t index;
    int64_t scores[2];
    uint64_t sensitivity;
    int monotonic;
    dpsel_rng rng;
    char buf[200];
    dpsel_grid grid;
    dpsel_quantile_runs *runs;
    uint64_t a, b;
    size_t failed;
    dpsel_account account;
} outputs;

static void fill(outputs *o)
{
    memset(o, SENTINEL, sizeof *o);
}

static int untouched(const outputs *o)
{
    outputs sentinel;
    fill(&sentinel);
    return memcmp(o, &sentinel, sizeof *o) == 0;
}

/* Runs one call on fresh outputs: the expected code, nothing written. */
#define EXPECT_REFUSED(name, expected, call_with_o)                                  \
    do {                                                                             \
        outputs out_;                                                                \
        outputs *o = &out_;                                                          \
        fill(o);                                                                     \
        int rc_ = (call_with_o);                                                     \
        cr_expect_eq(rc_, (expected), "%s: got %d (%s), expected %d (%s)", (name),  \
                     rc_, dpsel_strerror(rc_), (expected), dpsel_strerror(expected)); \
        cr_expect(untouched(o), "%s: an output was written", (name));               \
    } while (0)

/* --------------------------------------------------- privacy parameters */

typedef struct {
    const char *name;
    int null_out;
    uint64_t x;
    unsigned y;
    uint64_t sensitivity;
    int monotonic;
    int expected;
} base_case;

static const base_case base_cases[] = {
    { "NULL out", 1, 1, 1, 1, 0, DPSEL_ENULL },
    { "NULL out and a bad base", 1, 0, 0, 0, 7, DPSEL_ENULL },
    { "y = 0", 0, 1, 0, 1, 0, DPSEL_ERANGE },
    { "y = 65", 0, 1, 65, 1, 0, DPSEL_ERANGE },
    { "y = UINT_MAX", 0, 1, UINT_MAX, 1, 0, DPSEL_ERANGE },
    { "x = 0", 0, 0, 8, 1, 0, DPSEL_ERANGE },
    { "x = 2^y", 0, 256, 8, 1, 0, DPSEL_ERANGE },
    { "x > 2^y", 0, UINT64_MAX, 63, 1, 0, DPSEL_ERANGE },
    { "sensitivity 0", 0, 1, 1, 0, 0, DPSEL_ERANGE },
    { "monotonic 2", 0, 1, 1, 1, 2, DPSEL_ERANGE },
    { "monotonic -1", 0, 1, 1, 1, -1, DPSEL_ERANGE },
};

Test(api_errors, params_from_base)
{
    for (size_t i = 0; i < N_OF(base_cases); i++) {
        const base_case *c = &base_cases[i];
        EXPECT_REFUSED(c->name, c->expected,
                       dpsel_params_from_base(c->null_out ? NULL : &o->params, c->x, c->y,
                                              c->sensitivity, c->monotonic));
    }
    /* the edges of the ranges are accepted */
    dpsel_params p;
    cr_expect_eq(dpsel_params_from_base(&p, UINT64_MAX, 64, UINT64_MAX, 1), DPSEL_OK);
    cr_expect_eq(dpsel_params_from_base(&p, 1, 64, 1, 0), DPSEL_OK);
}

typedef struct {
    const char *name;
    int null_out;
    const char *epsilon;
    uint64_t sensitivity;
    int monotonic;
    int expected;
} epsilon_case;

static const epsilon_case epsilon_cases[] = {
    { "NULL out", 1, "1", 1, 0, DPSEL_ENULL },
    { "NULL epsilon", 0, NULL, 1, 0, DPSEL_ENULL },
    { "sensitivity 0", 0, "1", 0, 0, DPSEL_ERANGE },
    { "monotonic 2", 0, "1", 1, 2, DPSEL_ERANGE },
    { "zero", 0, "0", 1, 0, DPSEL_EEPSILON },
    { "zero with fraction and exponent", 0, "0.000e5", 1, 0, DPSEL_EEPSILON },
    { "negative", 0, "-1", 1, 0, DPSEL_EEPSILON },
    { "explicit plus sign", 0, "+1", 1, 0, DPSEL_EEPSILON },
    { "nan", 0, "nan", 1, 0, DPSEL_EEPSILON },
    { "inf", 0, "inf", 1, 0, DPSEL_EEPSILON },
    { "empty", 0, "", 1, 0, DPSEL_EEPSILON },
    { "leading space", 0, " 1", 1, 0, DPSEL_EEPSILON },
    { "trailing space", 0, "1 ", 1, 0, DPSEL_EEPSILON },
    { "hexadecimal", 0, "0x1", 1, 0, DPSEL_EEPSILON },
    { "lone point", 0, ".", 1, 0, DPSEL_EEPSILON },
    { "exponent without digits", 0, "1e", 1, 0, DPSEL_EEPSILON },
    { "exponent of 10 digits", 0, "1e1234567890", 1, 0, DPSEL_EEPSILON },
    { "two points", 0, "1.2.3", 1, 0, DPSEL_EEPSILON },
    { "decimal comma", 0, "1,5", 1, 0, DPSEL_EEPSILON },
    /* no base fits: beta would round to 1, i.e. epsilon / (k D) < ~2^-64 */
    { "1e-999999999", 0, "1e-999999999", 1, 0, DPSEL_EEPSILON },
    { "1e-30", 0, "1e-30", 1, 0, DPSEL_EEPSILON },
    { "just below 2 * 2^-64", 0, "1.08e-19", 1, 0, DPSEL_EEPSILON },
    { "sensitivity so large no base fits", 0, "1", UINT64_MAX, 0, DPSEL_EEPSILON },
};

Test(api_errors, params_from_epsilon)
{
    for (size_t i = 0; i < N_OF(epsilon_cases); i++) {
        const epsilon_case *c = &epsilon_cases[i];
        EXPECT_REFUSED(c->name, c->expected,
                       dpsel_params_from_epsilon(c->null_out ? NULL : &o->params, c->epsilon,
                                                 c->sensitivity, c->monotonic));
    }
}

/* Longer than the documented 4095 characters: refused without reading past
 * the limit's NUL; at the limit, accepted. */
Test(api_errors, params_from_epsilon_length_limit)
{
    char text[4097];
    memset(text, '0', sizeof text);
    text[0] = '1';
    text[1] = '.';
    text[4096] = '\0';
    EXPECT_REFUSED("4096 characters", DPSEL_EEPSILON, dpsel_params_from_epsilon(&o->params, text, 1, 0));
    text[4095] = '\0';
    dpsel_params p;
    cr_expect_eq(dpsel_params_from_epsilon(&p, text, 1, 0), DPSEL_OK, "4095 characters");
}

/* Accepted extremes: a huge epsilon takes the smallest base 2^-64 (the
 * largest realised epsilon, which is below the request); just above the
 * smallest epsilon that fits, the largest base 1 - 2^-64. */
Test(api_errors, params_from_epsilon_extremes_that_fit)
{
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1e999999999", 1, 0), DPSEL_OK);
    cr_expect(p.x == 1 && p.y == 64);
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1.09e-19", 1, 0), DPSEL_OK);
    cr_expect(p.x == UINT64_MAX && p.y == 64);
    cr_expect_eq(p.gap_cap, DPSEL_GAP_CAP_MAX);
}

typedef struct {
    const char *name;
    int null_params;
    uint64_t gap_cap;
    int expected;
} gap_cap_case;

static const gap_cap_case gap_cap_cases[] = {
    { "NULL params", 1, 5, DPSEL_ENULL },
    { "gap cap 0", 0, 0, DPSEL_ERANGE },
    { "gap cap max + 1", 0, DPSEL_GAP_CAP_MAX + 1, DPSEL_ERANGE },
    { "gap cap UINT64_MAX", 0, UINT64_MAX, DPSEL_ERANGE },
};

Test(api_errors, params_set_gap_cap)
{
    for (size_t i = 0; i < N_OF(gap_cap_cases); i++) {
        const gap_cap_case *c = &gap_cap_cases[i];
        EXPECT_REFUSED(c->name, c->expected,
                       dpsel_params_set_gap_cap(c->null_params ? NULL : &o->params, c->gap_cap));
    }
    dpsel_params p = base_params(1, 1, 1, 0);
    cr_expect_eq(dpsel_params_set_gap_cap(&p, DPSEL_GAP_CAP_MAX), DPSEL_OK);
    cr_expect_eq(dpsel_params_set_gap_cap(&p, 1), DPSEL_OK);
}

/* Ways to spoil a valid params struct filled by hand. */
typedef enum {
    SPOIL_NONE, SPOIL_X_EVEN, SPOIL_X_ZERO, SPOIL_X_TOO_LARGE, SPOIL_Y_ZERO, SPOIL_Y_65,
    SPOIL_SENSITIVITY, SPOIL_MONOTONIC, SPOIL_GAP_CAP_ZERO, SPOIL_GAP_CAP_LARGE,
    SPOIL_COUNT
} spoil;

static const char *const spoil_names[SPOIL_COUNT] = {
    "valid", "x even", "x = 0", "x >= 2^y", "y = 0", "y = 65", "sensitivity 0",
    "monotonic 3", "gap cap 0", "gap cap max + 1",
};

static dpsel_params spoiled(spoil how)
{
    dpsel_params p = base_params(3, 4, 1, 0);  /* beta = 3/16 */
    switch (how) {
    case SPOIL_X_EVEN: p.x = 2; break;
    case SPOIL_X_ZERO: p.x = 0; break;
    case SPOIL_X_TOO_LARGE: p.x = 17; break;
    case SPOIL_Y_ZERO: p.y = 0; break;
    case SPOIL_Y_65: p.y = 65; break;
    case SPOIL_SENSITIVITY: p.sensitivity = 0; break;
    case SPOIL_MONOTONIC: p.monotonic = 3; break;
    case SPOIL_GAP_CAP_ZERO: p.gap_cap = 0; break;
    case SPOIL_GAP_CAP_LARGE: p.gap_cap = DPSEL_GAP_CAP_MAX + 1; break;
    default: break;
    }
    return p;
}

typedef struct {
    const char *name;
    int null_params, null_buf;
    unsigned digits;
    size_t buf_size;
    int expected;
} epsilon_text_case;

static const epsilon_text_case epsilon_text_cases[] = {
    { "NULL params", 1, 0, 17, 200, DPSEL_ENULL },
    { "NULL buf", 0, 1, 17, 200, DPSEL_ENULL },
    { "0 digits", 0, 0, 0, 200, DPSEL_ERANGE },
    { "101 digits", 0, 0, 101, 200, DPSEL_ERANGE },
    { "buf one byte short", 0, 0, 17, 17 + 15, DPSEL_ERANGE },
    { "buf of size 0", 0, 0, 1, 0, DPSEL_ERANGE },
    { "buf short for 100 digits", 0, 0, 100, 115, DPSEL_ERANGE },
};

Test(api_errors, params_epsilon)
{
    dpsel_params valid = spoiled(SPOIL_NONE);
    for (size_t i = 0; i < N_OF(epsilon_text_cases); i++) {
        const epsilon_text_case *c = &epsilon_text_cases[i];
        EXPECT_REFUSED(c->name, c->expected,
                       dpsel_params_epsilon(c->null_params ? NULL : &valid, c->digits,
                                            c->null_buf ? NULL : o->buf, c->buf_size));
    }
    for (spoil how = SPOIL_X_EVEN; how < SPOIL_COUNT; how++) {
        dpsel_params p = spoiled(how);
        EXPECT_REFUSED(spoil_names[how], DPSEL_ERANGE, dpsel_params_epsilon(&p, 17, o->buf, 200));
    }
    /* exactly digits + 16 bytes is enough, at both ends of the digit range */
    char buf[116];
    cr_expect_eq(dpsel_params_epsilon(&valid, 17, buf, 17 + 16), DPSEL_OK);
    cr_expect_eq(dpsel_params_epsilon(&valid, 1, buf, 1 + 16), DPSEL_OK);
    cr_expect_eq(dpsel_params_epsilon(&valid, 100, buf, 100 + 16), DPSEL_OK);
}

/* --------------------------------------------------------- random sources */

static int constant_bit(void *context, unsigned *bit)
{
    *bit = *(const unsigned *)context;
    return 0;
}

Test(api_errors, rng_init)
{
    unsigned char seed[65] = { 0 };
    unsigned one = 1;
    EXPECT_REFUSED("os: NULL rng", DPSEL_ENULL, dpsel_rng_init_os(NULL));
    EXPECT_REFUSED("seeded: NULL rng", DPSEL_ENULL, dpsel_rng_init_seeded(NULL, seed, 1));
    EXPECT_REFUSED("seeded: NULL seed", DPSEL_ENULL, dpsel_rng_init_seeded(&o->rng, NULL, 1));
    EXPECT_REFUSED("seeded: 0 bytes", DPSEL_ERANGE, dpsel_rng_init_seeded(&o->rng, seed, 0));
    EXPECT_REFUSED("seeded: 65 bytes", DPSEL_ERANGE, dpsel_rng_init_seeded(&o->rng, seed, 65));
    EXPECT_REFUSED("seeded: SIZE_MAX bytes", DPSEL_ERANGE,
                   dpsel_rng_init_seeded(&o->rng, seed, SIZE_MAX));
    EXPECT_REFUSED("custom: NULL rng", DPSEL_ENULL, dpsel_rng_init_custom(NULL, constant_bit, &one));
    EXPECT_REFUSED("custom: NULL function", DPSEL_ENULL, dpsel_rng_init_custom(&o->rng, NULL, &one));
    EXPECT_REFUSED("interrupt: NULL rng", DPSEL_ENULL, dpsel_rng_set_interrupt(NULL, NULL, NULL));
    dpsel_rng_wipe(NULL);  /* documented safe */
}

/* ---------------------------------------------------------------- selectors */

Test(api_errors, selector_new)
{
    dpsel_params valid = spoiled(SPOIL_NONE);
    EXPECT_REFUSED("NULL out", DPSEL_ENULL, dpsel_selector_new(NULL, &valid));
    EXPECT_REFUSED("NULL params", DPSEL_ENULL, dpsel_selector_new(&o->selector, NULL));
    for (spoil how = SPOIL_X_EVEN; how < SPOIL_COUNT; how++) {
        dpsel_params p = spoiled(how);
        EXPECT_REFUSED(spoil_names[how], DPSEL_ERANGE, dpsel_selector_new(&o->selector, &p));
    }
    dpsel_selector_free(NULL);  /* documented safe */
}

/* A source that fails at its k-th bit (k >= 1). */
typedef struct {
    unsigned long k;
    unsigned long calls;
} failing_at;

static int fail_at_kth_bit(void *context, unsigned *bit)
{
    failing_at *f = context;
    f->calls++;
    *bit = (unsigned)(f->calls % 2);
    return f->calls >= f->k;
}

typedef enum { SOURCE_SEEDED, SOURCE_FAIL_AT_FIRST, SOURCE_ALWAYS_ONE, SOURCE_WIPED } source;

typedef struct {
    const char *name;
    int null_selector, null_scores, null_rng, null_index;
    int mechanism;
    size_t n;
    source rng;
    int expected;
} select_case;

/* Sizes the library must refuse before touching the scores: beyond 2^62,
 * or (PF) scratch memory of n words that cannot exist. */
#define TOO_MANY (((size_t)1 << 62) + 1)
#define NO_MEMORY_FOR ((size_t)1 << 58)

static const select_case select_cases[] = {
    { "NULL selector", 1, 0, 0, 0, DPSEL_PF, 3, SOURCE_SEEDED, DPSEL_ENULL },
    { "NULL scores", 0, 1, 0, 0, DPSEL_PF, 3, SOURCE_SEEDED, DPSEL_ENULL },
    { "NULL rng", 0, 0, 1, 0, DPSEL_EM, 3, SOURCE_SEEDED, DPSEL_ENULL },
    { "NULL index", 0, 0, 0, 1, DPSEL_EM, 3, SOURCE_SEEDED, DPSEL_ENULL },
    { "NULL scores and n = 0", 0, 1, 0, 0, DPSEL_PF, 0, SOURCE_SEEDED, DPSEL_ENULL },
    { "n = 0, PF", 0, 0, 0, 0, DPSEL_PF, 0, SOURCE_SEEDED, DPSEL_EEMPTY },
    { "n = 0, EM", 0, 0, 0, 0, DPSEL_EM, 0, SOURCE_SEEDED, DPSEL_EEMPTY },
    { "n = 2^62 + 1, PF", 0, 0, 0, 0, DPSEL_PF, TOO_MANY, SOURCE_SEEDED, DPSEL_ERANGE },
    { "n = SIZE_MAX, EM", 0, 0, 0, 0, DPSEL_EM, SIZE_MAX, SOURCE_SEEDED, DPSEL_ERANGE },
    { "mechanism 2", 0, 0, 0, 0, 2, 3, SOURCE_SEEDED, DPSEL_ERANGE },
    { "mechanism -1", 0, 0, 0, 0, -1, 3, SOURCE_SEEDED, DPSEL_ERANGE },
    { "source fails at the first bit, PF", 0, 0, 0, 0, DPSEL_PF, 3, SOURCE_FAIL_AT_FIRST,
      DPSEL_ERANDOM },
    { "source fails at the first bit, EM", 0, 0, 0, 0, DPSEL_EM, 3, SOURCE_FAIL_AT_FIRST,
      DPSEL_ERANDOM },
    { "wiped source", 0, 0, 0, 0, DPSEL_PF, 3, SOURCE_WIPED, DPSEL_ERANDOM },
    /* all ones: a uniform draw among 3 is rejected forever */
    { "source always 1, PF", 0, 0, 0, 0, DPSEL_PF, 3, SOURCE_ALWAYS_ONE, DPSEL_EUNLIKELY },
    { "source always 1, EM", 0, 0, 0, 0, DPSEL_EM, 3, SOURCE_ALWAYS_ONE, DPSEL_EUNLIKELY },
};

static void init_source(dpsel_rng *rng, source kind, failing_at *failing, unsigned *one)
{
    const unsigned char seed[] = { 7 };
    switch (kind) {
    case SOURCE_FAIL_AT_FIRST:
        cr_assert_eq(dpsel_rng_init_custom(rng, fail_at_kth_bit, failing), DPSEL_OK);
        break;
    case SOURCE_ALWAYS_ONE:
        cr_assert_eq(dpsel_rng_init_custom(rng, constant_bit, one), DPSEL_OK);
        break;
    default:
        cr_assert_eq(dpsel_rng_init_seeded(rng, seed, sizeof seed), DPSEL_OK);
        if (kind == SOURCE_WIPED) {
            dpsel_rng_wipe(rng);
        }
    }
}

Test(api_errors, select)
{
    dpsel_params p = base_params(1, 1, 1, 0);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    const int64_t scores[] = { 5, 5, 4 };
    for (size_t i = 0; i < N_OF(select_cases); i++) {
        const select_case *c = &select_cases[i];
        dpsel_rng rng;
        failing_at failing = { 1, 0 };
        unsigned one = 1;
        init_source(&rng, c->rng, &failing, &one);
        EXPECT_REFUSED(c->name, c->expected,
                       dpsel_select(c->null_selector ? NULL : selector, (dpsel_mechanism)c->mechanism,
                                    c->null_scores ? NULL : scores, c->n, c->null_rng ? NULL : &rng,
                                    c->null_index ? NULL : &o->index));
        dpsel_rng_wipe(&rng);
    }
    dpsel_selector_free(selector);
}

/* PF permutes (and needs n words of scratch) when the race does not apply:
 * at beta = 1/2 with cap 1, the top power beta is not below 1/2. */
Test(api_errors, select_scratch_too_large)
{
    dpsel_params p = base_params(1, 1, 1, 0);
    cr_assert_eq(dpsel_params_set_gap_cap(&p, 1), DPSEL_OK);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    const int64_t scores[] = { 5, 5, 4 };
    dpsel_rng rng;
    cr_assert_eq(dpsel_rng_init_seeded(&rng, (const unsigned char *)"7", 1), DPSEL_OK);
    EXPECT_REFUSED("n words of scratch do not fit in memory", DPSEL_ENOMEM,
                   dpsel_select(selector, DPSEL_PF, scores, NO_MEMORY_FOR, &rng, &o->index));
    dpsel_rng_wipe(&rng);
    dpsel_selector_free(selector);
}

/* A source failing at its k-th bit, for every k up to the number of bits a
 * successful selection used: DPSEL_ERANDOM, index untouched, no leak. */
Test(api_errors, select_source_fails_at_the_kth_bit)
{
    dpsel_params p = base_params(3, 2, 1, 0);  /* beta = 3/4: several coins */
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    const int64_t scores[] = { 9, 2, 9, 7, 8 };
    for (int m = DPSEL_PF; m <= DPSEL_EM; m++) {
        unsigned long k = 1;
        int rc;
        do {
            failing_at failing = { k, 0 };
            dpsel_rng rng;
            cr_assert_eq(dpsel_rng_init_custom(&rng, fail_at_kth_bit, &failing), DPSEL_OK);
            size_t index = (size_t)-1;
            rc = dpsel_select(selector, (dpsel_mechanism)m, scores, N_OF(scores), &rng, &index);
            if (rc == DPSEL_OK) {
                cr_expect_lt(index, N_OF(scores));
                cr_expect_lt(failing.calls, k, "succeeded after the failing bit");
            } else {
                cr_expect_eq(rc, DPSEL_ERANDOM, "mechanism %d, k = %lu: %s", m, k,
                             dpsel_strerror(rc));
                cr_expect_eq(failing.calls, k, "asked for bits after a failure");
                cr_expect_eq(index, (size_t)-1, "index written on failure");
            }
            k++;
        } while (rc != DPSEL_OK && k < 10000);
        cr_expect_gt(k, 3, "mechanism %d used fewer bits than expected", m);
        cr_expect_eq(rc, DPSEL_OK);
    }
    dpsel_selector_free(selector);
}

/* The int64 extremes together: the gap 2^64 - 1 is exact and clamped. */
Test(api_errors, int64_extremes_together)
{
    dpsel_params p = base_params(1, 1, 1, 0);  /* default gap cap 64 */
    const int64_t scores[] = { INT64_MIN, INT64_MAX };
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    const unsigned char seed[] = { 1 };
    dpsel_rng rng;
    cr_assert_eq(dpsel_rng_init_seeded(&rng, seed, sizeof seed), DPSEL_OK);
    for (int m = DPSEL_PF; m <= DPSEL_EM; m++) {
        size_t index = 99;
        cr_expect_eq(dpsel_select(selector, (dpsel_mechanism)m, scores, 2, &rng, &index), DPSEL_OK);
        cr_expect_lt(index, 2);
    }
    /* EM: P(min) = 2^-64 / (1 + 2^-64); expected error P(min) (2^64 - 1) */
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_EM, scores, 2), DPSEL_OK);
    char *text = NULL;
    cr_assert_eq(dpsel_pmf_probability(pmf, 0, DPSEL_RATIONAL, &text), DPSEL_OK);
    cr_expect_str_eq(text, "1/18446744073709551617");
    dpsel_string_free(text);
    cr_assert_eq(dpsel_pmf_expected_error(pmf, DPSEL_RATIONAL, &text), DPSEL_OK);
    cr_expect_str_eq(text, "18446744073709551615/18446744073709551617");
    dpsel_string_free(text);
    dpsel_pmf_free(pmf);
    dpsel_rng_wipe(&rng);
    dpsel_selector_free(selector);
}

/* ---------------------------------------------------------- exact pmf */

typedef struct {
    const char *name;
    int null_out, null_params, null_scores;
    spoil params;
    int mechanism;
    size_t n;
    int expected;
} pmf_case;

static const pmf_case pmf_cases[] = {
    { "NULL out", 1, 0, 0, SPOIL_NONE, DPSEL_PF, 3, DPSEL_ENULL },
    { "NULL params", 0, 1, 0, SPOIL_NONE, DPSEL_PF, 3, DPSEL_ENULL },
    { "NULL scores", 0, 0, 1, SPOIL_NONE, DPSEL_EM, 3, DPSEL_ENULL },
    { "n = 0", 0, 0, 0, SPOIL_NONE, DPSEL_PF, 0, DPSEL_EEMPTY },
    { "n = 0 and bad params", 0, 0, 0, SPOIL_Y_ZERO, DPSEL_PF, 0, DPSEL_EEMPTY },
    { "n = 2^62 + 1", 0, 0, 0, SPOIL_NONE, DPSEL_EM, TOO_MANY, DPSEL_ERANGE },
    { "n words do not fit in memory", 0, 0, 0, SPOIL_NONE, DPSEL_EM, NO_MEMORY_FOR, DPSEL_ENOMEM },
    { "mechanism 2", 0, 0, 0, SPOIL_NONE, 2, 3, DPSEL_ERANGE },
    { "mechanism INT_MIN", 0, 0, 0, SPOIL_NONE, INT_MIN, 3, DPSEL_ERANGE },
};

Test(api_errors, pmf_new)
{
    const int64_t scores[] = { 1, 0, -1 };
    for (size_t i = 0; i < N_OF(pmf_cases); i++) {
        const pmf_case *c = &pmf_cases[i];
        dpsel_params p = spoiled(c->params);
        EXPECT_REFUSED(c->name, c->expected,
                       dpsel_pmf_new(c->null_out ? NULL : &o->pmf, c->null_params ? NULL : &p,
                                     (dpsel_mechanism)c->mechanism,
                                     c->null_scores ? NULL : scores, c->n));
    }
    for (spoil how = SPOIL_X_EVEN; how < SPOIL_COUNT; how++) {
        dpsel_params p = spoiled(how);
        EXPECT_REFUSED(spoil_names[how], DPSEL_ERANGE,
                       dpsel_pmf_new(&o->pmf, &p, DPSEL_PF, scores, 3));
    }
    dpsel_pmf_free(NULL);  /* documented safe */
}

/* Beyond the documented size limits: PF over more than 32768 candidates is
 * refused (DPSEL_ETOOLARGE, nothing allocated); a pmf too large for exact
 * rationals gives decimals, and DPSEL_ETOOLARGE for a rational. */
Test(api_errors, pmf_too_large)
{
    static int64_t many[32769];    /* PF past 2^15: by quadrature */
    dpsel_params half = base_params(1, 1, 1, 0);
    dpsel_pmf *large = NULL;
    cr_expect_eq(dpsel_pmf_new(&large, &half, DPSEL_PF, many, N_OF(many)), DPSEL_OK);
    dpsel_pmf_free(large);
    dpsel_params p = base_params(UINT64_MAX, 64, 1, 0);  /* gap cap 2^20 */
    int64_t scores[100];
    for (size_t i = 0; i < N_OF(scores); i++) {
        scores[i] = -(int64_t)(i << 13);  /* 100 levels, gaps up to 99 * 2^13 */
    }
    for (int m = DPSEL_PF; m <= DPSEL_EM; m++) {
        dpsel_pmf *pmf = NULL;
        cr_assert_eq(dpsel_pmf_new(&pmf, &p, (dpsel_mechanism)m, scores, N_OF(scores)), DPSEL_OK);
        EXPECT_REFUSED(m == DPSEL_PF ? "PF: no exact rational" : "EM: no exact rational",
                       DPSEL_ETOOLARGE, dpsel_pmf_probability(pmf, 1, DPSEL_RATIONAL, &o->string));
        EXPECT_REFUSED(m == DPSEL_PF ? "PF: no exact expected error" : "EM: no exact expected error",
                       DPSEL_ETOOLARGE, dpsel_pmf_expected_error(pmf, DPSEL_RATIONAL, &o->string));
        char *text = NULL;
        cr_expect_eq(dpsel_pmf_probability(pmf, 1, DPSEL_DECIMAL, &text), DPSEL_OK);
        dpsel_string_free(text);
        dpsel_pmf_free(pmf);
    }
}

Test(api_errors, pmf_strings)
{
    dpsel_params p = base_params(1, 1, 1, 0);
    const int64_t scores[] = { 1, 0, -1 };
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_PF, scores, 3), DPSEL_OK);
    EXPECT_REFUSED("probability: NULL pmf", DPSEL_ENULL,
                   dpsel_pmf_probability(NULL, 0, DPSEL_DECIMAL, &o->string));
    EXPECT_REFUSED("probability: NULL out", DPSEL_ENULL,
                   dpsel_pmf_probability(pmf, 0, DPSEL_DECIMAL, NULL));
    EXPECT_REFUSED("probability: r = n", DPSEL_ERANGE,
                   dpsel_pmf_probability(pmf, 3, DPSEL_DECIMAL, &o->string));
    EXPECT_REFUSED("probability: r = SIZE_MAX", DPSEL_ERANGE,
                   dpsel_pmf_probability(pmf, SIZE_MAX, DPSEL_RATIONAL, &o->string));
    EXPECT_REFUSED("probability: format 2", DPSEL_ERANGE,
                   dpsel_pmf_probability(pmf, 0, (dpsel_format)2, &o->string));
    EXPECT_REFUSED("probability: format -1", DPSEL_ERANGE,
                   dpsel_pmf_probability(pmf, 0, (dpsel_format)-1, &o->string));
    EXPECT_REFUSED("expected error: NULL pmf", DPSEL_ENULL,
                   dpsel_pmf_expected_error(NULL, DPSEL_RATIONAL, &o->string));
    EXPECT_REFUSED("expected error: NULL out", DPSEL_ENULL,
                   dpsel_pmf_expected_error(pmf, DPSEL_RATIONAL, NULL));
    EXPECT_REFUSED("expected error: format 2", DPSEL_ERANGE,
                   dpsel_pmf_expected_error(pmf, (dpsel_format)2, &o->string));
    EXPECT_REFUSED("bounds: NULL pmf", DPSEL_ENULL,
                   dpsel_pmf_probability_bounds(NULL, 0, 17, &o->string, &o->string2));
    EXPECT_REFUSED("bounds: NULL lo", DPSEL_ENULL,
                   dpsel_pmf_probability_bounds(pmf, 0, 17, NULL, &o->string2));
    EXPECT_REFUSED("bounds: NULL hi", DPSEL_ENULL,
                   dpsel_pmf_probability_bounds(pmf, 0, 17, &o->string, NULL));
    EXPECT_REFUSED("bounds: r = n", DPSEL_ERANGE,
                   dpsel_pmf_probability_bounds(pmf, 3, 17, &o->string, &o->string2));
    EXPECT_REFUSED("bounds: 0 digits", DPSEL_ERANGE,
                   dpsel_pmf_probability_bounds(pmf, 0, 0, &o->string, &o->string2));
    EXPECT_REFUSED("bounds: 101 digits", DPSEL_ERANGE,
                   dpsel_pmf_probability_bounds(pmf, 0, 101, &o->string, &o->string2));
    EXPECT_REFUSED("error bounds: NULL pmf", DPSEL_ENULL,
                   dpsel_pmf_expected_error_bounds(NULL, 17, &o->string, &o->string2));
    EXPECT_REFUSED("error bounds: NULL hi", DPSEL_ENULL,
                   dpsel_pmf_expected_error_bounds(pmf, 17, &o->string, NULL));
    EXPECT_REFUSED("error bounds: 101 digits", DPSEL_ERANGE,
                   dpsel_pmf_expected_error_bounds(pmf, 101, &o->string, &o->string2));
    dpsel_pmf_free(pmf);
    dpsel_string_free(NULL);  /* documented safe */
}

/* The expected error in the unit of decimal scores: every bad unit, format,
 * digits count and NULL, for the decimal and for the bounds. */
typedef struct {
    const char *name;
    int null_pmf;
    const char *unit;
    int null_out;       /* the decimal's out, the bounds' lo */
    int null_hi;        /* the bounds' hi */
    int format;         /* the decimal's */
    unsigned digits;    /* the bounds' */
    int expected;
} units_error_case;

static const units_error_case units_error_cases[] = {
    { "NULL pmf", 1, "0.001", 0, 0, DPSEL_DECIMAL, 17, DPSEL_ENULL },
    { "NULL unit", 0, NULL, 0, 0, DPSEL_DECIMAL, 17, DPSEL_ENULL },
    { "NULL out (lo)", 0, "0.001", 1, 0, DPSEL_DECIMAL, 17, DPSEL_ENULL },
    { "NULL pmf and a bad unit", 1, "x", 0, 0, DPSEL_DECIMAL, 17, DPSEL_ENULL },
    { "NULL unit and a bad format", 0, NULL, 0, 0, 2, 0, DPSEL_ENULL },
    { "unit empty", 0, "", 0, 0, DPSEL_DECIMAL, 17, DPSEL_EDECIMAL },
    { "unit with an exponent", 0, "1e-3", 0, 0, DPSEL_DECIMAL, 17, DPSEL_EDECIMAL },
    { "unit with a point alone", 0, "1.", 0, 0, DPSEL_RATIONAL, 17, DPSEL_EDECIMAL },
    { "unit with a leading point", 0, ".5", 0, 0, DPSEL_DECIMAL, 17, DPSEL_EDECIMAL },
    { "unit with a space", 0, " 0.1", 0, 0, DPSEL_DECIMAL, 17, DPSEL_EDECIMAL },
    { "unit a fraction", 0, "1/4", 0, 0, DPSEL_DECIMAL, 17, DPSEL_EDECIMAL },
    { "unit 0", 0, "0", 0, 0, DPSEL_DECIMAL, 17, DPSEL_ERANGE },
    { "unit 0.000", 0, "0.000", 0, 0, DPSEL_RATIONAL, 17, DPSEL_ERANGE },
    { "unit -0", 0, "-0", 0, 0, DPSEL_DECIMAL, 17, DPSEL_ERANGE },
    { "unit negative", 0, "-0.25", 0, 0, DPSEL_DECIMAL, 17, DPSEL_ERANGE },
};

Test(api_errors, pmf_expected_error_in_units)
{
    dpsel_params p = base_params(1, 1, 1, 0);
    const int64_t scores[] = { 1, 0, -1 };
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, &p, DPSEL_PF, scores, 3), DPSEL_OK);
    for (size_t i = 0; i < N_OF(units_error_cases); i++) {
        const units_error_case *c = &units_error_cases[i];
        const dpsel_pmf *given = c->null_pmf ? NULL : pmf;
        EXPECT_REFUSED(c->name, c->expected,
                       dpsel_pmf_expected_error_in_units(given, c->unit, (dpsel_format)c->format,
                                                         c->null_out ? NULL : &o->string));
        EXPECT_REFUSED(c->name, c->expected,
                       dpsel_pmf_expected_error_bounds_in_units(given, c->unit, c->digits,
                                                                c->null_out ? NULL : &o->string,
                                                                &o->string2));
    }
    EXPECT_REFUSED("format 2", DPSEL_ERANGE,
                   dpsel_pmf_expected_error_in_units(pmf, "0.001", (dpsel_format)2, &o->string));
    EXPECT_REFUSED("format -1", DPSEL_ERANGE,
                   dpsel_pmf_expected_error_in_units(pmf, "1", (dpsel_format)-1, &o->string));
    EXPECT_REFUSED("bounds: NULL hi", DPSEL_ENULL,
                   dpsel_pmf_expected_error_bounds_in_units(pmf, "0.001", 17, &o->string, NULL));
    EXPECT_REFUSED("bounds: 0 digits", DPSEL_ERANGE,
                   dpsel_pmf_expected_error_bounds_in_units(pmf, "0.001", 0, &o->string,
                                                            &o->string2));
    EXPECT_REFUSED("bounds: 101 digits", DPSEL_ERANGE,
                   dpsel_pmf_expected_error_bounds_in_units(pmf, "0.001", 101, &o->string,
                                                            &o->string2));
    /* a unit one character longer than DPSEL_DECIMAL_TEXT_MAX */
    char unit[DPSEL_DECIMAL_TEXT_MAX + 2];
    memset(unit, '0', sizeof unit - 1);
    unit[1] = '.';
    unit[sizeof unit - 2] = '1';
    unit[sizeof unit - 1] = '\0';
    EXPECT_REFUSED("unit too long", DPSEL_EDECIMAL,
                   dpsel_pmf_expected_error_in_units(pmf, unit, DPSEL_DECIMAL, &o->string));
    EXPECT_REFUSED("bounds: unit too long", DPSEL_EDECIMAL,
                   dpsel_pmf_expected_error_bounds_in_units(pmf, unit, 17, &o->string,
                                                            &o->string2));
    unit[sizeof unit - 2] = '\0';  /* DPSEL_DECIMAL_TEXT_MAX characters: accepted */
    unit[sizeof unit - 3] = '1';
    char *text = NULL;
    cr_expect_eq(dpsel_pmf_expected_error_in_units(pmf, unit, DPSEL_RATIONAL, &text), DPSEL_OK);
    dpsel_string_free(text);
    dpsel_pmf_free(pmf);
}

/* ------------------------------------------------------------ histogram tasks */

Test(api_errors, task_scores_and_params)
{
    const int64_t counts[] = { 3, 4 };
    const int64_t negative[] = { 3, -1 };
    const int64_t overflowing[] = { INT64_MAX, 1 };
    EXPECT_REFUSED("scores: NULL counts", DPSEL_ENULL,
                   dpsel_task_scores(DPSEL_TASK_MODE, NULL, 2, o->scores));
    EXPECT_REFUSED("scores: NULL scores", DPSEL_ENULL,
                   dpsel_task_scores(DPSEL_TASK_MODE, counts, 2, NULL));
    EXPECT_REFUSED("scores: n = 0", DPSEL_EEMPTY,
                   dpsel_task_scores(DPSEL_TASK_MEDIAN, counts, 0, o->scores));
    EXPECT_REFUSED("scores: task 2", DPSEL_ERANGE,
                   dpsel_task_scores((dpsel_task)2, counts, 2, o->scores));
    EXPECT_REFUSED("scores: a negative count, mode", DPSEL_ERANGE,
                   dpsel_task_scores(DPSEL_TASK_MODE, negative, 2, o->scores));
    EXPECT_REFUSED("scores: a negative count, median", DPSEL_ERANGE,
                   dpsel_task_scores(DPSEL_TASK_MEDIAN, negative, 2, o->scores));
    EXPECT_REFUSED("scores: total above INT64_MAX", DPSEL_ERANGE,
                   dpsel_task_scores(DPSEL_TASK_MEDIAN, overflowing, 2, o->scores));
    EXPECT_REFUSED("params: NULL sensitivity", DPSEL_ENULL,
                   dpsel_task_params(DPSEL_TASK_MODE, NULL, &o->monotonic));
    EXPECT_REFUSED("params: NULL monotonic", DPSEL_ENULL,
                   dpsel_task_params(DPSEL_TASK_MODE, &o->sensitivity, NULL));
    EXPECT_REFUSED("params: task -1", DPSEL_ERANGE,
                   dpsel_task_params((dpsel_task)-1, &o->sensitivity, &o->monotonic));
}

/* ------------------------------------------------------------ decimal scores */

typedef struct {
    const char *name;
    const char *text, *unit;
    int expected;
} units_case;

static const units_case units_cases[] = {
    { "NULL text", NULL, "1", DPSEL_ENULL },
    { "NULL unit", "1", NULL, DPSEL_ENULL },
    { "empty", "", "1", DPSEL_EDECIMAL },
    { "a point and no fraction", "1.", "1", DPSEL_EDECIMAL },
    { "no whole part", ".5", "0.5", DPSEL_EDECIMAL },
    { "an exponent", "1e3", "1", DPSEL_EDECIMAL },
    { "a space before", " 1", "1", DPSEL_EDECIMAL },
    { "a space after", "1 ", "1", DPSEL_EDECIMAL },
    { "two signs", "--1", "1", DPSEL_EDECIMAL },
    { "a sign alone", "-", "1", DPSEL_EDECIMAL },
    { "hexadecimal", "0x10", "1", DPSEL_EDECIMAL },
    { "a decimal comma", "1,5", "0.5", DPSEL_EDECIMAL },
    { "nan", "nan", "1", DPSEL_EDECIMAL },
    { "inf", "inf", "1", DPSEL_EDECIMAL },
    { "two points", "1.2.3", "0.1", DPSEL_EDECIMAL },
    { "a malformed unit", "1", "1e-3", DPSEL_EDECIMAL },
    { "unit 0", "1", "0.000", DPSEL_ERANGE },
    { "a negative unit", "1", "-0.5", DPSEL_ERANGE },
    { "finer than the unit", "0.12345", "0.001", DPSEL_EUNIT },
    { "not a multiple of 0.3", "1", "0.3", DPSEL_EUNIT },
    { "above INT64_MAX", "9223372036854775808", "1", DPSEL_ERANGE },
    { "below INT64_MIN", "-9223372036854775809", "1", DPSEL_ERANGE },
    { "above INT64_MAX in units", "0.9223372036854775808", "0.0000000000000000001",
      DPSEL_ERANGE },
};

Test(api_errors, decimal_to_units)
{
    for (size_t i = 0; i < N_OF(units_cases); i++) {
        const units_case *c = &units_cases[i];
        EXPECT_REFUSED(c->name, c->expected, dpsel_decimal_to_units(c->text, c->unit, o->scores));
    }
    EXPECT_REFUSED("NULL out", DPSEL_ENULL, dpsel_decimal_to_units("1", "1", NULL));
}

/* The longest text read is DPSEL_DECIMAL_TEXT_MAX characters, sign included. */
Test(api_errors, decimal_to_units_length_limit)
{
    char text[DPSEL_DECIMAL_TEXT_MAX + 2];
    memset(text, '0', sizeof text);
    text[0] = '-';
    text[DPSEL_DECIMAL_TEXT_MAX - 1] = '7';
    text[DPSEL_DECIMAL_TEXT_MAX] = '\0';
    int64_t value = 0;
    cr_expect_eq(dpsel_decimal_to_units(text, "1", &value), DPSEL_OK);
    cr_expect_eq(value, -7);
    memmove(text + 1, text, DPSEL_DECIMAL_TEXT_MAX + 1);  /* one more '-'-led zero */
    text[1] = '0';
    EXPECT_REFUSED("one character too long", DPSEL_EDECIMAL,
                   dpsel_decimal_to_units(text, "1", o->scores));
}

/* --------------------------------------------------------------- quantiles */

typedef struct {
    const char *name;
    const char *lower, *upper, *resolution;
    int expected;
} grid_case;

static const grid_case grid_cases[] = {
    { "NULL lower", NULL, "1", NULL, DPSEL_ENULL },
    { "NULL upper", "0", NULL, "1", DPSEL_ENULL },
    { "a malformed lower", "1e3", "2000", NULL, DPSEL_EDECIMAL },
    { "a malformed upper", "0", "12 ", NULL, DPSEL_EDECIMAL },
    { "a malformed resolution", "0", "1", ".5", DPSEL_EDECIMAL },
    { "resolution 0", "0", "1", "0", DPSEL_ERANGE },
    { "a negative resolution", "0", "1", "-1", DPSEL_ERANGE },
    { "lower above upper", "2", "1", NULL, DPSEL_ERANGE },
    { "lower not a multiple", "0.5", "10", "1", DPSEL_EUNIT },
    { "upper not a multiple", "0", "10.25", "0.5", DPSEL_EUNIT },
    { "upper beyond 2^63 units", "0", "9223372036854775808", NULL, DPSEL_ERANGE },
    { "upper beyond 2^63 units of 0.5", "0", "4611686018427387904", "0.5", DPSEL_ERANGE },
};

Test(api_errors, grid_init)
{
    for (size_t i = 0; i < N_OF(grid_cases); i++) {
        const grid_case *c = &grid_cases[i];
        EXPECT_REFUSED(c->name, c->expected,
                       dpsel_grid_init(&o->grid, c->lower, c->upper, c->resolution));
    }
    EXPECT_REFUSED("NULL grid", DPSEL_ENULL, dpsel_grid_init(NULL, "0", "1", NULL));
}

Test(api_errors, grid_points)
{
    dpsel_grid grid, inverted;
    cr_assert_eq(dpsel_grid_init(&grid, "0", "10", "0.5"), DPSEL_OK);
    inverted = grid;
    inverted.lower = 21;
    static const char *const bad[] = { "1", "x", "2" };
    EXPECT_REFUSED("NULL grid", DPSEL_ENULL, dpsel_grid_point(NULL, "1", o->scores));
    EXPECT_REFUSED("NULL value", DPSEL_ENULL, dpsel_grid_point(&grid, NULL, o->scores));
    EXPECT_REFUSED("NULL point", DPSEL_ENULL, dpsel_grid_point(&grid, "1", NULL));
    EXPECT_REFUSED("a malformed value", DPSEL_EDECIMAL, dpsel_grid_point(&grid, "1.", o->scores));
    EXPECT_REFUSED("lower above upper", DPSEL_ERANGE, dpsel_grid_point(&inverted, "1", o->scores));
    EXPECT_REFUSED("points: NULL failed", DPSEL_ENULL,
                   dpsel_grid_points(&grid, bad, 1, o->scores, NULL));
    EXPECT_REFUSED("points: NULL values", DPSEL_ENULL,
                   dpsel_grid_points(&grid, NULL, 1, o->scores, &o->failed));
    EXPECT_REFUSED("points: NULL points", DPSEL_ENULL,
                   dpsel_grid_points(&grid, bad, 1, NULL, &o->failed));
    /* the second value fails: the first point is written, and its index */
    int64_t points[3] = { -1, -1, -1 };
    size_t failed = 99;
    cr_expect_eq(dpsel_grid_points(&grid, bad, 3, points, &failed), DPSEL_EDECIMAL);
    cr_expect(failed == 1 && points[0] == 2 && points[2] == -1);
}

typedef struct {
    const char *name, *q;
    int expected;
} fraction_case;

static const fraction_case fraction_cases[] = {
    { "NULL q", NULL, DPSEL_ENULL },
    { "malformed", "1/2", DPSEL_EDECIMAL },
    { "an exponent", "5e-1", DPSEL_EDECIMAL },
    { "0", "0.000", DPSEL_ERANGE },
    { "1", "1.0", DPSEL_ERANGE },
    { "above 1", "1.5", DPSEL_ERANGE },
    { "negative", "-0.5", DPSEL_ERANGE },
    { "19 fraction digits", "0.1234567890123456789", DPSEL_ERANGE },
};

Test(api_errors, quantile_fraction)
{
    for (size_t i = 0; i < N_OF(fraction_cases); i++) {
        const fraction_case *c = &fraction_cases[i];
        EXPECT_REFUSED(c->name, c->expected,
                       dpsel_quantile_fraction(c->q, &o->a, &o->b, &o->sensitivity));
    }
    EXPECT_REFUSED("NULL a", DPSEL_ENULL, dpsel_quantile_fraction("0.5", NULL, &o->b, &o->sensitivity));
    EXPECT_REFUSED("NULL b", DPSEL_ENULL, dpsel_quantile_fraction("0.5", &o->a, NULL, &o->sensitivity));
    EXPECT_REFUSED("NULL sensitivity", DPSEL_ENULL, dpsel_quantile_fraction("0.5", &o->a, &o->b, NULL));
}

typedef struct {
    const char *name;
    uint64_t a, b;
    int null_values;
    size_t m;
    int64_t lower, upper;
    int expected;
} runs_case;

static const runs_case runs_cases[] = {
    { "NULL values", 1, 2, 1, 1, 0, 10, DPSEL_ENULL },
    { "a = 0", 0, 2, 0, 2, 0, 10, DPSEL_ERANGE },
    { "a = b", 2, 2, 0, 2, 0, 10, DPSEL_ERANGE },
    { "a > b", 3, 2, 0, 2, 0, 10, DPSEL_ERANGE },
    { "not in lowest terms", 2, 4, 0, 2, 0, 10, DPSEL_ERANGE },
    { "b above 10^18", 1, 1000000000000000001u, 0, 2, 0, 10, DPSEL_ERANGE },
    { "lower above upper", 1, 2, 0, 2, 11, 10, DPSEL_ERANGE },
    { "2^62 + 1 points", 1, 2, 0, 2, 0, (int64_t)1 << 62, DPSEL_ERANGE },
    { "the whole int64 range", 1, 2, 0, 2, INT64_MIN, INT64_MAX, DPSEL_ERANGE },
};

Test(api_errors, quantile_runs)
{
    int64_t values[10] = { 0 };
    for (size_t i = 0; i < N_OF(runs_cases); i++) {
        const runs_case *c = &runs_cases[i];
        EXPECT_REFUSED(c->name, c->expected,
                       dpsel_quantile_runs_new(&o->runs, c->a, c->b,
                                               c->null_values ? NULL : values, c->m, c->lower,
                                               c->upper));
    }
    EXPECT_REFUSED("NULL out", DPSEL_ENULL, dpsel_quantile_runs_new(NULL, 1, 2, values, 1, 0, 1));
    dpsel_quantile_runs *runs = NULL;
    cr_assert_eq(dpsel_quantile_runs_new(&runs, 1, 2, values, 2, 0, 10), DPSEL_OK);
    EXPECT_REFUSED("get: NULL runs", DPSEL_ENULL,
                   dpsel_quantile_runs_get(NULL, 0, o->scores, &o->a, o->scores + 1));
    EXPECT_REFUSED("get: run out of range", DPSEL_ERANGE,
                   dpsel_quantile_runs_get(runs, 2, o->scores, &o->a, o->scores + 1));
    cr_expect_eq(dpsel_quantile_runs_count(NULL), 0);
    dpsel_quantile_runs_free(runs);
    dpsel_quantile_runs_free(NULL);
}

Test(api_errors, quantile_select)
{
    int64_t values[3] = { 1, 5, 9 };
    dpsel_params median, short_params, monotonic;
    cr_assert_eq(dpsel_params_from_epsilon(&median, "1", 3, 0), DPSEL_OK);  /* for q = 1/4 */
    cr_assert_eq(dpsel_params_from_epsilon(&short_params, "1", 2, 0), DPSEL_OK);
    cr_assert_eq(dpsel_params_from_epsilon(&monotonic, "1", 3, 1), DPSEL_OK);
    dpsel_selector *selector = NULL, *too_short = NULL, *too_monotonic = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &median), DPSEL_OK);
    cr_assert_eq(dpsel_selector_new(&too_short, &short_params), DPSEL_OK);
    cr_assert_eq(dpsel_selector_new(&too_monotonic, &monotonic), DPSEL_OK);
    dpsel_quantile_runs *runs = NULL;
    cr_assert_eq(dpsel_quantile_runs_new(&runs, 1, 4, values, 3, 0, 10), DPSEL_OK);
    dpsel_rng rng = seeded_rng(1);
    EXPECT_REFUSED("NULL selector", DPSEL_ENULL,
                   dpsel_quantile_select_runs(NULL, DPSEL_EM, runs, &rng, o->scores));
    EXPECT_REFUSED("NULL runs", DPSEL_ENULL,
                   dpsel_quantile_select_runs(selector, DPSEL_EM, NULL, &rng, o->scores));
    EXPECT_REFUSED("NULL rng", DPSEL_ENULL,
                   dpsel_quantile_select_runs(selector, DPSEL_EM, runs, NULL, o->scores));
    EXPECT_REFUSED("NULL value", DPSEL_ENULL,
                   dpsel_quantile_select_runs(selector, DPSEL_EM, runs, &rng, NULL));
    EXPECT_REFUSED("mechanism 2", DPSEL_ERANGE,
                   dpsel_quantile_select_runs(selector, (dpsel_mechanism)2, runs, &rng, o->scores));
    EXPECT_REFUSED("sensitivity below max(a, b - a)", DPSEL_ERANGE,
                   dpsel_quantile_select_runs(too_short, DPSEL_EM, runs, &rng, o->scores));
    EXPECT_REFUSED("monotonic parameters", DPSEL_ERANGE,
                   dpsel_quantile_select_runs(too_monotonic, DPSEL_PF, runs, &rng, o->scores));
    EXPECT_REFUSED("values: NULL values", DPSEL_ENULL,
                   dpsel_quantile_select(selector, DPSEL_EM, 1, 4, NULL, 3, 0, 10, &rng, o->scores));
    EXPECT_REFUSED("values: not in lowest terms", DPSEL_ERANGE,
                   dpsel_quantile_select(selector, DPSEL_EM, 2, 8, values, 3, 0, 10, &rng, o->scores));
    EXPECT_REFUSED("values: EM on 2^42 points", DPSEL_ERANGE,
                   dpsel_quantile_select(selector, DPSEL_EM, 1, 4, values, 3, 0,
                                         (int64_t)DPSEL_QUANTILE_EM_GRID_MAX, &rng, o->scores));
    /* a cap of 1 with beta >= 1/2, which the streamed race refused: PF over
     * runs takes any base and cap (spec/quantiles.md §7; its law is checked
     * in test_quantile.c) */
    dpsel_params coin;
    cr_assert_eq(dpsel_params_from_base(&coin, 3, 2, 3, 0), DPSEL_OK);
    cr_assert_eq(dpsel_params_set_gap_cap(&coin, 1), DPSEL_OK);
    dpsel_selector *no_race = NULL;
    cr_assert_eq(dpsel_selector_new(&no_race, &coin), DPSEL_OK);
    int64_t point = -1;
    cr_expect_eq(dpsel_quantile_select_runs(no_race, DPSEL_PF, runs, &rng, &point), DPSEL_OK);
    cr_expect(point >= 0 && point <= 10, "PF with a cap of 1: %ld off the grid", (long)point);
    dpsel_rng wiped = seeded_rng(2);
    dpsel_rng_wipe(&wiped);
    EXPECT_REFUSED("a wiped source, EM", DPSEL_ERANDOM,
                   dpsel_quantile_select_runs(selector, DPSEL_EM, runs, &wiped, o->scores));
    EXPECT_REFUSED("a wiped source, PF", DPSEL_ERANDOM,
                   dpsel_quantile_select_runs(selector, DPSEL_PF, runs, &wiped, o->scores));
    EXPECT_REFUSED("pmf: NULL out", DPSEL_ENULL, dpsel_quantile_pmf_new(NULL, &median, DPSEL_EM, runs));
    EXPECT_REFUSED("pmf: NULL params", DPSEL_ENULL, dpsel_quantile_pmf_new(&o->pmf, NULL, DPSEL_EM, runs));
    EXPECT_REFUSED("pmf: NULL runs", DPSEL_ENULL, dpsel_quantile_pmf_new(&o->pmf, &median, DPSEL_EM, NULL));
    EXPECT_REFUSED("pmf: sensitivity below max(a, b - a)", DPSEL_ERANGE,
                   dpsel_quantile_pmf_new(&o->pmf, &short_params, DPSEL_EM, runs));
    EXPECT_REFUSED("pmf: mechanism 2", DPSEL_ERANGE,
                   dpsel_quantile_pmf_new(&o->pmf, &median, (dpsel_mechanism)2, runs));
    dpsel_quantile_runs *wide = NULL;
    cr_assert_eq(dpsel_quantile_runs_new(&wide, 1, 4, values, 3, 0, 32768), DPSEL_OK);
    dpsel_pmf *large = NULL;           /* PF past 2^15 points: by quadrature */
    cr_expect_eq(dpsel_quantile_pmf_new(&large, &median, DPSEL_PF, wide), DPSEL_OK);
    dpsel_pmf_free(large);
    dpsel_quantile_runs_free(wide);
    dpsel_rng_wipe(&rng);
    dpsel_quantile_runs_free(runs);
    dpsel_selector_free(selector);
    dpsel_selector_free(too_short);
    dpsel_selector_free(too_monotonic);
    dpsel_selector_free(no_race);
}

Test(api_errors, pmf_new_grouped)
{
    dpsel_params p = base_params(1, 1, 1, 0);
    int64_t scores[2] = { 0, -1 };
    uint64_t zero[2] = { 1, 0 }, overflowing[2] = { (uint64_t)1 << 61, ((uint64_t)1 << 61) + 1 };
    EXPECT_REFUSED("NULL multiplicity", DPSEL_ENULL,
                   dpsel_pmf_new_grouped(&o->pmf, &p, DPSEL_EM, scores, NULL, 2));
    EXPECT_REFUSED("a multiplicity of 0", DPSEL_ERANGE,
                   dpsel_pmf_new_grouped(&o->pmf, &p, DPSEL_EM, scores, zero, 2));
    EXPECT_REFUSED("members above 2^62", DPSEL_ERANGE,
                   dpsel_pmf_new_grouped(&o->pmf, &p, DPSEL_EM, scores, overflowing, 2));
}

Test(api_errors, units_to_decimal)
{
    EXPECT_REFUSED("NULL unit", DPSEL_ENULL, dpsel_units_to_decimal(1, NULL, o->buf, sizeof o->buf));
    EXPECT_REFUSED("NULL buf", DPSEL_ENULL, dpsel_units_to_decimal(1, "1", NULL, 10));
    EXPECT_REFUSED("a malformed unit", DPSEL_EDECIMAL,
                   dpsel_units_to_decimal(1, "0.", o->buf, sizeof o->buf));
    EXPECT_REFUSED("unit 0", DPSEL_ERANGE, dpsel_units_to_decimal(1, "0.0", o->buf, sizeof o->buf));
    EXPECT_REFUSED("a buffer too small", DPSEL_ERANGE,
                   dpsel_units_to_decimal(-15, "0.25", o->buf, 5));  /* "-3.75" and a NUL */
    char fits[6];
    cr_expect_eq(dpsel_units_to_decimal(-15, "0.25", fits, sizeof fits), DPSEL_OK);
    cr_expect_str_eq(fits, "-3.75");
}

/* ------------------------------------------------------------- accountant */

Test(api_errors, accountant)
{
    dpsel_accountant *a = NULL;
    cr_assert_eq(dpsel_accountant_new(&a), DPSEL_OK);
    dpsel_params p = base_params(1, 1, 1, 0), invalid = p;
    invalid.y = 0;
    EXPECT_REFUSED("new: NULL out", DPSEL_ENULL, dpsel_accountant_new(NULL));
    EXPECT_REFUSED("report: no release", DPSEL_EEMPTY,
                   dpsel_accountant_report(a, NULL, DPSEL_ADAPTIVE, &o->account));
    static const struct {
        const char *name, *epsilon;
        int mechanism;
        uint64_t count;
        int expected;
    } adds[] = {
        { "NULL epsilon", NULL, DPSEL_EM, 1, DPSEL_ENULL },
        { "mechanism 3 (none: 2 is report noisy max)", "1", 3, 1, DPSEL_ERANGE },
        { "count 0", "1", DPSEL_EM, 0, DPSEL_ERANGE },
        { "count above 2^62", "1", DPSEL_PF, ((uint64_t)1 << 62) + 1, DPSEL_ERANGE },
        { "epsilon 0", "0", DPSEL_EM, 1, DPSEL_EEPSILON },
        { "epsilon 0e5", "0e5", DPSEL_EM, 1, DPSEL_EEPSILON },
        { "a negative epsilon", "-1", DPSEL_EM, 1, DPSEL_EEPSILON },
        { "a malformed epsilon", "1.2.3", DPSEL_PF, 1, DPSEL_EEPSILON },
        { "an empty epsilon", "", DPSEL_PF, 1, DPSEL_EEPSILON },
    };
    for (size_t i = 0; i < N_OF(adds); i++) {
        cr_expect_eq(dpsel_accountant_add(a, (dpsel_mechanism)adds[i].mechanism, adds[i].epsilon,
                                          adds[i].count), adds[i].expected, "add: %s", adds[i].name);
    }
    cr_expect_eq(dpsel_accountant_add(NULL, DPSEL_EM, "1", 1), DPSEL_ENULL);
    cr_expect_eq(dpsel_accountant_add_params(a, DPSEL_EM, NULL, 1), DPSEL_ENULL);
    cr_expect_eq(dpsel_accountant_add_params(a, DPSEL_EM, &invalid, 1), DPSEL_ERANGE);
    cr_expect_eq(dpsel_accountant_add_params(a, DPSEL_EM, &p, 0), DPSEL_ERANGE);
    cr_expect_eq(dpsel_accountant_add_params(NULL, DPSEL_EM, &p, 1), DPSEL_ENULL);
    /* nothing was added: still empty */
    EXPECT_REFUSED("report: still no release", DPSEL_EEMPTY,
                   dpsel_accountant_report(a, NULL, DPSEL_ADAPTIVE, &o->account));
    cr_assert_eq(dpsel_accountant_add(a, DPSEL_EM, "0.5", 3), DPSEL_OK);
    static const struct {
        const char *name, *delta;
        int composition, expected;
    } reports[] = {
        { "delta 0", "0", DPSEL_ADAPTIVE, DPSEL_ERANGE },
        { "delta 1", "1", DPSEL_ADAPTIVE, DPSEL_ERANGE },
        { "delta above 1", "2.5", DPSEL_NONADAPTIVE, DPSEL_ERANGE },
        { "a malformed delta", "1e-", DPSEL_ADAPTIVE, DPSEL_EEPSILON },
        { "a negative delta", "-1e-6", DPSEL_ADAPTIVE, DPSEL_EEPSILON },
        { "composition 2", "1e-6", 2, DPSEL_ERANGE },
    };
    for (size_t i = 0; i < N_OF(reports); i++) {
        EXPECT_REFUSED(reports[i].name, reports[i].expected,
                       dpsel_accountant_report(a, reports[i].delta,
                                               (dpsel_composition)reports[i].composition,
                                               &o->account));
    }
    EXPECT_REFUSED("report: NULL accountant", DPSEL_ENULL,
                   dpsel_accountant_report(NULL, NULL, DPSEL_ADAPTIVE, &o->account));
    cr_expect_eq(dpsel_accountant_report(a, NULL, DPSEL_ADAPTIVE, NULL), DPSEL_ENULL);
    dpsel_accountant_free(a);
    dpsel_accountant_free(NULL);
}

/* ------------------------------------------------------------- error names */

Test(api_errors, every_code_has_its_own_name)
{
    static const int codes[] = { DPSEL_OK, DPSEL_ENULL, DPSEL_EEMPTY, DPSEL_ERANGE,
                                 DPSEL_EEPSILON, DPSEL_ENOMEM, DPSEL_ERANDOM, DPSEL_EUNLIKELY,
                                 DPSEL_ETOOLARGE, DPSEL_EINEXACT, DPSEL_EINTERNAL,
                                 DPSEL_EDECIMAL, DPSEL_EUNIT, DPSEL_ESTATE, DPSEL_ECANCELED };
    const char *unknown = dpsel_strerror(1);
    cr_assert(unknown != NULL);
    cr_expect_str_eq(unknown, "unknown error");
    cr_expect_str_eq(dpsel_strerror(INT_MIN), unknown);
    cr_expect_str_eq(dpsel_strerror(INT_MAX), unknown);
    cr_expect_str_eq(dpsel_strerror(DPSEL_ECANCELED - 1), unknown);
    for (size_t i = 0; i < N_OF(codes); i++) {
        const char *name = dpsel_strerror(codes[i]);
        cr_assert(name != NULL);
        cr_expect_str_neq(name, unknown, "code %d", codes[i]);
        for (size_t j = 0; j < i; j++) {
            cr_expect_str_neq(name, dpsel_strerror(codes[j]), "codes %d and %d", codes[i], codes[j]);
        }
    }
}
