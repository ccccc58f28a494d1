/* SPDX-License-Identifier: ISC */
/*
 * Mergeable partial selections (spec/partial.md).  A partial state holds,
 * for each clamped gap level g = 0 .. C below the running maximum, the
 * number of candidates at that level and one of them chosen uniformly (a
 * reservoir of one).  Both mechanisms depend on the candidates only through
 * the clamped levels, and each is exchangeable within a level, so the
 * state decides the selection: the finish samples a level from the
 * mechanism over the levels' counts (runs.c) and releases that level's
 * member.  Adding a candidate, raising the maximum (the levels that fall
 * to C or below fold into the cap level) and merging two states are
 * reservoir merges: keep B's member with probability c_B / (c_A + c_B), an
 * exact uniform draw.
 *
 * Layout: the levels below the cap that hold candidates, in an array
 * sorted by their score (so by gap, reversed) that starts at `first`, and
 * the cap level apart: a state grows with the distinct scores within C of
 * the maximum (at most C + 1 levels); a raised maximum folds the low end by
 * moving `first`, a new maximum goes at the high end, and a merge is one
 * pass over both arrays.
 *
 * A state releases once: finishing it, or merging it into another, spends
 * it (every later use is DPSEL_ERANGE).  Two releases from one state would
 * share its members, so that a pair of outputs possible on one data set
 * could be impossible on its neighbour.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "selector.h"

#include "../base/interrupt.h"
#include "../core/core.h"
#include "../core/uniform.h"
#include "../core/validate.h"
#include "runs.h"

/* The most candidates a state counts. */
#define TOTAL_MAX DPSEL_MAX_CANDIDATES

typedef struct {
    uint64_t count;
    unsigned char *member;      /* member_size bytes, or NULL when empty */
    size_t member_size;
} level;

/* A level below the cap, by the score of its candidates. */
typedef struct {
    int64_t score;
    level l;
} entry;

struct dpsel_partial {
    uint64_t x;                 /* the parameters' base and cap: states */
    unsigned y;                 /* merge and finish only with their own */
    uint64_t cap;
    uint64_t total;             /* candidates added */
    int64_t best;               /* their largest score (when total > 0) */
    int unusable;               /* spent (finished, merged away) or failed part-way */
    entry *entries;             /* gaps below the cap, scores increasing, */
    size_t first, used;         /* entries[first .. first + used - 1] */
    size_t capacity;
    level deep;                 /* level cap: gaps cap and beyond */
};

static void level_clear(level *l)
{
    free(l->member);
    l->member = NULL;
    l->member_size = 0;
    l->count = 0;
}

/* Every level emptied and freed: the state as new but for its flags. */
static void clear_levels(dpsel_partial *p)
{
    for (size_t i = 0; i < p->used; i++) {
        level_clear(&p->entries[p->first + i].l);
    }
    level_clear(&p->deep);
    free(p->entries);
    p->entries = NULL;
    p->first = p->used = p->capacity = 0;
}

/* Entry i of the list (0: the lowest score). */
static entry *entry_at(const dpsel_partial *p, size_t i)
{
    return &p->entries[p->first + i];
}

void dpsel_partial_free(dpsel_partial *p)
{
    if (p != NULL) {
        clear_levels(p);
        free(p);
    }
}

int dpsel_partial_new(dpsel_partial **out, const dpsel_params *params)
{
    if (out == NULL || params == NULL) {
        return DPSEL_ENULL;
    }
    if (!dpsel_core_params_valid(params)) {
        return DPSEL_ERANGE;
    }
    dpsel_partial *p = calloc(1, sizeof *p);
    if (p == NULL) {
        return DPSEL_ENOMEM;
    }
    p->x = params->x;
    p->y = params->y;
    p->cap = params->gap_cap;
    *out = p;
    return DPSEL_OK;
}

uint64_t dpsel_partial_count(const dpsel_partial *p)
{
    return p != NULL ? p->total : 0;
}

/* The gap of a score at most the maximum, below 2^64. */
static uint64_t gap_of(const dpsel_partial *p, int64_t score)
{
    return (uint64_t)p->best - (uint64_t)score;
}

