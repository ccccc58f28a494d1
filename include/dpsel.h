/* SPDX-License-Identifier: ISC */
/*
 * dpsel -- exact differentially private selection.
 *
 * dpsel chooses one of n candidates with the exponential mechanism (EM) or
 * permute-and-flip (PF), so that the released index reveals little about any
 * one person's data.  Every probability the samplers realise equals the
 * specified distribution exactly: the privacy parameter is a dyadic rational
 * decay beta = x / 2^y per unit of score, every weight beta^g is a finite
 * binary fraction computed exactly with MPFR, and every random decision is
 * taken from uniform random bits without bias.  No floating point lies on the
 * path from the scores to the released index.
 *
 * The mechanisms (spec/mechanisms.md states them in full):
 *   gap       g_r = max_j q_j - q_r, clamped at the public gap cap C:
 *             g'_r = min(g_r, C)
 *   EM        P(r) = beta^g'_r / sum_j beta^g'_j
 *   PF        visit the candidates in a uniformly random order, flip a coin
 *             with P(heads) = beta^g'_r for each, release the first heads.
 *   privacy   both are epsilon-DP with epsilon = 2 D ln(2^y / x), or
 *             D ln(2^y / x) when the scores are monotonic, D the sensitivity.
 * Clamping at C keeps the privacy guarantee (min(g, C) is again a D-sensitive
 * score) and bounds the size of the exact arithmetic; C is part of the
 * mechanism and is reported with the parameters.
 *
 * Conventions (after libsodium):
 *   - every function that can fail returns an int: DPSEL_OK (0) on success, a
 *     negative DPSEL_E* code otherwise; dpsel_strerror() names it; these
 *     functions are marked DPSEL_WARN_UNUSED, so that a caller that ignores
 *     the code gets a warning (GCC and clang: warn_unused_result);
 *   - on failure, output parameters are left untouched and nothing leaks;
 *   - an enum argument (mechanism, format, task) outside its listed values
 *     is DPSEL_ERANGE;
 *   - no function prints, aborts or exits (one exception: GMP and MPFR abort
 *     the process when an allocation of theirs fails, which dpsel's size
 *     bounds leave to a process already out of memory; spec/trusted-base.md
 *     entry 6); there is no global state: objects
 *     are independent, a dpsel_selector may be shared read-only between
 *     threads, a dpsel_rng belongs to one thread at a time;
 *   - MPFR's global state is the host's: every function that computes with
 *     MPFR saves the caller's exponent range and flags, works in MPFR's
 *     widest range, and restores both exactly (so it works whatever range
 *     the host set, e.g. emin -1073 to emulate doubles).  As with any use of
 *     MPFR, MPFR's per-thread constant caches (log 2 and the like) stay
 *     allocated until the host calls mpfr_free_cache(): dpsel never frees
 *     them (they may be the host's); a thread that ends should call it, as
 *     MPFR asks of every thread that used it.
 */
#ifndef DPSEL_H
#define DPSEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version, written only here: the Makefile reads it (the shared
 * library's SOVERSION is its major part, dpsel.pc gets it at install). */
#define DPSEL_VERSION "0.1.0"

/* Only the functions marked DPSEL_API are exported from the shared library. */
#if defined(DPSEL_BUILDING) && defined(__GNUC__)
#define DPSEL_API __attribute__((visibility("default")))
#else
#define DPSEL_API
#endif

/* Marks the functions that return an error code: ignoring the code is a
 * compiler warning (GCC, clang). */
#if defined(__GNUC__)
#define DPSEL_WARN_UNUSED __attribute__((warn_unused_result))
#else
#define DPSEL_WARN_UNUSED
#endif

/* ------------------------------------------------------------------ errors */

enum {
    DPSEL_OK = 0,
    DPSEL_ENULL = -1,      /* a required pointer argument is NULL */
    DPSEL_EEMPTY = -2,     /* no candidates (n == 0) */
    DPSEL_ERANGE = -3,     /* an integer argument is out of its documented range */
    DPSEL_EEPSILON = -4,   /* epsilon is not a positive decimal number, or no
                              base x / 2^y with y <= 64 realises it */
    DPSEL_ENOMEM = -5,     /* memory allocation failed */
    DPSEL_ERANDOM = -6,    /* the random source failed (getrandom error, a
                              caller-supplied source returned non-zero, a
                              copied, wiped or corrupted source) */
    DPSEL_EUNLIKELY = -7,  /* a rejection loop ran past its bound; for a sound
                              random source this has probability below 2^-128,
                              so it indicates a broken source */
    DPSEL_ETOOLARGE = -8,  /* the exact computation asked for exceeds dpsel's
                              size limits (see dpsel_pmf_new) */
    DPSEL_EINEXACT = -9,   /* an MPFR operation was inexact: an internal bug,
                              never a rounding that is accepted */
    DPSEL_EINTERNAL = -10, /* an internal consistency check failed (a
                              rigorous parameter search that did not
                              converge, counts that do not match): a bug */
    DPSEL_EDECIMAL = -11,  /* a decimal text is malformed */
    DPSEL_EUNIT = -12,     /* a decimal is not a whole multiple of its unit
                              (dpsel_decimal_to_units: nothing is rounded) */
    DPSEL_ESTATE = -13,    /* a serialised partial selection is malformed,
                              corrupt or made for other parameters */
    DPSEL_ECANCELED = -14  /* the caller's interrupt check asked the call to
                              stop (dpsel_rng_set_interrupt): nothing was
                              released */
};

/* A static, human-readable description of an error code ("unknown error" for
 * a value that is not a dpsel code).  Never NULL. */
DPSEL_API const char *dpsel_strerror(int code);

/* DPSEL_VERSION as the library was built: a program (or a binding) that
 * loads the shared library compares it with the header it was written for.
 * Never NULL. */
DPSEL_API const char *dpsel_version(void);

/* The size of the structure named `type` as the library was built:
 * "dpsel_params", "dpsel_rng_state_", "dpsel_rng", "dpsel_pf_stream",
 * "dpsel_grid", "dpsel_audit_result", "dpsel_account" or
 * "dpsel_group_account"; 0 for any other
 * name and for NULL.  A binding that mirrors these structures (the caller
 * owns their memory) checks its sizes against these at load. */
DPSEL_API size_t dpsel_sizeof(const char *type);

/* ------------------------------------------------------- privacy parameters */

/* Largest gap cap dpsel accepts (and the most a default cap can be).  The
 * exact weights beta^g for g <= C need up to C * bitlen(x) bits. */
#define DPSEL_GAP_CAP_MAX ((uint64_t)1 << 20)

/* The privacy parameters of a selection.  Fill it only through the
 * dpsel_params_* functions; read the fields freely. */
typedef struct {
    uint64_t x;           /* beta = x / 2^y, in lowest terms: x odd, 0 < x < 2^y */
    unsigned y;           /* 1 <= y <= 64 */
    uint64_t sensitivity; /* D >= 1: one person moves any score by at most D */
    int monotonic;        /* 1: adding a person never lowers a score */
    uint64_t gap_cap;     /* C, 1 <= C <= DPSEL_GAP_CAP_MAX: gaps are clamped at C */
} dpsel_params;

/* Parameters from an explicit base beta = x / 2^y.
 * Requires 1 <= y <= 64, 0 < x < 2^y, sensitivity >= 1, monotonic 0 or 1
 * (else DPSEL_ERANGE; DPSEL_ENULL for a NULL out).  The base is stored in
 * lowest terms.  The gap cap is set to its default, the least C with
 * beta^C <= 2^-64 (at most DPSEL_GAP_CAP_MAX): clamping then moves no output
 * probability by more than n 2^-64. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_params_from_base(dpsel_params *out, uint64_t x, unsigned y,
                           uint64_t sensitivity, int monotonic);

/* Parameters from a requested epsilon, given as a decimal string: digits with
 * an optional fraction and exponent ("1", "0.25", "5e-3"; no sign, no
 * spaces; at most 4095 characters, an exponent of at most 9 digits).  Picks,
 * among all x / 2^y with y <= 64, the base whose realised epsilon is the
 * largest one not above the request (the decimal value is honoured exactly;
 * the choice is certified with directed rounding): a request above the
 * largest realisable epsilon gets the smallest base 1 / 2^64.
 * Errors: DPSEL_ENULL; DPSEL_ERANGE (sensitivity 0, monotonic not 0/1);
 * DPSEL_EEPSILON (not such a string, zero, or so small that no base fits:
 * epsilon / (k D) below about 2^-64, k = 1 if monotonic, else 2). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_params_from_epsilon(dpsel_params *out, const char *epsilon,
                              uint64_t sensitivity, int monotonic);

/* Replaces the gap cap: 1 <= gap_cap <= DPSEL_GAP_CAP_MAX, else DPSEL_ERANGE. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_params_set_gap_cap(dpsel_params *params, uint64_t gap_cap);

/* The realised epsilon as a decimal string with `digits` significant digits
 * (1..100), rounded up: a rigorous upper bound.  buf receives at most
 * digits + 16 bytes including the final NUL; a smaller buf_size gives
 * DPSEL_ERANGE.  Also DPSEL_ENULL. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_params_epsilon(const dpsel_params *params, unsigned digits,
                         char *buf, size_t buf_size);

/* ------------------------------------------------------------ random source */

/* A caller-supplied source of uniform random bits: store one bit (0 or 1) in
 * *bit and return 0, or return non-zero on failure.  A failure, or a value
 * other than 0 and 1, ends the selection with DPSEL_ERANDOM. */
typedef int (*dpsel_bit_fn)(void *context, unsigned *bit);

/* A caller's interrupt check, called now and then by a long computation
 * with the work done so far and the work in all (in the computation's own
 * units; total may be 0 when it is not known).  Return 0 to go on, non-zero
 * to stop: the call then ends with DPSEL_ECANCELED, releasing nothing and
 * leaking nothing.  It must not unwind through dpsel (no longjmp, no C++
 * exception): a host with such error handling (PostgreSQL's
 * CHECK_FOR_INTERRUPTS) tests its pending flag here and raises its error
 * after dpsel has returned. */
typedef int (*dpsel_interrupt_fn)(void *context, uint64_t done, uint64_t total);

/* A caller's progress report, made by a long computation that takes one
 * (dpsel_pmf_new_progress): done of total is the fraction of the work done.
 * total is the same on every call of one computation, done never
 * decreases, and done == total comes once, as the last call, when the
 * work is done (a non-zero return then still cancels); calls come from the
 * calling thread, a few milliseconds of work apart.  Return 0 to go on, non-zero to stop: the call then ends
 * with DPSEL_ECANCELED, leaking nothing, as for dpsel_interrupt_fn (and
 * with the same rule: no unwinding through dpsel).  The fraction follows
 * the work's shape (the candidates and their levels), which the caller
 * passed in: a report, and its timing, tell the caller nothing beyond the
 * input it holds, and nothing about random bits. */
