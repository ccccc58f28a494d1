/* SPDX-License-Identifier: ISC */
/*
 * Text the core reads (src/core/validate.c): a string that ends within a
 * bound, or can be read up to it.  A definition and its lemma.
 */
#ifndef DPSEL_SPEC_TEXT_H
#define DPSEL_SPEC_TEXT_H

/*@ // s is NUL-terminated within max_len, or readable up to max_len
    predicate bounded_text{L}(char *s, integer max_len) =
        (\exists integer j; 0 <= j <= max_len && \valid_read(s + (0 .. j)) && s[j] == '\0')
        || \valid_read(s + (0 .. max_len));

    // no NUL before pos: s[pos] can be read
    lemma bounded_text_readable{L}: \forall char *s, integer max_len, pos;
        bounded_text(s, max_len) && 0 <= pos <= max_len &&
        (\forall integer k; 0 <= k < pos ==> s[k] != '\0') ==> \valid_read(s + pos);
*/

#endif
