/* SPDX-License-Identifier: ISC */
/*
 * Mergeable partial selections (dpsel_partial_*, spec/partial.md):
 *   - the merged state's level counts are those of all candidates, on 300
 *     random vectors split into random shards merged in random orders
 *     (read from the serialised form, whose layout spec §4 fixes);
 *   - each level's member is uniform, jointly, by exact enumeration of every
 *     bit string of the adds and merges, for every partition of 4
 *     candidates into at most 3 shards and every merge order;
 *   - the finished selection fits dpsel_pmf on all candidates by chi-square
 *     (PF and EM, a cap that clamps; false alarm 1e-6 per fit);
 *   - serialisation round trips byte for byte, and the same seed finishes
 *     the same from either form;
 *   - every malformed or hostile serialised state is DPSEL_ESTATE (each
 *     byte flipped; each field broken with a correct checksum);
 *   - keyed states (a BLAKE2b MAC) round trip; a wrong key, every flipped
 *     byte, the other form (keyed to the unkeyed reader and back) and a
 *     forged count whose unkeyed checksum was recomputed (which the unkeyed
 *     reader takes) are DPSEL_ESTATE with nothing written;
 *   - the errors, a state that failed part-way staying failed, and a state
 *     finished or merged away being spent (one release per state);
 *   - dpsel_partial_add_scores is its adds (the same bytes and random bits
 *     from 9000 members of 0-3 bytes), refuses bad arrays before adding
 *     any, and fails the state when its interrupt check cancels it.
 */
#include <criterion/criterion.h>
#include <gmp.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gap.h"
#include "core/uniform.h"
#include "exact_layer.h"
#include "support.h"

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return *state >> 33;
}

/* The serialised bytes of a state (a new buffer). */
static unsigned char *serialised(const dpsel_partial *p, size_t *size)
{
    cr_assert_eq(dpsel_partial_serialize(p, NULL, 0, size), DPSEL_OK);
    unsigned char *buf = malloc(*size);
    cr_assert(buf != NULL);
    size_t written = 0;
    cr_assert_eq(dpsel_partial_serialize(p, buf, *size, &written), DPSEL_OK);
    cr_assert_eq(written, *size);
    return buf;
}

static uint64_t read_u64(const unsigned char *at)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) {
        v = (v << 8) | at[i];
    }
    return v;
}

/* counts[g] for g <= cap from the serialised levels (spec §4). */
static void level_counts(const dpsel_partial *p, uint64_t cap, uint64_t *counts)
{
    size_t size;
    unsigned char *buf = serialised(p, &size);
    memset(counts, 0, (cap + 1) * sizeof *counts);
    uint64_t levels = read_u64(buf + 48);
    size_t at = 56;
    for (uint64_t i = 0; i < levels; i++) {
        uint64_t g = read_u64(buf + at);
        cr_assert_leq(g, cap);
        counts[g] = read_u64(buf + at + 8);
        at += 20 + (buf[at + 16] | (size_t)buf[at + 17] << 8 | (size_t)buf[at + 18] << 16);
    }
    free(buf);
}

/* A shard per candidate as chosen by shard_of, merged in the order given. */
static dpsel_partial *build(const dpsel_params *p, const int64_t *scores, size_t n,
                            const unsigned *shard_of, unsigned shards, const unsigned *order,
                            dpsel_rng *rng)
{
    dpsel_partial *part[8] = { NULL };
    cr_assert_leq(shards, 8);
    for (unsigned s = 0; s < shards; s++) {
        cr_assert_eq(dpsel_partial_new(&part[s], p), DPSEL_OK);
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t member = (uint32_t)i;
        int rc = dpsel_partial_add(part[shard_of[i]], scores[i], &member, sizeof member, rng);
        if (rc != DPSEL_OK) {
            for (unsigned s = 0; s < shards; s++) {
                dpsel_partial_free(part[s]);
            }
            return NULL;
        }
    }
    /* into the first of the order, then each other in turn */
    dpsel_partial *into = part[order[0]];
    int rc = DPSEL_OK;
    for (unsigned s = 1; s < shards && rc == DPSEL_OK; s++) {
        rc = dpsel_partial_merge(into, part[order[s]], rng);
    }
    for (unsigned s = 0; s < shards; s++) {
        if (part[s] != into) {
            dpsel_partial_free(part[s]);
        }
    }
    if (rc != DPSEL_OK) {
        dpsel_partial_free(into);
        return NULL;
    }
    return into;
}

