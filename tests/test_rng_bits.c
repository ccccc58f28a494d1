/* SPDX-License-Identifier: ISC */
/* dpsel_internal_rng_zeros and dpsel_internal_rng_bits against the loops of
 * dpsel_internal_rng_bit calls they stand for (spec/trusted.h): the same
 * values, the same bits consumed (the bits that follow agree), the same
 * errors. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "core/core.h"
#include "support.h"

#define ROUNDS 20000

/* splitmix64: the test's own pseudo-random numbers (limits, counts, and the
 * bits of the custom source). */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A custom bit source: 1 with probability 1 / one_in, so that one_in > 2
 * gives long runs of zeros. */
typedef struct {
    uint64_t state;
    uint64_t one_in;
} biased_source;

static int biased_bit(void *context, unsigned *bit)
{
    biased_source *s = context;
    *bit = next_random(&s->state) % s->one_in == 0;
    return 0;
}

/* Two sources in the same state: `fast` is read by the function under test,
 * `slow` by the loop of dpsel_internal_rng_bit calls. */
typedef struct {
    dpsel_rng fast, slow;
    biased_source fast_bits, slow_bits;
} twin;

static void twin_seeded(twin *t, uint64_t seed)
{
    t->fast = seeded_rng(seed);
    t->slow = t->fast;
}

static void twin_custom(twin *t, uint64_t seed, uint64_t one_in)
{
    t->fast_bits = (biased_source){ seed, one_in };
    t->slow_bits = t->fast_bits;
    cr_assert_eq(dpsel_rng_init_custom(&t->fast, biased_bit, &t->fast_bits), DPSEL_OK);
    cr_assert_eq(dpsel_rng_init_custom(&t->slow, biased_bit, &t->slow_bits), DPSEL_OK);
}

static int zeros_bit_by_bit(dpsel_rng *rng, uint64_t limit, uint64_t *zeros)
{
    uint64_t count = 0;
    for (; count < limit; count++) {
        unsigned bit;
        int rc = dpsel_internal_rng_bit(rng, &bit);
        if (rc != DPSEL_OK) {
            return rc;
        }
        if (bit != 0) {
            break;
        }
    }
    *zeros = count;
    return DPSEL_OK;
}

static int bits_bit_by_bit(dpsel_rng *rng, unsigned count, uint64_t *value)
{
    uint64_t read = 0;
    for (unsigned i = 0; i < count; i++) {
        unsigned bit;
        int rc = dpsel_internal_rng_bit(rng, &bit);
        if (rc != DPSEL_OK) {
            return rc;
        }
        read = read << 1 | bit;
    }
    *value = read;
    return DPSEL_OK;
}

/* The next count bits of both sources agree: both stand at the same place. */
static void expect_same_position(twin *t, unsigned count, const char *after)
{
    for (unsigned i = 0; i < count; i++) {
        unsigned fast, slow;
        cr_assert_eq(dpsel_internal_rng_bit(&t->fast, &fast), DPSEL_OK);
        cr_assert_eq(dpsel_internal_rng_bit(&t->slow, &slow), DPSEL_OK);
        cr_assert_eq(fast, slow, "bit %u after %s differs", i, after);
    }
}

static void check_zeros(twin *t, uint64_t limit)
{
    uint64_t fast = UINT64_MAX, slow = UINT64_MAX - 1;
    cr_assert_eq(dpsel_internal_rng_zeros(&t->fast, limit, &fast), DPSEL_OK);
    cr_assert_eq(zeros_bit_by_bit(&t->slow, limit, &slow), DPSEL_OK);
    cr_assert_eq(fast, slow, "zeros(limit %llu): %llu, the loop %llu", (unsigned long long)limit,
                 (unsigned long long)fast, (unsigned long long)slow);
    cr_assert_leq(fast, limit);
}

static void check_bits(twin *t, unsigned count)
{
    uint64_t fast = UINT64_MAX, slow = UINT64_MAX - 1;
    cr_assert_eq(dpsel_internal_rng_bits(&t->fast, count, &fast), DPSEL_OK);
    cr_assert_eq(bits_bit_by_bit(&t->slow, count, &slow), DPSEL_OK);
    cr_assert_eq(fast, slow, "bits(%u): %llx, the loop %llx", count,
                 (unsigned long long)fast, (unsigned long long)slow);
}

