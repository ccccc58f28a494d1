/* SPDX-License-Identifier: ISC */
/* libFuzzer harness: serialised partial selections (src/partial.c,
 * spec/partial.md §4) from arbitrary bytes.  Each input is read twice: as
 * it is (a corrupt checksum, almost always: DPSEL_ESTATE), and as the body
 * of a state with its checksum computed here, so that the field checks
 * behind the checksum are reached.  Accepted: serialising again gives the
 * same bytes, and a copy of it finishes (EM, and PF up to 2^20 candidates:
 * it races each one) into one of its members or a documented error, and
 * is refused after.  Rejected: DPSEL_ESTATE and nothing written.  ASan and
 * UBSan watch memory and arithmetic. */
#include <string.h>

#include <sodium.h>

#include "fuzz.h"
#include "dpsel.h"

/* Serialising an accepted state again gives the same bytes. */
static void check_round_trip(const dpsel_partial *p, const uint8_t *bytes, size_t size)
{
    size_t again_size = 0;
    FUZZ_CHECK(dpsel_partial_serialize(p, NULL, 0, &again_size) == DPSEL_OK);
    FUZZ_CHECK(again_size == size);
    unsigned char *again = malloc(size);
    FUZZ_CHECK(again != NULL);
    FUZZ_CHECK(dpsel_partial_serialize(p, again, size, &again_size) == DPSEL_OK);
    FUZZ_CHECK(memcmp(again, bytes, size) == 0);
    free(again);
}

/* A finish spends the state, so each mechanism finishes its own copy: one
 * of its members or a documented error, and once spent, refused. */
static void check_finish(const dpsel_params *params, dpsel_mechanism mechanism,
                         const uint8_t *bytes, size_t size)
{
    dpsel_partial *p = NULL;
    FUZZ_CHECK(dpsel_partial_deserialize(&p, params, bytes, size) == DPSEL_OK);
    dpsel_selector *selector = NULL;
    dpsel_rng rng;
    FUZZ_CHECK(dpsel_selector_new(&selector, params) == DPSEL_OK);
    FUZZ_CHECK(dpsel_rng_init_seeded(&rng, bytes, size < 64 ? size : 64) == DPSEL_OK);
    const void *member = NULL;
    size_t member_size = 0;
    int rc = dpsel_partial_finish(p, selector, mechanism, &rng, &member, &member_size);
    FUZZ_CHECK(rc == DPSEL_OK || rc == DPSEL_EEMPTY || rc == DPSEL_ERANGE);
    FUZZ_CHECK(rc != DPSEL_EEMPTY || dpsel_partial_count(p) == 0);
    FUZZ_CHECK(rc != DPSEL_OK || member_size <= DPSEL_PARTIAL_MEMBER_MAX);
    FUZZ_CHECK(rc != DPSEL_OK
               || dpsel_partial_finish(p, selector, mechanism, &rng, &member, &member_size)
                      == DPSEL_ERANGE);
    dpsel_rng_wipe(&rng);
    dpsel_selector_free(selector);
    dpsel_partial_free(p);
}

static void check_accepted(const dpsel_partial *p, const dpsel_params *params,
                           const uint8_t *bytes, size_t size)
{
    check_round_trip(p, bytes, size);
    check_finish(params, DPSEL_EM, bytes, size);
    if (dpsel_partial_count(p) <= ((uint64_t)1 << 20)) {
        /* PF races every candidate counted: a forged count is slow, not wrong */
        check_finish(params, DPSEL_PF, bytes, size);
    }
}

static void read_state(const dpsel_params *params, const uint8_t *bytes, size_t size)
{
    dpsel_partial *p = (dpsel_partial *)(uintptr_t)1;
    int rc = dpsel_partial_deserialize(&p, params, bytes, size);
    if (rc == DPSEL_OK) {
        check_accepted(p, params, bytes, size);
        dpsel_partial_free(p);
    } else {
        FUZZ_CHECK(rc == DPSEL_ESTATE);
        FUZZ_CHECK(p == (dpsel_partial *)(uintptr_t)1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dpsel_params params;
    FUZZ_CHECK(dpsel_params_from_base(&params, 3, 2, 1, 0) == DPSEL_OK);
    FUZZ_CHECK(dpsel_params_set_gap_cap(&params, 5) == DPSEL_OK);
    read_state(&params, data, size);
    uint8_t *sealed = malloc(size + 32);
    FUZZ_CHECK(sealed != NULL);
    if (size > 0) {
        memcpy(sealed, data, size);
    }
    crypto_generichash(sealed + size, 32, sealed, size, NULL, 0);
    read_state(&params, sealed, size + 32);
    free(sealed);
    return 0;
}
