/* SPDX-License-Identifier: ISC */
/*
 * Candidate files: one candidate per line, `label,score` or `score` (whose
 * label is then its 0-based position).  Blank lines and lines starting with
 * '#' are skipped (but a `#text,integer` line, which looks like a candidate,
 * is an error: labels cannot start with '#'), CRLF, a missing final newline
 * and a UTF-8 byte-order mark at the start of the file are accepted, and the
 * first content line may be a header of two names (`label,score`,
 * `bin,count`).  Everything else that is not a candidate is an error.
 * Lines are read into a buffer of fixed size: a line longer than
 * INPUT_LINE_MAX is an error as soon as it is seen, and a read error is an
 * error, never the end of the file.
 */
#include "input.h"
#include "dpsel.h"
#include "status.h"
#include "text.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int reader_fail(const line_reader *r, size_t line, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    cli_vfail_at(r->error, EXIT_BAD_INPUT, r->name, line, format, args);
    va_end(args);
    return -1;
}

int reader_fail_with(line_reader *r, int status, size_t line, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    cli_vfail_at(r->error, status, r->name, line, format, args);
    va_end(args);
    r->not_content = 1;
    return -1;
}

int reader_no_candidates(const line_reader *r)
{
    /* the whole file, not its last line */
    return reader_fail(r, 0, "no candidates (one per line, `label,score` or `score`)");
}

int reader_out_of_memory(line_reader *r)
{
    return reader_fail_with(r, EXIT_CANNOT_COMPLETE, 0, "out of memory");
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') {
        s++;
    }
    size_t len = strlen(s);
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t')) {
        s[--len] = '\0';
    }
    return s;
}

/* Strict decimal int64: [+-]?[0-9]+, no spaces, in range. */
static int parse_score(const char *text, int64_t *score)
{
    const char *digits = text + (text[0] == '+' || text[0] == '-');
    if (*digits == '\0') {
        return -1;
    }
    for (const char *p = digits; *p != '\0'; p++) {
        if (!isdigit((unsigned char)*p)) {
            return -1;
        }
    }
    errno = 0;
    intmax_t value = strtoimax(text, NULL, 10);
    if (errno == ERANGE || value < INT64_MIN || value > INT64_MAX) {
        return -2;
    }
    *score = (int64_t)value;
    return 0;
}

/* 1 if s is well-formed UTF-8 with no control characters (C0, DEL, C1). */
static int valid_label(const unsigned char *s)
{
    while (*s != '\0') {
        unsigned char c = *s;
        size_t extra = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2
                     : (c & 0xF8) == 0xF0 ? 3 : 4;
        if (extra == 4 || c < 0x20 || c == 0x7F || (c >= 0xC0 && c < 0xC2) || c > 0xF4) {
            return 0;
        }
        uint32_t code = extra == 0 ? c : c & (0x3Fu >> extra);
        for (size_t i = 1; i <= extra; i++) {
            if ((s[i] & 0xC0) != 0x80) {
                return 0;
            }
            code = (code << 6) | (s[i] & 0x3Fu);
        }
        static const uint32_t least[4] = { 0, 0x80, 0x800, 0x10000 };
        if (code < least[extra] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)
            || (code >= 0x80 && code <= 0x9F)) {
            return 0;
        }
        s += extra + 1;
    }
    return 1;
}

/* 1 for a column's name: letters, digits, '_' and spaces. */
static int is_name(const char *text)
{
    for (; *text != '\0'; text++) {
        if (!isalnum((unsigned char)*text) && *text != '_' && *text != ' ') {
            return 0;
        }
    }
    return 1;
}

/* The first content line is a header when its score field is the name of a
 * score column ("score" or "count", any case) and its label field is a
 * name.  Anything else that is not a score is an error, so a mistyped first
 * candidate is never taken for a header. */
static int is_header(const char *label, const char *score)
{
    return (strcasecmp(score, "score") == 0 || strcasecmp(score, "count") == 0)
        && is_name(label);
}

/* What to do about a first content line that looks like a header of other
 * names (`book,votes`), for the end of its message; "" for other lines. */
static const char *header_advice(const line_reader *r, const char *label, const char *score)
{
    if (r->seen_content || !isalpha((unsigned char)score[0]) || !is_name(score)
        || (label != NULL && !is_name(label))) {
        return "";
    }
    return label != NULL ? " (a header's second column must be named score or count, "
                           "as in label,score)"
                         : " (a header names two columns, as in label,score)";
}

