/* SPDX-License-Identifier: ISC */
/*
 * Random sources: the OS CSPRNG (getrandom), a seeded ChaCha20 stream for
 * tests and reproducible audits (libsodium), and caller-supplied bit sources.
 * The samplers read them through three functions that consume the same bit
 * stream, most significant bit of each byte first: dpsel_internal_rng_bit() (one bit),
 * dpsel_internal_rng_zeros() (a run of zeros and the 1 that ends it) and
 * dpsel_internal_rng_bits() (count bits as an integer).  On an OS or seeded source
 * the last two take whole runs of the current 64-bit word; on a custom
 * source they go through dpsel_internal_rng_bit().  Either way they read exactly the
 * bits, and report exactly the errors, of the equivalent loop of
 * dpsel_internal_rng_bit() calls (spec/trusted.h, tests/test_rng_bits.c).
 *
 * What a hostile caller can do to a source, and what each read does about
 * it (spec/trusted-base.md, "Fork, copies and threads"):
 *   - fork: the OS source's state is a page the kernel zeroes in a child
 *     (MADV_WIPEONFORK), and an all-zero state keys itself afresh from
 *     getrandom on its first read;
 *   - copy: an OS source remembers the address it was initialised at, and a
 *     read from any other address is refused;
 *   - corruption (two threads at once, stray writes): every read loads the
 *     positions once, checks them, and works on the checked local copies, so
 *     a broken invariant is DPSEL_ERANDOM, never a read outside the state.
 * libsodium is used for ChaCha20, BLAKE2b and sodium_memzero only, none of
 * which needs sodium_init(); dpsel never calls sodium_init() or libsodium's
 * randombytes, which abort the process when the OS source fails.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include <sodium.h>

#include "../core/core.h"
#include "interrupt.h"

enum { RNG_UNSET = 0, RNG_OS = 1, RNG_SEEDED = 2, RNG_CUSTOM = 3 };

#define SEED_MAX 64u
#define BUFFER_SIZE ((unsigned)sizeof(((dpsel_rng_state_ *)0)->buffer_))
#define WORD_BYTES 8u
#define WORD_BITS 64u

/* The readers' small steps run for nearly every bit the samplers read:
 * they are inlined (a call each cost a quarter of a selection's time). */
#define HOT static inline __attribute__((always_inline))

/* ------------------------------------------------------------ life cycle */

static void reset(dpsel_rng *rng, int kind)
{
    sodium_memzero(rng, sizeof *rng);
    rng->kind_ = kind;
}

/* The size of the OS source's page: one page, which holds its state. */
static int os_page_size(size_t *size)
{
    long page = sysconf(_SC_PAGESIZE);
    if (page < (long)sizeof(dpsel_rng_state_)) {
        return DPSEL_ENOMEM;
    }
    *size = (size_t)page;
    return DPSEL_OK;
}

int dpsel_rng_init_os(dpsel_rng *rng)
{
    if (rng == NULL) {
        return DPSEL_ENULL;
    }
    size_t size;
    if (os_page_size(&size) != DPSEL_OK) {
        return DPSEL_ENOMEM;
    }
    void *page = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) {
        return DPSEL_ENOMEM;
    }
    /* A child gets the page zeroed, hence a fresh key; no core dump shows it.
     * A kernel that cannot wipe it on fork is refused: parent and child
     * would share bits. */
    if (madvise(page, size, MADV_WIPEONFORK) != 0 || madvise(page, size, MADV_DONTDUMP) != 0) {
        munmap(page, size);
        return DPSEL_ERANDOM;
    }
    reset(rng, RNG_OS);
    rng->owner_ = rng;
    rng->os_state_ = page;  /* all zeros: keyed from getrandom on first read */
    return DPSEL_OK;
}

int dpsel_rng_init_seeded(dpsel_rng *rng, const unsigned char *seed, size_t seed_size)
{
    static const char domain[] = "dpsel seeded stream v1";
    crypto_generichash_state hash;

    if (rng == NULL || seed == NULL) {
        return DPSEL_ENULL;
    }
    if (seed_size < 1 || seed_size > SEED_MAX) {
        return DPSEL_ERANGE;
    }
    /* key = BLAKE2b-256(domain || seed_size || seed): distinct seeds, and
     * seeds of distinct lengths, give independent keys. */
    unsigned char key[sizeof rng->seeded_.key_];
    unsigned char length_byte = (unsigned char)seed_size;
    int failed = crypto_generichash_init(&hash, NULL, 0, sizeof key) != 0
              || crypto_generichash_update(&hash, (const unsigned char *)domain,
                                           sizeof domain - 1) != 0
              || crypto_generichash_update(&hash, &length_byte, 1) != 0
              || crypto_generichash_update(&hash, seed, seed_size) != 0
              || crypto_generichash_final(&hash, key, sizeof key) != 0;
    sodium_memzero(&hash, sizeof hash);
    if (failed) {
        sodium_memzero(key, sizeof key);
        return DPSEL_EINTERNAL;
    }
    reset(rng, RNG_SEEDED);
    memcpy(rng->seeded_.key_, key, sizeof key);
    sodium_memzero(key, sizeof key);
    return DPSEL_OK;
}