typedef int (*dpsel_progress_fn)(void *context, uint64_t done, uint64_t total);

/* The state of a buffered stream of bits (private to src/rng.c).  All
 * zeros is a valid state: an empty buffer, to be refilled (for the OS
 * source: keyed afresh from getrandom) on the first read. */
typedef struct {
    unsigned char key_[32];
    uint64_t block_;          /* seeded: next block; OS: refills so far */
    unsigned char buffer_[256];
    unsigned buffer_left_;    /* unread bytes, at the end of buffer_ */
    unsigned bits_left_;      /* unread bits, the low bits of unread_ */
    uint64_t unread_;         /* only unread bits: used ones are cleared */
} dpsel_rng_state_;

/* A random source.  The fields are private: use the functions below.  One
 * thread at a time.  What is promised when a source is copied, shared or
 * inherited by fork (spec/trusted-base.md, "Fork, copies and threads"):
 *   - fork: a parent and its children (and theirs) never share a random bit,
 *     with no action by the caller: the OS source keeps its state in a page
 *     of its own that the kernel wipes in a child (MADV_WIPEONFORK), so the
 *     child's first read draws a fresh key from getrandom;
 *   - copies: a copy of an OS source (assignment, memcpy, pass by value)
 *     gives no bits: every read from it returns DPSEL_ERANDOM (the source
 *     knows the address it was initialised at); initialise each copy with
 *     dpsel_rng_init_os instead.  A seeded source is a deterministic stream:
 *     a copy of it replays the original's bits, by design;
 *   - threads: two threads using one source at once is a bug of the caller;
 *     every read checks the state first, so such misuse gives DPSEL_ERANDOM
 *     or bits from the state, never a read outside it. */
typedef struct {
    int kind_;
    dpsel_bit_fn bit_fn_;
    void *bit_context_;
    const void *owner_;           /* OS: the address it was initialised at */
    dpsel_rng_state_ *os_state_;  /* OS: its state, in a page wiped on fork */
    dpsel_rng_state_ seeded_;     /* seeded: its state */
    dpsel_interrupt_fn interrupt_fn_;
    void *interrupt_context_;
#ifdef __FRAMAC__
    /* Seen by the proofs only (spec/bits.h): how many bits the source has
     * given, the cursor into its bit stream.  The compiled struct has no
     * such field, so no compiled code can read or write it. */
    uint64_t proof_bits_read_;
#endif
} dpsel_rng;

/* The operating system's CSPRNG, the source to use for real releases:
 * ChaCha20 (libsodium) under a key drawn from getrandom, replaced by a fresh
 * getrandom key every 64 KiB of output and, between those, by its own
 * keystream after every 256 bytes (fast key erasure: the state cannot
 * recompute bits already used, and keeps no used bit), as arc4random does.
 * The state lives in one page of memory that this function maps (not
 * shared with a forked child, not written to core dumps): release it with
 * dpsel_rng_wipe (initialising the source again without wiping it leaks the
 * page).  Errors: DPSEL_ENULL; DPSEL_ENOMEM (no page); DPSEL_ERANDOM when
 * the kernel cannot keep the page from a forked child (Linux before 4.14):
 * refused rather than shared.  Any failure of getrandom is reported as
 * DPSEL_ERANDOM by the call that needed the bits; there is no fallback,
 * and no path on which dpsel (or libsodium for it) aborts. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_rng_init_os(dpsel_rng *rng);

/* FOR TESTS AND REPRODUCIBLE AUDITS ONLY: a deterministic stream.  The same
 * seed always gives the same bits, so anyone holding the seed can recompute
 * the released choice: never use it for a real release.  The stream is
 * libsodium's ChaCha20 keyed with BLAKE2b-256 of the seed (1 to 64 bytes,
 * else DPSEL_ERANGE).  It lives in the struct: no allocation. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_rng_init_seeded(dpsel_rng *rng, const unsigned char *seed,
                          size_t seed_size);

/* A caller-supplied bit source, e.g. to drive the samplers with chosen bit
 * strings in tests.  The samplers ask for bits one at a time. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_rng_init_custom(dpsel_rng *rng, dpsel_bit_fn fn, void *context);

/* Attaches an interrupt check to a source (after its dpsel_rng_init_*,
 * which clears it; NULL fn removes it).  Every call that draws from the
 * source and can run long (a selection over runs or levels, a partial
 * selection's finish, a quantile) calls fn at least every few milliseconds
 * of work, and stops with DPSEL_ECANCELED when it returns non-zero.  The
 * check travels with the source because every release reads one: a thread
 * sets its own.  Errors: DPSEL_ENULL (rng). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_rng_set_interrupt(dpsel_rng *rng, dpsel_interrupt_fn fn,
                                                        void *context);

/* Erases the key and buffered bits and, for an OS source, releases its page
 * (a copy releases nothing: the original owns the page).  Takes a source
 * that was initialised, wiped, or is all zeros; safe on a NULL pointer. */
DPSEL_API void dpsel_rng_wipe(dpsel_rng *rng);

/* -------------------------------------------------------------- selection */

/* DPSEL_RNM, report noisy max with Laplace noise, takes its epsilon as a
 * decimal (dpsel_rnm_select): the functions that take a selector or
 * dpsel_params refuse it with DPSEL_ERANGE. */
typedef enum { DPSEL_PF = 0, DPSEL_EM = 1, DPSEL_RNM = 2 } dpsel_mechanism;

/* A selector holds the exact powers beta^(2^i), i < bitlen(C), that the
 * samplers compare random bits against.  Immutable once made: one selector
 * serves any number of selections, from any number of threads. */
typedef struct dpsel_selector dpsel_selector;

/* Builds a selector for `params` (copied).  DPSEL_ENULL, DPSEL_ERANGE
 * (params not valid), DPSEL_ENOMEM, DPSEL_EINEXACT. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_selector_new(dpsel_selector **out, const dpsel_params *params);

/* Frees a selector; safe on NULL. */
DPSEL_API void dpsel_selector_free(dpsel_selector *selector);

/* One epsilon-DP selection: stores in *index the released candidate, in
 * 0..n-1.  scores[0..n-1] are the candidates' scores (higher is better; any
 * int64 values).  When the selector's decay table allows it (its top power
 * beta^(2^top) below 1/2: always with the default gap cap), PF walks its
 * random order for up to min(1024, n/2) candidates and, if none comes up
 * heads, settles the rest as a race of geometric noise in one pass: no heap
 * memory, 8 KiB of stack.  Otherwise PF permutes, in n machine words of
 * scratch memory.  EM draws uniform candidates and keeps each with
 * probability beta^g'; after 1024 rejected draws it counts the candidates
 * per clamped gap (when n is below 2^31: cap + 1 words of heap, at most
 * max(n, 2^13)) and samples a gap level, then one of its candidates.
 * Errors: DPSEL_ENULL, DPSEL_EEMPTY (n == 0), DPSEL_ERANGE (n > 2^62, or
 * an unknown mechanism), DPSEL_ENOMEM, DPSEL_ERANDOM (also for a wiped
 * rng), DPSEL_EUNLIKELY, DPSEL_EINTERNAL (a bug). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_select(const dpsel_selector *selector, dpsel_mechanism mechanism,
                 const int64_t *scores, size_t n, dpsel_rng *rng,
                 size_t *index);

/* dpsel_select for callers whose running time may be observed: the same
 * output distribution exactly, the same arguments and errors, but the work
 * (the random bits read, the operations done) is distributed alike for every
 * score vector of the same n and selector: it reveals nothing about the
 * scores by itself (spec/timing.md states what is and is not promised;
 * dpsel_select's work depends on the scores).  PF shuffles all n candidates
 * and flips bitlen(C) coins for each (dpsel_select's PF stops at the first
 * heads).  EM counts the candidates of each clamped gap by comparing every
 * gap with every level (n (C + 1) comparisons), runs a fixed number of
 * level trials that depends on the base (about 6300 at epsilon 1) and
 * finds the released candidate in one more pass: about 15 times the
 * default's time at n = 10^6 and epsilon 1, C + 1 words of heap.  Where
 * that costs more (small n, a gap cap of 2^16 - 4 or more, n >= 2^31), EM
 * runs 128 n uniform trials of bitlen(C) coins each instead.  Which of the
 * two runs depends on n and the parameters only. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_select_hardened(const dpsel_selector *selector,
                                    dpsel_mechanism mechanism, const int64_t *scores,
                                    size_t n, dpsel_rng *rng, size_t *index);

/* The k best by peeling (top-k): k rounds of dpsel_select with the same
 * mechanism and selector, each over the candidates not chosen yet (its gaps
 * and gap cap taken from the remaining maximum), so that indices[0 .. k - 1]
 * receives k distinct candidates in the order chosen.  Each round is one
 * epsilon-DP selection: the rounds compose adaptively (state the k rounds'
 * privacy with the accountant, dpsel_account_*).  Memory: 16 bytes per
 * candidate (the remaining scores and their positions), unless k is 1.
 * Errors: as dpsel_select, and DPSEL_ERANGE for k = 0 or k > n.  indices is
 * written only on success. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_select_top(const dpsel_selector *selector,
                                                 dpsel_mechanism mechanism, const int64_t *scores,
                                                 size_t n, size_t k, dpsel_rng *rng,
                                                 size_t *indices);

/* Report noisy max (spec/mechanisms.md §14): adds independent Laplace noise
 * of scale b = 2 D / epsilon (D / epsilon if monotonic is 1) to every score
 * and stores in *index the candidate whose noisy score is largest.  The
 * noise is exact (a fair sign times an Exp(1) variable drawn by von
 * Neumann's method, its digits drawn only as far as a comparison needs),
 * and epsilon-DP holds for the decimal epsilon exactly: no base-2 rounding.
 * One pass, no heap memory beyond the epsilon's parsing.  The notebook's
 * scale D / epsilon on scores that are not monotonic is 2 epsilon-DP:
 * declare monotonic only for scores that are.  Errors: DPSEL_ENULL,
 * DPSEL_EEMPTY (n == 0), DPSEL_ERANGE (sensitivity 0, monotonic not 0/1,
 * n > 2^62), DPSEL_EEPSILON (epsilon not a positive decimal, or b = W / P
 * in lowest terms with W or P at 2^62 or more), DPSEL_ENOMEM,
 * DPSEL_ERANDOM, DPSEL_EUNLIKELY (probability below 2^-180 per
 * candidate), DPSEL_ECANCELED (the source's interrupt check). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_rnm_select(const char *epsilon, uint64_t sensitivity,
                                                 int monotonic, const int64_t *scores,
                                                 size_t n, dpsel_rng *rng, size_t *index);

/* The k best by report noisy max, by peeling (spec/accounting.md §1): k
 * rounds of dpsel_rnm_select with the same epsilon, each over the candidates
 * not chosen yet and with fresh noise, so that indices[0 .. k - 1] receives
 * k distinct candidates in the order chosen.  Each round is epsilon-DP for
 * the decimal epsilon exactly; the rounds compose adaptively (k epsilon in
 * all by basic composition, exact for a decimal: dpsel_accountant_add with
 * DPSEL_RNM states it).  Memory: 16 bytes per candidate unless k is 1.
 * Errors: as dpsel_rnm_select, and DPSEL_ERANGE for k = 0 or k > n.
 * indices is written only on success. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_rnm_select_top(const char *epsilon, uint64_t sensitivity,
                                                     int monotonic, const int64_t *scores,
                                                     size_t n, size_t k, dpsel_rng *rng,
                                                     size_t *indices);

/* Report noisy max's Laplace scale b = c D / epsilon (c = 1 if monotonic,
 * else 2) as *w / *p in lowest terms, the rational dpsel_rnm_select uses:
 * a check of the public parameters before any data is read.  Errors as
 * dpsel_rnm_select's for them: DPSEL_ENULL, DPSEL_ERANGE (sensitivity 0,
 * monotonic not 0/1), DPSEL_EEPSILON (epsilon not a positive decimal, or W
 * or P of 2^62 or more), DPSEL_ENOMEM.  *w and *p are written only on
 * success. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_rnm_scale(const char *epsilon, uint64_t sensitivity,
                                                int monotonic, uint64_t *w, uint64_t *p);

/* ----------------------------------------------------------- streaming PF */

