/* SPDX-License-Identifier: ISC */
/*
 * The exponential mechanism over runs (spec/quantiles.md §4).  The
 * quantile mechanism's candidates are the points of a public grid, up to
 * 2^42 of them, and its score is constant between data values: the runs.
 * EM by levels (em_levels.c) applies with the runs' lengths as
 * multiplicities: level g counts the points of the runs whose clamped gap
 * is g, a trial keeps level g with probability proportional to
 * c_g beta^g, and a uniform member of the kept level is found by walking
 * its runs.  The work is a few passes over the runs, never over the points.
 */
#include "em_runs.h"

#include "em_levels.h"
#include "gap.h"

/* levels[g] = the points of the runs of clamped gap g; DPSEL_EINTERNAL if
 * they pass total. */
/*@ requires scores: valid_scores(scores, nruns) && scores_at_most(scores, nruns, best);
    requires lengths: runs_readable(lengths, nruns);
    requires decay: valid_decay(decay);
    requires writable: levels_writable(levels, decay);
    requires apart: \separated(levels + (0 .. decay->cap), scores + (0 .. nruns - 1),
                               lengths + (0 .. nruns - 1), decay);
    assigns levels[0 .. decay->cap];
    ensures status: exact_status(\result);
    ensures counts: \result == DPSEL_OK ==>
                    \forall integer h; 0 <= h <= decay->cap ==> levels[h] <= total;
*/
static int count_points(const dpsel_decay *decay, const int64_t *scores,
                        const uint64_t *lengths, size_t nruns, int64_t best, uint64_t total,
                        uint64_t *levels)
{
    uint64_t cap = decay->cap;
    dpsel_core_levels_clear(levels, cap);
    /*@ loop invariant 0 <= j <= nruns;
        loop invariant \forall integer h; 0 <= h <= cap ==> levels[h] <= total;
        loop assigns j, levels[0 .. cap];
        loop variant nruns - j;
    */
    for (size_t j = 0; j < nruns; j++) {
        uint64_t g = dpsel_core_clamped_gap(best, scores[j], cap);
        if (lengths[j] > total - levels[g]) {
            return DPSEL_EINTERNAL;  /* the caller's total is the lengths' sum */
        }
        levels[g] += lengths[j];
    }
    return DPSEL_OK;
}

/* The member-th point (from 0) of clamped gap g: its run and offset. */
/*@ requires scores: valid_scores(scores, nruns) && scores_at_most(scores, nruns, best);
    requires lengths: runs_readable(lengths, nruns);
    requires decay: valid_decay(decay);
    requires writable: \valid(run) && \valid(offset);
    requires apart: \separated(run, offset, scores + (0 .. nruns - 1),
                               lengths + (0 .. nruns - 1), decay);
    assigns *run, *offset;
    ensures status: exact_status(\result);
    ensures released: released(\result, *run, \old(*run), nruns);
    ensures inside: inside_run(\result, *offset, lengths[*run]);
*/
static int find_point(const dpsel_decay *decay, const int64_t *scores, const uint64_t *lengths,
                      size_t nruns, int64_t best, uint64_t g, uint64_t member, size_t *run,
                      uint64_t *offset)
{
    /*@ loop invariant 0 <= j <= nruns;
        loop assigns j, member;
        loop variant nruns - j;
    */
    for (size_t j = 0; j < nruns; j++) {
        if (dpsel_core_clamped_gap(best, scores[j], decay->cap) == g) {
            if (member < lengths[j]) {
                *run = j;
                *offset = member;
                return DPSEL_OK;
            }
            member -= lengths[j];
        }
    }
    return DPSEL_EINTERNAL;  /* the counts came from these runs */
}

int dpsel_core_em_runs(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                       const uint64_t *lengths, size_t nruns, uint64_t total,
                       unsigned envelope, uint64_t *levels, size_t *run, uint64_t *offset)
{
    int64_t best = scores[dpsel_core_argmax(scores, nruns)];
    int rc = count_points(decay, scores, lengths, nruns, best, total, levels);
    if (rc == DPSEL_OK) {
        rc = dpsel_core_em_levels_sum(decay, envelope, levels) /*@ ghost ((size_t)total) */;
    }
    if (rc != DPSEL_OK) {
        return rc;
    }
    /* The call's fact, once, for the frame goals of the trials' call. */
    //@ assert apart_rng: decay_apart(decay, rng);
    uint64_t g, member;
    rc = dpsel_core_em_levels_pick(rng, decay, levels, envelope, &g, &member);
    if (rc != DPSEL_OK) {
        return rc;
    }
    return find_point(decay, scores, lengths, nruns, best, g, member, run, offset);
}
