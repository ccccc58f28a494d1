/* SPDX-License-Identifier: ISC */
/* The random source under a hostile integrator:
 * fork (parent, children and grandchildren never share a bit, from any
 * thread), copies of an OS source (refused, never a replay), a corrupted
 * state (DPSEL_ERANDOM, never a read outside it), used bits (never kept),
 * and a failing getrandom (DPSEL_ERANDOM, never an abort). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "support.h"

/* Words read from a source and compared between processes: two sources
 * that share no bit agree on a given pair of words with probability 2^-63,
 * so on any of the WORDS^2 pairs with probability below 2^-53. */
#define WORDS 16

typedef struct {
    uint64_t word[WORDS];
} draws;

/* Reads WORDS words; a child process calls it too, so no Criterion
 * assertion here: the caller checks the result. */
static int try_read_words(dpsel_rng *rng, draws *out)
{
    int rc = DPSEL_OK;
    for (size_t i = 0; i < WORDS && rc == DPSEL_OK; i++) {
        rc = dpsel_internal_rng_bits(rng, 63, &out->word[i]);
    }
    return rc;
}

static void read_words(dpsel_rng *rng, draws *out)
{
    cr_assert_eq(try_read_words(rng, out), DPSEL_OK);
}

/* Ends a forked child: its result on the pipe, and whether all went well. */
static void child_exit(int fd, const void *result, size_t size, int ok)
{
    _exit(ok && write(fd, result, size) == (ssize_t)size ? 0 : 1);
}

/* No word of a equals any word of b (a shifted replay is caught too). */
static void expect_no_shared_word(const draws *a, const draws *b, const char *what)
{
    for (size_t i = 0; i < WORDS; i++) {
        for (size_t j = 0; j < WORDS; j++) {
            cr_expect_neq(a->word[i], b->word[j], "%s: word %zu of one is word %zu of the other",
                          what, i, j);
        }
    }
}

/* Runs read_words(rng) in a forked child and returns what it read. */
static void child_words(dpsel_rng *rng, draws *out)
{
    int pipe_fds[2];
    cr_assert_eq(pipe(pipe_fds), 0);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        draws mine;
        int rc = try_read_words(rng, &mine);
        child_exit(pipe_fds[1], &mine, sizeof mine, rc == DPSEL_OK);
    }
    close(pipe_fds[1]);
    cr_assert_eq(read(pipe_fds[0], out, sizeof *out), (ssize_t)sizeof *out);
    close(pipe_fds[0]);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child failed");
}

/* An OS source that has been used: its buffer holds unread bits. */
static void used_os_source(dpsel_rng *rng)
{
    uint64_t value;
    cr_assert_eq(dpsel_rng_init_os(rng), DPSEL_OK);
    cr_assert_eq(dpsel_internal_rng_bits(rng, 5, &value), DPSEL_OK);
}

Test(rng_fork, parent_and_child_share_no_bit)
{
    dpsel_rng rng;
    used_os_source(&rng);
    draws child, parent;
    child_words(&rng, &child);
    read_words(&rng, &parent);
    expect_no_shared_word(&parent, &child, "parent and child");
    dpsel_rng_wipe(&rng);
}

Test(rng_fork, two_children_share_no_bit)
{
    dpsel_rng rng;
    used_os_source(&rng);
    draws first, second;
    child_words(&rng, &first);
    child_words(&rng, &second);
    expect_no_shared_word(&first, &second, "two children of one parent");
    dpsel_rng_wipe(&rng);
}

/* A child that forks again: parent, child and grandchild all differ.  The
 * grandchild is forked after the child used the source, and before. */
