/* Reading candidate files for the dpsel command-line tool. */
#ifndef DPSEL_CLI_INPUT_H
#define DPSEL_CLI_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Longest accepted input line, in bytes, without its line end. */
#define INPUT_LINE_MAX 4096

typedef struct {
    size_t count;
    int64_t *scores;
    char **labels;
    size_t *lines;     /* the line each candidate came from */
} candidates;

/* Reads `label,score` or `score` lines from stream (named `name` in
 * messages).  On a problem writes one line "FILE:LINE: message" into
 * message (size message_size) and returns -1, leaving *out empty. */
int candidates_read(FILE *stream, const char *name, candidates *out,
                    char *message, size_t message_size);

void candidates_free(candidates *c);

#endif
