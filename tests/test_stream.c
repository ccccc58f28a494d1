/* SPDX-License-Identifier: ISC */
/*
 * Streaming PF (dpsel_pf_stream_*, src/api/stream.c): the stream races its
 * blocks with dpsel_core_race_more, bit for bit (so it inherits that race's
 * tests); its own forms by enumeration against the pmf (one block; one
 * candidate per call, from the floor: test_race.c's thinned-race cases); a
 * fit of 4000 candidates with the top last; and every error
 * returns its code, leaves *index untouched and fails the stream for good.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>

#include "api/selector.h"
#include "core/gap.h"
#include "core/race.h"
#include "core/thin.h"
#include "exact_layer.h"
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

/* The stream's index for scores[0..n-1] from rng, one add per score. */
static int stream_select(const dpsel_selector *selector, const int64_t *scores, size_t n,
                         dpsel_rng *rng, size_t *index)
{
    dpsel_pf_stream stream;
    int rc = dpsel_pf_stream_start(&stream, selector, largest(scores, n));
    for (size_t i = 0; i < n && rc == DPSEL_OK; i++) {
        rc = dpsel_pf_stream_add(&stream, scores[i], rng);
    }
    return rc == DPSEL_OK ? dpsel_pf_stream_finish(&stream, rng, index) : rc;
}

/* The core race over scores[0..n-1] in calls of `block` candidates. */
static int race_in_blocks(const dpsel_selector *selector, const int64_t *scores, size_t n,
                          size_t block, dpsel_rng *rng, size_t *index)
{
    dpsel_decay decay = dpsel_selector_decay(selector);
    dpsel_race race = { 0, 0, 0 };
    for (size_t start = 0; start < n; start += block) {
        size_t len = n - start < block ? n - start : block;
        int rc = dpsel_core_race_more(rng, &decay, &selector->thinning.core, scores + start, len,
                                      largest(scores, n), start, &race);
        if (rc != DPSEL_OK) {
            return rc;
        }
    }
    *index = (size_t)race.chosen;
    return DPSEL_OK;
}

/* 3000 scores: a stretch far below the top, one about 25 below it, and
 * uniform ones in [0, 1024), which hold the top. */
static void mixed_scores(int64_t *scores, size_t n)
{
    dpsel_rng fill = seeded_rng(7);
    for (size_t i = 0; i < n; i++) {
        uint64_t bits = 0;
        cr_assert_eq(dpsel_internal_rng_bits(&fill, 10, &bits), DPSEL_OK);
        scores[i] = i < 1100 ? (int64_t)bits - 5000 : i < 1500 ? 1000 - (int64_t)(bits % 3)
                                                                : (int64_t)bits;
    }
}

Test(stream, same_bits_same_index_as_the_core_race_in_blocks)
{
    static const int64_t ties[] = { 5, 5, 5, 5, 5, 5, 5, 5 };
    static const int64_t spread[] = { 3, -7, 12, 12, 0, 11, 9, 12, -100, 10 };
    static const int64_t extremes[] = { INT64_MIN, INT64_MAX, 0, INT64_MAX - 1, INT64_MIN };
    static const int64_t one[] = { 42 };
    static int64_t mixed[3000];
    mixed_scores(mixed, 3000);
    const struct { const int64_t *scores; size_t n; } vectors[] = {
        { ties, 8 }, { spread, 10 }, { extremes, 5 }, { one, 1 }, { mixed, 3000 } };
    static const uint64_t bases[][3] = { { 1, 2, 0 }, { 3, 2, 0 }, { 2797128963144291325u, 62, 0 },
                                         { 1, 2, 1 }, { 255, 8, 0 } };
    size_t differ = 0;
    for (size_t b = 0; b < sizeof bases / sizeof *bases; b++) {
        dpsel_selector *selector = make_selector(bases[b][0], (unsigned)bases[b][1], bases[b][2]);
        dpsel_decay decay = dpsel_selector_decay(selector);
        cr_assert(dpsel_core_race_applies(&decay), "base %zu", b);
        for (size_t v = 0; v < sizeof vectors / sizeof *vectors; v++) {
            for (uint64_t seed = 1; seed <= 40; seed++) {
                dpsel_rng a = seeded_rng(seed), s = seeded_rng(seed);
                size_t from_core = UNTOUCHED, from_stream = UNTOUCHED;
                cr_assert_eq(race_in_blocks(selector, vectors[v].scores, vectors[v].n,
                                            DPSEL_PF_STREAM_BLOCK, &a, &from_core), DPSEL_OK);
                cr_assert_eq(stream_select(selector, vectors[v].scores, vectors[v].n, &s,
                                           &from_stream), DPSEL_OK);
                cr_expect_eq(from_stream, from_core, "base %zu, vector %zu, seed %" PRIu64,
                             b, v, seed);
                /* and the same bits were read: the next ones agree */
                uint64_t next_a = 0, next_s = 0;
                cr_assert_eq(dpsel_internal_rng_bits(&a, 63, &next_a), DPSEL_OK);
                cr_assert_eq(dpsel_internal_rng_bits(&s, 63, &next_s), DPSEL_OK);
                cr_expect_eq(next_a, next_s, "base %zu, vector %zu, seed %" PRIu64, b, v, seed);
                differ += from_core != 0;
            }
        }
        dpsel_selector_free(selector);
    }
    cr_expect_gt(differ, 0, "the index never left 0: the test would see nothing");
}

