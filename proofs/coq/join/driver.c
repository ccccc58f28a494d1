/* SPDX-License-Identifier: ISC */
/* The C side of the Coq join (proofs/coq/README.md): reads the cases that
 * the extracted Coq reference functions wrote (reference_cases.ml), runs the
 * C function of each on the same bits through a custom source, and reports
 * every case whose release or number of bits read differs.  Exit status 0
 * only if every case agrees and the count on the "end" line matches. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/coin.h"
#include "core/em.h"
#include "core/pf.h"
#include "core/uniform.h"

enum { MAX_LINE = 4096, MAX_DIGITS = 256, MAX_POWERS = 8, MAX_CANDIDATES = 64 };

/* The bits of one case, read one at a time; a read past the end fails. */
typedef struct {
    const char *bits;
    size_t length;
    size_t read;
} bit_string;

static int next_bit(void *context, unsigned *bit)
{
    bit_string *s = context;
    if (s->read == s->length) {
        return 1;
    }
    *bit = (unsigned)(s->bits[s->read++] - '0');
    return 0;
}

/* The tokens of a line, in order. */
typedef struct {
    char *rest;
    int bad;
} tokens;

static const char *next_token(tokens *t)
{
    char *token = strtok_r(NULL, " \n", &t->rest);
    if (token == NULL) {
        t->bad = 1;
        return "";
    }
    return token;
}

static uint64_t next_number(tokens *t)
{
    char *end;
    const char *token = next_token(t);
    uint64_t value = strtoull(token, &end, 10);
    if (*token == '\0' || *end != '\0') {
        t->bad = 1;
    }
    return value;
}

/* "-" is the empty string of bits. */
static const char *next_bits(tokens *t, size_t *length)
{
    const char *bits = next_token(t);
    if (strcmp(bits, "-") == 0) {
        bits = "";
    }
    *length = strlen(bits);
    if (strspn(bits, "01") != *length) {
        t->bad = 1;
    }
    return bits;
}

/* A dyadic's lead and digits, the digits packed from the top of each word. */
typedef struct {
    uint64_t words[MAX_DIGITS / 64];
    dpsel_dyadic t;
} stored_dyadic;

static void next_dyadic(tokens *t, stored_dyadic *d)
{
    memset(d->words, 0, sizeof d->words);
    d->t.lead = next_number(t);
    size_t ndigits;
    const char *digits = next_bits(t, &ndigits);
    if (ndigits > MAX_DIGITS) {
        t->bad = 1;
        return;
    }
    for (size_t i = 0; i < ndigits; i++) {
        d->words[i / 64] |= (uint64_t)(digits[i] - '0') << (63 - i % 64);
    }
    d->t.words = d->words;
    d->t.ndigits = ndigits;
}

typedef struct {
    stored_dyadic stored[MAX_POWERS];
    dpsel_dyadic powers[MAX_POWERS];
    unsigned npowers;
} stored_table;

static void next_table(tokens *t, stored_table *table)
{
    uint64_t npowers = next_number(t);
    if (npowers == 0 || npowers > MAX_POWERS) {
        t->bad = 1;
        return;
    }
    table->npowers = (unsigned)npowers;
    for (unsigned i = 0; i < table->npowers; i++) {
        next_dyadic(t, &table->stored[i]);
        table->powers[i] = table->stored[i].t;
    }
}

static size_t next_scores(tokens *t, int64_t *scores)
{
    uint64_t n = next_number(t);
    if (n == 0 || n > MAX_CANDIDATES) {
        t->bad = 1;
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        scores[i] = (int64_t)next_number(t);
    }
    return (size_t)n;
}

/* The release in the reference's words; value is printed by the caller. */
static void describe(char *out, size_t size, int rc, const char *value, size_t read)
{
    if (rc == DPSEL_OK) {
        snprintf(out, size, "ok %s %zu", value, read);
    } else if (rc == DPSEL_EUNLIKELY) {
        snprintf(out, size, "unlikely %zu", read);
    } else if (rc == DPSEL_ERANDOM) {
        snprintf(out, size, "random");
    } else {
        snprintf(out, size, "error %d", rc);
    }
}