/* PF on scores given one at a time or in blocks, for candidates too many
 * to hold in memory: PF's race of geometric noise (spec/mechanisms.md §10,
 * §13) in about 8 KiB, whatever n.  The caller passes the largest score
 * first (a first pass over its data), then every score in order; the
 * released index is the 0-based position of a score in that order, with
 * exactly the distribution of dpsel_select's PF on the same scores.  The
 * stream holds up to DPSEL_PF_STREAM_BLOCK scores and races them when the
 * block is full (a block far below the leader costs about one coin).  The
 * fields are private: use the functions below.  Lives wherever the caller
 * puts it (no allocation); one thread at a time.  A zero-initialised
 * stream counts as not started. */
#define DPSEL_PF_STREAM_BLOCK 1024
typedef struct {
    const dpsel_selector *selector_;
    int64_t best_;
    uint64_t raced_;
    size_t held_;
    int state_;
    int best_added_;
    int64_t race_value_;
    uint64_t race_ties_;
    uint64_t race_chosen_;
    int64_t block_[DPSEL_PF_STREAM_BLOCK];
} dpsel_pf_stream;

/* Starts (or restarts) a selection whose largest score is `best`.  The
 * selector must outlive the stream, which keeps a pointer to it.  Errors:
 * DPSEL_ENULL; DPSEL_ERANGE when the selector's decay table does not allow
 * the race (its top power beta^(2^top) is not below 1/2, as with a gap cap
 * of 1 and beta >= 1/2): then use dpsel_select, which permutes.  On failure
 * *stream is left untouched. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_pf_stream_start(dpsel_pf_stream *stream, const dpsel_selector *selector,
                                    int64_t best);

/* Adds the next candidate's score (raced when the block is full, with bits
 * from rng).  Errors: DPSEL_ENULL; DPSEL_ERANGE when score > best, for a
 * score past the 2^62nd, or when the stream is not started, has failed or
 * is finished; DPSEL_ERANDOM (also for a wiped rng), DPSEL_EUNLIKELY.  Any
 * error fails the stream for good: every later dpsel_pf_stream_add,
 * dpsel_pf_stream_add_scores and dpsel_pf_stream_finish returns
 * DPSEL_ERANGE until it is started again. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_pf_stream_add(dpsel_pf_stream *stream, int64_t score, dpsel_rng *rng);

/* Adds the next n candidates' scores at once, raced now without a copy
 * (after the scores the stream holds): the same as n calls of
 * dpsel_pf_stream_add, in fewer steps.  n = 0 adds nothing.  Errors as
 * dpsel_pf_stream_add, and DPSEL_ENULL for scores NULL with n > 0. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_pf_stream_add_scores(dpsel_pf_stream *stream, const int64_t *scores,
                                    size_t n, dpsel_rng *rng);

/* Ends the selection: races the scores it holds (with bits from rng) and
 * stores in *index the released position.  Errors: DPSEL_ENULL;
 * DPSEL_EEMPTY when no score was added; DPSEL_ERANGE when no added score
 * equalled `best` (it was not the largest score, so the gaps were wrong:
 * nothing is released), or the stream is not started, has failed or is
 * finished; DPSEL_ERANDOM, DPSEL_EUNLIKELY.  An error fails the stream, as
 * above; on failure *index is left untouched. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_pf_stream_finish(dpsel_pf_stream *stream, dpsel_rng *rng,
                                    size_t *index);

/* --------------------------------------------------- exact distribution */

/* The output distribution of a mechanism on a score vector: for every
 * probability and for the expected error sum_r P(r) g_r (with the unclamped
 * gaps g_r), a rigorous enclosure lo <= value <= hi of relative width below
 * 1e-30 (MPFR with directed rounding, see spec/mechanisms.md), and the exact
 * rationals, computed only when a request needs them and when affordable.
 * The getters may be called on one pmf from several threads at once (the
 * exact rationals are computed once, under a lock the pmf holds). */
typedef struct dpsel_pmf dpsel_pmf;

/* Computes the pmf's enclosure: PF by the cheaper of a polynomial
 * expansion (O(n'^2) multiply-adds, n' the candidates outside the largest
 * level; up to 32768 candidates) and certified quadrature (O(L) work per
 * piece of [0, 1], L distinct clamped gaps, some tens of pieces: any n),
 * EM in linear time.  The exact
 * rationals are not computed here: the first request that needs them (a
 * DPSEL_RATIONAL, or a decimal the enclosure leaves undecided) computes
 * them all, when they are within about 2^32 bits of weight arithmetic for
 * EM (levels * y * max gap) and 2^34 for PF (n^3 * y * max gap, n <= 4096;
 * up to tens of seconds at the limit); beyond that such a request gets
 * DPSEL_ETOOLARGE.  Also DPSEL_ENULL,
 * DPSEL_EEMPTY, DPSEL_ERANGE (params not valid, n > 2^62), DPSEL_ENOMEM,
 * DPSEL_EINTERNAL (bounds not narrow enough: a bug). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_pmf_new(dpsel_pmf **out, const dpsel_params *params,
                  dpsel_mechanism mechanism, const int64_t *scores, size_t n);

/* The pmf of groups of alike candidates: candidate r stands for
 * multiplicity[r] >= 1 candidates of score scores[r], the mechanism runs on
 * all of them (n' = the multiplicities' sum, at most 2^62), and the pmf's
 * candidate r is the group: its probability is the chance that one of its
 * members is released, and the expected error is summed over the members.
 * The work is linear in n for EM and, for PF, at most that of
 * dpsel_pmf_new on n levels (the quadrature), whatever the
 * multiplicities.  Errors as dpsel_pmf_new, and DPSEL_ERANGE for a
 * multiplicity of 0 or a sum above 2^62. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_pmf_new_grouped(dpsel_pmf **out, const dpsel_params *params,
                                                      dpsel_mechanism mechanism,
                                                      const int64_t *scores,
                                                      const uint64_t *multiplicity, size_t n);

/* dpsel_pmf_new (multiplicity NULL) or dpsel_pmf_new_grouped, reporting
 * its progress to `progress` (NULL: none) with context, which can cancel:
 * DPSEL_ECANCELED, and *out is left alone.  PF reports every few
 * milliseconds of its enclosure; a rare second pass at a higher precision
 * (when the first leaves a decimal undecided) runs in the last sixteenth
 * of the scale and the ones after it.  The exact rationals, computed later
 * on request, report nothing.  Errors as dpsel_pmf_new_grouped. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_pmf_new_progress(dpsel_pmf **out, const dpsel_params *params,
                                                       dpsel_mechanism mechanism,
                                                       const int64_t *scores,
                                                       const uint64_t *multiplicity, size_t n,
                                                       dpsel_progress_fn progress, void *context);

/* The size of the exact rationals of the pmf of these arguments (as
 * dpsel_pmf_new_progress's), known before any work (O(n log n) time, O(n)
 * memory): *work, the bits of weight arithmetic that dpsel_pmf_new counts
 * (EM: levels (y G + 64), PF: n'^3 (y G + 64), G the largest clamped gap,
 * n' the candidates or the groups' members; UINT64_MAX for PF beyond 4096
 * candidates), and *limit, the most it computes (2^32 for EM, 2^34 for
 * PF).  A request for the exact rationals of such a pmf gets
 * DPSEL_ETOOLARGE exactly when *work > *limit: a caller that will need
 * them asks here first, and refuses at once.  Errors as
 * dpsel_pmf_new_grouped (DPSEL_ETOOLARGE excepted). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_pmf_exact_work(const dpsel_params *params,
                                                     dpsel_mechanism mechanism,
                                                     const int64_t *scores,
                                                     const uint64_t *multiplicity, size_t n,
                                                     uint64_t *work, uint64_t *limit);

/* The pmf of report noisy max (dpsel_rnm_select with these epsilon,
 * sensitivity and monotonic) on scores, candidate r standing for
 * multiplicity[r] >= 1 candidates of its score (NULL: one each), as for
 * dpsel_pmf_new_grouped; progress and context as dpsel_pmf_new_progress's
 * (NULL: none).  The getters work as on any pmf (relative width below
 * 1e-30; the expected error in score units, unclamped), but RNM's
 * probabilities are not rational (they involve e^(-g / b)): a
 * DPSEL_RATIONAL request gets DPSEL_ERANGE, and a decimal the enclosure
 * cannot decide gets DPSEL_ETOOLARGE.  The enclosure is interval
 * arithmetic over the pieces between distinct scores
 * (spec/mechanisms.md §14): O(n L) to O(n L^2) multiply-adds, L the
 * distinct scores, at a precision raised by the bits the expansion may
 * cancel (up to 1.6 a candidate near the top).  Errors:
 * DPSEL_ENULL, DPSEL_EEMPTY (n == 0), DPSEL_ERANGE (sensitivity 0,
 * monotonic not 0/1, n > 2^62, a multiplicity 0 or a sum above 2^62),
 * DPSEL_EEPSILON (as dpsel_rnm_select), DPSEL_ETOOLARGE (more than 65536
 * candidates counting the multiplicities, work past about 2^35 bit
 * multiply-adds, or a largest gap times n above about 2^56 b: there the
 * lowest probabilities leave MPFR's exponent range), DPSEL_ENOMEM,
 * DPSEL_ECANCELED (progress), DPSEL_EINTERNAL (a bug). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_rnm_pmf_new(dpsel_pmf **out, const char *epsilon,
                                                  uint64_t sensitivity, int monotonic,
                                                  const int64_t *scores,
                                                  const uint64_t *multiplicity, size_t n,
                                                  dpsel_progress_fn progress, void *context);

/* Frees a pmf; safe on NULL. */
DPSEL_API void dpsel_pmf_free(dpsel_pmf *pmf);