/* The position of score in the list, or where it would be inserted. */
static size_t find(const dpsel_partial *p, int64_t score)
{
    size_t lo = 0, hi = p->used;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (entry_at(p, mid)->score < score) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* Room for one more entry after the last: the list moved to the start, or
 * the array grown; DPSEL_ENOMEM. */
static int make_room(dpsel_partial *p)
{
    if (p->first + p->used < p->capacity) {
        return DPSEL_OK;
    }
    if (p->first > 0) {
        memmove(p->entries, entry_at(p, 0), p->used * sizeof *p->entries);
        p->first = 0;
        return DPSEL_OK;
    }
    size_t grown = p->capacity == 0 ? 4 : p->capacity * 2;  /* at most 2 cap entries */
    entry *more = realloc(p->entries, grown * sizeof *more);
    if (more == NULL) {
        return DPSEL_ENOMEM;
    }
    p->entries = more;
    p->capacity = grown;
    return DPSEL_OK;
}

/* The level of a score at most the maximum, made (empty) if the list has
 * none yet; NULL when out of memory. */
static level *level_of(dpsel_partial *p, int64_t score)
{
    if (gap_of(p, score) >= p->cap) {
        return &p->deep;
    }
    size_t at = find(p, score);
    if (at < p->used && entry_at(p, at)->score == score) {
        return &entry_at(p, at)->l;
    }
    if (make_room(p) != DPSEL_OK) {
        return NULL;
    }
    /* a new maximum, the common case, moves nothing */
    memmove(entry_at(p, at + 1), entry_at(p, at), (p->used - at) * sizeof *p->entries);
    p->used++;
    *entry_at(p, at) = (entry){ score, { 0, NULL, 0 } };
    return &entry_at(p, at)->l;
}

/* l keeps its member with probability l->count / (l->count + count), else
 * takes the other (kept: 1); the uniform draw is skipped for an empty l. */
static int keeps_other(const level *l, uint64_t count, dpsel_rng *rng, int *other)
{
    uint64_t draw = 0;
    int rc = l->count == 0 ? DPSEL_OK : dpsel_core_uniform(rng, l->count + count, &draw);
    *other = draw < count;
    return rc;
}

/* Merges `count` candidates with one uniform member (a copy of bytes,
 * size) into l. */
static int level_merge(level *l, uint64_t count, const unsigned char *member, size_t size,
                       dpsel_rng *rng)
{
    int other;
    int rc = keeps_other(l, count, rng, &other);
    if (rc == DPSEL_OK && other) {
        unsigned char *copy = malloc(size > 0 ? size : 1);
        if (copy == NULL) {
            return DPSEL_ENOMEM;
        }
        if (size > 0) {
            memcpy(copy, member, size);
        }
        free(l->member);
        l->member = copy;
        l->member_size = size;
    }
    l->count += rc == DPSEL_OK ? count : 0;
    return rc;
}

/* Level from moved into l: its member taken over when it is kept (no
 * copy); from is left empty. */
static int level_absorb(level *l, level *from, dpsel_rng *rng)
{
    int other;
    int rc = keeps_other(l, from->count, rng, &other);
    if (rc != DPSEL_OK) {
        return rc;
    }
    if (other) {
        free(l->member);
        l->member = from->member;
        l->member_size = from->member_size;
        from->member = NULL;
    }
    l->count += from->count;
    level_clear(from);
    return DPSEL_OK;
}

/* Raises the maximum to `best`: the levels whose gap reaches the cap (the
 * list's low end) fold into the cap level. */
static int raise_best(dpsel_partial *p, int64_t best, dpsel_rng *rng)
{
    p->best = best;
    for (uint64_t folded = 0; p->used > 0 && gap_of(p, entry_at(p, 0)->score) >= p->cap;
         folded++) {
        int rc = dpsel_internal_interrupted_every(rng, folded, folded + p->used);
        if (rc == DPSEL_OK) {
            rc = level_absorb(&p->deep, &entry_at(p, 0)->l, rng);
        }
        if (rc != DPSEL_OK) {
            return rc;
        }
        p->first++;
        p->used--;
    }
    return DPSEL_OK;
}

int dpsel_partial_add(dpsel_partial *p, int64_t score, const void *member, size_t member_size,
                      dpsel_rng *rng)
{
    if (p == NULL || rng == NULL || (member == NULL && member_size > 0)) {
        return DPSEL_ENULL;
    }
    if (p->unusable || member_size > DPSEL_PARTIAL_MEMBER_MAX || p->total >= TOTAL_MAX) {
        return DPSEL_ERANGE;
    }
    int rc = DPSEL_OK;
    if (p->total == 0) {
        p->best = score;
    } else if (score > p->best) {
        rc = raise_best(p, score, rng);
    }
    if (rc == DPSEL_OK) {
        level *l = level_of(p, score);
        rc = l == NULL ? DPSEL_ENOMEM : level_merge(l, 1, member, member_size, rng);
    }
    p->total += rc == DPSEL_OK;
    p->unusable = rc != DPSEL_OK;
    return rc;
}

/* The batch's arguments, checked before any candidate is added: member i
 * ends at ends[i], at most DPSEL_PARTIAL_MEMBER_MAX bytes after the end of
 * member i - 1 (0 for the first); the state takes n more candidates. */
static int check_batch(const dpsel_partial *p, const int64_t *scores, size_t n,
                       const void *members, const size_t *ends)
{
    if (n > 0 && scores == NULL) {
        return DPSEL_ENULL;
    }
    size_t start = 0;
    for (size_t i = 0; ends != NULL && i < n; i++) {
        if (ends[i] < start || ends[i] - start > DPSEL_PARTIAL_MEMBER_MAX) {
            return DPSEL_ERANGE;
        }
        start = ends[i];
    }
    if (start > 0 && members == NULL) {
        return DPSEL_ENULL;
    }
    return p->unusable || n > TOTAL_MAX - p->total ? DPSEL_ERANGE : DPSEL_OK;
}

int dpsel_partial_add_scores(dpsel_partial *p, const int64_t *scores, size_t n,
                             const void *members, const size_t *member_ends, dpsel_rng *rng)
{
    if (p == NULL || rng == NULL) {
        return DPSEL_ENULL;
    }
    int rc = check_batch(p, scores, n, members, member_ends);
    const unsigned char *bytes = members;
    size_t start = 0;
    for (size_t i = 0; rc == DPSEL_OK && i < n; i++) {
        size_t end = member_ends == NULL ? 0 : member_ends[i];
        rc = dpsel_internal_interrupted_every(rng, i + 1, n);
        if (rc == DPSEL_OK) {
            rc = dpsel_partial_add(p, scores[i], end > start ? bytes + start : NULL,
                                   end - start, rng);
        } else {
            p->unusable = 1;  /* cancelled part-way: the state fails, as an add's error */
        }
        start = end;
    }
    return rc;
}

/* Same parameters: the base and the cap (the levels' meaning). */
static int same_parameters(const dpsel_partial *p, uint64_t x, unsigned y, uint64_t cap)
{
    return p->x == x && p->y == y && p->cap == cap;
}

/* Both lists in one array by score, equal scores side by side (moves
 * only: nothing can fail), except from's entries below p's cap, which go
 * to `below`; from's list is left empty. */
static void interleave(dpsel_partial *p, dpsel_partial *from, entry *merged, size_t *count,
                       entry *below, size_t *below_count)
{
    size_t i = 0, j = 0, used = 0, under = 0;
    while (i < p->used || j < from->used) {
        entry *a = i < p->used ? entry_at(p, i) : NULL;
        entry *b = j < from->used ? entry_at(from, j) : NULL;
        if (b != NULL && gap_of(p, b->score) >= p->cap) {
            below[under++] = *b;
            j++;
        } else if (b == NULL || (a != NULL && a->score <= b->score)) {
            merged[used++] = *a;
            i++;
        } else {
            merged[used++] = *b;
            j++;
        }
    }
    from->used = 0;
    *count = used;
    *below_count = under;
}

/* p's list (merged: equal scores side by side) made one entry per score,
 * the later of a pair absorbed into the earlier.  On a failure the entries
 * not reached stay in the list (owned), after those done. */
static int absorb_pairs(dpsel_partial *p, dpsel_rng *rng)
{
    size_t kept = 0, r = 0;
    int rc = DPSEL_OK;
    while (r < p->used && rc == DPSEL_OK) {
        entry *e = entry_at(p, r);
        rc = dpsel_internal_interrupted_every(rng, r, p->used);
        if (rc == DPSEL_OK && kept > 0 && entry_at(p, kept - 1)->score == e->score) {
            rc = level_absorb(&entry_at(p, kept - 1)->l, &e->l, rng);
        } else if (rc == DPSEL_OK) {
            *entry_at(p, kept++) = *e;
        }
        r += rc == DPSEL_OK;  /* an entry a failure did not absorb stays */
    }
    memmove(entry_at(p, kept), entry_at(p, r), (p->used - r) * sizeof *p->entries);
    p->used = kept + (p->used - r);
    return rc;
}

/* from's levels moved into p, whose maximum is at least from's: one pass
 * to interleave them, one to merge equal scores, then the cap levels. */
static int absorb_levels(dpsel_partial *p, dpsel_partial *from, dpsel_rng *rng)
{
    size_t room = p->used + from->used + 1;
    entry *merged = malloc(room * sizeof *merged);
    entry *below = malloc((from->used + 1) * sizeof *below);
    if (merged == NULL || below == NULL) {
        free(merged);
        free(below);
        return DPSEL_ENOMEM;
    }
    size_t count = 0, under = 0;
    interleave(p, from, merged, &count, below, &under);
    free(p->entries);
    p->entries = merged;
    p->first = 0;
    p->used = count;
    p->capacity = room;
    int rc = absorb_pairs(p, rng);
    for (size_t k = 0; k < under; k++) {
        rc = rc == DPSEL_OK ? dpsel_internal_interrupted_every(rng, k, under) : rc;
        rc = rc == DPSEL_OK ? level_absorb(&p->deep, &below[k].l, rng) : rc;
        level_clear(&below[k].l);  /* absorbed (empty), or dropped with the failed state */
    }
    free(below);
    if (rc == DPSEL_OK && from->deep.count > 0) {
        rc = level_absorb(&p->deep, &from->deep, rng);  /* from's scores <= best - cap */
    }
    return rc;
}

int dpsel_partial_merge(dpsel_partial *into, dpsel_partial *from, dpsel_rng *rng)
{
    if (into == NULL || from == NULL || rng == NULL) {
        return DPSEL_ENULL;
    }
    if (into == from || into->unusable || from->unusable
        || !same_parameters(into, from->x, from->y, from->cap)
        || from->total > TOTAL_MAX - into->total) {
        return DPSEL_ERANGE;
    }
    int rc = DPSEL_OK;
    if (from->total > 0 && into->total == 0) {
        into->best = from->best;
    } else if (from->total > 0 && from->best > into->best) {
        rc = raise_best(into, from->best, rng);
    }
    if (rc == DPSEL_OK) {
        rc = absorb_levels(into, from, rng);
    }
    into->total += rc == DPSEL_OK ? from->total : 0;
    into->unusable = rc != DPSEL_OK;
    clear_levels(from);       /* its candidates are into's now (or lost with it) */
    from->total = 0;
    from->unusable = 1;
    return rc;
}

/* The levels as runs, in gap order: score -g (the cap level -cap), count,
 * and the level; *runs receives their number.  DPSEL_ECANCELED when the
 * interrupt check asks. */
static int levels_as_runs(const dpsel_partial *p, const dpsel_rng *rng, int64_t *scores,
                          uint64_t *counts, const level **levels, size_t *runs)
{
    size_t used = 0;
    for (size_t i = p->used; i-- > 0;) {
        int rc = dpsel_internal_interrupted_every(rng, used, p->used);
        if (rc != DPSEL_OK) {
            return rc;
        }
        scores[used] = -(int64_t)gap_of(p, entry_at(p, i)->score);
        counts[used] = entry_at(p, i)->l.count;
        levels[used++] = &entry_at(p, i)->l;
    }
    if (p->deep.count > 0) {
        scores[used] = -(int64_t)p->cap;
        counts[used] = p->deep.count;
        levels[used++] = &p->deep;
    }
    *runs = used;
    return DPSEL_OK;
}

int dpsel_partial_finish(dpsel_partial *p, const dpsel_selector *selector,
                         dpsel_mechanism mechanism, dpsel_rng *rng, const void **member,
                         size_t *member_size)
{
    if (p == NULL || selector == NULL || rng == NULL || member == NULL || member_size == NULL) {
        return DPSEL_ENULL;
    }
    const dpsel_params *q = &selector->params;
    if (p->unusable || !same_parameters(p, q->x, q->y, q->gap_cap)
        || (mechanism != DPSEL_EM && mechanism != DPSEL_PF)) {
        return DPSEL_ERANGE;
    }
    if (p->total == 0) {
        return DPSEL_EEMPTY;
    }
    size_t runs = p->used + 1;
    int64_t *scores = malloc(runs * sizeof *scores);
    uint64_t *counts = malloc(runs * sizeof *counts);
    const level **levels = malloc(runs * sizeof *levels);
    int rc = scores == NULL || counts == NULL || levels == NULL ? DPSEL_ENOMEM : DPSEL_OK;
    size_t run = 0;
    uint64_t offset = 0;
    size_t used = 0;
    if (rc == DPSEL_OK) {
        rc = levels_as_runs(p, rng, scores, counts, levels, &used);
    }
    if (rc == DPSEL_OK) {
        rc = dpsel_internal_runs_select(selector, mechanism, scores, counts, used, p->total, rng,
                                        &run, &offset);
    }
    if (rc == DPSEL_OK) {
        /* the released candidate is uniform within its level: the level's member */
        *member = levels[run]->member;
        *member_size = levels[run]->member_size;
        p->unusable = 1;      /* spent: its member stays readable until it is freed */
    }
    free(scores);
    free(counts);
    free(levels);
    return rc;
}

/* ---------------------------------------------------------- serialised */

/* The format (little-endian; spec/partial.md §4):
 *   "DPSP", version (1: unkeyed, 2: keyed), three zero bytes
 *   x (8), y (4), zero (4), cap (8), total (8), best (8), levels L (8)
 *   L times: gap (8, increasing, at most cap), count (8, >= 1), member size (4), member
 *   BLAKE2b-256 of everything before it (32), keyed with the caller's key in
 *   version 2 (a MAC) */
#define MAGIC "DPSP"
#define VERSION 1        /* a checksum: against corruption only */
#define VERSION_KEYED 2  /* a MAC: against forgery by whoever lacks the key */
#define HEADER_SIZE 56
#define ENTRY_SIZE 20
#define CHECK_SIZE 32

/* v as `bytes` little-endian bytes at `at`. */
static void put_le(unsigned char *at, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) {
        at[i] = (unsigned char)(v >> (8 * i));
    }
}