/* Runs the C function a line names; 0 if the line is malformed. */
static int run_case(const char *sampler, tokens *t, bit_string *bits, char *out, size_t size)
{
    dpsel_rng rng;
    char value[MAX_LINE] = "";
    int rc;
    stored_dyadic coin;
    stored_table table;
    int64_t scores[MAX_CANDIDATES];
    size_t scratch[MAX_CANDIDATES];
    if (strcmp(sampler, "coin") == 0) {
        next_dyadic(t, &coin);
        uint64_t scale = next_number(t);
        bits->bits = next_bits(t, &bits->length);
        if (t->bad || scale > coin.t.lead || dpsel_rng_init_custom(&rng, next_bit, bits) != DPSEL_OK) {
            return 0;
        }
        int heads;
        rc = dpsel_core_coin_dyadic_scaled(&rng, &coin.t, scale, &heads);
        snprintf(value, sizeof value, "%d", heads);
    } else if (strcmp(sampler, "power") == 0) {
        next_table(t, &table);
        uint64_t g = next_number(t);
        uint64_t scale = next_number(t);
        bits->bits = next_bits(t, &bits->length);
        if (t->bad || g >> table.npowers != 0 || dpsel_rng_init_custom(&rng, next_bit, bits) != DPSEL_OK) {
            return 0;
        }
        int heads;
        rc = dpsel_core_coin_power_scaled(&rng, table.powers, table.npowers, g, scale, &heads);
        snprintf(value, sizeof value, "%d", heads);
    } else if (strcmp(sampler, "uniform") == 0) {
        uint64_t k = next_number(t);
        bits->bits = next_bits(t, &bits->length);
        if (t->bad || k == 0 || dpsel_rng_init_custom(&rng, next_bit, bits) != DPSEL_OK) {
            return 0;
        }
        uint64_t drawn;
        rc = dpsel_core_uniform(&rng, k, &drawn);
        snprintf(value, sizeof value, "%" PRIu64, drawn);
    } else if (strcmp(sampler, "shuffle") == 0) {
        uint64_t n = next_number(t);
        bits->bits = next_bits(t, &bits->length);
        if (t->bad || n == 0 || n > MAX_CANDIDATES || dpsel_rng_init_custom(&rng, next_bit, bits) != DPSEL_OK) {
            return 0;
        }
        /* dpsel_core_pf_hardened's first loop: the whole shuffle */
        rc = DPSEL_OK;
        for (size_t i = 0; i < n; i++) {
            scratch[i] = i;
        }
        for (size_t i = 0; i < n && rc == DPSEL_OK; i++) {
            rc = dpsel_core_shuffle_step(&rng, scratch, (size_t)n, i);
        }
        size_t used = 0;
        for (size_t i = 0; i < n; i++) {
            used += (size_t)snprintf(value + used, sizeof value - used, i ? ",%zu" : "%zu", scratch[i]);
        }
    } else if (strcmp(sampler, "em") == 0 || strcmp(sampler, "pf") == 0) {
        next_table(t, &table);
        uint64_t cap = next_number(t);
        size_t n = next_scores(t, scores);
        bits->bits = next_bits(t, &bits->length);
        if (t->bad || cap >> table.npowers != 0 || dpsel_rng_init_custom(&rng, next_bit, bits) != DPSEL_OK) {
            return 0;
        }
        dpsel_decay decay = { table.powers, table.npowers, cap };
        size_t index = 0;
        rc = sampler[0] == 'e' ? dpsel_core_em(&rng, &decay, scores, n, &index)
                               : dpsel_core_pf(&rng, &decay, scores, n, scratch, &index);
        snprintf(value, sizeof value, "%zu", index);
    } else {
        return 0;
    }
    describe(out, size, rc, value, bits->read);
    return 1;
}

int main(void)
{
    char line[MAX_LINE];
    unsigned long cases = 0, differ = 0;
    while (fgets(line, sizeof line, stdin) != NULL) {
        if (strchr(line, '\n') == NULL) {
            fprintf(stderr, "coq-join: line %lu longer than %d characters\n", cases + 1, MAX_LINE);
            return 1;
        }
        tokens t = { NULL, 0 };
        const char *sampler = strtok_r(line, " \n", &t.rest);
        if (sampler != NULL && strcmp(sampler, "end") == 0) {
            unsigned long expected = (unsigned long)next_number(&t);
            if (t.bad || expected != cases) {
                fprintf(stderr, "coq-join: %lu cases read, the reference wrote %lu\n", cases, expected);
                return 1;
            }
            printf("coq-join: %lu cases, %lu differ\n", cases, differ);
            return differ != 0;
        }
        char got[MAX_LINE];
        bit_string bits = { "", 0, 0 };
        if (sampler == NULL || !run_case(sampler, &t, &bits, got, sizeof got)) {
            fprintf(stderr, "coq-join: malformed case %lu\n", cases + 1);
            return 1;
        }
        /* the rest of the line is the reference's release */
        const char *want = t.rest == NULL ? "" : t.rest;
        size_t want_length = strcspn(want, "\n");
        cases++;
        if (strlen(got) != want_length || strncmp(got, want, want_length) != 0) {
            if (differ++ < 20) {
                fprintf(stderr, "coq-join: %s on %s: C %s, Coq %.*s\n", sampler, bits.bits, got,
                        (int)want_length, want);
            }
        }
    }
    fprintf(stderr, "coq-join: the reference's cases ended without their count\n");
    return 1;
}
