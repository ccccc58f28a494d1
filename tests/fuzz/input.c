/* libFuzzer harness: the tool's candidate-file parser (src/cli/input.c) on
 * arbitrary bytes, with integer or decimal scores.  Accepted: at least one candidate, each label non-empty,
 * free of controls (C0, DEL, C1), not starting with '#', and unique.
 * Rejected: bad input, one printable line of message and the output left
 * untouched.  ASan and UBSan watch memory and arithmetic. */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* fmemopen needs a non-empty buffer: an empty input is an empty stream */
    FILE *stream = size == 0 ? fopen("/dev/null", "r")
                             : fmemopen((void *)(uintptr_t)data, size, "r");
    if (stream == NULL) {
        return 0;
    }
    candidates out;
    memset(&out, 0xa5, sizeof out);
    candidates sentinel = out;
    cli_error error = { 0 };
    /* integer scores, or decimals in units of 0.01 or 0.25, by the size */
    const char *units[] = { NULL, "0.01", "0.25" };
    int rc = candidates_read(stream, "fuzz.csv", units[size % 3], &out, &error);
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
