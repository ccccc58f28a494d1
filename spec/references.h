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

/*@ axiomatic SeenDyadics {
      // The digits, lead and length of the dyadic at t as a sampler's call
      // finds them in memory (no axiom: any values at all).  The reference
      // functions read a dyadic only through these, so that they depend on
      // no memory state: a call's stream clause holds for the values that
      // dyadic_seen ties to the memory at the call's start, and a caller's
      // stream clause carries them through its loops without re-reading
      // the memory its callees' writes left alone.
      logic integer seen_digit(dpsel_dyadic *t, integer i);
      logic integer seen_lead(dpsel_dyadic *t);
      logic integer seen_ndigits(dpsel_dyadic *t);
    }
*/

/*@ // digit i of the dyadic t (d_i, the first after its lead zeros)
    logic integer digit{L}(dpsel_dyadic *t, integer i) =
        (t->words[i / 64] >> (63 - i % 64)) & 1;

    // the seen digits, lead and length are those of t in memory at L
    predicate dyadic_seen{L}(dpsel_dyadic *t) =
        seen_lead(t) == t->lead && seen_ndigits(t) == t->ndigits &&
        \forall integer i; 0 <= i < t->ndigits ==> seen_digit(t, i) == digit(t, i);

    // so for each of npowers powers
    predicate powers_seen{L}(dpsel_dyadic *powers, integer npowers) =
        \forall integer k; 0 <= k < npowers ==> dyadic_seen(powers + k);

    // the comparison of the bits from p with the digits of t from digit i:
    // the first bit that differs from its digit decides, heads (1) when it
    // is the smaller; all equal is tails (0)
    logic integer digits_ref(dpsel_rng *rng, dpsel_dyadic *t, integer p, integer i) =
        i >= seen_ndigits(t) ? 0 :
        rbit(rng, p) != seen_digit(t, i) ? (rbit(rng, p) < seen_digit(t, i) ? 1 : 0) :
        digits_ref(rng, t, p + 1, i + 1);
    logic integer digits_end(dpsel_rng *rng, dpsel_dyadic *t, integer p, integer i) =
        i >= seen_ndigits(t) ? p :
        rbit(rng, p) != seen_digit(t, i) ? p + 1 :
        digits_end(rng, t, p + 1, i + 1);

    // the coin t 2^scale (dpsel_core_coin_dyadic_scaled) from bit p: a run of
    // lead - scale zeros, then the digits; a 1 in the run is tails
    logic integer coin_ref(dpsel_rng *rng, dpsel_dyadic *t, integer scale, integer p) =
        zeros_run(rng, p, seen_lead(t) - scale) < seen_lead(t) - scale ? 0 :
        digits_ref(rng, t, p + (seen_lead(t) - scale), 0);
    logic integer coin_end(dpsel_rng *rng, dpsel_dyadic *t, integer scale, integer p) =
        zeros_run(rng, p, seen_lead(t) - scale) < seen_lead(t) - scale ?
            zeros_end(rng, p, seen_lead(t) - scale) :
            digits_end(rng, t, p + (seen_lead(t) - scale), 0);

    // the most bits the coin reads: its run and its digits
    logic integer coin_bits{L}(dpsel_dyadic *t, integer scale) = t->lead - scale + t->ndigits;

    // what a coin's stream clause needs at its start: room for its bits, and
    // the seen dyadic as it is in memory
    predicate coin_ready{L}(dpsel_rng *rng, dpsel_dyadic *t, integer scale) =
        room(rng, coin_bits(t, scale)) && dyadic_seen(t);

    // the cursor moved forward by at most count bits from Pre to Here
    predicate read_at_most{Pre, Here}(dpsel_rng *rng, integer count) =
        cursor{Pre}(rng) <= cursor{Here}(rng) <= cursor{Pre}(rng) + count;

    // a coin's outcome as its reference, from the cursor at Pre (where the
    // digits are read) to the cursor Here
    predicate coin_flipped_ref{Pre, Here}(dpsel_rng *rng, dpsel_dyadic *t, integer scale,
                                          integer heads) =
        heads == coin_ref(rng, t, scale, cursor{Pre}(rng)) &&
        cursor{Here}(rng) == coin_end(rng, t, scale, cursor{Pre}(rng)) &&
        read_at_most{Pre, Here}(rng, coin_bits{Pre}(t, scale));

    // The power coins (dpsel_core_coin_power_scaled and its fixed-pattern
    // twins) go through powers[npowers - 1] down to powers[0]: bit k of g
    // says whether the factor of powers[k] counts.
    logic integer g_bit(integer g, integer k) = (g >> k) & 1;

    // the most bits the coins of powers[0 .. k - 1] read
    logic integer power_bits(dpsel_dyadic *powers, integer k) =
        k <= 0 ? 0 :
        power_bits(powers, k - 1) + seen_lead(powers + (k - 1)) + seen_ndigits(powers + (k - 1));

    // what a power coin's stream clause needs at its start
    predicate power_ready{L}(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers) =
        room(rng, power_bits(powers, npowers)) && powers_seen(powers, npowers);

    // the zeros taken off the lead of t out of the scale left
    logic integer power_shift(dpsel_dyadic *t, integer scale) =
        scale < seen_lead(t) ? scale : seen_lead(t);

    // a power coin has done powers[i .. npowers - 1]: the cursor has moved
    // forward from Pre, and by no more than their bits
    predicate power_bits_left{Pre, Here}(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                                         integer i) =
        cursor{Pre}(rng) <= cursor{Here}(rng) &&
        cursor{Here}(rng) + power_bits(powers, i) <=
            cursor{Pre}(rng) + power_bits(powers, npowers);

    // dpsel_core_coin_power_scaled from powers[i - 1] down, with scale left,
    // from bit p: a counted factor's coin, the first tails stops
    logic integer power_ref(dpsel_rng *rng, dpsel_dyadic *powers, integer g, integer scale,
                            integer i, integer p) =
        i <= 0 ? 1 :
        g_bit(g, i - 1) == 0 ? power_ref(rng, powers, g, scale, i - 1, p) :
        coin_ref(rng, powers + (i - 1), power_shift(powers + (i - 1), scale), p) == 0 ? 0 :
        power_ref(rng, powers, g, scale - power_shift(powers + (i - 1), scale), i - 1,
                  coin_end(rng, powers + (i - 1), power_shift(powers + (i - 1), scale), p));
    logic integer power_end(dpsel_rng *rng, dpsel_dyadic *powers, integer g, integer scale,
                            integer i, integer p) =
        i <= 0 ? p :
        g_bit(g, i - 1) == 0 ? power_end(rng, powers, g, scale, i - 1, p) :
        coin_ref(rng, powers + (i - 1), power_shift(powers + (i - 1), scale), p) == 0 ?
            coin_end(rng, powers + (i - 1), power_shift(powers + (i - 1), scale), p) :
        power_end(rng, powers, g, scale - power_shift(powers + (i - 1), scale), i - 1,
                  coin_end(rng, powers + (i - 1), power_shift(powers + (i - 1), scale), p));

    // dpsel_core_coin_power_fixed from powers[i - 1] down, from bit p: every
    // coin is flipped; heads when each counted one is
    logic integer fixed_factor(dpsel_rng *rng, dpsel_dyadic *powers, integer g, integer k,
                               integer p) =
        g_bit(g, k) == 0 || coin_ref(rng, powers + k, 0, p) == 1 ? 1 : 0;
    logic integer power_fixed_ref(dpsel_rng *rng, dpsel_dyadic *powers, integer g, integer i,
                                  integer p) =
        i <= 0 ? 1 :
        fixed_factor(rng, powers, g, i - 1, p) == 0 ? 0 :
        power_fixed_ref(rng, powers, g, i - 1, coin_end(rng, powers + (i - 1), 0, p));
    logic integer power_fixed_end(dpsel_rng *rng, dpsel_dyadic *powers, integer i,
                                  integer p) =
        i <= 0 ? p : power_fixed_end(rng, powers, i - 1, coin_end(rng, powers + (i - 1), 0, p));

    // dpsel_core_coin_power_scaled_fixed's factor of powers[k] from bit p:
    // lead bits, of which the first lead - shift must be 0, then the coin of
    // the digits after the zeros; counted or not, and the bit after
    logic integer scaled_factor(dpsel_rng *rng, dpsel_dyadic *powers, integer g, integer scale,
                                integer k, integer p) =
        g_bit(g, k) == 0 ||
        ((bits_value(rng, p, seen_lead(powers + k)) >> power_shift(powers + k, scale)) == 0 &&
         coin_ref(rng, powers + k, seen_lead(powers + k), p + seen_lead(powers + k)) == 1) ?
            1 : 0;
    logic integer scaled_next(dpsel_rng *rng, dpsel_dyadic *powers, integer k, integer p) =
        coin_end(rng, powers + k, seen_lead(powers + k), p + seen_lead(powers + k));
    logic integer scaled_left(dpsel_dyadic *powers, integer g, integer scale, integer k) =
        g_bit(g, k) == 1 ? scale - power_shift(powers + k, scale) : scale;
    logic integer scaled_fixed_ref(dpsel_rng *rng, dpsel_dyadic *powers, integer g,
                                   integer scale, integer i, integer p) =
        i <= 0 ? 1 :
        scaled_factor(rng, powers, g, scale, i - 1, p) == 0 ? 0 :
        scaled_fixed_ref(rng, powers, g, scaled_left(powers, g, scale, i - 1), i - 1,
                         scaled_next(rng, powers, i - 1, p));
    logic integer scaled_fixed_end(dpsel_rng *rng, dpsel_dyadic *powers, integer i,
                                   integer p) =
        i <= 0 ? p : scaled_fixed_end(rng, powers, i - 1, scaled_next(rng, powers, i - 1, p));

    // a power coin's outcome as its reference, from the cursor at Pre to
    // the cursor Here
    predicate power_flipped_ref{Pre, Here}(dpsel_rng *rng, dpsel_dyadic *powers,
                                           integer npowers, integer g, integer scale,
                                           integer heads) =
        heads == power_ref(rng, powers, g, scale, npowers, cursor{Pre}(rng)) &&
        cursor{Here}(rng) == power_end(rng, powers, g, scale, npowers, cursor{Pre}(rng)) &&
        read_at_most{Pre, Here}(rng, power_bits(powers, npowers));
    predicate power_fixed_flipped_ref{Pre, Here}(dpsel_rng *rng, dpsel_dyadic *powers,
                                                 integer npowers, integer g, integer heads) =
        heads == power_fixed_ref(rng, powers, g, npowers, cursor{Pre}(rng)) &&
        cursor{Here}(rng) == power_fixed_end(rng, powers, npowers, cursor{Pre}(rng)) &&
        read_at_most{Pre, Here}(rng, power_bits(powers, npowers));
    predicate scaled_fixed_flipped_ref{Pre, Here}(dpsel_rng *rng, dpsel_dyadic *powers,
                                                  integer npowers, integer g, integer scale,
                                                  integer heads) =
        heads == scaled_fixed_ref(rng, powers, g, scale, npowers, cursor{Pre}(rng)) &&
        cursor{Here}(rng) == scaled_fixed_end(rng, powers, npowers, cursor{Pre}(rng)) &&
        read_at_most{Pre, Here}(rng, power_bits(powers, npowers));

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
    // DPSEL_EUNLIKELY; the cursor moved from start to end, by 63 bits a
    // round at most
    predicate uniform_drawn_ref(dpsel_rng *rng, integer k, integer start, integer r,
                                integer out, integer end) =
        (r == DPSEL_OK ? out == uniform_ref(rng, k, start) :
                         r == DPSEL_EUNLIKELY && uniform_ref(rng, k, start) == -1) &&
        end == uniform_end(rng, k, start) &&
        start <= end <= start + 63 * DPSEL_REJECTION_ROUNDS;

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
    // or DPSEL_EUNLIKELY; the cursor moved as the uniform draw moves it, by
    // 63 bits a round at most
    predicate shuffle_stepped_ref{Pre, Here}(dpsel_rng *rng, size_t *scratch, integer n,
                                             integer i, integer r) =
        \let j = shuffle_step_ref(rng, n, i, cursor{Pre}(rng));
        (r == DPSEL_OK ? i <= j < n && swapped_at{Pre, Here}(scratch, n, i, j) :
                         r == DPSEL_EUNLIKELY && j == -1) &&
        cursor{Here}(rng) == uniform_end(rng, n - i, cursor{Pre}(rng)) &&
        read_at_most{Pre, Here}(rng, 63 * DPSEL_REJECTION_ROUNDS);
*/

