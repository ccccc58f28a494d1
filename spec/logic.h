/* SPDX-License-Identifier: ISC */
/*
 * The logic of the contracts of the core, one concept per file: this
 * header only includes them, in dependency order.  src/core/core.h
 * includes it after the types the predicates name.  Assumed contracts
 * (the trusted base) are apart, in spec/trusted.h.
 */
#ifndef DPSEL_SPEC_LOGIC_H
#define DPSEL_SPEC_LOGIC_H

#include <stdint.h>

#include "arith.h"      /* pow2, square, squarings */
#include "bits.h"       /* the random source as a bit stream */
#include "outcomes.h"   /* status codes, coins, released indices, scores */
#include "dyadic.h"     /* dyadics and decay tables: valid, apart */
#include "race_state.h" /* PF's race and its first visits */
#include "thinning.h"   /* block thinning of the race */
#include "calls.h"      /* the arguments of each family of functions */
#include "level_sums.h" /* EM by levels */
#include "references.h" /* the samplers as functions of the random bits */
#include "text.h"       /* bounded strings */
#include "lemmas.h"     /* lemma functions (proved in proofs/lemmas.c) */

#endif