/* A limit for dpsel_internal_rng_zeros: the edges, small ones, and any 64-bit one. */
static uint64_t some_limit(uint64_t *state)
{
    static const uint64_t edges[] = { 0, 1, 7, 8, 9, 63, 64, 65, 100, 1000, UINT64_MAX };
    uint64_t r = next_random(state);
    switch (r % 4) {
    case 0:
        return edges[(r >> 8) % (sizeof edges / sizeof edges[0])];
    case 1:
        return (r >> 8) % 80;
    case 2:
        return (r >> 8) % 5000;
    default:
        return next_random(state);
    }
}

/* Many calls of both functions, with limits and counts at the edges and at
 * random, each followed by a few bits compared (so that every alignment in
 * a byte is met), then a longer sequence of bits. */
static void check_many(twin *t, uint64_t seed)
{
    static const unsigned edges[] = { 0, 1, 7, 8, 9, 63 };
    uint64_t state = seed;
    for (int round = 0; round < ROUNDS; round++) {
        uint64_t r = next_random(&state);
        if (r % 2 == 0) {
            check_zeros(t, some_limit(&state));
        } else {
            unsigned count = (r >> 1) % 3 == 0 ? edges[(r >> 8) % 6] : (unsigned)((r >> 8) % 64);
            check_bits(t, count);
        }
        expect_same_position(t, (unsigned)((r >> 32) % 10), "a call");
    }
    expect_same_position(t, 4096, "every call");
}

Test(rng_bits, seeded_source_matches_the_bit_loops)
{
    twin t;
    twin_seeded(&t, 2026);
    check_many(&t, 1);
}

Test(rng_bits, custom_sources_match_the_bit_loops)
{
    static const uint64_t one_in[] = { 2, 3, 16, 300 };
    for (size_t i = 0; i < sizeof one_in / sizeof one_in[0]; i++) {
        twin t;
        twin_custom(&t, 77 + i, one_in[i]);
        check_many(&t, 100 + i);
    }
}

/* Long runs of zeros in the seeded source's buffer (written there), across
 * whole bytes and across the refill of the buffer. */
Test(rng_bits, seeded_long_zero_runs_across_bytes_and_refills)
{
    static const uint64_t limits[] = { 9, 64, 65, 300, 2000, 5000, UINT64_MAX };
    uint64_t state = 5;
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        for (unsigned skip = 0; skip < 300; skip += 13) {
            twin t;
            twin_seeded(&t, 40 + skip);
            check_bits(&t, skip % 64);  /* start inside a byte */
            dpsel_rng_state_ *fast = &t.fast.seeded_, *slow = &t.slow.seeded_;
            size_t from = (sizeof fast->buffer_ - fast->buffer_left_) % sizeof fast->buffer_;
            size_t length = (size_t)(next_random(&state) % (sizeof fast->buffer_ - from + 1));
            memset(fast->buffer_ + from, 0, length);
            memset(slow->buffer_ + from, 0, length);
            check_zeros(&t, limits[i]);
            expect_same_position(&t, 64, "a long run");
            check_zeros(&t, limits[i]);
            check_bits(&t, 63);
            expect_same_position(&t, 64, "a long run and bits");
        }
    }
}

/* The OS source, within one buffer: two OS sources, the second given the
 * first's state (the page holding it), agree until their next refill. */
Test(rng_bits, os_source_matches_the_bit_loops_within_a_buffer)
{
    twin t;
    unsigned bit;
    uint64_t state = 9;
    cr_assert_eq(dpsel_rng_init_os(&t.fast), DPSEL_OK);
    cr_assert_eq(dpsel_rng_init_os(&t.slow), DPSEL_OK);
    cr_assert_eq(dpsel_internal_rng_bit(&t.fast, &bit), DPSEL_OK);  /* fills the buffer */
    *t.slow.os_state_ = *t.fast.os_state_;
    while (t.fast.os_state_->buffer_left_ > 16) {
        uint64_t r = next_random(&state);
        if (r % 2 == 0) {
            check_zeros(&t, r % 4 == 0 ? UINT64_MAX : (r >> 8) % 20);
        } else {
            check_bits(&t, (unsigned)((r >> 8) % 64));
        }
        expect_same_position(&t, 1, "a call");
    }
    dpsel_rng_wipe(&t.fast);
    dpsel_rng_wipe(&t.slow);
}

