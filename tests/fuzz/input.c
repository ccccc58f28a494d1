/* SPDX-License-Identifier: ISC */
/* libFuzzer harness: the tool's candidate-file parser (src/cli/input.c) on
 * arbitrary bytes, with integer or decimal scores.  Accepted: at least one candidate, each label non-empty,
 * free of controls (C0, DEL, C1), not starting with '#', and unique.
 * Rejected: bad input, one printable line of message and the output left
 * untouched.  One input in four is read as a file of quantile values
 * instead (values_read on a grid of quarters from -100 to 100): accepted,
 * every point on the grid, and the runs of a quantile on them cover the
 * grid; rejected as above.  ASan and UBSan watch memory and arithmetic. */
#include <stdlib.h>
#include <string.h>

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

static void read_values(FILE *stream)
{
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
    }
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
        read_values(stream);
        fclose(stream);
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
