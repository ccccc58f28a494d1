/*
 * `dpsel select` streamed from a regular file: the file is read line by line
 * in passes, through the same parser as the in-memory path (input.c), and
 * PF runs as dpsel_pf_stream, so memory does not grow with the number of
 * candidates (except for the duplicate-label check of labelled files):
 *   1. every line is checked, the candidates counted, the best score found
 *      and the labels checked unique: every error is reported before any
 *      random bit is drawn;
 *   2. the scores go to the streams, one per selection;
 *   3. for a file with labels, the chosen candidates' labels are fetched
 *      (a `score` line's label is its position: no pass needed).
 * The file may change between passes: each pass hashes the bytes it reads
 * (BLAKE2b) and a difference from the first pass is an error.
 */
#include "stream_select.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void streamed_init(streamed *s, FILE *stream, const char *name, char *message,
                   size_t message_size)
{
    memset(s, 0, sizeof *s);
    reader_init(&s->reader, stream, name, message, message_size);
}

void streamed_free(streamed *s)
{
    reader_free(&s->reader);
    free(s->hashes);
    s->hashes = NULL;
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
        return s->passes > 0 && !r->read_failed ? changed(s) : -1;
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

/* Labels are compared by a 128-bit keyed hash (libsodium's SipHash-2-4
 * with 128-bit output, a PRF: a tenth of the cost of keyed BLAKE2b on
 * short labels) under a random key, so the check keeps 24 bytes per
 * candidate instead of the labels.  Two different labels collide with
 * probability 2^-128 for a key the file cannot know, so a false alarm among
 * n labels has probability below n^2 2^-129 (below 2^-82 for n = 10^7).  A
 * `score` line's label is its position: a file of `score` lines alone has
 * distinct labels and keeps no hashes. */
static int add_hash(streamed *s, const char *label, uint64_t index)
{
    if (s->capacity == index) {
        size_t grown = s->capacity == 0 ? 1024 : s->capacity * 2;
        label_hash *hashes = grown > SIZE_MAX / sizeof *hashes
                           ? NULL : realloc(s->hashes, grown * sizeof *hashes);
        if (hashes == NULL) {
            return reader_fail(&s->reader, s->reader.line, "out of memory");
        }
        s->hashes = hashes;
        s->capacity = grown;
    }
    unsigned char hash[LABEL_HASH_SIZE];
    crypto_shorthash_siphashx24(hash, (const unsigned char *)label, strlen(label), s->key);
    memcpy(s->hashes[index].hash, hash, sizeof hash);
    s->hashes[index].index = index;
    return 0;
}

/* At the first label, the `score` lines before it get their hashes too:
 * their labels are their positions. */
static int hash_label(streamed *s, const char *label, uint64_t index)
{
    char position[POSITION_TEXT];
    if (!s->labelled) {
        if (label == NULL) {
            return 0;
        }
        s->labelled = 1;
        randombytes_buf(s->key, sizeof s->key);
        for (uint64_t i = 0; i < index; i++) {
            if (add_hash(s, position_label(i, position), i) != 0) {
                return -1;
            }
        }
    }
    return add_hash(s, label != NULL ? label : position_label(index, position), index);
}

static int compare_words(uint64_t x, uint64_t y)
{
    return (x > y) - (x < y);
}

static int same_hash(const label_hash *x, const label_hash *y)
{
    return x->hash[0] == y->hash[0] && x->hash[1] == y->hash[1];
}

static int compare_hashes(const void *a, const void *b)
{
    const label_hash *x = a, *y = b;
    return x->hash[0] != y->hash[0] ? compare_words(x->hash[0], y->hash[0])
         : x->hash[1] != y->hash[1] ? compare_words(x->hash[1], y->hash[1])
         : compare_words(x->index, y->index);
}

/* Sorts by hash without glibc qsort's scratch copy of the whole array: an
 * in-place distribution on a byte of the hash (the hashes are uniform),
 * from the top one down to 48 bits, then qsort within the small buckets. */
static void sort_hashes(label_hash *h, size_t n, unsigned shift)
{
    if (n <= 256 || shift < 48) {
        qsort(h, n, sizeof *h, compare_hashes);
        return;
    }
    size_t start[257] = { 0 }, next[256];
    for (size_t i = 0; i < n; i++) {
        start[(h[i].hash[0] >> shift & 0xFF) + 1]++;
    }
    for (size_t b = 0; b < 256; b++) {
        start[b + 1] += start[b];
        next[b] = start[b];
    }
    for (size_t b = 0; b < 256; b++) {
        while (next[b] < start[b + 1]) {
            label_hash *item = &h[next[b]];
            size_t home = item->hash[0] >> shift & 0xFF;
            if (home == b) {
                next[b]++;
            } else {
                label_hash swap = h[next[home]];
                h[next[home]++] = *item;
                *item = swap;
            }
        }
    }
    for (size_t b = 0; b < 256; b++) {
        sort_hashes(h + start[b], start[b + 1] - start[b], shift - 8);
    }
}

/* The duplicate to report: the label whose second occurrence comes first
 * in the file, as (*first, *second) positions; 0 if there is none. */
static int find_duplicate(streamed *s, uint64_t *first, uint64_t *second)
{
    sort_hashes(s->hashes, s->count, 56);
    int found = 0;
    for (size_t i = 1; i < s->count; i++) {
        const label_hash *a = &s->hashes[i - 1], *b = &s->hashes[i];
        int group_start = i == 1 || !same_hash(&s->hashes[i - 2], a);
        if (group_start && same_hash(a, b)
            && (!found || b->index < *second)) {
            *first = a->index;
            *second = b->index;
            found = 1;
        }
    }
    return found;
}

typedef struct {
    uint64_t first, second;
    size_t first_line, second_line;
    char label[INPUT_LINE_MAX + 1];
} duplicate;

static int locate_duplicate(streamed *s, void *arg, const char *label, int64_t score)
{
    (void)score;
    duplicate *d = arg;
    uint64_t index = s->reader.count - 1;
    if (index == d->first) {
        d->first_line = s->reader.line;
    } else if (index == d->second) {
        d->second_line = s->reader.line;
        char position[POSITION_TEXT];
        snprintf(d->label, sizeof d->label, "%s",
                 label != NULL ? label : position_label(index, position));
    }
    return 0;
}

/* Another pass finds the lines of the two occurrences and the label. */
static int check_unique_labels(streamed *s)
{
    duplicate d = { 0 };
    if (!s->labelled || !find_duplicate(s, &d.first, &d.second)) {
        return 0;
    }
    if (pass(s, locate_duplicate, &d) != 0) {
        return -1;
    }
    return report_duplicate(&s->reader, d.label, d.second_line, d.first_line);
}

/* ------------------------------------------------------------ passes */

static int survey(streamed *s, void *arg, const char *label, int64_t score)
{
    (void)arg;
    uint64_t index = s->reader.count - 1;
    if (index == 0 || score > s->best) {
        s->best = score;
    }
    return hash_label(s, label, index);
}

int streamed_check(streamed *s)
{
    if (sodium_init() < 0) {
        return reader_fail(&s->reader, 0, "cannot initialise libsodium");
    }
    if (pass(s, survey, NULL) != 0) {
        return -1;
    }
    if (s->count == 0) {
        return reader_fail(&s->reader, 0, "no candidates");
    }
    int rc = check_unique_labels(s);
    free(s->hashes);  /* done with */
    s->hashes = NULL;
    return rc;
}

typedef struct {
    dpsel_pf_stream *streams;
    uint64_t count;
    dpsel_rng *rng;
} race_pass;

static int feed(streamed *s, void *arg, const char *label, int64_t score)
{
    (void)label;
    race_pass *race = arg;
    if (score > s->best || s->reader.count > s->count) {
        return changed(s);
    }
    for (uint64_t i = 0; i < race->count; i++) {
        int rc = dpsel_pf_stream_add(&race->streams[i], score, race->rng);
        if (rc != DPSEL_OK) {
            return reader_fail(&s->reader, 0, "select: %s", dpsel_strerror(rc));
        }
    }
    return 0;
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
            return reader_fail(&s->reader, s->reader.line, "out of memory");
        }
        l->labels[l->order[l->next]] = copy;
    }
    return 0;
}