/*@ axiomatic SeenScores {
      // the score of candidate i as a sampler's call finds it (no axiom, as
      // for the seen dyadics)
      logic integer seen_score(int64_t *scores, integer i);
    }
*/

/*@ // the seen scores are those of memory at L
    predicate scores_seen{L}(int64_t *scores, integer n) =
        \forall integer i; 0 <= i < n ==> seen_score(scores, i) == scores[i];

    // a clamped gap (dpsel_core_clamped_gap)
    logic integer gap_of(integer best, integer score, integer cap) =
        best - score <= cap ? best - score : cap;

    // EM by trials (spec/mechanisms.md): a trial draws a candidate
    // uniformly and keeps it with the coin beta^gap, the lazy coin or the
    // fixed-pattern one (fixed 1, the hardened twins).  Its outcome from bit
    // p: the candidate when kept, -1 when not, -2 when the uniform draw ran
    // out of rounds (DPSEL_EUNLIKELY)
    logic integer trial_coin_ref(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                                 integer fixed, integer gap, integer p) =
        fixed == 1 ? power_fixed_ref(rng, powers, gap, npowers, p) :
                     power_ref(rng, powers, gap, 0, npowers, p);
    logic integer trial_coin_end(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                                 integer fixed, integer gap, integer p) =
        fixed == 1 ? power_fixed_end(rng, powers, npowers, p) :
                     power_end(rng, powers, gap, 0, npowers, p);
    // such a coin's outcome as its reference, from the cursor at Pre to
    // the cursor Here
    predicate trial_coin_flipped{Pre, Here}(dpsel_rng *rng, dpsel_dyadic *powers,
                                            integer npowers, integer fixed, integer gap,
                                            integer heads) =
        fixed == 1 ? power_fixed_flipped_ref{Pre, Here}(rng, powers, npowers, gap, heads) :
                     power_flipped_ref{Pre, Here}(rng, powers, npowers, gap, 0, heads);
    logic integer trial_gap(dpsel_rng *rng, int64_t *scores, integer n, integer best,
                            integer cap, integer p) =
        gap_of(best, seen_score(scores, uniform_ref(rng, n, p)), cap);
    logic integer trial_ref(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                            int64_t *scores, integer n, integer best, integer fixed, integer p) =
        uniform_ref(rng, n, p) < 0 ? -2 :
        trial_coin_ref(rng, powers, npowers, fixed, trial_gap(rng, scores, n, best, cap, p),
                       uniform_end(rng, n, p)) == 1 ? uniform_ref(rng, n, p) : -1;
    logic integer trial_end(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                            int64_t *scores, integer n, integer best, integer fixed, integer p) =
        uniform_ref(rng, n, p) < 0 ? uniform_end(rng, n, p) :
        trial_coin_end(rng, powers, npowers, fixed, trial_gap(rng, scores, n, best, cap, p),
                       uniform_end(rng, n, p));

    // the most bits a trial reads: a uniform draw's and a power coin's
    logic integer trial_bits(dpsel_dyadic *powers, integer npowers) =
        63 * DPSEL_REJECTION_ROUNDS + power_bits(powers, npowers);

    // count times bits, by repeated addition: the budgets of bits of
    // rounds of trials, kept free of products (which cost the provers their
    // linear arithmetic beside the references)
    logic integer times(integer bits, integer count) =
        count <= 0 ? 0 : times(bits, count - 1) + bits;

    // what a trial's stream clause needs at its start
    predicate trial_ready{L}(dpsel_rng *rng, dpsel_decay *decay, int64_t *scores, integer n) =
        room(rng, trial_bits(decay->powers, decay->npowers)) &&
        powers_seen(decay->powers, decay->npowers) && scores_seen(scores, n);

    // a trial's outcome as its reference: DPSEL_OK with the candidate and
    // whether it is kept, or DPSEL_EUNLIKELY; the cursor moved to its end
    predicate trial_done_ref{Pre, Here}(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                                        integer cap, int64_t *scores, integer n, integer best,
                                        integer fixed, integer r, integer candidate,
                                        integer kept) =
        (r == DPSEL_OK ?
             (kept == 1 ? candidate == trial_ref(rng, powers, npowers, cap, scores, n, best,
                                                 fixed, cursor{Pre}(rng)) :
                          trial_ref(rng, powers, npowers, cap, scores, n, best, fixed,
                                    cursor{Pre}(rng)) == -1) :
             r == DPSEL_EUNLIKELY &&
             trial_ref(rng, powers, npowers, cap, scores, n, best, fixed,
                       cursor{Pre}(rng)) == -2) &&
        cursor{Here}(rng) == trial_end(rng, powers, npowers, cap, scores, n, best, fixed,
                                       cursor{Pre}(rng)) &&
        read_at_most{Pre, Here}(rng, trial_bits(powers, npowers));
    // the trials of dpsel_core_em_attempts from trial t of attempts, bit p:
    // the first kept candidate, -1 when none is, -2 when a trial's uniform
    // draw runs out of rounds first
    logic integer attempts_ref(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                               integer cap, int64_t *scores, integer n, integer best,
                               integer attempts, integer t, integer p) =
        t >= attempts ? -1 :
        trial_ref(rng, powers, npowers, cap, scores, n, best, 0, p) != -1 ?
            trial_ref(rng, powers, npowers, cap, scores, n, best, 0, p) :
        attempts_ref(rng, powers, npowers, cap, scores, n, best, attempts, t + 1,
                     trial_end(rng, powers, npowers, cap, scores, n, best, 0, p));
    logic integer attempts_end(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                               integer cap, int64_t *scores, integer n, integer best,
                               integer attempts, integer t, integer p) =
        t >= attempts ? p :
        trial_ref(rng, powers, npowers, cap, scores, n, best, 0, p) != -1 ?
            trial_end(rng, powers, npowers, cap, scores, n, best, 0, p) :
        attempts_end(rng, powers, npowers, cap, scores, n, best, attempts, t + 1,
                     trial_end(rng, powers, npowers, cap, scores, n, best, 0, p));

    // attempts_ref and attempts_end at trial t < attempts, from bit p, one
    // trial unfolded; q is where that trial leaves the cursor (trial_end)
    predicate attempts_unfolds(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                               integer cap, int64_t *scores, integer n, integer best,
                               integer attempts, integer t, integer p, integer q) =
        \let trial = trial_ref(rng, powers, npowers, cap, scores, n, best, 0, p);
        attempts_ref(rng, powers, npowers, cap, scores, n, best, attempts, t, p) ==
            (trial != -1 ? trial :
                 attempts_ref(rng, powers, npowers, cap, scores, n, best, attempts, t + 1, q)) &&
        attempts_end(rng, powers, npowers, cap, scores, n, best, attempts, t, p) ==
            (trial != -1 ? q :
                 attempts_end(rng, powers, npowers, cap, scores, n, best, attempts, t + 1, q));

    // dpsel_core_em_attempts after its first trials, at Here: the trials
    // from there on, from the cursor Here, give the outcome and the end of
    // them all from the cursor at Pre
    predicate attempts_so_far{Pre, Here}(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                                         integer cap, int64_t *scores, integer n, integer best,
                                         integer attempts, integer trial) =
        attempts_ref(rng, powers, npowers, cap, scores, n, best, attempts, 0, cursor{Pre}(rng)) ==
            attempts_ref(rng, powers, npowers, cap, scores, n, best, attempts, trial,
                         cursor{Here}(rng)) &&
        attempts_end(rng, powers, npowers, cap, scores, n, best, attempts, 0, cursor{Pre}(rng)) ==
            attempts_end(rng, powers, npowers, cap, scores, n, best, attempts, trial,
                         cursor{Here}(rng));

    // what the stream clause of count trials needs at their start
    predicate trials_ready{L}(dpsel_rng *rng, dpsel_decay *decay, int64_t *scores, integer n,
                              integer count) =
        room(rng, times(trial_bits(decay->powers, decay->npowers), count)) &&
        powers_seen(decay->powers, decay->npowers) && scores_seen(scores, n);

    // the outcome of dpsel_core_em_attempts as its reference: DPSEL_OK with
    // the kept candidate or none, or DPSEL_EUNLIKELY
    predicate attempts_done_ref{Pre, Here}(dpsel_rng *rng, dpsel_decay *decay, int64_t *scores,
                                           integer n, integer best, integer attempts,
                                           integer r, integer index, integer kept) =
        \let ref = attempts_ref(rng, \at(decay->powers, Pre), \at(decay->npowers, Pre),
                                \at(decay->cap, Pre), scores, n, best, attempts, 0,
                                cursor{Pre}(rng));
        (r == DPSEL_OK ? (kept == 1 ? index == ref : ref == -1) :
                         r == DPSEL_EUNLIKELY && ref == -2) &&
        cursor{Here}(rng) == attempts_end(rng, \at(decay->powers, Pre), \at(decay->npowers, Pre),
                                          \at(decay->cap, Pre), scores, n, best, attempts, 0,
                                          cursor{Pre}(rng)) &&
        read_at_most{Pre, Here}(rng, times(trial_bits(\at(decay->powers, Pre),
                                                      \at(decay->npowers, Pre)),
                                           attempts));

    // dpsel_core_em from round on, bit p: n trials a round until one is
    // kept; -2 when the DPSEL_REJECTION_ROUNDS rounds run out or a uniform
    // draw does (DPSEL_EUNLIKELY)
    logic integer em_ref(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                         int64_t *scores, integer n, integer best, integer round, integer p) =
        round >= DPSEL_REJECTION_ROUNDS ? -2 :
        attempts_ref(rng, powers, npowers, cap, scores, n, best, n, 0, p) != -1 ?
            attempts_ref(rng, powers, npowers, cap, scores, n, best, n, 0, p) :
        em_ref(rng, powers, npowers, cap, scores, n, best, round + 1,
               attempts_end(rng, powers, npowers, cap, scores, n, best, n, 0, p));
    logic integer em_end(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                         int64_t *scores, integer n, integer best, integer round, integer p) =
        round >= DPSEL_REJECTION_ROUNDS ? p :
        attempts_ref(rng, powers, npowers, cap, scores, n, best, n, 0, p) != -1 ?
            attempts_end(rng, powers, npowers, cap, scores, n, best, n, 0, p) :
        em_end(rng, powers, npowers, cap, scores, n, best, round + 1,
               attempts_end(rng, powers, npowers, cap, scores, n, best, n, 0, p));

    // em_ref and em_end at round < DPSEL_REJECTION_ROUNDS, from bit p, one
    // round unfolded; q is where that round's n trials leave the cursor
    // (attempts_end)
    predicate em_unfolds(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                         int64_t *scores, integer n, integer best, integer round, integer p,
                         integer q) =
        \let found = attempts_ref(rng, powers, npowers, cap, scores, n, best, n, 0, p);
        em_ref(rng, powers, npowers, cap, scores, n, best, round, p) ==
            (found != -1 ? found :
                 em_ref(rng, powers, npowers, cap, scores, n, best, round + 1, q)) &&
        em_end(rng, powers, npowers, cap, scores, n, best, round, p) ==
            (found != -1 ? q :
                 em_end(rng, powers, npowers, cap, scores, n, best, round + 1, q));

    // dpsel_core_em after its first rounds, at Here: the rounds from there
    // on, from the cursor Here, give the release and the end of them all
    predicate em_so_far{Pre, Here}(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                                   integer cap, int64_t *scores, integer n, integer best,
                                   integer round) =
        em_ref(rng, powers, npowers, cap, scores, n, best, 0, cursor{Pre}(rng)) ==
            em_ref(rng, powers, npowers, cap, scores, n, best, round, cursor{Here}(rng)) &&
        em_end(rng, powers, npowers, cap, scores, n, best, 0, cursor{Pre}(rng)) ==
            em_end(rng, powers, npowers, cap, scores, n, best, round, cursor{Here}(rng));

    // what EM's stream clause needs at its start: room for all its rounds
    // of n trials
    predicate em_ready{L}(dpsel_rng *rng, dpsel_decay *decay, int64_t *scores, integer n) =
        room(rng, times(times(trial_bits(decay->powers, decay->npowers), n),
                        DPSEL_REJECTION_ROUNDS)) &&
        powers_seen(decay->powers, decay->npowers) && scores_seen(scores, n);

    // EM's release as its reference, from the best score of the seen scores
    predicate em_released_ref{Pre, Here}(dpsel_rng *rng, dpsel_decay *decay, int64_t *scores,
                                         integer n, integer best, integer r, integer index) =
        \let ref = em_ref(rng, \at(decay->powers, Pre), \at(decay->npowers, Pre),
                          \at(decay->cap, Pre), scores, n, best, 0, cursor{Pre}(rng));
        (r == DPSEL_OK ? index == ref : r == DPSEL_EUNLIKELY && ref == -2) &&
        cursor{Here}(rng) == em_end(rng, \at(decay->powers, Pre), \at(decay->npowers, Pre),
                                    \at(decay->cap, Pre), scores, n, best, 0, cursor{Pre}(rng));
    // best is the largest of the n seen scores
    predicate best_seen(int64_t *scores, integer n, integer best) =
        (\forall integer i; 0 <= i < n ==> seen_score(scores, i) <= best) &&
        (\exists integer i; 0 <= i < n && seen_score(scores, i) == best);

    // a trial's stream clause: with room and the call's values seen, and
    // the source sound, its outcome is its reference
    predicate trial_stream{Pre, Here}(dpsel_rng *rng, dpsel_decay *decay, int64_t *scores,
                                      integer n, integer best, integer fixed, integer r,
                                      integer candidate, integer kept) =
        r != DPSEL_ERANDOM && \at(trial_ready(rng, decay, scores, n), Pre) ==>
        trial_done_ref{Pre, Here}(rng, \at(decay->powers, Pre), \at(decay->npowers, Pre),
                                  \at(decay->cap, Pre), scores, n, best, fixed, r, candidate,
                                  kept);
    // dpsel_core_em_hardened from trial k of total (DPSEL_REJECTION_ROUNDS
    // n) on, bit p: every trial is drawn, with the fixed-pattern coin; the
    // first kept candidate, -1 when none is, -2 when any trial's uniform
    // draw runs out of rounds (the call then stops)
    logic integer hardened_ref(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                               integer cap, int64_t *scores, integer n, integer best,
                               integer total, integer k, integer p) =
        k >= total ? -1 :
        trial_ref(rng, powers, npowers, cap, scores, n, best, 1, p) == -2 ? -2 :
        hardened_ref(rng, powers, npowers, cap, scores, n, best, total, k + 1,
                     trial_end(rng, powers, npowers, cap, scores, n, best, 1, p)) == -2 ? -2 :
        trial_ref(rng, powers, npowers, cap, scores, n, best, 1, p) >= 0 ?
            trial_ref(rng, powers, npowers, cap, scores, n, best, 1, p) :
        hardened_ref(rng, powers, npowers, cap, scores, n, best, total, k + 1,
                     trial_end(rng, powers, npowers, cap, scores, n, best, 1, p));
    logic integer hardened_end(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                               integer cap, int64_t *scores, integer n, integer best,
                               integer total, integer k, integer p) =
        k >= total ? p :
        trial_ref(rng, powers, npowers, cap, scores, n, best, 1, p) == -2 ?
            trial_end(rng, powers, npowers, cap, scores, n, best, 1, p) :
        hardened_end(rng, powers, npowers, cap, scores, n, best, total, k + 1,
                     trial_end(rng, powers, npowers, cap, scores, n, best, 1, p));

    // hardened_ref and hardened_end at trial k < total, from bit p, one
    // step unfolded
    predicate hardened_unfolds(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                               integer cap, int64_t *scores, integer n, integer best,
                               integer total, integer k, integer p) =
        \let trial = trial_ref(rng, powers, npowers, cap, scores, n, best, 1, p);
        \let next = trial_end(rng, powers, npowers, cap, scores, n, best, 1, p);
        \let rest = hardened_ref(rng, powers, npowers, cap, scores, n, best, total, k + 1, next);
        hardened_ref(rng, powers, npowers, cap, scores, n, best, total, k, p) ==
            (trial == -2 || rest == -2 ? -2 : trial >= 0 ? trial : rest) &&
        hardened_end(rng, powers, npowers, cap, scores, n, best, total, k, p) ==
            (trial == -2 ? next :
                 hardened_end(rng, powers, npowers, cap, scores, n, best, total, k + 1, next));

    // the hardened EM's release as its reference (total: its
    // DPSEL_REJECTION_ROUNDS rounds of n trials): none kept is
    // DPSEL_EUNLIKELY, as a uniform draw that runs out is
    predicate em_hardened_released_ref{Pre, Here}(dpsel_rng *rng, dpsel_decay *decay,
                                                  int64_t *scores, integer n, integer best,
                                                  integer r, integer index) =
        \let total = times(n, DPSEL_REJECTION_ROUNDS);
        \let ref = hardened_ref(rng, \at(decay->powers, Pre), \at(decay->npowers, Pre),
                                \at(decay->cap, Pre), scores, n, best, total, 0,
                                cursor{Pre}(rng));
        (r == DPSEL_OK ? index == ref && ref >= 0 : r == DPSEL_EUNLIKELY && ref < 0) &&
        cursor{Here}(rng) ==
            hardened_end(rng, \at(decay->powers, Pre), \at(decay->npowers, Pre),
                         \at(decay->cap, Pre), scores, n, best, total, 0, cursor{Pre}(rng));

    // dpsel_core_em_hardened after its first k trials, at Here: the release
    // is the first kept candidate so far (chosen, when found is 1), unless
    // a later trial's uniform draw runs out, else the rest's
    predicate hardened_so_far{Pre, Here}(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                                         integer cap, int64_t *scores, integer n, integer best,
                                         integer k, integer found, integer chosen) =
        \let total = times(n, DPSEL_REJECTION_ROUNDS);
        \let rest = hardened_ref(rng, powers, npowers, cap, scores, n, best, total, k,
                                 cursor{Here}(rng));
        hardened_ref(rng, powers, npowers, cap, scores, n, best, total, 0, cursor{Pre}(rng)) ==
            (found == 1 ? (rest == -2 ? -2 : chosen) : rest) &&
        hardened_end(rng, powers, npowers, cap, scores, n, best, total, 0, cursor{Pre}(rng)) ==
            hardened_end(rng, powers, npowers, cap, scores, n, best, total, k,
                         cursor{Here}(rng));
*/

