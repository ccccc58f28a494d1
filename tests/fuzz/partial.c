/* SPDX-License-Identifier: ISC */
/* libFuzzer harness: serialised partial selections (src/api/partial.c,
 * spec/partial.md §4) from arbitrary bytes.  Each input is read three
 * times: as it is (a corrupt checksum, almost always: DPSEL_ESTATE), as the
 * body of a state with its checksum computed here, and as the body of a
 * keyed state (its version byte made 2) sealed here with a fixed key, so
 * that the field checks behind the checksum and the MAC are reached; each
 * sealed form must be refused by the other form's reader.  Accepted:
 * serialising again (in the same form) gives the
 * same bytes, and a copy of it finishes (EM, and PF up to 2^20 candidates:
 * it races each one) into one of its members or a documented error, and
 * is refused after.  Rejected: DPSEL_ESTATE and nothing written.  ASan and
 * UBSan watch memory and arithmetic. */
#include <string.h>

#include <sodium.h>

#include "fuzz.h"
#include "dpsel.h"

/* A serialised form: unkeyed (key NULL) or keyed with key. */
typedef struct {
    const unsigned char *key;
    size_t key_size;
} form;

static const unsigned char fuzz_key[32] = "dpsel fuzz: the deployment's key";

static int serialize_as(form f, const dpsel_partial *p, unsigned char *buf, size_t buf_size,
                        size_t *size)
{
    return f.key == NULL ? dpsel_partial_serialize(p, buf, buf_size, size)
                         : dpsel_partial_serialize_keyed(p, f.key, f.key_size, buf, buf_size, size);
}

static int deserialize_as(form f, dpsel_partial **out, const dpsel_params *params,
                          const uint8_t *bytes, size_t size)
{
    return f.key == NULL
           ? dpsel_partial_deserialize(out, params, bytes, size)
           : dpsel_partial_deserialize_keyed(out, params, f.key, f.key_size, bytes, size);
}

/* Serialising an accepted state again gives the same bytes. */
static void check_round_trip(form f, const dpsel_partial *p, const uint8_t *bytes, size_t size)
{
    size_t again_size = 0;
    FUZZ_CHECK(serialize_as(f, p, NULL, 0, &again_size) == DPSEL_OK);
    FUZZ_CHECK(again_size == size);
    unsigned char *again = malloc(size);
    FUZZ_CHECK(again != NULL);
    FUZZ_CHECK(serialize_as(f, p, again, size, &again_size) == DPSEL_OK);
    FUZZ_CHECK(memcmp(again, bytes, size) == 0);
    free(again);
}

/* A finish spends the state, so each mechanism finishes its own copy: one
 * of its members or a documented error, and once spent, refused. */
static void check_finish(form f, const dpsel_params *params, dpsel_mechanism mechanism,
                         const uint8_t *bytes, size_t size)
{
    dpsel_partial *p = NULL;
    FUZZ_CHECK(deserialize_as(f, &p, params, bytes, size) == DPSEL_OK);
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

static void check_accepted(form f, const dpsel_partial *p, const dpsel_params *params,
                           const uint8_t *bytes, size_t size)
{
    check_round_trip(f, p, bytes, size);
    check_finish(f, params, DPSEL_EM, bytes, size);
    if (dpsel_partial_count(p) <= ((uint64_t)1 << 20)) {
        /* PF races every candidate counted: a forged count is slow, not wrong */
        check_finish(f, params, DPSEL_PF, bytes, size);
    }
}

/* The bytes read in form f: accepted and checked, or refused with
 * nothing written. */
static void read_state(form f, const dpsel_params *params, const uint8_t *bytes, size_t size)
{
    dpsel_partial *p = (dpsel_partial *)(uintptr_t)1;
    int rc = deserialize_as(f, &p, params, bytes, size);
    if (rc == DPSEL_OK) {
        check_accepted(f, p, params, bytes, size);
        dpsel_partial_free(p);
    } else {
        FUZZ_CHECK(rc == DPSEL_ESTATE);
        FUZZ_CHECK(p == (dpsel_partial *)(uintptr_t)1);
    }
}

/* The input as the body of a state of form f, sealed here: read in f, and
 * refused by the reader of the other form. */
static void read_sealed(form f, form other, const dpsel_params *params, const uint8_t *data,
                        size_t size)
{
    uint8_t *sealed = malloc(size + 32);
    FUZZ_CHECK(sealed != NULL);
    if (size > 0) {
        memcpy(sealed, data, size);
    }
    if (f.key != NULL && size > 4) {
        sealed[4] = 2;  /* the keyed form's version */
    }
    crypto_generichash(sealed + size, 32, sealed, size, f.key, f.key_size);
    read_state(f, params, sealed, size + 32);
    dpsel_partial *p = (dpsel_partial *)(uintptr_t)1;
    FUZZ_CHECK(deserialize_as(other, &p, params, sealed, size + 32) == DPSEL_ESTATE);
    FUZZ_CHECK(p == (dpsel_partial *)(uintptr_t)1);
    free(sealed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dpsel_params params;
    FUZZ_CHECK(dpsel_params_from_base(&params, 3, 2, 1, 0) == DPSEL_OK);
    FUZZ_CHECK(dpsel_params_set_gap_cap(&params, 5) == DPSEL_OK);
    form unkeyed = { NULL, 0 }, keyed = { fuzz_key, sizeof fuzz_key };
    read_state(unkeyed, &params, data, size);
    read_sealed(unkeyed, keyed, &params, data, size);
    read_sealed(keyed, unkeyed, &params, data, size);
    return 0;
}