/* The little-endian number in `bytes` bytes at `at`. */
static uint64_t get_le(const unsigned char *at, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) {
        v = (v << 8) | at[i];
    }
    return v;
}

/* One level's entry at buf + at: its gap, count and member; the next at. */
static size_t write_level(unsigned char *buf, size_t at, uint64_t g, const level *l)
{
    put_le(buf + at, g, 8);
    put_le(buf + at + 8, l->count, 8);
    put_le(buf + at + 16, l->member_size, 4);  /* at most 64 KiB */
    if (l->member_size > 0) {
        memcpy(buf + at + ENTRY_SIZE, l->member, l->member_size);
    }
    return at + ENTRY_SIZE + l->member_size;
}

/* The serialised size (members at most 64 KiB, levels at most 2^20 + 1). */
static size_t serialised_size(const dpsel_partial *p)
{
    size_t size = HEADER_SIZE + CHECK_SIZE;
    for (size_t i = 0; i < p->used; i++) {
        size += ENTRY_SIZE + entry_at(p, i)->l.member_size;
    }
    return size + (p->deep.count > 0 ? ENTRY_SIZE + p->deep.member_size : 0);
}

/* The caller's key: absent (NULL, 0: the unkeyed form) or of 16 to 64
 * bytes. */
typedef struct {
    const unsigned char *bytes;
    size_t size;
} seal_key;

