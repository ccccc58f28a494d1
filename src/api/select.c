/* SPDX-License-Identifier: ISC */
/* Selectors: the exact decay table, and selections through the core (one,
 * or the k best by peeling). */
#include <stdlib.h>
#include <string.h>

#include "peel.h"
#include "selector.h"

#include "../core/em.h"
#include "../core/em_levels.h"
#include "../core/em_levels_hardened.h"
#include "../core/gap.h"
#include "../core/pf.h"
#include "../core/race.h"
#include "../core/validate.h"
#include "../core/visit.h"

int dpsel_selector_new(dpsel_selector **out, const dpsel_params *params)
{
    if (out == NULL || params == NULL) {
        return DPSEL_ENULL;
    }
    if (!dpsel_core_params_valid(params)) {
        return DPSEL_ERANGE;
    }
    dpsel_selector *selector = calloc(1, sizeof *selector);
    if (selector == NULL) {
        return DPSEL_ENOMEM;
    }
    selector->params = *params;
    int rc = dpsel_exact_decay_table_build(&selector->table, params->x, params->y,
                                           params->gap_cap);
    if (rc == DPSEL_OK) {
        rc = dpsel_exact_level_trials(&selector->table, &selector->level_trials);
        if (rc == DPSEL_OK) {
            rc = dpsel_exact_thinning_build(&selector->thinning);
        }
        if (rc != DPSEL_OK) {
            dpsel_exact_decay_table_free(&selector->table);
        }
    }
    if (rc != DPSEL_OK) {
        free(selector);
        return rc;
    }
    *out = selector;
    return DPSEL_OK;
}

void dpsel_selector_free(dpsel_selector *selector)
{
    if (selector != NULL) {
        dpsel_exact_decay_table_free(&selector->table);
        dpsel_exact_thinning_free(&selector->thinning);
        free(selector);
    }
}

/* PF visits at most this many candidates of its random order before the
 * race settles the rest (spec/mechanisms.md §11): enough for the first
 * heads to come early on typical scores, and 8 KiB of stack. */
#define PF_VISITS 1024

/* PF when the decay table allows the race: first visits, then the race. */
static int pf_by_visits(dpsel_rng *rng, const dpsel_selector *selector,
                        const dpsel_decay *decay, const int64_t *scores, size_t n,
                        size_t *chosen)
{
    uint64_t visited[PF_VISITS];
    size_t visits = n / 2 < PF_VISITS ? n / 2 : PF_VISITS;
    return dpsel_core_pf_visits(rng, decay, &selector->thinning.core, scores, n, visited,
                                visits, chosen);
}

/* EM runs this many uniform trials before it counts the levels. */
#define EM_TRIALS_FIRST 1024

/* EM by levels may always take this many words of scratch; beyond it, no
 * more than the scores' own count (a larger cap with fewer candidates
 * leaves uniform trials, at most about n of them, the cheaper way). */
#define EM_LEVELS_SCRATCH_FLOOR 8192

/* EM: uniform trials while they are cheap, then, if none kept its
 * candidate and the table and n allow it, EM by levels (spec/mechanisms.md
 * §12); a kept trial is EM-distributed whenever it comes, so switching
 * after failed trials keeps the distribution exact. */
static int em_default(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                      size_t n, size_t *chosen)
{
    unsigned bits = dpsel_core_bitlen((uint64_t)n);
    int scratch_fits = decay->cap < EM_LEVELS_SCRATCH_FLOOR || decay->cap < n;
    if (decay->npowers > DPSEL_LEVELS_MAX_POWERS || bits > 31 || !scratch_fits) {
        return dpsel_core_em(rng, decay, scores, n, chosen);
    }
    size_t top = dpsel_core_argmax(scores, n);
    int64_t best = scores[top];
    int kept;
    int rc = dpsel_core_em_attempts(rng, decay, scores, n, best, EM_TRIALS_FIRST, chosen, &kept);
    if (rc != DPSEL_OK || kept) {
        return rc;
    }
    uint64_t *levels = calloc(decay->cap + 1, sizeof *levels);
    if (levels == NULL) {
        return DPSEL_ENOMEM;
    }
    /* n 2^envelope <= 2^63 bounds the sums; 2^envelope >= n, the trials */
    rc = dpsel_core_em_levels(rng, decay, scores, n, top, 63 - bits, levels, chosen);
    free(levels);
    return rc;
}

/* Whether the hardened EM by levels can take this decay table and n: its
 * count holds gaps in 16 bits, its coins read each power's leading zeros at
 * once, and its sums need n 2^envelope <= 2^63 with 2^envelope >= n. */
static int em_levels_hardened_applies(const dpsel_decay *decay, size_t n)
{
    if (decay->npowers > DPSEL_LEVELS_MAX_POWERS || decay->cap >= DPSEL_HARDENED_LEVELS_CAP_MAX ||
        dpsel_core_bitlen((uint64_t)n) > 31) {
        return 0;
    }
    for (unsigned i = 0; i < decay->npowers; i++) {
        if (decay->powers[i].lead > 63) {
            return 0;
        }
    }
    return 1;
}

