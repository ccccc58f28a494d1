/* SPDX-License-Identifier: ISC */
/* Random sources: the seeded stream's known answers (its bytes, and the
 * selections it drives), seeds that differ, the OS source, failures reported
 * and never papered over. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "support.h"

static void first_bytes(dpsel_rng *rng, unsigned char *out, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        unsigned byte = 0, bit;
        for (int b = 0; b < 8; b++) {
            cr_assert_eq(dpsel_internal_rng_bit(rng, &bit), DPSEL_OK);
            byte = (byte << 1) | bit;
        }
        out[i] = (unsigned char)byte;
    }
}

static void hex(const unsigned char *bytes, size_t count, char *out)
{
    for (size_t i = 0; i < count; i++) {
        sprintf(out + 2 * i, "%02x", bytes[i]);
    }
}

/* Known answers: a change of the seeded stream must never be silent.  The
 * 300 bytes cross a refill of the 256-byte buffer. */
Test(rng, seeded_stream_known_answers)
{
    const unsigned char seed[] = { 0x01 };
    dpsel_rng rng;
    unsigned char bytes[300];
    char text[601];
    cr_assert_eq(dpsel_rng_init_seeded(&rng, seed, sizeof seed), DPSEL_OK);
    first_bytes(&rng, bytes, sizeof bytes);
    hex(bytes, 16, text);
    cr_expect_str_eq(text, "d084f271c23993c113153db556faf1a1");
    hex(bytes + 284, 16, text);
    cr_expect_str_eq(text, "c392961a3f69fe7a27dabd1a8ba67d88");
    dpsel_rng_wipe(&rng);
}

/* The documented construction, rebuilt from libsodium directly:
 * key = BLAKE2b-256("dpsel seeded stream v1" || seed length || seed),
 * bits = ChaCha20(key, nonce 0) keystream, most significant bit first. */
Test(rng, seeded_stream_is_the_documented_chacha20_stream)
{
    const unsigned char seed[] = { 0xde, 0xad, 0xbe, 0xef, 0x42 };
    const char domain[] = "dpsel seeded stream v1";
    unsigned char key[32], nonce[8] = { 0 }, expected[600], got[600];
    unsigned char length = sizeof seed;
    crypto_generichash_state hash;
    cr_assert_eq(sodium_init() >= 0, 1);
    crypto_generichash_init(&hash, NULL, 0, sizeof key);
    crypto_generichash_update(&hash, (const unsigned char *)domain, strlen(domain));
    crypto_generichash_update(&hash, &length, 1);
    crypto_generichash_update(&hash, seed, sizeof seed);
    crypto_generichash_final(&hash, key, sizeof key);
    crypto_stream_chacha20(expected, sizeof expected, nonce, key);
    dpsel_rng rng;
    cr_assert_eq(dpsel_rng_init_seeded(&rng, seed, sizeof seed), DPSEL_OK);
    first_bytes(&rng, got, sizeof got);
    cr_expect(memcmp(expected, got, sizeof got) == 0);
}

Test(rng, seeds_give_independent_streams)
{
    const unsigned char a[] = { 0x01 }, b[] = { 0x00, 0x01 }, c[] = { 0x02 };
    const unsigned char *seeds[] = { a, b, c };
    const size_t sizes[] = { 1, 2, 1 };
    unsigned char out[3][32];
    for (int i = 0; i < 3; i++) {
        dpsel_rng rng;
        cr_assert_eq(dpsel_rng_init_seeded(&rng, seeds[i], sizes[i]), DPSEL_OK);
        first_bytes(&rng, out[i], 32);
    }
    cr_expect(memcmp(out[0], out[1], 32) != 0);
    cr_expect(memcmp(out[0], out[2], 32) != 0);
    cr_expect(memcmp(out[1], out[2], 32) != 0);
}

Test(rng, seed_sizes)
{
    dpsel_rng rng;
    unsigned char seed[65] = { 0 };
    cr_expect_eq(dpsel_rng_init_seeded(&rng, seed, 0), DPSEL_ERANGE);
    cr_expect_eq(dpsel_rng_init_seeded(&rng, seed, 65), DPSEL_ERANGE);
    cr_expect_eq(dpsel_rng_init_seeded(&rng, seed, 64), DPSEL_OK);
    cr_expect_eq(dpsel_rng_init_seeded(&rng, NULL, 1), DPSEL_ENULL);
    cr_expect_eq(dpsel_rng_init_seeded(NULL, seed, 1), DPSEL_ENULL);
    cr_expect_eq(dpsel_rng_init_os(NULL), DPSEL_ENULL);
    cr_expect_eq(dpsel_rng_init_custom(&rng, NULL, NULL), DPSEL_ENULL);
}

