/* SPDX-License-Identifier: ISC */
/*
 * The baselines: EM and PF the way a textbook writes them, in double
 * precision with a fast non-cryptographic PRNG.  They are NOT differentially
 * private (floating-point weights underflow and leak through their low bits:
 * Mironov 2012, Ilvento 2019); they are here only to be timed.  Like
 * textbook code, each call allocates its own n-sized scratch array.
 */
#include <math.h>
#include <stdlib.h>

#include "bench.h"

static uint64_t rotate_left(uint64_t v, int k)
{
    return (v << k) | (v >> (64 - k));
}

/* xoshiro256** (Blackman and Vigna), seeded through splitmix64. */
void prng_seed(uint64_t state[4], uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        uint64_t z = (seed += 0x9E3779B97F4A7C15u);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        state[i] = z ^ (z >> 31);
    }
}

uint64_t prng_next(uint64_t s[4])
{
    uint64_t result = rotate_left(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotate_left(s[3], 45);
    return result;
}

/* A uniform double in [0, 1) from the top 53 bits. */
static double uniform_double(uint64_t s[4])
{
    return (double)(prng_next(s) >> 11) * 0x1.0p-53;
}

/* An index below m by multiply-shift (Lemire, without the rejection step:
 * slightly biased, as fast code usually is). */
static size_t uniform_below(uint64_t s[4], size_t m)
{
    __extension__ typedef unsigned __int128 wide;
    return (size_t)(((wide)prng_next(s) * m) >> 64);
}

static int64_t max_score(const int64_t *scores, size_t n)
{
    int64_t best = scores[0];
    for (size_t i = 1; i < n; i++) {
        best = scores[i] > best ? scores[i] : best;
    }
    return best;
}

/* The weight exp(epsilon (q - max) / 2D) of a score, D = 1. */
static double weight(const bench_case *c, int64_t score, int64_t best)
{
    return exp(c->epsilon / 2 * (double)(score - best));
}

/* EM: cumulative sums of the weights, one uniform double, binary search. */
int naive_em(bench_case *c, uint64_t *out)
{
    double *cumulative = malloc(c->n * sizeof *cumulative);
    if (cumulative == NULL) {
        return DPSEL_ENOMEM;
    }
    int64_t best = max_score(c->scores, c->n);
    double total = 0;
    for (size_t i = 0; i < c->n; i++) {
        total += weight(c, c->scores[i], best);
        cumulative[i] = total;
    }
    double u = uniform_double(c->prng) * total;
    size_t low = 0, high = c->n - 1;  /* the first i with cumulative[i] > u */
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if (cumulative[mid] > u) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    free(cumulative);
    *out = low;
    return DPSEL_OK;
}

/* PF: a Fisher-Yates shuffle, then coins with P(heads) = weight until heads
 * (the best candidate's coin, weight 1, always lands heads). */
int naive_pf(bench_case *c, uint64_t *out)
{
    size_t *order = malloc(c->n * sizeof *order);
    if (order == NULL) {
        return DPSEL_ENOMEM;
    }
    for (size_t i = 0; i < c->n; i++) {
        order[i] = i;
    }
    for (size_t i = c->n - 1; i > 0; i--) {
        size_t j = uniform_below(c->prng, i + 1);
        size_t swap = order[i];
        order[i] = order[j];
        order[j] = swap;
    }
    int64_t best = max_score(c->scores, c->n);
    size_t i = 0;
    while (uniform_double(c->prng) >= weight(c, c->scores[order[i]], best)) {
        i++;
    }
    *out = order[i];
    free(order);
    return DPSEL_OK;
}
