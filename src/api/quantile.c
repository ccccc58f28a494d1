/* SPDX-License-Identifier: ISC */
/*
 * The quantile mechanism (spec/quantiles.md): the grid cut into runs of
 * equal score, a selection over them (runs.c: EM by levels with the runs'
 * lengths as multiplicities, or PF's race over the grid's points), and the
 * exact distribution over the runs (a grouped pmf).
 */
#include <stdlib.h>
#include <string.h>

#include "../base/interrupt.h"
#include "../base/progress_meter.h"
#include "../core/validate.h"
#include "../exact/joint.h"
#include "../exact/joint_pmf.h"
#include "runs.h"
#include "selector.h"

#include "../core/core.h"

/* The grid lower .. upper cut where the score changes: run j holds the
 * length[j] points from lower + start[j] on, all of score score[j]. */
struct dpsel_quantile_runs {
    uint64_t a, b;      /* the quantile a / b */
    int64_t lower;
    uint64_t points;    /* the grid's points, upper - lower + 1 */
    size_t count;
    uint64_t *start;    /* offsets from the grid's lower end, increasing */
    uint64_t *length;   /* >= 1; the lengths add up to the grid's points */
    int64_t *score;
    int relative;       /* b m >= 2^63: scores less the best run's, saturated */
};

__extension__ typedef __int128 wide_score;

/* Merges the sorted from[lo, mid) and from[mid, hi) into to[lo, hi),
 * asking the interrupt check as it goes (done: the pass's place among m). */
