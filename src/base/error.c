/* SPDX-License-Identifier: ISC */
/* Error names and the release of strings dpsel returns. */
#include <stdlib.h>

#include "dpsel.h"

const char *dpsel_strerror(int code)
{
    switch (code) {
    case DPSEL_OK: return "success";
    case DPSEL_ENULL: return "a required pointer argument is NULL";
    case DPSEL_EEMPTY: return "no candidates";
    case DPSEL_ERANGE: return "argument out of range";
    case DPSEL_EEPSILON: return "epsilon is not a positive decimal number that a base x/2^y with y <= 64 can realise";
    case DPSEL_ENOMEM: return "out of memory";
    case DPSEL_ERANDOM: return "the random source failed";
    case DPSEL_EUNLIKELY: return "a rejection loop ran past its bound (probability < 2^-128): the random source is broken";
    case DPSEL_ETOOLARGE: return "the exact computation exceeds dpsel's size limits";
    case DPSEL_EINEXACT: return "internal error (a bug in dpsel): an exact operation was inexact";
    case DPSEL_EINTERNAL: return "internal error (a bug in dpsel): an internal consistency check failed";
    case DPSEL_EDECIMAL: return "not a decimal number ([+-]digits[.digits])";
    case DPSEL_EUNIT: return "not a whole multiple of its unit";
    case DPSEL_ESTATE: return "malformed or mismatched partial selection state";
    case DPSEL_ECANCELED: return "canceled by the caller's interrupt check";
    default: return "unknown error";
    }
}

void dpsel_string_free(char *s)
{
    free(s);
}
