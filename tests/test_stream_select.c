/* SPDX-License-Identifier: ISC */
/*
 * The streamed `select` of the tool (src/cli/stream_select.c and its
 * duplicate-label check, src/cli/label_check.c) against the in-memory
 * reader (candidates_read) on the same files: the same verdict, the same
 * message, the same count.  The label check runs with tiny limits (one
 * filter block, so nearly every label is a suspect; a few suspects per
 * round), so the parts and rounds the default limits need only past about
 * 2 x 10^7 labels run here on files of a few hundred lines.  Also: a file changed between the
 * passes is refused.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/input.h"
#include "cli/label_check.h"
#include "cli/status.h"
#include "cli/stream_select.h"
#include "support.h"

typedef struct {
    int rc;
    size_t count;
    unsigned passes;
    cli_error error;
} verdict;

static FILE *file_with(const char *text)
{
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    cr_assert_eq(fputs(text, f) >= 0, 1);
    rewind(f);
    return f;
}

static verdict in_memory(FILE *f)
{
    verdict v = { 0 };
    candidates c;
    rewind(f);
    v.rc = candidates_read(f, "t.csv", NULL, &c, &v.error);
    if (v.rc == 0) {
        v.count = c.count;
        candidates_free(&c);
    }
    return v;
}

static verdict streamed_with(FILE *f, const label_check_limits *limits)
{
    verdict v = { 0 };
    streamed s;
    rewind(f);
    streamed_init(&s, f, "t.csv", NULL, &v.error);
    s.limits = *limits;
    v.rc = streamed_check(&s);
    v.count = s.count;
    v.passes = s.passes;
    streamed_free(&s);
    return v;
}

static void expect_same(FILE *f, const label_check_limits *limits, const char *what)
{
    verdict memory = in_memory(f), stream = streamed_with(f, limits);
    cr_assert_eq(stream.rc, memory.rc, "%s: streamed %d (%s), in memory %d (%s)", what,
                 stream.rc, stream.error.message, memory.rc, memory.error.message);
    if (memory.rc == 0) {
        cr_assert_eq(stream.count, memory.count, "%s", what);
    } else {
        cr_assert_str_eq(stream.error.message, memory.error.message, "%s", what);
    }
}

/* A line of a random file: mostly `label,score` over a small alphabet (so
 * labels repeat), some `score` lines (whose labels are positions, which
 * labels such as "3" can repeat). */
static void random_line(FILE *f, uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    unsigned r = (unsigned)(*state >> 33);
    if (r % 5 == 0) {
        fprintf(f, "%u\n", r % 100);
    } else if (r % 5 == 1) {
        fprintf(f, "%u,%u\n", r % 400, r % 7);
    } else {
        fprintf(f, "item-%u,%u\n", (r >> 8) % 600, r % 100);
    }
}

static FILE *random_file(uint64_t seed, unsigned lines)
{
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    uint64_t state = seed;
    for (unsigned i = 0; i < lines; i++) {
        random_line(f, &state);
    }
    return f;
}

/* Tiny limits: one to four filter blocks, 1 to 64 suspects per round; the
 * first two split the rest of a file into parts of 32 labels, the next
 * three check it in rounds alone (parts too large to split it). */
static const label_check_limits tiny[] = {
    { 1, 1, INPUT_LINE_MAX + 1, 32 },
    { 1, 3, INPUT_LINE_MAX + 1, 32 },
    { 1, 1, INPUT_LINE_MAX + 1, UINT64_MAX },
    { 2, 5, INPUT_LINE_MAX + 1, UINT64_MAX },
    { 4, 64, 2 * INPUT_LINE_MAX, UINT64_MAX },
    LABEL_CHECK_LIMITS,
};
#define TINY (sizeof tiny / sizeof tiny[0])

