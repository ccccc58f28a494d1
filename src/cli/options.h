/* Command-line options of the dpsel tool. */
#ifndef DPSEL_CLI_OPTIONS_H
#define DPSEL_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "dpsel.h"

typedef enum { COMMAND_SELECT, COMMAND_PMF, COMMAND_PARAMS } command;

typedef struct {
    command cmd;
    dpsel_mechanism mechanism;
    const char *epsilon;        /* --epsilon, or NULL */
    uint64_t base_x;            /* --base X/2^Y when base_given */
    unsigned base_y;
    int base_given;
    uint64_t sensitivity;
    int monotonic;
    uint64_t gap_cap;           /* 0: the default */
    uint64_t count;
    unsigned char seed[32];
    size_t seed_size;           /* 0: no --seed, use the OS source */
    int exact;
    int json;
    const char *file;           /* NULL: standard input */
    int help;
    int version;
} options;

/* Parses argv; on a problem writes one line into message and returns -1. */
int options_parse(int argc, char **argv, options *out, char *message, size_t message_size);

#endif
