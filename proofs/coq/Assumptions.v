(* SPDX-License-Identifier: ISC *)
(* What the theorems rest on: make proofs requires each to print "Closed
   under the global context" (no axiom, no admitted lemma). *)
From Dpsel Require Import Model Coin Uniform Shuffle Em Pf.

Print Assumptions prob_chance.
Print Assumptions run_prefix.
Print Assumptions run_reads.
Print Assumptions run_bind.
Print Assumptions expect_bind.
Print Assumptions coin_dyadic_scaled_heads.
Print Assumptions coin_dyadic_heads.
Print Assumptions coin_power_scaled_heads.
Print Assumptions coin_power_heads.
Print Assumptions uniform_fair.
Print Assumptions uniform_given_ok.
Print Assumptions uniform_fails.
Print Assumptions shuffle_each.
Print Assumptions fisher_yates_uniform.
Print Assumptions em_weighted.
Print Assumptions em_pmf.
Print Assumptions em_pmf_beta.
Print Assumptions pf_le_pmf.
Print Assumptions pf_pmf_total.
Print Assumptions pf_shortfalls.
Print Assumptions pf_fails.
