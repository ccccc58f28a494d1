/* SPDX-License-Identifier: ISC */
/* Score builders for histograms (spec/mechanisms.md §7): hand-computed cases,
 * the median score against its definition by breadth-first search over
 * record edits, sensitivity 1 exhaustively on small histograms, the int64
 * extremes; and a value of the paper reproduction, EM's expected error on a
 * DPBench histogram, against its formula in exact rationals. */
#include <criterion/criterion.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static void expect_scores(dpsel_task task, const int64_t *counts, size_t n, const int64_t *want)
{
    int64_t got[8];
    cr_assert(n <= 8);
    cr_assert_eq(dpsel_task_scores(task, counts, n, got), DPSEL_OK);
    for (size_t r = 0; r < n; r++) {
        cr_expect_eq(got[r], want[r], "bin %zu: score %lld, expected %lld", r,
                     (long long)got[r], (long long)want[r]);
    }
}

Test(tasks, hand_computed_cases)
{
    /* N = 10, cumulative 1, 3, 6, 10: the 5th record is in bin 2. */
    expect_scores(DPSEL_TASK_MEDIAN, (const int64_t[]){ 1, 2, 3, 4 }, 4,
                  (const int64_t[]){ -8, -4, 0, -3 });
    /* N = 5, all in bin 1: 5 records to add at bin 0, 6 at bin 2. */
    expect_scores(DPSEL_TASK_MEDIAN, (const int64_t[]){ 0, 5, 0 }, 3,
                  (const int64_t[]){ -5, 0, -6 });
    /* N = 4 split evenly: the lower median, bin 0. */
    expect_scores(DPSEL_TASK_MEDIAN, (const int64_t[]){ 2, 0, 2 }, 3,
                  (const int64_t[]){ 0, -1, -1 });
    /* No records: no bin holds the median; one added record settles it. */
    expect_scores(DPSEL_TASK_MEDIAN, (const int64_t[]){ 0, 0 }, 2, (const int64_t[]){ -1, -1 });
    expect_scores(DPSEL_TASK_MEDIAN, (const int64_t[]){ 7 }, 1, (const int64_t[]){ 0 });
    expect_scores(DPSEL_TASK_MODE, (const int64_t[]){ 3, 0, 9 }, 3, (const int64_t[]){ 3, 0, 9 });
}

Test(tasks, parameters)
{
    uint64_t d = 0;
    int monotonic = -1;
    cr_assert_eq(dpsel_task_params(DPSEL_TASK_MODE, &d, &monotonic), DPSEL_OK);
    cr_expect(d == 1 && monotonic == 1);
    cr_assert_eq(dpsel_task_params(DPSEL_TASK_MEDIAN, &d, &monotonic), DPSEL_OK);
    cr_expect(d == 1 && monotonic == 0);
    cr_expect_eq(dpsel_task_params((dpsel_task)2, &d, &monotonic), DPSEL_ERANGE);
    cr_expect_eq(dpsel_task_params(DPSEL_TASK_MODE, NULL, &monotonic), DPSEL_ENULL);
    cr_expect_eq(dpsel_task_params(DPSEL_TASK_MODE, &d, NULL), DPSEL_ENULL);
}

/* Small histograms as mixed-radix numbers: n bins, counts 0..side-1. */
#define MAX_BINS 4

static void decode(size_t index, size_t n, size_t side, int64_t *counts)
{
    for (size_t i = 0; i < n; i++) {
        counts[i] = (int64_t)(index % side);
        index /= side;
    }
}

static size_t encode(const int64_t *counts, size_t n, size_t side)
{
    size_t index = 0;
    for (size_t i = n; i-- > 0;) {
        index = index * side + (size_t)counts[i];
    }
    return index;
}

/* The definition, literally: fewer than half of the records lie before bin r
 * and at least half lie in it or before. */
