/* SPDX-License-Identifier: ISC */
/* libFuzzer harness: selection and the exact pmf on arbitrary score vectors.
 * Input layout (missing bytes read as zero):
 *   byte 0      bit 0 the mechanism (PF, EM), bit 1 the random source
 *               (0: seeded from the input, 1: the input's remaining bytes
 *               replayed bit by bit, then failure)
 *   byte 1      y = 1 + byte mod 64
 *   bytes 2-9   x = 1 + (little-endian value mod (2^y - 1)), so 0 < x < 2^y
 *   byte 10     gap cap 1 + byte mod 64 (small, so every run is fast)
 *   byte 11     n = 1 + byte mod 8
 *   then n scores of 8 bytes (little-endian int64), then the random bits.
 * Checks: a selection returns an index below n, or (replayed bits only)
 * DPSEL_ERANDOM / DPSEL_EUNLIKELY with the index untouched; the pmf's exact
 * probabilities (parsed with GMP) lie in [0, 1], sum to exactly 1, are equal
 * for equal scores and do not decrease with the score. */
#include <string.h>

#include <gmp.h>

#include "fuzz.h"
#include "dpsel.h"

#define MAX_N 8
#define HEADER 12

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t pos;
} reader;

static uint64_t read_bytes(reader *r, unsigned count)
{
    uint64_t value = 0;
    for (unsigned i = 0; i < count; i++) {
        uint64_t byte = r->pos < r->size ? r->data[r->pos] : 0;
        r->pos++;
        value |= byte << (8 * i);
    }
    return value;
}

static void check_selection(const dpsel_params *p, dpsel_mechanism mechanism,
                            const int64_t *scores, size_t n, int replayed,
                            const uint8_t *rest, size_t rest_size)
{
    dpsel_selector *selector = NULL;
    FUZZ_CHECK(dpsel_selector_new(&selector, p) == DPSEL_OK);
    dpsel_rng rng;
    replay source = { rest, rest_size * 8, 0 };
    if (replayed) {
        FUZZ_CHECK(dpsel_rng_init_custom(&rng, replay_bit, &source) == DPSEL_OK);
    } else {
        unsigned char seed = rest_size > 0 ? rest[0] : 0;
        FUZZ_CHECK(dpsel_rng_init_seeded(&rng, &seed, 1) == DPSEL_OK);
    }
    size_t index = (size_t)-1;
    int rc = dpsel_select(selector, mechanism, scores, n, &rng, &index);
    if (rc == DPSEL_OK) {
        FUZZ_CHECK(index < n);
    } else {
        FUZZ_CHECK(replayed && (rc == DPSEL_ERANDOM || rc == DPSEL_EUNLIKELY));
        FUZZ_CHECK(index == (size_t)-1);
    }
    dpsel_rng_wipe(&rng);
    dpsel_selector_free(selector);
}

static void check_pmf(const dpsel_params *p, dpsel_mechanism mechanism,
                      const int64_t *scores, size_t n)
{
    dpsel_pmf *pmf = NULL;
    int rc = dpsel_pmf_new(&pmf, p, mechanism, scores, n);
    if (rc != DPSEL_OK) {
        FUZZ_CHECK(rc == DPSEL_ETOOLARGE && pmf == NULL);
        return;
    }
    mpq_t prob[MAX_N], sum;
    mpq_init(sum);
    for (size_t r = 0; r < n; r++) {
        char *text = NULL;
        mpq_init(prob[r]);
        FUZZ_CHECK(dpsel_pmf_probability(pmf, r, DPSEL_RATIONAL, &text) == DPSEL_OK);
        FUZZ_CHECK(mpq_set_str(prob[r], text, 10) == 0);
        dpsel_string_free(text);
        FUZZ_CHECK(mpq_sgn(prob[r]) >= 0 && mpq_cmp_ui(prob[r], 1, 1) <= 0);
        mpq_add(sum, sum, prob[r]);
    }
    FUZZ_CHECK(mpq_cmp_ui(sum, 1, 1) == 0);
    for (size_t a = 0; a < n; a++) {
        for (size_t b = 0; b < n; b++) {
            if (scores[a] == scores[b]) {
                FUZZ_CHECK(mpq_equal(prob[a], prob[b]));
            } else if (scores[a] < scores[b]) {
                FUZZ_CHECK(mpq_cmp(prob[a], prob[b]) <= 0);
            }
        }
    }
    char *error = NULL;
    FUZZ_CHECK(dpsel_pmf_expected_error(pmf, DPSEL_DECIMAL, &error) == DPSEL_OK);
    dpsel_string_free(error);
    for (size_t r = 0; r < n; r++) {
        mpq_clear(prob[r]);
    }
    mpq_clear(sum);
    dpsel_pmf_free(pmf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader in = { data, size, 0 };
    unsigned flags = (unsigned)read_bytes(&in, 1);
    unsigned y = 1 + (unsigned)(read_bytes(&in, 1) % 64);
    uint64_t modulus = y == 64 ? UINT64_MAX : ((uint64_t)1 << y) - 1;
    uint64_t x = modulus == 1 ? 1 : 1 + read_bytes(&in, 8) % modulus;
    in.pos = 10;
    uint64_t gap_cap = 1 + read_bytes(&in, 1) % 64;
    size_t n = 1 + (size_t)(read_bytes(&in, 1) % MAX_N);
    int64_t scores[MAX_N];
    for (size_t i = 0; i < n; i++) {
        scores[i] = (int64_t)read_bytes(&in, 8);
    }
    dpsel_mechanism mechanism = (flags & 1u) ? DPSEL_EM : DPSEL_PF;
    dpsel_params p;
    FUZZ_CHECK(dpsel_params_from_base(&p, x, y, 1, 0) == DPSEL_OK);
    FUZZ_CHECK(dpsel_params_set_gap_cap(&p, gap_cap) == DPSEL_OK);
    const uint8_t *rest = in.pos < size ? data + in.pos : data + size;
    size_t rest_size = in.pos < size ? size - in.pos : 0;
    check_selection(&p, mechanism, scores, n, (flags & 2u) != 0, rest, rest_size);
    check_pmf(&p, mechanism, scores, n);
    return 0;
}
