/* SPDX-License-Identifier: ISC */
/*
 * The samplers' releases as functions of the random bits (issue 42, stage
 * 1): for each sampler of the core, a reference function of the bit stream
 * (spec/bits.h) from the cursor where it starts, named after the sampler
 * with _ref, and where it leaves the cursor (_end).  Each is written
 * first-order and step by step as the C code reads its bits, so that it can
 * be written again, line for line, in Coq; each sampler's contract states
 * that its result and its final cursor are these.  Definitions only.
 */
#ifndef DPSEL_SPEC_REFERENCES_H
#define DPSEL_SPEC_REFERENCES_H

/*@ // digit i of the dyadic t (d_i, the first after its lead zeros)
    logic integer digit{L}(dpsel_dyadic *t, integer i) =
        (t->words[i / 64] >> (63 - i % 64)) & 1;

    // the comparison of the bits from p with the digits of t from digit i:
    // the first bit that differs from its digit decides, heads (1) when it
    // is the smaller; all equal is tails (0)
    logic integer digits_ref{L}(dpsel_rng *rng, dpsel_dyadic *t, integer p, integer i) =
        i >= t->ndigits ? 0 :
        rbit(rng, p) != digit(t, i) ? (rbit(rng, p) < digit(t, i) ? 1 : 0) :
        digits_ref(rng, t, p + 1, i + 1);
    logic integer digits_end{L}(dpsel_rng *rng, dpsel_dyadic *t, integer p, integer i) =
        i >= t->ndigits ? p :
        rbit(rng, p) != digit(t, i) ? p + 1 :
        digits_end(rng, t, p + 1, i + 1);

    // the coin t 2^scale (dpsel_core_coin_dyadic_scaled) from bit p: a run of
    // t->lead - scale zeros, then the digits; a 1 in the run is tails
    logic integer coin_ref{L}(dpsel_rng *rng, dpsel_dyadic *t, integer scale, integer p) =
        zeros_run(rng, p, t->lead - scale) < t->lead - scale ? 0 :
        digits_ref(rng, t, p + (t->lead - scale), 0);
    logic integer coin_end{L}(dpsel_rng *rng, dpsel_dyadic *t, integer scale, integer p) =
        zeros_run(rng, p, t->lead - scale) < t->lead - scale ?
            zeros_end(rng, p, t->lead - scale) :
            digits_end(rng, t, p + (t->lead - scale), 0);

    // the most bits the coin reads: its run and its digits
    predicate coin_room{L}(dpsel_rng *rng, dpsel_dyadic *t, integer scale) =
        room(rng, t->lead - scale + t->ndigits);

    // a coin's outcome as its reference, from the cursor at Pre (where the
    // digits are read) to the cursor Here
    predicate coin_flipped_ref{Pre, Here}(dpsel_rng *rng, dpsel_dyadic *t, integer scale,
                                          integer heads) =
        heads == coin_ref{Pre}(rng, t, scale, cursor{Pre}(rng)) &&
        cursor{Here}(rng) == coin_end{Pre}(rng, t, scale, cursor{Pre}(rng));

    // The Fast Dice Roller (dpsel_core_uniform) for k > 1: c is uniform in
    // [0, v), 1 <= v < k, before each run.  A run doubles v until v >= k,
    // reading a bit for each doubling: fdr_doublings of them.
    logic integer fdr_doublings(integer v, integer k) =
        v <= 0 || v >= k ? 0 : 1 + fdr_doublings(2 * v, k);

    // v and c after a run from bit p
    logic integer fdr_grown(integer v, integer k) = v * pow2(fdr_doublings(v, k));
    logic integer fdr_drawn(dpsel_rng *rng, integer v, integer c, integer k, integer p) =
        c * pow2(fdr_doublings(v, k)) + bits_value(rng, p, fdr_doublings(v, k));

    // the draw from round on, bit p: c if it is below k after the run,
    // else the run again on the excess (v - k, c - k); -1 when the
    // DPSEL_REJECTION_ROUNDS rounds run out (DPSEL_EUNLIKELY)
    logic integer uniform_rounds_ref(dpsel_rng *rng, integer v, integer c, integer k,
                                     integer p, integer round) =
        round >= DPSEL_REJECTION_ROUNDS ? -1 :
        fdr_drawn(rng, v, c, k, p) < k ? fdr_drawn(rng, v, c, k, p) :
        uniform_rounds_ref(rng, fdr_grown(v, k) - k, fdr_drawn(rng, v, c, k, p) - k, k,
                           p + fdr_doublings(v, k), round + 1);
    logic integer uniform_rounds_end(dpsel_rng *rng, integer v, integer c, integer k,
                                     integer p, integer round) =
        round >= DPSEL_REJECTION_ROUNDS ? p :
        fdr_drawn(rng, v, c, k, p) < k ? p + fdr_doublings(v, k) :
        uniform_rounds_end(rng, fdr_grown(v, k) - k, fdr_drawn(rng, v, c, k, p) - k, k,
                           p + fdr_doublings(v, k), round + 1);

    // a uniform integer in [0, k) from bit p (-1: DPSEL_EUNLIKELY); k == 1
    // reads no bit
    logic integer uniform_ref(dpsel_rng *rng, integer k, integer p) =
        k == 1 ? 0 : uniform_rounds_ref(rng, 1, 0, k, p, 0);
    logic integer uniform_end(dpsel_rng *rng, integer k, integer p) =
        k == 1 ? p : uniform_rounds_end(rng, 1, 0, k, p, 0);

    // the most bits a uniform draw reads: 63 a round
    predicate uniform_room{L}(dpsel_rng *rng) = room(rng, 63 * DPSEL_REJECTION_ROUNDS);

    // a uniform draw's outcome as its reference: DPSEL_OK with out, or
    // DPSEL_EUNLIKELY; the cursor moved from start to end
    predicate uniform_drawn_ref(dpsel_rng *rng, integer k, integer start, integer r,
                                integer out, integer end) =
        (r == DPSEL_OK ? out == uniform_ref(rng, k, start) :
                         r == DPSEL_EUNLIKELY && uniform_ref(rng, k, start) == -1) &&
        end == uniform_end(rng, k, start);

    // The shuffle step at i (dpsel_core_shuffle_step) from bit p: the
    // position swapped with i, i + a uniform draw in [0, n - i); -1 when
    // the draw runs out of rounds (DPSEL_EUNLIKELY)
    logic integer shuffle_step_ref(dpsel_rng *rng, integer n, integer i, integer p) =
        uniform_ref(rng, n - i, p) < 0 ? -1 : i + uniform_ref(rng, n - i, p);

    // scratch Here is scratch at Pre with positions i and j exchanged
    predicate swapped_at{Pre, Here}(size_t *scratch, integer n, integer i, integer j) =
        \at(scratch[i], Here) == \at(scratch[j], Pre) &&
        \at(scratch[j], Here) == \at(scratch[i], Pre) &&
        \forall integer a; 0 <= a < n && a != i && a != j ==>
            \at(scratch[a], Here) == \at(scratch[a], Pre);

    // a shuffle step's outcome as its reference: DPSEL_OK with the swap,
    // or DPSEL_EUNLIKELY; the cursor moved as the uniform draw moves it
    predicate shuffle_stepped_ref{Pre, Here}(dpsel_rng *rng, size_t *scratch, integer n,
                                             integer i, integer r) =
        (r == DPSEL_OK ?
             swapped_at{Pre, Here}(scratch, n, i,
                                   shuffle_step_ref(rng, n, i, cursor{Pre}(rng))) :
             r == DPSEL_EUNLIKELY && shuffle_step_ref(rng, n, i, cursor{Pre}(rng)) == -1) &&
        cursor{Here}(rng) == uniform_end(rng, n - i, cursor{Pre}(rng));
*/

#endif
