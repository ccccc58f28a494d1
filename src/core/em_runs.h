/* SPDX-License-Identifier: ISC */
/* The exponential mechanism over runs of equal scores (em_runs.c,
 * spec/quantiles.md §4): the quantile mechanism's grid points, grouped
 * where the score is constant, sampled without a pass over the points. */
#ifndef DPSEL_CORE_EM_RUNS_H
#define DPSEL_CORE_EM_RUNS_H

#include "core.h"

/* EM over the points of nruns runs, run j holding lengths[j] points of
 * score scores[j] (total points in all): a point of clamped gap g' is
 * released with probability beta^g' / S, as EM over the points would.  The
 * levels count points (c_g = the lengths of the runs of level g), a kept
 * level's member is located by a pass over the runs: the released point is
 * *offset (uniform below lengths[*run]) of run *run.  levels[0 .. cap] is
 * scratch.  total is the lengths' sum: DPSEL_EINTERNAL when a level's points
 * pass it or the running sums pass DPSEL_LEVELS_TOTAL_MAX (never when the
 * lengths add up to total >= 1; a wrong total these checks miss leaves the
 * distribution exact, only the trials' bound rests on it). */
/*@ requires call: runs_call(rng, decay, scores, lengths, nruns, levels, run, offset);
    requires decay: levels_decay(decay, envelope);
    requires envelope: total * pow2(envelope) <= DPSEL_LEVELS_TOTAL_MAX;
    assigns *rng, *run, *offset, levels[0 .. decay->cap];
    ensures status: checked_sampler_status(\result);
    ensures released: released(\result, *run, \old(*run), nruns);
    ensures inside: inside_run(\result, *offset, lengths[*run]);
*/
int dpsel_core_em_runs(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                       const uint64_t *lengths, size_t nruns, uint64_t total,
                       unsigned envelope, uint64_t *levels, size_t *run, uint64_t *offset);

#endif
