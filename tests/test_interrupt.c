/* SPDX-License-Identifier: ISC */
/*
 * The caller's interrupt check (dpsel_rng_set_interrupt,
 * src/base/interrupt.h) in the long loops outside the core: a quantile's
 * clamp, sort and cut of its values (src/api/quantile.c), a partial state's
 * folds, merges and finish (src/api/partial.c).
 *   - a check that asks to stop at its k-th call, for every k the call
 *     makes, ends the call with DPSEL_ECANCELED and nothing written (the
 *     release untouched; a merged-into state failed, a finished one left
 *     usable); make sanitize and valgrind see no leak on these paths;
 *   - every call of the check has done <= total, and the loops ask it at
 *     least every DPSEL_INTERRUPT_EVERY steps;
 *   - a check that returns 0 changes nothing: the same seed releases the
 *     same value, and reads the same bits, as without a check.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "base/interrupt.h"
#include "core/uniform.h"
#include "support.h"

/* A check that records its calls and asks to stop at call `stop_at` (1:
 * the first; 0: never). */
typedef struct {
    uint64_t calls;
    uint64_t stop_at;
    uint64_t beyond;  /* calls with done > total (total known) */
    uint64_t largest_total;
} probe;

static int probe_check(void *context, uint64_t done, uint64_t total)
{
    probe *p = context;
    p->calls++;
    p->beyond += total > 0 && done > total;
    p->largest_total = total > p->largest_total ? total : p->largest_total;
    return p->stop_at != 0 && p->calls >= p->stop_at;
}

static dpsel_rng probed_rng(uint64_t seed, probe *p, uint64_t stop_at)
{
    *p = (probe){ 0, stop_at, 0, 0 };
    dpsel_rng rng = seeded_rng(seed);
    cr_assert_eq(dpsel_rng_set_interrupt(&rng, probe_check, p), DPSEL_OK);
    return rng;
}

/* The source's next 32 bits as a number: where a source stands. */
static uint64_t next_word(dpsel_rng *rng)
{
    uint64_t word = 0;
    cr_assert_eq(dpsel_core_uniform(rng, (uint64_t)1 << 32, &word), DPSEL_OK);
    return word;
}

/* ------------------------------------------------------------ quantiles */

#define VALUES (3 * DPSEL_INTERRUPT_EVERY + 5)
#define UPPER 10000

static int64_t *quantile_values(void)
{
    int64_t *values = malloc(VALUES * sizeof *values);
    cr_assert(values != NULL);
    uint64_t state = 11;
    for (size_t i = 0; i < VALUES; i++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        values[i] = (int64_t)((state >> 33) % (UPPER + 201)) - 100;  /* some clamped */
    }
    return values;
}

/* The checks a pass over the values makes at the least (one every
 * DPSEL_INTERRUPT_EVERY steps), times the clamp and the sort's passes. */
static uint64_t least_quantile_checks(void)
{
    uint64_t per_pass = (VALUES + DPSEL_INTERRUPT_EVERY - 1) / DPSEL_INTERRUPT_EVERY;
    uint64_t passes = 1;  /* the clamp */
    for (uint64_t width = 1; width < VALUES; width *= 2) {
        passes++;         /* a pass of the sort */
    }
    return per_pass * passes;
}

static void check_quantile(dpsel_mechanism mechanism)
{
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    int64_t *values = quantile_values();
    /* without a check, then with one that never stops: the same release and
     * the same bits read */
    dpsel_rng plain = seeded_rng(21);
    int64_t expected = -1, value = -1;
    cr_assert_eq(dpsel_quantile_select(selector, mechanism, 1, 2, values, VALUES, 0, UPPER,
                                       &plain, &expected), DPSEL_OK);
    probe seen;
    dpsel_rng rng = probed_rng(21, &seen, 0);
    cr_assert_eq(dpsel_quantile_select(selector, mechanism, 1, 2, values, VALUES, 0, UPPER, &rng,
                                       &value), DPSEL_OK);
    cr_expect_eq(value, expected, "a check that returns 0 changed the release");
    cr_expect_eq(next_word(&rng), next_word(&plain), "a check that returns 0 moved the source");
    cr_expect_geq(seen.calls, least_quantile_checks(), "%llu calls",
                  (unsigned long long)seen.calls);
    cr_expect_eq(seen.beyond, 0, "done > total");
    cr_expect_eq(seen.largest_total, VALUES);
    /* a stop at each of its calls: DPSEL_ECANCELED, nothing written */
    for (uint64_t k = 1; k <= seen.calls; k++) {
        probe stopping;
        dpsel_rng again = probed_rng(21, &stopping, k);
        value = -1;
        cr_expect_eq(dpsel_quantile_select(selector, mechanism, 1, 2, values, VALUES, 0, UPPER,
                                           &again, &value), DPSEL_ECANCELED, "stop at call %llu",
                     (unsigned long long)k);
        cr_expect_eq(value, -1, "stop at call %llu: the release written", (unsigned long long)k);
        cr_expect_eq(stopping.calls, k, "the call went on after the stop");
        dpsel_rng_wipe(&again);
    }
    dpsel_rng_wipe(&rng);
    dpsel_rng_wipe(&plain);
    free(values);
    dpsel_selector_free(selector);
}