static void child_and_grandchild(dpsel_rng *rng, int child_reads_first, draws *out)
{
    int pipe_fds[2];
    cr_assert_eq(pipe(pipe_fds), 0);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        draws mine[2];
        int rc = child_reads_first ? try_read_words(rng, &mine[0]) : DPSEL_OK;
        child_words(rng, &mine[1]);  /* asserts only in the grandchild's parent */
        if (!child_reads_first) {
            rc = try_read_words(rng, &mine[0]);
        }
        child_exit(pipe_fds[1], mine, sizeof mine, rc == DPSEL_OK);
    }
    close(pipe_fds[1]);
    cr_assert_eq(read(pipe_fds[0], out, 2 * sizeof *out), (ssize_t)(2 * sizeof *out));
    close(pipe_fds[0]);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child failed");
}

Test(rng_fork, double_fork_shares_no_bit)
{
    for (int child_reads_first = 0; child_reads_first <= 1; child_reads_first++) {
        dpsel_rng rng;
        used_os_source(&rng);
        draws family[2], parent;
        child_and_grandchild(&rng, child_reads_first, family);
        read_words(&rng, &parent);
        expect_no_shared_word(&parent, &family[0], "parent and child");
        expect_no_shared_word(&parent, &family[1], "parent and grandchild");
        expect_no_shared_word(&family[0], &family[1], "child and grandchild");
        dpsel_rng_wipe(&rng);
    }
}

/* fork() from a second thread: the child inherits the sources of both
 * threads (the main thread's too), and shares no bit of either. */
typedef struct {
    dpsel_rng *main_source;
    draws main_in_child, own_in_child, own_in_parent;
} forking_thread;

static void *fork_from_thread(void *arg)
{
    forking_thread *t = arg;
    dpsel_rng own;
    used_os_source(&own);
    child_words(t->main_source, &t->main_in_child);
    child_words(&own, &t->own_in_child);
    read_words(&own, &t->own_in_parent);
    dpsel_rng_wipe(&own);
    return NULL;
}

Test(rng_fork, fork_from_another_thread_shares_no_bit)
{
    dpsel_rng rng;
    used_os_source(&rng);
    static forking_thread t;
    t.main_source = &rng;
    pthread_t id;
    cr_assert_eq(pthread_create(&id, NULL, fork_from_thread, &t), 0);
    cr_assert_eq(pthread_join(id, NULL), 0);
    draws main_in_parent;
    read_words(&rng, &main_in_parent);
    expect_no_shared_word(&main_in_parent, &t.main_in_child, "the main thread's source");
    expect_no_shared_word(&t.own_in_parent, &t.own_in_child, "the forking thread's source");
    dpsel_rng_wipe(&rng);
}

/* Selections, as an integrator sees them: 16 selections over 2^20
 * equal candidates in the parent and in the child, never all alike. */
Test(rng_fork, selections_after_fork_differ)
{
    enum { SELECTIONS = 16, CANDIDATES = 1 << 20 };
    dpsel_params p = base_params(1, 1, 1, 0);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    int64_t *scores = calloc(CANDIDATES, sizeof *scores);
    cr_assert_not_null(scores);
    dpsel_rng rng;
    used_os_source(&rng);
    int pipe_fds[2];
    cr_assert_eq(pipe(pipe_fds), 0);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    size_t mine[SELECTIONS];
    int rc = DPSEL_OK;
    for (size_t i = 0; i < SELECTIONS && rc == DPSEL_OK; i++) {
        rc = dpsel_select(selector, DPSEL_EM, scores, CANDIDATES, &rng, &mine[i]);
    }
    if (pid == 0) {
        child_exit(pipe_fds[1], mine, sizeof mine, rc == DPSEL_OK);
    }
    cr_assert_eq(rc, DPSEL_OK);
    size_t child[SELECTIONS];
    cr_assert_eq(read(pipe_fds[0], child, sizeof child), (ssize_t)sizeof child);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child failed");
    size_t same = 0;
    for (size_t i = 0; i < SELECTIONS; i++) {
        same += mine[i] == child[i];
    }
    /* independent uniform choices among 2^20: 4 or more alike has
     * probability below 2^-65 */
    cr_expect_lt(same, 4, "%zu of %d selections alike in parent and child", same, SELECTIONS);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    dpsel_rng_wipe(&rng);
    free(scores);
    dpsel_selector_free(selector);
}