static int label_choices(streamed *s, uint64_t count, size_t *chosen, char **labels)
{
    label_pass l = { chosen, calloc(count, sizeof *l.order), count, 0, labels };
    if (l.order == NULL) {
        return reader_fail(&s->reader, 0, "out of memory");
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
            return reader_fail(&s->reader, 0, "out of memory");
        }
    }
    return 0;
}

static int race_choices(streamed *s, const dpsel_selector *selector, dpsel_rng *rng,
                        uint64_t count, size_t *chosen)
{
    race_pass race = { calloc(count, sizeof *race.streams), count, rng };
    if (race.streams == NULL) {
        return reader_fail(&s->reader, 0, "out of memory for --count %" PRIu64, count);
    }
    int rc = 0;
    for (uint64_t i = 0; i < count && rc == 0; i++) {
        int code = dpsel_pf_stream_start(&race.streams[i], selector, s->best);
        rc = code == DPSEL_OK ? 0 : reader_fail(&s->reader, 0, "select: %s", dpsel_strerror(code));
    }
    if (rc == 0) {
        rc = pass(s, feed, &race);
    }
    for (uint64_t i = 0; i < count && rc == 0; i++) {
        int code = dpsel_pf_stream_finish(&race.streams[i], &chosen[i]);
        rc = code == DPSEL_OK ? 0 : reader_fail(&s->reader, 0, "select: %s", dpsel_strerror(code));
    }
    free(race.streams);
    return rc;
}

int streamed_select(streamed *s, const dpsel_selector *selector, dpsel_rng *rng,
                    uint64_t count, size_t *chosen, char **labels)
{
    if (race_choices(s, selector, rng, count, chosen) != 0) {
        return -1;
    }
    return s->labelled ? label_choices(s, count, chosen, labels)
                       : number_choices(s, count, chosen, labels);
}