/* DPSEL_ENULL or DPSEL_ERANGE for a key the keyed calls cannot take. */
static int key_valid(const unsigned char *key, size_t key_size)
{
    if (key == NULL) {
        return DPSEL_ENULL;
    }
    return key_size >= DPSEL_PARTIAL_KEY_MIN && key_size <= DPSEL_PARTIAL_KEY_MAX ? DPSEL_OK
                                                                                  : DPSEL_ERANGE;
}

/* The version byte of a state sealed with key. */
static unsigned char version_of(seal_key key)
{
    return key.bytes != NULL ? VERSION_KEYED : VERSION;
}

/* The seal of buf[0 .. size) into check (CHECK_SIZE bytes): BLAKE2b-256,
 * keyed when a key is given (libsodium takes a NULL key as none). */
static void seal(unsigned char *check, const unsigned char *buf, size_t size, seal_key key)
{
    crypto_generichash(check, CHECK_SIZE, buf, size, key.bytes, key.size);
}

static void write_state(const dpsel_partial *p, unsigned char *buf, seal_key key)
{
    memset(buf, 0, HEADER_SIZE);
    memcpy(buf, MAGIC, 4);
    buf[4] = version_of(key);
    put_le(buf + 8, p->x, 8);
    put_le(buf + 16, p->y, 4);
    put_le(buf + 24, p->cap, 8);
    put_le(buf + 32, p->total, 8);
    put_le(buf + 40, (uint64_t)p->best, 8);
    put_le(buf + 48, p->used + (p->deep.count > 0), 8);
    size_t at = HEADER_SIZE;
    for (size_t i = p->used; i-- > 0;) {  /* gaps increasing */
        at = write_level(buf, at, gap_of(p, entry_at(p, i)->score), &entry_at(p, i)->l);
    }
    if (p->deep.count > 0) {
        at = write_level(buf, at, p->cap, &p->deep);
    }
    seal(buf + at, buf, at, key);
}

