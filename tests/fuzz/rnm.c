/* SPDX-License-Identifier: ISC */
/* libFuzzer harness: report noisy max's lazy comparison
 * (dpsel_core_rnm_beats) and dpsel_rnm_select on arbitrary inputs.
 * Input layout (missing bytes read as zero):
 *   byte 0      bits 0-1 the whole part T - (-2), bit 2 the sign of F_a,
 *               bit 3 the sign of F_b, bits 4-7 F_b's digits drawn before (4 a
 *               unit: 0 to 60)
 *   bytes 1-8   den = 1 + (little-endian value mod 2^63)
 *   bytes 9-16  rem = value mod den
 *   bytes 17-24 F_b's digits drawn before, from the most significant bit
 *   then bytes replayed bit by bit as the random source, then failure.
 * Checks: the comparison returns DPSEL_OK, DPSEL_ERANDOM or DPSEL_EUNLIKELY
 * and keeps both digit counts within 256; when it decides V > 0 (or < 0),
 * the comparison of -V (the same lazy uniforms, roles swapped: whole -T - 1
 * and remainder den - rem, or -T and 0) decides the opposite, drawing any
 * further digit from a seeded source.  Then dpsel_rnm_select on up to 8
 * scores of the input with a decimal epsilon from byte 0: an index below n
 * or a code, never a crash. */
#include <string.h>

#include "fuzz.h"
#include "dpsel.h"
#include "core/rnm.h"

static uint64_t read_word(const uint8_t *data, size_t size, size_t at)
{
    uint64_t value = 0;
    for (unsigned i = 0; i < 8; i++) {
        uint64_t byte = at + i < size ? data[at + i] : 0;
        value |= byte << (8 * i);
    }
    return value;
}

/* The comparison of -V: 1 - V's answer if it decides. */
static void check_swapped(int whole, uint64_t rem, uint64_t den, int a_positive, dpsel_urand *a,
                          int b_positive, dpsel_urand *b, int beats)
{
    int swapped_whole = rem == 0 ? -whole : -whole - 1;
    if (swapped_whole > 1) {
        return;  /* -V = 2 exactly at its integer part: outside the contract's range */
    }
    dpsel_rng rng;
    unsigned char seed = 40;
    FUZZ_CHECK(dpsel_rng_init_seeded(&rng, &seed, 1) == DPSEL_OK);
    int other = -1;
    int rc = dpsel_core_rnm_beats(&rng, swapped_whole, rem == 0 ? 0 : den - rem, den, b_positive,
                                  b, a_positive, a, &other);
    FUZZ_CHECK(rc == DPSEL_OK || rc == DPSEL_EUNLIKELY);
    FUZZ_CHECK(rc != DPSEL_OK || other == !beats);
    dpsel_rng_wipe(&rng);
}

static void check_comparison(const uint8_t *data, size_t size)
{
    unsigned head = size > 0 ? data[0] : 0;
    int whole = (int)(head & 3u) - 2;
    int a_positive = (int)(head >> 2 & 1u), b_positive = (int)(head >> 3 & 1u);
    uint64_t den = 1 + (read_word(data, size, 1) & (((uint64_t)1 << 63) - 1));
    uint64_t rem = read_word(data, size, 9) % den;
    dpsel_urand a, b;
    dpsel_core_urand_reset(&a);
    dpsel_core_urand_reset(&b);
    b.nbits = (head >> 4) * 4u;  /* 0 to 60 digits drawn before */
    b.words[0] = b.nbits == 0 ? 0 : read_word(data, size, 17) & ~(UINT64_MAX >> b.nbits);
    size_t rest = size > 25 ? size - 25 : 0;
    replay source = { data + 25, rest * 8, 0 };
    dpsel_rng rng;
    FUZZ_CHECK(dpsel_rng_init_custom(&rng, replay_bit, &source) == DPSEL_OK);
    int beats = -1;
    int rc = dpsel_core_rnm_beats(&rng, whole, rem, den, a_positive, &a, b_positive, &b, &beats);
    FUZZ_CHECK(rc == DPSEL_OK || rc == DPSEL_ERANDOM || rc == DPSEL_EUNLIKELY);
    FUZZ_CHECK(a.nbits <= DPSEL_URAND_BITS && b.nbits <= DPSEL_URAND_BITS);
    if (rc == DPSEL_OK) {
        FUZZ_CHECK(beats == 0 || beats == 1);
        check_swapped(whole, rem, den, a_positive, &a, b_positive, &b, beats);
    }
}

static void check_selection(const uint8_t *data, size_t size)
{
    static const char *const epsilons[4] = { "1", "0.7", "2.5e-3", "1e-15" };
    int64_t scores[8];
    size_t n = size / 8 < 8 ? size / 8 : 8;
    for (size_t i = 0; i < n; i++) {
        scores[i] = (int64_t)read_word(data, size, 8 * i);
    }
    dpsel_rng rng;
    unsigned char seed = size > 0 ? data[size - 1] : 0;
    FUZZ_CHECK(dpsel_rng_init_seeded(&rng, &seed, 1) == DPSEL_OK);
    size_t index = (size_t)-1;
    unsigned head = size > 0 ? data[0] : 0;
    int rc = dpsel_rnm_select(epsilons[head % 4], 1 + (head >> 2 & 3u), (int)(head >> 4 & 1u),
                              scores, n, &rng, &index);
    FUZZ_CHECK(rc == DPSEL_OK ? index < n : index == (size_t)-1);
    FUZZ_CHECK(rc != DPSEL_EEMPTY || n == 0);
    dpsel_rng_wipe(&rng);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_comparison(data, size);
    check_selection(data, size);
    return 0;
}