typedef enum {
    DPSEL_DECIMAL = 0,  /* 17 significant digits, correctly rounded (to nearest,
                           ties to even) from the exact value */
    DPSEL_RATIONAL = 1  /* the exact value "num/den" in lowest terms ("0/1", "1/1") */
} dpsel_format;

/* Probability of candidate r (0 <= r < n, else DPSEL_ERANGE) as a new
 * NUL-terminated string in *out; release it with dpsel_string_free().
 * A decimal comes from the enclosure when both its ends round to the same
 * decimal (so does the exact value), else from the exact value (possible
 * only for a value within 1e-30 relative of a rounding boundary).  A
 * DPSEL_RATIONAL, or such a decimal, computes the exact rationals if this
 * is the pmf's first request for them (see dpsel_pmf_new); DPSEL_ETOOLARGE
 * when they are beyond the size limits: never a possibly wrong digit.
 * Also DPSEL_ENULL, DPSEL_ENOMEM, DPSEL_EINTERNAL (a bug). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_pmf_probability(const dpsel_pmf *pmf, size_t r, dpsel_format format,
                          char **out);

/* The expected error sum_r P(r) g_r, likewise. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_pmf_expected_error(const dpsel_pmf *pmf, dpsel_format format,
                             char **out);

/* The enclosure of the probability of candidate r (0 <= r < n): two new
 * strings, *lo rounded down and *hi rounded up to `digits` (1..100, else
 * DPSEL_ERANGE) significant digits, so lo <= P(r) <= hi holds for the printed
 * decimals; release both with dpsel_string_free().  With 34 digits or more
 * the width stays below 1e-30 relative.  Also DPSEL_ENULL, DPSEL_ENOMEM. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_pmf_probability_bounds(const dpsel_pmf *pmf, size_t r, unsigned digits,
                                 char **lo, char **hi);

/* The enclosure of the expected error, likewise. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_pmf_expected_error_bounds(const dpsel_pmf *pmf, unsigned digits,
                                    char **lo, char **hi);

/* The expected error of decimal scores in their own unit: E x unit, E the
 * expected error in score units (dpsel_pmf_expected_error) and unit the
 * positive decimal the scores were converted with (dpsel_decimal_to_units,
 * of its form: "0.001", "0.25"; "1" gives dpsel_pmf_expected_error's
 * text).  A DPSEL_DECIMAL is E x unit correctly rounded to 17 significant
 * digits: from the enclosure times unit (rounded outwards) when both its
 * ends round to the same decimal, else from the exact rational E x unit
 * (computed as for dpsel_pmf_probability), else DPSEL_ETOOLARGE, never a
 * possibly wrong digit; a DPSEL_RATIONAL is E x unit exactly, in lowest
 * terms ("1/4000" for E = 1/4 in units of "0.001").  Release *out with
 * dpsel_string_free().  Errors: DPSEL_ENULL; DPSEL_EDECIMAL (unit
 * malformed); DPSEL_ERANGE (unit <= 0, a format not listed);
 * DPSEL_ETOOLARGE, DPSEL_ENOMEM, DPSEL_EINTERNAL as dpsel_pmf_probability. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_pmf_expected_error_in_units(const dpsel_pmf *pmf,
                                                                  const char *unit,
                                                                  dpsel_format format,
                                                                  char **out);

/* The enclosure of E x unit (as above): *lo rounded down and *hi rounded
 * up to `digits` (1..100) significant digits, so lo <= E x unit <= hi holds
 * for the printed decimals; release both with dpsel_string_free().  Errors:
 * DPSEL_ENULL; DPSEL_ERANGE (digits not 1..100, unit <= 0); DPSEL_EDECIMAL
 * (unit malformed); DPSEL_ENOMEM. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_pmf_expected_error_bounds_in_units(const dpsel_pmf *pmf,
                                                                         const char *unit,
                                                                         unsigned digits,
                                                                         char **lo, char **hi);

/* Releases a string returned by dpsel; safe on NULL. */
DPSEL_API void dpsel_string_free(char *s);

/* ------------------------------------------------------- histogram tasks */

/* Scores for the permute-and-flip paper's tasks on a histogram: counts[r] is
 * the number of records in bin r, and neighbouring datasets differ by one
 * record added or removed (spec/mechanisms.md §7).
 *   MODE    score_r = counts[r]; sensitivity 1, monotonic.
 *   MEDIAN  score_r = -(the least number of records to add or remove so that
 *           bin r holds the median); sensitivity 1, not monotonic.  Bin r
 *           holds the median when fewer than half of the records lie in bins
 *           before r and at least half lie in bins up to r (the lower median
 *           for an even total); the median bin scores 0. */
typedef enum { DPSEL_TASK_MODE = 0, DPSEL_TASK_MEDIAN = 1 } dpsel_task;

/* Writes the task's scores of counts[0..n-1] into scores[0..n-1] (which may
 * be counts itself).  Errors: DPSEL_ENULL, DPSEL_EEMPTY (n == 0),
 * DPSEL_ERANGE (an unknown task, a negative count, or counts adding up to
 * more than INT64_MAX). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_task_scores(dpsel_task task, const int64_t *counts, size_t n,
                                int64_t *scores);

/* The sensitivity (1) and monotonicity (1 for MODE, 0 for MEDIAN) of the
 * task's scores, to pass to dpsel_params_*.  DPSEL_ENULL, DPSEL_ERANGE. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_task_params(dpsel_task task, uint64_t *sensitivity, int *monotonic);

/* --------------------------------------------------------- decimal scores */

/* The longest decimal text dpsel_decimal_to_units reads, sign included. */
#define DPSEL_DECIMAL_TEXT_MAX 128

/* A decimal score (or sensitivity) in whole units, exactly: *out = text / unit
 * (spec/quantiles.md §5).  text and unit are decimals [+-]?[0-9]+(.[0-9]+)?
 * of at most DPSEL_DECIMAL_TEXT_MAX characters: no exponent, no spaces.  The
 * unit is public and fixed before the data is read (the resolution of the
 * scores, e.g. "0.001"); scores and sensitivity converted with the same unit
 * give the selection on the decimals.  Errors: DPSEL_ENULL; DPSEL_EDECIMAL if
 * either text is malformed; DPSEL_ERANGE if unit <= 0; DPSEL_EUNIT if text is
 * not a whole multiple of unit (nothing is rounded); DPSEL_ERANGE if the
 * quotient is outside the int64 range.  *out is written only on success. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_decimal_to_units(const char *text, const char *unit,
                                                       int64_t *out);

/* units x unit as a decimal with exactly the fraction digits of unit as
 * written ("37" for 37 units of "1", "0.75" for 3 of "0.25", "-1.50" for -6
 * of "0.25"): the text of a decimal score, or of a quantile's grid point.
 * buf receives at most DPSEL_UNITS_TEXT_MAX bytes; a smaller buf_size that
 * the text does not fit gives DPSEL_ERANGE.  Also DPSEL_ENULL,
 * DPSEL_EDECIMAL (unit malformed), DPSEL_ERANGE (unit <= 0). */
#define DPSEL_UNITS_TEXT_MAX (DPSEL_DECIMAL_TEXT_MAX + 24)
DPSEL_API DPSEL_WARN_UNUSED int dpsel_units_to_decimal(int64_t units, const char *unit, char *buf,
                                                       size_t buf_size);

/* ----------------------------------------------------- top-k distribution */

/* The distribution of dpsel_select_top's ordered k-tuples, exactly: the
 * tuple (r_1, ..., r_k) has probability prod_j P_j(r_j), P_j the pmf of
 * the mechanism on the candidates left after r_1 .. r_(j-1) (each a
 * dpsel_pmf; enclosures multiplied in directed rounding, exact rationals
 * on request as dpsel_pmf_probability computes them).  For small n: the
 * tuples, n (n - 1) ... (n - k + 1) of them, are at most 65536, and one pmf
 * is built per prefix of a tuple (the last round's once for prefixes that
 * leave the same scores).  Immutable once made; the getters may be called
 * from several threads at once. */
typedef struct dpsel_top_pmf dpsel_top_pmf;

/* The limits of a top pmf's exact rationals (dpsel_top_pmf_exact_size):
 * the work of its prefixes' exact pmfs together, in bits of weight
 * arithmetic as dpsel_pmf_new counts them (2^32: about 3 s here, where
 * one pmf may take up to 2^34), and an upper bound of the bits of every
 * tuple's rational together (2^28: at most about 80 MB as decimal text;
 * the bound is about twice the true size). */
#define DPSEL_TOP_PMF_EXACT_WORK_MAX ((uint64_t)1 << 32)
#define DPSEL_TOP_PMF_EXACT_BITS_MAX ((uint64_t)1 << 28)

/* Errors: DPSEL_ENULL; DPSEL_EEMPTY (n == 0); DPSEL_ERANGE (params not
 * valid, an unknown mechanism, k = 0 or k > n); DPSEL_ETOOLARGE (more than
 * 65536 tuples, or a prefix's pmf beyond dpsel_pmf_new's limits);
 * DPSEL_ENOMEM; DPSEL_EINTERNAL (a bug).  The enclosures are made here;
 * the exact rationals only on request, within the limits above. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_top_pmf_new(dpsel_top_pmf **out, const dpsel_params *params,
                                                  dpsel_mechanism mechanism, const int64_t *scores,
                                                  size_t n, size_t k);

/* Frees it; safe on NULL. */
DPSEL_API void dpsel_top_pmf_free(dpsel_top_pmf *top);

/* The number of tuples, 0 for NULL.  Tuple t (0 <= t < count) is the t-th
 * in lexicographic order of the candidates' indices. */
DPSEL_API size_t dpsel_top_pmf_count(const dpsel_top_pmf *top);