Test(interrupt, quantile_em)
{
    check_quantile(DPSEL_EM);
}

Test(interrupt, quantile_pf)
{
    check_quantile(DPSEL_PF);
}

Test(interrupt, quantile_runs_new_runs_unchecked)
{
    /* the public runs object takes no source: built whole */
    int64_t *values = quantile_values();
    dpsel_quantile_runs *runs = NULL;
    cr_expect_eq(dpsel_quantile_runs_new(&runs, 1, 2, values, VALUES, 0, UPPER), DPSEL_OK);
    cr_expect_gt(dpsel_quantile_runs_count(runs), 0);
    dpsel_quantile_runs_free(runs);
    free(values);
}

/* ------------------------------------------------------- partial states */

#define CAP 8192
#define LEVELS 10000  /* distinct scores per state: more than two checks a pass */

static dpsel_params partial_params(void)
{
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "1", 1, 0), DPSEL_OK);
    cr_assert_eq(dpsel_params_set_gap_cap(&p, CAP), DPSEL_OK);
    return p;
}

/* A state of the scores first .. first + LEVELS - 1, drawn from seed. */
static dpsel_partial *partial_of(const dpsel_params *p, int64_t first, uint64_t seed)
{
    dpsel_partial *state = NULL;
    cr_assert_eq(dpsel_partial_new(&state, p), DPSEL_OK);
    dpsel_rng rng = seeded_rng(seed);
    for (int64_t s = 0; s < LEVELS; s++) {
        uint32_t member = (uint32_t)s;
        cr_assert_eq(dpsel_partial_add(state, first + s, &member, sizeof member, &rng), DPSEL_OK);
    }
    dpsel_rng_wipe(&rng);
    return state;
}

/* The state's serialised bytes (a new buffer). */
static unsigned char *bytes_of(const dpsel_partial *state, size_t *size)
{
    cr_assert_eq(dpsel_partial_serialize(state, NULL, 0, size), DPSEL_OK);
    unsigned char *buf = malloc(*size);
    cr_assert(buf != NULL);
    cr_assert_eq(dpsel_partial_serialize(state, buf, *size, size), DPSEL_OK);
    return buf;
}

/* B (a maximum LEVELS / 2 higher: its fold moves more than 4096 of A's
 * levels into the cap level) merged into A with rng. */
static int merge_pair(const dpsel_params *p, dpsel_rng *rng, dpsel_partial **a)
{
    *a = partial_of(p, 0, 1);
    dpsel_partial *b = partial_of(p, LEVELS / 2 + CAP / 2, 2);
    int rc = dpsel_partial_merge(*a, b, rng);
    cr_expect_eq(dpsel_partial_count(b), 0, "from is spent whatever the outcome");
    dpsel_partial_free(b);
    return rc;
}

