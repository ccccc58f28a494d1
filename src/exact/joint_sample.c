/* SPDX-License-Identifier: ISC */
/*
 * JointExp's backward sampling (joint.h; spec/quantiles.md §8).
 *
 * From the forward tables: the last quantile's rank and place (k_m, j_m)
 * with probability f(m, k, j) K_(m+1)(n - k) / Z, drawn as the rank k by
 * total(m, k) K_(m+1)(n - k), then the place j by f(m, k, j); then for
 * i = m .. 2, given (k_i, j_i): if j_i >= 2 the quantile before shares
 * the run, (k_i, j_i - 1); else k_(i-1) = k' < k_i with probability
 * proportional to total(i - 1, k') K_i(k_i - k'), and j_(i-1) to
 * f(i - 1, k', j).  Finally each run's r quantiles take a uniform
 * non-decreasing r-tuple of its l points (a uniform r-subset of
 * 0 .. l + r - 2 by Floyd's algorithm, sorted, minus 0, 1, ..., r - 1).
 *
 * Each categorical draw is exact: a uniform U is read bit by bit (after b
 * bits U lies in [u 2^-b, (u + 1) 2^-b]), and the item t with
 * C_t <= U W < C_(t+1) (C the cumulative weights, W = C_count) is
 * released once the bounds of C and of U W decide it.  Which bits are
 * read depends only on bits already read, so the item is that of the
 * real U.  When U holds the table's precision plus MARGIN_BITS bits and
 * the bounds still cannot decide, the tables are recomputed at twice the
 * precision and the same U goes on; past DPSEL_JOINT_PREC_MAX the draw
 * stops with DPSEL_EUNLIKELY.
 */
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "../base/interrupt.h"
#include "../core/uniform.h"
#include "joint.h"
#include "mpfr_env.h"

/* The bits a draw's uniform reads first (each refinement doubles them),
 * and the margin above the table's precision at which an undecided draw
 * asks for finer tables. */
#define FIRST_BITS 32u
#define MARGIN_BITS 32u
#define UNDECIDED 1

typedef struct {
    const dpsel_joint_problem *p;
    dpsel_rng *rng;
    dpsel_progress *progress;            /* NULL: none */
    dpsel_joint_tables tables;
    dpsel_joint_numbers cum_lo, cum_hi;  /* max(n, m) + 2 cumulative weights */
    mpfr_t beta, y_lo, y_hi, term;
    mpfr_t factor_lo, factor_hi;         /* a place's run factor (place_cumulative) */
    mpz_t u, u_next;                     /* the draw's uniform: u 2^-bits */
    unsigned bits;
} sampler;

/* Tables and cumulative arrays at precision prec. */
static int sampler_tables(sampler *s, mpfr_prec_t prec)
{
    dpsel_exact_joint_tables_free(&s->tables);
    dpsel_exact_joint_numbers_free(&s->cum_lo);
    dpsel_exact_joint_numbers_free(&s->cum_hi);
    mpfr_set_prec(s->y_lo, prec);
    mpfr_set_prec(s->y_hi, prec);
    mpfr_set_prec(s->term, prec);
    mpfr_set_prec(s->factor_lo, prec);
    mpfr_set_prec(s->factor_hi, prec);
    /* the n + 1 ranks or the m places, and C_0 */
    size_t items = (s->p->n > s->p->m ? s->p->n : s->p->m) + 2;
    int rc = dpsel_exact_joint_forward(&s->tables, s->p, prec, s->rng, s->progress);
    if (rc == DPSEL_OK) {
        rc = dpsel_exact_joint_numbers_new(&s->cum_lo, items, prec);
    }
    if (rc == DPSEL_OK) {
        rc = dpsel_exact_joint_numbers_new(&s->cum_hi, items, prec);
    }
    return rc;
}

/* Appends `more` (at most 32) fresh bits to the uniform. */
static int read_bits(sampler *s, unsigned more)
{
    uint64_t value = 0;
    int rc = dpsel_internal_rng_bits(s->rng, more, &value);
    if (rc == DPSEL_OK) {
        mpz_mul_2exp(s->u, s->u, more);
        mpz_add_ui(s->u, s->u, (unsigned long)value);
        s->bits += more;
    }
    return rc;
}

