(* SPDX-License-Identifier: ISC *)
(* The uniform integer of src/core/uniform.c (the Fast Dice Roller with its
   128 rounds), read line for line from the C: every value in [0, k) has the
   same probability, so a returned value is uniform given success. *)
From mathcomp Require Import all_ssreflect all_algebra.
From Dpsel Require Import Model.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(* dpsel_internal_rng_bits(m): m bits, the first the most significant. *)
Fixpoint bits (m : nat) : tree nat :=
  if m is m'.+1 then bind (bits m') (fun hi => Bit (fun u => Ret (hi.*2 + u)%N)) else Ret 0%N.

(* DPSEL_REJECTION_ROUNDS *)
Definition rounds := 128%N.

(* doublings(v, k): the smallest m >= 1 with k <= v 2^m (the C finds it by a
   binary search; WP proves its result is that smallest m). *)
Definition doublings (v k : nat) : nat := (find (fun m => k <= v * 2 ^ m)%N (iota 1 63)).+1.

(* The loop of dpsel_core_uniform from (v, c): a doubling run of m bits, then
   accept c < k or keep c - k uniform in [0, v - k). *)
Fixpoint fdr (round : nat) (k v c : nat) : tree (option nat) :=
  if round is r.+1 then
    let m := doublings v k in
    bind (bits m) (fun b =>
      let v' := (v * 2 ^ m)%N in
      let c' := (c * 2 ^ m + b)%N in
      if (c' < k)%N then Ret (Some c') else fdr r k (v' - k) (c' - k))
  else Ret None.

(* dpsel_core_uniform(k): None is DPSEL_EUNLIKELY. *)
Definition uniform (k : nat) : tree (option nat) :=
  if k == 1%N then Ret (Some 0%N) else fdr rounds k 1 0.

Lemma sum_pairs (h : nat -> rat) n :
  \sum_(0 <= b < n.*2) h b = \sum_(0 <= a < n) (h a.*2 + h a.*2.+1).
Proof.
elim: n => [|n IH]; first by rewrite !big_geq.
by rewrite doubleS !big_nat_recr //= IH addrA.
Qed.

(* m bits are uniform on [0, 2^m). *)
Lemma expect_bits m h : expect (bits m) h = (\sum_(0 <= b < 2 ^ m) h b) / (2 ^ m)%:R.
Proof.
elim: m h => [|m IH] h /=; first by rewrite expn0 big_nat1 divr1.
rewrite expect_bind IH expnS mul2n sum_pairs -mul2n natrM invfM.
rewrite [(2%:R^-1 * _)]mulrC mulrA mulrAC; congr (_ / _); rewrite mulr_suml; apply: eq_bigr => a _.
by rewrite /= addn0 addn1.
Qed.

(* Blocks of p consecutive values, v of them. *)
Lemma sum_blocks (F : nat -> rat) v p :
  \sum_(0 <= c < v) \sum_(0 <= b < p) F (c * p + b)%N = \sum_(0 <= c < v * p) F c.
Proof.
elim: v => [|v IH]; first by rewrite mul0n !big_geq.
rewrite big_nat_recr //= IH mulSn addnC (big_cat_nat _ _ _ (leq0n (v * p)) (leq_addr p _)) /=.
congr (_ + _); rewrite -{2}[(v * p)%N]add0n big_addn addKn.
by apply: eq_bigr => b _; rewrite addnC.
Qed.

Lemma doublings_cover v k : (0 < v)%N -> (k <= 2 ^ 63)%N -> (k <= v * 2 ^ doublings v k)%N.
Proof.
move=> v0 k63; set P := fun m => (k <= v * 2 ^ m)%N.
have has63 : has P (iota 1 63).
  apply/hasP; exists 63%N; first by rewrite mem_iota.
  exact: (leq_trans k63 (leq_pmull _ v0)).
have := nth_find 0%N has63; rewrite nth_iota; first by rewrite add1n.
by rewrite -[63%N](size_iota 1) -has_find.
Qed.