Test(partial, merged_levels_are_the_candidates_levels)
{
    uint64_t state = 2027;
    dpsel_rng rng = seeded_rng(91);
    for (unsigned trial = 0; trial < 300; trial++) {
        enum { MAX_N = 40 };
        size_t n = 1 + next_random(&state) % MAX_N;
        int64_t scores[MAX_N];
        unsigned shard_of[MAX_N], order[8];
        unsigned shards = 1 + (unsigned)(next_random(&state) % 8);
        int64_t spread = (int64_t)(next_random(&state) % 30) + 1;
        for (size_t i = 0; i < n; i++) {
            scores[i] = (int64_t)(next_random(&state) % (uint64_t)spread) - spread / 2;
            if (next_random(&state) % 10 == 0) {
                scores[i] = next_random(&state) % 2 ? INT64_MIN : INT64_MAX;
            }
            shard_of[i] = (unsigned)(next_random(&state) % shards);
        }
        for (unsigned s = 0; s < shards; s++) {
            order[s] = s;
        }
        for (unsigned s = shards; s > 1; s--) {  /* a random merge order */
            unsigned j = (unsigned)(next_random(&state) % s), t = order[s - 1];
            order[s - 1] = order[j];
            order[j] = t;
        }
        uint64_t cap = 1 + next_random(&state) % 12;
        dpsel_params p = base_params(3, 2, 1, 0);
        cr_assert_eq(dpsel_params_set_gap_cap(&p, cap), DPSEL_OK);
        dpsel_partial *merged = build(&p, scores, n, shard_of, shards, order, &rng);
        cr_assert(merged != NULL);
        cr_expect_eq(dpsel_partial_count(merged), n);
        uint64_t got[13], expected[13] = { 0 };
        level_counts(merged, cap, got);
        int64_t best = scores[dpsel_core_argmax(scores, n)];
        for (size_t i = 0; i < n; i++) {
            expected[dpsel_core_clamped_gap(best, scores[i], cap)]++;
        }
        for (uint64_t g = 0; g <= cap; g++) {
            cr_expect_eq(got[g], expected[g], "trial %u, level %lu", trial, (unsigned long)g);
        }
        dpsel_partial_free(merged);
    }
    dpsel_rng_wipe(&rng);
}

/* ------------------------------------------- members, by enumeration */

typedef struct {
    const dpsel_params *params;
    const int64_t *scores;
    size_t n;
    const unsigned *shard_of;
    unsigned shards;
    const unsigned *order;
} member_case;

/* Outcome: the members of levels 0 .. 3 as digits in base 4. */
static int members_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    const member_case *c = arg;
    dpsel_partial *merged = build(c->params, c->scores, c->n, c->shard_of, c->shards, c->order,
                                  rng);
    if (merged == NULL) {
        return DPSEL_ERANDOM;  /* the bits ran out: the enumeration's cut */
    }
    size_t size;
    unsigned char *buf = serialised(merged, &size);
    size_t outcome = 0, at = 56;
    for (uint64_t i = 0; i < read_u64(buf + 48); i++) {
        uint64_t g = read_u64(buf + at);
        uint32_t member;
        memcpy(&member, buf + at + 20, sizeof member);
        size_t weight = 1;
        for (uint64_t k = 0; k < g; k++) {
            weight *= 4;
        }
        outcome += member % 4 * weight;
        at += 20 + sizeof member;
    }
    free(buf);
    dpsel_partial_free(merged);
    *out = outcome;
    return DPSEL_OK;
}

/* Every assignment of 4 candidates to 3 shards (the empty ones included)
 * and every merge order: each level's member uniform, all independent. */
Test(partial, members_are_uniform_by_enumeration, .timeout = 600)
{
    static const int64_t scores[4] = { 7, 5, 7, 5 };   /* levels 0 and 2: two members each */
    dpsel_params p = base_params(1, 1, 1, 0);
    cr_assert_eq(dpsel_params_set_gap_cap(&p, 3), DPSEL_OK);
    static const unsigned orders[6][3] = {
        { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
    };
    unsigned checked = 0;
    for (unsigned assignment = 0; assignment < 81; assignment++) {
        unsigned shard_of[4];
        for (unsigned i = 0, a = assignment; i < 4; i++, a /= 3) {
            shard_of[i] = a % 3;
        }
        for (unsigned o = 0; o < 6; o++) {
            member_case c = { &p, scores, 4, shard_of, 3, orders[o] };
            enum { OUTCOMES = 64 };  /* digits of levels 0, 1, 2 */
            mpq_t mass[OUTCOMES], residual, exact;
            for (size_t k = 0; k < OUTCOMES; k++) {
                mpq_init(mass[k]);
            }
            mpq_inits(residual, exact, (mpq_ptr)0);
            cr_assert_geq(enumerate_bits(members_sampler, &c, OUTCOMES, ENUMERATION_DEPTH, mass,
                                         residual), 1);
            /* level 0 holds candidates 0 and 2, level 2 candidates 1 and 3 */
            mpq_set_ui(exact, 1, 4);
            for (size_t k = 0; k < OUTCOMES; k++) {
                size_t level0 = k % 4, level2 = k / 16;
                int possible = (level0 == 0 || level0 == 2) && (level2 == 1 || level2 == 3)
                               && k / 4 % 4 == 0;
                char what[80];
                snprintf(what, sizeof what, "shards %u, order %u, members %zu and %zu",
                         assignment, o, level0, level2);
                if (possible) {
                    expect_realised(mass[k], residual, exact, what);
                } else {
                    cr_expect_eq(mpq_sgn(mass[k]), 0, "%s: impossible, yet reached", what);
                }
                mpq_clear(mass[k]);
            }
            mpq_clears(residual, exact, (mpq_ptr)0);
            checked++;
        }
    }
    cr_expect_eq(checked, 486);
}

/* --------------------------------------------------------- the finish */

static void check_finish_fit(dpsel_mechanism m, const char *epsilon, uint64_t cap,
                             uint64_t seed)
{
    enum { N = 12, SHARDS = 3 };
    static const int64_t scores[N] = { 10, 9, 9, 7, 4, 0, 10, -40, 8, 8, 3, 9 };
    static const unsigned shard_of[N] = { 0, 1, 2, 0, 1, 2, 1, 0, 2, 2, 1, 0 };
    static const unsigned order[SHARDS] = { 2, 0, 1 };
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, epsilon, 1, 0), DPSEL_OK);
    if (cap != 0) {
        cr_assert_eq(dpsel_params_set_gap_cap(&p, cap), DPSEL_OK);
    }
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, &p, m, scores, N), DPSEL_OK);
    mpq_t prob[N];
    for (size_t r = 0; r < N; r++) {
        mpq_init(prob[r]);
        pmf_rational(pmf, r, prob[r]);
    }
    dpsel_rng rng = seeded_rng(seed);
    uint64_t counts[N] = { 0 };
    const uint64_t draws = 100000;
    for (uint64_t d = 0; d < draws; d++) {
        dpsel_partial *merged = build(&p, scores, N, shard_of, SHARDS, order, &rng);
        cr_assert(merged != NULL);
        const void *member = NULL;
        size_t size = 0;
        cr_assert_eq(dpsel_partial_finish(merged, selector, m, &rng, &member, &size), DPSEL_OK);
        uint32_t index;
        cr_assert_eq(size, sizeof index);
        memcpy(&index, member, sizeof index);
        cr_assert_lt(index, N);
        counts[index]++;
        dpsel_partial_free(merged);
    }
    char what[64];
    snprintf(what, sizeof what, "%s, epsilon %s, cap %lu", m ? "em" : "pf", epsilon,
             (unsigned long)cap);
    expect_fit_and_clear(counts, prob, N, draws, what);
    dpsel_rng_wipe(&rng);
    dpsel_pmf_free(pmf);
    dpsel_selector_free(selector);
}