static int holds_median(const int64_t *counts, size_t n, size_t r)
{
    int64_t total = 0, before = 0;
    for (size_t i = 0; i < n; i++) {
        total += counts[i];
        before += i < r ? counts[i] : 0;
    }
    return 2 * before < total && 2 * (before + counts[r]) >= total;
}

/* Breadth-first search from `start` over histograms with counts below
 * `side`, one record added or removed per step: dist[] receives every
 * distance (SIZE_MAX where unreached). */
static void edit_distances(const int64_t *start, size_t n, size_t side, size_t *dist, size_t *queue)
{
    size_t states = 1;
    for (size_t i = 0; i < n; i++) {
        states *= side;
    }
    for (size_t s = 0; s < states; s++) {
        dist[s] = SIZE_MAX;
    }
    size_t head = 0, tail = 0;
    queue[tail++] = encode(start, n, side);
    dist[queue[0]] = 0;
    while (head < tail) {
        size_t state = queue[head++];
        int64_t counts[MAX_BINS];
        decode(state, n, side, counts);
        for (size_t i = 0; i < n; i++) {
            for (int step = -1; step <= 1; step += 2) {
                counts[i] += step;
                if (counts[i] >= 0 && counts[i] < (int64_t)side) {
                    size_t next = encode(counts, n, side);
                    if (dist[next] == SIZE_MAX) {
                        dist[next] = dist[state] + 1;
                        queue[tail++] = next;
                    }
                }
                counts[i] -= step;
            }
        }
    }
}

/* Every histogram of up to 4 bins with counts 0..2 (and 3 bins, 0..3): the
 * score is minus the least number of edits to a histogram where the bin holds
 * the median.  The search region (counts up to 12) contains an optimal path:
 * adding at most N + 1 records to the bin itself. */
Test(tasks, median_score_is_the_edit_distance)
{
    enum { SIDE = 13 };
    size_t *dist = malloc(sizeof *dist * SIDE * SIDE * SIDE * SIDE);
    size_t *queue = malloc(sizeof *queue * SIDE * SIDE * SIDE * SIDE);
    cr_assert(dist != NULL && queue != NULL);
    size_t checked = 0;
    for (size_t n = 1; n <= MAX_BINS; n++) {
        size_t small = n == 4 ? 3 : 4, histograms = 1, states = 1;
        for (size_t i = 0; i < n; i++) {
            histograms *= small;
            states *= SIDE;
        }
        for (size_t h = 0; h < histograms; h++) {
            int64_t counts[MAX_BINS], scores[MAX_BINS], other[MAX_BINS];
            decode(h, n, small, counts);
            cr_assert_eq(dpsel_task_scores(DPSEL_TASK_MEDIAN, counts, n, scores), DPSEL_OK);
            edit_distances(counts, n, SIDE, dist, queue);
            for (size_t r = 0; r < n; r++) {
                size_t best = SIZE_MAX;
                for (size_t s = 0; s < states; s++) {
                    decode(s, n, SIDE, other);
                    if (dist[s] < best && holds_median(other, n, r)) {
                        best = dist[s];
                    }
                }
                cr_expect_eq(scores[r], -(int64_t)best, "histogram %zu of %zu bins, bin %zu", h, n, r);
                checked++;
            }
        }
    }
    cr_expect_eq(checked, 4 + 16 * 2 + 64 * 3 + 81 * 4);
    free(dist);
    free(queue);
}

/* Adding or removing one record moves every score by at most 1: every
 * histogram of up to 5 bins with counts 0..3, every neighbour. */
