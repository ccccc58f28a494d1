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
 * Layout: levels 0 .. C-1 in a ring of C slots (the slot of level g is
 * (top - g) mod C, top the slot of level 0), the cap level apart, so that
 * a maximum raised by s moves min(s, C) levels, never the whole ring.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "selector.h"

#include "core/core.h"
#include "core/uniform.h"
#include "core/validate.h"
#include "runs.h"

/* The most candidates a state counts. */
#define TOTAL_MAX DPSEL_MAX_CANDIDATES

typedef struct {
    uint64_t count;
    unsigned char *member;      /* member_size bytes, or NULL when empty */
    size_t member_size;
} level;

struct dpsel_partial {
    uint64_t x;                 /* the parameters' base and cap: states */
    unsigned y;                 /* merge and finish only with their own */
    uint64_t cap;
    uint64_t total;             /* candidates added */
    int failed;                 /* an operation failed part-way: refused from then on */
    int64_t best;               /* their largest score (when total > 0) */
    uint64_t top;               /* the ring slot of level 0 */
    level *ring;                /* cap slots: levels 0 .. cap - 1 */
    level deep;                 /* level cap: gaps cap and beyond */
};

static void level_clear(level *l)
{
    free(l->member);
    l->member = NULL;
    l->member_size = 0;
    l->count = 0;
}