int dpsel_rng_init_custom(dpsel_rng *rng, dpsel_bit_fn fn, void *context)
{
    if (rng == NULL || fn == NULL) {
        return DPSEL_ENULL;
    }
    reset(rng, RNG_CUSTOM);
    rng->bit_fn_ = fn;
    rng->bit_context_ = context;
    return DPSEL_OK;
}

int dpsel_rng_set_interrupt(dpsel_rng *rng, dpsel_interrupt_fn fn, void *context)
{
    if (rng == NULL) {
        return DPSEL_ENULL;
    }
    rng->interrupt_fn_ = fn;
    rng->interrupt_context_ = fn != NULL ? context : NULL;
    return DPSEL_OK;
}

int dpsel_internal_interrupted(const dpsel_rng *rng, uint64_t done, uint64_t total)
{
    if (rng == NULL || rng->interrupt_fn_ == NULL) {
        return DPSEL_OK;
    }
    return rng->interrupt_fn_(rng->interrupt_context_, done, total) != 0 ? DPSEL_ECANCELED
                                                                         : DPSEL_OK;
}

/* An OS source's page is released by the source it belongs to: a copy
 * (another address) must not unmap what the original still uses. */
static int owns_os_page(const dpsel_rng *rng)
{
    return rng->kind_ == RNG_OS && rng->owner_ == rng && rng->os_state_ != NULL;
}

void dpsel_rng_wipe(dpsel_rng *rng)
{
    if (rng == NULL) {
        return;
    }
    size_t size;
    if (owns_os_page(rng) && os_page_size(&size) == DPSEL_OK) {
        sodium_memzero(rng->os_state_, sizeof *rng->os_state_);
        munmap(rng->os_state_, size);
    }
    reset(rng, RNG_UNSET);
}

/* ------------------------------------------------------------- refilling */

/* Fills out[0 .. size - 1] from getrandom, retrying short reads and EINTR. */
static int fill_from_getrandom(unsigned char *out, size_t size)
{
    size_t filled = 0;
    while (filled < size) {
        ssize_t got = getrandom(out + filled, size - filled, 0);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            return DPSEL_ERANDOM;
        }
        filled += (size_t)got;
    }
    return DPSEL_OK;
}

/* The OS source refills its buffer from ChaCha20 under a key of its own,
 * and takes a new key from getrandom every OS_REKEY_REFILLS refills (64 KiB
 * of output): one system call per 64 KiB instead of one per 256 bytes.
 * After every refill the key is replaced by keystream it produced (fast key
 * erasure), so the state never holds what could recompute bits already
 * given out.  As arc4random does; spec/trusted-base.md.  A fresh state
 * (block_ 0: new, or zeroed by fork) starts with a getrandom key. */
#define OS_REKEY_REFILLS 256u

static int fill_from_os(dpsel_rng_state_ *s)
{
    static const unsigned char nonce[crypto_stream_chacha20_NONCEBYTES] = { 0 };
    if (s->block_ % OS_REKEY_REFILLS == 0) {
        int rc = fill_from_getrandom(s->key_, sizeof s->key_);
        if (rc != DPSEL_OK) {
            return rc;
        }
    }
    unsigned char next_key[sizeof s->key_];
    memset(s->buffer_, 0, sizeof s->buffer_);
    /* block 0 gives the next key, blocks 1 .. 4 the buffer */
    if (crypto_stream_chacha20(next_key, sizeof next_key, nonce, s->key_) != 0 ||
        crypto_stream_chacha20_xor_ic(s->buffer_, s->buffer_, sizeof s->buffer_,
                                      nonce, 1, s->key_) != 0) {
        sodium_memzero(next_key, sizeof next_key);
        return DPSEL_ERANDOM;
    }
    memcpy(s->key_, next_key, sizeof s->key_);
    sodium_memzero(next_key, sizeof next_key);
    s->block_++;
    return DPSEL_OK;
}

