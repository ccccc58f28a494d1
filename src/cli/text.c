/* SPDX-License-Identifier: ISC */
/* Quoting untrusted text in the dpsel tool's messages and JSON output. */
#include "text.h"

#include <stdio.h>
#include <string.h>

/* 1 if p starts a C1 control character in UTF-8 (U+0080..U+009F: C2 80 to
 * C2 9F), which a terminal may obey (CSI, NEL...). */
static int starts_c1(const unsigned char *p)
{
    return p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F;
}

void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        if (*p == '"' || *p == '\\') {
            fprintf(out, "\\%c", *p);
        } else if (*p < 0x20 || *p == 0x7F) {
            fprintf(out, "\\u%04x", *p);
        } else if (starts_c1(p)) {
            fprintf(out, "\\u%04x", *++p);  /* C2 XX is U+00XX */
        } else {
            fputc(*p, out);
        }
    }
    fputc('"', out);
}

const char *printable(const char *text, int keep_utf8, char *out, size_t out_size)
{
    size_t used = 0;
    const unsigned char *start = (const unsigned char *)text;
    for (const unsigned char *p = start; *p != '\0'; p++) {
        int c1 = starts_c1(p) || (p > start && starts_c1(p - 1));  /* either byte */
        int escape = *p < 0x20 || *p == 0x7F || (*p >= 0x80 && !keep_utf8) || c1;
        size_t need = escape ? 4 : 1;
        if (used + need + 4 > out_size) {
            memcpy(out + used, "...", 3);
            used += 3;
            break;
        }
        if (escape) {
            snprintf(out + used, 5, "\\x%02x", *p);
        } else {
            out[used] = (char)*p;
        }
        used += need;
    }
    out[used] = '\0';
    return out;
}

void decimal_unit(size_t digits, char *out)
{
    memset(out, '0', digits + 1);
    out[1] = '.';
    out[digits + 1] = '1';
    out[digits + 2] = '\0';
}