/* Tuple t's k candidates, in the order chosen, into indices[0 .. k - 1].
 * DPSEL_ENULL, DPSEL_ERANGE (t out of range). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_top_pmf_tuple(const dpsel_top_pmf *top, size_t t,
                                                    size_t *indices);

/* The size of the top pmf's exact rationals, known when it is made and
 * before any exact work: *work, its prefixes' exact pmfs' work together,
 * and *bits, an upper bound of the bits of all the tuples' rationals
 * (numerators and denominators; both saturate at UINT64_MAX).  Exact
 * requests are refused when either is above its limit,
 * DPSEL_TOP_PMF_EXACT_WORK_MAX or DPSEL_TOP_PMF_EXACT_BITS_MAX.
 * DPSEL_ENULL. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_top_pmf_exact_size(const dpsel_top_pmf *top,
                                                         uint64_t *work, uint64_t *bits);

/* Lower bounds of the size dpsel_top_pmf_exact_size would give for a top
 * pmf of these arguments, known before any work (O(n log n): the first
 * round's pmf alone, whose work and bits every tuple shares).  When either
 * is above its limit, DPSEL_TOP_PMF_EXACT_WORK_MAX or
 * DPSEL_TOP_PMF_EXACT_BITS_MAX, the exact rationals will be refused: a
 * caller that needs them refuses at once.  Errors as dpsel_top_pmf_new's
 * checks of its arguments. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_top_pmf_exact_bound(const dpsel_params *params,
                                                          dpsel_mechanism mechanism,
                                                          const int64_t *scores, size_t n,
                                                          size_t k, uint64_t *work,
                                                          uint64_t *bits);

/* Tuple t's probability as dpsel_pmf_probability gives a candidate's: a
 * decimal decided by the enclosure, else from the exact rational, or with
 * DPSEL_RATIONAL the exact rational; DPSEL_ETOOLARGE, at once, when an
 * exact rational is needed and the top pmf's are beyond their limits
 * (dpsel_top_pmf_exact_size) or a round's are beyond dpsel_pmf_new's.
 * DPSEL_ENULL, DPSEL_ERANGE (t or format), DPSEL_ENOMEM. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_top_pmf_probability(const dpsel_top_pmf *top, size_t t,
                                                          dpsel_format format, char **out);

/* Tuple t's enclosure, as dpsel_pmf_probability_bounds. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_top_pmf_probability_bounds(const dpsel_top_pmf *top,
                                                                 size_t t, unsigned digits,
                                                                 char **lo, char **hi);

/* ---------------------------------------------------------------- quantiles */

/* The quantile mechanism (spec/quantiles.md): a private q-quantile of raw
 * values, released as a point of a public grid A, A + R, ..., B fixed before
 * the data is read.  In units of the resolution R the grid is the integers
 * lower = A / R, ..., upper = B / R, and each value w becomes the point
 * floor(clamp(w, A, B) / R), a map applied to each record alone (so
 * neighbouring data stay neighbours).  For q = a / b in lowest terms and a
 * grid point v with L(v) values below it and G(v) above, the score is
 * -|(b - a) L(v) - a G(v)|, of sensitivity max(a, b - a) and not monotonic;
 * EM or PF then select a point with the usual base and gap cap, and the
 * release is epsilon-DP on the raw values.  The score is constant between
 * data values, so the grid is cut into at most 2m + 1 runs of equal score
 * (m values), and the work grows with the values, not with the grid. */

/* The grid: its ends in units of the resolution, and the resolution as
 * written.  Fill it with dpsel_grid_init; read the fields freely. */
typedef struct {
    int64_t lower;                               /* A / R */
    int64_t upper;                               /* B / R, >= lower */
    char resolution[DPSEL_DECIMAL_TEXT_MAX + 1]; /* R */
} dpsel_grid;

/* The grid A = lower, ..., B = upper in steps of `resolution` (decimals of
 * the form of dpsel_decimal_to_units; resolution NULL: 10^-d, d the larger
 * number of fraction digits of A and B).  Errors: DPSEL_ENULL;
 * DPSEL_EDECIMAL (a text malformed); DPSEL_EUNIT (A or B not a whole
 * multiple of R); DPSEL_ERANGE (R <= 0, A > B, A / R or B / R outside the
 * int64 range).  *grid is written only on success. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_grid_init(dpsel_grid *grid, const char *lower,
                                                const char *upper, const char *resolution);

/* A raw value (one record's) on the grid: *point = floor(clamp(value, A, B)
 * / R), exactly.  A record never decides whether a release happens, so
 * every number is taken, of any length and any exponent: the form
 * [+-]?[0-9]+(.[0-9]+)?([eE][+-]?[0-9]+)? ("1e200", "-0.5E-130", a million
 * digits), and inf, infinity and nan in any case with an optional sign.  A
 * value outside [A, B] is no error: +-inf and values beyond an end go to
 * that end, NaN to the upper end (where PostgreSQL, numpy and pandas sort
 * it: above every number).  The work is one pass over the text and
 * arithmetic on at most 149 digits, whatever the text (spec/quantiles.md
 * §6).  Errors: DPSEL_ENULL; DPSEL_EDECIMAL (value not a number of that
 * form, or the grid's resolution malformed); DPSEL_ERANGE (a grid with R <=
 * 0 or lower > upper, which dpsel_grid_init never makes). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_grid_point(const dpsel_grid *grid, const char *value,
                                                 int64_t *point);

/* dpsel_grid_point for values[0 .. m - 1] into points[0 .. m - 1] (values
 * and points may be NULL when m is 0).  On an error, *failed is the index of
 * the value that failed (points before it are written).  Errors as
 * dpsel_grid_point. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_grid_points(const dpsel_grid *grid,
                                                  const char *const *values, size_t m,
                                                  int64_t *points, size_t *failed);

/* The largest denominator b of a quantile a / b (10^18). */
#define DPSEL_QUANTILE_DENOMINATOR_MAX 1000000000000000000u

/* The quantile q, a decimal strictly between 0 and 1 ("0.5", "0.95"; the
 * form of dpsel_decimal_to_units), exactly as a / b in lowest terms, and
 * its score's sensitivity max(a, b - a): make the selector's parameters
 * with that sensitivity and monotonic 0.  Errors: DPSEL_ENULL;
 * DPSEL_EDECIMAL (malformed); DPSEL_ERANGE (q not in (0, 1), or b above
 * DPSEL_QUANTILE_DENOMINATOR_MAX). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_quantile_fraction(const char *q, uint64_t *a, uint64_t *b,
                                                        uint64_t *sensitivity);

/* The largest grid EM takes: 2^42 - 1 points (its trial bound,
 * spec/quantiles.md §4).  PF takes up to 2^62 points, at a cost that grows
 * with the points near the top (up to one exact coin per 32 of them). */
#define DPSEL_QUANTILE_EM_GRID_MAX (((uint64_t)1 << 42) - 1)

/* The runs of the q-quantile's score on data: the grid cut where the score
 * changes (spec/quantiles.md §4), built once for any number of selections
 * and for the exact distribution.  Immutable once made: may be shared
 * read-only between threads. */
typedef struct dpsel_quantile_runs dpsel_quantile_runs;

/* The runs of the quantile a / b (lowest terms, 0 < a < b <=
 * DPSEL_QUANTILE_DENOMINATOR_MAX) of values[0 .. m - 1] (grid points; each
 * is clamped into [lower, upper]; values may be NULL when m is 0, and no
 * values give one run, the whole grid) on the grid lower .. upper.  Memory:
 * about 56 bytes per value.  When b m > 2^63 - 1 the scores would leave
 * the int64 range: each is then given less the best run's, at least
 * -(2^63 - 1) (the releases' law is the same; the pmf refuses them).  The
 * count m never makes it fail (spec/quantiles.md §2).  Errors: DPSEL_ENULL;
 * DPSEL_ERANGE (a / b not as above, lower > upper, a grid of more than 2^62
 * points); DPSEL_ENOMEM. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_quantile_runs_new(dpsel_quantile_runs **out, uint64_t a,
                                                        uint64_t b, const int64_t *values,
                                                        size_t m, int64_t lower, int64_t upper);

/* Frees the runs; safe on NULL. */
DPSEL_API void dpsel_quantile_runs_free(dpsel_quantile_runs *runs);

/* The number of runs (at least 1, at most 2 k + 1 for k distinct values on
 * the grid), 0 for NULL. */
DPSEL_API size_t dpsel_quantile_runs_count(const dpsel_quantile_runs *runs);

/* Run i (0 <= i < count, in the grid's order): its first grid point, its
 * number of points and its score.  Any of the outputs may be NULL.  Errors:
 * DPSEL_ENULL (runs NULL), DPSEL_ERANGE (i out of range). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_quantile_runs_get(const dpsel_quantile_runs *runs, size_t i,
                                                        int64_t *first, uint64_t *points,
                                                        int64_t *score);

/* One epsilon-DP release of the quantile: stores the released grid point
 * in *value.  The selector's parameters must have sensitivity at least
 * max(a, b - a) of the runs' quantile and monotonic 0: its epsilon is then
 * the release's.  EM draws by levels over the runs, with the runs' lengths
 * as multiplicities (a few passes over the runs, whatever the grid; 8 (C +
 * 1) bytes of heap for the gap cap C); PF groups the runs by clamped gap
 * and races the groups, one lazily read uniform each, then draws a uniform
 * point of the winning group (spec/quantiles.md §7: a few passes over the
 * runs and a few hundred bits per group, whatever the grid, any base and
 * cap; 16 (C + 1) bytes of heap), asking rng's interrupt check
 * (dpsel_rng_set_interrupt) every few thousand runs.  Errors: DPSEL_ENULL;
 * DPSEL_ERANGE (mechanism not EM or PF, a selector not made for this
 * quantile, an EM grid above DPSEL_QUANTILE_EM_GRID_MAX points);
 * DPSEL_ENOMEM; DPSEL_ERANDOM; DPSEL_EUNLIKELY; DPSEL_ECANCELED (the
 * interrupt check asked to stop); DPSEL_EINTERNAL (a bug).
 * *value is written only on success. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_quantile_select_runs(const dpsel_selector *selector,
                                                           dpsel_mechanism mechanism,
                                                           const dpsel_quantile_runs *runs,
                                                           dpsel_rng *rng, int64_t *value);

/* dpsel_quantile_runs_new, dpsel_quantile_select_runs and
 * dpsel_quantile_runs_free in one call, with their errors, and
 * DPSEL_ECANCELED: rng's interrupt check (dpsel_rng_set_interrupt) is also
 * asked while the values are clamped, sorted and cut into runs. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_quantile_select(const dpsel_selector *selector,
                                                      dpsel_mechanism mechanism, uint64_t a,
                                                      uint64_t b, const int64_t *values, size_t m,
                                                      int64_t lower, int64_t upper, dpsel_rng *rng,
                                                      int64_t *value);

/* The exact distribution of the quantile's release over the runs: a pmf
 * (dpsel_pmf_new_grouped) whose candidate i is run i, so that
 * dpsel_pmf_probability(pmf, i, ...) is the chance that the released point
 * lies in run i, and the expected error is that of the scores.  params as
 * for dpsel_quantile_select_runs.  Both mechanisms take any grid.
 * Errors: as dpsel_pmf_new_grouped, and DPSEL_ERANGE for params not made
 * for the runs' quantile. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_quantile_pmf_new(dpsel_pmf **out, const dpsel_params *params,
                                                       dpsel_mechanism mechanism,
                                                       const dpsel_quantile_runs *runs);

/* dpsel_quantile_pmf_new reporting its progress to `progress` (NULL:
 * none) with context, as dpsel_pmf_new_progress does, and cancelled the
 * same way (DPSEL_ECANCELED, *out untouched). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_quantile_pmf_new_progress(dpsel_pmf **out,
                                                                const dpsel_params *params,
                                                                dpsel_mechanism mechanism,
                                                                const dpsel_quantile_runs *runs,
                                                                dpsel_progress_fn progress,
                                                                void *context);

/* dpsel_pmf_exact_work for the pmf dpsel_quantile_pmf_new makes: the size
 * of its exact rationals and the limit, before any work.  Errors as
 * dpsel_quantile_pmf_new (DPSEL_ETOOLARGE excepted). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_quantile_pmf_exact_work(const dpsel_params *params,
                                                              dpsel_mechanism mechanism,
                                                              const dpsel_quantile_runs *runs,
                                                              uint64_t *work, uint64_t *limit);

/* ------------------------------------------ many quantiles: JointExp */