/* The next 256 bytes of the ChaCha20 keystream (nonce 0, 64-byte blocks). */
static int fill_from_stream(dpsel_rng_state_ *s)
{
    static const unsigned char nonce[crypto_stream_chacha20_NONCEBYTES] = { 0 };
    memset(s->buffer_, 0, sizeof s->buffer_);
    if (crypto_stream_chacha20_xor_ic(s->buffer_, s->buffer_, sizeof s->buffer_,
                                      nonce, s->block_, s->key_) != 0) {
        return DPSEL_ERANDOM;
    }
    s->block_ += sizeof s->buffer_ / 64;
    return DPSEL_OK;
}

/* A position field, loaded once: the value that is checked is the value
 * that is used, even if another thread (a caller's bug) writes the field. */
HOT unsigned load_position(const unsigned *field)
{
    return __atomic_load_n(field, __ATOMIC_RELAXED);
}

/* The next 8 bytes of the buffer as one word, the first byte in its high
 * bits, so that the word's bits from the top are the stream's bits.  The
 * bytes are cleared as they are taken: a used bit is not kept.  Called once
 * per 64 bits: kept out of line, so that the readers stay small enough to
 * inline into the samplers. */
__attribute__((noinline))
static int next_word(int kind, dpsel_rng_state_ *s, uint64_t *word)
{
    unsigned left = load_position(&s->buffer_left_);
    if (left > BUFFER_SIZE || left % WORD_BYTES != 0) {
        return DPSEL_ERANDOM;  /* corrupted state */
    }
    if (left == 0) {
        int rc = kind == RNG_OS ? fill_from_os(s) : fill_from_stream(s);
        if (rc != DPSEL_OK) {
            return rc;
        }
        left = BUFFER_SIZE;
    }
    unsigned pos = BUFFER_SIZE - left;
    uint64_t value = 0;
    for (unsigned i = 0; i < WORD_BYTES; i++) {
        value = value << 8 | s->buffer_[pos + i];
    }
    memset(s->buffer_ + pos, 0, WORD_BYTES);
    s->buffer_left_ = left - WORD_BYTES;
    *word = value;
    return DPSEL_OK;
}

/* ---------------------------------------------------- the current word */

/* The unread bits of the current word, as a local copy of the state's. */
typedef struct {
    unsigned left;    /* 0 .. 64 */
    uint64_t unread;  /* the low `left` bits; the others are 0 */
} cursor;

HOT int cursor_load(const dpsel_rng_state_ *s, cursor *c)
{
    c->left = load_position(&s->bits_left_);
    c->unread = __atomic_load_n(&s->unread_, __ATOMIC_RELAXED);
    if (c->left > WORD_BITS || (c->left < WORD_BITS && c->unread >> c->left != 0)) {
        return DPSEL_ERANDOM;  /* corrupted state */
    }
    return DPSEL_OK;
}

HOT void cursor_store(dpsel_rng_state_ *s, const cursor *c)
{
    s->bits_left_ = c->left;
    s->unread_ = c->unread;
}

/* Makes sure the cursor has an unread bit, taking the next word if not. */
HOT int cursor_fill(int kind, dpsel_rng_state_ *s, cursor *c)
{
    if (c->left == 0) {
        int rc = next_word(kind, s, &c->unread);
        if (rc != DPSEL_OK) {
            return rc;
        }
        c->left = WORD_BITS;
    }
    return DPSEL_OK;
}

/* Takes the next `count` (<= c->left) bits, the first read the most
 * significant, and clears them from the cursor.  No mask is needed: the
 * cursor holds only its `left` unread bits, so the taken ones are those
 * above the `left - count` that stay. */
HOT uint64_t cursor_take(cursor *c, unsigned count)
{
    if (count == 0) {
        return 0;
    }
    unsigned left = c->left - count;  /* <= 63 */
    uint64_t taken = c->unread >> left;
    c->unread ^= taken << left;
    c->left = left;
    return taken;
}

/* ------------------------------------------------------------ the readers */

/* The state an OS or seeded source reads from, or NULL: another kind, a
 * copy of an OS source (not at the address it was initialised at), or a
 * wiped one. */
HOT dpsel_rng_state_ *buffered_state(dpsel_rng *rng)
{
    if (rng->kind_ == RNG_SEEDED) {
        return &rng->seeded_;
    }
    if (rng->kind_ == RNG_OS && rng->owner_ == rng) {
        return rng->os_state_;
    }
    return NULL;
}

/* One bit from a custom source's function. */
static int custom_bit(dpsel_rng *rng, unsigned *bit)
{
    unsigned b = 0;
    if (rng->bit_fn_ == NULL || rng->bit_fn_(rng->bit_context_, &b) != 0 || b > 1) {
        return DPSEL_ERANDOM;
    }
    *bit = b;
    return DPSEL_OK;
}