void dpsel_partial_free(dpsel_partial *p)
{
    if (p != NULL) {
        for (uint64_t i = 0; p->ring != NULL && i < p->cap; i++) {
            level_clear(&p->ring[i]);
        }
        level_clear(&p->deep);
        free(p->ring);
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
    p->ring = calloc(p->cap, sizeof *p->ring);
    if (p->ring == NULL) {
        dpsel_partial_free(p);
        return DPSEL_ENOMEM;
    }
    *out = p;
    return DPSEL_OK;
}

uint64_t dpsel_partial_count(const dpsel_partial *p)
{
    return p != NULL ? p->total : 0;
}

/* level g < cap's slot */
static level *ring_level(dpsel_partial *p, uint64_t g)
{
    return &p->ring[(p->top + p->cap - g) % p->cap];
}

/* The level of a score at most the maximum. */
static level *level_of(dpsel_partial *p, int64_t score)
{
    uint64_t g = (uint64_t)p->best - (uint64_t)score;
    return g < p->cap ? ring_level(p, g) : &p->deep;
}

/* Merges `count` candidates with one uniform member (bytes, size) into l:
 * l keeps its member with probability l->count / (l->count + count). */
static int level_merge(level *l, uint64_t count, const unsigned char *member, size_t size,
                       dpsel_rng *rng)
{
    uint64_t draw = 0;
    int rc = l->count == 0 ? DPSEL_OK : dpsel_core_uniform(rng, l->count + count, &draw);
    if (rc != DPSEL_OK || draw >= count) {
        l->count += rc == DPSEL_OK ? count : 0;
        return rc;
    }
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
    l->count += count;
    return DPSEL_OK;
}

/* Level from of another state moved into l: its member taken over when it
 * is kept (no copy). */
static int level_absorb(level *l, level *from, dpsel_rng *rng)
{
    uint64_t draw = 0;
    int rc = l->count == 0 ? DPSEL_OK : dpsel_core_uniform(rng, l->count + from->count, &draw);
    if (rc != DPSEL_OK) {
        return rc;
    }
    if (draw < from->count) {
        free(l->member);
        l->member = from->member;
        l->member_size = from->member_size;
        from->member = NULL;
    }
    l->count += from->count;
    level_clear(from);
    return DPSEL_OK;
}

/* Raises the maximum to `best`: the levels whose gap reaches the cap fold
 * into the cap level, and their slots become the new top levels. */
static int raise_best(dpsel_partial *p, int64_t best, dpsel_rng *rng)
{
    uint64_t shift = (uint64_t)best - (uint64_t)p->best;
    uint64_t moved = shift < p->cap ? shift : p->cap;
    for (uint64_t j = 0; j < moved; j++) {
        level *l = ring_level(p, p->cap - 1 - j);
        if (l->count > 0) {
            int rc = level_absorb(&p->deep, l, rng);
            if (rc != DPSEL_OK) {
                return rc;
            }
        }
    }
    p->top = (p->top + shift % p->cap) % p->cap;
    p->best = best;
    return DPSEL_OK;
}

int dpsel_partial_add(dpsel_partial *p, int64_t score, const void *member, size_t member_size,
                      dpsel_rng *rng)
{
    if (p == NULL || rng == NULL || (member == NULL && member_size > 0)) {
        return DPSEL_ENULL;
    }
    if (p->failed || member_size > DPSEL_PARTIAL_MEMBER_MAX || p->total >= TOTAL_MAX) {
        return DPSEL_ERANGE;
    }
    int rc = DPSEL_OK;
    if (p->total == 0) {
        p->best = score;
    } else if (score > p->best) {
        rc = raise_best(p, score, rng);
    }
    if (rc == DPSEL_OK) {
        rc = level_merge(level_of(p, score), 1, member, member_size, rng);
    }
    p->total += rc == DPSEL_OK;
    p->failed = rc != DPSEL_OK;
    return rc;
}

/* Same parameters: the base and the cap (the levels' meaning). */
static int same_parameters(const dpsel_partial *p, uint64_t x, unsigned y, uint64_t cap)
{
    return p->x == x && p->y == y && p->cap == cap;
}

/* from's levels into p, whose maximum is at least from's. */
static int merge_levels(dpsel_partial *p, const dpsel_partial *from, dpsel_rng *rng)
{
    int rc = DPSEL_OK;
    for (uint64_t g = 0; g < from->cap && rc == DPSEL_OK; g++) {
        const level *l = &from->ring[(from->top + from->cap - g) % from->cap];
        if (l->count > 0) {
            /* from->best - g is a score from held: no wrap */
            rc = level_merge(level_of(p, (int64_t)((uint64_t)from->best - g)), l->count,
                             l->member, l->member_size, rng);
        }
    }
    if (rc == DPSEL_OK && from->deep.count > 0) {
        rc = level_merge(&p->deep, from->deep.count, from->deep.member, from->deep.member_size,
                         rng);
    }
    return rc;
}

int dpsel_partial_merge(dpsel_partial *into, const dpsel_partial *from, dpsel_rng *rng)
{
    if (into == NULL || from == NULL || rng == NULL) {
        return DPSEL_ENULL;
    }
    if (into == from || into->failed || from->failed
        || !same_parameters(into, from->x, from->y, from->cap)
        || from->total > TOTAL_MAX - into->total) {
        return DPSEL_ERANGE;
    }
    if (from->total == 0) {
        return DPSEL_OK;
    }
    int rc = DPSEL_OK;
    if (into->total == 0) {
        into->best = from->best;
    } else if (from->best > into->best) {
        rc = raise_best(into, from->best, rng);
    }
    if (rc == DPSEL_OK) {
        rc = merge_levels(into, from, rng);
    }
    into->total += rc == DPSEL_OK ? from->total : 0;
    into->failed = rc != DPSEL_OK;
    return rc;
}

/* The nonempty levels as runs: score -g (the cap level -cap) and count. */
static size_t levels_as_runs(const dpsel_partial *p, int64_t *scores, uint64_t *counts,
                             const level **members)
{
    size_t used = 0;
    for (uint64_t g = 0; g <= p->cap; g++) {
        const level *l = g < p->cap ? &p->ring[(p->top + p->cap - g) % p->cap] : &p->deep;
        if (l->count > 0) {
            scores[used] = -(int64_t)g;
            counts[used] = l->count;
            members[used++] = l;
        }
    }
    return used;
}

int dpsel_partial_finish(const dpsel_partial *p, const dpsel_selector *selector,
                         dpsel_mechanism mechanism, dpsel_rng *rng, const void **member,
                         size_t *member_size)
{
    if (p == NULL || selector == NULL || rng == NULL || member == NULL || member_size == NULL) {
        return DPSEL_ENULL;
    }
    if (p->total == 0) {
        return DPSEL_EEMPTY;
    }
    const dpsel_params *q = &selector->params;
    if (p->failed || !same_parameters(p, q->x, q->y, q->gap_cap)
        || (mechanism != DPSEL_EM && mechanism != DPSEL_PF)) {
        return DPSEL_ERANGE;
    }
    int64_t *scores = malloc((p->cap + 1) * sizeof *scores);
    uint64_t *counts = malloc((p->cap + 1) * sizeof *counts);
    const level **members = malloc((p->cap + 1) * sizeof *members);
    int rc = scores == NULL || counts == NULL || members == NULL ? DPSEL_ENOMEM : DPSEL_OK;
    size_t run = 0;
    uint64_t offset = 0;
    if (rc == DPSEL_OK) {
        size_t used = levels_as_runs(p, scores, counts, members);
        rc = dpsel_internal_runs_select(selector, mechanism, scores, counts, used, p->total, rng,
                                        &run, &offset);
    }
    if (rc == DPSEL_OK) {
        /* the released candidate is uniform within its level: the level's member */
        *member = members[run]->member;
        *member_size = members[run]->member_size;
    }
    free(scores);
    free(counts);
    free(members);
    return rc;
}


/* ---------------------------------------------------------- serialised */

/* The format (little-endian; spec/partial.md §4):
 *   "DPSP", version 1, three zero bytes
 *   x (8), y (4), zero (4), cap (8), total (8), best (8), levels L (8)
 *   L times: gap (8, increasing, at most cap), count (8, >= 1), member size (4), member
 *   BLAKE2b-256 of everything before it (32) */
#define MAGIC "DPSP"
#define VERSION 1
#define HEADER_SIZE 56
#define ENTRY_SIZE 20
#define CHECK_SIZE 32

static void put_u64(unsigned char *at, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        at[i] = (unsigned char)(v >> (8 * i));
    }
}