Test(partial, finished_selections_fit_the_pmf, .timeout = 300)
{
    check_finish_fit(DPSEL_PF, "1", 0, 101);
    check_finish_fit(DPSEL_EM, "1", 0, 102);
    check_finish_fit(DPSEL_PF, "0.5", 4, 103);   /* the cap clamps: a cap level of 6 */
    check_finish_fit(DPSEL_EM, "0.5", 4, 104);
}

Test(partial, serialisation_round_trips)
{
    uint64_t state = 5;
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "0.3", 1, 0), DPSEL_OK);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    dpsel_rng rng = seeded_rng(7);
    for (unsigned trial = 0; trial < 100; trial++) {
        dpsel_partial *a = NULL, *b = NULL;
        cr_assert_eq(dpsel_partial_new(&a, &p), DPSEL_OK);
        size_t n = next_random(&state) % 50;
        for (size_t i = 0; i < n; i++) {
            char label[16];
            int length = snprintf(label, sizeof label, "item-%zu", i);
            cr_assert_eq(dpsel_partial_add(a, (int64_t)(next_random(&state) % 200), label,
                                           (size_t)length, &rng), DPSEL_OK);
        }
        size_t size, again_size;
        unsigned char *bytes = serialised(a, &size);
        cr_assert_eq(dpsel_partial_deserialize(&b, &p, bytes, size), DPSEL_OK);
        unsigned char *again = serialised(b, &again_size);
        cr_expect(size == again_size && memcmp(bytes, again, size) == 0, "trial %u", trial);
        cr_expect_eq(dpsel_partial_count(b), n);
        if (n > 0) {
            dpsel_rng one = seeded_rng(trial), two = seeded_rng(trial);
            const void *ma, *mb;
            size_t sa, sb;
            cr_assert_eq(dpsel_partial_finish(a, selector, trial % 2, &one, &ma, &sa), DPSEL_OK);
            cr_assert_eq(dpsel_partial_finish(b, selector, trial % 2, &two, &mb, &sb), DPSEL_OK);
            cr_expect(sa == sb && memcmp(ma, mb, sa) == 0, "trial %u: the same seed", trial);
            dpsel_rng_wipe(&one);
            dpsel_rng_wipe(&two);
        }
        free(bytes);
        free(again);
        dpsel_partial_free(a);
        dpsel_partial_free(b);
    }
    dpsel_rng_wipe(&rng);
    dpsel_selector_free(selector);
}

/* ------------------------------------------------- hostile states */

static void put_u64(unsigned char *at, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        at[i] = (unsigned char)(v >> (8 * i));
    }
}

/* The checksum recomputed over everything before it (a forged state). */
static void reseal(unsigned char *buf, size_t size)
{
    crypto_generichash(buf + size - 32, 32, buf, size - 32, NULL, 0);
}

static void expect_refused(const dpsel_params *p, const unsigned char *buf, size_t size,
                           const char *what)
{
    dpsel_partial *out = (dpsel_partial *)(uintptr_t)1;
    cr_expect_eq(dpsel_partial_deserialize(&out, p, buf, size), DPSEL_ESTATE, "%s", what);
    cr_expect(out == (dpsel_partial *)(uintptr_t)1, "%s: output written", what);
}

