(* SPDX-License-Identifier: ISC *)
(* The exponential mechanism by trials of src/core/em.c (dpsel_core_em:
   128 rounds of dpsel_core_em_attempts, n trials each), read line for line
   from the C: P(OK and r) = P_EM(r) P(OK), P_EM(r) = beta^(g'_r) / S. *)
From mathcomp Require Import all_ssreflect all_algebra.
From Dpsel Require Import Model Coin Uniform.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section Scores.
(* The decay table (powers, cap) and the scores, as integers >= 0. *)
Variables (powers : seq dyadic) (cap : nat) (scores : seq nat).

Definition candidates : nat := size scores.
Definition best : nat := \max_(q <- scores) q.

(* dpsel_core_clamped_gap(best, score, cap) *)
Definition gap (r : nat) : nat := minn (best - nth 0%N scores r) cap.

(* draw_and_flip with the lazy coin: a uniform candidate and its coin;
   None is DPSEL_EUNLIKELY. *)
Definition em_trial : tree (option (nat * bool)) :=
  bind (uniform candidates) (fun o =>
    if o is Some r then bind (coin_power powers (gap r)) (fun kept => Ret (Some (r, kept)))
    else Ret None).

(* dpsel_core_em_attempts, then the rest of dpsel_core_em's rounds (next). *)
Fixpoint em_attempts (attempts : nat) (next : tree (option nat)) : tree (option nat) :=
  if attempts is a.+1 then
    bind em_trial (fun t =>
      match t with
      | None => Ret None
      | Some (r, true) => Ret (Some r)
      | Some (_, false) => em_attempts a next
      end)
  else next.

Fixpoint em_rounds (round : nat) : tree (option nat) :=
  if round is r.+1 then em_attempts candidates (em_rounds r) else Ret None.

(* dpsel_core_em: None is DPSEL_EUNLIKELY. *)
Definition em : tree (option nat) := em_rounds rounds.

(* The weight of candidate r: its coin's probability of heads. *)
Definition weight (r : nat) : rat := prob (coin_power powers (gap r)) id.
Definition total : rat := \sum_(0 <= j < candidates) weight j.

Hypothesis few : (0 < candidates <= 2 ^ 63)%N.

Lemma expect_trial h :
  expect em_trial h =
  prob (uniform candidates) (pred1 None) * h None +
  uniform_each candidates *
    \sum_(0 <= r < candidates) (weight r * h (Some (r, true)) + (1 - weight r) * h (Some (r, false))).
Proof.
rewrite /em_trial expect_bind expect_uniform //; congr (_ + _ * _).
by apply: eq_bigr => r _; rewrite expect_bind expect_bool.
Qed.

(* Trials are alike: if the rounds after give r with probability
   weight r * K, so do the attempts before them. *)
Lemma attempts_weighted a next K :
  (forall r, (r < candidates)%N -> prob next (pred1 (Some r)) = weight r * K) ->
  exists K', forall r, (r < candidates)%N -> prob (em_attempts a next) (pred1 (Some r)) = weight r * K'.
Proof.
move=> nextK; elim: a => [|a [K' IH]] /=; first by exists K.
exists (uniform_each candidates * (1 + K' * \sum_(0 <= j < candidates) (1 - weight j))).
move=> r rn; rewrite /prob expect_bind expect_trial /= mulr0 add0r.
rewrite big_split /=.
have kept : \sum_(0 <= i < candidates) weight i * (Some i == Some r)%:R = weight r.
  rewrite (bigD1_seq r) ?mem_index_iota ?iota_uniq //= eqxx mulr1 big1_seq ?addr0 //.
  by move=> j /andP [ne _]; rewrite (inj_eq (@Some_inj _)) (negbTE ne) mulr0.
have again : \sum_(0 <= i < candidates)
                 (1 - weight i) * expect (em_attempts a next) (fun o => (o == Some r)%:R) =
              (\sum_(0 <= j < candidates) (1 - weight j)) * (weight r * K').
  by rewrite mulr_suml; apply: eq_bigr => j _; rewrite -/(prob _ _) IH.
rewrite kept again [RHS]mulrCA; congr (_ * _); set S := \sum_(_ <= _ < _) _.
by rewrite mulrDr mulr1 mulrCA [K' * _]mulrC.
Qed.

Lemma trial_outcomes t : t \in outcomes em_trial ->
  if t is Some (r, _) then (r < candidates)%N else true.
Proof.
case/outcomes_bind => o /uniform_outcomes; rewrite inE => /orP [/eqP -> | /mapP [r]].
  by rewrite mem_seq1 => /eqP ->.
rewrite mem_iota add0n => /andP [_ rn] -> /outcomes_bind [b _].
by rewrite mem_seq1 => /eqP ->.
Qed.

Lemma attempts_outcomes a next o :
  (forall o, o \in outcomes next -> if o is Some r then (r < candidates)%N else true) ->
  o \in outcomes (em_attempts a next) -> if o is Some r then (r < candidates)%N else true.
Proof.
move=> nextO; elim: a o => [|a IH] o /=; first exact: nextO.
case/outcomes_bind => t /trial_outcomes.
case: t => [[r []]|] /= rn; [| exact: IH |];
  by rewrite mem_seq1 => /eqP ->.
Qed.

Lemma em_outcomes o : o \in outcomes em -> if o is Some r then (r < candidates)%N else true.
Proof.
rewrite /em; elim: rounds o => [|round IH] o /=; first by rewrite mem_seq1 => /eqP ->.
exact: attempts_outcomes.
Qed.

(* EM by trials: P(OK and r) S = weight r P(OK). *)
Theorem em_weighted r :
  (r < candidates)%N -> prob em (pred1 (Some r)) * total = weight r * prob em isSome.
Proof.
move=> rn.
have [K emK] : exists K, forall r, (r < candidates)%N -> prob em (pred1 (Some r)) = weight r * K.
  rewrite /em; elim: rounds => [|round [K IH]] /=.
    by exists 0 => j _; rewrite /prob /= mulr0.
  exact: attempts_weighted IH.
set S := None :: [seq Some j | j <- iota 0 candidates].
have uS : uniq S by rewrite /= map_inj_uniq ?iota_uniq ?andbT; [apply/mapP => -[] | move=> ? ? []].
have sub : {subset outcomes em <= S}.
  move=> o /em_outcomes; case: o => [j|] J; rewrite inE //=; apply/mapP; exists j => //.
  by rewrite mem_iota.
rewrite [in RHS](prob_sum _ uS sub) big_cons /= big_map emK // /total.
have -> : \sum_(j <- iota 0 candidates | isSome (Some j)) prob em (pred1 (Some j)) =
          \sum_(j <- iota 0 candidates) weight j * K.
  by apply: eq_big_seq => j; rewrite mem_iota add0n => /andP [_ jn]; apply: emK.
by rewrite -mulr_suml /index_iota subn0 mulrAC -mulrA.
Qed.

(* The weights are the spec's, beta^(g'_r), given the decay table. *)
Lemma weight_beta beta r :
  decay_table beta powers -> (gap r < 2 ^ size powers)%N -> weight r = beta ^+ gap r.
Proof. by move=> table lt; rewrite /weight (coin_power_heads table). Qed.

Lemma weight_best r : gap r = 0%N -> weight r = 1.
Proof.
move=> g0; rewrite /weight /coin_power /coin_power_scaled g0.
by elim: (size powers) => [|i IH] //=; rewrite div0n.
Qed.

Lemma weight_ge0 r : 0 <= weight r.
Proof. exact: prob_ge0. Qed.

Lemma max_mem (s : seq nat) : s != [::] -> \max_(q <- s) q \in s.
Proof.
elim: s => // q s IH _; rewrite big_cons inE.
case: (leqP (\max_(x <- s) x) q) => h; first by rewrite eqxx.
case: s IH h => [|q' s] IH h; first by rewrite big_nil in h.
by rewrite IH ?orbT.
Qed.

(* A best candidate exists, and its gap is 0, its coin certain. *)
Lemma best_candidate : exists2 i, (i < candidates)%N & weight i = 1.
Proof.
case/andP: few => n0 _.
have bin : best \in scores by apply: max_mem; rewrite -size_eq0 -lt0n.
exists (index best scores); first by rewrite index_mem.
by apply: weight_best; rewrite /gap nth_index // subnn min0n.
Qed.

(* So S >= 1. *)
Lemma total_ge1 : 1 <= total.
Proof.
have [i iin wi] := best_candidate.
rewrite /total (bigD1_seq i) ?mem_index_iota ?iota_uniq //= wi ler_addl.
by apply: sumr_ge0 => j _; apply: weight_ge0.
Qed.

(* EM by trials releases r with the EM distribution given success:
   P(OK and r) = pmf(r) P(OK), pmf(r) = weight r / sum_j weight j. *)
Theorem em_pmf r :
  (r < candidates)%N -> prob em (pred1 (Some r)) = weight r / total * prob em isSome.
Proof.
move=> rn; have T0 : total != 0 by rewrite Order.POrderTheory.gt_eqF // (Order.POrderTheory.lt_le_trans ltr01 total_ge1).
by rewrite mulrAC -em_weighted // mulfK.
Qed.

(* The same with the spec's weights: pmf(r) = beta^(g'_r) / sum_j beta^(g'_j). *)
Theorem em_pmf_beta beta r :
  decay_table beta powers -> (cap < 2 ^ size powers)%N -> (r < candidates)%N ->
  prob em (pred1 (Some r)) =
  beta ^+ gap r / (\sum_(0 <= j < candidates) beta ^+ gap j) * prob em isSome.
Proof.
move=> table capn rn.
have lt j : (gap j < 2 ^ size powers)%N by rewrite (leq_ltn_trans (geq_minr _ _)).
rewrite em_pmf // (weight_beta table (lt r)) /total.
by congr (_ / _ * _); apply: eq_bigr => j _; apply: weight_beta.
Qed.

End Scores.
