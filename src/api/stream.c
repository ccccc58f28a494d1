/* SPDX-License-Identifier: ISC */
/* Streaming PF: the race of dpsel_core_race_more, fed scores in blocks.
 * The caller gives the largest score up front (dpsel_select finds it with
 * its argmax pass); the stream holds up to DPSEL_PF_STREAM_BLOCK scores and
 * races each full block with block thinning (spec/mechanisms.md §13), so a
 * block far below the leader costs about one coin.  The race starts with
 * no leader and a floor at 0 (§10): with the best score among the
 * candidates, a candidate below the floor can never be released. */
#include "selector.h"

#include "../core/race.h"
#include "../core/thin.h"

enum { STREAM_NOT_STARTED = 0, STREAM_RUNNING = 1, STREAM_FAILED = 2, STREAM_FINISHED = 3 };

_Static_assert(DPSEL_PF_STREAM_BLOCK == DPSEL_RACE_BLOCK,
               "the stream holds one block of the thinned race");

int dpsel_pf_stream_start(dpsel_pf_stream *stream, const dpsel_selector *selector,
                          int64_t best)
{
    if (stream == NULL || selector == NULL) {
        return DPSEL_ENULL;
    }
    dpsel_decay decay = dpsel_selector_decay(selector);
    if (!dpsel_core_race_applies(&decay)) {
        return DPSEL_ERANGE;
    }
    stream->selector_ = selector;
    stream->best_ = best;
    stream->raced_ = 0;
    stream->held_ = 0;
    stream->state_ = STREAM_RUNNING;
    stream->best_added_ = 0;
    stream->race_value_ = 0;
    stream->race_ties_ = 0;
    stream->race_chosen_ = 0;
    return DPSEL_OK;
}

/* Every error fails the stream: a failed race must never release. */
static int fail(dpsel_pf_stream *stream, int code)
{
    stream->state_ = STREAM_FAILED;
    return code;
}

/* Races scores[0 .. n - 1] (1 <= n, each at most best) as the candidates
 * after those raced so far. */
static int race(dpsel_pf_stream *stream, const int64_t *scores, size_t n, dpsel_rng *rng)
{
    const dpsel_selector *selector = stream->selector_;
    dpsel_decay decay = dpsel_selector_decay(selector);
    dpsel_race state = { stream->race_value_, stream->race_ties_, stream->race_chosen_ };
    int rc = dpsel_core_race_more(rng, &decay, &selector->thinning.core, scores, n,
                                  stream->best_, stream->raced_, &state);
    if (rc != DPSEL_OK) {
        return fail(stream, rc);
    }
    stream->race_value_ = state.value;
    stream->race_ties_ = state.ties;
    stream->race_chosen_ = state.chosen;
    stream->raced_ += n;
    return DPSEL_OK;
}

/* The scores held, raced now. */
static int race_held(dpsel_pf_stream *stream, dpsel_rng *rng)
{
    size_t held = stream->held_;
    if (held == 0) {
        return DPSEL_OK;
    }
    stream->held_ = 0;
    return race(stream, stream->block_, held, rng);
}

/* The checks of every add: a running stream, an rng, n more scores within
 * the limit and none above best (which it notes when one equals it). */
static int check_added(dpsel_pf_stream *stream, const int64_t *scores, size_t n,
                       const dpsel_rng *rng)
{
    if (stream->state_ != STREAM_RUNNING) {
        return fail(stream, DPSEL_ERANGE);
    }
    if (rng == NULL || (scores == NULL && n > 0)) {
        return fail(stream, DPSEL_ENULL);
    }
    uint64_t added = stream->raced_ + stream->held_;
    if (n > DPSEL_MAX_CANDIDATES - added) {
        return fail(stream, DPSEL_ERANGE);
    }
    int best_added = 0;
    for (size_t i = 0; i < n; i++) {
        if (scores[i] > stream->best_) {
            return fail(stream, DPSEL_ERANGE);
        }
        best_added |= scores[i] == stream->best_;
    }
    stream->best_added_ |= best_added;
    return DPSEL_OK;
}

int dpsel_pf_stream_add(dpsel_pf_stream *stream, int64_t score, dpsel_rng *rng)
{
    if (stream == NULL) {
        return DPSEL_ENULL;
    }
    int rc = check_added(stream, &score, 1, rng);
    if (rc != DPSEL_OK) {
        return rc;
    }
    stream->block_[stream->held_++] = score;
    return stream->held_ == DPSEL_PF_STREAM_BLOCK ? race_held(stream, rng) : DPSEL_OK;
}

int dpsel_pf_stream_add_scores(dpsel_pf_stream *stream, const int64_t *scores, size_t n,
                               dpsel_rng *rng)
{
    if (stream == NULL) {
        return DPSEL_ENULL;
    }
    int rc = check_added(stream, scores, n, rng);
    if (rc != DPSEL_OK || n == 0) {
        return rc;
    }
    rc = race_held(stream, rng);
    return rc != DPSEL_OK ? rc : race(stream, scores, n, rng);
}

int dpsel_pf_stream_finish(dpsel_pf_stream *stream, dpsel_rng *rng, size_t *index)
{
    if (stream == NULL) {
        return DPSEL_ENULL;
    }
    if (stream->state_ != STREAM_RUNNING) {
        return fail(stream, DPSEL_ERANGE);
    }
    if (index == NULL || rng == NULL) {
        return fail(stream, DPSEL_ENULL);
    }
    if (stream->raced_ + stream->held_ == 0) {
        return fail(stream, DPSEL_EEMPTY);
    }
    /* The race measures every gap from `best`: if no score reached it, the
     * gaps were all too large and the distribution is not PF's. */
    if (!stream->best_added_) {
        return fail(stream, DPSEL_ERANGE);
    }
    int rc = race_held(stream, rng);
    if (rc != DPSEL_OK) {
        return rc;
    }
    *index = (size_t)stream->race_chosen_;
    stream->state_ = STREAM_FINISHED;
    return DPSEL_OK;
}
