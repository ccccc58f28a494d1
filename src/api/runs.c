/* SPDX-License-Identifier: ISC */
/* EM and PF over runs of equal scores (runs.h). */
#include <stdlib.h>

#include "runs.h"
#include "selector.h"

#include "../base/interrupt.h"
#include "../core/core.h"
#include "../core/em_runs.h"
#include "../core/gap.h"
#include "../core/uniform.h"
#include "../exact/pf_runs.h"

/* EM by levels with the runs' lengths as multiplicities (core/em_runs.c). */
static int runs_em(const dpsel_selector *selector, const int64_t *scores,
                   const uint64_t *lengths, size_t count, uint64_t total, dpsel_rng *rng,
                   size_t *run, uint64_t *offset)
{
    dpsel_decay decay = dpsel_selector_decay(selector);
    if (total > DPSEL_RUNS_EM_MAX || decay.npowers > DPSEL_LEVELS_MAX_POWERS) {
        return DPSEL_ERANGE;
    }
    uint64_t *levels = calloc(decay.cap + 1, sizeof *levels);
    if (levels == NULL) {
        return DPSEL_ENOMEM;
    }
    /* total 2^envelope < 2^63 bounds the sums (spec/quantiles.md §4) */
    unsigned envelope = 63 - dpsel_core_bitlen(total);
    int rc = dpsel_core_em_runs(rng, &decay, scores, lengths, count, total, envelope, levels,
                                run, offset);
    free(levels);
    return rc;
}

/* Run j of a pass over the runs: the interrupt check every
 * DPSEL_INTERRUPT_EVERY runs, then its length added to *seen, which must
 * stay at most total (DPSEL_EINTERNAL). */
static int next_run(const dpsel_rng *rng, const uint64_t *lengths, size_t count,
                    uint64_t total, size_t j, uint64_t *seen)
{
    int rc = dpsel_internal_interrupted_every(rng, j, count);
    if (rc != DPSEL_OK) {
        return rc;
    }
    if (lengths[j] > total - *seen) {
        return DPSEL_EINTERNAL;  /* more candidates than total */
    }
    *seen += lengths[j];
    return DPSEL_OK;
}

/* The clamped gap of every run's score below the best, and each level's
 * candidates: members[g] for g = 0 .. cap (cap + 1 words, zeroed). */
static int count_levels(const dpsel_rng *rng, const int64_t *scores, const uint64_t *lengths,
                        size_t count, uint64_t total, int64_t best, uint64_t cap,
                        uint64_t *members)
{
    uint64_t seen = 0;
    for (size_t j = 0; j < count; j++) {
        int rc = next_run(rng, lengths, count, total, j, &seen);
        if (rc != DPSEL_OK) {
            return rc;
        }
        members[dpsel_core_clamped_gap(best, scores[j], cap)] += lengths[j];
    }
    return seen == total ? DPSEL_OK : DPSEL_EINTERNAL;
}

/* The levels that hold candidates, in place: gaps[l] and members[l] for
 * l < *levels, gaps increasing. */
static void compact_levels(uint64_t cap, uint64_t *members, uint64_t *gaps, size_t *levels)
{
    size_t used = 0;
    for (uint64_t g = 0; g <= cap; g++) {
        if (members[g] > 0) {
            gaps[used] = g;
            members[used++] = members[g];
        }
    }
    *levels = used;
}

/* The run and offset of the index-th candidate of clamped gap `gap`, in the
 * runs' order. */
static int locate_in_level(const dpsel_rng *rng, const int64_t *scores, const uint64_t *lengths,
                           size_t count, int64_t best, uint64_t cap, uint64_t gap,
                           uint64_t index, size_t *run, uint64_t *offset)
{
    for (size_t j = 0; j < count; j++) {
        int rc = dpsel_internal_interrupted_every(rng, j, count);
        if (rc != DPSEL_OK) {
            return rc;
        }
        if (dpsel_core_clamped_gap(best, scores[j], cap) != gap) {
            continue;
        }
        if (index < lengths[j]) {
            *run = j;
            *offset = index;
            return DPSEL_OK;
        }
        index -= lengths[j];
    }
    return DPSEL_EINTERNAL;  /* the level's count was made from these runs */
}

/* PF over the runs grouped by clamped gap (spec/quantiles.md §7): the level
 * by the exact race of src/exact/pf_runs.c, then a uniform member of it
 * (PF is exchangeable within a level). */
