/* SPDX-License-Identifier: ISC */
/*
 * Duplicate labels in bounded memory (see label_check.h).
 *
 * Why it is exact: a Bloom filter has no false negatives, so every repeat
 * (a label equal to an earlier one) is a suspect of the round that covers
 * its position, and the verify pass compares the suspects' texts with every
 * earlier label of the same hash, so a false positive of the filter (or of
 * the hash) is never reported.  A round keeps every suspect up to the one
 * where it stopped, and the next round starts after the last one kept, so
 * within a part of the hashes (or the whole file) the first suspect that is
 * a repeat, over the rounds, is the part's first repeat; the two labels of a
 * repeat have the same hash, so the same part, and the earliest repeat over
 * the parts is the file's.  (A part's filter marks its labels from the
 * start of the file; only suspects are kept from round_start on.)
 *
 * The filter is blocked: a label's 128-bit keyed hash (SipHash-2-4, whose
 * key the file cannot know, so no file can make the filter fail on
 * purpose) picks one 64-byte block with its first word and sets seven bits
 * there, one per 9-bit field of its second word: one cache miss per label.
 * At 10^7 labels in the default 32 MiB (27 bits per label) about one label
 * in 10^4 is a false suspect.
 */
#include "label_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#define BLOCK_WORDS 8
#define BITS_PER_LABEL 7

/* Fills key with bytes of getrandom, reading on after an interruption or
 * a short read; 0, or -1 if the source fails (libsodium's randombytes
 * would abort the process instead). */
static int random_key(unsigned char *key, size_t size)
{
    size_t got = 0;
    while (got < size) {
        ssize_t n = getrandom(key + got, size - got, 0);
        if (n > 0) {
            got += (size_t)n;
        } else if (n == 0 || errno != EINTR) {
            return -1;
        }
    }
    return 0;
}

int label_check_init(label_check *c, const label_check_limits *limits)
{
    memset(c, 0, sizeof *c);
    c->limits = *limits;
    c->filter = calloc(limits->filter_blocks, BLOCK_WORDS * sizeof *c->filter);
    c->suspects = calloc(limits->suspects_max, sizeof *c->suspects);
    c->text = malloc(limits->text_max);
    int rc = c->filter == NULL || c->suspects == NULL || c->text == NULL ? LABEL_CHECK_NO_MEMORY
           : random_key(c->key, sizeof c->key) != 0 ? LABEL_CHECK_NO_KEY : 0;
    if (rc != 0) {
        label_check_free(c);
        return rc;
    }
    c->repeat.index = NO_REPEAT;
    c->round_repeat = NO_REPEAT;
    return 0;
}

void label_check_free(label_check *c)
{
    free(c->filter);
    free(c->suspects);
    free(c->text);
    sodium_memzero(c, sizeof *c);
}

static void hash_label(const label_check *c, const char *label, uint64_t hash[2])
{
    unsigned char bytes[crypto_shorthash_siphashx24_BYTES];
    crypto_shorthash_siphashx24(bytes, (const unsigned char *)label, strlen(label), c->key);
    memcpy(hash, bytes, sizeof bytes);
}

/* Sets the label's bits; returns 1 if they were all set already. */
static int mark(label_check *c, const uint64_t hash[2])
{
    uint64_t *block = c->filter + (hash[0] & (c->limits.filter_blocks - 1)) * BLOCK_WORDS;
    int seen = 1;
    for (unsigned i = 0; i < BITS_PER_LABEL; i++) {
        unsigned bit = (unsigned)(hash[1] >> (9 * i)) & 511;
        uint64_t mask = (uint64_t)1 << (bit & 63);
        seen &= (block[bit >> 6] & mask) != 0;
        block[bit >> 6] |= mask;
    }
    return seen;
}

static void keep_suspect(label_check *c, const char *label, uint64_t index,
                         const uint64_t hash[2])
{
    size_t size = strlen(label) + 1;
    if (c->suspect_count == c->limits.suspects_max
        || size > c->limits.text_max - c->text_used) {
        c->truncated = 1;
        return;
    }
    memcpy(c->text + c->text_used, label, size);
    c->suspects[c->suspect_count++] = (label_suspect){
        .hash = { hash[0], hash[1] }, .index = index, .text = c->text_used,
        .first = NO_REPEAT,
    };
    c->text_used += size;
    c->last_suspect = index;
}

/* Whether the hash is in this round's part (its high 32 bits pick the
 * part; the filter block uses the low bits). */
static int in_part(const label_check *c, const uint64_t hash[2])
{
    return c->parts <= 1 || (hash[0] >> 32) % c->parts == c->part;
}

