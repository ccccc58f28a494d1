/* SPDX-License-Identifier: ISC */
/* libFuzzer harness: the random source's state under arbitrary bytes,
 * copies and interleavings.  Two slots: `source` is initialised
 * as an OS, seeded or custom source; `copy` receives struct copies of it.
 * The input is a program, one operation after another (missing bytes read
 * as zero):
 *   byte 0      the source's kind: 0 OS, 1 seeded, 2 custom (the custom
 *               source replays the whole input, bit by bit: fuzz.h)
 *   then ops    opcode byte: low 3 bits the operation, bit 3 the slot
 *     0 bit     1 zeros (limit: a byte, 255 = UINT64_MAX)
 *     2 bits (count: a byte mod 70, so counts over the contract's 63 too)
 *     3 copy    the source into the copy slot (struct assignment)
 *     4 poke    arbitrary bytes into the slot's buffered state: offset (2
 *               bytes), length (1), then the bytes
 *     5 kind    an arbitrary byte as the slot's kind
 *     6 select  PF or EM, plain or hardened, on 3 fixed scores
 *     7 renew   wipe the slot and initialise it again (kind from a byte)
 * The pointers inside a source (its OS page, a custom bit function) are
 * not fuzzed: C cannot check a pointer, and the header's contract is that
 * only dpsel writes them.
 * Checks: no memory error (ASan); every read returns DPSEL_OK with a value
 * in range, or DPSEL_ERANDOM; a copy of an OS source never returns bits. */
#include <string.h>

#include "fuzz.h"
#include "core/core.h"

enum { KIND_OS, KIND_SEEDED, KIND_CUSTOM };  /* the input's choice */
#define RNG_OS_KIND 1                         /* RNG_OS of src/base/rng.c */

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t pos;
} reader;

static unsigned read_byte(reader *r)
{
    return r->pos < r->size ? r->data[r->pos++] : 0;
}

typedef struct {
    dpsel_rng source, copy;
    int source_kind;  /* as initialised, restored before a wipe */
    replay bits;
    const dpsel_selector *selector;
} slots;

static void init_slot(slots *s, dpsel_rng *rng, unsigned kind)
{
    static const unsigned char seed[] = "fuzz";
    int rc;
    switch (kind % 3) {
    case KIND_OS: rc = dpsel_rng_init_os(rng); break;
    case KIND_SEEDED: rc = dpsel_rng_init_seeded(rng, seed, sizeof seed); break;
    default: rc = dpsel_rng_init_custom(rng, replay_bit, &s->bits); break;
    }
    FUZZ_CHECK(rc == DPSEL_OK);
    if (rng == &s->source) {
        s->source_kind = rng->kind_;
    }
}

/* Wipes a slot; the source gets its kind back first, so that an OS page
 * whose kind byte was fuzzed is still released (the harness would
 * otherwise run out of mappings). */
static void wipe_slot(slots *s, dpsel_rng *rng)
{
    if (rng == &s->source) {
        rng->kind_ = s->source_kind;
    }
    dpsel_rng_wipe(rng);
}

/* A copy of an OS source: it must never give a bit. */
static int is_os_copy(const dpsel_rng *rng)
{
    return rng->kind_ == RNG_OS_KIND && rng->owner_ != rng && rng->owner_ != NULL;
}

/* The state poke writes into: the OS page of the slot's own source, or the
 * seeded state (for any other kind, it is not read). */
static dpsel_rng_state_ *poked_state(dpsel_rng *rng)
{
    return rng->owner_ == rng && rng->os_state_ != NULL ? rng->os_state_ : &rng->seeded_;
}

static void poke(reader *r, dpsel_rng *rng)
{
    unsigned char *state = (unsigned char *)poked_state(rng);
    size_t offset = (read_byte(r) | (size_t)read_byte(r) << 8) % sizeof(dpsel_rng_state_);
    size_t length = read_byte(r);
    for (size_t i = 0; i < length && offset + i < sizeof(dpsel_rng_state_); i++) {
        state[offset + i] = (unsigned char)read_byte(r);
    }
}

static void read_from(reader *r, dpsel_rng *rng, unsigned operation)
{
    int refused = is_os_copy(rng);
    uint64_t value = 0;
    unsigned bit = 0;
    int rc;
    if (operation == 0) {
        rc = dpsel_internal_rng_bit(rng, &bit);
        FUZZ_CHECK(rc != DPSEL_OK || bit <= 1);
    } else if (operation == 1) {
        unsigned byte = read_byte(r);
        uint64_t limit = byte == 255 ? UINT64_MAX : byte;
        rc = dpsel_internal_rng_zeros(rng, limit, &value);
        FUZZ_CHECK(rc != DPSEL_OK || value <= limit);
        refused = refused && limit > 0;
    } else {
        unsigned count = read_byte(r) % 70;
        rc = dpsel_internal_rng_bits(rng, count, &value);
        FUZZ_CHECK(rc != DPSEL_OK || (count < 64 && value >> count == 0));
        refused = refused && count > 0;
    }
    FUZZ_CHECK(rc == DPSEL_OK || rc == DPSEL_ERANDOM);
    FUZZ_CHECK(!refused || rc == DPSEL_ERANDOM);
}

static void select_with(reader *r, const dpsel_selector *selector, dpsel_rng *rng)
{
    static const int64_t scores[3] = { 5, -1, 5 };
    unsigned how = read_byte(r);
    dpsel_mechanism mechanism = how & 1 ? DPSEL_EM : DPSEL_PF;
    size_t index = 99;
    int rc = how & 2 ? dpsel_select_hardened(selector, mechanism, scores, 3, rng, &index)
                     : dpsel_select(selector, mechanism, scores, 3, rng, &index);
    FUZZ_CHECK(rc == DPSEL_OK || rc == DPSEL_ERANDOM || rc == DPSEL_EUNLIKELY);
    FUZZ_CHECK(rc == DPSEL_OK ? index < 3 : index == 99);
    FUZZ_CHECK(!is_os_copy(rng) || rc != DPSEL_OK);
}

static void run(reader *r, slots *s)
{
    while (r->pos < r->size) {
        unsigned opcode = read_byte(r);
        dpsel_rng *rng = opcode & 8 ? &s->copy : &s->source;
        unsigned operation = opcode & 7;
        if (operation <= 2) {
            read_from(r, rng, operation);
        } else if (operation == 3) {
            dpsel_rng_wipe(&s->copy);
            s->copy = s->source;
        } else if (operation == 4) {
            poke(r, rng);
        } else if (operation == 5) {
            rng->kind_ = (int)(signed char)read_byte(r);
        } else if (operation == 6) {
            select_with(r, s->selector, rng);
        } else {
            /* a copy is only wiped: initialising it would not release the
             * page it may name, which belongs to the source */
            wipe_slot(s, rng);
            if (rng == &s->source) {
                init_slot(s, rng, read_byte(r));
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static dpsel_selector *selector;
    if (selector == NULL) {
        dpsel_params p;
        FUZZ_CHECK(dpsel_params_from_base(&p, 3, 2, 1, 0) == DPSEL_OK);
        FUZZ_CHECK(dpsel_selector_new(&selector, &p) == DPSEL_OK);
    }
    slots s;
    memset(&s, 0, sizeof s);
    s.bits = (replay){ data, size * 8, 0 };
    s.selector = selector;
    reader r = { data, size, 0 };
    init_slot(&s, &s.source, read_byte(&r));
    run(&r, &s);
    wipe_slot(&s, &s.copy);
    wipe_slot(&s, &s.source);
    return 0;
}
