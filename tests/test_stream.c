/*
 * Streaming PF (dpsel_pf_stream_*, src/stream.c): the same random bits give
 * the same index as the array race dpsel_core_pf_race on the same scores
 * (so the stream inherits the race's tests of test_race.c), and every error
 * returns its code, leaves *index untouched and fails the stream for good.
 */
#include <criterion/criterion.h>
#include <inttypes.h>

#include "core/gap.h"
#include "core/race.h"
#include "selector.h"
#include "support.h"

#define UNTOUCHED ((size_t)0xDEADBEEF)

static dpsel_selector *make_selector(uint64_t x, unsigned y, uint64_t gap_cap)
{
    dpsel_params p = base_params(x, y, 1, 0);
    if (gap_cap != 0) {
        cr_assert_eq(dpsel_params_set_gap_cap(&p, gap_cap), DPSEL_OK);
    }
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    return selector;
}

static int64_t largest(const int64_t *scores, size_t n)
{
    return scores[dpsel_core_argmax(scores, n)];
}

/* The stream's index for scores[0..n-1] from rng. */
static int stream_select(const dpsel_selector *selector, const int64_t *scores, size_t n,
                         dpsel_rng *rng, size_t *index)
{
    dpsel_pf_stream stream;
    int rc = dpsel_pf_stream_start(&stream, selector, largest(scores, n));
    for (size_t i = 0; i < n && rc == DPSEL_OK; i++) {
        rc = dpsel_pf_stream_add(&stream, scores[i], rng);
    }
    return rc == DPSEL_OK ? dpsel_pf_stream_finish(&stream, index) : rc;
}

Test(stream, same_bits_same_index_as_the_array_race)
{
    static const int64_t ties[] = { 5, 5, 5, 5, 5, 5, 5, 5 };
    static const int64_t spread[] = { 3, -7, 12, 12, 0, 11, 9, 12, -100, 10 };
    static const int64_t extremes[] = { INT64_MIN, INT64_MAX, 0, INT64_MAX - 1, INT64_MIN };
    static const int64_t one[] = { 42 };
    const struct { const int64_t *scores; size_t n; } vectors[] = {
        { ties, 8 }, { spread, 10 }, { extremes, 5 }, { one, 1 } };
    static const uint64_t bases[][3] = { { 1, 2, 0 }, { 3, 2, 0 }, { 2797128963144291325u, 62, 0 },
                                         { 1, 2, 1 }, { 255, 8, 0 } };
    int64_t uniform[1000];
    dpsel_rng fill = seeded_rng(7);
    for (size_t i = 0; i < 1000; i++) {
        uint64_t bits = 0;
        cr_assert_eq(dpsel_internal_rng_bits(&fill, 10, &bits), DPSEL_OK);
        uniform[i] = (int64_t)bits;
    }
    size_t differ = 0;
    for (size_t b = 0; b < sizeof bases / sizeof *bases; b++) {
        dpsel_selector *selector = make_selector(bases[b][0], (unsigned)bases[b][1], bases[b][2]);
        dpsel_decay decay = dpsel_selector_decay(selector);
        cr_assert(dpsel_core_race_applies(&decay), "base %zu", b);
        for (size_t v = 0; v <= sizeof vectors / sizeof *vectors; v++) {
            const int64_t *scores = v < 4 ? vectors[v].scores : uniform;
            size_t n = v < 4 ? vectors[v].n : 1000;
            for (uint64_t seed = 1; seed <= 40; seed++) {
                dpsel_rng a = seeded_rng(seed), s = seeded_rng(seed);
                size_t from_array = UNTOUCHED, from_stream = UNTOUCHED;
                cr_assert_eq(dpsel_core_pf_race(&a, &decay, scores, n, &from_array), DPSEL_OK);
                cr_assert_eq(stream_select(selector, scores, n, &s, &from_stream), DPSEL_OK);
                cr_expect_eq(from_stream, from_array, "base %zu, vector %zu, seed %" PRIu64,
                             b, v, seed);
                /* and the same bits were read: the next ones agree */
                uint64_t next_a = 0, next_s = 0;
                cr_assert_eq(dpsel_internal_rng_bits(&a, 63, &next_a), DPSEL_OK);
                cr_assert_eq(dpsel_internal_rng_bits(&s, 63, &next_s), DPSEL_OK);
                cr_expect_eq(next_a, next_s, "base %zu, vector %zu, seed %" PRIu64, b, v, seed);
                differ += from_array != 0;
            }
        }
        dpsel_selector_free(selector);
    }
    cr_expect_gt(differ, 0, "the index never left 0: the test would see nothing");
}

