/* SPDX-License-Identifier: ISC */
/* No hidden state: one selector shared by threads, each with its own random
 * source, gives every thread the same draws as when it runs alone. */
#include <criterion/criterion.h>
#include <pthread.h>

#include "support.h"

#define THREADS 4
#define DRAWS 2000

typedef struct {
    const dpsel_selector *selector;
    unsigned char seed;
    size_t choices[DRAWS];
    int rc;
} worker;

static const int64_t scores[] = { 10, 9, 9, 7, 10, 3, -2, 8, 10, 0, 6, 9 };

static void *run_worker(void *arg)
{
    worker *w = arg;
    dpsel_rng rng;
    w->rc = dpsel_rng_init_seeded(&rng, &w->seed, 1);
    for (int i = 0; i < DRAWS && w->rc == DPSEL_OK; i++) {
        w->rc = dpsel_select(w->selector, i % 2 ? DPSEL_EM : DPSEL_PF, scores, 12, &rng,
                             &w->choices[i]);
    }
    dpsel_rng_wipe(&rng);
    return NULL;
}

Test(threads, a_shared_selector_gives_each_thread_its_own_stream)
{
    dpsel_params p;
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_params_from_epsilon(&p, "0.5", 1, 0), DPSEL_OK);
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    static worker together[THREADS], alone[THREADS];
    pthread_t ids[THREADS];
    for (int t = 0; t < THREADS; t++) {
        together[t].selector = alone[t].selector = selector;
        together[t].seed = alone[t].seed = (unsigned char)(t + 1);
        cr_assert_eq(pthread_create(&ids[t], NULL, run_worker, &together[t]), 0);
    }
    for (int t = 0; t < THREADS; t++) {
        cr_assert_eq(pthread_join(ids[t], NULL), 0);
        run_worker(&alone[t]);
        cr_assert_eq(together[t].rc, DPSEL_OK);
        cr_assert_eq(alone[t].rc, DPSEL_OK);
        cr_expect(memcmp(together[t].choices, alone[t].choices, sizeof alone[t].choices) == 0,
                  "thread %d drew differently next to other threads", t);
    }
    dpsel_selector_free(selector);
}
