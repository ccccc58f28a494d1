/* SPDX-License-Identifier: ISC */
/* Permute-and-flip (McKenna & Sheldon 2020) over a shuffled order (pf.c). */
#ifndef DPSEL_CORE_PF_H
#define DPSEL_CORE_PF_H

#include "core.h"

/* One step of a Fisher-Yates shuffle of scratch[0 .. n - 1]: swaps
 * scratch[i] with scratch[j] for j uniform in [i, n), so that after steps
 * 0 .. n - 1 every permutation has probability 1/n!.  The permutation of
 * 0 .. n - 1 in scratch stays one; on failure scratch is unchanged. */
/*@ requires range: 1 <= n <= DPSEL_MAX_CANDIDATES && i < n;
    requires writable: \valid(rng) && \valid(scratch + (0 .. n - 1));
    requires apart: \separated(rng, scratch + (0 .. n - 1));
    requires permutation: permutation(scratch, n);
    assigns *rng, scratch[i .. n - 1];
    ensures status: sampler_status(\result);
    ensures swapped: \result == DPSEL_OK ==> \exists integer j; i <= j < n &&
            scratch[i] == \old(scratch[j]) && scratch[j] == \old(scratch[i]) &&
            (\forall integer a; 0 <= a < n && a != i && a != j ==> scratch[a] == \old(scratch[a]));
    ensures still_permutation: permutation(scratch, n);
    ensures unchanged_on_error: \result != DPSEL_OK ==>
            \forall integer a; 0 <= a < n ==> scratch[a] == \old(scratch[a]);
    ensures stream: \result != DPSEL_ERANDOM && \old(uniform_room(rng)) ==>
            shuffle_stepped_ref{Pre, Here}(rng, scratch, n, i, \result);
*/
int dpsel_core_shuffle_step(dpsel_rng *rng, size_t *scratch, size_t n, size_t i);

/* Permute-and-flip: visits the candidates in a uniformly random order (a
 * Fisher-Yates shuffle drawn lazily in scratch[0..n-1], one
 * dpsel_core_shuffle_step per visit) and releases the first
 * whose coin beta^g' is heads.  The best candidate's coin is certain, so at
 * most n coins are flipped and the function never falls through.  With room
 * for n uniform draws and n power coins, the release and the cursor after it
 * are pf_ref's and pf_end's (spec/references.h). */
/*@ requires call: pf_call(rng, decay, scores, n, scratch, index);
    assigns *rng, *index, scratch[0 .. n - 1];
    ensures sampled: sampled(\result, *index, \old(*index), n);
    ensures permutation: shuffled(\result, scratch, n);
    ensures stream: \result != DPSEL_ERANDOM && \old(trials_ready(rng, decay, scores, n, n)) ==>
            \forall integer best; best_seen(scores, n, best) ==>
                pf_released_ref{Pre, Here}(rng, decay, scores, n, best, \result, *index);
*/
int dpsel_core_pf(dpsel_rng *rng, const dpsel_decay *decay,
                  const int64_t *scores, size_t n, size_t *scratch,
                  size_t *index);

/* Hardened permute-and-flip (spec/timing.md): the whole shuffle first (n
 * shuffle steps), then a fixed-pattern coin for every candidate in the
 * shuffled order, no early exit; the first heads in that order is released,
 * kept by a branch-free scan.  Same output distribution as dpsel_core_pf.
 * With the same room for bits, the release and the cursor after it are
 * pf_hardened_ref's and pf_hardened_end's (spec/references.h). */
/*@ requires call: pf_call(rng, decay, scores, n, scratch, index);
    assigns *rng, *index, scratch[0 .. n - 1];
    ensures sampled: sampled(\result, *index, \old(*index), n);
    ensures permutation: shuffled(\result, scratch, n);
    ensures stream: \result != DPSEL_ERANDOM && \old(trials_ready(rng, decay, scores, n, n)) ==>
            \forall integer best; best_seen(scores, n, best) ==>
                pf_hardened_released_ref{Pre, Here}(rng, decay, scores, n, best, \result,
                                                    *index);
*/
int dpsel_core_pf_hardened(dpsel_rng *rng, const dpsel_decay *decay,
                           const int64_t *scores, size_t n, size_t *scratch,
                           size_t *index);

#endif