Test(stream, start_errors)
{
    dpsel_selector *selector = make_selector(1, 2, 0);
    dpsel_pf_stream stream = { 0 };
    cr_expect_eq(dpsel_pf_stream_start(NULL, selector, 0), DPSEL_ENULL);
    cr_expect_eq(dpsel_pf_stream_start(&stream, NULL, 0), DPSEL_ENULL);
    cr_expect_eq(stream.state_, 0, "stream touched by a failed start");
    dpsel_selector_free(selector);
    /* beta = 1/2 at cap 1: the top power is 1/2, so no race (as test_race.c's
     * fall-back to the permutation) */
    dpsel_selector *permuting = make_selector(1, 1, 1);
    cr_expect_eq(dpsel_pf_stream_start(&stream, permuting, 0), DPSEL_ERANGE);
    cr_expect_eq(stream.state_, 0, "stream touched by a failed start");
    dpsel_rng rng = seeded_rng(1);
    size_t index = UNTOUCHED;
    cr_expect_eq(dpsel_pf_stream_add(&stream, 0, &rng), DPSEL_ERANGE, "not started");
    cr_expect_eq(dpsel_pf_stream_finish(&stream, &index), DPSEL_ERANGE, "not started");
    cr_expect_eq(index, UNTOUCHED);
    dpsel_selector_free(permuting);
}

/* Runs `breaks` on a started stream that has seen scores {3, 5} (best 5),
 * expects `code`, then checks that the stream stays failed. */
static void expect_sticky(const char *what, int (*breaks)(dpsel_pf_stream *, dpsel_rng *),
                          int code)
{
    dpsel_selector *selector = make_selector(1, 2, 0);
    dpsel_rng rng = seeded_rng(2);
    dpsel_pf_stream stream;
    cr_assert_eq(dpsel_pf_stream_start(&stream, selector, 5), DPSEL_OK);
    cr_assert_eq(dpsel_pf_stream_add(&stream, 3, &rng), DPSEL_OK);
    cr_assert_eq(dpsel_pf_stream_add(&stream, 5, &rng), DPSEL_OK);
    cr_expect_eq(breaks(&stream, &rng), code, "%s", what);
    size_t index = UNTOUCHED;
    cr_expect_eq(dpsel_pf_stream_add(&stream, 5, &rng), DPSEL_ERANGE, "%s: add after", what);
    cr_expect_eq(dpsel_pf_stream_finish(&stream, &index), DPSEL_ERANGE, "%s: finish after", what);
    cr_expect_eq(index, UNTOUCHED, "%s", what);
    /* a restart makes it usable again */
    cr_assert_eq(dpsel_pf_stream_start(&stream, selector, 5), DPSEL_OK);
    cr_expect_eq(dpsel_pf_stream_add(&stream, 5, &rng), DPSEL_OK, "%s: restarted", what);
    cr_expect_eq(dpsel_pf_stream_finish(&stream, &index), DPSEL_OK, "%s: restarted", what);
    cr_expect_eq(index, 0, "%s: restarted", what);
    dpsel_selector_free(selector);
}