/* For a line without a comma that holds another spreadsheet separator
 * (a semicolon-separated CSV, a tab-separated file): the advice to use
 * commas, naming no character of the line; "" otherwise. */
static const char *separator_advice(const char *text)
{
    return strpbrk(text, ";\t|") == NULL ? ""
         : " (the columns are separated by a comma, as in label,score: save the file with "
           "commas, not semicolons, tabs or bars)";
}

static int append(candidates *c, size_t *capacity, char *label, int64_t score, size_t line)
{
    if (c->count == *capacity) {
        size_t grown = *capacity == 0 ? 1024 : *capacity * 2;
        int64_t *scores = realloc(c->scores, grown * sizeof *scores);
        if (scores != NULL) {
            c->scores = scores;
        }
        char **labels = realloc(c->labels, grown * sizeof *labels);
        if (labels != NULL) {
            c->labels = labels;
        }
        size_t *lines = realloc(c->lines, grown * sizeof *lines);
        if (lines != NULL) {
            c->lines = lines;
        }
        if (scores == NULL || labels == NULL || lines == NULL) {
            return -1;
        }
        *capacity = grown;
    }
    c->scores[c->count] = score;
    c->labels[c->count] = label;
    c->lines[c->count] = line;
    c->count++;
    return 0;
}

const char *position_label(size_t index, char *out)
{
    snprintf(out, POSITION_TEXT, "%zu", index);
    return out;
}

/* The number of fraction digits of a decimal text. */
static size_t fraction_digits(const char *text)
{
    const char *point = strchr(text, '.');
    return point != NULL ? strlen(point + 1) : 0;
}

/* Whether text is a decimal with a fraction part (a value beyond int64
 * counts: the advice is about the unit). */
static int is_fraction(const char *text)
{
    size_t digits = fraction_digits(text);
    char unit[DPSEL_DECIMAL_TEXT_MAX + 1];
    int64_t units;
    if (digits < 1 || digits + 2 > DPSEL_DECIMAL_TEXT_MAX) {
        return 0;
    }
    decimal_unit(digits, unit);
    int rc = dpsel_decimal_to_units(text, unit, &units);
    return rc == DPSEL_OK || rc == DPSEL_ERANGE;
}

/* The options that read text, a decimal score in an integer file; "" when
 * text is no such decimal or r has no sensitivity to complete.  The advice
 * names no digit count of the score: that is the record's, and no message
 * carries a value from the data. */
static const char *decimal_advice(const line_reader *r, const char *text, char *advice,
                                  size_t size)
{
    if (r->sensitivity == NULL || !is_fraction(text)) {
        return "";
    }
    snprintf(advice, size, " (decimal scores: give --resolution, their unit, as 0.01 for cents, "
             "or --sensitivity with as many decimals as the scores, as %s.00)", r->sensitivity);
    return advice;
}

/* For a decimal score finer than r->unit: the unit to give, said without
 * the score's digits (decimal_advice). */
static const char *finer_unit_advice(const line_reader *r, const char *text, char *advice,
                                     size_t size)
{
    if (r->sensitivity == NULL || !is_fraction(text)) {
        return "";
    }
    snprintf(advice, size, " (a finer --resolution reads it: a unit that every score and the "
             "sensitivity %s are whole multiples of, as 0.001)", r->sensitivity);
    return advice;
}

/* advice: header_advice's, given before decimal_advice's. */
static int parse_integer_score(const line_reader *r, const char *text, const char *advice,
                               int64_t *score)
{
    char decimal[DPSEL_DECIMAL_TEXT_MAX + 160];
    int parsed = parse_score(text, score);
    if (parsed == -1) {
        return reader_fail(r, r->line, "score is not an integer%s",
                           *advice != '\0' ? advice
                                            : decimal_advice(r, text, decimal, sizeof decimal));
    }
    if (parsed == -2) {
        return reader_fail(r, r->line, "score out of the int64 range");
    }
    return 0;
}

