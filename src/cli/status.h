/* Exit statuses of the dpsel tool. */
#ifndef DPSEL_CLI_STATUS_H
#define DPSEL_CLI_STATUS_H

/* 0: success.  1 and 3: an audit's verdict, broken or undecided (audit.h). */

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

#endif