static int add_above_best(dpsel_pf_stream *s, dpsel_rng *rng) { return dpsel_pf_stream_add(s, 6, rng); }
static int add_null_rng(dpsel_pf_stream *s, dpsel_rng *rng) { (void)rng; return dpsel_pf_stream_add(s, 1, NULL); }
static int add_wiped_rng(dpsel_pf_stream *s, dpsel_rng *rng)
{
    dpsel_rng_wipe(rng);
    int rc = dpsel_pf_stream_add(s, 1, rng);
    *rng = seeded_rng(3);
    return rc;
}
static int add_past_the_limit(dpsel_pf_stream *s, dpsel_rng *rng)
{
    s->added_ = DPSEL_MAX_CANDIDATES;  /* as if 2^62 scores had come */
    return dpsel_pf_stream_add(s, 1, rng);
}
static int finish_null_index(dpsel_pf_stream *s, dpsel_rng *rng) { (void)rng; return dpsel_pf_stream_finish(s, NULL); }
static int finish_twice(dpsel_pf_stream *s, dpsel_rng *rng)
{
    (void)rng;
    size_t index = UNTOUCHED;
    cr_expect_eq(dpsel_pf_stream_finish(s, &index), DPSEL_OK);
    cr_expect(index < 2);
    index = UNTOUCHED;
    int rc = dpsel_pf_stream_finish(s, &index);
    cr_expect_eq(index, UNTOUCHED);
    return rc;
}

static int fail_bit(void *context, unsigned *bit)
{
    (void)context;
    (void)bit;
    return 1;
}

static int add_failing_source(dpsel_pf_stream *s, dpsel_rng *rng)
{
    dpsel_rng failing;
    cr_assert_eq(dpsel_rng_init_custom(&failing, fail_bit, NULL), DPSEL_OK);
    (void)rng;
    return dpsel_pf_stream_add(s, 1, &failing);
}

Test(stream, errors_fail_the_stream_for_good)
{
    expect_sticky("score above best", add_above_best, DPSEL_ERANGE);
    expect_sticky("NULL rng", add_null_rng, DPSEL_ENULL);
    expect_sticky("wiped rng", add_wiped_rng, DPSEL_ERANDOM);
    expect_sticky("failing bit source", add_failing_source, DPSEL_ERANDOM);
    expect_sticky("past 2^62 scores", add_past_the_limit, DPSEL_ERANGE);
    expect_sticky("NULL index", finish_null_index, DPSEL_ENULL);
    expect_sticky("finished twice", finish_twice, DPSEL_ERANGE);
}

Test(stream, finish_refuses_an_empty_or_wrong_best)
{
    dpsel_selector *selector = make_selector(3, 2, 0);
    dpsel_rng rng = seeded_rng(4);
    dpsel_pf_stream stream;
    size_t index = UNTOUCHED;
    cr_assert_eq(dpsel_pf_stream_start(&stream, selector, 9), DPSEL_OK);
    cr_expect_eq(dpsel_pf_stream_finish(&stream, &index), DPSEL_EEMPTY);
    cr_expect_eq(index, UNTOUCHED);
    cr_expect_eq(dpsel_pf_stream_finish(&stream, &index), DPSEL_ERANGE, "sticky");
    /* best 9 given, but the scores only reach 8 */
    cr_assert_eq(dpsel_pf_stream_start(&stream, selector, 9), DPSEL_OK);
    cr_expect_eq(dpsel_pf_stream_add(&stream, 8, &rng), DPSEL_OK);
    cr_expect_eq(dpsel_pf_stream_add(&stream, 2, &rng), DPSEL_OK);
    cr_expect_eq(dpsel_pf_stream_finish(&stream, &index), DPSEL_ERANGE);
    cr_expect_eq(index, UNTOUCHED);
    cr_expect_eq(dpsel_pf_stream_add(&stream, 9, &rng), DPSEL_ERANGE, "sticky");
    cr_expect_eq(dpsel_pf_stream_finish(&stream, NULL), DPSEL_ERANGE, "sticky");
    cr_expect_eq(dpsel_pf_stream_add(NULL, 9, &rng), DPSEL_ENULL);
    cr_expect_eq(dpsel_pf_stream_finish(NULL, &index), DPSEL_ENULL);
    cr_expect_eq(index, UNTOUCHED);
    dpsel_selector_free(selector);
}
