/* SPDX-License-Identifier: ISC */
/* The command-line tool on a large candidate file: wall time and peak
 * resident memory of `dpsel select`, streamed (a regular file) and in
 * memory (the same file on standard input), measured on child processes;
 * and the cost of one more streamed selection (`--count 21` against
 * `--count 1`) beside the float PF on the same scores. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define CLI_RUNS 3
#define MORE_SELECTIONS 20

/* The file's scores: uniform in [0, 1000]. */
static unsigned next_score(uint64_t state[4])
{
    return (unsigned)(prng_next(state) % 1001);
}

/* n lines of uniform scores in [0, 1000], `score` or `item-I,score`, into
 * a new temporary file. */
static int write_candidates(char *path, size_t n, int labelled)
{
    int fd = mkstemp(path);
    FILE *out = fd < 0 ? NULL : fdopen(fd, "w");
    if (out == NULL) {
        return -1;
    }
    uint64_t state[4];
    prng_seed(state, 2026);
    for (size_t i = 0; i < n; i++) {
        unsigned score = next_score(state);
        if (labelled) {
            fprintf(out, "item-%zu,%u\n", i, score);
        } else {
            fprintf(out, "%u\n", score);
        }
    }
    return fclose(out) == 0 ? 0 : -1;
}

/* execv takes char *const argv[]: the arguments as such, without a cast
 * (it does not write them). */
static void exec_arguments(const char *const *argv)
{
    char *args[32];
    size_t i = 0;
    for (; argv[i] != NULL && i + 1 < sizeof args / sizeof *args; i++) {
        union { const char *in; char *out; } pass = { argv[i] };
        args[i] = pass.out;
    }
    args[i] = NULL;
    execv(args[0], args);
}

int run_command(const char *const *argv, const char *stdin_path, double *seconds, long *peak_kb)
{
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t child = fork();
    if (child == 0) {
        int null = open("/dev/null", O_WRONLY);
        int in = stdin_path != NULL ? open(stdin_path, O_RDONLY) : -1;
        if (null < 0 || dup2(null, STDOUT_FILENO) < 0 ||
            (stdin_path != NULL && (in < 0 || dup2(in, STDIN_FILENO) < 0))) {
            _exit(127);
        }
        exec_arguments(argv);
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (child < 0 || wait4(child, &status, 0, &usage) != child || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
        return -1;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    *seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    *peak_kb = usage.ru_maxrss;
    return 0;
}

/* Runs tool select --count count on path (or on standard input from
 * path): seconds and peak RSS in kB; -1 if the child fails. */
static int run_select(const char *tool, const char *path, int from_stdin, const char *count,
                      double *seconds, long *peak_kb)
{
    const char *const argv[] = { tool, "select", "--epsilon", "1", "--count", count,
                                 from_stdin ? "-" : path, NULL };
    return run_command(argv, from_stdin ? path : NULL, seconds, peak_kb);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median time of CLI_RUNS runs of select --count count on one file,
 * and their peak RSS. */
static double median_run(const char *tool, const char *path, int from_stdin, const char *count,
                         long *peak)
{
    double seconds[CLI_RUNS];
    *peak = 0;
    for (int r = 0; r < CLI_RUNS; r++) {
        long kb;
        if (run_select(tool, path, from_stdin, count, &seconds[r], &kb) != 0) {
            fprintf(stderr, "bench: %s select failed on %s\n", tool, path);
            unlink(path);
            exit(1);
        }
        *peak = kb > *peak ? kb : *peak;
    }
    qsort(seconds, CLI_RUNS, sizeof *seconds, compare_doubles);
    return seconds[CLI_RUNS / 2];
}

/* The median time and the peak RSS of CLI_RUNS runs on one file. */
static void time_file(const char *tool, const char *path, const char *kind)
{
    static const char *ways[2] = { "FILE (streamed)", "standard input (memory)" };
    for (int way = 0; way < 2; way++) {
        long peak;
        double seconds = median_run(tool, path, way, "1", &peak);
        printf("%-12s %-24s %10.2f %14.1f\n", kind, ways[way], seconds, (double)peak / 1024);
    }
}

/* The median time of the float PF (epsilon 1) on the file's n scores. */
static double float_pf_seconds(size_t n)
{
    int64_t *scores = malloc(n * sizeof *scores);
    if (scores == NULL) {
        fprintf(stderr, "bench: cannot allocate %zu scores\n", n);
        exit(1);
    }
    uint64_t state[4];
    prng_seed(state, 2026);
    for (size_t i = 0; i < n; i++) {
        scores[i] = next_score(state);
    }
    bench_case c = { scores, n, 1.0, NULL, NULL, NULL, { 0 }, 1000 };
    prng_seed(c.prng, 7);
    double seconds[CLI_RUNS * 3];
    for (int r = 0; r < CLI_RUNS * 3; r++) {
        struct timespec start, end;
        uint64_t chosen;
        clock_gettime(CLOCK_MONOTONIC, &start);
        naive_pf(&c, &chosen);
        clock_gettime(CLOCK_MONOTONIC, &end);
        seconds[r] = (double)(end.tv_sec - start.tv_sec) +
                     (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    }
    free(scores);
    qsort(seconds, CLI_RUNS * 3, sizeof *seconds, compare_doubles);
    return seconds[CLI_RUNS * 3 / 2];
}

/* One more streamed selection: (time of --count 21 - time of --count 1) /
 * 20, beside the float PF on the same scores. */
static void time_more_selections(const char *tool, const char *path, size_t n)
{
    long peak;
    double one = median_run(tool, path, 0, "1", &peak);
    char count[16];
    snprintf(count, sizeof count, "%d", MORE_SELECTIONS + 1);
    double more = median_run(tool, path, 0, count, &peak);
    double each = (more - one) / MORE_SELECTIONS;
    double float_pf = float_pf_seconds(n);
    printf("\none more streamed selection (--count %s against --count 1, labelled file): "
           "%.2f ms, %.2f ns per candidate; float PF on the same scores %.2f ms: %.2fx\n",
           count, 1e3 * each, 1e9 * each / (double)n, 1e3 * float_pf, each / float_pf);
}

void bench_cli(const char *tool, size_t n)
{
    printf("\n%s select --epsilon 1 on %zu lines (median of %d runs)\n", tool, n, CLI_RUNS);
    printf("%-12s %-24s %10s %14s\n", "lines", "input", "seconds", "peak RSS MB");
    static const char *kinds[2] = { "score", "label,score" };
    for (int labelled = 0; labelled < 2; labelled++) {
        char path[] = "/tmp/dpsel-bench-XXXXXX";
        if (write_candidates(path, n, labelled) != 0) {
            fprintf(stderr, "bench: cannot write a candidate file in /tmp\n");
            exit(1);
        }
        time_file(tool, path, kinds[labelled]);
        if (labelled) {
            time_more_selections(tool, path, n);
        }
        unlink(path);
    }
}