Test(stream_select, same_verdict_as_in_memory_on_random_files)
{
    unsigned repeats = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        FILE *f = random_file(seed, 10 + (unsigned)(seed * 7 % 90));
        repeats += in_memory(f).rc != 0;
        for (size_t k = 0; k < TINY; k++) {
            char what[64];
            snprintf(what, sizeof what, "seed %" PRIu64 ", limits %zu", seed, k);
            expect_same(f, &tiny[k], what);
        }
        fclose(f);
    }
    cr_assert_gt(repeats, 20, "the files should mostly hold repeats: %u of 60", repeats);
    cr_assert_lt(repeats, 60, "and some should not");
}

/* Unique labels: the check must run every round to the end of the file. */
Test(stream_select, unique_labels_pass_through_every_round)
{
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    for (unsigned i = 0; i < 300; i++) {
        fprintf(f, i % 3 == 0 ? "%u\n" : "label %u,%u\n", i, i % 11);
    }
    for (size_t k = 0; k < TINY; k++) {
        expect_same(f, &tiny[k], "unique");
    }
    /* in parts of 32 labels: at least a collect pass per part */
    verdict v = streamed_with(f, &tiny[0]);
    cr_assert_eq(v.rc, 0, "%s", v.error.message);
    cr_assert_eq(v.count, 300);
    cr_assert_geq(v.passes, 2 + 300 / 32, "%u passes", v.passes);
    /* in rounds alone, of one suspect each */
    label_check_limits rounds = { 1, 1, INPUT_LINE_MAX + 1, UINT64_MAX };
    v = streamed_with(f, &rounds);
    cr_assert_eq(v.rc, 0, "%s", v.error.message);
    cr_assert_gt(v.passes, 100, "one suspect per round: %u passes", v.passes);
    fclose(f);
}

/* Unique labels enough to fill the tiny filter, then a repeat: it is found
 * after rounds of false suspects, wherever a round ends. */
Test(stream_select, repeat_after_many_false_suspects)
{
    for (unsigned unique = 200; unique < 204; unique++) {
        FILE *f = tmpfile();
        cr_assert_not_null(f);
        for (unsigned i = 0; i < unique; i++) {
            fprintf(f, "u%u,%u\n", i, i % 5);
        }
        fprintf(f, "u5,0\nu7,0\n");
        char expected[CLI_MESSAGE_MAX];
        snprintf(expected, sizeof expected,
                 "t.csv:%u: duplicate label (first on line 6)", unique + 1);
        for (size_t k = 0; k < TINY; k++) {
            verdict v = streamed_with(f, &tiny[k]);
            cr_assert_str_eq(v.error.message, expected, "limits %zu", k);
        }
        cr_assert_str_eq(in_memory(f).error.message, expected);
        fclose(f);
    }
}

/* The repeat reported is the first in the file, whatever the label order. */
Test(stream_select, first_repeat_in_the_file_is_reported)
{
    FILE *f = file_with("label,score\nzeta,1\nalpha,2\nbeta,3\nzeta,4\nalpha,5\n");
    for (size_t k = 0; k < TINY; k++) {
        verdict v = streamed_with(f, &tiny[k]);
        cr_assert_eq(v.rc, EXIT_BAD_INPUT);
        cr_assert_str_eq(v.error.message, "t.csv:5: duplicate label (first on line 2)");
    }
    verdict v = in_memory(f);
    cr_assert_str_eq(v.error.message, "t.csv:5: duplicate label (first on line 2)");
    fclose(f);
}

/* A label may repeat the position of an earlier `score` line. */
Test(stream_select, label_repeating_a_position)
{
    FILE *f = file_with("7\n8\n9\n1,4\n");
    for (size_t k = 0; k < TINY; k++) {
        verdict v = streamed_with(f, &tiny[k]);
        cr_assert_str_eq(v.error.message, "t.csv:4: duplicate label (first on line 2)");
    }
    fclose(f);
}

/* Between the check and the selection pass, one byte of the file changes:
 * the selection refuses, naming the file. */