Test(rng, os_source_gives_bits)
{
    dpsel_rng rng;
    unsigned char a[64], b[64];
    cr_assert_eq(dpsel_rng_init_os(&rng), DPSEL_OK);
    first_bytes(&rng, a, sizeof a);
    first_bytes(&rng, b, sizeof b);
    /* equal 512-bit blocks from a working CSPRNG: probability 2^-512 */
    cr_expect(memcmp(a, b, sizeof a) != 0);
    dpsel_rng_wipe(&rng);
}

static int failing_source(void *context, unsigned *bit)
{
    unsigned *calls = context;
    *bit = 0;
    return ++*calls > 1;  /* one bit, then failure */
}

static int bad_bit_source(void *context, unsigned *bit)
{
    (void)context;
    *bit = 2;
    return 0;
}

Test(rng, failures_are_reported_and_leave_the_output_alone)
{
    dpsel_params p = base_params(1, 1, 1, 0);
    dpsel_selector *selector = NULL;
    dpsel_rng rng;
    unsigned calls = 0;
    int64_t scores[] = { 1, 1, 1, 1, 1, 1, 1, 1 };
    size_t index = 12345;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    cr_assert_eq(dpsel_rng_init_custom(&rng, failing_source, &calls), DPSEL_OK);
    cr_expect_eq(dpsel_select(selector, DPSEL_PF, scores, 8, &rng, &index), DPSEL_ERANDOM);
    calls = 0;
    cr_expect_eq(dpsel_select(selector, DPSEL_EM, scores, 8, &rng, &index), DPSEL_ERANDOM);
    cr_assert_eq(dpsel_rng_init_custom(&rng, bad_bit_source, NULL), DPSEL_OK);
    cr_expect_eq(dpsel_select(selector, DPSEL_PF, scores, 8, &rng, &index), DPSEL_ERANDOM);
    dpsel_rng_wipe(&rng);
    cr_expect_eq(dpsel_select(selector, DPSEL_PF, scores, 8, &rng, &index), DPSEL_ERANDOM,
                 "a wiped source must not give bits");
    cr_expect_eq(index, 12345);
    dpsel_selector_free(selector);
}

/* Known answers for selections: a fixed seed, selector and score vector give
 * a fixed sequence of released indices, and the stream bytes that follow pin
 * how many bits the sequence consumed.  A change to the stream, to the
 * samplers' use of it, or to the decay table is never silent. */
Test(rng, seeded_selections_known_answers)
{
    const unsigned char seed[] = "dpsel selection known answers";
    const int64_t scores[] = { 4, 7, 7, 0, 5, -3, 6, 2 };
    dpsel_params p = base_params(3, 2, 1, 0);  /* beta = 3/4 */
    dpsel_selector *selector = NULL;
    dpsel_rng rng;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    cr_assert_eq(dpsel_rng_init_seeded(&rng, seed, sizeof seed - 1), DPSEL_OK);
    char sequence[2][33];
    for (int m = DPSEL_PF; m <= DPSEL_EM; m++) {
        for (int i = 0; i < 32; i++) {
            size_t index;
            cr_assert_eq(dpsel_select(selector, (dpsel_mechanism)m, scores, 8, &rng, &index),
                         DPSEL_OK);
            sequence[m][i] = (char)('0' + index);
        }
        sequence[m][32] = '\0';
    }
    unsigned char next[8];
    char text[17];
    first_bytes(&rng, next, sizeof next);
    hex(next, sizeof next, text);
    cr_expect_str_eq(sequence[DPSEL_PF], "12271511222213411126341247034146");
    cr_expect_str_eq(sequence[DPSEL_EM], "74612224642005244034202011204123");
    cr_expect_str_eq(text, "d66640506a0bdfcc");
    dpsel_rng_wipe(&rng);
    dpsel_selector_free(selector);
}
