(* SPDX-License-Identifier: ISC *)
(* The Fisher-Yates shuffle of src/core/pf.c (dpsel_core_shuffle_step, step i
   for i = 0 .. n - 1, as dpsel_core_pf_hardened's first loop runs it), read
   line for line from the C: every permutation of 0 .. n - 1 has the same
   probability, so given success each has probability 1/n!. *)
From mathcomp Require Import all_ssreflect all_algebra.
From Coq Require Import Lia.
From Dpsel Require Import Model Uniform.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(* Before step i, scratch[i .. n - 1] holds the candidates not yet visited:
   the list rem.  The step draws an offset o uniform in [0, n - i), visits the
   candidate at i + o and swaps it with the one at i, which stays at i + o. *)
Definition visited (rem : seq nat) (o : nat) : nat := nth 0%N rem o.
Definition remaining (rem : seq nat) (o : nat) : seq nat :=
  behead (set_nth 0%N rem o (head 0%N rem)).

(* dpsel_core_shuffle_step: the candidate visited and the positions left;
   None is the uniform integer's DPSEL_EUNLIKELY. *)
Definition shuffle_step (rem : seq nat) : tree (option (nat * seq nat)) :=
  bind (uniform (size rem)) (fun o =>
    if o is Some o then Ret (Some (visited rem o, remaining rem o)) else Ret None).

(* steps shuffle steps: the order in which they visit the candidates. *)
Fixpoint shuffle (steps : nat) (rem : seq nat) : tree (option (seq nat)) :=
  if steps is s.+1 then
    bind (shuffle_step rem) (fun st =>
      if st is Some (x, rem') then bind (shuffle s rem') (fun r => Ret (omap (cons x) r))
      else Ret None)
  else Ret (Some [::]).

(* The shuffle of 0 .. n - 1 (scratch filled by fill_identity). *)
Definition fisher_yates (n : nat) : tree (option (seq nat)) := shuffle n (iota 0 n).

Lemma remaining_perm rem o :
  (o < size rem)%N -> perm_eq rem (visited rem o :: remaining rem o).
Proof.
case: rem => [|a tl] //=; case: o => [|o] /=; first by rewrite /visited /remaining /= perm_refl.
rewrite ltnS => lt; rewrite /visited /remaining /= set_nthE lt.
rewrite -{1}(cat_take_drop o tl) (drop_nth 0%N lt); apply/permP => P /=.
by rewrite !count_cat /= addnCA [(P a + _)%N]addnCA addnCA.
Qed.

Lemma size_remaining rem o : (o < size rem)%N -> size (remaining rem o) = (size rem).-1.
Proof. by move/remaining_perm/perm_size => ->. Qed.

(* Exactly one offset visits y, if y is among the candidates left. *)
Lemma sum_visiting rem y (F : nat -> rat) :
  uniq rem ->
  \sum_(0 <= o < size rem) (if visited rem o == y then F o else 0) =
  if y \in rem then F (index y rem) else 0.
Proof.
move=> u; case: ifP => yin.
  rewrite (bigD1_seq (index y rem)) ?mem_index_iota ?index_mem ?iota_uniq //= /visited.
  rewrite nth_index // eqxx big1_seq ?addr0 // => o /andP [ne]; rewrite mem_index_iota => /andP [_ lt].
  by case: eqP => // eq; move: ne; rewrite -eq index_uniq ?eqxx.
rewrite big1_seq // => o /andP [_]; rewrite mem_index_iota => /andP [_ lt].
by case: eqP => // eq; move: yin; rewrite -eq /visited mem_nth.
Qed.

(* The probability that each uniform integer of the steps succeeds. *)
Definition step_odds (s : nat) : rat := \prod_(1 <= j < s.+1) uniform_each j.

Theorem shuffle_each s rem p :
  uniq rem -> size rem = s -> (s <= 2 ^ 63)%N ->
  prob (shuffle s rem) (pred1 (Some p)) = if perm_eq p rem then step_odds s else 0.
Proof.
elim: s rem p => [|s IH] rem p u size_rem s63.
  rewrite /step_odds big_geq //=; move/eqP: size_rem; rewrite size_eq0 => /eqP ->.
  case: p => [|x p]; rewrite /prob /=; first by rewrite ?eqxx ?perm_refl.
  by have -> : perm_eq (x :: p) [::] = false by apply/negbTE/negP => /perm_size.
rewrite /prob /= expect_bind /shuffle_step expect_bind size_rem expect_uniform ?ltn0Sn //= mulr0 add0r.
case: p => [|y p].
  have -> : perm_eq [::] rem = false by apply/negbTE/negP => /perm_size; rewrite size_rem.
  rewrite big1 ?mulr0 // => o _.
  by rewrite expect_bind (@eq_expect _ _ _ (fun _ => 0)) ?expect_const // => -[r|].
have term o : expect (bind (shuffle s (remaining rem o))
                           (fun r => Ret (omap (cons (visited rem o)) r)))
                     (fun a => (a == Some (y :: p))%:R) =
              if visited rem o == y then prob (shuffle s (remaining rem o)) (pred1 (Some p)) else 0.
  rewrite expect_bind /=; case: eqP => [->|ne].
    by apply: eq_expect => -[r|] //=; rewrite !(inj_eq (@Some_inj _)) eqseq_cons eqxx.
  rewrite (@eq_expect _ _ _ (fun _ => 0)) ?expect_const // => -[r|] //=.
  by rewrite (inj_eq (@Some_inj _)) eqseq_cons; case: eqP.
under eq_bigr => o _ do rewrite term.
rewrite -size_rem sum_visiting //; case: ifP => yin; last first.
  rewrite mulr0; case: ifP => // /perm_mem /(_ y); rewrite inE eqxx yin => /esym.
  by [].
have lt : (index y rem < size rem)%N by rewrite index_mem.
have perm := remaining_perm lt; rewrite /visited nth_index // in perm.
rewrite IH; first last.
- exact: ltnW.
- by rewrite size_remaining // size_rem.
- by have := perm_uniq perm; rewrite u /= => /esym /andP [].
rewrite (permPr perm) perm_cons; case: ifP => _; last by rewrite mulr0.
by rewrite size_rem /step_odds [RHS]big_nat_recr //= mulrC.
Qed.

Lemma shuffle_outcomes s rem o :
  size rem = s -> o \in outcomes (shuffle s rem) -> if o is Some p then perm_eq p rem else true.
Proof.
elim: s rem o => [|s IH] rem o size_rem /=.
  by move/eqP: size_rem; rewrite size_eq0 => /eqP -> ; rewrite mem_seq1 => /eqP ->.
case/outcomes_bind => st; rewrite /shuffle_step => /outcomes_bind [u U].
have := uniform_outcomes U; rewrite inE => /orP [/eqP -> | /mapP [x]].
  by rewrite mem_seq1 => /eqP -> /=; rewrite mem_seq1 => /eqP ->.
rewrite mem_iota add0n => /andP [_ lt] -> /=; rewrite mem_seq1 => /eqP -> /=.
case/outcomes_bind => r R; rewrite mem_seq1 => /eqP ->.
have sz : size (remaining rem x) = s by rewrite size_remaining // size_rem.
have := IH _ _ sz R; case: r {R} => //= p' P.
by rewrite perm_sym (perm_trans (remaining_perm lt)) // perm_cons perm_sym.
Qed.

(* Fisher-Yates: every order of the candidates has the same probability;
   given success (no uniform integer failed), 1/n!. *)
Theorem fisher_yates_uniform n p :
  (n <= 2 ^ 63)%N -> perm_eq p (iota 0 n) ->
  prob (fisher_yates n) (pred1 (Some p)) = prob (fisher_yates n) isSome / n`!%:R.
Proof.
move=> n63 pp; set S := None :: [seq Some q | q <- permutations (iota 0 n)].
have uS : uniq S.
  rewrite /= map_inj_uniq ?permutations_uniq ?andbT; last by move=> ? ? [].
  by apply/mapP => -[].
have sub : {subset outcomes (fisher_yates n) <= S}.
  move=> o /shuffle_outcomes; rewrite size_iota => /(_ erefl).
  case: o => [q|] Q; rewrite inE //=; apply/mapP; exists q => //.
  by rewrite mem_permutations.
have each q : perm_eq q (iota 0 n) -> prob (fisher_yates n) (pred1 (Some q)) = step_odds n.
  by move=> Q; rewrite shuffle_each ?iota_uniq ?size_iota ?Q.
rewrite [in RHS](prob_sum _ uS sub) big_cons /= big_map (eq_big_seq (fun _ => step_odds n)).
  rewrite big_const_seq count_predT size_permutations ?iota_uniq // size_iota iter_addr_0.
  by rewrite each // -[_ *+ _]mulr_natr mulfK // pnatr_eq0 -lt0n fact_gt0.
by move=> q; rewrite mem_permutations => /each.
Qed.
