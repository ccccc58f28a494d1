/* SPDX-License-Identifier: ISC */
/*
 * The tool's quoting of untrusted text (src/cli/text.c) and its exit
 * statuses (src/cli/status.c): nothing that can act on a terminal (C0
 * controls, DEL, C1 controls U+0080..U+009F such as CSI and NEL) leaves
 * printable() or json_string() raw, even when UTF-8 is kept; library and
 * system errors map to exit statuses 2 (bad input) and 4 (could not
 * complete).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/status.h"
#include "cli/text.h"
#include "dpsel.h"

static char *json_of(const char *s)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    cr_assert_not_null(out);
    json_string(out, s);
    cr_assert_eq(fclose(out), 0);
    return text;
}

Test(cli_text, printable_escapes_c1_controls_in_utf8)
{
    char out[QUOTED_MAX];
    cr_assert_str_eq(printable("a\xc2\x9b[2Jb", 1, out, sizeof out), "a\\xc2\\x9b[2Jb");
    cr_assert_str_eq(printable("\xc2\x85x\xc2\x80", 1, out, sizeof out), "\\xc2\\x85x\\xc2\\x80");
    /* U+00A0 and beyond, other UTF-8, stay */
    cr_assert_str_eq(printable("\xc2\xa0\xc3\x89ric", 1, out, sizeof out), "\xc2\xa0\xc3\x89ric");
    cr_assert_str_eq(printable("a\x1b\x7f", 1, out, sizeof out), "a\\x1b\\x7f");
    cr_assert_str_eq(printable("\xc2\x9b", 0, out, sizeof out), "\\xc2\\x9b");
}

Test(cli_text, json_string_escapes_del_and_c1_controls)
{
    char *text = json_of("a\xc2\x9b" "b\x7f\xc2\x85\xc2\xa0\x01\"\\");
    cr_assert_str_eq(text, "\"a\\u009bb\\u007f\\u0085\xc2\xa0\\u0001\\\"\\\\\"");
    free(text);
}

Test(cli_text, exit_statuses)
{
    const int cannot_complete[] = { DPSEL_ENULL, DPSEL_ENOMEM, DPSEL_ERANDOM, DPSEL_EUNLIKELY,
                                    DPSEL_EINEXACT, DPSEL_EINTERNAL };
    const int bad_input[] = { DPSEL_EEMPTY, DPSEL_ERANGE, DPSEL_EEPSILON, DPSEL_ETOOLARGE,
                              DPSEL_EDECIMAL, DPSEL_EUNIT, DPSEL_ESTATE };
    for (size_t i = 0; i < sizeof cannot_complete / sizeof cannot_complete[0]; i++) {
        cr_assert_eq(exit_status_of_error(cannot_complete[i]), EXIT_CANNOT_COMPLETE);
    }
    for (size_t i = 0; i < sizeof bad_input / sizeof bad_input[0]; i++) {
        cr_assert_eq(exit_status_of_error(bad_input[i]), EXIT_BAD_INPUT);
    }
    cr_assert_eq(EXIT_BAD_INPUT, 2);
    cr_assert_eq(EXIT_CANNOT_COMPLETE, 4);
    cr_assert_eq(exit_status_of_errno(EIO), EXIT_CANNOT_COMPLETE);
    cr_assert_eq(exit_status_of_errno(ENOMEM), EXIT_CANNOT_COMPLETE);
    cr_assert_eq(exit_status_of_errno(ENOENT), EXIT_BAD_INPUT);
    cr_assert_eq(exit_status_of_errno(EACCES), EXIT_BAD_INPUT);
    cr_assert_eq(exit_status_of_errno(EISDIR), EXIT_BAD_INPUT);
}
