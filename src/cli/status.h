/* SPDX-License-Identifier: ISC */
/* Exit statuses of the dpsel tool, and its one error path: a module that
 * meets a problem records it in the command's cli_error (cli_fail), and
 * main prints it, "dpsel: MESSAGE" on one line of stderr, and exits with
 * its status. */
#ifndef DPSEL_CLI_STATUS_H
#define DPSEL_CLI_STATUS_H

#include <stdarg.h>
#include <stddef.h>

/* 0: success.  1 and 3: an audit's verdict, broken or undecided (audit_command.h). */

/* The user's input is to blame: a bad option or value, an unreadable,
 * missing or malformed file. */
#define EXIT_BAD_INPUT 2

/* The command could not complete, through no fault of its input: out of
 * memory, a read or write error, the random source failed, or an internal
 * error (a bug). */
#define EXIT_CANNOT_COMPLETE 4

/* The exit status for a failed library call: EXIT_CANNOT_COMPLETE for
 * DPSEL_ENOMEM, DPSEL_ERANDOM, DPSEL_EUNLIKELY, DPSEL_EINEXACT,
 * DPSEL_EINTERNAL and DPSEL_ENULL (the tool never passes NULL: a bug),
 * EXIT_BAD_INPUT for the others (arguments out of range, no candidates,
 * beyond dpsel's size limits). */
int exit_status_of_error(int dpsel_code);

/* The exit status for a failed system call: EXIT_CANNOT_COMPLETE for an
 * error of the system (out of memory, I/O error, too many open files),
 * EXIT_BAD_INPUT for the others (no such file, permission denied, a
 * directory...). */
int exit_status_of_errno(int error_number);

/* Longest message, with its NUL: a longer one is cut short. */
#define CLI_MESSAGE_MAX 512

/* The problem that stopped a command. */
typedef struct {
    int status;                      /* 0: none yet; else the exit status */
    char message[CLI_MESSAGE_MAX];   /* one line, without "dpsel: " */
} cli_error;

/* Records a problem in e: its exit status (EXIT_BAD_INPUT,
 * EXIT_CANNOT_COMPLETE) and its message, "NAME:LINE: " (just "NAME: " for
 * line 0, nothing for a NULL name) followed by format.  The one formatting
 * function of the tool's errors.  Returns status. */
int cli_vfail_at(cli_error *e, int status, const char *name, size_t line, const char *format,
                 va_list args) __attribute__((format(printf, 5, 0)));

/* The same with arguments. */
int cli_fail_at(cli_error *e, int status, const char *name, size_t line, const char *format, ...)
    __attribute__((format(printf, 5, 6)));

/* cli_fail_at without a name: the message is format alone.  Returns
 * status. */
int cli_fail(cli_error *e, int status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* cli_fail for a failed library call: "WHAT: " and dpsel_strerror(code),
 * with exit_status_of_error(code).  Returns that status. */
int cli_fail_library(cli_error *e, const char *what, int code);

/* Prints e's problem, "dpsel: MESSAGE" on one line of stderr; returns its
 * status. */
int cli_report(const cli_error *e);

#endif
