/* Precision bookkeeping: how many bits make every MPFR operation exact. */
#include "core.h"

uint64_t dpsel_core_power_precision(unsigned xbits, unsigned i)
{
    /* x^(2^i) < 2^(2^i * bitlen(x)), so beta^(2^i) = x^(2^i) / 2^(y 2^i)
     * has at most 2^i * bitlen(x) significant bits. */
    return ((uint64_t)1 << i) * xbits;
}