/* count (<= 63) bits from a buffered source, as many of the current word
 * at a time as are wanted. */
HOT int bits_from_buffer(int kind, dpsel_rng_state_ *s, unsigned count, uint64_t *value)
{
    cursor c;
    int rc = cursor_load(s, &c);
    if (rc != DPSEL_OK) {
        return rc;
    }
    uint64_t read = 0;
    while (count > 0) {
        rc = cursor_fill(kind, s, &c);
        if (rc != DPSEL_OK) {
            break;
        }
        /* count <= 63, so take < 64 and the shift is defined */
        unsigned take = count < c.left ? count : c.left;
        read = read << take | cursor_take(&c, take);
        count -= take;
    }
    cursor_store(s, &c);
    if (rc == DPSEL_OK) {
        *value = read;
    }
    return rc;
}

int dpsel_internal_rng_bit(dpsel_rng *rng, unsigned *bit)
{
    if (rng->kind_ == RNG_CUSTOM) {
        return custom_bit(rng, bit);
    }
    dpsel_rng_state_ *s = buffered_state(rng);
    if (s == NULL) {
        return DPSEL_ERANDOM;
    }
    uint64_t value;
    int rc = bits_from_buffer(rng->kind_, s, 1, &value);
    if (rc == DPSEL_OK) {
        *bit = (unsigned)value;
    }
    return rc;
}

/* dpsel_internal_rng_zeros as the loop of dpsel_internal_rng_bit calls it stands for. */
static int zeros_bit_by_bit(dpsel_rng *rng, uint64_t limit, uint64_t *zeros)
{
    uint64_t count = 0;
    while (count < limit) {
        unsigned bit;
        int rc = dpsel_internal_rng_bit(rng, &bit);
        if (rc != DPSEL_OK) {
            return rc;
        }
        if (bit != 0) {
            break;
        }
        count++;
    }
    *zeros = count;
    return DPSEL_OK;
}

/* dpsel_internal_rng_zeros on a buffered source: the run of zeros in the unread bits
 * of the current word is found with one count of leading zeros. */
HOT int zeros_from_buffer(int kind, dpsel_rng_state_ *s, uint64_t limit, uint64_t *zeros)
{
    cursor c;
    int rc = cursor_load(s, &c);
    if (rc != DPSEL_OK) {
        return rc;
    }
    uint64_t count = 0;
    while (count < limit) {
        rc = cursor_fill(kind, s, &c);
        if (rc != DPSEL_OK) {
            break;
        }
        /* zeros before the first unread 1, or to the end of the word */
        unsigned run = c.unread == 0 ? c.left
                                     : c.left - 1u - (63u - (unsigned)__builtin_clzll(c.unread));
        if (limit - count <= run) {
            cursor_take(&c, (unsigned)(limit - count));
            count = limit;
        } else {
            cursor_take(&c, run);
            count += run;
            if (c.unread != 0) {
                cursor_take(&c, 1);  /* the 1 that ends the run */
                break;
            }
        }
    }
    cursor_store(s, &c);
    if (rc == DPSEL_OK) {
        *zeros = count;
    }
    return rc;
}

/* A custom, copied or wiped source goes bit by bit: the first bit asked of
 * it fails, and what asks for no bit succeeds, as the loop would. */
int dpsel_internal_rng_zeros(dpsel_rng *rng, uint64_t limit, uint64_t *zeros)
{
    dpsel_rng_state_ *s = buffered_state(rng);
    return s == NULL ? zeros_bit_by_bit(rng, limit, zeros)
                     : zeros_from_buffer(rng->kind_, s, limit, zeros);
}

/* dpsel_internal_rng_bits as the loop of dpsel_internal_rng_bit calls it stands for. */
static int bits_bit_by_bit(dpsel_rng *rng, unsigned count, uint64_t *value)
{
    uint64_t read = 0;
    for (unsigned i = 0; i < count; i++) {
        unsigned bit;
        int rc = dpsel_internal_rng_bit(rng, &bit);
        if (rc != DPSEL_OK) {
            return rc;
        }
        read = read << 1 | bit;
    }
    *value = read;
    return DPSEL_OK;
}

int dpsel_internal_rng_bits(dpsel_rng *rng, unsigned count, uint64_t *value)
{
    if (count >= WORD_BITS) {
        return DPSEL_ERANDOM;  /* outside the contract: never a partial word */
    }
    dpsel_rng_state_ *s = buffered_state(rng);
    return s == NULL ? bits_bit_by_bit(rng, count, value)
                     : bits_from_buffer(rng->kind_, s, count, value);
}