Lemma fdr_S r k v c :
  fdr r.+1 k v c =
  bind (bits (doublings v k)) (fun b =>
    let c' := (c * 2 ^ doublings v k + b)%N in
    if (c' < k)%N then Ret (Some c') else fdr r k (v * 2 ^ doublings v k - k) (c' - k)).
Proof. by []. Qed.

Section Fair.
Variable k : nat.
Hypothesis k_range : (0 < k <= 2 ^ 63)%N.

(* A round from the c < v equally likely starts: the accepted values below k,
   then the next round from the v 2^m - k kept remainders. *)
Lemma rounds_step r v (E : pred (option nat)) :
  (0 < v)%N ->
  \sum_(0 <= c < v) prob (fdr r.+1 k v c) E =
  (\sum_(0 <= c < k) (E (Some c))%:R +
   \sum_(0 <= c < v * 2 ^ doublings v k - k) prob (fdr r k (v * 2 ^ doublings v k - k) c) E) /
  (2 ^ doublings v k)%:R.
Proof.
move=> v0; case/andP: k_range => k0 k63.
have cover := doublings_cover v0 k63.
rewrite /prob; set m := doublings v k.
under eq_bigr => c _ do rewrite fdr_S -/m expect_bind expect_bits.
pose F c := expect (if (c < k)%N then Ret (Some c) else fdr r k (v * 2 ^ m - k) (c - k))
  (fun a => (E a)%:R).
rewrite -mulr_suml (sum_blocks F); congr (_ / _).
rewrite (big_cat_nat _ _ _ (leq0n k) cover) /=; congr (_ + _).
  by apply: eq_big_nat => c /andP [_ ck]; rewrite /F ck.
rewrite -{1}[k]add0n big_addn.
by apply: eq_bigr => c _; rewrite /F ltnNge leq_addl /= addnK.
Qed.

(* The mass of Some x over the c < v equally likely starts. *)
Definition starts (r v x : nat) : rat := \sum_(0 <= c < v) prob (fdr r k v c) (pred1 (Some x)).

Lemma starts_step r v x :
  (0 < v)%N -> (x < k)%N ->
  starts r.+1 v x =
  (1 + starts r (v * 2 ^ doublings v k - k) x) / (2 ^ doublings v k)%:R.
Proof.
move=> v0 xk; rewrite /starts rounds_step //; congr ((_ + _) / _).
rewrite (bigD1_seq x) ?mem_index_iota ?iota_uniq //= eqxx big1_seq ?addr0 //.
move=> c /andP [ne _] /=.
by rewrite (inj_eq (@Some_inj _)) (negbTE ne).
Qed.

Lemma starts_fair r v x y : (x < k)%N -> (y < k)%N -> starts r v x = starts r v y.
Proof.
move=> xk yk; elim: r v => [|r IH] v.
  by rewrite /starts /prob; apply: eq_bigr.
case: v => [|v]; first by rewrite /starts !big_geq.
by rewrite !starts_step // IH.
Qed.

(* The smallest doubling: v 2^m < 2k, so a rejected round keeps v 2^m - k < k. *)
Lemma doublings_below v : (v < k)%N -> (v * 2 ^ doublings v k < k.*2)%N.
Proof.
move=> vk; rewrite /doublings -muln2.
case E: (find _ _) => [|j]; first by rewrite expn1 ltn_mul2r.
have jf : (j < find (fun m => k <= v * 2 ^ m)%N (iota 1 63))%N by rewrite E.
have := before_find 0%N jf; rewrite nth_iota; last by rewrite (leq_trans jf) // -{2}(size_iota 1 63) find_size.
move/negbT; rewrite -ltnNge add1n => lt.
by rewrite expnS mulnCA mulnC ltn_mul2r lt.
Qed.

(* The rounds from c < v < k equally likely starts all reject with
   probability at most v / 2^r. *)
Lemma fails_bound r v :
  (v < k)%N -> \sum_(0 <= c < v) prob (fdr r k v c) (pred1 None) <= v%:R / (2 ^ r)%:R.
Proof.
elim: r v => [|r IH] v vk.
  by rewrite /prob /= expn0 divr1 sumr_const_nat subn0.
case: v vk => [|v] vk; first by rewrite big_geq // mul0r.
rewrite rounds_step // big1 ?add0r => [|c _]; last by rewrite /=.
set m := doublings v.+1 k; set a := (v.+1 * 2 ^ m - k)%N.
have below := doublings_below vk; rewrite -/m in below.
have cover : (k <= v.+1 * 2 ^ m)%N by case/andP: k_range => _ k63; apply: doublings_cover.
have ak : (a < k)%N by rewrite /a ltn_subLR // addnn.
have key : (a * 2 <= v.+1 * 2 ^ m)%N.
  by rewrite /a mulnBl !muln2 leq_subLR -addnn leq_add2r ltnW.
apply: (Order.POrderTheory.le_trans (ler_wpmul2r _ (IH a ak))); first by rewrite invr_ge0 ler0n.
have p2 n : (0 : rat) < (2 ^ n)%:R by rewrite ltr0n expn_gt0.
rewrite -mulrA -invfM -natrM ler_pdivr_mulr ?ltr0n ?muln_gt0 ?expn_gt0 //.
rewrite mulrAC ler_pdivl_mulr ?p2 // -!natrM ler_nat expnS.
by rewrite mulnA mulnCA [(2 ^ r * _)%N]mulnC leq_mul2r key orbT.
Qed.

Lemma fdr_fails r : (1 < k)%N -> prob (fdr r k 1 0) (pred1 None) <= 1 / (2 ^ r)%:R.
Proof. by move=> k1; have := fails_bound r k1; rewrite big_nat1. Qed.

(* The uniform integer fails (DPSEL_EUNLIKELY) with probability at most 2^-128. *)
Theorem uniform_fails : prob (uniform k) (pred1 None) <= 1 / (2 ^ rounds)%:R.
Proof.
rewrite /uniform; case: eqP => [_|k1].
  have -> : prob (Ret (Some 0%N)) (pred1 None) = 0 by [].
  by apply: divr_ge0; [exact: ler01 | exact: ler0n].
apply: fdr_fails; case/andP: k_range => k0 _.
by rewrite ltn_neqAle eq_sym k0 andbT; apply/eqP.
Qed.

(* Every value below k is returned with the same probability. *)
Theorem uniform_fair x y :
  (x < k)%N -> (y < k)%N -> prob (uniform k) (pred1 (Some x)) = prob (uniform k) (pred1 (Some y)).
Proof.
move=> xk yk; rewrite /uniform; case: eqP => [k1|_]; first by move: xk yk; rewrite k1 !ltnS !leqn0 => /eqP -> /eqP ->.
by have := starts_fair rounds 1 xk yk; rewrite /starts !big_nat1.
Qed.

Lemma fdr_outcomes r v c o : o \in outcomes (fdr r k v c) -> if o is Some x then (x < k)%N else true.
Proof.
elim: r v c => [|r IH] v c /=; first by rewrite mem_seq1 => /eqP ->.
case/outcomes_bind => b _ /=; case: ifP => [lt|_ /IH //]; by rewrite mem_seq1 => /eqP ->.
Qed.

(* The values dpsel_core_uniform can return: DPSEL_EUNLIKELY or one below k. *)
Definition uniform_values : seq (option nat) := None :: [seq Some x | x <- iota 0 k].

Lemma uniform_values_uniq : uniq uniform_values.
Proof.
rewrite /= map_inj_uniq ?iota_uniq ?andbT; last by move=> ? ? [].
by apply/mapP => -[].
Qed.

Lemma uniform_outcomes : {subset outcomes (uniform k) <= uniform_values}.
Proof.
move=> o; rewrite /uniform; case: eqP => [k1|_].
  by rewrite mem_seq1 => /eqP ->; rewrite inE /= k1 mem_seq1.
move/fdr_outcomes; case: o => [x|] xk; rewrite inE //=.
by apply/mapP; exists x; rewrite ?mem_iota.
Qed.

(* The probability that dpsel_core_uniform returns (that success), and the
   probability of each value. *)
Definition uniform_ok : rat := prob (uniform k) isSome.
Definition uniform_each : rat := prob (uniform k) (pred1 (Some 0%N)).

(* Uniform given success: P(OK and x) = P(OK) / k for every x < k. *)
Theorem uniform_given_ok x : (x < k)%N -> prob (uniform k) (pred1 (Some x)) = uniform_ok / k%:R.
Proof.
move=> xk; case/andP: k_range => k0 _.
rewrite /uniform_ok [in RHS](prob_sum _ uniform_values_uniq uniform_outcomes) big_cons /= big_map.
have -> : \sum_(i <- iota 0 k | isSome (Some i)) prob (uniform k) (pred1 (Some i)) =
          \sum_(i <- iota 0 k) prob (uniform k) (pred1 (Some x)).
  by apply: eq_big_seq => y; rewrite mem_iota add0n => /andP [_ yk]; apply: uniform_fair.
by rewrite big_const_seq count_predT size_iota iter_addr_0 -[_ *+ k]mulr_natr mulfK // pnatr_eq0 -lt0n.
Qed.

(* The expectation over the uniform integer. *)
Lemma expect_uniform h :
  expect (uniform k) h =
  prob (uniform k) (pred1 None) * h None + uniform_each * \sum_(0 <= x < k) h (Some x).
Proof.
case/andP: k_range => k0 _.
rewrite (expect_sum _ uniform_values_uniq uniform_outcomes) big_cons big_map; congr (_ + _).
rewrite mulr_sumr /index_iota subn0; apply: eq_big_seq => x; rewrite mem_iota add0n => /andP [_ xk].
by rewrite /uniform_each (uniform_fair xk k0).
Qed.

End Fair.