/* JointExp (spec/quantiles.md §8; Gillenwater, Joseph and Kulesza 2021):
 * m quantiles p_1 < ... < p_m released together, as one non-decreasing
 * tuple of grid points o_1 <= ... <= o_m chosen by the exponential
 * mechanism with the utility -sum_(i = 1 .. m + 1) |B (k_i - k_(i-1)) - B
 * (p_i - p_(i-1)) n| (k_i the values below o_i, k_0 = 0, k_(m+1) = n, B
 * the least common denominator of the p_i, n the values), of sensitivity
 * 2 (B - min_i B (p_i - p_(i-1))) (p_0 = 0, p_(m+1) = 1) under adding or
 * removing one value, not monotonic: one epsilon for all m quantiles.
 * Exact: the dynamic program's sums are MPFR enclosures and every draw a
 * lazily read uniform against them.  Work O(m^2 n) and memory about
 * 160 m n bytes, whatever the grid (dpsel_quantiles_joint_select_cost
 * gives both before the work). */

/* The most quantiles one JointExp release takes. */
#define DPSEL_JOINT_QUANTILES_MAX 1024u

/* The largest B log2(1/beta) JointExp takes (B the quantiles' least
 * common denominator, beta = x / 2^y the parameters' base), public
 * parameters only: every weight's exponent then stays within MPFR's range
 * whatever the data (spec/quantiles.md §8).  B log2(1/beta) = B epsilon /
 * (2 D ln 2) <= epsilon / (2 ln 2) with the sensitivity D of
 * dpsel_quantiles_joint_sensitivity, so every epsilon up to 22 is taken. */
#define DPSEL_JOINT_DECAY_MAX 16u

/* The sensitivity of JointExp's utility for the quantiles a[i] / b[i]
 * (each in lowest terms, 0 < a[i] < b[i] <= DPSEL_QUANTILE_DENOMINATOR_MAX,
 * increasing, 1 <= m <= DPSEL_JOINT_QUANTILES_MAX): make the selector's
 * parameters with it and monotonic 0.  Errors: DPSEL_ENULL; DPSEL_ERANGE
 * (m out of range, a quantile not as above, not above the one before it,
 * or a least common denominator above DPSEL_QUANTILE_DENOMINATOR_MAX). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_quantiles_joint_sensitivity(const uint64_t *a,
                                                                  const uint64_t *b, size_t m,
                                                                  uint64_t *sensitivity);

/* One epsilon-DP JointExp release of the m quantiles a[i] / b[i] (as for
 * dpsel_quantiles_joint_sensitivity) of values[0 .. n - 1] (grid points,
 * each clamped into [lower, upper]; values may be NULL when n is 0, and no
 * values give a uniform tuple) on the grid lower .. upper: out[0 .. m - 1]
 * receives the released grid points, non-decreasing.  The selector's
 * parameters must have at least the sensitivity of
 * dpsel_quantiles_joint_sensitivity and monotonic 0: their epsilon is
 * then the release's, for all m quantiles together (the gap cap is not
 * used).  rng's interrupt check (dpsel_rng_set_interrupt) is asked every
 * few thousand values and ranks.  Errors: DPSEL_ENULL; DPSEL_ERANGE (the
 * quantiles, a selector not made for them, lower > upper, a grid of more
 * than 2^62 points, a base with B log2(1/beta) above
 * DPSEL_JOINT_DECAY_MAX); DPSEL_ENOMEM (also past 2^56 values, whose
 * tables no 64-bit machine holds);
 * DPSEL_ERANDOM; DPSEL_EUNLIKELY; DPSEL_ECANCELED; DPSEL_EINTERNAL (a
 * bug).  out is written only on success. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_quantiles_joint_select(const dpsel_selector *selector,
                                                             const uint64_t *a, const uint64_t *b,
                                                             size_t m, const int64_t *values,
                                                             size_t n, int64_t lower,
                                                             int64_t upper, dpsel_rng *rng,
                                                             int64_t *out);

/* count >= 1 independent releases of dpsel_quantiles_joint_select on the
 * same data, with its arguments and errors (and DPSEL_ERANGE for count 0
 * or count m past the memory): out[r m + i] receives quantile i of release
 * r.  The values are sorted and the dynamic program's forward tables made
 * once, so the releases after the first cost one backward pass each,
 * O(m n + m^2) (10^5 values, m = 3: a few ms each); each is epsilon-DP,
 * count of them count epsilon (basic composition: the accountant's).  out
 * is written only on success. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_quantiles_joint_select_many(const dpsel_selector *selector,
                                                                  const uint64_t *a,
                                                                  const uint64_t *b, size_t m,
                                                                  const int64_t *values,
                                                                  size_t n, int64_t lower,
                                                                  int64_t upper, dpsel_rng *rng,
                                                                  size_t count, int64_t *out);

/* dpsel_quantiles_joint_select_many, reporting its progress to `progress`
 * (NULL: none) with context, which can cancel (DPSEL_ECANCELED, out
 * untouched), as dpsel_pmf_new_progress does: the forward tables a rank at
 * a time, then a step per release (never per draw, whose time follows the
 * random bits), in the steps of dpsel_quantiles_joint_select_cost.  A
 * rare refinement of the tables (a draw its bounds cannot decide) counts
 * on at the same fraction.  Errors as dpsel_quantiles_joint_select_many's. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_quantiles_joint_select_many_progress(
    const dpsel_selector *selector, const uint64_t *a, const uint64_t *b, size_t m,
    const int64_t *values, size_t n, int64_t lower, int64_t upper, dpsel_rng *rng, size_t count,
    int64_t *out, dpsel_progress_fn progress, void *context);

/* The cost of dpsel_quantiles_joint_select_many's count releases of m
 * quantiles of n values, known before any work (O(1)), from the sizes
 * alone (neither the values nor the grid): *steps, its MPFR operations
 * (each at 64 bits, a few tens of ns: 4 m (m + 8) (n + 1) for the forward
 * tables, 6 (n + 1) for their total and m (6 (n + 1) + 8 m) a release),
 * and *bytes, an upper bound of the memory it allocates (the tables'
 * 160 m (n + 1) bytes and the rest), both saturated at UINT64_MAX.  A
 * rare draw its bounds cannot decide remakes the tables at twice the
 * precision (spec/quantiles.md §8), beyond this.  Nothing is refused for
 * n: past the machine's memory the call is DPSEL_ENOMEM.  Errors:
 * DPSEL_ENULL; DPSEL_ERANGE (m outside 1 .. DPSEL_JOINT_QUANTILES_MAX,
 * count 0). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_quantiles_joint_select_cost(size_t m, size_t n,
                                                                  size_t count, uint64_t *steps,
                                                                  uint64_t *bytes);

/* JointExp's exact distribution, each quantile's marginal: for quantile i
 * and run r, the chance that the joint release's o_i lies in run r, where
 * the runs are the non-empty sets of grid points with the same count k of
 * values below them (at most n + 1 runs, whatever the grid), and each
 * quantile's expected rank error E |k_i - p_i n| (the values between its
 * release and the true quantile).  Enclosures of relative width below
 * 1e-30 from a forward and a backward pass over the sampler's dynamic
 * program (spec/quantiles.md §8): O(m^2 n) MPFR operations, O(m n)
 * numbers.  No exact rationals: a decimal comes from the enclosure, and
 * one it cannot decide is DPSEL_ETOOLARGE, never a guess.  Immutable once
 * made; the getters may be called from several threads at once. */
typedef struct dpsel_joint_pmf dpsel_joint_pmf;

/* The marginals of dpsel_quantiles_joint_select with these params (at
 * least the sensitivity of dpsel_quantiles_joint_sensitivity, monotonic
 * 0; the gap cap is not used) and the same quantiles, values and grid,
 * reporting its progress to `progress` (NULL: none) with context, which
 * can cancel (DPSEL_ECANCELED, *out untouched).  Errors: DPSEL_ENULL;
 * DPSEL_ERANGE (as dpsel_quantiles_joint_select's, and params not valid or
 * not made for the quantiles); DPSEL_ENOMEM; DPSEL_ECANCELED;
 * DPSEL_EINTERNAL (a bug). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_quantiles_joint_pmf_new(dpsel_joint_pmf **out,
                                                              const dpsel_params *params,
                                                              const uint64_t *a,
                                                              const uint64_t *b, size_t m,
                                                              const int64_t *values, size_t n,
                                                              int64_t lower, int64_t upper,
                                                              dpsel_progress_fn progress,
                                                              void *context);

/* Frees it; safe on NULL. */
DPSEL_API void dpsel_joint_pmf_free(dpsel_joint_pmf *pmf);

/* The number of quantiles m, and of runs; 0 for NULL. */
DPSEL_API size_t dpsel_joint_pmf_quantiles(const dpsel_joint_pmf *pmf);
DPSEL_API size_t dpsel_joint_pmf_runs(const dpsel_joint_pmf *pmf);

