/* SPDX-License-Identifier: ISC */
/* `dpsel select` streamed from a regular file (PF's race), in passes over
 * the file instead of arrays of its candidates. */
#ifndef DPSEL_CLI_STREAM_SELECT_H
#define DPSEL_CLI_STREAM_SELECT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dpsel.h"
#include "input.h"
#include "label_check.h"

typedef struct {
    line_reader reader;
    crypto_generichash_state state;
    unsigned char digest[crypto_generichash_BYTES];  /* of the first pass */
    unsigned passes;
    size_t count;
    int64_t best;
    int labelled;                       /* some line has a label */
    label_check_limits limits;          /* LABEL_CHECK_LIMITS, or a test's */
    label_check labels;                 /* once labelled, until checked */
    int progress;                       /* --progress (progress.h) */
} streamed;

/* Starts on stream (a regular file, named `name` in messages; the caller
 * closes it after streamed_free).  Problems are recorded in error. */
void streamed_init(streamed *s, FILE *stream, const char *name, const score_format *format,
                   cli_error *error);

/* The first pass: every line checked as the in-memory reader would, the
 * candidates counted, the best score found, the labels checked unique.
 * Returns 0, or the exit status (status.h) with one line in the error. */
int streamed_check(streamed *s);

/* `count` independent PF selections in one more pass (the race, one
 * dpsel_pf_stream each, fed a block of scores at a time, one rng for all;
 * up to 4096 selections per pass, more passes for more): chosen[i] and
 * labels[i] (new strings; a last pass fetches them when the file has labels)
 * for each.  The file must not change between passes (a BLAKE2b hash of
 * its bytes is compared).  Returns 0, or the exit status with one line in
 * the error. */
int streamed_select(streamed *s, const dpsel_selector *selector, dpsel_rng *rng,
                    uint64_t count, size_t *chosen, char **labels);

void streamed_free(streamed *s);

#endif