/*@ // PF by permutation (dpsel_core_pf): visit i takes shuffle step i from
    // the cursor c before it, which swaps position i with position
    // j = shuffle_step_ref(rng, n, i, c), and flips the power coin of the
    // candidate it puts at i; the visits go on while the coins are tails.
    // PF's state before visit i from bit p, every earlier coin tails:
    // k == -1 gives the cursor, 0 <= k < n gives scratch[k].  The cursor,
    // the swaps and the coins depend on each other: one recursive function
    // defines them together (ACSL has no mutual recursion without axioms).
    logic integer pf_trace(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                           int64_t *scores, integer n, integer best, integer p, integer i,
                           integer k) =
        i <= 0 ? (k == -1 ? p : k) :
        \let c = pf_trace(rng, powers, npowers, cap, scores, n, best, p, i - 1, -1);
        \let j = shuffle_step_ref(rng, n, i - 1, c);
        k == -1 ?
            power_end(rng, powers,
                      gap_of(best,
                             seen_score(scores, pf_trace(rng, powers, npowers, cap, scores, n,
                                                         best, p, i - 1, j)),
                             cap),
                      0, npowers, uniform_end(rng, n - (i - 1), c)) :
        k == i - 1 ? pf_trace(rng, powers, npowers, cap, scores, n, best, p, i - 1, j) :
        k == j ? pf_trace(rng, powers, npowers, cap, scores, n, best, p, i - 1, i - 1) :
        pf_trace(rng, powers, npowers, cap, scores, n, best, p, i - 1, k);

    // the cursor before visit i, and scratch[k] then
    logic integer pf_cursor(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                            int64_t *scores, integer n, integer best, integer p, integer i) =
        pf_trace(rng, powers, npowers, cap, scores, n, best, p, i, -1);
    logic integer pf_at(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                        int64_t *scores, integer n, integer best, integer p, integer i,
                        integer k) =
        pf_trace(rng, powers, npowers, cap, scores, n, best, p, i, k);

    // visit i's draw: the position swapped with i (-1: DPSEL_EUNLIKELY);
    // the candidate it visits (the one it puts at i); where its coin starts
    logic integer pf_draw(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                          int64_t *scores, integer n, integer best, integer p, integer i) =
        shuffle_step_ref(rng, n, i, pf_cursor(rng, powers, npowers, cap, scores, n, best, p, i));
    logic integer pf_candidate(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                               integer cap, int64_t *scores, integer n, integer best, integer p,
                               integer i) =
        pf_at(rng, powers, npowers, cap, scores, n, best, p, i,
              pf_draw(rng, powers, npowers, cap, scores, n, best, p, i));
    logic integer pf_coin_start(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                                integer cap, int64_t *scores, integer n, integer best,
                                integer p, integer i) =
        uniform_end(rng, n - i, pf_cursor(rng, powers, npowers, cap, scores, n, best, p, i));

    // visit i's coin
    logic integer pf_heads(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                           int64_t *scores, integer n, integer best, integer p, integer i) =
        power_ref(rng, powers,
                  gap_of(best,
                         seen_score(scores, pf_candidate(rng, powers, npowers, cap, scores, n,
                                                         best, p, i)),
                         cap),
                  0, npowers, pf_coin_start(rng, powers, npowers, cap, scores, n, best, p, i));

    // dpsel_core_pf from visit i, bit p the cursor at its start: the first
    // visited candidate whose coin is heads; -2 when a draw runs out of
    // rounds first (DPSEL_EUNLIKELY); -1 past the last visit (never: a best
    // candidate's coin is certain)
    logic integer pf_ref(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                         int64_t *scores, integer n, integer best, integer p, integer i) =
        i >= n ? -1 :
        pf_draw(rng, powers, npowers, cap, scores, n, best, p, i) < 0 ? -2 :
        pf_heads(rng, powers, npowers, cap, scores, n, best, p, i) == 1 ?
            pf_candidate(rng, powers, npowers, cap, scores, n, best, p, i) :
        pf_ref(rng, powers, npowers, cap, scores, n, best, p, i + 1);
    logic integer pf_end(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                         int64_t *scores, integer n, integer best, integer p, integer i) =
        i >= n ? pf_cursor(rng, powers, npowers, cap, scores, n, best, p, n) :
        pf_draw(rng, powers, npowers, cap, scores, n, best, p, i) < 0 ?
            pf_coin_start(rng, powers, npowers, cap, scores, n, best, p, i) :
        pf_heads(rng, powers, npowers, cap, scores, n, best, p, i) == 1 ?
            pf_cursor(rng, powers, npowers, cap, scores, n, best, p, i + 1) :
        pf_end(rng, powers, npowers, cap, scores, n, best, p, i + 1);

    // the powers and the n scores as a call finds them
    predicate values_seen{L}(dpsel_dyadic *powers, integer npowers, int64_t *scores,
                             integer n) =
        powers_seen(powers, npowers) && scores_seen(scores, n);

    // what a visit's stream clause needs at its start: room for a uniform
    // draw and a power coin, and the values seen
    predicate visit_ready{L}(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                             int64_t *scores, integer n) =
        room(rng, trial_bits(powers, npowers)) && values_seen(powers, npowers, scores, n);

    // visit i from the cursor at Pre to Here as the reference steps it:
    // DPSEL_EUNLIKELY when the draw runs out; else the swap, and the side
    // of the coin of the candidate it puts at i
    predicate visited_ref{Pre, Here}(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                                     integer cap, int64_t *scores, size_t *scratch, integer n,
                                     integer best, integer i, integer side) =
        \let j = shuffle_step_ref(rng, n, i, cursor{Pre}(rng));
        \let drawn = uniform_end(rng, n - i, cursor{Pre}(rng));
        \let gap = gap_of(best, seen_score(scores, \at(scratch[j], Pre)), cap);
        (side == DPSEL_EUNLIKELY ?
             j < 0 && cursor{Here}(rng) == drawn :
             i <= j < n && swapped_at{Pre, Here}(scratch, n, i, j) &&
             side == power_ref(rng, powers, gap, 0, npowers, drawn) &&
             cursor{Here}(rng) == power_end(rng, powers, gap, 0, npowers, drawn)) &&
        read_at_most{Pre, Here}(rng, trial_bits(powers, npowers));

    // dpsel_core_pf before visit i, at Here: the cursor and scratch are
    // the reference's, from the cursor at Pre
    predicate pf_state{Pre, Here}(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                                  integer cap, int64_t *scores, size_t *scratch, integer n,
                                  integer best, integer i) =
        cursor{Here}(rng) == pf_cursor(rng, powers, npowers, cap, scores, n, best,
                                       cursor{Pre}(rng), i) &&
        \forall integer k; 0 <= k < n ==>
            \at(scratch[k], Here) == pf_at(rng, powers, npowers, cap, scores, n, best,
                                           cursor{Pre}(rng), i, k);

    // ... and every earlier coin tails: the release and the end are those
    // from visit i
    predicate pf_so_far{Pre}(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                             int64_t *scores, integer n, integer best, integer i) =
        pf_ref(rng, powers, npowers, cap, scores, n, best, cursor{Pre}(rng), 0) ==
            pf_ref(rng, powers, npowers, cap, scores, n, best, cursor{Pre}(rng), i) &&
        pf_end(rng, powers, npowers, cap, scores, n, best, cursor{Pre}(rng), 0) ==
            pf_end(rng, powers, npowers, cap, scores, n, best, cursor{Pre}(rng), i);

    // pf_trace after visit i, one step unfolded: positions i and its draw
    // j exchanged
    predicate pf_swaps(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                       int64_t *scores, integer n, integer best, integer p, integer i) =
        \let j = pf_draw(rng, powers, npowers, cap, scores, n, best, p, i);
        \forall integer k; 0 <= k < n ==>
            pf_at(rng, powers, npowers, cap, scores, n, best, p, i + 1, k) ==
                (k == i ? pf_at(rng, powers, npowers, cap, scores, n, best, p, i, j) :
                 k == j ? pf_at(rng, powers, npowers, cap, scores, n, best, p, i, i) :
                          pf_at(rng, powers, npowers, cap, scores, n, best, p, i, k));

    // PF's release as its reference, from the best score of the seen
    // scores (-2: DPSEL_EUNLIKELY)
    predicate pf_released_ref{Pre, Here}(dpsel_rng *rng, dpsel_decay *decay, int64_t *scores,
                                         integer n, integer best, integer r, integer index) =
        \let ref = pf_ref(rng, \at(decay->powers, Pre), \at(decay->npowers, Pre),
                          \at(decay->cap, Pre), scores, n, best, cursor{Pre}(rng), 0);
        (r == DPSEL_OK ? index == ref : r == DPSEL_EUNLIKELY && ref == -2) &&
        cursor{Here}(rng) == pf_end(rng, \at(decay->powers, Pre), \at(decay->npowers, Pre),
                                    \at(decay->cap, Pre), scores, n, best, cursor{Pre}(rng), 0);
*/

