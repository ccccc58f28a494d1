/*
 * Random sources: the OS CSPRNG (getrandom), a seeded ChaCha20 stream for
 * tests and reproducible audits (libsodium), and caller-supplied bit sources.
 * The samplers read them through three functions that consume the same bit
 * stream, most significant bit of each byte first: dpsel_rng_bit() (one bit),
 * dpsel_rng_zeros() (a run of zeros and the 1 that ends it) and
 * dpsel_rng_bits() (count bits as an integer).  The last two take whole runs
 * from the current 64-bit word of an OS or seeded source, and go through
 * dpsel_rng_bit() for a custom source; either way they read exactly the bits,
 * and report exactly the errors, of the equivalent loop of dpsel_rng_bit()
 * calls (spec/trusted.h, tests/test_rng_bits.c).
 */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include <sodium.h>

#include "core/core.h"

enum { RNG_UNSET = 0, RNG_OS = 1, RNG_SEEDED = 2, RNG_CUSTOM = 3 };

#define SEED_MAX 64u

static void reset(dpsel_rng *rng, int kind)
{
    sodium_memzero(rng, sizeof *rng);
    rng->kind_ = kind;
    rng->buffer_pos_ = sizeof rng->buffer_;  /* empty: refilled on first use */
}

int dpsel_rng_init_os(dpsel_rng *rng)
{
    if (rng == NULL) {
        return DPSEL_ENULL;
    }
    if (sodium_init() < 0) {
        return DPSEL_ERANDOM;
    }
    reset(rng, RNG_OS);
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
    if (sodium_init() < 0) {
        return DPSEL_ERANDOM;
    }
    reset(rng, RNG_SEEDED);
    /* key = BLAKE2b-256(domain || seed_size || seed): distinct seeds, and
     * seeds of distinct lengths, give independent keys. */
    unsigned char length_byte = (unsigned char)seed_size;
    crypto_generichash_init(&hash, NULL, 0, sizeof rng->key_);
    crypto_generichash_update(&hash, (const unsigned char *)domain, sizeof domain - 1);
    crypto_generichash_update(&hash, &length_byte, 1);
    crypto_generichash_update(&hash, seed, seed_size);
    crypto_generichash_final(&hash, rng->key_, sizeof rng->key_);
    sodium_memzero(&hash, sizeof hash);
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

void dpsel_rng_wipe(dpsel_rng *rng)
{
    if (rng != NULL) {
        reset(rng, RNG_UNSET);
    }
}

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
 * given out.  As arc4random does; spec/trusted-base.md. */
#define OS_REKEY_REFILLS 256u

static int fill_from_os(dpsel_rng *rng)
{
    static const unsigned char nonce[crypto_stream_chacha20_NONCEBYTES] = { 0 };
    if (rng->block_ % OS_REKEY_REFILLS == 0) {
        int rc = fill_from_getrandom(rng->key_, sizeof rng->key_);
        if (rc != DPSEL_OK) {
            return rc;
        }
    }
    unsigned char next_key[sizeof rng->key_];
    memset(rng->buffer_, 0, sizeof rng->buffer_);
    /* block 0 gives the next key, blocks 1 .. 4 the buffer */
    if (crypto_stream_chacha20(next_key, sizeof next_key, nonce, rng->key_) != 0 ||
        crypto_stream_chacha20_xor_ic(rng->buffer_, rng->buffer_, sizeof rng->buffer_,
                                      nonce, 1, rng->key_) != 0) {
        sodium_memzero(next_key, sizeof next_key);
        return DPSEL_ERANDOM;
    }
    memcpy(rng->key_, next_key, sizeof rng->key_);
    sodium_memzero(next_key, sizeof next_key);
    rng->block_++;
    return DPSEL_OK;
}

/* The next 256 bytes of the ChaCha20 keystream (nonce 0, 64-byte blocks). */
static int fill_from_stream(dpsel_rng *rng)
{
    static const unsigned char nonce[crypto_stream_chacha20_NONCEBYTES] = { 0 };
    uint64_t blocks = sizeof rng->buffer_ / 64;
    memset(rng->buffer_, 0, sizeof rng->buffer_);
    if (crypto_stream_chacha20_xor_ic(rng->buffer_, rng->buffer_, sizeof rng->buffer_,
                                      nonce, rng->block_, rng->key_) != 0) {
        return DPSEL_ERANDOM;
    }
    rng->block_ += blocks;
    return DPSEL_OK;
}

/* The next 8 bytes of the buffer as one word, the first byte in its high
 * bits, so that the word's bits from the top are the stream's bits. */
static int next_word(dpsel_rng *rng, uint64_t *word)
{
    if (rng->buffer_pos_ == sizeof rng->buffer_) {
        int rc = rng->kind_ == RNG_OS ? fill_from_os(rng) : fill_from_stream(rng);
        if (rc != DPSEL_OK) {
            return rc;
        }
        rng->buffer_pos_ = 0;
    }
    uint64_t value = 0;
    for (unsigned i = 0; i < 8; i++) {
        value = value << 8 | rng->buffer_[rng->buffer_pos_ + i];
    }
    memset(rng->buffer_ + rng->buffer_pos_, 0, 8);  /* a used bit is not kept */
    rng->buffer_pos_ += 8;
    *word = value;
    return DPSEL_OK;
}

/* OS and seeded sources are read from the buffer; a custom source through its
 * bit function, and any other kind (wiped, never initialised) gives no bits. */
static int is_buffered(const dpsel_rng *rng)
{
    return rng->kind_ == RNG_OS || rng->kind_ == RNG_SEEDED;
}

/* Makes sure the current word of a buffered source has an unread bit. */
static int ensure_unread_bit(dpsel_rng *rng)
{
    if (rng->bits_left_ == 0) {
        int rc = next_word(rng, &rng->current_word_);
        if (rc != DPSEL_OK) {
            return rc;
        }
        rng->bits_left_ = 64;
    }
    return DPSEL_OK;
}

/* The low `count` bits of a word, 0 <= count <= 64. */
static uint64_t low_bits(uint64_t word, unsigned count)
{
    return count == 64 ? word : word & ((UINT64_C(1) << count) - 1u);
}

int dpsel_rng_bit(dpsel_rng *rng, unsigned *bit)
{
    if (rng->kind_ == RNG_CUSTOM) {
        unsigned b = 0;
        if (rng->bit_fn_(rng->bit_context_, &b) != 0 || b > 1) {
            return DPSEL_ERANDOM;
        }
        *bit = b;
        return DPSEL_OK;
    }
    if (!is_buffered(rng)) {
        return DPSEL_ERANDOM;  /* wiped or never initialised */
    }
    int rc = ensure_unread_bit(rng);
    if (rc != DPSEL_OK) {
        return rc;
    }
    rng->bits_left_--;
    *bit = (unsigned)(rng->current_word_ >> rng->bits_left_) & 1u;
    return DPSEL_OK;
}

/* dpsel_rng_zeros as the loop of dpsel_rng_bit calls it stands for. */
static int zeros_bit_by_bit(dpsel_rng *rng, uint64_t limit, uint64_t *zeros)
{
    uint64_t count = 0;
    while (count < limit) {
        unsigned bit;
        int rc = dpsel_rng_bit(rng, &bit);
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

/* dpsel_rng_zeros on a buffered source: the run of zeros in the unread bits
 * of the current word is found with one count of leading zeros. */
static int zeros_from_buffer(dpsel_rng *rng, uint64_t limit, uint64_t *zeros)
{
    uint64_t count = 0;
    while (count < limit) {
        int rc = ensure_unread_bit(rng);
        if (rc != DPSEL_OK) {
            return rc;
        }
        uint64_t unread = low_bits(rng->current_word_, rng->bits_left_);
        /* zeros before the first unread 1, or to the end of the word */
        unsigned run = unread == 0 ? rng->bits_left_
                                   : rng->bits_left_ - 1u - (63u - (unsigned)__builtin_clzll(unread));
        if (limit - count <= run) {
            rng->bits_left_ -= (unsigned)(limit - count);
            count = limit;
        } else {
            rng->bits_left_ -= run;
            count += run;
            if (unread != 0) {
                rng->bits_left_--;  /* the 1 that ends the run */
                break;
            }
        }
    }
    *zeros = count;
    return DPSEL_OK;
}

int dpsel_rng_zeros(dpsel_rng *rng, uint64_t limit, uint64_t *zeros)
{
    return is_buffered(rng) ? zeros_from_buffer(rng, limit, zeros)
                            : zeros_bit_by_bit(rng, limit, zeros);
}

/* dpsel_rng_bits as the loop of dpsel_rng_bit calls it stands for. */
static int bits_bit_by_bit(dpsel_rng *rng, unsigned count, uint64_t *value)
{
    uint64_t read = 0;
    for (unsigned i = 0; i < count; i++) {
        unsigned bit;
        int rc = dpsel_rng_bit(rng, &bit);
        if (rc != DPSEL_OK) {
            return rc;
        }
        read = read << 1 | bit;
    }
    *value = read;
    return DPSEL_OK;
}

/* dpsel_rng_bits on a buffered source: as many unread bits of the current
 * word at a time as are wanted. */
static int bits_from_buffer(dpsel_rng *rng, unsigned count, uint64_t *value)
{
    uint64_t read = 0;
    while (count > 0) {
        int rc = ensure_unread_bit(rng);
        if (rc != DPSEL_OK) {
            return rc;
        }
        /* count <= 63, so take < 64 and the shifts are defined */
        unsigned take = count < rng->bits_left_ ? count : rng->bits_left_;
        rng->bits_left_ -= take;
        uint64_t chunk = low_bits(rng->current_word_ >> rng->bits_left_, take);
        read = read << take | chunk;
        count -= take;
    }
    *value = read;
    return DPSEL_OK;
}

int dpsel_rng_bits(dpsel_rng *rng, unsigned count, uint64_t *value)
{
    return is_buffered(rng) ? bits_from_buffer(rng, count, value)
                            : bits_bit_by_bit(rng, count, value);
}
