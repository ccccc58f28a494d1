/* SPDX-License-Identifier: ISC */
/* Score arithmetic of the verified core: best score, gaps, bit lengths. */
#include "gap.h"

size_t dpsel_core_argmax(const int64_t *scores, size_t n)
{
    /* The largest score is kept in a register: comparing with scores[best]
     * would reload it, a dependency on every step of the pass. */
    size_t best = 0;
    int64_t largest = scores[0];
    /*@ loop invariant 1 <= i <= n;
        loop invariant 0 <= best < i && largest == scores[best];
        loop invariant \forall integer k; 0 <= k < i ==> scores[k] <= largest;
        loop invariant \forall integer k; 0 <= k < best ==> scores[k] < largest;
        loop assigns i, best, largest;
        loop variant n - i;
    */
    for (size_t i = 1; i < n; i++) {
        if (scores[i] > largest) {
            best = i;
            largest = scores[i];
        }
    }
    return best;
}

unsigned dpsel_core_opaque(unsigned v)
{
#if defined(__GNUC__) && !defined(__FRAMAC__)
    /* An empty assembly statement that claims to change v: the optimiser no
     * longer knows where v came from (a comparison: 0 or 1), so it cannot
     * turn the arithmetic on v back into a branch (clang -O2 turns
     * choose_i64 in max_score into jumps without it).  It emits no code;
     * the proofs, which do not see it, take v unchanged. */
    __asm__("" : "+r"(v));
#endif
    return v;
}

/* The hardened samplers pick between two values by arithmetic on a 0/1
 * flag, so that no branch depends on a score or a coin: one of the two
 * products is zero, and neither can overflow. */
uint64_t dpsel_core_choose_u64(unsigned take_b, uint64_t a, uint64_t b)
{
    take_b = dpsel_core_opaque(take_b);
    return a * (1u - take_b) + b * take_b;
}

int64_t dpsel_core_choose_i64(unsigned take_b, int64_t a, int64_t b)
{
    int64_t weight_b = (int64_t)dpsel_core_opaque(take_b);
    return a * (1 - weight_b) + b * weight_b;
}

int64_t dpsel_core_max_score(const int64_t *scores, size_t n)
{
    /* Unlike dpsel_core_argmax, reads the scores in a fixed order and keeps
     * the best value (not its index) without a branch on the scores. */
    int64_t best = scores[0];
    /*@ loop invariant 1 <= i <= n;
        loop invariant \forall integer k; 0 <= k < i ==> scores[k] <= best;
        loop invariant \exists integer k; 0 <= k < i && scores[k] == best;
        loop assigns i, best;
        loop variant n - i;
    */
    for (size_t i = 1; i < n; i++) {
        best = dpsel_core_choose_i64(scores[i] > best, best, scores[i]);
    }
    return best;
}

uint64_t dpsel_core_clamped_gap(int64_t best, int64_t score, uint64_t cap)
{
    /* best - score lies in [0, 2^64 - 1], which int64 cannot hold when best
     * is non-negative and score negative: there it is computed as
     * best + (-(score + 1)) + 1, each term and sum in range, no wrap-around. */
    uint64_t gap;
    if (best >= 0 && score < 0) {
        gap = (uint64_t)best + (uint64_t)(-(score + 1)) + 1u;
    } else {
        gap = (uint64_t)(best - score);
    }
    return gap < cap ? gap : cap;
}

unsigned dpsel_core_bitlen(uint64_t v)
{
    unsigned bits = 0;
    //@ ghost uint64_t input = v;
    /* Invariant: v is the input shifted right by bits places. */
    /*@ loop invariant 0 <= bits <= 64;
        loop invariant 1 <= pow2(bits);
        loop invariant v < pow2(64 - bits);
        loop invariant v * pow2(bits) <= input < (v + 1) * pow2(bits);
        loop invariant bits > 0 ==> pow2(bits - 1) <= input;
        loop assigns v, bits;
        loop variant v;
    */
    while (v != 0) {
        //@ ghost uint64_t before = v;
        v >>= 1;
        //@ assert before == 2 * v || before == 2 * v + 1;
        //@ ghost dpsel_lemma_bitlen_step(before, v, input, bits);
        bits++;
    }
    return bits;
}