static int serialize(const dpsel_partial *p, seal_key key, unsigned char *buf, size_t buf_size,
                     size_t *size)
{
    if (p == NULL || size == NULL) {
        return DPSEL_ENULL;
    }
    if (p->unusable) {
        return DPSEL_ERANGE;
    }
    size_t needed = serialised_size(p);
    if (buf == NULL) {
        *size = needed;
        return DPSEL_OK;
    }
    if (buf_size < needed) {
        return DPSEL_ERANGE;
    }
    write_state(p, buf, key);
    *size = needed;
    return DPSEL_OK;
}

int dpsel_partial_serialize(const dpsel_partial *p, unsigned char *buf, size_t buf_size,
                            size_t *size)
{
    return serialize(p, (seal_key){ NULL, 0 }, buf, buf_size, size);
}

int dpsel_partial_serialize_keyed(const dpsel_partial *p, const unsigned char *key,
                                  size_t key_size, unsigned char *buf, size_t buf_size,
                                  size_t *size)
{
    int rc = key_valid(key, key_size);
    return rc == DPSEL_OK ? serialize(p, (seal_key){ key, key_size }, buf, buf_size, size) : rc;
}

/* A level read from the buffer: gaps come increasing, so each level below
 * the cap goes just before the ones read so far (the list is by score,
 * filled from the end of an array of one entry per level announced). */