/* ----------------------------------------------------------------- copies */

static int read_from_copy_by_value(dpsel_rng copy)
{
    uint64_t value;
    return dpsel_internal_rng_bits(&copy, 63, &value);
}

Test(rng_copy, a_copy_of_an_os_source_gives_no_bits)
{
    dpsel_rng rng;
    used_os_source(&rng);
    dpsel_rng assigned = rng;
    dpsel_rng *heap = malloc(sizeof *heap);
    cr_assert_not_null(heap);
    memcpy(heap, &rng, sizeof rng);
    uint64_t value = 7;
    unsigned bit = 7;
    cr_expect_eq(dpsel_internal_rng_bits(&assigned, 63, &value), DPSEL_ERANDOM);
    cr_expect_eq(dpsel_internal_rng_zeros(heap, 64, &value), DPSEL_ERANDOM);
    cr_expect_eq(dpsel_internal_rng_bit(heap, &bit), DPSEL_ERANDOM);
    cr_expect_eq(read_from_copy_by_value(rng), DPSEL_ERANDOM);
    cr_expect_eq(value, 7);
    cr_expect_eq(bit, 7);

    dpsel_params p = base_params(1, 1, 1, 0);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    const int64_t scores[3] = { 1, 2, 3 };
    size_t index = 99;
    for (int m = DPSEL_PF; m <= DPSEL_EM; m++) {
        cr_expect_eq(dpsel_select(selector, (dpsel_mechanism)m, scores, 3, &assigned, &index),
                     DPSEL_ERANDOM);
        cr_expect_eq(dpsel_select_hardened(selector, (dpsel_mechanism)m, scores, 3, heap,
                                           &index), DPSEL_ERANDOM);
    }
    cr_expect_eq(index, 99);

    /* wiping a copy leaves the original's page alone */
    dpsel_rng_wipe(&assigned);
    dpsel_rng_wipe(heap);
    free(heap);
    cr_expect_eq(dpsel_internal_rng_bits(&rng, 63, &value), DPSEL_OK);
    cr_expect_eq(dpsel_select(selector, DPSEL_PF, scores, 3, &rng, &index), DPSEL_OK);
    cr_expect_lt(index, 3);
    dpsel_selector_free(selector);
    dpsel_rng_wipe(&rng);
}

/* A copy made into a source initialised again is a new, independent one. */
Test(rng_copy, a_copy_initialised_again_is_independent)
{
    dpsel_rng rng, copy;
    used_os_source(&rng);
    copy = rng;
    cr_assert_eq(dpsel_rng_init_os(&copy), DPSEL_OK);
    draws a, b;
    read_words(&rng, &a);
    read_words(&copy, &b);
    expect_no_shared_word(&a, &b, "a source and its re-initialised copy");
    dpsel_rng_wipe(&copy);
    dpsel_rng_wipe(&rng);
}

/* A seeded source is a deterministic stream: a copy replays it, by design. */
Test(rng_copy, a_copy_of_a_seeded_source_replays_it)
{
    dpsel_rng rng = seeded_rng(5);
    uint64_t first;
    cr_assert_eq(dpsel_internal_rng_bits(&rng, 7, &first), DPSEL_OK);
    dpsel_rng copy = rng;
    draws a, b;
    read_words(&rng, &a);
    read_words(&copy, &b);
    cr_expect(memcmp(&a, &b, sizeof a) == 0);
}

/* ------------------------------------------------------- corrupted states */