/* A decimal score in whole units of r->unit: never rounded. */
static int parse_decimal_score(const line_reader *r, const char *text, const char *advice,
                               int64_t *score)
{
    int rc = dpsel_decimal_to_units(text, r->unit, score);
    if (rc == DPSEL_OK) {
        return 0;
    }
    if (rc == DPSEL_EUNIT) {
        char finer[DPSEL_DECIMAL_TEXT_MAX + 120];
        return reader_fail(r, r->line, "score is not a whole multiple of the unit %s%s", r->unit,
                           finer_unit_advice(r, text, finer, sizeof finer));
    }
    if (rc == DPSEL_ERANGE) {
        return reader_fail(r, r->line, "score out of the int64 range in units of %s", r->unit);
    }
    return reader_fail(r, r->line, "score is not a decimal number%s", advice);
}

/* Parses one content line: 1 for a candidate (*label NULL for a `score`
 * line), 0 for the header, -1 for an error. */
static int parse_line(const line_reader *r, char *text, const char **label, int64_t *score)
{
    char *comma = strrchr(text, ',');
    char *score_text = trim(comma != NULL ? comma + 1 : text);
    char *label_text = NULL;
    if (comma != NULL) {
        *comma = '\0';
        label_text = trim(text);
        if (!r->seen_content && is_header(label_text, score_text)) {
            return 0;
        }
        if (*label_text == '\0') {
            return reader_fail(r, r->line, "empty label");
        }
        if (!valid_label((const unsigned char *)label_text)) {
            return reader_fail(r, r->line,
                               "label is not valid UTF-8 text without control characters");
        }
    }
    const char *advice = comma == NULL ? separator_advice(score_text) : "";
    if (*advice == '\0') {
        advice = header_advice(r, label_text, score_text);
    }
    if ((r->unit != NULL ? parse_decimal_score(r, score_text, advice, score)
                         : parse_integer_score(r, score_text, advice, score)) != 0) {
        return -1;
    }
    *label = label_text;
    return 1;
}

/* Spreadsheet programs start a UTF-8 CSV file with a byte-order mark: it is
 * skipped at the start of the first line (anywhere else it is a character
 * like any other). */
static char *skip_byte_order_mark(const line_reader *r, char *line, size_t len)
{
    static const char mark[] = "\xEF\xBB\xBF";
    if (r->line == 1 && len >= 3 && memcmp(line, mark, 3) == 0) {
        return line + 3;
    }
    return line;
}

/* The buffer of the line last read: r->text, or the longer one a file of
 * values grew (line_room). */
static char *line_buffer(line_reader *r)
{
    return r->long_line != NULL ? r->long_line : r->text;
}

/* Room for a line of `needed` bytes (line end included; `used` of them
 * read): within r->text, or for a file of values a heap buffer grown to the
 * longest line, since a value of any length is a record, never refused
 * (spec/quantiles.md §6).  0, or -1 for a line too long or out of memory. */
static int line_room(line_reader *r, size_t used, size_t needed)
{
    if (needed < sizeof r->text && r->long_line == NULL) {
        return 0;
    }
    if (r->grid == NULL) {
        return reader_fail(r, r->line + 1, "line longer than %d bytes", INPUT_LINE_MAX);
    }
    if (needed >= r->long_line_size) {
        size_t size = needed < SIZE_MAX / 2 ? 2 * needed : SIZE_MAX;
        char *grown = realloc(r->long_line, size);
        if (grown == NULL) {
            return reader_out_of_memory(r);
        }
        if (r->long_line == NULL) {
            memcpy(grown, r->text, used);
        }
        r->long_line = grown;
        r->long_line_size = size;
    }
    return 0;
}

/* The line just read (len bytes of line_buffer), without its line end and
 * surrounding blanks. */
static int line_text(line_reader *r, size_t len, char **text)
{
    char *buffer = line_buffer(r);
    if (memchr(buffer, '\0', len) != NULL) {
        return reader_fail(r, r->line, "NUL byte in line");
    }
    buffer[len] = '\0';
    if (len > 0 && buffer[len - 1] == '\n') {
        buffer[--len] = '\0';
    }
    if (len > 0 && buffer[len - 1] == '\r') {
        buffer[--len] = '\0';
    }
    if (len > INPUT_LINE_MAX && r->grid == NULL) {
        return reader_fail(r, r->line, "line longer than %d bytes", INPUT_LINE_MAX);
    }
    *text = trim(skip_byte_order_mark(r, buffer, len));
    return 0;
}

/* Reads more of the stream ahead: 1, or 0 at its end, or -1 on a read
 * error. */