Test(stream_select, file_changed_between_passes)
{
    FILE *f = file_with("a,1\nb,5\nc,3\n");
    cli_error error = { 0 };
    streamed s;
    streamed_init(&s, f, "t.csv", NULL, &error);
    cr_assert_eq(streamed_check(&s), 0, "%s", error.message);
    cr_assert_eq(fseek(f, 4, SEEK_SET), 0);
    cr_assert_eq(fputc('B', f), 'B');  /* same length, other bytes */
    cr_assert_eq(fflush(f), 0);

    dpsel_params p = base_params(1, 1, 1, 0);
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, &p), DPSEL_OK);
    dpsel_rng rng = seeded_rng(7);
    size_t chosen = 99;
    char *label = NULL;
    cr_assert_eq(streamed_select(&s, selector, &rng, 1, &chosen, &label), EXIT_BAD_INPUT);
    cr_assert_str_eq(error.message, "t.csv: changed while being read");
    cr_assert_null(label);
    cr_assert_eq(chosen, 99);
    streamed_free(&s);
    dpsel_selector_free(selector);
    fclose(f);
}

/* The same label many times: every suspect shares one hash.  The verify
 * pass looks at a bounded number of suspects per label (comparing each
 * label with every later suspect of its hash would be quadratic), and the
 * first repeat is reported. */
Test(stream_select, verify_is_linear_in_identical_labels)
{
    const uint64_t n = 20000;
    label_check_limits limits = { 1024, (size_t)n, (size_t)n * 8, UINT64_MAX };
    label_check c;
    cr_assert_eq(label_check_init(&c, &limits), 0);
    for (uint64_t i = 0; i < n; i++) {
        label_check_add(&c, "same", i);
    }
    cr_assert_eq(label_check_suspects(&c), n - 1);
    for (uint64_t i = 0; i < n; i++) {
        label_check_verify(&c, "same", i, (size_t)i + 1);
    }
    cr_assert_leq(c.comparisons, 4 * n, "%" PRIu64 " comparisons for %" PRIu64 " labels",
                  c.comparisons, n);
    cr_assert_eq(label_check_settle(&c, n), 0);
    const label_repeat *repeat = label_check_repeat(&c);
    cr_assert_not_null(repeat);
    cr_assert_eq(repeat->index, 1);
    cr_assert_eq(repeat->line, 2);
    cr_assert_eq(repeat->first_line, 1);
    cr_assert_str_eq(repeat->text, "same");
    label_check_free(&c);
}

/* A read error is an error, with its own exit status, never the end of
 * the file: streamed and in memory. */
Test(stream_select, read_error_is_not_the_end_of_the_file)
{
    FILE *f = fopen("/proc/self/mem", "r");
    if (f == NULL) {
        cr_skip_test("no /proc/self/mem");
    }
    verdict memory = in_memory(f), stream = streamed_with(f, &tiny[5]);
    cr_assert_eq(memory.rc, EXIT_CANNOT_COMPLETE, "%s", memory.error.message);
    cr_assert_eq(stream.rc, EXIT_CANNOT_COMPLETE, "%s", stream.error.message);
    cr_assert_str_eq(memory.error.message, "t.csv: read error: Input/output error");
    cr_assert_str_eq(stream.error.message, memory.error.message);
    fclose(f);
}

/* The label check's SipHash key comes from getrandom: where getrandom fails,
 * label_check_init says so (the tool then exits 4), never aborts (as
 * libsodium's randombytes did). */
Test(stream_select, a_failing_getrandom_is_reported_not_an_abort)
{
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        label_check_limits limits = LABEL_CHECK_LIMITS;
        label_check c;
        if (!deny_os_randomness()) {
            _exit(2);
        }
        _exit(label_check_init(&c, &limits) == LABEL_CHECK_NO_KEY ? 0 : 1);
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status), "the child was killed by signal %d", WTERMSIG(status));
    cr_expect_eq(WEXITSTATUS(status), 0, "label_check_init did not report the failure");
}
