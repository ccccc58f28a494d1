/* SPDX-License-Identifier: ISC */
/* Quoting untrusted text in the dpsel tool's messages and JSON output. */
#ifndef DPSEL_CLI_TEXT_H
#define DPSEL_CLI_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Copies text into out (out_size >= 8) for an error message: bytes that
 * could act on a terminal (C0 controls, DEL, the two bytes of a C1 control
 * U+0080..U+009F, and every byte >= 0x80 unless keep_utf8) become \xNN,
 * and a long value is cut with "...".  Returns out. */
const char *printable(const char *text, int keep_utf8, char *out, size_t out_size);

/* Writes s to out as a JSON string literal (quotes, backslashes and control
 * characters, C0, DEL and C1, escaped as \uXXXX). */
void json_string(FILE *out, const char *s);

/* The decimal unit 10^-digits ("0.01" for 2) into out, which holds
 * digits + 3 bytes. */
void decimal_unit(size_t digits, char *out);

/* Room for a value quoted in a message. */
#define QUOTED_MAX 128

#endif
