/* SPDX-License-Identifier: ISC */
/* libFuzzer harness: the tool's candidate-file parser (src/cli/input.c) on
 * arbitrary bytes, with integer or decimal scores.  Accepted: at least one candidate, each label non-empty,
 * free of controls (C0, DEL, C1), not starting with '#', and unique.
 * Rejected: bad input, one printable line of message and the output left
 * untouched.  One input in four is read as a file of quantile values
 * instead (values_read on a grid of quarters from -100 to 100), each byte
 * 0x01 followed by a byte c standing for 4096 copies of c, so that short
 * inputs hold values of any length: accepted, every point on the grid, and
 * the runs of a quantile on them cover the grid; rejected as above, and the
 * line refused is not a number (one record never decides whether a
 * release happens: spec/quantiles.md §6).  ASan and UBSan watch memory and
 * arithmetic. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz.h"
#include "cli/input.h"
#include "cli/status.h"

static int printable_line(const char *message)
{
    if (message[0] == '\0') {
        return 0;
    }
    for (const unsigned char *p = (const unsigned char *)message; *p != '\0'; p++) {
        if (*p < 0x20 || *p == 0x7f) {
            return 0;
        }
    }
    return 1;
}

static void check_accepted(const candidates *c)
{
    FUZZ_CHECK(c->count >= 1);
    for (size_t i = 0; i < c->count; i++) {
        const unsigned char *label = (const unsigned char *)c->labels[i];
        FUZZ_CHECK(label[0] != '\0' && label[0] != '#');
        for (const unsigned char *p = label; *p != '\0'; p++) {
            FUZZ_CHECK(*p >= 0x20 && *p != 0x7f);
            FUZZ_CHECK(!(p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f));
        }
        FUZZ_CHECK(c->lines[i] >= 1);
        if (i > 0) {
            FUZZ_CHECK(c->lines[i] > c->lines[i - 1]);
        }
    }
    /* quadratic, but inputs are short */
    for (size_t i = 0; i < c->count; i++) {
        for (size_t j = i + 1; j < c->count; j++) {
            FUZZ_CHECK(strcmp(c->labels[i], c->labels[j]) != 0);
        }
    }
}

/* The runs of the median of the points partition the grid. */
static void check_values(const int64_t *points, size_t m, const dpsel_grid *grid)
{
    for (size_t i = 0; i < m; i++) {
        FUZZ_CHECK(points[i] >= grid->lower && points[i] <= grid->upper);
    }
    dpsel_quantile_runs *runs = NULL;
    FUZZ_CHECK(dpsel_quantile_runs_new(&runs, 1, 2, points, m, grid->lower, grid->upper)
               == DPSEL_OK);
    int64_t next = grid->lower;
    for (size_t j = 0; j < dpsel_quantile_runs_count(runs); j++) {
        int64_t first;
        uint64_t length;
        FUZZ_CHECK(dpsel_quantile_runs_get(runs, j, &first, &length, NULL) == DPSEL_OK);
        FUZZ_CHECK(first == next && length >= 1);
        next = first + (int64_t)length;
    }
    FUZZ_CHECK(next == grid->upper + 1);
    dpsel_quantile_runs_free(runs);
}

/* 1 if text (len bytes) is [+-]?[0-9]+(.[0-9]+)?([eE][+-]?[0-9]+)? or
 * inf, infinity, nan (any case, signed): the grammar of a value, written
 * here apart from the library's parser. */
/* The digits at the start of text's first len bytes. */
static size_t digits_in(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && text[i] >= '0' && text[i] <= '9') {
        i++;
    }
    return i;
}

static int is_number(const char *text, size_t len)
{
    size_t i = len > 0 && (text[0] == '+' || text[0] == '-');
    static const char *const words[] = { "inf", "infinity", "nan" };
    for (size_t w = 0; w < 3; w++) {
        if (len - i == strlen(words[w]) && strncasecmp(text + i, words[w], len - i) == 0) {
            return 1;
        }
    }
    size_t whole = digits_in(text + i, len - i);
    i += whole;
    if (i < len && text[i] == '.') {
        size_t fraction = digits_in(text + i + 1, len - i - 1);
        if (fraction == 0) {
            return 0;
        }
        i += 1 + fraction;
    }
    if (i < len && (text[i] == 'e' || text[i] == 'E')) {
        i += 1 + (i + 1 < len && (text[i + 1] == '+' || text[i + 1] == '-'));
        size_t digits = digits_in(text + i, len - i);
        if (digits == 0) {
            return 0;
        }
        i += digits;
    }
    return whole > 0 && i == len;
}

