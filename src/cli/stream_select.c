/* SPDX-License-Identifier: ISC */
/*
 * `dpsel select` streamed from a regular file: the file is read line by line
 * in passes, through the same parser as the in-memory path (input.c), and
 * PF runs as dpsel_pf_stream, so memory does not grow with the number of
 * candidates:
 *   1. every line is checked, the candidates counted and the best score
 *      found, and the labels are checked unique (label_check.h: a Bloom
 *      filter in this pass, then a pass comparing the suspects exactly;
 *      40 MiB at most): every error is reported before any random bit is
 *      drawn;
 *   2. the scores go to the streams, one per selection, a block at a
 *      time (4096 selections per pass at most);
 *   3. for a file with labels, the chosen candidates' labels are fetched
 *      (a `score` line's label is its position: no pass needed).
 * The file may change between passes: each pass hashes the bytes it reads
 * (BLAKE2b) and a difference from the first pass is an error.
 */
#include "stream_select.h"
#include "progress.h"
#include "status.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void streamed_init(streamed *s, FILE *stream, const char *name, const score_format *format,
                   cli_error *error)
{
    memset(s, 0, sizeof *s);
    s->limits = (label_check_limits)LABEL_CHECK_LIMITS;
    reader_init(&s->reader, stream, name, format, error);
}

void streamed_free(streamed *s)
{
    reader_free(&s->reader);
    label_check_free(&s->labels);
}

static int changed(const streamed *s)
{
    return reader_fail(&s->reader, 0, "changed while being read");
}

/* Called with each candidate of a pass, its position in s->reader.count - 1. */
typedef int (*visit_fn)(streamed *s, void *arg, const char *label, int64_t score);

/* One pass over the whole file.  After the first, a parse error or other
 * bytes than the first pass read mean the file changed. */
static int pass(streamed *s, visit_fn visit, void *arg)
{
    line_reader *r = &s->reader;
    reader_restart(r);
    crypto_generichash_init(&s->state, NULL, 0, sizeof s->digest);
    r->digest = &s->state;
    const char *label;
    int64_t score;
    int got;
    while ((got = reader_next(r, &label, &score)) == 1) {
        if (visit(s, arg, label, score) != 0) {
            return -1;
        }
    }
    if (got != 0) {
        return s->passes > 0 && !r->not_content ? changed(s) : -1;
    }
    unsigned char digest[sizeof s->digest];
    crypto_generichash_final(&s->state, digest, sizeof digest);
    if (s->passes++ == 0) {
        memcpy(s->digest, digest, sizeof digest);
        s->count = r->count;
    } else if (memcmp(digest, s->digest, sizeof digest) != 0 || r->count != s->count) {
        return changed(s);
    }
    return 0;
}

/* ------------------------------------------------- duplicate labels */

/* A `score` line's label is its position, so a file of `score` lines alone
 * has distinct labels and the check starts at the first label, with the
 * positions before it. */
static const char *label_or_position(const char *label, uint64_t index,
                                     char position[POSITION_TEXT])
{
    return label != NULL ? label : position_label(index, position);
}

static int check_label(streamed *s, const char *label, uint64_t index)
{
    char position[POSITION_TEXT];
    if (!s->labelled) {
        if (label == NULL) {
            return 0;
        }
        int rc = label_check_init(&s->labels, &s->limits);
        if (rc != 0) {
            return reader_fail_with(&s->reader, EXIT_CANNOT_COMPLETE, s->reader.line, "%s",
                                    rc == LABEL_CHECK_NO_KEY ? "the random source failed"
                                                             : "out of memory");
        }
        s->labelled = 1;
        for (uint64_t i = 0; i < index; i++) {
            label_check_add(&s->labels, position_label(i, position), i);
        }
    }
    label_check_add(&s->labels, label_or_position(label, index, position), index);
    return 0;
}

static int collect_label(streamed *s, void *arg, const char *label, int64_t score)
{
    (void)arg;
    (void)score;
    char position[POSITION_TEXT];
    uint64_t index = s->reader.count - 1;
    label_check_add(&s->labels, label_or_position(label, index, position), index);
    return 0;
}