/* Hardened EM: by levels when that is the cheaper of the two hardened
 * samplers, else by 128 n uniform trials.  Both do work that depends on n
 * and the parameters only, and so does the choice.  In units of about one
 * coin of a uniform trial (measured, spec/timing.md §4): 128 n (npowers + 8)
 * for the uniform trials; by levels, n ((C + 1) / 64 + 4) for the passes
 * over the scores and trials (C + 1 + 4 npowers) / 4 for the level trials. */
static int em_hardened(const dpsel_selector *selector, dpsel_rng *rng,
                       const dpsel_decay *decay, const int64_t *scores, size_t n,
                       size_t *chosen)
{
    if (!em_levels_hardened_applies(decay, n)) {
        return dpsel_core_em_hardened(rng, decay, scores, n, chosen);
    }
    /* n < 2^31, cap < 2^16, npowers <= 21, trials <= 2^30: each term below 2^55 */
    uint64_t width = decay->cap + 1;
    uint64_t by_trials = 128 * (uint64_t)n * (decay->npowers + 8);
    uint64_t by_levels = (uint64_t)n * (width / 64 + 4) +
                         selector->level_trials * (width + 4 * decay->npowers) / 4;
    if (by_levels >= by_trials) {
        return dpsel_core_em_hardened(rng, decay, scores, n, chosen);
    }
    uint64_t *levels = calloc(decay->cap + 1, sizeof *levels);
    if (levels == NULL) {
        return DPSEL_ENOMEM;
    }
    unsigned bits = dpsel_core_bitlen((uint64_t)n);
    int rc = dpsel_core_em_levels_hardened(rng, decay, scores, n, 63 - bits,
                                           selector->level_trials, levels, chosen);
    free(levels);
    return rc;
}

/* Both modes: the checks and the core sampler.  PF runs by its first visits
 * and the race (no heap memory) when the decay table allows it, else by its
 * permutation; the hardened mode always permutes (spec/timing.md). */
static int select_in_mode(const dpsel_selector *selector, dpsel_mechanism mechanism,
                          const int64_t *scores, size_t n, dpsel_rng *rng, size_t *index,
                          int hardened)
{
    if (selector == NULL || scores == NULL || rng == NULL || index == NULL) {
        return DPSEL_ENULL;
    }
    if (n == 0) {
        return DPSEL_EEMPTY;
    }
    if (n > DPSEL_MAX_CANDIDATES || (mechanism != DPSEL_PF && mechanism != DPSEL_EM)) {
        return DPSEL_ERANGE;
    }
    dpsel_decay decay = dpsel_selector_decay(selector);
    size_t chosen = 0;
    int rc;
    if (mechanism == DPSEL_EM) {
        rc = hardened ? em_hardened(selector, rng, &decay, scores, n, &chosen)
                      : em_default(rng, &decay, scores, n, &chosen);
    } else if (!hardened && dpsel_core_race_applies(&decay)) {
        rc = pf_by_visits(rng, selector, &decay, scores, n, &chosen);
    } else {
        size_t *scratch = calloc(n, sizeof *scratch);
        if (scratch == NULL) {
            return DPSEL_ENOMEM;
        }
        rc = hardened ? dpsel_core_pf_hardened(rng, &decay, scores, n, scratch, &chosen)
                      : dpsel_core_pf(rng, &decay, scores, n, scratch, &chosen);
        free(scratch);
    }
    if (rc == DPSEL_OK) {
        *index = chosen;
    }
    return rc;
}

int dpsel_select(const dpsel_selector *selector, dpsel_mechanism mechanism,
                 const int64_t *scores, size_t n, dpsel_rng *rng, size_t *index)
{
    return select_in_mode(selector, mechanism, scores, n, rng, index, 0);
}

int dpsel_select_hardened(const dpsel_selector *selector, dpsel_mechanism mechanism,
                          const int64_t *scores, size_t n, dpsel_rng *rng, size_t *index)
{
    return select_in_mode(selector, mechanism, scores, n, rng, index, 1);
}

/* A round of dpsel_select_top: dpsel_select with its selector and mechanism. */
typedef struct {
    const dpsel_selector *selector;
    dpsel_mechanism mechanism;
} selection_round;

static int select_round(const void *context, const int64_t *scores, size_t n, dpsel_rng *rng,
                        size_t *at)
{
    const selection_round *round = context;
    return dpsel_select(round->selector, round->mechanism, scores, n, rng, at);
}

int dpsel_select_top(const dpsel_selector *selector, dpsel_mechanism mechanism,
                     const int64_t *scores, size_t n, size_t k, dpsel_rng *rng, size_t *indices)
{
    if (selector == NULL || scores == NULL || rng == NULL || indices == NULL) {
        return DPSEL_ENULL;
    }
    if (n == 0) {
        return DPSEL_EEMPTY;
    }
    if (k == 0 || k > n || n > DPSEL_MAX_CANDIDATES
        || (mechanism != DPSEL_PF && mechanism != DPSEL_EM)) {
        return DPSEL_ERANGE;
    }
    if (k == 1) {
        return dpsel_select(selector, mechanism, scores, n, rng, indices);
    }
    selection_round round = { selector, mechanism };
    return dpsel_internal_peel(select_round, &round, scores, n, k, rng, indices);
}