Test(partial, hostile_states_are_refused)
{
    dpsel_params p = base_params(3, 2, 1, 0), other = base_params(5, 3, 1, 0);
    cr_assert_eq(dpsel_params_set_gap_cap(&p, 5), DPSEL_OK);
    dpsel_rng rng = seeded_rng(3);
    dpsel_partial *a = NULL;
    cr_assert_eq(dpsel_partial_new(&a, &p), DPSEL_OK);
    static const int64_t scores[] = { 10, 8, 8, -50 };
    for (size_t i = 0; i < 4; i++) {
        cr_assert_eq(dpsel_partial_add(a, scores[i], "ab", 2, &rng), DPSEL_OK);
    }
    size_t size;
    unsigned char *good = serialised(a, &size);  /* 56 + 3 levels of 22 + 32 */
    cr_assert_eq(size, 56 + 3 * 22 + 32);
    unsigned char *bad = malloc(size + 1);
    cr_assert(bad != NULL);
    for (size_t i = 0; i < size; i++) {        /* any byte changed: the checksum */
        memcpy(bad, good, size);
        bad[i] ^= 0x10;
        char what[48];
        snprintf(what, sizeof what, "byte %zu flipped", i);
        expect_refused(&p, bad, size, what);
    }
    expect_refused(&other, good, size, "other parameters");
    expect_refused(&p, good, size - 1, "truncated");
    expect_refused(&p, good, 40, "a header cut short");
    /* each field broken, the checksum forged */
    static const struct {
        const char *what;
        size_t at;
        uint64_t value;
        int width;
    } fields[] = {
        { "magic", 0, 0x51535044, 4 }, { "version 2", 4, 2, 1 }, { "a reserved byte", 6, 1, 1 },
        { "y above its field", 20, 1, 1 }, { "the total one more", 32, 5, 8 },
        { "the total one less", 32, 3, 8 }, { "more levels than the cap allows", 48, 7, 8 },
        { "one level less", 48, 2, 8 }, { "the first gap not 0", 56, 1, 8 },
        { "gaps out of order", 78, 0, 8 }, { "a gap past the cap", 100, 6, 8 },
        { "a count of 0", 86, 0, 8 }, { "a member longer than the buffer", 72, 60000, 4 },
        { "a member above the maximum", 72, 70000, 4 },
        { "a score below INT64_MIN", 40, (uint64_t)INT64_MIN + 1, 8 },
    };
    for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
        memcpy(bad, good, size);
        for (int i = 0; i < fields[f].width; i++) {
            bad[fields[f].at + (size_t)i] = (unsigned char)(fields[f].value >> (8 * i));
        }
        reseal(bad, size);
        expect_refused(&p, bad, size, fields[f].what);
    }
    memcpy(bad, good, size - 32);              /* a trailing byte */
    bad[size - 32] = 0;
    reseal(bad, size + 1);
    expect_refused(&p, bad, size + 1, "a trailing byte");
    memcpy(bad, good, size);                   /* the forged copy itself is accepted */
    put_u64(bad + 40, 20);                     /* a larger maximum, consistent */
    reseal(bad, size);
    dpsel_partial *back = NULL;
    cr_expect_eq(dpsel_partial_deserialize(&back, &p, bad, size), DPSEL_OK);
    dpsel_partial_free(back);
    free(bad);
    free(good);
    dpsel_partial_free(a);
    dpsel_rng_wipe(&rng);
}

/* The largest block deserialising buf asks for, and the code it returns. */
static size_t largest_allocation(const dpsel_params *p, const unsigned char *buf, size_t size,
                                 int *rc)
{
    allocations counted;
    dpsel_partial *out = NULL;
    heap_count_start(&counted);
    *rc = dpsel_partial_deserialize(&out, p, buf, size);
    heap_count_stop();
    dpsel_partial_free(out);
    return counted.largest;
}

Test(partial, forged_counts_allocate_by_the_bytes)
{
    dpsel_params p = base_params(3, 2, 1, 0);
    cr_assert_eq(dpsel_params_set_gap_cap(&p, DPSEL_GAP_CAP_MAX), DPSEL_OK);
    dpsel_partial *empty = NULL;
    cr_assert_eq(dpsel_partial_new(&empty, &p), DPSEL_OK);
    size_t size;
    unsigned char *forged = serialised(empty, &size);  /* a header and its checksum */
    cr_assert_eq(size, 88);
    /* The most levels and candidates the parameters allow, and no entry. */
    put_u64(forged + 32, DPSEL_GAP_CAP_MAX + 1);
    put_u64(forged + 48, DPSEL_GAP_CAP_MAX + 1);
    reseal(forged, size);
    int rc;
    size_t largest = largest_allocation(&p, forged, size, &rc);
    cr_expect_eq(rc, DPSEL_ESTATE);
    cr_expect(largest <= 1024, "%zu bytes allocated for an 88-byte state", largest);
    /* A real state: its levels and members, within a few times its bytes. */
    dpsel_rng rng = seeded_rng(4);
    for (int64_t score = 0; score < 100; score++) {
        cr_assert_eq(dpsel_partial_add(empty, score, "member", 6, &rng), DPSEL_OK);
    }
    unsigned char *good = serialised(empty, &size);
    largest = largest_allocation(&p, good, size, &rc);
    cr_expect_eq(rc, DPSEL_OK);
    cr_expect(largest > 0 && largest <= 2 * size, "%zu bytes for %zu", largest, size);
    free(good);
    free(forged);
    dpsel_partial_free(empty);
    dpsel_rng_wipe(&rng);
}

/* ---------------------------------------------------- keyed states */

