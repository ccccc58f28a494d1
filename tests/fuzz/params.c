/* SPDX-License-Identifier: ISC */
/* libFuzzer harness: the parameter parsers.  The input is a command line,
 * its arguments separated by NUL bytes.  Every argument is also tried as an
 * epsilon string: dpsel_params_from_epsilon must accept exactly the
 * documented syntax (checked here by an independent reading) with a value
 * large enough for some base, give a valid base whose realised epsilon is not
 * above the request, and leave its output untouched when it refuses.  A
 * command line the tool's option parser (src/cli/options.c) accepts is turned
 * into parameters as the tool does. */
#include <stdint.h>
#include <string.h>

#include <mpfr.h>  /* after stdint.h: the uintmax_t functions */

#include "fuzz.h"
#include "cli/options.h"

#define MAX_ARGS 32
#define EPSILON_TEXT_MAX 4095  /* documented in dpsel.h */
#define CHECK_PREC 256

/* The documented epsilon syntax: digits with an optional fraction and an
 * exponent of at most 9 digits, at least one mantissa digit.  *positive
 * receives whether some mantissa digit is non-zero. */
static int epsilon_syntax(const char *s, int *positive)
{
    size_t digits = 0;
    *positive = 0;
    const char *p = s;
    for (int part = 0; part < 2; part++) {
        for (; *p >= '0' && *p <= '9'; p++) {
            digits++;
            *positive |= *p != '0';
        }
        if (part == 0 && *p == '.') {
            p++;
        } else {
            break;
        }
    }
    if (digits == 0) {
        return 0;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        p += *p == '+' || *p == '-';
        size_t exponent_digits = strspn(p, "0123456789");
        if (exponent_digits == 0 || exponent_digits > 9) {
            return 0;
        }
        p += exponent_digits;
    }
    return *p == '\0' && strlen(s) <= EPSILON_TEXT_MAX;
}

/* A lower bound of the realised epsilon k D (y ln 2 - ln x). */
static void realised_lower(const dpsel_params *p, mpfr_t out)
{
    mpfr_t lnx, factor;
    mpfr_inits2(CHECK_PREC, lnx, factor, (mpfr_ptr)0);
    mpfr_const_log2(out, MPFR_RNDD);
    mpfr_mul_ui(out, out, p->y, MPFR_RNDD);
    mpfr_set_uj(lnx, p->x, MPFR_RNDN);
    mpfr_log(lnx, lnx, MPFR_RNDU);
    mpfr_sub(out, out, lnx, MPFR_RNDD);
    mpfr_set_uj(factor, p->sensitivity, MPFR_RNDN);
    mpfr_mul_ui(factor, factor, p->monotonic ? 1 : 2, MPFR_RNDN);
    mpfr_mul(out, out, factor, MPFR_RNDD);
    mpfr_clears(lnx, factor, (mpfr_ptr)0);
}

static void check_valid(const dpsel_params *p)
{
    FUZZ_CHECK(p->y >= 1 && p->y <= 64 && p->x >= 1 && (p->x & 1u) == 1u);
    FUZZ_CHECK(p->y == 64 || p->x < ((uint64_t)1 << p->y));
    FUZZ_CHECK(p->gap_cap >= 1 && p->gap_cap <= DPSEL_GAP_CAP_MAX);
    char text[17 + 16];
    FUZZ_CHECK(dpsel_params_epsilon(p, 17, text, sizeof text) == DPSEL_OK);
    FUZZ_CHECK(strlen(text) < sizeof text);
}

static void check_epsilon(const char *epsilon, uint64_t sensitivity, int monotonic)
{
    dpsel_params p, sentinel;
    memset(&p, 0x5a, sizeof p);
    sentinel = p;
    int rc = dpsel_params_from_epsilon(&p, epsilon, sensitivity, monotonic);
    int positive;
    int syntax = epsilon_syntax(epsilon, &positive);
    mpfr_t requested, realised;
    mpfr_inits2(CHECK_PREC, requested, realised, (mpfr_ptr)0);
    if (rc == DPSEL_OK) {
        FUZZ_CHECK(syntax && positive);
        check_valid(&p);
        FUZZ_CHECK(p.sensitivity == sensitivity && p.monotonic == monotonic);
        mpfr_strtofr(requested, epsilon, NULL, 10, MPFR_RNDU);
        realised_lower(&p, realised);
        FUZZ_CHECK(mpfr_cmp(realised, requested) <= 0);
    } else {
        FUZZ_CHECK(rc == DPSEL_EEPSILON);
        FUZZ_CHECK(memcmp(&p, &sentinel, sizeof p) == 0);
        if (syntax && positive) {
            /* refused as too small: below k D 2^-63, where beta would round to 1 */
            mpfr_strtofr(requested, epsilon, NULL, 10, MPFR_RNDD);
            mpfr_div_ui(requested, requested, (unsigned long)(monotonic ? 1 : 2), MPFR_RNDD);
            FUZZ_CHECK(mpfr_cmp_ui_2exp(requested, (unsigned long)sensitivity, -63) < 0);
        }
    }
    mpfr_clears(requested, realised, (mpfr_ptr)0);
    mpfr_free_cache();
}

/* As the tool: parameters from --base or --epsilon, then --gap-cap. */
static void check_options(const options *o)
{
    dpsel_params p;
    int rc = o->base_given
        ? dpsel_params_from_base(&p, o->base_x, o->base_y, o->sensitivity, o->monotonic)
        : dpsel_params_from_epsilon(&p, o->epsilon, o->sensitivity, o->monotonic);
    if (rc != DPSEL_OK) {
        FUZZ_CHECK(rc == (o->base_given ? DPSEL_ERANGE : DPSEL_EEPSILON));
        return;
    }
    if (o->gap_cap != 0) {
        FUZZ_CHECK(dpsel_params_set_gap_cap(&p, o->gap_cap) == DPSEL_OK);
    }
    check_valid(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* a NUL-terminated copy whose NULs split the arguments */
    char *text = malloc(size + 1);
    if (text == NULL) {
        return 0;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_ARGS + 2] = { "dpsel" };
    int argc = 1;
    for (size_t at = 0; at <= size && argc <= MAX_ARGS; at += strlen(text + at) + 1) {
        argv[argc++] = text + at;
    }
    argv[argc] = NULL;
    for (int i = 1; i < argc; i++) {
        check_epsilon(argv[i], (uint64_t)i, i % 2);
    }
    options o;
    cli_error error = { 0 };
    if (options_parse(argc, argv, &o, &error) == 0) {
        if (o.base_given || o.epsilon != NULL) {
            check_options(&o);
        }
    } else {
        FUZZ_CHECK(error.status == EXIT_BAD_INPUT && error.message[0] != '\0'
                   && strchr(error.message, '\n') == NULL);
    }
    free(text);
    return 0;
}