static int load_level(dpsel_partial *p, uint64_t g, uint64_t count, const unsigned char *member,
                      size_t size)
{
    level *l = &p->deep;
    if (g < p->cap) {
        p->first--;
        p->used++;
        *entry_at(p, 0) = (entry){ (int64_t)((uint64_t)p->best - g), { 0, NULL, 0 } };
        l = &entry_at(p, 0)->l;
    }
    return level_merge(l, count, member, size, NULL);  /* an empty level: no draw */
}

/* The header's fields, checked against the parameters, after the seal
 * (the version: keyed or not, as the reader; then the checksum or MAC,
 * compared in constant time). */
static int read_header(dpsel_partial *p, const unsigned char *buf, size_t size, seal_key key,
                       uint64_t *levels)
{
    static const unsigned char zeros[4] = { 0 };
    if (size < HEADER_SIZE + CHECK_SIZE || memcmp(buf, MAGIC, 4) != 0
        || buf[4] != version_of(key) || memcmp(buf + 5, zeros, 3) != 0
        || memcmp(buf + 20, zeros, 4) != 0) {
        return DPSEL_ESTATE;
    }
    unsigned char check[CHECK_SIZE];
    seal(check, buf, size - CHECK_SIZE, key);
    if (sodium_memcmp(check, buf + size - CHECK_SIZE, CHECK_SIZE) != 0
        || !same_parameters(p, get_le(buf + 8, 8), (unsigned)get_le(buf + 16, 4),
                            get_le(buf + 24, 8))) {
        return DPSEL_ESTATE;
    }
    p->total = get_le(buf + 32, 8);
    p->best = (int64_t)get_le(buf + 40, 8);
    *levels = get_le(buf + 48, 8);
    if (p->total > TOTAL_MAX || *levels > p->cap + 1 || (p->total == 0) != (*levels == 0)
        || *levels > (size - HEADER_SIZE - CHECK_SIZE) / ENTRY_SIZE) {
        return DPSEL_ESTATE;
    }
    /* an array of one entry per level, filled from its end: no more levels
     * than the bytes hold entries, so forged counts allocate nothing more */
    p->capacity = *levels > 0 ? (size_t)*levels : 1;
    p->entries = malloc(p->capacity * sizeof *p->entries);
    p->first = p->capacity;
    return p->entries != NULL ? DPSEL_OK : DPSEL_ENOMEM;
}

