/* `dpsel select` streamed from a regular file (PF's race), in passes over
 * the file instead of arrays of its candidates. */
#ifndef DPSEL_CLI_STREAM_SELECT_H
#define DPSEL_CLI_STREAM_SELECT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dpsel.h"
#include "input.h"

/* A label's keyed hash in the duplicate check: 128 bits. */
#define LABEL_HASH_SIZE crypto_shorthash_siphashx24_BYTES

typedef struct {
    uint64_t hash[2];                   /* compared as two integers */
    uint64_t index;                     /* the candidate's position */
} label_hash;

typedef struct {
    line_reader reader;
    crypto_generichash_state state;
    unsigned char digest[crypto_generichash_BYTES];  /* of the first pass */
    unsigned passes;
    size_t count;
    int64_t best;
    int labelled;                       /* some line has a label */
    unsigned char key[crypto_shorthash_siphashx24_KEYBYTES]; /* of the label hashes */
    label_hash *hashes;                 /* once labelled: one per candidate */
    size_t capacity;
} streamed;

/* Starts on stream (a regular file, named `name` in messages; the caller
 * closes it after streamed_free).  Messages go to message. */
void streamed_init(streamed *s, FILE *stream, const char *name, char *message,
                   size_t message_size);

/* The first pass: every line checked as the in-memory reader would, the
 * candidates counted, the best score found, the labels checked unique.
 * Returns 0, or -1 with one line in the message. */
int streamed_check(streamed *s);

/* `count` independent PF selections in one more pass (the race, one
 * dpsel_pf_stream each, one rng for all): chosen[i] and labels[i] (new
 * strings; a third pass fetches them when the file has labels) for each.
 * The file must not change between passes (a BLAKE2b hash of its bytes is
 * compared).  Returns 0, or -1 with one line in the message. */
int streamed_select(streamed *s, const dpsel_selector *selector, dpsel_rng *rng,
                    uint64_t count, size_t *chosen, char **labels);

void streamed_free(streamed *s);

#endif