/* dpsel_pf_stream_add_scores with everything at once races as the core
 * does in one call; in parts of 700, as the core in calls of 700. */
Test(stream, add_scores_races_each_call_as_the_core)
{
    static int64_t mixed[3000];
    mixed_scores(mixed, 3000);
    dpsel_selector *selector = make_selector(3, 2, 0);
    static const size_t parts[] = { 3000, 700 };
    for (size_t k = 0; k < 2; k++) {
        for (uint64_t seed = 1; seed <= 40; seed++) {
            dpsel_rng a = seeded_rng(seed), s = seeded_rng(seed);
            size_t from_core = UNTOUCHED, from_stream = UNTOUCHED;
            cr_assert_eq(race_in_blocks(selector, mixed, 3000, parts[k], &a, &from_core),
                         DPSEL_OK);
            dpsel_pf_stream stream;
            cr_assert_eq(dpsel_pf_stream_start(&stream, selector, largest(mixed, 3000)), DPSEL_OK);
            for (size_t start = 0; start < 3000; start += parts[k]) {
                size_t len = 3000 - start < parts[k] ? 3000 - start : parts[k];
                cr_assert_eq(dpsel_pf_stream_add_scores(&stream, mixed + start, len, &s),
                             DPSEL_OK);
            }
            cr_assert_eq(dpsel_pf_stream_finish(&stream, &s, &from_stream), DPSEL_OK);
            cr_expect_eq(from_stream, from_core, "parts of %zu, seed %" PRIu64, parts[k], seed);
        }
    }
    dpsel_selector_free(selector);
}

/* The stream, one add per score, on the staircase of exact_layer.h: the
 * top last, so every block before it races from the floor. */
Test(stream, stream_fits_the_pmf_with_the_top_last, .timeout = 600)
{
    check_pf_staircase_fit(PF_STREAMED, 1714, "stream, top last");
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
    cr_expect_eq(dpsel_pf_stream_finish(&stream, &rng, &index), DPSEL_ERANGE, "not started");
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
    cr_expect_eq(dpsel_pf_stream_finish(&stream, &rng, &index), DPSEL_ERANGE, "%s: finish after",
                 what);
    cr_expect_eq(index, UNTOUCHED, "%s", what);
    /* a restart makes it usable again */
    cr_assert_eq(dpsel_pf_stream_start(&stream, selector, 5), DPSEL_OK);
    cr_expect_eq(dpsel_pf_stream_add(&stream, 5, &rng), DPSEL_OK, "%s: restarted", what);
    cr_expect_eq(dpsel_pf_stream_finish(&stream, &rng, &index), DPSEL_OK, "%s: restarted", what);
    cr_expect_eq(index, 0, "%s: restarted", what);
    dpsel_selector_free(selector);
}

static int add_above_best(dpsel_pf_stream *s, dpsel_rng *rng) { return dpsel_pf_stream_add(s, 6, rng); }
static int add_null_rng(dpsel_pf_stream *s, dpsel_rng *rng) { (void)rng; return dpsel_pf_stream_add(s, 1, NULL); }
/* A wiped or failing source shows when the stream races: add_scores races
 * the two scores held and the new one at once. */