/* The keyed serialised bytes of a state (a new buffer). */
static unsigned char *sealed(const dpsel_partial *p, const unsigned char *key, size_t key_size,
                             size_t *size)
{
    cr_assert_eq(dpsel_partial_serialize_keyed(p, key, key_size, NULL, 0, size), DPSEL_OK);
    unsigned char *buf = malloc(*size);
    cr_assert(buf != NULL);
    size_t written = 0;
    cr_assert_eq(dpsel_partial_serialize_keyed(p, key, key_size, buf, *size, &written), DPSEL_OK);
    cr_assert_eq(written, *size);
    return buf;
}

static void expect_keyed_refused(const dpsel_params *p, const unsigned char *key,
                                 const unsigned char *buf, size_t size, const char *what)
{
    dpsel_partial *out = (dpsel_partial *)(uintptr_t)1;
    cr_expect_eq(dpsel_partial_deserialize_keyed(&out, p, key, 32, buf, size), DPSEL_ESTATE,
                 "%s", what);
    cr_expect(out == (dpsel_partial *)(uintptr_t)1, "%s: output written", what);
}

/* A state of 4 candidates on 3 levels, and its keyed and unkeyed bytes. */
typedef struct {
    dpsel_params params;
    dpsel_partial *state;
    unsigned char key[32];
    unsigned char *keyed, *plain;
    size_t size;
} keyed_case;

static keyed_case keyed_case_new(void)
{
    keyed_case c;
    c.params = base_params(3, 2, 1, 0);
    cr_assert_eq(dpsel_params_set_gap_cap(&c.params, 5), DPSEL_OK);
    dpsel_rng rng = seeded_rng(9);
    cr_assert_eq(dpsel_partial_new(&c.state, &c.params), DPSEL_OK);
    static const int64_t scores[] = { 10, 8, 8, -50 };
    for (size_t i = 0; i < 4; i++) {
        cr_assert_eq(dpsel_partial_add(c.state, scores[i], "ab", 2, &rng), DPSEL_OK);
    }
    for (size_t i = 0; i < sizeof c.key; i++) {
        c.key[i] = (unsigned char)(7 * i + 1);
    }
    size_t plain_size;
    c.keyed = sealed(c.state, c.key, sizeof c.key, &c.size);
    c.plain = serialised(c.state, &plain_size);
    cr_assert_eq(plain_size, c.size, "the same layout, another seal");
    dpsel_rng_wipe(&rng);
    return c;
}

static void keyed_case_free(keyed_case *c)
{
    free(c->keyed);
    free(c->plain);
    dpsel_partial_free(c->state);
}

Test(partial, keyed_states_round_trip)
{
    keyed_case c = keyed_case_new();
    cr_expect_eq(c.keyed[4], 2, "the keyed form's version");
    cr_expect_eq(c.plain[4], 1);
    cr_expect(memcmp(c.keyed + 5, c.plain + 5, c.size - 37) == 0, "the same fields");
    dpsel_partial *back = NULL;
    cr_assert_eq(dpsel_partial_deserialize_keyed(&back, &c.params, c.key, sizeof c.key, c.keyed,
                                                 c.size), DPSEL_OK);
    size_t again_size;
    unsigned char *again = sealed(back, c.key, sizeof c.key, &again_size);
    cr_expect(again_size == c.size && memcmp(again, c.keyed, c.size) == 0, "byte for byte");
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &c.params), DPSEL_OK);
    dpsel_rng one = seeded_rng(5), two = seeded_rng(5);
    const void *ma, *mb;
    size_t sa, sb;
    cr_assert_eq(dpsel_partial_finish(c.state, selector, DPSEL_PF, &one, &ma, &sa), DPSEL_OK);
    cr_assert_eq(dpsel_partial_finish(back, selector, DPSEL_PF, &two, &mb, &sb), DPSEL_OK);
    cr_expect(sa == sb && memcmp(ma, mb, sa) == 0, "the same seed, the same release");
    /* the shortest and longest keys */
    unsigned char long_key[DPSEL_PARTIAL_KEY_MAX] = { 1 };
    dpsel_partial *fresh = NULL, *read = NULL;
    cr_assert_eq(dpsel_partial_new(&fresh, &c.params), DPSEL_OK);
    for (size_t length = DPSEL_PARTIAL_KEY_MIN; length <= DPSEL_PARTIAL_KEY_MAX; length += 48) {
        size_t size;
        unsigned char *bytes = sealed(fresh, long_key, length, &size);
        cr_expect_eq(dpsel_partial_deserialize_keyed(&read, &c.params, long_key, length, bytes,
                                                     size), DPSEL_OK, "a key of %zu bytes", length);
        dpsel_partial_free(read);
        read = NULL;
        free(bytes);
    }
    dpsel_partial_free(fresh);
    dpsel_rng_wipe(&one);
    dpsel_rng_wipe(&two);
    dpsel_selector_free(selector);
    dpsel_partial_free(back);
    free(again);
    keyed_case_free(&c);
}

