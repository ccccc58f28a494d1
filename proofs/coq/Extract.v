(* SPDX-License-Identifier: ISC *)
(* The reference functions, extracted to OCaml for the join with the C
   (join/reference_cases.ml runs them, join/driver.c compares).  Booleans,
   lists, options and pairs become OCaml's own (ExtrOcamlBasic); numbers stay
   Coq's unary nat, so no arithmetic is trusted to OCaml. *)
From Coq Require Extraction ExtrOcamlBasic.
From Dpsel Require Import Model Coin Uniform Shuffle Em Pf.

Extraction Language OCaml.
Extraction "reference.ml" run Dyadic coin_dyadic_scaled coin_power_scaled uniform fisher_yates em pf.
