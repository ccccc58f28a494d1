/* SPDX-License-Identifier: ISC */
/*
 * Score builders for the permute-and-flip paper's tasks on a histogram
 * (spec/mechanisms.md §7): mode and median over bins.
 *
 * All arithmetic is on uint64_t with the counts' total N <= INT64_MAX, so
 * nothing wraps: every partial sum and every difference formed below lies in
 * [0, N + 1] <= 2^63.
 */
#include "dpsel.h"

/* The total of the counts into *total; -1 if a count is negative or the total
 * exceeds INT64_MAX. */
static int histogram_total(const int64_t *counts, size_t n, uint64_t *total)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (counts[i] < 0 || (uint64_t)counts[i] > (uint64_t)INT64_MAX - sum) {
            return -1;
        }
        sum += (uint64_t)counts[i];
    }
    *total = sum;
    return 0;
}

/* The number of records to add or remove so that the bin holding `here`
 * records, with `left` records in the bins before it and `right` after it,
 * holds the median.  It holds the median when left < here + right (fewer than
 * half the records lie strictly before it) and left + here >= right (at least
 * half lie in it or before).  One added or removed record moves each of the
 * two differences by exactly 1, so the distance is the larger shortfall. */
static uint64_t median_distance(uint64_t left, uint64_t here, uint64_t right)
{
    if (right > left + here) {
        return right - (left + here);
    }
    if (left + 1 > here + right) {
        return left + 1 - (here + right);
    }
    return 0;
}

/* -distance as an int64: distance <= 2^63, and -2^63 is INT64_MIN. */
static int64_t negated(uint64_t distance)
{
    return distance == 0 ? 0 : -(int64_t)(distance - 1) - 1;
}

int dpsel_task_scores(dpsel_task task, const int64_t *counts, size_t n, int64_t *scores)
{
    uint64_t total;
    if (counts == NULL || scores == NULL) {
        return DPSEL_ENULL;
    }
    if (n == 0) {
        return DPSEL_EEMPTY;
    }
    if ((task != DPSEL_TASK_MODE && task != DPSEL_TASK_MEDIAN)
        || histogram_total(counts, n, &total) != 0) {
        return DPSEL_ERANGE;
    }
    uint64_t left = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t here = (uint64_t)counts[i];  /* read before scores[i] may overwrite it */
        scores[i] = task == DPSEL_TASK_MODE ? counts[i]
                  : negated(median_distance(left, here, total - left - here));
        left += here;
    }
    return DPSEL_OK;
}

int dpsel_task_params(dpsel_task task, uint64_t *sensitivity, int *monotonic)
{
    if (sensitivity == NULL || monotonic == NULL) {
        return DPSEL_ENULL;
    }
    if (task != DPSEL_TASK_MODE && task != DPSEL_TASK_MEDIAN) {
        return DPSEL_ERANGE;
    }
    *sensitivity = 1;
    *monotonic = task == DPSEL_TASK_MODE;
    return DPSEL_OK;
}
