/*
 * Duplicate labels in bounded memory (see label_check.h).
 *
 * Why it is exact: a Bloom filter has no false negatives, so every repeat
 * (a label equal to an earlier one) is a suspect of the round that covers
 * its position, and the verify pass compares the suspects' texts with every
 * earlier label of the same hash, so a false positive of the filter (or of
 * the hash) is never reported.  A round keeps every suspect up to the one
 * where it stopped, and the next round starts after the last one kept, so
 * the first suspect that is a repeat, over the rounds, is the first repeat
 * of the file.
 *
 * The filter is blocked: a label's 128-bit keyed hash (SipHash-2-4, whose
 * key the file cannot know, so no file can make the filter fail on
 * purpose) picks one 64-byte block with its first word and sets seven bits
 * there, one per 9-bit field of its second word: one cache miss per label.
 * At 10^7 labels in the default 32 MiB (27 bits per label) about one label
 * in 10^4 is a false suspect.
 */
#include "label_check.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK_WORDS 8
#define BITS_PER_LABEL 7
#define NO_REPEAT UINT64_MAX

int label_check_init(label_check *c, const label_check_limits *limits)
{
    memset(c, 0, sizeof *c);
    c->limits = *limits;
    c->filter = calloc(limits->filter_blocks, BLOCK_WORDS * sizeof *c->filter);
    c->suspects = calloc(limits->suspects_max, sizeof *c->suspects);
    c->text = malloc(limits->text_max);
    if (c->filter == NULL || c->suspects == NULL || c->text == NULL) {
        label_check_free(c);
        return -1;
    }
    randombytes_buf(c->key, sizeof c->key);
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

void label_check_add(label_check *c, const char *label, uint64_t index)
{
    if (c->truncated) {
        return;  /* the rest of the file is for a later round */
    }
    uint64_t hash[2];
    hash_label(c, label, hash);
    if (mark(c, hash) && index >= c->round_start) {
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

void label_check_verify(label_check *c, const char *label, uint64_t index, size_t line)
{
    if (index > c->last_suspect) {
        return;  /* no suspect comes after: nothing left to find */
    }
    uint64_t hash[2];
    hash_label(c, label, hash);
    for (size_t i = first_with_hash(c, hash);
         i < c->suspect_count && compare_hashes(c->suspects[i].hash, hash) == 0; i++) {
        label_suspect *s = &c->suspects[i];
        if (s->index == index) {
            s->line = line;
        } else if (s->index > index && s->first == NO_REPEAT
                   && strcmp(label_check_text(c, s), label) == 0) {
            s->first = index;
            s->first_line = line;
        }
    }
}

const label_suspect *label_check_repeat(const label_check *c)
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

const char *label_check_text(const label_check *c, const label_suspect *s)
{
    return c->text + s->text;
}

int label_check_next_round(label_check *c)
{
    if (!c->truncated) {
        return 0;
    }
    /* The round kept at least one suspect (the limits let any label fit in
     * empty stores), so the next round starts further on. */
    c->round_start = c->last_suspect + 1;
    c->suspect_count = 0;
    c->text_used = 0;
    c->truncated = 0;
    memset(c->filter, 0, c->limits.filter_blocks * BLOCK_WORDS * sizeof *c->filter);
    return 1;
}