Test(interrupt, partial_merge)
{
    dpsel_params p = partial_params();
    dpsel_rng plain = seeded_rng(31);
    dpsel_partial *expected = NULL, *merged = NULL;
    cr_assert_eq(merge_pair(&p, &plain, &expected), DPSEL_OK);
    probe seen;
    dpsel_rng rng = probed_rng(31, &seen, 0);
    cr_assert_eq(merge_pair(&p, &rng, &merged), DPSEL_OK);
    size_t size_expected, size_merged;
    unsigned char *want = bytes_of(expected, &size_expected);
    unsigned char *got = bytes_of(merged, &size_merged);
    cr_expect(size_expected == size_merged && memcmp(want, got, size_merged) == 0,
              "a check that returns 0 changed the merged state");
    cr_expect_eq(next_word(&rng), next_word(&plain), "a check that returns 0 moved the source");
    cr_expect_geq(seen.calls, 4, "%llu calls: the fold and the merge each ask twice or more",
                  (unsigned long long)seen.calls);
    cr_expect_eq(seen.beyond, 0, "done > total");
    for (uint64_t k = 1; k <= seen.calls; k++) {
        probe stopping;
        dpsel_rng again = probed_rng(31, &stopping, k);
        dpsel_partial *a = NULL;
        cr_expect_eq(merge_pair(&p, &again, &a), DPSEL_ECANCELED, "stop at call %llu",
                     (unsigned long long)k);
        cr_expect_eq(dpsel_partial_add(a, 1, "x", 1, &plain), DPSEL_ERANGE,
                     "stop at call %llu: the state merged into is not failed",
                     (unsigned long long)k);
        dpsel_partial_free(a);
        dpsel_rng_wipe(&again);
    }
    free(want);
    free(got);
    dpsel_partial_free(expected);
    dpsel_partial_free(merged);
    dpsel_rng_wipe(&rng);
    dpsel_rng_wipe(&plain);
}

/* A finish stopped at each call of the check it makes, then finished with
 * a check that never stops: the state was left as it was (the release and
 * the bits read those of a fresh state finished without a check). */
static void check_finish(dpsel_mechanism mechanism)
{
    dpsel_params p = partial_params();
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    dpsel_partial *a = partial_of(&p, 0, 3), *b = partial_of(&p, 0, 3);
    dpsel_rng plain = seeded_rng(41);
    const void *want = NULL, *got = NULL;
    size_t want_size = 0, got_size = 0;
    cr_assert_eq(dpsel_partial_finish(a, selector, mechanism, &plain, &want, &want_size),
                 DPSEL_OK);
    int rc = DPSEL_ECANCELED;
    for (uint64_t k = 1; rc == DPSEL_ECANCELED; k++) {
        probe seen;
        dpsel_rng rng = probed_rng(41, &seen, k);
        got = (const void *)&got;
        got_size = 99;
        rc = dpsel_partial_finish(b, selector, mechanism, &rng, &got, &got_size);
        cr_expect_eq(seen.beyond, 0, "done > total");
        if (rc == DPSEL_ECANCELED) {
            cr_expect(got == (const void *)&got && got_size == 99, "stop at call %llu: written",
                      (unsigned long long)k);
            cr_expect_eq(seen.calls, k, "the call went on after the stop");
        } else {      /* the check never asked to stop: k - 1 calls */
            cr_assert_eq(rc, DPSEL_OK);
            /* the CAP levels below the cap (LEVELS > CAP), one check per 4096 */
            cr_expect_geq(k - 1, CAP / DPSEL_INTERRUPT_EVERY);
            cr_expect(got_size == want_size && memcmp(got, want, got_size) == 0,
                      "a check that returns 0 (or a stopped finish) changed the release");
            cr_expect_eq(next_word(&rng), next_word(&plain), "the bits read changed");
        }
        dpsel_rng_wipe(&rng);
    }
    dpsel_partial_free(a);
    dpsel_partial_free(b);
    dpsel_rng_wipe(&plain);
    dpsel_selector_free(selector);
}

Test(interrupt, partial_finish_em)
{
    check_finish(DPSEL_EM);
}

Test(interrupt, partial_finish_pf)
{
    check_finish(DPSEL_PF);
}

Test(interrupt, partial_add_that_folds)
{
    /* a new maximum CAP + LEVELS above folds every level into the cap's */
    dpsel_params p = partial_params();
    dpsel_partial *a = partial_of(&p, 0, 5);
    probe seen;
    dpsel_rng rng = probed_rng(51, &seen, 1);
    cr_expect_eq(dpsel_partial_add(a, CAP + LEVELS, "top", 3, &rng), DPSEL_ECANCELED);
    cr_expect_eq(seen.calls, 1);
    cr_expect_eq(dpsel_partial_count(a), LEVELS, "the candidate not counted");
    cr_expect_eq(dpsel_partial_add(a, 1, "x", 1, &rng), DPSEL_ERANGE, "the state not failed");
    dpsel_partial_free(a);
    dpsel_rng_wipe(&rng);
}