/*@ // The hardened PF (dpsel_core_pf_hardened): the whole shuffle first,
    // steps 0 .. n - 1 from bit p, then a fixed-pattern power coin for the
    // candidate at each position in turn, every one flipped; the first
    // heads is released.
    // The shuffle after i steps from bit p, every draw so far in range:
    // k == -1 gives the cursor, 0 <= k < n gives scratch[k]
    logic integer shuffle_trace(dpsel_rng *rng, integer n, integer p, integer i, integer k) =
        i <= 0 ? (k == -1 ? p : k) :
        \let c = shuffle_trace(rng, n, p, i - 1, -1);
        \let j = shuffle_step_ref(rng, n, i - 1, c);
        k == -1 ? uniform_end(rng, n - (i - 1), c) :
        k == i - 1 ? shuffle_trace(rng, n, p, i - 1, j) :
        k == j ? shuffle_trace(rng, n, p, i - 1, i - 1) :
        shuffle_trace(rng, n, p, i - 1, k);

    // the first step from i on whose draw runs out of rounds (n: none)
    logic integer shuffle_fail(dpsel_rng *rng, integer n, integer p, integer i) =
        i >= n ? n :
        shuffle_step_ref(rng, n, i, shuffle_trace(rng, n, p, i, -1)) < 0 ? i :
        shuffle_fail(rng, n, p, i + 1);

    // the cursor before the scan's coin i, the scan starting at bit q: a
    // fixed-pattern coin reads the same bits whatever its gap
    logic integer scan_cursor(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer q,
                              integer i) =
        i <= 0 ? q : power_fixed_end(rng, powers, npowers,
                                     scan_cursor(rng, powers, npowers, q, i - 1));

    // the scan's coin i, of the candidate the shuffle from bit p put at
    // position i
    logic integer scan_heads(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                             int64_t *scores, integer n, integer best, integer p, integer i) =
        power_fixed_ref(rng, powers,
                        gap_of(best, seen_score(scores, shuffle_trace(rng, n, p, n, i)), cap),
                        npowers,
                        scan_cursor(rng, powers, npowers, shuffle_trace(rng, n, p, n, -1), i));

    // the scan from coin i on: the candidate of the first heads (-1: none;
    // never, a best candidate's coin is certain)
    logic integer scan_ref(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers, integer cap,
                           int64_t *scores, integer n, integer best, integer p, integer i) =
        i >= n ? -1 :
        scan_heads(rng, powers, npowers, cap, scores, n, best, p, i) == 1 ?
            shuffle_trace(rng, n, p, n, i) :
        scan_ref(rng, powers, npowers, cap, scores, n, best, p, i + 1);

    // dpsel_core_pf_hardened from bit p: -2 when a shuffle step's draw runs
    // out of rounds (DPSEL_EUNLIKELY, the call then stops), else the scan's
    // release; and the cursor after it
    logic integer pf_hardened_ref(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                                  integer cap, int64_t *scores, integer n, integer best,
                                  integer p) =
        shuffle_fail(rng, n, p, 0) < n ? -2 :
        scan_ref(rng, powers, npowers, cap, scores, n, best, p, 0);
    logic integer pf_hardened_end(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                                  integer n, integer p) =
        \let fail = shuffle_fail(rng, n, p, 0);
        fail < n ? uniform_end(rng, n - fail, shuffle_trace(rng, n, p, fail, -1)) :
        scan_cursor(rng, powers, npowers, shuffle_trace(rng, n, p, n, -1), n);

    // dpsel_core_pf_hardened's shuffle before step i, at Here: the cursor
    // and scratch are the reference's, and no earlier draw ran out
    predicate shuffle_state{Pre, Here}(dpsel_rng *rng, size_t *scratch, integer n, integer i) =
        cursor{Here}(rng) == shuffle_trace(rng, n, cursor{Pre}(rng), i, -1) &&
        shuffle_fail(rng, n, cursor{Pre}(rng), 0) == shuffle_fail(rng, n, cursor{Pre}(rng), i) &&
        \forall integer k; 0 <= k < n ==>
            \at(scratch[k], Here) == shuffle_trace(rng, n, cursor{Pre}(rng), i, k);

    // shuffle_trace and shuffle_fail at step i < n, one step unfolded
    predicate shuffle_unfolds(dpsel_rng *rng, integer n, integer p, integer i) =
        \let c = shuffle_trace(rng, n, p, i, -1);
        \let j = shuffle_step_ref(rng, n, i, c);
        shuffle_trace(rng, n, p, i + 1, -1) == uniform_end(rng, n - i, c) &&
        shuffle_fail(rng, n, p, i) == (j < 0 ? i : shuffle_fail(rng, n, p, i + 1)) &&
        \forall integer k; 0 <= k < n ==>
            shuffle_trace(rng, n, p, i + 1, k) ==
                (k == i ? shuffle_trace(rng, n, p, i, j) :
                 k == j ? shuffle_trace(rng, n, p, i, i) : shuffle_trace(rng, n, p, i, k));

    // the scan before coin i, at Here: the cursor is the reference's, and
    // the release is the first heads so far (chosen, when found is 1), else
    // the rest's
    predicate scan_so_far{Pre, Here}(dpsel_rng *rng, dpsel_dyadic *powers, integer npowers,
                                     integer cap, int64_t *scores, integer n, integer best,
                                     integer i, integer found, integer chosen) =
        \let p = cursor{Pre}(rng);
        cursor{Here}(rng) ==
            scan_cursor(rng, powers, npowers, shuffle_trace(rng, n, p, n, -1), i) &&
        scan_ref(rng, powers, npowers, cap, scores, n, best, p, 0) ==
            (found == 1 ? chosen : scan_ref(rng, powers, npowers, cap, scores, n, best, p, i));

    // the hardened PF's release as its reference, from the best score of
    // the seen scores (-2: DPSEL_EUNLIKELY)
    predicate pf_hardened_released_ref{Pre, Here}(dpsel_rng *rng, dpsel_decay *decay,
                                                  int64_t *scores, integer n, integer best,
                                                  integer r, integer index) =
        \let powers = \at(decay->powers, Pre);
        \let npowers = \at(decay->npowers, Pre);
        \let ref = pf_hardened_ref(rng, powers, npowers, \at(decay->cap, Pre), scores, n, best,
                                   cursor{Pre}(rng));
        (r == DPSEL_OK ? index == ref : r == DPSEL_EUNLIKELY && ref == -2) &&
        cursor{Here}(rng) == pf_hardened_end(rng, powers, npowers, n, cursor{Pre}(rng));
*/

#endif
