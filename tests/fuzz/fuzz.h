/* SPDX-License-Identifier: ISC */
/* Shared by dpsel's libFuzzer harnesses (see tests/README.md). */
#ifndef DPSEL_FUZZ_H
#define DPSEL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The entry point libFuzzer calls with each input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void fuzz_failed(const char *what, const char *file, int line)
{
    fprintf(stderr, "%s:%d: property failed: %s\n", file, line, what);
    abort();  /* libFuzzer reports the crash and keeps the input */
}

/* A property the harness checks. */
#define FUZZ_CHECK(condition) \
    ((condition) ? (void)0 : fuzz_failed(#condition, __FILE__, __LINE__))

/* A custom bit source (dpsel_rng_init_custom) that replays bytes of the
 * input, least significant bit of each byte first, then fails. */
typedef struct {
    const uint8_t *bits;
    size_t nbits;
    size_t used;
} replay;

static inline int replay_bit(void *context, unsigned *bit)
{
    replay *r = context;
    if (r->used == r->nbits) {
        return 1;
    }
    *bit = (r->bits[r->used / 8] >> (r->used % 8)) & 1u;
    r->used++;
    return 0;
}

#endif
