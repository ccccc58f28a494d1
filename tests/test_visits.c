/* SPDX-License-Identifier: ISC */
/*
 * PF's first visits (src/core/visit.c, spec/mechanisms.md §11): the binary
 * search over the visited list, and the next visit by exact enumeration:
 * uniform over the unvisited candidates, inserted in place.  The whole of
 * dpsel_select's PF (visits, then the race) is enumerated against the pmf
 * in test_race.c.
 */
#include <criterion/criterion.h>
#include <gmp.h>
#include <string.h>

#include "core/visit.h"
#include "support.h"

#define MAX_N 8

Test(visits, rank_splits_the_list)
{
    static const uint64_t list[] = { 2, 5, 6, 9 };
    static const size_t expected[] = { 0, 0, 0, 1, 1, 1, 2, 3, 3, 3, 4, 4 };
    for (size_t r = 0; r < sizeof expected / sizeof *expected; r++) {
        cr_expect_eq(dpsel_core_rank(list, 4, r), expected[r], "r %zu", r);
    }
    cr_expect_eq(dpsel_core_rank(list, 0, 3), 0);
    cr_expect_eq(dpsel_core_rank(NULL, 0, 0), 0);
}

typedef struct {
    size_t n;
    size_t count;
    uint64_t before[MAX_N];   /* the visited list given to every run */
} visit_case;

/* One visit after `before`; the outcome is the index drawn.  A list that is
 * not `before` with the index inserted in order is reported as a failure. */
static int next_sampler(void *arg, dpsel_rng *rng, size_t *out)
{
    const visit_case *c = arg;
    uint64_t visited[MAX_N + 1];
    memcpy(visited, c->before, c->count * sizeof *visited);
    size_t drawn = SIZE_MAX;
    int rc = dpsel_core_visit_next(rng, c->n, visited, c->count, &drawn);
    if (rc != DPSEL_OK) {
        return rc;
    }
    uint64_t expected[MAX_N + 1];
    size_t k = 0;
    size_t j = 0;
    for (; k < c->count && c->before[k] < drawn; k++) {
        expected[j++] = c->before[k];
    }
    expected[j++] = drawn;
    for (; k < c->count; k++) {
        expected[j++] = c->before[k];
    }
    for (size_t i = 0; i <= c->count; i++) {
        if (visited[i] != expected[i] || (i > 0 && expected[i - 1] >= expected[i])) {
            return DPSEL_EINTERNAL;
        }
    }
    *out = drawn;
    return DPSEL_OK;
}

/* Every unvisited index has probability 1 / (n - count), within the
 * enumeration's residual; a visited one never comes.  The strings branch
 * at every repeat drawn, so the depth stays at 30 bits (a residual below
 * 2^-7, far below the 1/n a wrong draw would be off by). */
Test(visits, next_is_uniform_over_the_unvisited)
{
    static visit_case cases[] = {
        { 2, 1, { 0 } }, { 3, 1, { 1 } }, { 4, 2, { 0, 3 } }, { 5, 2, { 1, 2 } },
        { 6, 3, { 0, 2, 5 } }, { 8, 4, { 1, 3, 4, 7 } }, { 7, 0, { 0 } },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        visit_case *vc = &cases[c];
        mpq_t mass[MAX_N], residual, share;
        for (size_t r = 0; r < vc->n; r++) {
            mpq_init(mass[r]);
        }
        mpq_inits(residual, share, (mpq_ptr)0);
        cr_assert_geq(enumerate_bits(next_sampler, vc, vc->n, 30, mass, residual), 1,
                      "case %zu", c);
        mpq_set_ui(share, 1, vc->n - vc->count);
        size_t k = 0;
        for (size_t r = 0; r < vc->n; r++) {
            int visited = k < vc->count && vc->before[k] == r;
            k += (size_t)visited;
            if (visited) {
                cr_expect_eq(mpq_sgn(mass[r]), 0, "case %zu: visited %zu drawn", c, r);
                continue;
            }
            mpq_t upper;
            mpq_init(upper);
            mpq_add(upper, mass[r], residual);
            cr_expect(mpq_cmp(mass[r], share) <= 0 && mpq_cmp(share, upper) <= 0,
                      "case %zu, index %zu: %.12g (residual %.3g), not 1/%zu", c, r,
                      mpq_get_d(mass[r]), mpq_get_d(residual), vc->n - vc->count);
            mpq_clear(upper);
        }
        cr_expect_lt(mpq_get_d(residual), 1.0 / 128, "case %zu", c);
        for (size_t r = 0; r < vc->n; r++) {
            mpq_clear(mass[r]);
        }
        mpq_clears(residual, share, (mpq_ptr)0);
    }
}
