/* SPDX-License-Identifier: ISC */
/* libFuzzer harness: the streamed `select`'s checking pass
 * (src/cli/stream_select.c with its duplicate-label check,
 * src/cli/label_check.c) against the in-memory reader (candidates_read) on
 * arbitrary bytes: the same verdict, the same message, the same count.
 * The label check runs with one filter block, 1 to 4 suspects per round,
 * and parts of 8 labels or none, so its parts and rounds run on short
 * inputs.  ASan and UBSan watch memory and
 * arithmetic. */
#include <string.h>

#include "fuzz.h"
#include "cli/input.h"
#include "cli/stream_select.h"


/* fmemopen needs a non-empty buffer: an empty input is an empty stream. */
static FILE *open_bytes(const uint8_t *data, size_t size)
{
    return size == 0 ? fopen("/dev/null", "r")
                     : fmemopen((void *)(uintptr_t)data, size, "r");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *memory = open_bytes(data, size), *file = open_bytes(data, size);
    if (memory == NULL || file == NULL) {
        if (memory != NULL) {
            fclose(memory);
        }
        if (file != NULL) {
            fclose(file);
        }
        return 0;
    }
    cli_error expected = { 0 }, error = { 0 };
    candidates c;
    /* integer scores (with the advice for decimals) or decimal scores */
    const score_format formats[] = { { NULL, "7" }, { "0.01", "7" }, { "0.25", NULL } };
    int expected_rc = candidates_read(memory, "fuzz.csv", &formats[size % 3], &c, &expected);
    fclose(memory);

    streamed s;
    streamed_init(&s, file, "fuzz.csv", &formats[size % 3], &error);
    s.limits = (label_check_limits){ 1, 1 + size % 4, INPUT_LINE_MAX + 1,
                                     size % 8 < 4 ? 8 : UINT64_MAX };
    int rc = streamed_check(&s);
    FUZZ_CHECK(rc == expected_rc);
    if (rc == 0) {
        FUZZ_CHECK(s.count == c.count);
        candidates_free(&c);
    } else {
        FUZZ_CHECK(strcmp(error.message, expected.message) == 0);
    }
    streamed_free(&s);
    fclose(file);
    return 0;
}
