/* SPDX-License-Identifier: ISC */
/* The caller's progress report (dpsel_progress_fn), as a long computation
 * outside the verified core makes it: the computation runs in phases, each
 * given a share of the report's scale and a count of its work units, and
 * the meter turns the units done into a fraction of the whole that never
 * goes back.  One meter per call, on the caller's stack: no globals.  The
 * fraction depends on the work's shape (the candidates, the levels), never
 * on random bits: a report tells the caller nothing the input it passed
 * does not.  Inline: dpsel_progress_add runs in the inner loops it counts. */
#ifndef DPSEL_PROGRESS_METER_H
#define DPSEL_PROGRESS_METER_H

#include <stdint.h>

#include "dpsel.h"

/* The total passed to the caller's function: fractions in 2^-20 steps. */
#define DPSEL_PROGRESS_SCALE ((uint64_t)1 << 20)

/* Work units between two reports: about a millisecond of multiply-adds. */
#define DPSEL_PROGRESS_EVERY ((uint64_t)1 << 14)

typedef struct {
    dpsel_progress_fn fn;  /* NULL: nothing reported, never cancelled */
    void *context;
    uint64_t reported;     /* the last done passed to fn, in scale units */
    uint64_t window_from;  /* the share of the scale this part of the work */
    uint64_t window_to;    /* takes (all of it unless a caller splits it) */
    uint64_t from, to;     /* the current phase's share of the scale */
    uint64_t done, total;  /* the current phase's work units */
    uint64_t since;        /* units since the last report */
    int canceled;          /* fn asked to stop: the work winds down */
} dpsel_progress;

/* A meter for fn (NULL allowed), before any phase. */
static inline void dpsel_progress_init(dpsel_progress *p, dpsel_progress_fn fn, void *context)
{
    *p = (dpsel_progress){ .fn = fn, .context = context, .window_to = DPSEL_PROGRESS_SCALE };
}

/* The part of the scale, from `from` to `to`, that the next piece of work
 * (a pmf of an audit's two) takes: its phases and its finish fall in it.
 * p may be NULL. */
static inline void dpsel_progress_window(dpsel_progress *p, uint64_t from, uint64_t to)
{
    if (p != NULL) {
        p->window_from = from;
        p->window_to = to;
    }
}

/* x of the scale within the window (the product is below 2^40). */
static inline uint64_t dpsel_progress_in_window_(const dpsel_progress *p, uint64_t x)
{
    return p->window_from + (p->window_to - p->window_from) * x / DPSEL_PROGRESS_SCALE;
}

/* Starts a phase that takes the window from `from` to `to` of the scale
 * (from <= to <= DPSEL_PROGRESS_SCALE), of no work units until
 * dpsel_progress_expect says how many; p may be NULL. */
static inline void dpsel_progress_phase(dpsel_progress *p, uint64_t from, uint64_t to)
{
    if (p != NULL) {
        p->from = dpsel_progress_in_window_(p, from);
        p->to = dpsel_progress_in_window_(p, to);
        p->done = 0;
        p->total = 0;
    }
}

/* The current phase's work units, counted before it starts; p may be NULL. */
static inline void dpsel_progress_expect(dpsel_progress *p, uint64_t total)
{
    if (p != NULL) {
        p->total = total;
    }
}

/* Asks fn with `done` of the scale (never less than it was told before). */
static inline int dpsel_progress_report_(dpsel_progress *p, uint64_t done)
{
    if (p->canceled) {
        return DPSEL_ECANCELED;
    }
    p->reported = done > p->reported ? done : p->reported;
    p->canceled = p->fn(p->context, p->reported, DPSEL_PROGRESS_SCALE) != 0;
    return p->canceled ? DPSEL_ECANCELED : DPSEL_OK;
}

/* (to - from) done / total, rounded down: below the phase's share until
 * its work is done.  done and total are shifted right together until total
 * is below 2^44, so that the product (to - from <= 2^20) stays below 2^64;
 * the share stays within one unit of the exact one. */
static inline uint64_t dpsel_progress_share_(const dpsel_progress *p)
{
    uint64_t done = p->done, total = p->total;
    while (total >= (uint64_t)1 << 44) {
        done >>= 1;
        total >>= 1;
    }
    return total > 0 ? (p->to - p->from) * done / total : 0;
}

/* Counts units of the phase's work, and reports every
 * DPSEL_PROGRESS_EVERY of them: DPSEL_ECANCELED once fn has asked to stop
 * (then on every later call), else DPSEL_OK.  p may be NULL. */
static inline int dpsel_progress_add(dpsel_progress *p, uint64_t units)
{
    if (p == NULL || p->fn == NULL) {
        return DPSEL_OK;
    }
    p->done = units < p->total - p->done ? p->done + units : p->total;
    p->since += units;
    if (p->since < DPSEL_PROGRESS_EVERY) {
        return p->canceled ? DPSEL_ECANCELED : DPSEL_OK;
    }
    p->since = 0;
    return dpsel_progress_report_(p, p->from + dpsel_progress_share_(p));
}

/* The end of the window's work: reports its end (the whole scale, once,
 * at the end of all the work), with the same answer as dpsel_progress_add. */
static inline int dpsel_progress_finish(dpsel_progress *p)
{
    return p == NULL || p->fn == NULL ? DPSEL_OK : dpsel_progress_report_(p, p->window_to);
}

#endif