/* Every read from the source fails with DPSEL_ERANDOM and writes nothing. */
static void expect_refused(dpsel_rng *rng, const char *what)
{
    uint64_t value = 7;
    unsigned bit = 7;
    cr_expect_eq(dpsel_internal_rng_bit(rng, &bit), DPSEL_ERANDOM, "%s: bit", what);
    cr_expect_eq(dpsel_internal_rng_bits(rng, 63, &value), DPSEL_ERANDOM, "%s: bits", what);
    cr_expect_eq(dpsel_internal_rng_zeros(rng, UINT64_MAX, &value), DPSEL_ERANDOM, "%s: zeros",
                 what);
    cr_expect_eq(value, 7, "%s", what);
    cr_expect_eq(bit, 7, "%s", what);
}

/* The positions of a state broken in each way an invariant can break. */
static void break_state(dpsel_rng_state_ *s, int how)
{
    switch (how) {
    case 0: s->bits_left_ = 0; s->buffer_left_ = 264; break;  /* past the buffer */
    case 1: s->bits_left_ = 0; s->buffer_left_ = 7; break;    /* not a whole word */
    case 2: s->bits_left_ = 0; s->buffer_left_ = UINT32_MAX; break;
    case 3: s->bits_left_ = 65; break;                        /* more than a word */
    default: s->bits_left_ = 3; s->unread_ = 1u << 3; break;  /* a used bit kept */
    }
}
#define BROKEN_WAYS 5

Test(rng_state, a_broken_invariant_is_an_error_never_a_read_outside)
{
    for (int how = 0; how < BROKEN_WAYS; how++) {
        dpsel_rng os, seeded = seeded_rng(9);
        used_os_source(&os);
        uint64_t value;
        cr_assert_eq(dpsel_internal_rng_bits(&seeded, 5, &value), DPSEL_OK);
        break_state(os.os_state_, how);
        break_state(&seeded.seeded_, how);
        expect_refused(&os, "OS");
        expect_refused(&seeded, "seeded");
        dpsel_rng_wipe(&os);
    }
}

/* Misuse: two threads read one source at once.  Every read returns
 * DPSEL_OK with a value in range or DPSEL_ERANDOM, during and after; under
 * `make sanitize` AddressSanitizer checks that no read leaves the state. */
#define RACING_READS 200000

typedef struct {
    dpsel_rng *rng;
    int bad;
} racer;

static void *race_reads(void *arg)
{
    racer *r = arg;
    for (unsigned i = 0; i < RACING_READS; i++) {
        uint64_t value = 0;
        unsigned count = i % 64;
        int rc = i % 3 == 0 ? dpsel_internal_rng_zeros(r->rng, i % 200, &value)
                            : dpsel_internal_rng_bits(r->rng, count % 64 == 0 ? 1 : count, &value);
        if (rc != DPSEL_OK && rc != DPSEL_ERANDOM) {
            r->bad++;
        }
        if (rc == DPSEL_OK && i % 3 != 0 && count > 0 && value >> count != 0) {
            r->bad++;
        }
    }
    return NULL;
}

Test(rng_state, two_threads_on_one_source_stay_inside_it)
{
    dpsel_rng rng;
    used_os_source(&rng);
    racer racers[2] = { { &rng, 0 }, { &rng, 0 } };
    pthread_t ids[2];
    for (int t = 0; t < 2; t++) {
        cr_assert_eq(pthread_create(&ids[t], NULL, race_reads, &racers[t]), 0);
    }
    for (int t = 0; t < 2; t++) {
        cr_assert_eq(pthread_join(ids[t], NULL), 0);
        cr_expect_eq(racers[t].bad, 0);
    }
    race_reads(&racers[0]);
    cr_expect_eq(racers[0].bad, 0);
    dpsel_rng_wipe(&rng);
}

/* -------------------------------------------------------------- used bits */

/* After any read, the state holds no bit already given out: the current
 * word keeps only its unread bits, and the buffer only its unread bytes. */