/* Line `line` (1-based) of the file, without its line end and the blanks
 * the reader trims, is not a number. */
static int line_is_not_number(const char *file, size_t size, size_t line)
{
    const char *start = file, *end = file + size;
    for (size_t l = 1; l < line && start < end; l++) {
        const char *newline = memchr(start, '\n', (size_t)(end - start));
        start = newline != NULL ? newline + 1 : end;
    }
    const char *stop = memchr(start, '\n', (size_t)(end - start));
    stop = stop != NULL ? stop : end;
    if (memchr(start, '\0', (size_t)(stop - start)) != NULL) {
        return 1;
    }
    if (stop > start && stop[-1] == '\r') {
        stop--;
    }
    while (start < stop && (*start == ' ' || *start == '\t')) {
        start++;
    }
    while (stop > start && (stop[-1] == ' ' || stop[-1] == '\t')) {
        stop--;
    }
    return !is_number(start, (size_t)(stop - start));
}

/* data with each 0x01 c expanded to 4096 copies of c, malloc'd (NULL when
 * out of memory), its size in *size. */
#define EXPANSION 4096
static char *expanded(const uint8_t *data, size_t n, size_t *size)
{
    char *out = malloc(n * EXPANSION + 1);
    size_t used = 0;
    for (size_t i = 0; out != NULL && i < n; i++) {
        if (data[i] == 0x01 && i + 1 < n) {
            memset(out + used, data[++i], EXPANSION);
            used += EXPANSION;
        } else {
            out[used++] = (char)data[i];
        }
    }
    *size = used;
    return out;
}

static void read_values(const uint8_t *data, size_t n)
{
    size_t size;
    char *file = expanded(data, n, &size);
    FILE *stream = file == NULL ? NULL : size == 0 ? fopen("/dev/null", "r")
                                                   : fmemopen(file, size, "r");
    if (stream == NULL) {
        free(file);
        return;
    }
    dpsel_grid grid;
    FUZZ_CHECK(dpsel_grid_init(&grid, "-100", "100", "0.25") == DPSEL_OK);
    int64_t *points = (int64_t *)(uintptr_t)0xa5;
    size_t m = 0xa5;
    cli_error error = { 0 };
    int rc = values_read(stream, "fuzz.csv", &grid, &points, &m, &error);
    if (rc == 0) {
        check_values(points, m, &grid);
        free(points);
    } else {
        FUZZ_CHECK(rc == EXIT_BAD_INPUT);
        FUZZ_CHECK(points == (int64_t *)(uintptr_t)0xa5 && m == 0xa5);
        FUZZ_CHECK(strncmp(error.message, "fuzz.csv:", 9) == 0);
        FUZZ_CHECK(printable_line(error.message));
        size_t line = strtoul(error.message + 9, NULL, 10);
        FUZZ_CHECK(line >= 1 && line_is_not_number(file, size, line));
    }
    fclose(stream);
    free(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* fmemopen needs a non-empty buffer: an empty input is an empty stream */
    FILE *stream = size == 0 ? fopen("/dev/null", "r")
                             : fmemopen((void *)(uintptr_t)data, size, "r");
    if (stream == NULL) {
        return 0;
    }
    if (size % 4 == 3) {
        fclose(stream);
        read_values(data, size);
        return 0;
    }
    candidates out;
    memset(&out, 0xa5, sizeof out);
    candidates sentinel = out;
    cli_error error = { 0 };
    /* by the size: integer scores (with the advice for decimals), or
     * decimals in units of 0.01 or 0.25 */
    const score_format formats[] = { { NULL, "7" }, { "0.01", "7" }, { "0.25", NULL } };
    int rc = candidates_read(stream, "fuzz.csv", &formats[size % 3], &out, &error);
    fclose(stream);
    if (rc == 0) {
        check_accepted(&out);
        candidates_free(&out);
    } else {
        FUZZ_CHECK(rc == EXIT_BAD_INPUT);
        FUZZ_CHECK(memcmp(&out, &sentinel, sizeof out) == 0);
        FUZZ_CHECK(strncmp(error.message, "fuzz.csv:", 9) == 0);
        FUZZ_CHECK(printable_line(error.message));
    }
    return 0;
}