Test(tasks, sensitivity_one_exhaustively)
{
    enum { SIDE = 4, BINS = 5 };
    size_t pairs = 0;
    for (int task = DPSEL_TASK_MODE; task <= DPSEL_TASK_MEDIAN; task++) {
        for (size_t n = 1; n <= BINS; n++) {
            size_t histograms = 1;
            for (size_t i = 0; i < n; i++) {
                histograms *= SIDE;
            }
            for (size_t h = 0; h < histograms; h++) {
                int64_t counts[BINS], scores[BINS], moved[BINS];
                decode(h, n, SIDE, counts);
                cr_assert_eq(dpsel_task_scores((dpsel_task)task, counts, n, scores), DPSEL_OK);
                for (size_t i = 0; i < n; i++) {
                    for (int step = -1; step <= 1; step += 2) {
                        if (counts[i] + step < 0) {
                            continue;
                        }
                        counts[i] += step;
                        cr_assert_eq(dpsel_task_scores((dpsel_task)task, counts, n, moved), DPSEL_OK);
                        counts[i] -= step;
                        for (size_t r = 0; r < n; r++) {
                            cr_expect(llabs(moved[r] - scores[r]) <= 1, "task %d, histogram %zu, bin %zu",
                                      task, h, r);
                        }
                        pairs++;
                    }
                }
            }
        }
    }
    cr_expect_gt(pairs, 10000);
}

Test(tasks, int64_extremes_and_in_place)
{
    /* A bin after all INT64_MAX records needs 2^63 edits: the score INT64_MIN. */
    expect_scores(DPSEL_TASK_MEDIAN, (const int64_t[]){ INT64_MAX, 0 }, 2,
                  (const int64_t[]){ 0, INT64_MIN });
    expect_scores(DPSEL_TASK_MEDIAN, (const int64_t[]){ 0, INT64_MAX }, 2,
                  (const int64_t[]){ -INT64_MAX, 0 });
    expect_scores(DPSEL_TASK_MODE, (const int64_t[]){ INT64_MAX, 0 }, 2,
                  (const int64_t[]){ INT64_MAX, 0 });
    int64_t in_place[4] = { 1, 2, 3, 4 };
    cr_assert_eq(dpsel_task_scores(DPSEL_TASK_MEDIAN, in_place, 4, in_place), DPSEL_OK);
    cr_expect(in_place[0] == -8 && in_place[1] == -4 && in_place[2] == 0 && in_place[3] == -3);
}

Test(tasks, errors_leave_the_output_untouched)
{
    int64_t out[3] = { 11, 22, 33 };
    const int64_t negative[3] = { 1, -1, 2 };
    const int64_t too_many[3] = { INT64_MAX, 0, 1 };
    const int64_t fine[3] = { 1, 2, 3 };
    for (int task = DPSEL_TASK_MODE; task <= DPSEL_TASK_MEDIAN; task++) {
        cr_expect_eq(dpsel_task_scores((dpsel_task)task, negative, 3, out), DPSEL_ERANGE);
        cr_expect_eq(dpsel_task_scores((dpsel_task)task, too_many, 3, out), DPSEL_ERANGE);
        cr_expect_eq(dpsel_task_scores((dpsel_task)task, fine, 0, out), DPSEL_EEMPTY);
        cr_expect_eq(dpsel_task_scores((dpsel_task)task, NULL, 3, out), DPSEL_ENULL);
        cr_expect_eq(dpsel_task_scores((dpsel_task)task, fine, 3, NULL), DPSEL_ENULL);
    }
    cr_expect_eq(dpsel_task_scores((dpsel_task)7, fine, 3, out), DPSEL_ERANGE);
    cr_expect(out[0] == 11 && out[1] == 22 && out[2] == 33);
}

/* ------------------------------------------------- the paper reproduction */

/* The shipped HEPTH histogram (4096 bins) with adjacent bins summed by
 * `merge`, as examples/paper.sh does. */
static size_t merged_hepth(size_t merge, int64_t *counts, size_t capacity)
{
    FILE *f = fopen("examples/paper/data/hepth.csv", "r");
    cr_assert(f != NULL, "examples/paper/data/hepth.csv: run the tests from the repository root");
    char line[256];
    size_t bins = 0;
    long long bin, count;
    memset(counts, 0, capacity * sizeof *counts);
    while (fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "%lld,%lld", &bin, &count) == 2) {
            cr_assert((size_t)bin / merge < capacity);
            counts[(size_t)bin / merge] += count;
            bins++;
        }
    }
    fclose(f);
    cr_assert_eq(bins, 4096);
    return 4096 / merge;
}