static void expect_only_unread_bits(const dpsel_rng_state_ *s)
{
    cr_assert_leq(s->bits_left_, 64);
    if (s->bits_left_ < 64) {
        cr_expect_eq(s->unread_ >> s->bits_left_, 0, "used bits kept in the current word");
    }
    size_t used = sizeof s->buffer_ - s->buffer_left_;
    for (size_t i = 0; i < used; i++) {
        cr_expect_eq(s->buffer_[i], 0, "used byte %zu kept in the buffer", i);
    }
}

Test(rng_state, used_bits_are_not_kept)
{
    dpsel_rng os, seeded = seeded_rng(11);
    cr_assert_eq(dpsel_rng_init_os(&os), DPSEL_OK);
    uint64_t value;
    for (unsigned i = 0; i < 3000; i++) {
        unsigned count = 1 + i % 63;
        cr_assert_eq(dpsel_internal_rng_bits(&os, count, &value), DPSEL_OK);
        cr_assert_eq(dpsel_internal_rng_bits(&seeded, count, &value), DPSEL_OK);
        expect_only_unread_bits(os.os_state_);
        expect_only_unread_bits(&seeded.seeded_);
        cr_assert_eq(dpsel_internal_rng_zeros(&os, i % 70, &value), DPSEL_OK);
        expect_only_unread_bits(os.os_state_);
    }
    dpsel_rng_wipe(&os);
}

/* ------------------------------------------------ a failing OS source */

/* In a child without randomness: an OS source reports DPSEL_ERANDOM from
 * every selection (a fresh one, or one the parent used before the fork, if
 * given), and a seeded source still works (it needs no OS randomness).
 * Exit status 0 when all held; an abort (as libsodium's randombytes
 * would) kills the child with SIGABRT. */
static int without_randomness(dpsel_rng *inherited)
{
    if (!deny_os_randomness()) {
        return 2;
    }
    dpsel_params p = base_params(1, 1, 1, 0);
    dpsel_selector *selector = NULL;
    const int64_t scores[3] = { 1, 2, 3 };
    size_t index = 99;
    dpsel_rng fresh, seeded;
    int ok = dpsel_selector_new(&selector, &p) == DPSEL_OK
          && dpsel_rng_init_os(&fresh) == DPSEL_OK
          && dpsel_select(selector, DPSEL_PF, scores, 3, &fresh, &index) == DPSEL_ERANDOM
          && (inherited == NULL
              || dpsel_select(selector, DPSEL_EM, scores, 3, inherited, &index) == DPSEL_ERANDOM)
          && index == 99
          && dpsel_rng_init_seeded(&seeded, (const unsigned char *)"s", 1) == DPSEL_OK
          && dpsel_select(selector, DPSEL_PF, scores, 3, &seeded, &index) == DPSEL_OK;
    dpsel_rng_wipe(&fresh);
    dpsel_selector_free(selector);
    return ok ? 0 : 1;
}

static void expect_error_without_randomness(dpsel_rng *inherited)
{
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        _exit(without_randomness(inherited));
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(!WIFSIGNALED(status), "the child was killed by signal %d", WTERMSIG(status));
    cr_assert(WIFEXITED(status));
    cr_assert_neq(WEXITSTATUS(status), 2, "could not install the seccomp filter");
    cr_expect_eq(WEXITSTATUS(status), 0, "a selection without randomness did not fail as it should");
}

/* The first OS source of the process is made where getrandom fails. */
Test(rng_failure, a_failing_getrandom_is_an_error_never_an_abort)
{
    expect_error_without_randomness(NULL);
}

/* A source used before the fork: the child cannot key it afresh, so it
 * must fail rather than go on with the parent's bits. */
Test(rng_failure, a_source_inherited_where_getrandom_fails_gives_no_bits)
{
    dpsel_rng inherited;
    used_os_source(&inherited);
    expect_error_without_randomness(&inherited);
    dpsel_rng_wipe(&inherited);
}