static int verify_label(streamed *s, void *arg, const char *label, int64_t score)
{
    (void)arg;
    (void)score;
    char position[POSITION_TEXT];
    uint64_t index = s->reader.count - 1;
    label_check_verify(&s->labels, label_or_position(label, index, position), index,
                       s->reader.line);
    return 0;
}

/* The rounds of label_check.h after the survey (its first collect pass):
 * the first repeat of the file is reported on its line. */
static int check_unique_labels(streamed *s)
{
    if (!s->labelled) {
        return 0;
    }
    for (;;) {
        if (label_check_suspects(&s->labels) > 0 && pass(s, verify_label, NULL) != 0) {
            return -1;
        }
        if (!label_check_settle(&s->labels, s->count)) {
            break;
        }
        if (pass(s, collect_label, NULL) != 0) {
            return -1;
        }
    }
    const label_repeat *repeat = label_check_repeat(&s->labels);
    return repeat == NULL ? 0 : report_duplicate(&s->reader, repeat->line, repeat->first_line);
}

/* ------------------------------------------------------------ passes */

static int survey(streamed *s, void *arg, const char *label, int64_t score)
{
    (void)arg;
    uint64_t index = s->reader.count - 1;
    if (index == 0 || score > s->best) {
        s->best = score;
    }
    return check_label(s, label, index);
}

int streamed_check(streamed *s)
{
    int rc = pass(s, survey, NULL);
    if (rc == 0 && s->count == 0) {
        rc = reader_no_candidates(&s->reader);
    }
    if (rc == 0) {
        rc = check_unique_labels(s);
    }
    label_check_free(&s->labels);  /* done with */
    return rc == 0 ? 0 : s->reader.error->status;
}

/* A failed library call of the selection: its message and exit status. */
static int library_failure(streamed *s, int code)
{
    return reader_fail_with(&s->reader, exit_status_of_error(code), 0, "select: %s",
                            dpsel_strerror(code));
}

/* At most this many selections share a pass (about 8 KiB each); more take
 * more passes. */
#define STREAMS_PER_PASS 4096u

/* The selections of one pass, fed the scores a block at a time. */
typedef struct {
    dpsel_pf_stream *streams;
    uint64_t count;
    dpsel_rng *rng;
    size_t held;
    int64_t block[DPSEL_PF_STREAM_BLOCK];
} race_pass;

/* The scores held, added to every stream. */
static int feed_block(streamed *s, race_pass *race)
{
    for (uint64_t i = 0; i < race->count; i++) {
        int rc = dpsel_pf_stream_add_scores(&race->streams[i], race->block, race->held,
                                            race->rng);
        if (rc != DPSEL_OK) {
            return library_failure(s, rc);
        }
    }
    race->held = 0;
    return 0;
}

static int feed(streamed *s, void *arg, const char *label, int64_t score)
{
    (void)label;
    race_pass *race = arg;
    if (score > s->best || s->reader.count > s->count) {
        return changed(s);
    }
    race->block[race->held++] = score;
    return race->held == DPSEL_PF_STREAM_BLOCK ? feed_block(s, race) : 0;
}

/* The chosen positions in increasing order, as slots of chosen[]. */
typedef struct {
    const size_t *chosen;
    size_t *order;       /* slots sorted by chosen position */
    uint64_t count;
    uint64_t next;       /* the next slot of order to fill */
    char **labels;
} label_pass;

static int compare_slots(const void *a, const void *b, void *chosen)
{
    const size_t *c = chosen;
    size_t x = c[*(const size_t *)a], y = c[*(const size_t *)b];
    return (x > y) - (x < y);
}

static int fetch_labels(streamed *s, void *arg, const char *label, int64_t score)
{
    (void)score;
    label_pass *l = arg;
    uint64_t index = s->reader.count - 1;
    char position[POSITION_TEXT];
    for (; l->next < l->count && l->chosen[l->order[l->next]] == index; l->next++) {
        char *copy = strdup(label != NULL ? label : position_label(index, position));
        if (copy == NULL) {
            return reader_out_of_memory(&s->reader);
        }
        l->labels[l->order[l->next]] = copy;
    }
    return 0;
}