static int runs_pf(const dpsel_selector *selector, const int64_t *scores,
                   const uint64_t *lengths, size_t count, uint64_t total, dpsel_rng *rng,
                   size_t *run, uint64_t *offset)
{
    const dpsel_params *p = &selector->params;
    int64_t best = scores[dpsel_core_argmax(scores, count)];
    uint64_t *members = calloc(p->gap_cap + 1, sizeof *members);
    uint64_t *gaps = malloc((p->gap_cap + 1) * sizeof *gaps);
    int rc = members == NULL || gaps == NULL ? DPSEL_ENOMEM : DPSEL_OK;
    if (rc == DPSEL_OK) {
        rc = count_levels(rng, scores, lengths, count, total, best, p->gap_cap, members);
    }
    size_t levels = 0, level = 0;
    if (rc == DPSEL_OK) {
        compact_levels(p->gap_cap, members, gaps, &levels);
        rc = dpsel_exact_pf_groups(p->x, p->y, gaps, members, levels, DPSEL_PF_RUNS_FIRST_BITS,
                                   rng, &level);
    }
    uint64_t index = 0;
    if (rc == DPSEL_OK) {
        rc = dpsel_core_uniform(rng, members[level], &index);  /* at most total <= 2^62 */
    }
    if (rc == DPSEL_OK) {
        rc = locate_in_level(rng, scores, lengths, count, best, p->gap_cap, gaps[level], index,
                             run, offset);
    }
    free(members);
    free(gaps);
    return rc;
}

/* Every candidate's score, run by run, into expanded[0 .. total - 1]. */
static int expand_runs(const dpsel_rng *rng, const int64_t *scores, const uint64_t *lengths,
                       size_t count, uint64_t total, int64_t *expanded)
{
    uint64_t seen = 0;
    for (size_t j = 0; j < count; j++) {
        uint64_t start = seen;
        int rc = next_run(rng, lengths, count, total, j, &seen);
        if (rc != DPSEL_OK) {
            return rc;
        }
        for (uint64_t k = start; k < seen; k++) {
            expanded[k] = scores[j];
        }
    }
    return seen == total ? DPSEL_OK : DPSEL_EINTERNAL;
}

/* The run and offset of candidate `index` in the runs' order. */
static int locate(const uint64_t *lengths, size_t count, uint64_t index, size_t *run,
                  uint64_t *offset)
{
    for (size_t j = 0; j < count; j++) {
        if (index < lengths[j]) {
            *run = j;
            *offset = index;
            return DPSEL_OK;
        }
        index -= lengths[j];
    }
    return DPSEL_EINTERNAL;  /* expand_runs checked that the lengths add up */
}

/* The mechanism over the candidates themselves, expanded (total 8-byte
 * scores): the core's samplers through dpsel_select, the very law the runs
 * stand for, with no MPFR. */
static int expanded_select(const dpsel_selector *selector, dpsel_mechanism mechanism,
                           const int64_t *scores, const uint64_t *lengths, size_t count,
                           uint64_t total, dpsel_rng *rng, size_t *run, uint64_t *offset)
{
    int64_t *expanded = malloc(total * sizeof *expanded);
    if (expanded == NULL) {
        return DPSEL_ENOMEM;
    }
    size_t index = 0;
    int rc = expand_runs(rng, scores, lengths, count, total, expanded);
    if (rc == DPSEL_OK) {
        rc = dpsel_select(selector, mechanism, expanded, total, rng, &index);
    }
    if (rc == DPSEL_OK) {
        rc = locate(lengths, count, index, run, offset);
    }
    free(expanded);
    return rc;
}

/* Whether the candidates are few enough to select over them expanded: for
 * PF, at most DPSEL_RUNS_EXPAND_MAX; for EM, also fewer than its levels'
 * words (cap + 1), which EM by runs would allocate and pass over. */
static int expand_applies(const dpsel_selector *selector, dpsel_mechanism mechanism,
                          uint64_t total)
{
    return total > 0 && total <= DPSEL_RUNS_EXPAND_MAX
           && (mechanism == DPSEL_PF || total <= selector->params.gap_cap);
}

int dpsel_internal_runs_select(const dpsel_selector *selector, dpsel_mechanism mechanism,
                               const int64_t *scores, const uint64_t *lengths, size_t count,
                               uint64_t total, dpsel_rng *rng, size_t *run, uint64_t *offset)
{
    if (expand_applies(selector, mechanism, total)) {
        return expanded_select(selector, mechanism, scores, lengths, count, total, rng, run,
                               offset);
    }
    return mechanism == DPSEL_EM
           ? runs_em(selector, scores, lengths, count, total, rng, run, offset)
           : runs_pf(selector, scores, lengths, count, total, rng, run, offset);
}
