/* SPDX-License-Identifier: ISC */
/* EM and PF over runs of equal scores (runs.h). */
#include <stdlib.h>

#include "runs.h"
#include "selector.h"

#include "core/core.h"
#include "core/em_runs.h"
#include "core/gap.h"

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

/* The run and offset of position `index` in the runs' order. */
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
    return DPSEL_EINTERNAL;  /* the stream released one of the positions fed */
}

/* Each run's score as many times as it has candidates, in blocks of one
 * repeated score. */
#define PF_REPEAT 4096

/* PF's race over every candidate, fed run by run to the stream. */
static int runs_pf(const dpsel_selector *selector, const int64_t *scores,
                   const uint64_t *lengths, size_t count, dpsel_rng *rng, size_t *run,
                   uint64_t *offset)
{
    int64_t repeated[PF_REPEAT];
    dpsel_pf_stream stream;
    int rc = dpsel_pf_stream_start(&stream, selector, scores[dpsel_core_argmax(scores, count)]);
    for (size_t j = 0; j < count && rc == DPSEL_OK; j++) {
        uint64_t left = lengths[j];
        size_t filled = left < PF_REPEAT ? (size_t)left : PF_REPEAT;
        for (size_t i = 0; i < filled; i++) {
            repeated[i] = scores[j];
        }
        while (left > 0 && rc == DPSEL_OK) {
            size_t take = left < filled ? (size_t)left : filled;
            rc = dpsel_pf_stream_add_scores(&stream, repeated, take, rng);
            left -= take;
        }
    }
    size_t index = 0;
    if (rc == DPSEL_OK) {
        rc = dpsel_pf_stream_finish(&stream, rng, &index);
    }
    return rc == DPSEL_OK ? locate(lengths, count, index, run, offset) : rc;
}

int dpsel_internal_runs_select(const dpsel_selector *selector, dpsel_mechanism mechanism,
                               const int64_t *scores, const uint64_t *lengths, size_t count,
                               uint64_t total, dpsel_rng *rng, size_t *run, uint64_t *offset)
{
    return mechanism == DPSEL_EM
           ? runs_em(selector, scores, lengths, count, total, rng, run, offset)
           : runs_pf(selector, scores, lengths, count, rng, run, offset);
}
