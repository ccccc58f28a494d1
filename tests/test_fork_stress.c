/* SPDX-License-Identifier: ISC */
/* Fork after threads, at scale: worker threads draw from
 * their own OS sources while the main thread forks CHILDREN children one
 * after another.  Each child releases with PF from the main thread's OS
 * source (initialised and used before the fork, drawn from by the parent
 * between forks: its buffer holds unread bits at every fork) and reads raw
 * words from it and from a worker's source (inherited mid-use).  Three
 * checks, each with false-alarm probability at most 1e-6 (3e-6 in all):
 *   - the releases fit the exact pmf (chi-square);
 *   - equal consecutive releases are not more frequent than chance;
 *   - no two 63-bit words (children's and the parent's) are equal.
 * Their power is stated at each check below. */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "support.h"

#define CHILDREN 10000
#define WORKERS 2
#define CANDIDATES 16
#define WORDS_PER_SOURCE 2

/* A child's report, in a page shared with the parent. */
typedef struct {
    size_t release;
    uint64_t main_words[WORDS_PER_SOURCE];
    uint64_t worker_words[WORDS_PER_SOURCE];
    int done;
} child_report;

/* Gaps 0 .. 15 at base 3/4 (PF): P(the best) 0.289, sum of p^2 0.163. */
static const int64_t scores[CANDIDATES] = { 15, 14, 13, 12, 11, 10, 9, 8,
                                            7, 6, 5, 4, 3, 2, 1, 0 };

typedef struct {
    const dpsel_selector *selector;
    dpsel_rng rng;
    atomic_int *stop;
    int rc;
} worker;

/* Selects until told to stop: the forks happen while it reads its source.
 * A pause between selections leaves the forking thread a core. */
static void *run_worker(void *arg)
{
    worker *w = arg;
    size_t index;
    for (unsigned i = 0; w->rc == DPSEL_OK && !atomic_load(w->stop); i++) {
        w->rc = dpsel_select(w->selector, i % 2 ? DPSEL_EM : DPSEL_PF, scores, CANDIDATES,
                             &w->rng, &index);
        usleep(20);
    }
    return NULL;
}

static int read_words(dpsel_rng *rng, uint64_t *words)
{
    int rc = DPSEL_OK;
    for (size_t i = 0; i < WORDS_PER_SOURCE && rc == DPSEL_OK; i++) {
        rc = dpsel_internal_rng_bits(rng, 63, &words[i]);
    }
    return rc;
}

/* The child's work: no Criterion call, the parent checks the report. */
static void run_child(const dpsel_selector *selector, dpsel_rng *main_rng,
                      dpsel_rng *worker_rng, child_report *report)
{
    int rc = dpsel_select(selector, DPSEL_PF, scores, CANDIDATES, main_rng, &report->release);
    if (rc == DPSEL_OK) {
        rc = read_words(main_rng, report->main_words);
    }
    if (rc == DPSEL_OK) {
        rc = read_words(worker_rng, report->worker_words);
    }
    report->done = rc == DPSEL_OK;
    _exit(rc == DPSEL_OK ? 0 : 1);
}

