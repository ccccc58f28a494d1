/* SPDX-License-Identifier: ISC */
/* Reading candidate files for the dpsel command-line tool. */
#ifndef DPSEL_CLI_INPUT_H
#define DPSEL_CLI_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <sodium.h>

#include "dpsel.h"
#include "status.h"

/* Longest accepted input line, in bytes, without its line end.  Lines are
 * read into a buffer of this size (plus the line end): a longer line is
 * rejected as soon as it is seen, whatever the memory available. */
#define INPUT_LINE_MAX 4096

/* The reader's read-ahead, in bytes. */
#define INPUT_READ_AHEAD 65536

typedef struct {
    size_t count;
    int64_t *scores;
    char **labels;
    size_t *lines;     /* the line each candidate came from */
} candidates;

/* How a file's scores are read: integers (unit NULL) or decimals in whole
 * units of unit.  sensitivity is --sensitivity as given ("1" by default),
 * which a message about a decimal score in an integer file completes into
 * the decimal sensitivity that would read it; NULL for no such advice (the
 * counts of --task).  A NULL score_format reads integers, without advice. */
typedef struct {
    const char *unit;
    const char *sensitivity;
} score_format;

/* One pass over a candidate file, line by line: the one parser of both the
 * in-memory path (candidates_read) and the streamed `select`. */
typedef struct {
    FILE *stream;
    const char *name;                 /* the file as named in messages */
    const char *unit;                 /* decimal scores in this unit, or NULL:
                                       * integer scores */
    const char *sensitivity;          /* score_format's, for advice */
    const dpsel_grid *grid;           /* values_read: values on this grid,
                                       * or NULL: candidates */
    cli_error *error;                 /* receives the problem */
    crypto_generichash_state *digest; /* NULL, or fed every byte read */
    size_t line;                      /* the line last read */
    size_t count;                     /* candidates read so far */
    int seen_content;                 /* a header can only come first */
    int not_content;                  /* the problem recorded is not the
                                       * file's content (reader_fail_with) */
    char *ahead;                      /* INPUT_READ_AHEAD bytes read ahead */
    size_t ahead_start, ahead_end;    /* the part of it not consumed yet */
    char text[INPUT_LINE_MAX + 3];    /* the line last read, line end and NUL */
    char *long_line;                  /* values_read: lines longer than text
                                       * (a value of any length), or NULL */
    size_t long_line_size;
} line_reader;

/* format: how the scores are read (NULL: integers). */
void reader_init(line_reader *r, FILE *stream, const char *name, const score_format *format,
                 cli_error *error);

/* Reads on to the next candidate: returns 1 with its label (NULL for a
 * `score` line; valid until the next call) and score, 0 at the end of the
 * stream, or -1 with "FILE:LINE: message" in r->error (a read error is
 * never taken for the end of the stream). */
int reader_next(line_reader *r, const char **label, int64_t *score);

/* Back to the start of the stream (a regular file), for another pass. */
void reader_restart(line_reader *r);

void reader_free(line_reader *r);

/* Records "FILE:LINE: ..." (just "FILE: ..." for line 0) in r->error
 * about bad input; returns -1. */
int reader_fail(const line_reader *r, size_t line, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* The same for a problem whose exit status is `status` (status.h), such
 * as EXIT_CANNOT_COMPLETE for out of memory; returns -1. */
int reader_fail_with(line_reader *r, int status, size_t line, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/* reader_fail_with for running out of memory: "FILE: out of memory",
 * EXIT_CANNOT_COMPLETE; returns -1. */
int reader_out_of_memory(line_reader *r);

/* "FILE: no candidates", and what a candidate is; returns -1. */
int reader_no_candidates(const line_reader *r);

/* The message about a label seen twice, on first_line and then on line
 * (the label itself is data: never shown). */
int report_duplicate(const line_reader *r, size_t line, size_t first_line);

/* The label of a `score` line: its 0-based position, written into out
 * (POSITION_TEXT bytes).  Returns out. */
#define POSITION_TEXT 24
const char *position_label(size_t index, char *out);

/* Reads `label,score` or `score` lines from stream (named `name` in
 * messages; scores read as format says, as for reader_init).  On a problem
 * records one line "FILE:LINE: message" in error and returns its exit status
 * (status.h), leaving *out empty. */
int candidates_read(FILE *stream, const char *name, const score_format *format, candidates *out,
                    cli_error *error);

void candidates_free(candidates *c);

/* Reads a file of values, one number per line (the first line may be the
 * header `value`; blank and comment lines as in candidate files), each
 * mapped onto the grid (dpsel_grid_point) into a new array *points of *m
 * entries (NULL for none; free it).  A value is a record: every number is
 * taken, of any length (its line too) and exponent, and clamped
 * (spec/quantiles.md §6).  On a problem (a line that is not a number)
 * records one line "FILE:LINE: message" in error and returns its exit
 * status. */
int values_read(FILE *stream, const char *name, const dpsel_grid *grid, int64_t **points,
                size_t *m, cli_error *error);

#endif