static int read_ahead(line_reader *r)
{
    if (r->ahead == NULL && (r->ahead = malloc(INPUT_READ_AHEAD)) == NULL) {
        return reader_out_of_memory(r);
    }
    errno = 0;
    r->ahead_start = 0;
    r->ahead_end = fread(r->ahead, 1, INPUT_READ_AHEAD, r->stream);
    if (r->ahead_end > 0) {
        return 1;
    }
    if (ferror(r->stream)) {
        int error = errno;
        return reader_fail_with(r, exit_status_of_errno(error), 0, "read error: %s",
                                strerror(error));
    }
    return 0;
}

/* Reads the next line, with its line end, into line_buffer: its length in
 * *len (0 at the end of the stream), or -1 for a line longer than the
 * buffer (INPUT_LINE_MAX and a CRLF; values excepted), out of memory or a
 * read error. */
static int read_line(line_reader *r, size_t *len)
{
    size_t used = 0;
    for (;;) {
        if (r->ahead_start == r->ahead_end) {
            int got = read_ahead(r);
            if (got <= 0) {
                *len = used;
                return got;
            }
        }
        const char *start = r->ahead + r->ahead_start;
        const char *newline = memchr(start, '\n', r->ahead_end - r->ahead_start);
        size_t take = newline != NULL ? (size_t)(newline - start) + 1 : r->ahead_end - r->ahead_start;
        if (line_room(r, used, used + take) != 0) {
            return -1;
        }
        memcpy(line_buffer(r) + used, start, take);
        used += take;
        r->ahead_start += take;
        if (newline != NULL) {
            *len = used;
            return 0;
        }
    }
}

/* A comment that has the form of a candidate, `#text,integer`: an error
 * rather than a candidate skipped without a word. */
static int looks_like_candidate(const char *comment)
{
    const char *comma = strrchr(comment, ',');
    if (comma == NULL) {
        return 0;
    }
    comma += strspn(comma + 1, " \t") + 1;
    int64_t score;
    return parse_score(comma, &score) != -1;
}

/* The next content line (not blank, not a comment) in *text, or NULL at
 * the end of the stream; -1 on a problem. */
static int next_content(line_reader *r, char **text)
{
    size_t len = 0;
    while (read_line(r, &len) == 0) {
        if (len == 0) {
            *text = NULL;
            return 0;
        }
        r->line++;
        if (r->digest != NULL) {
            crypto_generichash_update(r->digest, (const unsigned char *)line_buffer(r), len);
        }
        if (line_text(r, len, text) != 0) {
            return -1;
        }
        if (**text == '#' && r->grid == NULL && looks_like_candidate(*text)) {
            return reader_fail(r, r->line, "a comment that looks like a candidate (labels "
                               "cannot start with #)");
        }
        if (**text != '\0' && **text != '#') {
            return 0;
        }
    }
    return -1;
}

void reader_init(line_reader *r, FILE *stream, const char *name, const score_format *format,
                 cli_error *error)
{
    memset(r, 0, sizeof *r);
    r->stream = stream;
    r->name = name;
    r->unit = format != NULL ? format->unit : NULL;
    r->sensitivity = format != NULL ? format->sensitivity : NULL;
    r->error = error;
}

int reader_next(line_reader *r, const char **label, int64_t *score)
{
    char *text = NULL;
    int rc;
    while ((rc = next_content(r, &text)) == 0 && text != NULL) {
        int got = parse_line(r, text, label, score);
        r->seen_content = 1;
        if (got != 0) {
            r->count += got == 1;
            return got;
        }
    }
    return rc;
}

void reader_restart(line_reader *r)
{
    rewind(r->stream);
    r->line = 0;
    r->count = 0;
    r->seen_content = 0;
    r->not_content = 0;
    r->ahead_start = r->ahead_end = 0;
}

void reader_free(line_reader *r)
{
    free(r->ahead);
    r->ahead = NULL;
    free(r->long_line);
    r->long_line = NULL;
    r->long_line_size = 0;
    r->ahead_start = r->ahead_end = 0;
}

int report_duplicate(const line_reader *r, size_t line, size_t first_line)
{
    return reader_fail(r, line, "duplicate label (first on line %zu)", first_line);
}