static int compare_words(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Every word of the children and the parent is distinct: K independent
 * 63-bit words collide with probability below K^2 / 2^64 (K = 5 * 10^4:
 * 1.4e-10).  A child that replays any word of another child or of the
 * parent is caught with certainty. */
static void expect_distinct_words(const child_report *reports, const uint64_t *parent_words)
{
    size_t total = (size_t)CHILDREN * 2 * WORDS_PER_SOURCE + CHILDREN;
    uint64_t *words = malloc(total * sizeof *words);
    cr_assert_not_null(words);
    size_t k = 0;
    for (size_t c = 0; c < CHILDREN; c++) {
        for (size_t i = 0; i < WORDS_PER_SOURCE; i++) {
            words[k++] = reports[c].main_words[i];
            words[k++] = reports[c].worker_words[i];
        }
        words[k++] = parent_words[c];
    }
    qsort(words, total, sizeof *words, compare_words);
    size_t equal = 0;
    for (size_t i = 1; i < total; i++) {
        equal += words[i] == words[i - 1];
    }
    cr_expect_eq(equal, 0, "%zu pairs of equal 63-bit words among %zu", equal, total);
    free(words);
}

/* Equal consecutive releases: their count has mean (N - 1) s and variance
 * (N - 1)(s - s^2) + 2 (N - 2)(t - s^2) for independent releases (s the sum
 * of p^2, t of p^3; neighbouring pairs share a child).  Refused beyond
 * 4.753 standard deviations above the mean (one-sided normal 1e-6).  Here
 * s = 0.163, N = 10^4: mean 1628, limit 1815, so the test sees one child
 * in 45 (2.2%) repeating its predecessor's release. */
static void expect_no_excess_of_equal_pairs(const child_report *reports, mpq_t *p)
{
    double s = 0.0, t = 0.0;
    for (size_t r = 0; r < CANDIDATES; r++) {
        double q = mpq_get_d(p[r]);
        s += q * q;
        t += q * q * q;
    }
    double n = CHILDREN;
    double mean = (n - 1.0) * s;
    double variance = (n - 1.0) * (s - s * s) + 2.0 * (n - 2.0) * (t - s * s);
    double limit = mean + 4.753424 * sqrt(variance);
    size_t equal = 0;
    for (size_t c = 1; c < CHILDREN; c++) {
        equal += reports[c].release == reports[c - 1].release;
    }
    cr_expect_lt((double)equal, limit, "%zu equal consecutive releases, expected %.0f (limit %.0f)",
                 equal, mean, limit);
}

/* Forks the children one at a time, the workers running; the parent reads
 * one word of the main source after each fork (parent_words[c]). */
static void fork_children(const dpsel_selector *selector, dpsel_rng *main_rng,
                          dpsel_rng *worker_rng, child_report *reports, uint64_t *parent_words)
{
    for (size_t c = 0; c < CHILDREN; c++) {
        pid_t pid = fork();
        cr_assert_neq(pid, -1);
        if (pid == 0) {
            run_child(selector, main_rng, worker_rng, &reports[c]);
        }
        cr_assert_eq(dpsel_internal_rng_bits(main_rng, 63, &parent_words[c]), DPSEL_OK);
        int status;
        cr_assert_eq(waitpid(pid, &status, 0), pid);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0 && reports[c].done,
                  "child %zu failed", c);
    }
}

Test(fork_stress, ten_thousand_children_after_threads_draw_independently, .timeout = 120)
{
    dpsel_params p = base_params(3, 2, 1, 0);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    size_t shared_size = CHILDREN * sizeof(child_report);
    child_report *reports = mmap(NULL, shared_size, PROT_READ | PROT_WRITE,
                                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    cr_assert_neq(reports, MAP_FAILED);
    uint64_t *parent_words = calloc(CHILDREN, sizeof *parent_words);
    cr_assert_not_null(parent_words);

    dpsel_rng main_rng;
    cr_assert_eq(dpsel_rng_init_os(&main_rng), DPSEL_OK);
    uint64_t unused;
    cr_assert_eq(dpsel_internal_rng_bits(&main_rng, 5, &unused), DPSEL_OK);
    atomic_int stop = 0;
    static worker workers[WORKERS];
    pthread_t ids[WORKERS];
    for (int w = 0; w < WORKERS; w++) {
        workers[w] = (worker){ .selector = selector, .stop = &stop, .rc = DPSEL_OK };
        cr_assert_eq(dpsel_rng_init_os(&workers[w].rng), DPSEL_OK);
        cr_assert_eq(pthread_create(&ids[w], NULL, run_worker, &workers[w]), 0);
    }
    fork_children(selector, &main_rng, &workers[0].rng, reports, parent_words);
    atomic_store(&stop, 1);
    for (int w = 0; w < WORKERS; w++) {
        cr_assert_eq(pthread_join(ids[w], NULL), 0);
        cr_expect_eq(workers[w].rc, DPSEL_OK);
        dpsel_rng_wipe(&workers[w].rng);
    }

    uint64_t counts[CANDIDATES] = { 0 };
    for (size_t c = 0; c < CHILDREN; c++) {
        cr_assert_lt(reports[c].release, CANDIDATES);
        counts[reports[c].release]++;
    }
    mpq_t probability[CANDIDATES];
    exact_pmf(&p, DPSEL_PF, scores, CANDIDATES, probability);
    expect_no_excess_of_equal_pairs(reports, probability);
    expect_fit_and_clear(counts, probability, CANDIDATES, CHILDREN, "the children's releases");
    expect_distinct_words(reports, parent_words);

    dpsel_rng_wipe(&main_rng);
    free(parent_words);
    munmap(reports, shared_size);
    dpsel_selector_free(selector);
}