static int label_choices(streamed *s, uint64_t count, size_t *chosen, char **labels)
{
    label_pass l = { chosen, calloc(count, sizeof *l.order), count, 0, labels };
    if (l.order == NULL) {
        return reader_out_of_memory(&s->reader);
    }
    for (uint64_t i = 0; i < count; i++) {
        l.order[i] = i;
    }
    qsort_r(l.order, count, sizeof *l.order, compare_slots, chosen);
    int rc = pass(s, fetch_labels, &l);
    free(l.order);
    return rc;
}

/* Labels of a file without labels: the positions. */
static int number_choices(streamed *s, uint64_t count, const size_t *chosen, char **labels)
{
    char position[POSITION_TEXT];
    for (uint64_t i = 0; i < count; i++) {
        labels[i] = strdup(position_label(chosen[i], position));
        if (labels[i] == NULL) {
            return reader_out_of_memory(&s->reader);
        }
    }
    return 0;
}

/* count selections (at most STREAMS_PER_PASS) in one pass over the file,
 * with the streams and block of race. */
static int race_pass_choices(streamed *s, const dpsel_selector *selector, race_pass *race,
                             uint64_t count, size_t *chosen)
{
    race->count = count;
    race->held = 0;
    int rc = 0;
    for (uint64_t i = 0; i < count && rc == 0; i++) {
        int code = dpsel_pf_stream_start(&race->streams[i], selector, s->best);
        rc = code == DPSEL_OK ? 0 : library_failure(s, code);
    }
    if (rc == 0) {
        rc = pass(s, feed, race);
    }
    if (rc == 0 && race->held > 0) {
        rc = feed_block(s, race);
    }
    for (uint64_t i = 0; i < count && rc == 0; i++) {
        int code = dpsel_pf_stream_finish(&race->streams[i], race->rng, &chosen[i]);
        rc = code == DPSEL_OK ? 0 : library_failure(s, code);
    }
    return rc;
}

static int race_choices(streamed *s, const dpsel_selector *selector, dpsel_rng *rng,
                        uint64_t count, size_t *chosen, cli_progress *progress)
{
    uint64_t batch = count < STREAMS_PER_PASS ? count : STREAMS_PER_PASS;
    race_pass *race = malloc(sizeof *race);
    dpsel_pf_stream *streams = calloc(batch, sizeof *streams);
    if (race == NULL || streams == NULL) {
        free(race);
        free(streams);
        return reader_fail_with(&s->reader, EXIT_CANNOT_COMPLETE, 0,
                                "out of memory for --count %" PRIu64, count);
    }
    race->streams = streams;
    race->rng = rng;
    int rc = 0;
    for (uint64_t done = 0; done < count && rc == 0; done += batch) {
        uint64_t now = count - done < batch ? count - done : batch;
        cli_progress_step(progress, done / batch);
        rc = race_pass_choices(s, selector, race, now, chosen + done);
    }
    free(streams);
    free(race);
    return rc;
}

int streamed_select(streamed *s, const dpsel_selector *selector, dpsel_rng *rng,
                    uint64_t count, size_t *chosen, char **labels)
{
    /* a step per pass over the file: the races', then the labels' */
    uint64_t passes = count / STREAMS_PER_PASS + (count % STREAMS_PER_PASS != 0);
    cli_progress progress;
    cli_progress_start(&progress, "select", s->progress, passes + 1);
    int rc = race_choices(s, selector, rng, count, chosen, &progress);
    if (rc == 0) {
        cli_progress_step(&progress, passes);
        rc = s->labelled ? label_choices(s, count, chosen, labels)
                         : number_choices(s, count, chosen, labels);
    }
    cli_progress_stop(&progress, rc == 0);
    return rc == 0 ? 0 : s->reader.error->status;
}
