/* SPDX-License-Identifier: ISC */
/* Runs a command and reports its peak resident memory, for the large-file
 * test (tests/large-file.sh), which must not depend on GNU time:
 *   peak_rss OUT COMMAND [ARGS...]
 * writes the child's peak RSS in kB (getrusage's ru_maxrss) to the file OUT
 * and exits with the child's status (127 if it could not run, 126 if it
 * died on a signal). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: peak_rss OUT COMMAND [ARGS...]\n");
        return 127;
    }
    pid_t child = fork();
    if (child == 0) {
        execv(argv[2], argv + 2);
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (child < 0 || wait4(child, &status, 0, &usage) != child) {
        return 127;
    }
    FILE *out = fopen(argv[1], "w");
    if (out == NULL || fprintf(out, "%ld\n", usage.ru_maxrss) < 0 || fclose(out) != 0) {
        return 127;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 126;
}