static void put_u32(unsigned char *at, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        at[i] = (unsigned char)(v >> (8 * i));
    }
}

static uint32_t get_u32(const unsigned char *at)
{
    return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
}

static uint64_t get_u64(const unsigned char *at)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) {
        v = (v << 8) | at[i];
    }
    return v;
}

/* The serialised size, or 0 beyond SIZE_MAX. */
static size_t serialised_size(const dpsel_partial *p)
{
    size_t size = HEADER_SIZE + CHECK_SIZE;
    for (uint64_t g = 0; g <= p->cap; g++) {
        const level *l = g < p->cap ? &p->ring[(p->top + p->cap - g) % p->cap] : &p->deep;
        if (l->count > 0) {
            size += ENTRY_SIZE + l->member_size;  /* members at most 64 KiB, levels 2^20 + 1 */
        }
    }
    return size;
}

static void write_state(const dpsel_partial *p, unsigned char *buf)
{
    memset(buf, 0, HEADER_SIZE);
    memcpy(buf, MAGIC, 4);
    buf[4] = VERSION;
    put_u64(buf + 8, p->x);
    put_u32(buf + 16, p->y);
    put_u64(buf + 24, p->cap);
    put_u64(buf + 32, p->total);
    put_u64(buf + 40, (uint64_t)p->best);
    size_t at = HEADER_SIZE;
    uint64_t levels = 0;
    for (uint64_t g = 0; g <= p->cap; g++) {
        const level *l = g < p->cap ? &p->ring[(p->top + p->cap - g) % p->cap] : &p->deep;
        if (l->count > 0) {
            put_u64(buf + at, g);
            put_u64(buf + at + 8, l->count);
            put_u32(buf + at + 16, (uint32_t)l->member_size);  /* at most 64 KiB */
            at += ENTRY_SIZE;
            if (l->member_size > 0) {
                memcpy(buf + at, l->member, l->member_size);
            }
            at += l->member_size;
            levels++;
        }
    }
    put_u64(buf + 48, levels);
    crypto_generichash(buf + at, CHECK_SIZE, buf, at, NULL, 0);
}

int dpsel_partial_serialize(const dpsel_partial *p, unsigned char *buf, size_t buf_size,
                            size_t *size)
{
    if (p == NULL || size == NULL) {
        return DPSEL_ENULL;
    }
    if (p->failed) {
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
    write_state(p, buf);
    *size = needed;
    return DPSEL_OK;
}

/* A level read from the buffer into the state's level g (the ring laid
 * out with level 0 in slot 0). */
static int load_level(dpsel_partial *p, uint64_t g, uint64_t count, const unsigned char *member,
                      size_t size)
{
    level *l = g < p->cap ? &p->ring[(p->cap - g) % p->cap] : &p->deep;
    l->member = malloc(size > 0 ? size : 1);
    if (l->member == NULL) {
        return DPSEL_ENOMEM;
    }
    if (size > 0) {
        memcpy(l->member, member, size);
    }
    l->member_size = size;
    l->count = count;
    return DPSEL_OK;
}

/* The header's fields, checked against the parameters. */
static int read_header(dpsel_partial *p, const unsigned char *buf, size_t size, uint64_t *levels)
{
    static const unsigned char zeros[4] = { 0 };
    if (size < HEADER_SIZE + CHECK_SIZE || memcmp(buf, MAGIC, 4) != 0 || buf[4] != VERSION
        || memcmp(buf + 5, zeros, 3) != 0 || memcmp(buf + 20, zeros, 4) != 0) {
        return DPSEL_ESTATE;
    }
    unsigned char check[CHECK_SIZE];
    crypto_generichash(check, CHECK_SIZE, buf, size - CHECK_SIZE, NULL, 0);
    if (sodium_memcmp(check, buf + size - CHECK_SIZE, CHECK_SIZE) != 0
        || !same_parameters(p, get_u64(buf + 8), get_u32(buf + 16), get_u64(buf + 24))) {
        return DPSEL_ESTATE;
    }
    p->total = get_u64(buf + 32);
    p->best = (int64_t)get_u64(buf + 40);
    *levels = get_u64(buf + 48);
    return p->total <= TOTAL_MAX && *levels <= p->cap + 1 && (p->total == 0) == (*levels == 0)
           ? DPSEL_OK : DPSEL_ESTATE;
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
        uint64_t g = get_u64(buf + at), count = get_u64(buf + at + 8);
        size_t member_size = get_u32(buf + at + 16);
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

int dpsel_partial_deserialize(dpsel_partial **out, const dpsel_params *params,
                              const unsigned char *buf, size_t size)
{
    if (out == NULL || params == NULL || buf == NULL) {
        return DPSEL_ENULL;
    }
    dpsel_partial *p = NULL;
    int rc = dpsel_partial_new(&p, params);
    uint64_t levels = 0;
    if (rc == DPSEL_OK) {
        rc = read_header(p, buf, size, &levels);
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