/* Run r (0 <= r < runs, in the grid's order): its first grid point, its
 * number of points and its rank k (the values below it).  Any output may
 * be NULL.  Errors: DPSEL_ENULL (pmf NULL), DPSEL_ERANGE (r out of
 * range). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_joint_pmf_run(const dpsel_joint_pmf *pmf, size_t r,
                                                    int64_t *first, uint64_t *points,
                                                    uint64_t *rank);

/* The chance that quantile i's release (0 <= i < m) lies in run r, as a
 * new string of 17 significant digits correctly rounded (release it with
 * dpsel_string_free()), decided by the enclosure, else DPSEL_ETOOLARGE.
 * DPSEL_ENULL, DPSEL_ERANGE (i or r out of range), DPSEL_ENOMEM. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_joint_pmf_probability(const dpsel_joint_pmf *pmf, size_t i,
                                                            size_t r, char **out);

/* Its enclosure, as dpsel_pmf_probability_bounds (digits 1..100). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_joint_pmf_probability_bounds(const dpsel_joint_pmf *pmf,
                                                                   size_t i, size_t r,
                                                                   unsigned digits, char **lo,
                                                                   char **hi);

/* Quantile i's expected rank error E |k_i - p_i n|, likewise. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_joint_pmf_rank_error(const dpsel_joint_pmf *pmf, size_t i,
                                                           char **out);
DPSEL_API DPSEL_WARN_UNUSED int dpsel_joint_pmf_rank_error_bounds(const dpsel_joint_pmf *pmf,
                                                                  size_t i, unsigned digits,
                                                                  char **lo, char **hi);

/* ------------------------------------------------ partial selections */

/* A selection split over shards (spec/partial.md): each shard adds its
 * candidates to a partial state, states merge two by two in any order and
 * grouping, and the merged state finishes into the released candidate,
 * with exactly the distribution of dpsel_select (EM or PF, the same
 * parameters) on all the candidates together.  A state holds, for each
 * clamped gap level 0 .. C below the largest score seen that has
 * candidates, their number and one of them chosen uniformly: at most C + 1
 * levels and their members, whatever the candidates' number.  A candidate
 * is named by its member, bytes the caller chooses (a label, a shard and
 * index); the state keeps a copy.  Adding, merging and finishing draw
 * random bits (the uniform member of each level).
 *
 * A state releases once.  Finishing it, or merging it into another,
 * spends it, and an error part-way through an add or a merge fails it:
 * either way every later use is DPSEL_ERANGE.  Two releases that come from
 * one state (or from two copies of its serialised bytes) share its
 * members and are not independent selections: release each candidate
 * through exactly one path of merges to one finish.  One thread at a time
 * per state. */
typedef struct dpsel_partial dpsel_partial;

/* The longest member, in bytes. */
#define DPSEL_PARTIAL_MEMBER_MAX 65536

/* An empty state for params (their base and gap cap; the mechanism is
 * chosen at the finish).  DPSEL_ENULL, DPSEL_ERANGE (params not valid),
 * DPSEL_ENOMEM. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_partial_new(dpsel_partial **out, const dpsel_params *params);

/* Frees a state; safe on NULL. */
DPSEL_API void dpsel_partial_free(dpsel_partial *partial);

/* The candidates the state counts (0 for NULL). */
DPSEL_API uint64_t dpsel_partial_count(const dpsel_partial *partial);

/* One candidate: its score and its member (member_size bytes; member may
 * be NULL when member_size is 0).  A new maximum folds the levels that
 * reach the cap, asking rng's interrupt check as it goes.  Errors:
 * DPSEL_ENULL; DPSEL_ERANGE (a member above DPSEL_PARTIAL_MEMBER_MAX
 * bytes, more than 2^62 candidates, a failed state); DPSEL_ENOMEM,
 * DPSEL_ERANDOM, DPSEL_EUNLIKELY, DPSEL_ECANCELED (the state then
 * fails). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_partial_add(dpsel_partial *partial, int64_t score,
                                                  const void *member, size_t member_size,
                                                  dpsel_rng *rng);

/* n candidates at once, as n calls of dpsel_partial_add in order (the same
 * state and random bits): candidate i has score scores[i] and member the
 * bytes members[member_ends[i - 1] .. member_ends[i]) (from 0 for i = 0):
 * the members concatenated, member_ends their running ends.  member_ends
 * NULL: every member empty (members may then be NULL).  For bindings that
 * hold arrays (one call for a numpy array); rng's interrupt check is asked
 * every 4096 candidates.  Errors, before any candidate is
 * added: DPSEL_ENULL (partial, rng; scores when n > 0; members when a
 * member is not empty); DPSEL_ERANGE (member_ends decreasing, a member
 * above DPSEL_PARTIAL_MEMBER_MAX bytes, more than 2^62 candidates, a spent
 * or failed state).  Then as dpsel_partial_add, and DPSEL_ECANCELED: the
 * state then fails. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_partial_add_scores(dpsel_partial *partial,
                                                         const int64_t *scores, size_t n,
                                                         const void *members,
                                                         const size_t *member_ends,
                                                         dpsel_rng *rng);

/* Moves `from`'s candidates into `into`: from is spent (empty, and
 * refused from then on), whatever the outcome.  The levels are merged in
 * passes that ask rng's interrupt check (dpsel_rng_set_interrupt).
 * Errors: DPSEL_ENULL; DPSEL_ERANGE (other parameters, the same state,
 * more than 2^62 candidates together, a spent or failed state: nothing
 * moved); DPSEL_ENOMEM, DPSEL_ERANDOM, DPSEL_EUNLIKELY, DPSEL_ECANCELED
 * (`into` then fails). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_partial_merge(dpsel_partial *into, dpsel_partial *from,
                                                    dpsel_rng *rng);

/* The selection: *member and *member_size receive the released
 * candidate's member (a pointer into the state, valid until the state is
 * freed), and the state is spent.  The selector must have the state's base
 * and gap cap.
 * EM takes at most DPSEL_QUANTILE_EM_GRID_MAX candidates; PF takes any
 * number, in time proportional to the state's levels whatever their counts
 * (a forged state claiming 2^62 candidates finishes in microseconds;
 * spec/partial.md §2), asking rng's interrupt check
 * (dpsel_rng_set_interrupt) every few thousand levels.  Errors: DPSEL_ENULL;
 * DPSEL_EEMPTY (no candidate); DPSEL_ERANGE (another base or cap, an
 * unknown mechanism, EM beyond its limit, a spent or failed state);
 * DPSEL_ENOMEM; DPSEL_ERANDOM; DPSEL_EUNLIKELY, DPSEL_ECANCELED (the state
 * is then left as it was). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_partial_finish(dpsel_partial *partial,
                                                     const dpsel_selector *selector,
                                                     dpsel_mechanism mechanism, dpsel_rng *rng,
                                                     const void **member, size_t *member_size);

/* The state as bytes (versioned, with a BLAKE2b checksum: spec/partial.md
 * §4) into buf; *size receives their number.  With buf NULL, only the
 * size.  The bytes stand for the state's candidates: release them through
 * one path only (see above).  The bytes are not encrypted: they hold the
 * members.  Errors: DPSEL_ENULL (partial, size); DPSEL_ERANGE (buf_size too
 * small, a spent or failed state).
 *
 * The checksum protects against accidents: corruption in transit or
 * storage, truncation, bytes appended, a state made for other parameters,
 * a state of another version.  It does not protect against forgery: it is
 * unkeyed, so anyone who can write the bytes can write any state that
 * passes, with any counts (up to 2^62 candidates) and members.  Where
 * states cross a trust boundary (a shard that may be compromised, storage
 * others can write), seal them with dpsel_partial_serialize_keyed instead.
 * Either way the work a state can demand is bounded by its levels (at most
 * the gap cap + 1) and its bytes, whatever counts it claims. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_partial_serialize(const dpsel_partial *partial,
                                                        unsigned char *buf, size_t buf_size,
                                                        size_t *size);

/* A state from bytes, every field checked: DPSEL_ESTATE for anything but
 * a state dpsel_partial_serialize wrote for params' base and gap cap (a
 * wrong magic or version, a corrupt checksum, levels out of order or out
 * of range, counts that do not add up, trailing bytes).  Also DPSEL_ENULL,
 * DPSEL_ERANGE (params not valid), DPSEL_ENOMEM. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_partial_deserialize(dpsel_partial **out,
                                                          const dpsel_params *params,
                                                          const unsigned char *buf, size_t size);

/* The shortest and longest keys of the keyed serialised form, in bytes. */
#define DPSEL_PARTIAL_KEY_MIN 16
#define DPSEL_PARTIAL_KEY_MAX 64

/* dpsel_partial_serialize, sealed with a MAC instead of a checksum:
 * BLAKE2b-256 keyed with key (key_size bytes, DPSEL_PARTIAL_KEY_MIN to
 * DPSEL_PARTIAL_KEY_MAX: 32 random bytes the deployment holds, such as
 * libsodium's crypto_generichash_keygen gives), under a version byte of its
 * own (spec/partial.md §4).  Only a holder of the key can make bytes that
 * dpsel_partial_deserialize_keyed accepts.  Errors: as
 * dpsel_partial_serialize, and DPSEL_ENULL (key), DPSEL_ERANGE (key_size
 * outside those limits). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_partial_serialize_keyed(const dpsel_partial *partial,
                                                              const unsigned char *key,
                                                              size_t key_size, unsigned char *buf,
                                                              size_t buf_size, size_t *size);

/* dpsel_partial_deserialize of a state dpsel_partial_serialize_keyed sealed
 * with the same key: the MAC is compared in constant time, and a wrong key,
 * any byte changed, and a state of the unkeyed form are all DPSEL_ESTATE
 * (the unkeyed reader likewise refuses the keyed form).  Errors: as
 * dpsel_partial_deserialize, and DPSEL_ENULL (key), DPSEL_ERANGE (key_size
 * outside the limits). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_partial_deserialize_keyed(dpsel_partial **out,
                                                                const dpsel_params *params,
                                                                const unsigned char *key,
                                                                size_t key_size,
                                                                const unsigned char *buf,
                                                                size_t size);

/* ------------------------------------------------------------- accountant */

/* The privacy of many releases together (spec/accounting.md): an
 * accountant collects releases, each a mechanism and an epsilon, counted
 * any number of times, and states rigorous upper bounds of their
 * composition:
 *   pure          the sum of the epsilons (basic composition);
 *   zCDP          rho = sum of eps^2 / 8 for EM (an eps-DP EM is eps-bounded
 *                 range) and eps^2 / 2 for PF (a generic eps-DP mechanism),
 *                 and the epsilon it gives at a delta (Canonne, Kamath &
 *                 Steinke's conversion: at least as tight as Bun &
 *                 Steinke's);
 *   bounded range when every release is EM: adaptively, the concentration
 *                 bound sum KL*(eps) + sqrt(sum eps^2 ln(1/delta) / 2) (Dong,
 *                 Durfee & Rogers); non-adaptively, their optimal composition
 *                 of k eps-bounded-range mechanisms, eps the largest (up to
 *                 DPSEL_ACCOUNT_NONADAPTIVE_MAX releases);
 *   dp-optimal    the optimal composition of k eps-DP mechanisms, eps the
 *                 largest (Kairouz, Oh & Viswanath; up to
 *                 DPSEL_ACCOUNT_OPTIMAL_MAX releases);
 * and the best of them.  Every figure is computed in MPFR with directed
 * rounding and printed with 17 significant digits rounded up.  Releases
 * composed adaptively (a later one chosen after an earlier one's output,
 * as the rounds of dpsel_select_top) must be reported with
 * DPSEL_ADAPTIVE: the non-adaptive optimum does not hold for them. */