/* sum_r g_r beta^g'_r / sum_r beta^g'_r, with exact rationals. */
static void em_error_exact(const dpsel_params *p, const int64_t *scores, size_t n, mpq_t error)
{
    int64_t best = scores[0];
    for (size_t r = 1; r < n; r++) {
        best = scores[r] > best ? scores[r] : best;
    }
    mpq_t weight, total, term;
    mpq_inits(weight, total, term, (mpq_ptr)0);
    mpq_set_ui(error, 0, 1);
    for (size_t r = 0; r < n; r++) {
        uint64_t gap = (uint64_t)(best - scores[r]);
        uint64_t g = gap < p->gap_cap ? gap : p->gap_cap;
        mpz_ui_pow_ui(mpq_numref(weight), p->x, g);
        mpz_ui_pow_ui(mpq_denref(weight), 2, p->y * g);
        mpq_canonicalize(weight);
        mpq_add(total, total, weight);
        mpq_set_ui(term, gap, 1);
        mpq_mul(term, term, weight);
        mpq_add(error, error, term);
    }
    mpq_div(error, error, total);
    mpq_clears(weight, total, term, (mpq_ptr)0);
}

/* dpsel's 17-digit decimal of EM's expected error lies within 5e-17
 * (relative) of the exact value: the correctly rounded decimal does. */
static void check_em_error(dpsel_task task, uint64_t x, unsigned y)
{
    int64_t counts[64];
    size_t n = merged_hepth(64, counts, 64);
    uint64_t d;
    int monotonic;
    cr_assert_eq(dpsel_task_params(task, &d, &monotonic), DPSEL_OK);
    cr_assert_eq(dpsel_task_scores(task, counts, n, counts), DPSEL_OK);
    dpsel_params params = base_params(x, y, d, monotonic);
    dpsel_pmf *pmf = NULL;
    char *text = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, &params, DPSEL_EM, counts, n), DPSEL_OK);
    cr_assert_eq(dpsel_pmf_expected_error(pmf, DPSEL_DECIMAL, &text), DPSEL_OK);
    mpq_t exact;
    mpq_init(exact);
    em_error_exact(&params, counts, n, exact);
    mpfr_t got, want, difference;
    mpfr_inits2(256, got, want, difference, (mpfr_ptr)0);
    mpfr_set_str(got, text, 10, MPFR_RNDN);
    mpfr_set_q(want, exact, MPFR_RNDN);
    mpfr_sub(difference, got, want, MPFR_RNDN);
    mpfr_div(difference, difference, want, MPFR_RNDN);
    char *exact_text = NULL;
    cr_assert(mpfr_asprintf(&exact_text, "%.20Rg", want) > 0);
    cr_expect(mpfr_cmp_ui(want, 1) > 0, "task %d: the error %s is too small to test much",
              task, exact_text);
    cr_expect(mpfr_cmp_d(difference, 5e-17) <= 0 && mpfr_cmp_d(difference, -5e-17) >= 0,
              "task %d: dpsel %s, exact %s", task, text, exact_text);
    mpfr_free_str(exact_text);
    mpfr_clears(got, want, difference, (mpfr_ptr)0);
    mpq_clear(exact);
    dpsel_string_free(text);
    dpsel_pmf_free(pmf);
}

/* HEPTH summed to 64 bins: the median at beta = 2047/2^11 (epsilon about
 * 0.00098), an expected error of about 141 records; the mode at beta = 255/2^8
 * (epsilon about 0.0039), about 2.3. */
Test(paper, em_error_on_hepth_equals_its_formula)
{
    check_em_error(DPSEL_TASK_MEDIAN, 2047, 11);
    check_em_error(DPSEL_TASK_MODE, 255, 8);
}
