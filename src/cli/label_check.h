/* SPDX-License-Identifier: ISC */
/* The duplicate-label check of a streamed file, in memory bounded
 * independently of the number of candidates and without false alarm.
 *
 * The caller makes passes over the labels in file order, in rounds:
 *   collect: label_check_add for every label (a blocked Bloom filter marks
 *            the labels seen; a label whose marks are all set already is a
 *            "suspect": a repeat, or a false positive of the filter);
 *   verify:  label_check_verify for every label, if label_check_suspects
 *            says there are suspects (their texts are compared exactly
 *            with the earlier labels of the same hash, up to the first
 *            suspect found to be a repeat: linear in the labels);
 * then label_check_settle says whether another round (a collect pass, then
 * the rest) is needed, and at the end label_check_repeat gives the first
 * repeat of the file.  The first collect pass is the caller's survey of
 * the file.  A round keeps at most `suspects_max` suspects and `text_max`
 * bytes of their labels; if the survey stops at a cap, the rest of the file
 * is checked a part of the label hashes at a time (`part_labels` labels
 * each, on average), so that a round stays under the caps but for bad
 * luck, and a round that does not goes on in another round. */
#ifndef DPSEL_CLI_LABEL_CHECK_H
#define DPSEL_CLI_LABEL_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

#include "input.h"

#define NO_REPEAT UINT64_MAX

typedef struct {
    size_t filter_blocks;  /* of the Bloom filter, 64 bytes each; a power of two */
    size_t suspects_max;   /* suspects kept per round; at least 1 */
    size_t text_max;       /* bytes of their labels per round; over any label's size */
    uint64_t part_labels;  /* labels per part of the hashes, when the survey is not enough */
} label_check_limits;

/* 32 MiB of filter, 64 Ki suspects and 4 MiB of their labels, parts of
 * 2^24 labels: 16 bits of filter each, so about one label in 10^3 is a
 * false suspect and a part stays under 65 536 suspects. */
#define LABEL_CHECK_LIMITS \
    { (size_t)1 << 19, (size_t)1 << 16, (size_t)1 << 22, (uint64_t)1 << 24 }

typedef struct {
    uint64_t hash[2];      /* the label's keyed hash */
    uint64_t index;        /* its position */
    size_t line;           /* its line, found by the verify pass */
    size_t text;           /* offset of its label in the text arena */
    uint64_t first;        /* the first position with the same label, or NO_REPEAT */
    size_t first_line;
} label_suspect;

/* The first repeat found so far. */
typedef struct {
    uint64_t index;            /* NO_REPEAT: none */
    size_t line, first_line;
    char text[INPUT_LINE_MAX + 1];
} label_repeat;

typedef struct {
    label_check_limits limits;
    unsigned char key[crypto_shorthash_siphashx24_KEYBYTES];
    uint64_t *filter;          /* filter_blocks blocks of 8 words */
    label_suspect *suspects;   /* this round's, sorted by hash after collecting */
    size_t suspect_count;
    uint64_t last_suspect;     /* the position of the last one kept */
    char *text;                /* their labels, each with its NUL */
    size_t text_used;
    int truncated;             /* this round stopped collecting at a cap */
    uint64_t parts;            /* the label hashes are checked in parts; 0 before the survey is settled */
    uint64_t part;             /* this round's part */
    uint64_t checked;          /* every label before this position is checked (all parts) */
    uint64_t round_start;      /* this round's suspects are at or after it */
    uint64_t round_repeat;     /* the first suspect of the round found to be a
                                * repeat so far (NO_REPEAT: none): the verify
                                * pass stops there */
    label_repeat repeat;
    uint64_t comparisons;      /* suspects looked at by the verify passes (for tests) */
} label_check;

/* label_check_init's failures. */
#define LABEL_CHECK_NO_MEMORY (-1)
#define LABEL_CHECK_NO_KEY (-2)   /* the random source (getrandom) failed */

/* Allocates the filter (lazily zeroed by the system) and the suspect
 * store under a fresh random key from getrandom (libsodium need not be
 * initialised).  Returns 0, LABEL_CHECK_NO_MEMORY or LABEL_CHECK_NO_KEY
 * (c is then empty; label_check_free is safe). */
int label_check_init(label_check *c, const label_check_limits *limits);

void label_check_free(label_check *c);

/* Collect pass: the label at position index (positions increasing, from 0,
 * in every pass). */
void label_check_add(label_check *c, const char *label, uint64_t index);

/* After a collect pass: the number of suspects this round (sorts them). */
size_t label_check_suspects(label_check *c);

/* Verify pass: the label at position index, read from line. */
void label_check_verify(label_check *c, const char *label, uint64_t index, size_t line);

/* After a round (its verify pass, if it had suspects), with the number of
 * candidates of the file: 1 if another round is needed (the filter is then
 * cleared for its collect pass), 0 if every label has been checked. */
int label_check_settle(label_check *c, uint64_t count);

/* At the end: the first repeat of the file, or NULL. */
const label_repeat *label_check_repeat(const label_check *c);

#endif