typedef struct dpsel_accountant dpsel_accountant;

typedef enum {
    DPSEL_ADAPTIVE = 0,    /* any release may depend on earlier outputs */
    DPSEL_NONADAPTIVE = 1  /* all releases fixed before any output is seen */
} dpsel_composition;

/* The most releases the optimal compositions take (their work grows with
 * the count: linearly for dp-optimal, quadratically for the non-adaptive
 * bounded range). */
#define DPSEL_ACCOUNT_OPTIMAL_MAX 20000
#define DPSEL_ACCOUNT_NONADAPTIVE_MAX 256

/* A new, empty accountant.  DPSEL_ENULL, DPSEL_ENOMEM. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_accountant_new(dpsel_accountant **out);

/* Frees it; safe on NULL. */
DPSEL_API void dpsel_accountant_free(dpsel_accountant *accountant);

/* count releases of the mechanism, each at `epsilon`, a decimal as for
 * dpsel_params_from_epsilon ("0.5", "1e-3"): an eps-DP EM (eps-bounded
 * range), PF or RNM (report noisy max, charged as PF: a generic eps-DP
 * release).  Errors: DPSEL_ENULL; DPSEL_ERANGE (an unknown mechanism,
 * count 0, or more than 2^62 releases in all); DPSEL_EEPSILON (epsilon not
 * such a decimal, or 0); DPSEL_ENOMEM.  On failure nothing is added. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_accountant_add(dpsel_accountant *accountant,
                                                     dpsel_mechanism mechanism,
                                                     const char *epsilon, uint64_t count);

/* count releases of the mechanism with params: their realised epsilon (an
 * upper bound in MPFR, as dpsel_params_epsilon states it).  Errors as
 * dpsel_accountant_add, DPSEL_ERANGE for params not valid or DPSEL_RNM
 * (whose epsilon is a decimal: dpsel_accountant_add). */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_accountant_add_params(dpsel_accountant *accountant,
                                                            dpsel_mechanism mechanism,
                                                            const dpsel_params *params,
                                                            uint64_t count);

/* Room for one figure: 17 significant digits in dpsel's decimal style,
 * rounded up ("1.2500000000000001e+39", "0.00058883001125600124"), "0"
 * where a bound is 0 or below (an epsilon that holds, e.g. at a delta of
 * 1/2 or more), or "inf" where no finite bound was found. */
#define DPSEL_ACCOUNT_TEXT 40

/* What the accountant states.  A figure that does not apply is "". */
typedef struct {
    uint64_t releases;                          /* counted in all */
    char pure[DPSEL_ACCOUNT_TEXT];              /* epsilon, delta 0 */
    char rho[DPSEL_ACCOUNT_TEXT];               /* zCDP */
    char zcdp[DPSEL_ACCOUNT_TEXT];              /* epsilon at delta, from rho */
    char bounded_range[DPSEL_ACCOUNT_TEXT];     /* epsilon at delta: every release EM */
    char dp_optimal[DPSEL_ACCOUNT_TEXT];        /* epsilon at delta: KOV */
    char best[DPSEL_ACCOUNT_TEXT];              /* the least of the above */
    const char *best_method;                    /* "pure", "zcdp", "bounded-range"
                                                   or "dp-optimal" (static) */
    const char *bounded_range_composition;      /* the bound bounded_range states:
                                                   "non-adaptive" (DDR's optimum),
                                                   "adaptive" (asked for, or beyond
                                                   DPSEL_ACCOUNT_NONADAPTIVE_MAX
                                                   releases), "" when none (static) */
} dpsel_account;

/* The account of the releases added so far.  delta: a decimal in (0, 1)
 * as epsilon ("1e-6"), or NULL for pure epsilon and rho alone (the epsilon
 * figures at a delta are then "").  Errors: DPSEL_ENULL (accountant, out);
 * DPSEL_EEMPTY (no release); DPSEL_ERANGE (delta not in (0, 1), an unknown
 * composition); DPSEL_EEPSILON (delta not such a decimal); DPSEL_ENOMEM.
 * *out is written only on success. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_accountant_report(const dpsel_accountant *accountant,
                                                        const char *delta,
                                                        dpsel_composition composition,
                                                        dpsel_account *out);

/* The guarantee for groups: data sets that differ in up to `group` people
 * (spec/accounting.md §8).  A release that is eps-DP for one person is
 * (group x eps)-DP for groups of that many (EM group x eps-bounded range),
 * so `account` is the accountant's report with every epsilon `group`
 * times larger: pure is group x the pure sum, and the figures at delta
 * hold at that same delta.  Beside it, the group privacy theorem applied
 * to the individual best figure eps at delta: (group x eps,
 * group e^((group - 1) eps) delta)-DP, as `epsilon` and `delta` (17
 * digits rounded up; "" without delta; a delta of 1 or more says nothing).
 * group 1 states the individual guarantee.  Errors as
 * dpsel_accountant_report, and DPSEL_ERANGE for group 0 or above
 * DPSEL_ACCOUNT_GROUP_MAX.  *out is written only on success. */
#define DPSEL_ACCOUNT_GROUP_MAX ((uint64_t)1 << 32)
typedef struct {
    uint64_t group;                             /* people in a group */
    dpsel_account account;                      /* each release's epsilon x group */
    char epsilon[DPSEL_ACCOUNT_TEXT];           /* the theorem: group x best */
    char delta[DPSEL_ACCOUNT_TEXT];             /* group e^((group-1) best) delta */
} dpsel_group_account;

DPSEL_API DPSEL_WARN_UNUSED int dpsel_accountant_report_group(const dpsel_accountant *accountant,
                                                              const char *delta,
                                                              dpsel_composition composition,
                                                              uint64_t group,
                                                              dpsel_group_account *out);

/* ------------------------------------------------------------------ audit */

/* The privacy audit of a mechanism on two score vectors a and b (candidate r
 * is the same in both; spec/mechanisms.md §9).  The privacy loss is
 *   max over r of |ln(P_a(r) / P_b(r))|,
 * P_a, P_b the output distributions (dpsel_pmf_new), and the claim is
 * loss <= epsilon, the realised epsilon of the parameters (k D ln(2^y / x),
 * k = 1 if monotonic, else 2).  The verdict compares the loss with the claim
 * rigorously, whether or not a and b are neighbours for D: a pair farther
 * apart than D (a sensitivity too small for the data) may break the claim,
 * and then the verdict says so. */
typedef enum {
    DPSEL_AUDIT_HOLDS = 0,     /* proved: loss <= epsilon */
    DPSEL_AUDIT_BROKEN = 1,    /* proved: loss > epsilon */
    DPSEL_AUDIT_UNDECIDED = 2  /* neither could be proved (an output whose
                                  ratio lies within the enclosures' width,
                                  ~1e-30, of e^epsilon and that no exact
                                  argument settles); never a guess */
} dpsel_audit_verdict;

/* Room for a loss bound: 36 significant digits in dpsel's decimal style. */
#define DPSEL_AUDIT_TEXT 56

typedef struct {
    dpsel_audit_verdict verdict;
    uint64_t distance;      /* max_r |a_r - b_r| (the neighbour check) */
    int b_at_least_a;       /* 1 if b_r >= a_r for every r */
    int b_at_most_a;        /* 1 if b_r <= a_r for every r */
    int neighbours;         /* 1 if distance <= D and, when the parameters
                               say monotonic, one of the two flags above */
    size_t output;          /* an output with the largest lower bound of
                               its log-ratio ... */
    int a_over_b;           /* ... and its direction: 1 for ln(P_a / P_b),
                               0 for ln(P_b / P_a) */
    size_t decided_exactly; /* comparisons (output, direction) the
                               enclosures left open, decided exactly */
    char loss_lower[DPSEL_AUDIT_TEXT];  /* lower <= loss <= upper: rounded */
    char loss_upper[DPSEL_AUDIT_TEXT];  /* down and up to 36 digits */
} dpsel_audit_result;

/* Audits `mechanism` with `params` on scores_a[0..n-1] and scores_b[0..n-1]:
 * computes both pmfs and fills *out.  Errors as dpsel_pmf_new: DPSEL_ENULL,
 * DPSEL_EEMPTY, DPSEL_ERANGE, DPSEL_ENOMEM, DPSEL_EINTERNAL. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_audit(dpsel_audit_result *out, const dpsel_params *params,
                          dpsel_mechanism mechanism, const int64_t *scores_a,
                          const int64_t *scores_b, size_t n);

/* dpsel_audit, reporting its progress to `progress` (NULL: none) with
 * context as dpsel_pmf_new_progress does, and cancelled the same way
 * (DPSEL_ECANCELED, *out untouched): each pmf takes 7/16 of the scale, the
 * comparisons the rest. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_audit_progress(dpsel_audit_result *out,
                                                     const dpsel_params *params,
                                                     dpsel_mechanism mechanism,
                                                     const int64_t *scores_a,
                                                     const int64_t *scores_b, size_t n,
                                                     dpsel_progress_fn progress, void *context);

/* The audit of report noisy max (dpsel_rnm_select with these epsilon,
 * sensitivity and monotonic) on scores_a and scores_b, as dpsel_audit_progress
 * (progress may be NULL): the loss against the decimal epsilon itself,
 * which RNM realises exactly, from the enclosures of dpsel_rnm_pmf_new
 * alone (no exact rationals: a comparison they leave open makes the
 * verdict undecided).  It catches what a wrong scale does: the notebook's
 * D / epsilon on scores declared monotonic that are not (one score up by
 * D, another down) is broken at a large enough gap (spec/mechanisms.md
 * §14).  Errors: as dpsel_rnm_pmf_new's, and DPSEL_ENULL for out or
 * scores_b NULL. */
DPSEL_API DPSEL_WARN_UNUSED int dpsel_rnm_audit(dpsel_audit_result *out, const char *epsilon,
                                                uint64_t sensitivity, int monotonic,
                                                const int64_t *scores_a,
                                                const int64_t *scores_b, size_t n,
                                                dpsel_progress_fn progress, void *context);

#ifdef __cplusplus
}
#endif

#endif /* DPSEL_H */