/* One entry's fields valid: the gap after the previous one (the first 0:
 * the maximum's own level), within the cap, a score of that level in the
 * int64 range, a count within the total left, a member in bounds. */
static int entry_valid(const dpsel_partial *p, uint64_t i, uint64_t g, uint64_t previous,
                       uint64_t count, uint64_t counted, size_t member_size, size_t left)
{
    uint64_t room = (uint64_t)p->best - (uint64_t)INT64_MIN;  /* best - INT64_MIN */
    return (i == 0 ? g == 0 : g > previous) && g <= p->cap && (g == p->cap || g <= room)
           && count >= 1 && count <= p->total - counted && member_size <= DPSEL_PARTIAL_MEMBER_MAX
           && member_size <= left;
}

/* The levels, each checked, counts adding up to the total, nothing left. */
static int read_levels(dpsel_partial *p, const unsigned char *buf, size_t end, uint64_t levels)
{
    size_t at = HEADER_SIZE;
    uint64_t counted = 0, previous = 0;
    for (uint64_t i = 0; i < levels; i++) {
        if (end - at < ENTRY_SIZE) {
            return DPSEL_ESTATE;
        }
        uint64_t g = get_le(buf + at, 8), count = get_le(buf + at + 8, 8);
        size_t member_size = (size_t)get_le(buf + at + 16, 4);
        at += ENTRY_SIZE;
        if (!entry_valid(p, i, g, previous, count, counted, member_size, end - at)) {
            return DPSEL_ESTATE;
        }
        int rc = load_level(p, g, count, buf + at, member_size);
        if (rc != DPSEL_OK) {
            return rc;
        }
        previous = g;
        counted += count;
        at += member_size;
    }
    return at == end && counted == p->total ? DPSEL_OK : DPSEL_ESTATE;
}

static int deserialize(dpsel_partial **out, const dpsel_params *params, seal_key key,
                       const unsigned char *buf, size_t size)
{
    if (out == NULL || params == NULL || buf == NULL) {
        return DPSEL_ENULL;
    }
    dpsel_partial *p = NULL;
    int rc = dpsel_partial_new(&p, params);
    uint64_t levels = 0;
    if (rc == DPSEL_OK) {
        rc = read_header(p, buf, size, key, &levels);
    }
    if (rc == DPSEL_OK) {
        rc = read_levels(p, buf, size - CHECK_SIZE, levels);
    }
    if (rc != DPSEL_OK) {
        dpsel_partial_free(p);
        return rc;
    }
    *out = p;
    return DPSEL_OK;
}

int dpsel_partial_deserialize(dpsel_partial **out, const dpsel_params *params,
                              const unsigned char *buf, size_t size)
{
    return deserialize(out, params, (seal_key){ NULL, 0 }, buf, size);
}

int dpsel_partial_deserialize_keyed(dpsel_partial **out, const dpsel_params *params,
                                    const unsigned char *key, size_t key_size,
                                    const unsigned char *buf, size_t size)
{
    int rc = key_valid(key, key_size);
    return rc == DPSEL_OK ? deserialize(out, params, (seal_key){ key, key_size }, buf, size) : rc;
}