/* The largest t < count with hi[t] <= y (hi[0] = 0 <= y; hi increases). */
static size_t last_below(const dpsel_joint_numbers *hi, size_t count, mpfr_srcptr y)
{
    size_t low = 0, high = count - 1;
    while (low < high) {
        size_t mid = low + (high - low + 1) / 2;
        if (mpfr_lessequal_p(&hi->number[mid], y)) {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    return low;
}

/* The item t < count of the uniform, if the bounds decide it with the
 * bits read: DPSEL_OK and *t, or UNDECIDED. */
static int decide(sampler *s, size_t count, size_t *t)
{
    mpfr_mul_z(s->y_lo, &s->cum_lo.number[count], s->u, MPFR_RNDD);
    mpfr_div_2ui(s->y_lo, s->y_lo, s->bits, MPFR_RNDD);
    mpz_add_ui(s->u_next, s->u, 1);
    mpfr_mul_z(s->y_hi, &s->cum_hi.number[count], s->u_next, MPFR_RNDU);
    mpfr_div_2ui(s->y_hi, s->y_hi, s->bits, MPFR_RNDU);
    size_t item = last_below(&s->cum_hi, count, s->y_lo);
    if (item + 1 == count || mpfr_less_p(s->y_hi, &s->cum_lo.number[item + 1])) {
        *t = item;
        return DPSEL_OK;
    }
    return UNDECIDED;
}

/* The categorical draw over the cumulative arrays' count items with the
 * current uniform, reading bits up to the precision's margin. */
static int categorical(sampler *s, size_t count, size_t *t)
{
    /* items of weight 0 at the end: their upper bounds add exactly 0 */
    while (count > 1 && mpfr_equal_p(&s->cum_hi.number[count], &s->cum_hi.number[count - 1])) {
        count--;
    }
    if (mpfr_zero_p(&s->cum_hi.number[count])) {
        return DPSEL_EINTERNAL;  /* no weight at all */
    }
    unsigned limit = (unsigned)s->tables.prec + MARGIN_BITS;
    for (;;) {
        int rc = decide(s, count, t);
        if (rc != UNDECIDED || s->bits >= limit) {
            return rc;
        }
        unsigned more = s->bits < limit - s->bits ? s->bits : limit - s->bits;
        for (unsigned read = 0; read < more && rc == UNDECIDED;) {
            unsigned take = more - read < 32 ? more - read : 32;
            rc = read_bits(s, take) == DPSEL_OK ? UNDECIDED : DPSEL_ERANDOM;
            read += take;
        }
        if (rc != UNDECIDED) {
            return rc;
        }
    }
}

/* What a draw is over: the ranks k' <= last of `row` before `end`, or the
 * places j = 1 .. row + 1 of `row` at rank `end`. */
typedef struct {
    int places;
    size_t row;
    uint64_t end, last;
    dpsel_joint_wide target;
} draw_kind;

/* The run factor of place j - 1 times that of place j's new quantile:
 * f(row, k, j) = entry(row - j + 1, k) prod_(s = 2 .. j) beta^T_(row-j+s)
 * (l + s - 1) / s (§8's recurrence, joint.h), and the product for j is
 * that for j - 1 times beta^T_(row-j+2) (l + j - 1) / j, in direction rnd. */
static void place_factor_next(sampler *s, mpfr_ptr factor, mpfr_rnd_t rnd, size_t row,
                              uint64_t length, size_t j)
{
    dpsel_exact_joint_power(s->term, s->beta, s->p->target[row - j + 2], rnd);
    mpfr_mul(factor, factor, s->term, rnd);
    mpfr_mul_ui(factor, factor, (unsigned long)(length + j - 1), rnd);
    mpfr_div_ui(factor, factor, (unsigned long)j, rnd);
}

/* The cumulative weights of the places: one power a place, so a draw over
 * the row + 1 places is O(row), not O(row^2). */
static void place_cumulative(sampler *s, const draw_kind *d)
{
    uint64_t length = s->p->length[d->end];
    mpfr_set_zero(&s->cum_lo.number[0], 1);
    mpfr_set_zero(&s->cum_hi.number[0], 1);
    mpfr_set_ui(s->factor_lo, 1, MPFR_RNDD);
    mpfr_set_ui(s->factor_hi, 1, MPFR_RNDU);
    for (size_t j = 1; j <= d->row + 1; j++) {
        if (j >= 2) {
            place_factor_next(s, s->factor_lo, MPFR_RNDD, d->row, length, j);
            place_factor_next(s, s->factor_hi, MPFR_RNDU, d->row, length, j);
        }
        mpfr_ptr lo = &s->cum_lo.number[j], hi = &s->cum_hi.number[j];
        size_t opened = d->row - j + 1;  /* the row of the run's first quantile */
        mpfr_mul(lo, dpsel_exact_joint_at(&s->tables.entry_lo, s->p, opened, d->end),
                 s->factor_lo, MPFR_RNDD);
        mpfr_mul(hi, dpsel_exact_joint_at(&s->tables.entry_hi, s->p, opened, d->end),
                 s->factor_hi, MPFR_RNDU);
        mpfr_add(lo, lo, &s->cum_lo.number[j - 1], MPFR_RNDD);
        mpfr_add(hi, hi, &s->cum_hi.number[j - 1], MPFR_RNDU);
    }
}

/* One draw with a fresh uniform, the tables refined as it needs. */
static int draw(sampler *s, const draw_kind *d, size_t *item)
{
    mpz_set_ui(s->u, 0);
    s->bits = 0;
    int rc = read_bits(s, FIRST_BITS);
    while (rc == DPSEL_OK) {
        size_t count = d->places ? d->row + 1 : (size_t)d->last + 1;
        if (d->places) {
            place_cumulative(s, d);
        } else {
            rc = dpsel_exact_joint_cumulative(s->p, &s->tables, d->row, d->target, d->end,
                                              d->last, s->rng, &s->cum_lo, &s->cum_hi);
        }
        if (rc == DPSEL_OK) {
            rc = categorical(s, count, item);
        }
        if (rc != UNDECIDED) {
            return rc;
        }
        mpfr_prec_t finer = 2 * s->tables.prec;
        rc = finer > DPSEL_JOINT_PREC_MAX ? DPSEL_EUNLIKELY : sampler_tables(s, finer);
    }
    return rc;
}

/* (k, j) of `row`, the rank drawn before `end` (at most last) with the
 * kernel of `target`, then its place. */
static int draw_rank_and_place(sampler *s, size_t row, uint64_t end, uint64_t last,
                               dpsel_joint_wide target, uint64_t *rank, size_t *place)
{
    draw_kind d = { 0, row, end, last, target };
    size_t k = 0, j = 0;
    int rc = draw(s, &d, &k);
    if (rc == DPSEL_OK) {
        draw_kind places = { 1, row, (uint64_t)k, 0, 0 };
        rc = draw(s, &places, &j);
    }
    *rank = (uint64_t)k;
    *place = j + 1;
    return rc;
}

/* The ranks and places of all quantiles, last to first. */
static int draw_ranks(sampler *s, uint64_t *rank, size_t *place)
{
    const dpsel_joint_problem *p = s->p;
    size_t q = p->m - 1;
    int rc = draw_rank_and_place(s, q, p->n, p->n, p->target[p->m], &rank[q], &place[q]);
    for (; q > 0 && rc == DPSEL_OK; q--) {
        if (place[q] >= 2) {
            rank[q - 1] = rank[q];
            place[q - 1] = place[q] - 1;
        } else if (rank[q] == 0) {
            rc = DPSEL_EINTERNAL;  /* no rank before: weight 0, never drawn */
        } else {
            rc = draw_rank_and_place(s, q - 1, rank[q], rank[q] - 1, p->target[q],
                                     &rank[q - 1], &place[q - 1]);
        }
    }
    if (rc == DPSEL_OK && place[0] != 1) {
        rc = DPSEL_EINTERNAL;
    }
    return rc;
}

/* A uniform non-decreasing r-tuple of the points 0 .. length - 1 into
 * offset[0 .. r - 1]: a uniform r-subset of 0 .. length + r - 2 (Floyd),
 * sorted, minus 0, 1, ..., r - 1. */
static int uniform_tuple(dpsel_rng *rng, uint64_t length, size_t r, uint64_t *offset)
{
    uint64_t size = length + r - 1;  /* <= 2^62 + 1024 */
    for (size_t i = 0; i < r; i++) {
        uint64_t top = size - r + i, pick = 0;
        int rc = dpsel_core_uniform(rng, top + 1, &pick);
        if (rc != DPSEL_OK) {
            return rc;
        }
        for (size_t h = 0; h < i; h++) {
            pick = offset[h] == pick ? top : pick;
        }
        size_t at = i;  /* insertion: offset stays sorted */
        while (at > 0 && offset[at - 1] > pick) {
            offset[at] = offset[at - 1];
            at--;
        }
        offset[at] = pick;
    }
    for (size_t i = 0; i < r; i++) {
        offset[i] -= i;
    }
    return DPSEL_OK;
}

/* The points: each run's quantiles (consecutive) a uniform tuple in it. */
static int draw_points(sampler *s, const uint64_t *rank, uint64_t *offset, int64_t *out)
{
    const dpsel_joint_problem *p = s->p;
    for (size_t q = 0; q < p->m;) {
        size_t r = 1;
        while (q + r < p->m && rank[q + r] == rank[q]) {
            r++;
        }
        uint64_t k = rank[q];
        if (p->length[k] == 0) {
            return DPSEL_EINTERNAL;  /* an empty run has weight 0 */
        }
        int rc = uniform_tuple(s->rng, p->length[k], r, offset);
        if (rc != DPSEL_OK) {
            return rc;
        }
        for (size_t i = 0; i < r; i++) {
            out[q + i] = (int64_t)((uint64_t)p->first[k] + offset[i]);
        }
        q += r;
    }
    return DPSEL_OK;
}

static void sampler_clear(sampler *s)
{
    dpsel_exact_joint_tables_free(&s->tables);
    dpsel_exact_joint_numbers_free(&s->cum_lo);
    dpsel_exact_joint_numbers_free(&s->cum_hi);
    mpfr_clears(s->beta, s->y_lo, s->y_hi, s->term, s->factor_lo, s->factor_hi, (mpfr_ptr)0);
    mpz_clears(s->u, s->u_next, (mpz_ptr)0);
}

/* count releases, each ranks then points, into out (count m) through
 * scratch (3 m words); the tables made once, refined as a draw needs. */
static int sample(sampler *s, size_t count, uint64_t *scratch, int64_t *out)
{
    size_t m = s->p->m;
    uint64_t *rank = scratch, *offset = scratch + m;
    size_t *place = (size_t *)(scratch + 2 * m);
    uint64_t release_steps = dpsel_exact_joint_release_steps(m, s->p->n);
    int rc = sampler_tables(s, DPSEL_JOINT_PREC_FIRST);
    for (size_t r = 0; r < count && rc == DPSEL_OK; r++) {
        rc = dpsel_internal_interrupted_every(s->rng, r, count);
        if (rc == DPSEL_OK) {
            rc = draw_ranks(s, rank, place);
        }
        if (rc == DPSEL_OK) {
            rc = draw_points(s, rank, offset, &out[r * m]);
        }
        if (rc == DPSEL_OK) {  /* a release at a time: not a draw's timing */
            rc = dpsel_progress_add(s->progress, release_steps);
        }
    }
    /* within MPFR's range: B log2(1/beta) <= DPSEL_JOINT_DECAY_MAX, n <= 2^56 */
    if (rc == DPSEL_OK && dpsel_exact_joint_flags_raised()) {
        rc = DPSEL_EINTERNAL;
    }
    return rc;
}

int dpsel_exact_joint_sample(const dpsel_joint_problem *p, dpsel_rng *rng, size_t count,
                             int64_t *out, dpsel_progress *progress)
{
    _Static_assert(sizeof(size_t) == sizeof(uint64_t), "places share the scratch words");
    uint64_t *scratch = malloc(3 * p->m * sizeof *scratch);
    int64_t *points = count <= SIZE_MAX / sizeof *points / p->m
                    ? malloc(count * p->m * sizeof *points) : NULL;
    if (scratch == NULL || points == NULL) {
        free(scratch);
        free(points);
        return DPSEL_ENOMEM;
    }
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    mpfr_clear_flags();
    sampler s;
    memset(&s, 0, sizeof s);
    s.p = p;
    s.rng = rng;
    s.progress = progress;
    mpfr_inits2(DPSEL_JOINT_PREC_FIRST, s.y_lo, s.y_hi, s.term, s.factor_lo, s.factor_hi,
                (mpfr_ptr)0);
    mpfr_init2(s.beta, 64);
    dpsel_exact_joint_beta(s.beta, p);
    mpz_inits(s.u, s.u_next, (mpz_ptr)0);
    int rc = sample(&s, count, scratch, points);
    if (rc == DPSEL_OK) {  /* its last report may still cancel: out untouched */
        rc = dpsel_progress_finish(progress);
    }
    if (rc == DPSEL_OK) {
        memcpy(out, points, count * p->m * sizeof *out);
    }
    sampler_clear(&s);
    dpsel_exact_mpfr_leave(&host);
    free(points);
    free(scratch);
    return rc;
}
