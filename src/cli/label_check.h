/* The duplicate-label check of a streamed file, in memory bounded
 * independently of the number of candidates and without false alarm.
 *
 * The caller makes passes over the labels in file order:
 *   collect: label_check_add for every label (a blocked Bloom filter marks
 *            the labels seen; a label whose marks are all set already is a
 *            "suspect": a repeat, or a false positive of the filter);
 *   verify:  label_check_verify for every label, if label_check_suspects
 *            says there are suspects (their texts are compared exactly
 *            with every earlier label of the same hash);
 * and label_check_repeat tells the first repeat of the file.  A round keeps
 * at most `suspects_max` suspects and `text_max` bytes of their labels; if
 * a round's suspects are all false positives and it stopped collecting at
 * a cap, label_check_next_round starts another round (a collect pass from
 * the start of the file, keeping the suspects after the last one), which
 * only very large files need (see stream_select.c). */
#ifndef DPSEL_CLI_LABEL_CHECK_H
#define DPSEL_CLI_LABEL_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

typedef struct {
    size_t filter_blocks;  /* of the Bloom filter, 64 bytes each; a power of two */
    size_t suspects_max;   /* suspects kept per round; at least 1 */
    size_t text_max;       /* bytes of their labels per round; over any label's size */
} label_check_limits;

/* 32 MiB of filter, 64 Ki suspects and 4 MiB of their labels (8 MiB in all). */
#define LABEL_CHECK_LIMITS { (size_t)1 << 19, (size_t)1 << 16, (size_t)1 << 22 }

typedef struct {
    uint64_t hash[2];      /* the label's keyed hash */
    uint64_t index;        /* its position */
    size_t line;           /* its line, found by the verify pass */
    size_t text;           /* offset of its label in the text arena */
    uint64_t first;        /* the first position with the same label, or NO_REPEAT */
    size_t first_line;
} label_suspect;

typedef struct {
    label_check_limits limits;
    unsigned char key[crypto_shorthash_siphashx24_KEYBYTES];
    uint64_t *filter;          /* filter_blocks blocks of 8 words */
    label_suspect *suspects;   /* this round's, sorted by hash after collecting */
    size_t suspect_count;
    uint64_t last_suspect;     /* the position of the last one kept */
    char *text;                /* their labels, each with its NUL */
    size_t text_used;
    uint64_t round_start;      /* suspects at or after this position are kept */
    int truncated;             /* this round stopped collecting at a cap */
} label_check;

/* Allocates the filter (lazily zeroed by the system) and the suspect
 * store under a fresh random key; sodium_init must have succeeded.
 * Returns 0, or -1 out of memory (c is then empty; label_check_free is safe). */
int label_check_init(label_check *c, const label_check_limits *limits);

void label_check_free(label_check *c);

/* Collect pass: the label at position index (positions increasing, from 0,
 * in every pass). */
void label_check_add(label_check *c, const char *label, uint64_t index);

/* After a collect pass: the number of suspects this round (sorts them). */
size_t label_check_suspects(label_check *c);

/* Verify pass: the label at position index, read from line. */
void label_check_verify(label_check *c, const char *label, uint64_t index, size_t line);

/* After a verify pass: the suspect of smallest position that repeats an
 * earlier label, or NULL.  Its label is label_check_text(c, suspect). */
const label_suspect *label_check_repeat(const label_check *c);

const char *label_check_text(const label_check *c, const label_suspect *s);

/* After a verify pass without a repeat: 1 if the round stopped collecting
 * at a cap, with the filter cleared and the suspects dropped for a new
 * collect pass; 0 if every label has been checked. */
int label_check_next_round(label_check *c);

#endif
