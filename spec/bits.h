/* SPDX-License-Identifier: ISC */
/*
 * The random source as a bit stream (issue 42, stage 0): the bits a source
 * gives, a cursor into them, and the values the readers of spec/trusted.h
 * return, as logic functions of the stream.  The samplers' reference
 * functions (spec/references.h) are written with these.  Definitions only;
 * what they add to the trusted base is in spec/trusted-base.md, entry 0.
 */
#ifndef DPSEL_SPEC_BITS_H
#define DPSEL_SPEC_BITS_H

/* The largest cursor: the count of bits read is a uint64_t.  A read's
 * statement about the stream holds while the cursor has room for it. */
#define DPSEL_CURSOR_MAX 18446744073709551615

/*@ axiomatic RandomBits {
      // what decides bit i of the stream of the source at rng (no axiom:
      // any sequence at all)
      logic integer rbit_raw(dpsel_rng *rng, integer i);
    }
*/

/*@ // bit i of the stream of the source at rng: 0 or 1
    logic integer rbit(dpsel_rng *rng, integer i) = rbit_raw(rng, i) == 0 ? 0 : 1;

    // how many bits the source has given: the next read starts at bit
    // cursor(rng) of its stream (a field only the proofs see, include/dpsel.h)
    logic integer cursor{L}(dpsel_rng *rng) = rng->proof_bits_read_;

    // the cursor can move count bits more without passing DPSEL_CURSOR_MAX
    predicate room{L}(dpsel_rng *rng, integer count) = cursor(rng) + count <= DPSEL_CURSOR_MAX;

    // the value of the count bits from bit p, the first the most significant
    logic integer bits_value(dpsel_rng *rng, integer p, integer count) =
        count <= 0 ? 0 : 2 * bits_value(rng, p, count - 1) + rbit(rng, p + count - 1);

    // the zeros from bit p on, at most limit of them
    logic integer zeros_run(dpsel_rng *rng, integer p, integer limit) =
        limit <= 0 || rbit(rng, p) == 1 ? 0 : 1 + zeros_run(rng, p + 1, limit - 1);

    // where a run of zeros from bit p read up to limit ends: after the 1
    // that ended it, if one did
    logic integer zeros_end(dpsel_rng *rng, integer p, integer limit) =
        zeros_run(rng, p, limit) < limit ? p + zeros_run(rng, p, limit) + 1 : p + limit;

    // what each reader gives when it succeeds with room left: the bit at
    // start, the count bits from start, the zeros from start (the cursor
    // after each)
    predicate bit_read{L}(dpsel_rng *rng, integer start, integer bit) =
        bit == rbit(rng, start) && cursor(rng) == start + 1;
    predicate bits_read{L}(dpsel_rng *rng, integer start, integer count, integer value) =
        value == bits_value(rng, start, count) && cursor(rng) == start + count;
    predicate zeros_read{L}(dpsel_rng *rng, integer start, integer limit, integer zeros) =
        zeros == zeros_run(rng, start, limit) && cursor(rng) == zeros_end(rng, start, limit);
*/

#endif