/* A custom source that gives zeros and fails at its k-th bit (k >= 1). */
typedef struct {
    unsigned k;
    unsigned calls;
} failing_source;

static int zero_then_fail(void *context, unsigned *bit)
{
    failing_source *f = context;
    f->calls++;
    *bit = 0;
    return f->calls == f->k ? -1 : 0;
}

Test(rng_bits, failing_custom_source_gives_erandom)
{
    for (unsigned k = 1; k <= 70; k++) {
        for (unsigned asked = 0; asked <= 72; asked++) {
            dpsel_rng rng;
            failing_source f = { k, 0 };
            uint64_t out = 12345;
            cr_assert_eq(dpsel_rng_init_custom(&rng, zero_then_fail, &f), DPSEL_OK);
            int rc = dpsel_internal_rng_zeros(&rng, asked, &out);
            if (asked < k) {
                cr_expect_eq(rc, DPSEL_OK);
                cr_expect_eq(out, asked);
            } else {
                cr_expect_eq(rc, DPSEL_ERANDOM, "zeros(%u), failing at bit %u", asked, k);
                cr_expect_eq(out, 12345, "written on failure");
            }
            cr_expect_eq(f.calls, asked < k ? asked : k, "bits asked after a failure");

            f = (failing_source){ k, 0 };
            out = 12345;
            cr_assert_eq(dpsel_rng_init_custom(&rng, zero_then_fail, &f), DPSEL_OK);
            if (asked <= 63) {
                rc = dpsel_internal_rng_bits(&rng, asked, &out);
                cr_expect_eq(rc, asked < k ? DPSEL_OK : DPSEL_ERANDOM,
                             "bits(%u), failing at bit %u", asked, k);
                cr_expect_eq(out, asked < k ? 0 : 12345);
                cr_expect_eq(f.calls, asked < k ? asked : k, "bits asked after a failure");
            }
        }
    }
}

static int bit_two(void *context, unsigned *bit)
{
    (void)context;
    *bit = 2;
    return 0;
}

/* A bit out of range, and a wiped source: errors, as from dpsel_internal_rng_bit;
 * nothing asked reads nothing, as the loops. */
Test(rng_bits, bad_and_wiped_sources_give_erandom)
{
    dpsel_rng rng;
    uint64_t out = 7;
    cr_assert_eq(dpsel_rng_init_custom(&rng, bit_two, NULL), DPSEL_OK);
    cr_expect_eq(dpsel_internal_rng_zeros(&rng, 5, &out), DPSEL_ERANDOM);
    cr_expect_eq(dpsel_internal_rng_bits(&rng, 5, &out), DPSEL_ERANDOM);
    cr_expect_eq(out, 7);

    rng = seeded_rng(3);
    dpsel_rng_wipe(&rng);
    cr_expect_eq(dpsel_internal_rng_zeros(&rng, 1, &out), DPSEL_ERANDOM);
    cr_expect_eq(dpsel_internal_rng_zeros(&rng, UINT64_MAX, &out), DPSEL_ERANDOM);
    cr_expect_eq(dpsel_internal_rng_bits(&rng, 1, &out), DPSEL_ERANDOM);
    cr_expect_eq(dpsel_internal_rng_bits(&rng, 63, &out), DPSEL_ERANDOM);
    cr_expect_eq(out, 7);
    cr_expect_eq(dpsel_internal_rng_zeros(&rng, 0, &out), DPSEL_OK);
    cr_expect_eq(out, 0);
    out = 7;
    cr_expect_eq(dpsel_internal_rng_bits(&rng, 0, &out), DPSEL_OK);
    cr_expect_eq(out, 0);
}