Test(partial, keyed_states_refuse_what_the_key_did_not_seal)
{
    keyed_case c = keyed_case_new();
    unsigned char *bad = malloc(c.size);
    cr_assert(bad != NULL);
    for (size_t i = 0; i < c.size; i++) {      /* any byte changed */
        memcpy(bad, c.keyed, c.size);
        bad[i] ^= 0x01;
        char what[48];
        snprintf(what, sizeof what, "byte %zu flipped", i);
        expect_keyed_refused(&c.params, c.key, bad, c.size, what);
    }
    unsigned char other_key[32];
    memcpy(other_key, c.key, sizeof other_key);
    other_key[31] ^= 0x80;
    expect_keyed_refused(&c.params, other_key, c.keyed, c.size, "another key");
    expect_keyed_refused(&c.params, c.key, c.plain, c.size, "the unkeyed form");
    expect_keyed_refused(&c.params, c.key, c.keyed, c.size - 1, "truncated");
    expect_refused(&c.params, c.keyed, c.size, "the keyed form to the unkeyed reader");
    /* a forged count: 2^62 candidates, checksum recomputed */
    memcpy(bad, c.keyed, c.size);
    put_u64(bad + 32, (uint64_t)1 << 62);        /* the total */
    put_u64(bad + 64, ((uint64_t)1 << 62) - 3);  /* the first level's count (was 1) */
    reseal(bad, c.size);
    expect_keyed_refused(&c.params, c.key, bad, c.size, "a forged count, version 2 kept");
    bad[4] = 1;
    reseal(bad, c.size);
    dpsel_partial *forged = NULL;
    cr_expect_eq(dpsel_partial_deserialize(&forged, &c.params, bad, c.size), DPSEL_OK,
                 "the unkeyed reader takes the forged count (what the MAC is for)");
    cr_expect_eq(dpsel_partial_count(forged), (uint64_t)1 << 62);
    dpsel_partial_free(forged);
    expect_keyed_refused(&c.params, c.key, bad, c.size, "a forged count, unkeyed form");
    free(bad);
    keyed_case_free(&c);
}

Test(partial, keyed_errors)
{
    keyed_case c = keyed_case_new();
    unsigned char key[DPSEL_PARTIAL_KEY_MAX + 1] = { 0 };
    size_t size = 7;
    unsigned char buf[512];
    cr_expect_eq(dpsel_partial_serialize_keyed(c.state, NULL, 32, buf, sizeof buf, &size),
                 DPSEL_ENULL);
    cr_expect_eq(dpsel_partial_serialize_keyed(c.state, key, DPSEL_PARTIAL_KEY_MIN - 1, buf,
                                               sizeof buf, &size), DPSEL_ERANGE);
    cr_expect_eq(dpsel_partial_serialize_keyed(c.state, key, DPSEL_PARTIAL_KEY_MAX + 1, buf,
                                               sizeof buf, &size), DPSEL_ERANGE);
    cr_expect_eq(dpsel_partial_serialize_keyed(c.state, key, 32, buf, 10, &size), DPSEL_ERANGE);
    cr_expect_eq(dpsel_partial_serialize_keyed(NULL, key, 32, buf, sizeof buf, &size),
                 DPSEL_ENULL);
    cr_expect_eq(size, 7, "written on an error");
    dpsel_partial *out = (dpsel_partial *)(uintptr_t)1;
    cr_expect_eq(dpsel_partial_deserialize_keyed(&out, &c.params, NULL, 32, c.keyed, c.size),
                 DPSEL_ENULL);
    cr_expect_eq(dpsel_partial_deserialize_keyed(&out, &c.params, c.key, 15, c.keyed, c.size),
                 DPSEL_ERANGE);
    cr_expect_eq(dpsel_partial_deserialize_keyed(&out, &c.params, c.key, 65, c.keyed, c.size),
                 DPSEL_ERANGE);
    cr_expect_eq(dpsel_partial_deserialize_keyed(&out, NULL, c.key, 32, c.keyed, c.size),
                 DPSEL_ENULL);
    cr_expect_eq(dpsel_partial_deserialize_keyed(&out, &c.params, c.key, 32, NULL, 0),
                 DPSEL_ENULL);
    cr_expect(out == (dpsel_partial *)(uintptr_t)1, "written on an error");
    keyed_case_free(&c);
}

/* A source that fails after `left` bits. */
static int failing_bit(void *context, unsigned *bit)
{
    unsigned *left = context;
    if (*left == 0) {
        return 1;
    }
    (*left)--;
    *bit = 0;
    return 0;
}

