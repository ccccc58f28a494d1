/* SPDX-License-Identifier: ISC */
/* Permute-and-flip (McKenna & Sheldon 2020). */
#include "pf.h"

#include "coin.h"
#include "gap.h"
#include "uniform.h"

int dpsel_core_shuffle_step(dpsel_rng *rng, size_t *scratch, size_t n, size_t i)
{
    uint64_t offset;
    int rc = dpsel_core_uniform(rng, (uint64_t)(n - i), &offset);
    if (rc != DPSEL_OK) {
        return rc;
    }
    size_t j = i + (size_t)offset;
    size_t moved = scratch[j];
    /*@ ghost swap: ; */
    scratch[j] = scratch[i];
    scratch[i] = moved;
    /*@ assert i <= j < n; */
    /*@ assert scratch[i] == \at(scratch[j], swap); */
    /*@ assert scratch[j] == \at(scratch[i], swap); */
    /*@ assert \forall integer a; 0 <= a < n && a != i && a != j ==>
               scratch[a] == \at(scratch[a], swap); */
    return DPSEL_OK;
}

/* The identity permutation: scratch[k] = k. */
/*@ requires range: 1 <= n <= DPSEL_MAX_CANDIDATES;
    requires writable: \valid(scratch + (0 .. n - 1));
    assigns scratch[0 .. n - 1];
    ensures identity: \forall integer k; 0 <= k < n ==> scratch[k] == k;
*/
static void fill_identity(size_t *scratch, size_t n)
{
    /*@ loop invariant 0 <= i <= n;
        loop invariant \forall integer k; 0 <= k < i ==> scratch[k] == k;
        loop assigns i, scratch[0 .. n - 1];
        loop variant n - i;
    */
    for (size_t i = 0; i < n; i++) {
        scratch[i] = i;
    }
}

int dpsel_core_pf(dpsel_rng *rng, const dpsel_decay *decay,
                  const int64_t *scores, size_t n, size_t *scratch,
                  size_t *index)
{
    size_t top = dpsel_core_argmax(scores, n);
    int64_t best = scores[top];
    fill_identity(scratch, n);
    /*@ assert \forall integer k; 0 <= k < n ==> scratch[k] == k; */
    /*@ assert scratch[top] == top && scores[scratch[top]] == best; */
    /* Step i of a Fisher-Yates shuffle fixes position i; the candidates are
     * visited in shuffled order as the shuffle is drawn.  Positions i .. n - 1
     * hold the candidates not yet visited, a best one among them. */
    /*@ loop invariant 0 <= i <= n;
        loop invariant permutation: permutation(scratch, n);
        loop invariant best_ahead: \exists integer p; i <= p < n && scores[scratch[p]] == best;
        loop assigns i, *rng, scratch[0 .. n - 1];
        loop variant n - i;
    */
    for (size_t i = 0; i < n; i++) {
        int rc = dpsel_core_shuffle_step(rng, scratch, n, i);
        if (rc != DPSEL_OK) {
            /*@ assert *index == \at(*index, Pre); */
            return rc;
        }
        size_t candidate = scratch[i];
        /* The swap moved a best candidate at most within positions i .. n - 1. */
        /*@ assert best_still_ahead: \exists integer p; i <= p < n && scores[scratch[p]] == best; */

        uint64_t gap = dpsel_core_clamped_gap(best, scores[candidate], decay->cap);
        int heads;
        /*@ ghost flip: ; */
        rc = dpsel_core_coin_power(rng, decay->powers, decay->npowers, gap, &heads);
        /*@ assert flip_frame: \forall integer a; 0 <= a < n ==> scratch[a] == \at(scratch[a], flip); */
        if (rc != DPSEL_OK) {
            /*@ assert *index == \at(*index, Pre); */
            return rc;
        }
        if (heads) {
            /*@ assert permutation(scratch, n); */
            *index = candidate;
            return DPSEL_OK;
        }
        /* Tails: candidate is not a best one (its gap would be 0, its coin
         * certain), so a best candidate is still among positions i + 1 .. n - 1. */
        /*@ assert scores[candidate] != best; */
    }
    /* Unreachable: a best candidate has gap 0, and its coin is certain. */
    /*@ assert \false; */
    return DPSEL_EINTERNAL;
}

int dpsel_core_pf_hardened(dpsel_rng *rng, const dpsel_decay *decay,
                           const int64_t *scores, size_t n, size_t *scratch,
                           size_t *index)
{
    int64_t best = dpsel_core_max_score(scores, n);
    fill_identity(scratch, n);
    /*@ assert \forall integer p; 0 <= p < n ==> scores[scratch[p]] == scores[p]; */
    /*@ assert \exists integer p; 0 <= p < n && scores[scratch[p]] == best; */
    /* The whole shuffle first, so that its bits do not depend on where the
     * first heads falls. */
    /*@ loop invariant 0 <= i <= n;
        loop invariant permutation: permutation(scratch, n);
        loop invariant best_present: \exists integer p; 0 <= p < n && scores[scratch[p]] == best;
        loop assigns i, *rng, scratch[0 .. n - 1];
        loop variant n - i;
    */
    for (size_t i = 0; i < n; i++) {
        int rc = dpsel_core_shuffle_step(rng, scratch, n, i);
        if (rc != DPSEL_OK) {
            /*@ assert *index == \at(*index, Pre); */
            return rc;
        }
    }
    /* A coin for every candidate, in shuffled order; found records whether a
     * heads came earlier, and only the first heads is taken. */
    uint64_t chosen = 0;
    unsigned found = 0;
    /*@ loop invariant 0 <= i <= n;
        loop invariant found == 0 || found == 1;
        loop invariant chosen < n;
        loop invariant permutation: permutation(scratch, n);
        loop invariant best_ahead: found == 0 ==>
                       \exists integer p; i <= p < n && scores[scratch[p]] == best;
        loop assigns i, chosen, found, *rng;
        loop variant n - i;
    */
    for (size_t i = 0; i < n; i++) {
        size_t candidate = scratch[i];
        uint64_t gap = dpsel_core_clamped_gap(best, scores[candidate], decay->cap);
        int heads;
        int rc = dpsel_core_coin_power_fixed(rng, decay->powers, decay->npowers, gap, &heads);
        if (rc != DPSEL_OK) {
            /*@ assert *index == \at(*index, Pre); */
            return rc;
        }
        /* A best candidate's coin is certain: if no heads yet, one is ahead. */
        /*@ assert found == 0 && heads == 0 ==> scores[candidate] != best; */
        unsigned first = (unsigned)heads > found;  /* this one, and none before */
        chosen = dpsel_core_choose_u64(first, chosen, candidate);
        found += first;
    }
    /*@ assert found == 1; */
    *index = (size_t)chosen;
    return DPSEL_OK;
}