static int merge_halves(const int64_t *from, int64_t *to, size_t lo, size_t mid, size_t hi,
                        size_t m, const dpsel_rng *rng)
{
    size_t i = lo, j = mid;
    for (size_t k = lo; k < hi; k++) {
        int rc = dpsel_internal_interrupted_every(rng, k, m);
        if (rc != DPSEL_OK) {
            return rc;
        }
        to[k] = j >= hi || (i < mid && from[i] <= from[j]) ? from[i++] : from[j++];
    }
    return DPSEL_OK;
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* v[0 .. m) sorted, a bottom-up merge sort through spare (room for m):
 * unlike qsort, it stops when the interrupt check asks.  The caller's m
 * values fill m * 8 bytes, so lo + 2 * width < 3m cannot overflow. */
static int sort_values(int64_t *v, int64_t *spare, size_t m, const dpsel_rng *rng)
{
    int64_t *from = v, *to = spare;
    for (size_t width = 1; width < m; width *= 2) {
        for (size_t lo = 0; lo < m; lo += 2 * width) {
            size_t mid = min_size(lo + width, m), hi = min_size(lo + 2 * width, m);
            int rc = merge_halves(from, to, lo, mid, hi, m, rng);
            if (rc != DPSEL_OK) {
                return rc;
            }
        }
        int64_t *swap = from;
        from = to;
        to = swap;
    }
    if (from != v) {
        memcpy(v, from, m * sizeof *v);
    }
    return DPSEL_OK;
}

/* The values clamped into the grid, sorted, in a new array (*sorted NULL
 * for m = 0 or on an error). */
static int sorted_on_grid(const int64_t *values, size_t m, int64_t lower, int64_t upper,
                          const dpsel_rng *rng, int64_t **sorted)
{
    *sorted = NULL;
    if (m == 0) {
        return DPSEL_OK;
    }
    int64_t *copy = malloc(m * sizeof *copy);
    int64_t *spare = malloc(m * sizeof *spare);
    int rc = copy == NULL || spare == NULL ? DPSEL_ENOMEM : DPSEL_OK;
    for (size_t i = 0; i < m && rc == DPSEL_OK; i++) {
        rc = dpsel_internal_interrupted_every(rng, i, m);
        copy[i] = values[i] < lower ? lower : values[i] > upper ? upper : values[i];
    }
    if (rc == DPSEL_OK) {
        rc = sort_values(copy, spare, m, rng);
    }
    free(spare);
    if (rc != DPSEL_OK) {
        free(copy);
        return rc;
    }
    *sorted = copy;
    return DPSEL_OK;
}

/* -|(b - a) L - a G| in 128 bits: both products are below 2^60 2^64. */
static wide_score quantile_score(const dpsel_quantile_runs *runs, uint64_t below,
                                 uint64_t above)
{
    wide_score under = (wide_score)(runs->b - runs->a) * below;
    wide_score over = (wide_score)runs->a * above;
    return under >= over ? over - under : under - over;
}

static void add_run(dpsel_quantile_runs *runs, wide_score *scores, uint64_t start,
                    uint64_t length, wide_score score)
{
    runs->start[runs->count] = start;
    runs->length[runs->count] = length;
    scores[runs->count] = score;
    runs->count++;
}

/* The scores as int64: as they are when b m <= 2^63 - 1; otherwise less
 * the best run's and saturated at -(2^63 - 1).  The count m is data, so it
 * must never refuse a release (spec/quantiles.md §6): shifting every score
 * by the same amount changes no gap, and a gap past 2^63 - 1 is far beyond
 * any gap cap (at most 2^20), so the releases' law is the same. */
static void store_scores(dpsel_quantile_runs *runs, const wide_score *scores, size_t m)
{
    runs->relative = m > (uint64_t)INT64_MAX / runs->b;
    wide_score best = scores[0];
    for (size_t j = 1; j < runs->count; j++) {
        best = scores[j] > best ? scores[j] : best;
    }
    for (size_t j = 0; j < runs->count; j++) {
        wide_score score = runs->relative ? scores[j] - best : scores[j];
        runs->score[j] = score < -(wide_score)INT64_MAX ? -INT64_MAX : (int64_t)score;
    }
}

/* At most 2k + 1 runs for k distinct values: the points between them and
 * each value's own point (§4).  The interrupt check counts distinct values. */
static int cut_runs(dpsel_quantile_runs *runs, wide_score *scores, const int64_t *sorted,
                    size_t m, const dpsel_rng *rng)
{
    uint64_t next = 0;  /* the first point not yet in a run */
    size_t i = 0;
    for (size_t distinct = 0; i < m; distinct++) {
        int rc = dpsel_internal_interrupted_every(rng, distinct, m);
        if (rc != DPSEL_OK) {
            return rc;
        }
        uint64_t point = (uint64_t)sorted[i] - (uint64_t)runs->lower;
        size_t equal = 1;
        while (i + equal < m && sorted[i + equal] == sorted[i]) {
            equal++;
        }
        if (point > next) {
            add_run(runs, scores, next, point - next, quantile_score(runs, i, m - i));
        }
        add_run(runs, scores, point, 1, quantile_score(runs, i, m - i - equal));
        next = point + 1;
        i += equal;
    }
    if (next < runs->points) {
        add_run(runs, scores, next, runs->points - next, quantile_score(runs, m, 0));
    }
    return DPSEL_OK;
}

/* a / b in lowest terms in (0, 1), b within the limit */
static int valid_fraction(uint64_t a, uint64_t b)
{
    uint64_t x = a, y = b;
    while (y != 0) {
        uint64_t r = x % y;
        x = y;
        y = r;
    }
    return 0 < a && a < b && b <= DPSEL_QUANTILE_DENOMINATOR_MAX && x == 1;
}

void dpsel_quantile_runs_free(dpsel_quantile_runs *runs)
{
    if (runs != NULL) {
        free(runs->start);
        free(runs->length);
        free(runs->score);
        free(runs);
    }
}

/* The runs' arrays for up to capacity runs, and the runs cut. */
static int runs_fill(dpsel_quantile_runs *runs, const int64_t *values, size_t m,
                     int64_t upper, const dpsel_rng *rng)
{
    int64_t *sorted;
    int rc = sorted_on_grid(values, m, runs->lower, upper, rng, &sorted);
    if (rc != DPSEL_OK) {
        return rc;
    }
    size_t capacity = 2 * m + 1;  /* the caller's m values fill 8 m bytes */
    if (capacity > SIZE_MAX / sizeof(wide_score)) {
        free(sorted);
        return DPSEL_ENOMEM;
    }
    runs->start = malloc(capacity * sizeof *runs->start);
    runs->length = malloc(capacity * sizeof *runs->length);
    runs->score = malloc(capacity * sizeof *runs->score);
    wide_score *scores = malloc(capacity * sizeof *scores);
    if (runs->start == NULL || runs->length == NULL || runs->score == NULL || scores == NULL) {
        rc = DPSEL_ENOMEM;
    } else {
        rc = cut_runs(runs, scores, sorted, m, rng);
    }
    if (rc == DPSEL_OK) {
        store_scores(runs, scores, m);
    }
    free(scores);
    free(sorted);
    return rc;
}

/* dpsel_quantile_runs_new, asking rng's interrupt check (if rng is not
 * NULL) while it clamps, sorts and cuts: the work that grows with m. */
static int runs_new(dpsel_quantile_runs **out, uint64_t a, uint64_t b, const int64_t *values,
                    size_t m, int64_t lower, int64_t upper, const dpsel_rng *rng)
{
    if (out == NULL || (values == NULL && m > 0)) {
        return DPSEL_ENULL;
    }
    if (!valid_fraction(a, b) || lower > upper
        || (uint64_t)upper - (uint64_t)lower >= DPSEL_MAX_CANDIDATES) {
        return DPSEL_ERANGE;
    }
    dpsel_quantile_runs *runs = calloc(1, sizeof *runs);
    if (runs == NULL) {
        return DPSEL_ENOMEM;
    }
    runs->a = a;
    runs->b = b;
    runs->lower = lower;
    runs->points = (uint64_t)upper - (uint64_t)lower + 1;
    int rc = runs_fill(runs, values, m, upper, rng);
    if (rc != DPSEL_OK) {
        dpsel_quantile_runs_free(runs);
        return rc;
    }
    *out = runs;
    return DPSEL_OK;
}

int dpsel_quantile_runs_new(dpsel_quantile_runs **out, uint64_t a, uint64_t b,
                            const int64_t *values, size_t m, int64_t lower, int64_t upper)
{
    return runs_new(out, a, b, values, m, lower, upper, NULL);
}

size_t dpsel_quantile_runs_count(const dpsel_quantile_runs *runs)
{
    return runs != NULL ? runs->count : 0;
}

int dpsel_quantile_runs_get(const dpsel_quantile_runs *runs, size_t i, int64_t *first,
                            uint64_t *points, int64_t *score)
{
    if (runs == NULL) {
        return DPSEL_ENULL;
    }
    if (i >= runs->count) {
        return DPSEL_ERANGE;
    }
    if (first != NULL) {
        *first = (int64_t)((uint64_t)runs->lower + runs->start[i]);
    }
    if (points != NULL) {
        *points = runs->length[i];
    }
    if (score != NULL) {
        *score = runs->score[i];
    }
    return DPSEL_OK;
}

/* Parameters whose epsilon holds for the runs' scores. */
static int made_for(const dpsel_params *params, const dpsel_quantile_runs *runs)
{
    uint64_t sensitivity = runs->a > runs->b - runs->a ? runs->a : runs->b - runs->a;
    return params->sensitivity >= sensitivity && !params->monotonic;
}

int dpsel_quantile_select_runs(const dpsel_selector *selector, dpsel_mechanism mechanism,
                               const dpsel_quantile_runs *runs, dpsel_rng *rng, int64_t *value)
{
    if (selector == NULL || runs == NULL || rng == NULL || value == NULL) {
        return DPSEL_ENULL;
    }
    if ((mechanism != DPSEL_EM && mechanism != DPSEL_PF) || !made_for(&selector->params, runs)) {
        return DPSEL_ERANGE;
    }
    size_t run = 0;
    uint64_t offset = 0;
    int rc = dpsel_internal_runs_select(selector, mechanism, runs->score, runs->length,
                                        runs->count, runs->points, rng, &run, &offset);
    if (rc == DPSEL_OK) {
        *value = (int64_t)((uint64_t)runs->lower + runs->start[run] + offset);
    }
    return rc;
}

int dpsel_quantile_select(const dpsel_selector *selector, dpsel_mechanism mechanism, uint64_t a,
                          uint64_t b, const int64_t *values, size_t m, int64_t lower,
                          int64_t upper, dpsel_rng *rng, int64_t *value)
{
    if (selector == NULL || rng == NULL || value == NULL) {
        return DPSEL_ENULL;
    }
    dpsel_quantile_runs *runs = NULL;
    int rc = runs_new(&runs, a, b, values, m, lower, upper, rng);
    if (rc == DPSEL_OK) {
        rc = dpsel_quantile_select_runs(selector, mechanism, runs, rng, value);
    }
    dpsel_quantile_runs_free(runs);
    return rc;
}

int dpsel_quantile_pmf_new(dpsel_pmf **out, const dpsel_params *params,
                           dpsel_mechanism mechanism, const dpsel_quantile_runs *runs)
{
    return dpsel_quantile_pmf_new_progress(out, params, mechanism, runs, NULL, NULL);
}

int dpsel_quantile_pmf_new_progress(dpsel_pmf **out, const dpsel_params *params,
                                    dpsel_mechanism mechanism, const dpsel_quantile_runs *runs,
                                    dpsel_progress_fn progress, void *context)
{
    if (out == NULL || params == NULL || runs == NULL) {
        return DPSEL_ENULL;
    }
    if (!made_for(params, runs) || runs->relative) {
        return DPSEL_ERANGE;
    }
    return dpsel_pmf_new_progress(out, params, mechanism, runs->score, runs->length, runs->count,
                                  progress, context);
}

int dpsel_quantile_pmf_exact_work(const dpsel_params *params, dpsel_mechanism mechanism,
                                  const dpsel_quantile_runs *runs, uint64_t *work,
                                  uint64_t *limit)
{
    if (params == NULL || runs == NULL) {
        return DPSEL_ENULL;
    }
    if (!made_for(params, runs) || runs->relative) {
        return DPSEL_ERANGE;
    }
    return dpsel_pmf_exact_work(params, mechanism, runs->score, runs->length, runs->count, work,
                                limit);
}

int dpsel_quantiles_joint_sensitivity(const uint64_t *a, const uint64_t *b, size_t m,
                                      uint64_t *sensitivity)
{
    uint64_t denominator;
    size_t bad;
    return dpsel_exact_joint_quantiles(a, b, m, &denominator, sensitivity, &bad);
}

/* The checks of the public parameters before the values are sorted. */
static int joint_checks(const dpsel_params *params, const uint64_t *a, const uint64_t *b,
                        size_t m, int64_t lower, int64_t upper)
{
    uint64_t denominator, sensitivity;
    size_t bad;
    int rc = dpsel_exact_joint_quantiles(a, b, m, &denominator, &sensitivity, &bad);
    if (rc == DPSEL_OK
        && (params->sensitivity < sensitivity || params->monotonic
            || !dpsel_exact_joint_decay_within(params->x, params->y, denominator) || lower > upper
            || (uint64_t)upper - (uint64_t)lower >= DPSEL_MAX_CANDIDATES)) {
        rc = DPSEL_ERANGE;
    }
    return rc;
}

/* JointExp's problem for params (their base) of the values: the checks,
 * then the values clamped and sorted (rng's interrupt check asked; NULL:
 * none).  Free it with dpsel_exact_joint_problem_free, also on failure. */
static int joint_problem(dpsel_joint_problem *problem, const dpsel_params *params,
                         const uint64_t *a, const uint64_t *b, size_t m, const int64_t *values,
                         size_t n, int64_t lower, int64_t upper, const dpsel_rng *rng)
{
    memset(problem, 0, sizeof *problem);
    int rc = joint_checks(params, a, b, m, lower, upper);
    int64_t *sorted = NULL;
    if (rc == DPSEL_OK) {
        rc = sorted_on_grid(values, n, lower, upper, rng, &sorted);
    }
    if (rc == DPSEL_OK) {
        rc = dpsel_exact_joint_problem_init(problem, params->x, params->y, a, b, m, sorted, n,
                                            lower, upper);
    }
    free(sorted);
    return rc;
}

int dpsel_quantiles_joint_select_cost(size_t m, size_t n, size_t count, uint64_t *steps,
                                      uint64_t *bytes)
{
    if (steps == NULL || bytes == NULL) {
        return DPSEL_ENULL;
    }
    if (m == 0 || m > DPSEL_JOINT_QUANTILES_MAX || count == 0) {
        return DPSEL_ERANGE;
    }
    dpsel_exact_joint_cost(m, n, count, steps, bytes);
    return DPSEL_OK;
}

int dpsel_quantiles_joint_select_many_progress(const dpsel_selector *selector, const uint64_t *a,
                                               const uint64_t *b, size_t m,
                                               const int64_t *values, size_t n, int64_t lower,
                                               int64_t upper, dpsel_rng *rng, size_t count,
                                               int64_t *out, dpsel_progress_fn progress,
                                               void *context)
{
    if (selector == NULL || rng == NULL || out == NULL || (values == NULL && n > 0)) {
        return DPSEL_ENULL;
    }
    dpsel_joint_problem problem;
    int rc = joint_problem(&problem, &selector->params, a, b, m, values, n, lower, upper, rng);
    if (rc == DPSEL_OK && (count == 0 || count > SIZE_MAX / sizeof *out / m)) {
        rc = DPSEL_ERANGE;
    }
    dpsel_progress meter;
    dpsel_progress_init(&meter, progress, context);
    if (rc == DPSEL_OK) {
        uint64_t steps, bytes;
        dpsel_exact_joint_cost(m, n, count, &steps, &bytes);
        /* the whole only with the finish, once the releases are drawn */
        dpsel_progress_phase(&meter, 0, DPSEL_PROGRESS_SCALE - 1);
        dpsel_progress_expect(&meter, steps);
        rc = dpsel_exact_joint_sample(&problem, rng, count, out, &meter);
    }
    dpsel_exact_joint_problem_free(&problem);
    return rc;
}

int dpsel_quantiles_joint_select_many(const dpsel_selector *selector, const uint64_t *a,
                                      const uint64_t *b, size_t m, const int64_t *values,
                                      size_t n, int64_t lower, int64_t upper, dpsel_rng *rng,
                                      size_t count, int64_t *out)
{
    return dpsel_quantiles_joint_select_many_progress(selector, a, b, m, values, n, lower, upper,
                                                      rng, count, out, NULL, NULL);
}

int dpsel_quantiles_joint_select(const dpsel_selector *selector, const uint64_t *a,
                                 const uint64_t *b, size_t m, const int64_t *values, size_t n,
                                 int64_t lower, int64_t upper, dpsel_rng *rng, int64_t *out)
{
    return dpsel_quantiles_joint_select_many(selector, a, b, m, values, n, lower, upper, rng, 1,
                                             out);
}

int dpsel_quantiles_joint_pmf_new(dpsel_joint_pmf **out, const dpsel_params *params,
                                  const uint64_t *a, const uint64_t *b, size_t m,
                                  const int64_t *values, size_t n, int64_t lower, int64_t upper,
                                  dpsel_progress_fn progress, void *context)
{
    if (out == NULL || params == NULL || (values == NULL && n > 0)) {
        return DPSEL_ENULL;
    }
    if (!dpsel_core_params_valid(params)) {
        return DPSEL_ERANGE;
    }
    dpsel_joint_problem problem;
    int rc = joint_problem(&problem, params, a, b, m, values, n, lower, upper, NULL);
    if (rc == DPSEL_OK) {
        rc = dpsel_exact_joint_pmf_new(out, &problem, progress, context);
    }
    dpsel_exact_joint_problem_free(&problem);
    return rc;
}