static int compare_labels(const void *a, const void *b, void *labels)
{
    char **l = labels;
    int order = strcmp(l[*(const size_t *)a], l[*(const size_t *)b]);
    if (order != 0) {
        return order;
    }
    return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* Labels name the released candidate, so two equal labels would make a
 * release ambiguous: they are rejected.  The repeat reported is the first in
 * the file, with its label's first occurrence, as the streamed check does. */
static int check_unique_labels(line_reader *r, const candidates *c)
{
    size_t *order = calloc(c->count, sizeof *order);
    if (order == NULL) {
        return reader_out_of_memory(r);
    }
    for (size_t i = 0; i < c->count; i++) {
        order[i] = i;
    }
    qsort_r(order, c->count, sizeof *order, compare_labels, c->labels);
    size_t first = 0, repeat = 0;  /* positions; repeat 0: none found */
    for (size_t i = 1; i < c->count; i++) {
        int starts_group = i == 1 || strcmp(c->labels[order[i - 2]], c->labels[order[i - 1]]) != 0;
        if (starts_group && strcmp(c->labels[order[i]], c->labels[order[i - 1]]) == 0
            && (repeat == 0 || order[i] < repeat)) {
            first = order[i - 1];
            repeat = order[i];
        }
    }
    free(order);
    return repeat == 0 ? 0 : report_duplicate(r, c->lines[repeat], c->lines[first]);
}

static int read_all(line_reader *r, candidates *c)
{
    size_t capacity = 0;
    const char *label;
    int64_t score;
    int got;
    while ((got = reader_next(r, &label, &score)) == 1) {
        char position[POSITION_TEXT];
        char *copy = strdup(label != NULL ? label : position_label(c->count, position));
        if (copy == NULL || append(c, &capacity, copy, score, r->line) != 0) {
            free(copy);
            return reader_out_of_memory(r);
        }
    }
    return got;
}

int candidates_read(FILE *stream, const char *name, const score_format *format, candidates *out,
                    cli_error *error)
{
    line_reader r;
    reader_init(&r, stream, name, format, error);
    candidates c = { 0 };
    int rc = read_all(&r, &c);
    if (rc == 0 && c.count == 0) {
        rc = reader_no_candidates(&r);
    }
    if (rc == 0) {
        rc = check_unique_labels(&r, &c);
    }
    reader_free(&r);
    if (rc != 0) {
        candidates_free(&c);
        return error->status;
    }
    *out = c;
    return 0;
}

void candidates_free(candidates *c)
{
    for (size_t i = 0; i < c->count; i++) {
        free(c->labels[i]);
    }
    free(c->scores);
    free(c->labels);
    free(c->lines);
    memset(c, 0, sizeof *c);
}

/* The next value (a decimal) on r->grid in *point: 1, 0 at the end of the
 * stream, -1 on a problem.  A first content line `value` is a header. */
static int reader_next_value(line_reader *r, int64_t *point)
{
    char *text = NULL;
    int rc;
    while ((rc = next_content(r, &text)) == 0 && text != NULL) {
        int first = !r->seen_content;
        r->seen_content = 1;
        if (first && strcasecmp(text, "value") == 0) {
            continue;  /* the header */
        }
        if (dpsel_grid_point(r->grid, text, point) != DPSEL_OK) {
            return reader_fail(r, r->line, "value is not a decimal number (one a line: "
                               "digits with an optional point and exponent, as 12.5 or -3e-7, "
                               "or inf or nan%s)",
                               first ? "; a header line, if any, must be value" : "");
        }
        return 1;
    }
    return rc;
}

int values_read(FILE *stream, const char *name, const dpsel_grid *grid, int64_t **points,
                size_t *m, cli_error *error)
{
    line_reader r;
    reader_init(&r, stream, name, NULL, error);
    r.grid = grid;
    int64_t *read = NULL;
    size_t count = 0, capacity = 0;
    int64_t point;
    int got;
    while ((got = reader_next_value(&r, &point)) == 1) {
        if (count == capacity) {
            size_t grown = capacity == 0 ? 1024 : capacity * 2;
            int64_t *more = realloc(read, grown * sizeof *more);
            if (more == NULL) {
                got = reader_out_of_memory(&r);
                break;
            }
            read = more;
            capacity = grown;
        }
        read[count++] = point;
    }
    reader_free(&r);
    if (got != 0) {
        free(read);
        return error->status;
    }
    *points = read;
    *m = count;
    return 0;
}
