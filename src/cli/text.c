/* Quoting untrusted text in the dpsel tool's messages and JSON output. */
#include "text.h"

#include <stdio.h>
#include <string.h>

void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fprintf(out, "\\%c", c);
        } else if (c < 0x20) {
            fprintf(out, "\\u%04x", c);
        } else {
            fputc(c, out);
        }
    }
    fputc('"', out);
}

const char *printable(const char *text, int keep_utf8, char *out, size_t out_size)
{
    size_t used = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
        int escape = *p < 0x20 || *p == 0x7F || (*p >= 0x80 && !keep_utf8);
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
