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

#endif