Test(partial, errors)
{
    dpsel_params p = base_params(1, 1, 1, 0), other = base_params(1, 2, 1, 0), invalid = p;
    invalid.gap_cap = 0;
    dpsel_selector *mismatched = NULL, *matching = NULL;
    cr_assert_eq(dpsel_selector_new(&mismatched, &other), DPSEL_OK);
    cr_assert_eq(dpsel_selector_new(&matching, &p), DPSEL_OK);
    dpsel_rng rng = seeded_rng(4);
    dpsel_partial *a = NULL, *b = NULL, *c = NULL;
    cr_expect_eq(dpsel_partial_new(NULL, &p), DPSEL_ENULL);
    cr_expect_eq(dpsel_partial_new(&a, NULL), DPSEL_ENULL);
    cr_expect_eq(dpsel_partial_new(&a, &invalid), DPSEL_ERANGE);
    cr_assert_eq(dpsel_partial_new(&a, &p), DPSEL_OK);
    cr_assert_eq(dpsel_partial_new(&b, &other), DPSEL_OK);
    const void *member = NULL;
    size_t size = 99;
    cr_expect_eq(dpsel_partial_finish(a, matching, DPSEL_PF, &rng, &member, &size), DPSEL_EEMPTY);
    cr_expect_eq(dpsel_partial_add(a, 1, NULL, 3, &rng), DPSEL_ENULL);
    cr_expect_eq(dpsel_partial_add(a, 1, "x", DPSEL_PARTIAL_MEMBER_MAX + 1, &rng), DPSEL_ERANGE);
    cr_expect_eq(dpsel_partial_add(NULL, 1, "x", 1, &rng), DPSEL_ENULL);
    cr_expect_eq(dpsel_partial_add(a, 1, "x", 1, NULL), DPSEL_ENULL);
    cr_assert_eq(dpsel_partial_add(a, 1, NULL, 0, &rng), DPSEL_OK);  /* an empty member */
    cr_assert_eq(dpsel_partial_add(b, 1, "y", 1, &rng), DPSEL_OK);
    cr_expect_eq(dpsel_partial_merge(a, b, &rng), DPSEL_ERANGE, "other parameters");
    cr_expect_eq(dpsel_partial_merge(a, a, &rng), DPSEL_ERANGE, "itself");
    cr_expect_eq(dpsel_partial_merge(a, NULL, &rng), DPSEL_ENULL);
    cr_expect_eq(dpsel_partial_finish(a, mismatched, DPSEL_PF, &rng, &member, &size), DPSEL_ERANGE);
    cr_expect_eq(dpsel_partial_finish(a, NULL, DPSEL_PF, &rng, &member, &size), DPSEL_ENULL);
    cr_expect(member == NULL && size == 99);
    cr_expect_eq(dpsel_partial_serialize(a, NULL, 0, NULL), DPSEL_ENULL);
    unsigned char small[8];
    size_t written = 0;
    cr_expect_eq(dpsel_partial_serialize(a, small, sizeof small, &written), DPSEL_ERANGE);
    cr_expect_eq(dpsel_partial_deserialize(&c, &p, NULL, 0), DPSEL_ENULL);
    /* a source that fails during a merge fails the state for good */
    cr_assert_eq(dpsel_partial_add(b, 5, "z", 1, &rng), DPSEL_OK);
    dpsel_partial *d = NULL, *e = NULL;
    cr_assert_eq(dpsel_partial_new(&d, &p), DPSEL_OK);
    cr_assert_eq(dpsel_partial_new(&e, &p), DPSEL_OK);
    cr_assert_eq(dpsel_partial_add(d, 1, "d", 1, &rng), DPSEL_OK);
    cr_assert_eq(dpsel_partial_add(e, 1, "e", 1, &rng), DPSEL_OK);
    unsigned left = 0;
    dpsel_rng failing;
    cr_assert_eq(dpsel_rng_init_custom(&failing, failing_bit, &left), DPSEL_OK);
    cr_expect_eq(dpsel_partial_merge(d, e, &failing), DPSEL_ERANDOM);
    cr_expect_eq(dpsel_partial_add(d, 2, "f", 1, &rng), DPSEL_ERANGE, "failed for good");
    cr_expect_eq(dpsel_partial_merge(e, d, &rng), DPSEL_ERANGE, "a failed state merged");
    cr_expect_eq(dpsel_partial_serialize(d, NULL, 0, &written), DPSEL_ERANGE);
    /* one release per state: a finished state, and a state merged away, are spent */
    cr_expect_eq(dpsel_partial_count(e), 0, "merged away: empty");
    cr_expect_eq(dpsel_partial_add(e, 1, "g", 1, &rng), DPSEL_ERANGE, "merged away: spent");
    dpsel_partial *f = NULL, *g = NULL;
    cr_assert_eq(dpsel_partial_new(&f, &p), DPSEL_OK);
    cr_assert_eq(dpsel_partial_new(&g, &p), DPSEL_OK);
    cr_assert_eq(dpsel_partial_add(f, 1, "f", 1, &rng), DPSEL_OK);
    cr_assert_eq(dpsel_partial_add(g, 3, "g", 1, &rng), DPSEL_OK);
    cr_assert_eq(dpsel_partial_merge(f, g, &rng), DPSEL_OK);
    cr_expect_eq(dpsel_partial_count(f), 2);
    cr_expect_eq(dpsel_partial_merge(f, g, &rng), DPSEL_ERANGE, "merged twice");
    cr_assert_eq(dpsel_partial_finish(f, matching, DPSEL_EM, &rng, &member, &size), DPSEL_OK);
    cr_expect(size == 1 && (memcmp(member, "f", 1) == 0 || memcmp(member, "g", 1) == 0));
    const void *again = NULL;
    cr_expect_eq(dpsel_partial_finish(f, matching, DPSEL_EM, &rng, &again, &size), DPSEL_ERANGE,
                 "finished twice");
    cr_expect_eq(dpsel_partial_serialize(f, NULL, 0, &written), DPSEL_ERANGE, "finished: spent");
    cr_expect_eq(dpsel_partial_count(NULL), 0);
    dpsel_partial_free(f);
    dpsel_partial_free(g);
    dpsel_selector_free(matching);
    dpsel_partial_free(NULL);
    dpsel_partial_free(a);
    dpsel_partial_free(b);
    dpsel_partial_free(d);
    dpsel_partial_free(e);
    dpsel_selector_free(mismatched);
    dpsel_rng_wipe(&rng);
}

/* The source's next 32 bits as a number: where a source stands. */
static uint64_t next_word(dpsel_rng *rng)
{
    uint64_t word = 0;
    cr_assert_eq(dpsel_core_uniform(rng, (uint64_t)1 << 32, &word), DPSEL_OK);
    return word;
}

