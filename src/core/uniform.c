/* Unbiased uniform integers from single random bits (Fast Dice Roller). */
#include "core.h"

int dpsel_core_uniform(dpsel_rng *rng, uint64_t k, uint64_t *out)
{
    /* Invariant: c is uniform in [0, v) given everything drawn so far, and
     * c < v < k before each doubling run, so 2v and 2c + 1 fit in 64 bits. */
    uint64_t v = 1;
    uint64_t c = 0;
    if (k == 1) {
        *out = 0;
        return DPSEL_OK;
    }
    /*@ loop invariant 0 <= round <= DPSEL_REJECTION_ROUNDS;
        loop invariant 1 <= v < k && c < v;
        loop assigns round, v, c, *rng;
        loop variant DPSEL_REJECTION_ROUNDS - round;
    */
    for (unsigned round = 0; round < DPSEL_REJECTION_ROUNDS; round++) {
        /*@ loop invariant 1 <= v < 2 * k && c < v;
            loop assigns v, c, *rng;
            loop variant k - v;
        */
        while (v < k) {
            unsigned bit;
            int rc = dpsel_rng_bit(rng, &bit);
            if (rc != DPSEL_OK) {
                return rc;
            }
            v = 2 * v;
            c = 2 * c + bit;
        }
        if (c < k) {
            *out = c;
            return DPSEL_OK;
        }
        /* Rejected (probability (v - k) / v < 1/2): c - k is uniform in
         * [0, v - k); keep those bits instead of starting again. */
        v -= k;
        c -= k;
    }
    return DPSEL_EUNLIKELY;
}