static int add_wiped_rng(dpsel_pf_stream *s, dpsel_rng *rng)
{
    dpsel_rng_wipe(rng);
    static const int64_t one = 1;
    int rc = dpsel_pf_stream_add_scores(s, &one, 1, rng);
    *rng = seeded_rng(3);
    return rc;
}
static int add_past_the_limit(dpsel_pf_stream *s, dpsel_rng *rng)
{
    s->raced_ = DPSEL_MAX_CANDIDATES - 2;  /* as if 2^62 scores had come */
    return dpsel_pf_stream_add(s, 1, rng);
}
static int add_scores_null(dpsel_pf_stream *s, dpsel_rng *rng) { return dpsel_pf_stream_add_scores(s, NULL, 1, rng); }
static int add_scores_above_best(dpsel_pf_stream *s, dpsel_rng *rng)
{
    static const int64_t scores[] = { 1, 2, 6, 0 };
    return dpsel_pf_stream_add_scores(s, scores, 4, rng);
}
static int finish_null_index(dpsel_pf_stream *s, dpsel_rng *rng) { return dpsel_pf_stream_finish(s, rng, NULL); }
static int finish_null_rng(dpsel_pf_stream *s, dpsel_rng *rng) { (void)rng; size_t index; return dpsel_pf_stream_finish(s, NULL, &index); }
static int finish_twice(dpsel_pf_stream *s, dpsel_rng *rng)
{
    size_t index = UNTOUCHED;
    cr_expect_eq(dpsel_pf_stream_add_scores(s, NULL, 0, rng), DPSEL_OK, "nothing added");
    cr_expect_eq(dpsel_pf_stream_finish(s, rng, &index), DPSEL_OK);
    cr_expect(index < 2);
    index = UNTOUCHED;
    int rc = dpsel_pf_stream_finish(s, rng, &index);
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
    static const int64_t one = 1;
    return dpsel_pf_stream_add_scores(s, &one, 1, &failing);
}

static int finish_failing_source(dpsel_pf_stream *s, dpsel_rng *rng)
{
    dpsel_rng failing;
    cr_assert_eq(dpsel_rng_init_custom(&failing, fail_bit, NULL), DPSEL_OK);
    (void)rng;
    size_t index = UNTOUCHED;
    int rc = dpsel_pf_stream_finish(s, &failing, &index);
    cr_expect_eq(index, UNTOUCHED);
    return rc;
}

Test(stream, errors_fail_the_stream_for_good)
{
    expect_sticky("score above best", add_above_best, DPSEL_ERANGE);
    expect_sticky("NULL rng", add_null_rng, DPSEL_ENULL);
    expect_sticky("wiped rng", add_wiped_rng, DPSEL_ERANDOM);
    expect_sticky("failing bit source", add_failing_source, DPSEL_ERANDOM);
    expect_sticky("failing bit source at the finish", finish_failing_source, DPSEL_ERANDOM);
    expect_sticky("past 2^62 scores", add_past_the_limit, DPSEL_ERANGE);
    expect_sticky("NULL scores", add_scores_null, DPSEL_ENULL);
    expect_sticky("scores above best", add_scores_above_best, DPSEL_ERANGE);
    expect_sticky("NULL index", finish_null_index, DPSEL_ENULL);
    expect_sticky("NULL rng at the finish", finish_null_rng, DPSEL_ENULL);
    expect_sticky("finished twice", finish_twice, DPSEL_ERANGE);
}

Test(stream, finish_refuses_an_empty_or_wrong_best)
{
    dpsel_selector *selector = make_selector(3, 2, 0);
    dpsel_rng rng = seeded_rng(4);
    dpsel_pf_stream stream;
    size_t index = UNTOUCHED;
    cr_assert_eq(dpsel_pf_stream_start(&stream, selector, 9), DPSEL_OK);
    cr_expect_eq(dpsel_pf_stream_finish(&stream, &rng, &index), DPSEL_EEMPTY);
    cr_expect_eq(index, UNTOUCHED);
    cr_expect_eq(dpsel_pf_stream_finish(&stream, &rng, &index), DPSEL_ERANGE, "sticky");
    /* best 9 given, but the scores only reach 8 */
    cr_assert_eq(dpsel_pf_stream_start(&stream, selector, 9), DPSEL_OK);
    cr_expect_eq(dpsel_pf_stream_add(&stream, 8, &rng), DPSEL_OK);
    cr_expect_eq(dpsel_pf_stream_add(&stream, 2, &rng), DPSEL_OK);
    cr_expect_eq(dpsel_pf_stream_finish(&stream, &rng, &index), DPSEL_ERANGE);
    cr_expect_eq(index, UNTOUCHED);
    cr_expect_eq(dpsel_pf_stream_add(&stream, 9, &rng), DPSEL_ERANGE, "sticky");
    cr_expect_eq(dpsel_pf_stream_finish(&stream, &rng, NULL), DPSEL_ERANGE, "sticky");
    cr_expect_eq(dpsel_pf_stream_add(NULL, 9, &rng), DPSEL_ENULL);
    cr_expect_eq(dpsel_pf_stream_finish(NULL, &rng, &index), DPSEL_ENULL);
    cr_expect_eq(index, UNTOUCHED);
    dpsel_selector_free(selector);
}