/* Stops at its second call. */
static int stop_second(void *context, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    return ++*(int *)context >= 2;
}

/* dpsel_partial_add_scores is n adds: the same state byte for byte and
 * the same random bits, from members of every length (empty ones too). */
Test(partial, batch_adds_are_the_adds)
{
    dpsel_params p = base_params(3, 2, 4, 0);
    enum { N = 9000 };  /* past two interrupt checks */
    int64_t *scores = malloc(N * sizeof *scores);
    size_t *ends = malloc(N * sizeof *ends);
    unsigned char *members = malloc(N * 3);
    cr_assert(scores != NULL && ends != NULL && members != NULL);
    uint64_t random = 38;
    size_t end = 0;
    for (size_t i = 0; i < N; i++) {
        scores[i] = (int64_t)(next_random(&random) % 40) - 20;
        for (uint64_t k = next_random(&random) % 4; k > 0; k--) {
            members[end++] = (unsigned char)next_random(&random);
        }
        ends[i] = end;
    }
    dpsel_partial *one = NULL, *batch = NULL, *empty = NULL;
    cr_assert_eq(dpsel_partial_new(&one, &p), DPSEL_OK);
    cr_assert_eq(dpsel_partial_new(&batch, &p), DPSEL_OK);
    cr_assert_eq(dpsel_partial_new(&empty, &p), DPSEL_OK);
    dpsel_rng a = seeded_rng(11), b = seeded_rng(11);
    for (size_t i = 0; i < N; i++) {
        size_t start = i == 0 ? 0 : ends[i - 1];
        cr_assert_eq(dpsel_partial_add(one, scores[i], members + start, ends[i] - start, &a),
                     DPSEL_OK);
    }
    cr_assert_eq(dpsel_partial_add_scores(batch, scores, 0, NULL, NULL, &b), DPSEL_OK);
    cr_assert_eq(dpsel_partial_add_scores(batch, scores, N, members, ends, &b), DPSEL_OK);
    size_t sa = 0, sb = 0;
    unsigned char *ma = serialised(one, &sa), *mb = serialised(batch, &sb);
    cr_expect(sa == sb && memcmp(ma, mb, sa) == 0, "the batch's state is the adds'");
    cr_expect_eq(next_word(&a), next_word(&b), "the same random bits drawn");
    /* No ends: every member empty. */
    cr_assert_eq(dpsel_partial_add_scores(empty, scores, 5, NULL, NULL, &b), DPSEL_OK);
    cr_expect_eq(dpsel_partial_count(empty), 5);
    free(ma);
    free(mb);
    dpsel_partial_free(one);
    dpsel_partial_free(batch);
    dpsel_partial_free(empty);
    free(scores);
    free(ends);
    free(members);
}

Test(partial, batch_errors)
{
    dpsel_params p = base_params(1, 1, 1, 0);
    dpsel_rng rng = seeded_rng(5);
    dpsel_partial *s = NULL;
    cr_assert_eq(dpsel_partial_new(&s, &p), DPSEL_OK);
    const int64_t scores[] = { 3, 1, 2 };
    const unsigned char bytes[] = "abcdef";
    const size_t ends[] = { 2, 4, 6 }, decreasing[] = { 2, 1, 6 };
    const size_t too_long[] = { 2, 3 + DPSEL_PARTIAL_MEMBER_MAX, 6 };
    cr_expect_eq(dpsel_partial_add_scores(NULL, scores, 3, bytes, ends, &rng), DPSEL_ENULL);
    cr_expect_eq(dpsel_partial_add_scores(s, scores, 3, bytes, ends, NULL), DPSEL_ENULL);
    cr_expect_eq(dpsel_partial_add_scores(s, NULL, 3, bytes, ends, &rng), DPSEL_ENULL);
    cr_expect_eq(dpsel_partial_add_scores(s, scores, 3, NULL, ends, &rng), DPSEL_ENULL);
    cr_expect_eq(dpsel_partial_add_scores(s, scores, 3, bytes, decreasing, &rng), DPSEL_ERANGE);
    cr_expect_eq(dpsel_partial_add_scores(s, scores, 3, bytes, too_long, &rng), DPSEL_ERANGE);
    /* Refused before any candidate is added, and the state still usable. */
    cr_expect_eq(dpsel_partial_count(s), 0);
    cr_expect_eq(dpsel_partial_add_scores(s, scores, 3, bytes, ends, &rng), DPSEL_OK);
    cr_expect_eq(dpsel_partial_count(s), 3);
    /* Cancelled at the second check (after 8192 candidates): the state fails. */
    enum { N = 10000 };
    int64_t *many = calloc(N, sizeof *many);
    cr_assert(many != NULL);
    int calls = 0;
    cr_assert_eq(dpsel_rng_set_interrupt(&rng, stop_second, &calls), DPSEL_OK);
    cr_expect_eq(dpsel_partial_add_scores(s, many, N, NULL, NULL, &rng), DPSEL_ECANCELED);
    cr_expect_eq(calls, 2);
    cr_expect_eq(dpsel_partial_count(s), 3 + 8191);
    cr_expect_eq(dpsel_partial_add_scores(s, scores, 1, NULL, NULL, &rng), DPSEL_ERANGE);
    free(many);
    dpsel_partial_free(s);
}