void label_check_add(label_check *c, const char *label, uint64_t index)
{
    if (c->truncated || index >= c->repeat.index) {
        return;  /* the rest of the file is for a later round, or too late */
    }
    uint64_t hash[2];
    hash_label(c, label, hash);
    if (in_part(c, hash) && mark(c, hash) && index >= c->round_start) {
        keep_suspect(c, label, index, hash);
    }
}

static int compare_words(uint64_t x, uint64_t y)
{
    return (x > y) - (x < y);
}

static int compare_hashes(const uint64_t x[2], const uint64_t y[2])
{
    return x[0] != y[0] ? compare_words(x[0], y[0]) : compare_words(x[1], y[1]);
}

static int compare_suspects(const void *a, const void *b)
{
    const label_suspect *x = a, *y = b;
    int order = compare_hashes(x->hash, y->hash);
    return order != 0 ? order : compare_words(x->index, y->index);
}

size_t label_check_suspects(label_check *c)
{
    qsort(c->suspects, c->suspect_count, sizeof *c->suspects, compare_suspects);
    return c->suspect_count;
}

/* The first suspect whose hash is not below hash. */
static size_t first_with_hash(const label_check *c, const uint64_t hash[2])
{
    size_t low = 0, high = c->suspect_count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (compare_hashes(c->suspects[middle].hash, hash) < 0) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return low;
}

/* Only the round's first repeat matters: once a suspect is found to be
 * one, the labels after it are not looked at, and a label is compared with
 * the suspects of its hash up to it.  The first occurrence of a label finds
 * all its repeats at once, so each suspect is visited a few times (unless
 * keyed 128-bit hashes collide): the pass is linear, however many suspects
 * share a hash. */
void label_check_verify(label_check *c, const char *label, uint64_t index, size_t line)
{
    if (index > c->last_suspect || index > c->round_repeat) {
        return;  /* nothing left to find */
    }
    uint64_t hash[2];
    hash_label(c, label, hash);
    for (size_t i = first_with_hash(c, hash); i < c->suspect_count
         && compare_hashes(c->suspects[i].hash, hash) == 0
         && c->suspects[i].index <= c->round_repeat; i++) {
        label_suspect *s = &c->suspects[i];
        c->comparisons++;
        if (s->index == index) {
            s->line = line;
        } else if (s->index > index && s->first == NO_REPEAT
                   && strcmp(c->text + s->text, label) == 0) {
            s->first = index;
            s->first_line = line;
            c->round_repeat = s->index < c->round_repeat ? s->index : c->round_repeat;
        }
    }
}

/* The round's suspect of smallest position that repeats an earlier label,
 * or NULL. */
static const label_suspect *round_repeat(const label_check *c)
{
    const label_suspect *repeat = NULL;
    for (size_t i = 0; i < c->suspect_count; i++) {
        const label_suspect *s = &c->suspects[i];
        if (s->first != NO_REPEAT && (repeat == NULL || s->index < repeat->index)) {
            repeat = s;
        }
    }
    return repeat;
}

static void keep_repeat(label_check *c, const label_suspect *s)
{
    if (s->index < c->repeat.index) {
        c->repeat.index = s->index;
        c->repeat.line = s->line;
        c->repeat.first_line = s->first_line;
        snprintf(c->repeat.text, sizeof c->repeat.text, "%s", c->text + s->text);
    }
}

static int start_round(label_check *c, uint64_t start)
{
    c->round_start = start;
    c->round_repeat = NO_REPEAT;
    c->suspect_count = 0;
    c->text_used = 0;
    c->truncated = 0;
    memset(c->filter, 0, c->limits.filter_blocks * BLOCK_WORDS * sizeof *c->filter);
    return 1;
}

static uint64_t parts_for(const label_check *c, uint64_t count)
{
    uint64_t per_part = c->limits.part_labels;
    return count / per_part + (count % per_part != 0);
}

/* A part is done when its round found a repeat (rounds go in file order,
 * so it is the part's first) or kept every suspect.  Otherwise the next
 * round goes on after the last suspect kept: a round keeps at least one
 * (the limits let any label fit in empty stores).  The survey covers all
 * parts; if it stops at a cap, everything up to its last suspect is checked
 * and the rest is split into parts by the number of candidates. */
int label_check_settle(label_check *c, uint64_t count)
{
    const label_suspect *found = round_repeat(c);
    if (found != NULL) {
        keep_repeat(c, found);
    }
    if (found == NULL && c->truncated) {
        if (c->parts == 0) {
            c->checked = c->last_suspect + 1;
            c->parts = parts_for(c, count);
        }
        return start_round(c, c->last_suspect + 1);
    }
    if (c->parts == 0 || ++c->part >= c->parts) {
        return 0;
    }
    return start_round(c, c->checked);
}

const label_repeat *label_check_repeat(const label_check *c)
{
    return c->repeat.index != NO_REPEAT ? &c->repeat : NULL;
}
