/* Streaming PF: the race of dpsel_core_pf_race, fed one score at a time.
 * The caller gives the largest score up front (dpsel_core_pf_race finds it
 * with its argmax pass); each score then goes through
 * dpsel_core_race_step with its clamped gap, as in the array form, so the
 * same random bits give the same index. */
#include "selector.h"

#include "core/gap.h"
#include "core/race.h"

enum { STREAM_NOT_STARTED = 0, STREAM_RUNNING = 1, STREAM_FAILED = 2, STREAM_FINISHED = 3 };

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
    dpsel_pf_stream started = { selector, best, 0, STREAM_RUNNING, 0, 0, 0, 0 };
    *stream = started;
    return DPSEL_OK;
}

/* Every error fails the stream: a failed race must never release. */
static int fail(dpsel_pf_stream *stream, int code)
{
    stream->state_ = STREAM_FAILED;
    return code;
}

int dpsel_pf_stream_add(dpsel_pf_stream *stream, int64_t score, dpsel_rng *rng)
{
    if (stream == NULL) {
        return DPSEL_ENULL;
    }
    if (stream->state_ != STREAM_RUNNING) {
        return fail(stream, DPSEL_ERANGE);
    }
    if (rng == NULL) {
        return fail(stream, DPSEL_ENULL);
    }
    if (score > stream->best_
        || stream->added_ >= DPSEL_MAX_CANDIDATES) {
        return fail(stream, DPSEL_ERANGE);
    }
    dpsel_decay decay = dpsel_selector_decay(stream->selector_);
    dpsel_race race = { stream->race_value_, stream->race_ties_, stream->race_chosen_ };
    uint64_t gap = dpsel_core_clamped_gap(stream->best_, score, decay.cap);
    int rc = dpsel_core_race_step(rng, &decay, &race, gap, stream->added_);
    if (rc != DPSEL_OK) {
        return fail(stream, rc);
    }
    stream->race_value_ = race.value;
    stream->race_ties_ = race.ties;
    stream->race_chosen_ = race.chosen;
    stream->added_++;
    stream->best_added_ |= score == stream->best_;
    return DPSEL_OK;
}

int dpsel_pf_stream_finish(dpsel_pf_stream *stream, size_t *index)
{
    if (stream == NULL) {
        return DPSEL_ENULL;
    }
    if (stream->state_ != STREAM_RUNNING) {
        return fail(stream, DPSEL_ERANGE);
    }
    if (index == NULL) {
        return fail(stream, DPSEL_ENULL);
    }
    if (stream->added_ == 0) {
        return fail(stream, DPSEL_EEMPTY);
    }
    /* The race measures every gap from `best`: if no score reached it, the
     * gaps were all too large and the distribution is not PF's. */
    if (!stream->best_added_) {
        return fail(stream, DPSEL_ERANGE);
    }
    *index = (size_t)stream->race_chosen_;
    stream->state_ = STREAM_FINISHED;
    return DPSEL_OK;
}
