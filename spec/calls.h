/* SPDX-License-Identifier: ISC */
/*
 * The arguments of each family of core functions: what must be valid, and
 * what must not overlap, before a sampler, an EM trial or a coin runs.  A
 * family's contracts name one predicate here instead of restating it.
 * Definitions only.
 */
#ifndef DPSEL_SPEC_CALLS_H
#define DPSEL_SPEC_CALLS_H

/*@ // a sampler: n valid scores and a valid decay table to read; the source
    // and the released index to write, apart from each other and from all
    // it reads
    predicate sampler_call{L}(dpsel_rng *rng, dpsel_decay *decay, int64_t *scores,
                              integer n, size_t *index) =
        valid_scores(scores, n) && valid_decay(decay) && \valid(rng) && \valid(index) &&
        \separated(rng, index, scores + (0 .. n - 1), decay) &&
        decay_apart(decay, rng) && decay_apart(decay, index);

    // an EM trial: the same, with a candidate and a kept flag to write
    predicate trial_call{L}(dpsel_rng *rng, dpsel_decay *decay, int64_t *scores,
                            integer n, size_t *candidate, int *kept) =
        valid_scores(scores, n) && valid_decay(decay) &&
        \valid(rng) && \valid(candidate) && \valid(kept) &&
        \separated(rng, candidate, kept, scores + (0 .. n - 1), decay) &&
        decay_apart(decay, rng) && decay_apart(decay, candidate) && decay_apart(decay, kept);

    // its outcome: on success a candidate in range and a kept flag
    predicate trial_done(integer r, integer candidate, integer n, integer kept) =
        r == DPSEL_OK ==> 0 <= candidate < n && zero_or_one(kept);

    // PF: a sampler's arguments, and a scratch of n indices to write,
    // apart from them
    predicate pf_call{L}(dpsel_rng *rng, dpsel_decay *decay, int64_t *scores, integer n,
                         size_t *scratch, size_t *index) =
        sampler_call(rng, decay, scores, n, index) &&
        \valid(scratch + (0 .. n - 1)) &&
        \separated(scratch + (0 .. n - 1), rng, index, scores + (0 .. n - 1), decay) &&
        decay_apart(decay, scratch, n);

    // a visit of PF (shuffle a step, flip the visited candidate's coin):
    // the powers and n scores to read, the gaps' cap among the powers' bits;
    // the source and scratch to write, apart from each other and from all
    // that is read
    predicate visit_call{L}(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                            int64_t *scores, integer n, size_t *scratch) =
        valid_powers(powers, npowers) && cap < pow2(npowers) && valid_scores(scores, n) &&
        \valid(rng) && \valid(scratch + (0 .. n - 1)) &&
        \separated(rng, scratch + (0 .. n - 1), scores + (0 .. n - 1)) &&
        powers_apart(powers, npowers, rng) && powers_apart(powers, npowers, scratch, n);

    // PF's order before visit i: scratch a permutation, best the largest
    // score, and a best candidate among positions i .. n - 1, not yet
    // visited
    predicate pf_order{L}(int64_t *scores, size_t *scratch, integer n, integer i, integer best) =
        permutation(scratch, n) && scores_at_most(scores, n, best) &&
        \exists integer p; i <= p < n && scores[scratch[p]] == best;

    // a coin of the dyadic t: the source and the coin's side to write
    predicate coin_call{L}(dpsel_rng *rng, dpsel_dyadic *t, int *heads) =
        valid_dyadic(t) && \valid(rng) && \valid(heads) && \separated(rng, heads) &&
        digits_apart(t, rng) && digits_apart(t, heads);

    // a certain coin: heads on success
    predicate certain_heads(integer r, integer heads) = r == DPSEL_OK ==> heads == 1;

    // EM by levels: a decay table of at most DPSEL_LEVELS_MAX_POWERS powers
    // and an envelope exponent that fits a shift of a uint64_t
    predicate levels_decay{L}(dpsel_decay *decay, integer envelope) =
        valid_decay(decay) && decay->npowers <= DPSEL_LEVELS_MAX_POWERS &&
        0 <= envelope <= 63;

    // EM by levels' scratch for the counts: cap + 1 words apart from what
    // the sampler reads and writes
    predicate levels_scratch{L}(uint64_t *levels, dpsel_decay *decay, dpsel_rng *rng,
                                size_t *index, int64_t *scores, integer n) =
        \valid(levels + (0 .. decay->cap)) &&
        \separated(levels + (0 .. decay->cap), rng, index, scores + (0 .. n - 1), decay) &&
        decay_apart(decay, levels, decay->cap + 1);

    // a trial of EM by levels: the source, the level and the kept flag to
    // write, apart from each other, from the running sums and from the table
    predicate level_trial_call{L}(dpsel_rng *rng, dpsel_decay *decay, uint64_t *levels,
                                  uint64_t *level, int *kept) =
        \valid(rng) && \valid(level) && \valid(kept) &&
        \separated(rng, level, kept, levels + (0 .. decay->cap), decay) &&
        decay_apart(decay, rng) && decay_apart(decay, level) && decay_apart(decay, kept);

    // EM over runs: a sampler's arguments with nruns runs, their lengths to
    // read, the levels' scratch, and the released offset to write, apart
    // from each other and from all that is read
    predicate runs_call{L}(dpsel_rng *rng, dpsel_decay *decay, int64_t *scores,
                           uint64_t *lengths, integer nruns, uint64_t *levels,
                           size_t *run, uint64_t *offset) =
        sampler_call(rng, decay, scores, nruns, run) &&
        \valid_read(lengths + (0 .. nruns - 1)) && \valid(offset) &&
        levels_scratch(levels, decay, rng, run, scores, nruns) &&
        \separated(offset, rng, run, scores + (0 .. nruns - 1), decay,
                   lengths + (0 .. nruns - 1), levels + (0 .. decay->cap)) &&
        \separated(lengths + (0 .. nruns - 1), rng, run, levels + (0 .. decay->cap)) &&
        decay_apart(decay, offset);

    // the lengths of nruns runs, readable
    predicate runs_readable{L}(uint64_t *lengths, integer nruns) =
        \valid_read(lengths + (0 .. nruns - 1));

    // on success, an offset inside its run's length
    predicate inside_run(integer r, integer offset, integer length) =
        r == DPSEL_OK ==> offset < length;
*/

#endif
