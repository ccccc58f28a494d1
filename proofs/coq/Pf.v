(* SPDX-License-Identifier: ISC *)
(* Permute-and-flip by permutation of src/core/pf.c (dpsel_core_pf: a
   shuffle step, then the visited candidate's power coin, until heads), read
   line for line from the C, against the spec's PF distribution, defined as
   the sum over the orders of the candidates: P(OK and r) <= pmf(r), and
   the shortfalls add up to P(not OK). *)
From mathcomp Require Import all_ssreflect all_algebra.
From Dpsel Require Import Model Coin Uniform Shuffle Em.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section Pf.
Variables (powers : seq dyadic) (cap : nat) (scores : seq nat).

Local Notation n := (candidates scores).
Local Notation gap := (gap cap scores).
Local Notation w := (weight powers cap scores).

(* The loop of dpsel_core_pf over the positions left: None is
   DPSEL_EUNLIKELY (and the unreachable end, DPSEL_EINTERNAL). *)
Fixpoint pf_loop (steps : nat) (rem : seq nat) : tree (option nat) :=
  if steps is s.+1 then
    bind (shuffle_step rem) (fun st =>
      if st is Some (x, rem') then
        bind (coin_power powers (gap x)) (fun heads => if heads then Ret (Some x) else pf_loop s rem')
      else Ret None)
  else Ret None.

Definition pf : tree (option nat) := pf_loop n (iota 0 n).

(* The spec's PF (spec/mechanisms.md §2): in a given order, r is released
   if its coin is the first heads. *)
Fixpoint first_heads (order : seq nat) (r : nat) : rat :=
  if order is x :: o then (if x == r then w x else (1 - w x) * first_heads o r) else 0.

(* ... averaged over the orders of the candidates. *)
Definition pmf_orders (rem : seq nat) (r : nat) : rat :=
  (\sum_(order <- permutations rem) first_heads order r) / (size rem)`!%:R.

Definition pf_pmf (r : nat) : rat := pmf_orders (iota 0 n) r.

Lemma w_le1 x : w x <= 1.
Proof. exact: prob_le1. Qed.

Lemma first_heads_ge0 order r : 0 <= first_heads order r.
Proof.
elim: order => [|x o IH] //=; case: ifP => _; first exact: weight_ge0.
by rewrite mulr_ge0 // subr_ge0 w_le1.
Qed.

Lemma pmf_orders_ge0 rem r : 0 <= pmf_orders rem r.
Proof.
by rewrite /pmf_orders divr_ge0 ?ler0n // sumr_ge0 // => o _; apply: first_heads_ge0.
Qed.

(* What step o contributes: visit x_o, its coin, else the orders of the rest. *)
Definition visit_value (rem : seq nat) (r o : nat) : rat :=
  if visited rem o == r then w r else (1 - w (visited rem o)) * pmf_orders (remaining rem o) r.

Lemma sum_perms_eq s1 s2 (F : seq nat -> rat) :
  perm_eq s1 s2 -> \sum_(t <- permutations s1) F t = \sum_(t <- permutations s2) F t.
Proof. by move=> p; apply: perm_big; apply: perm_permutations. Qed.

(* The sum over orders, by the candidate visited first. *)
Lemma pmf_orders_step rem r :
  uniq rem -> (0 < size rem)%N ->
  pmf_orders rem r = (\sum_(0 <= o < size rem) visit_value rem r o) / (size rem)%:R.
Proof.
move=> u s0; rewrite /pmf_orders (perm_big _ (permutationsE s0)) /= big_allpairs_dep /=.
rewrite undup_id // (big_nth 0%N) /=.
have fs : (size rem)`!%:R = (size rem)%:R * (size rem).-1`!%:R :> rat.
  by rewrite -natrM -{1}(prednK s0) factS prednK.
rewrite fs invfM [_^-1 * _]mulrC mulrA; congr (_ * _); rewrite mulr_suml.
apply: eq_big_nat => o /andP [_ lt].
have x_in : nth 0%N rem o \in rem by rewrite mem_nth.
have perm : perm_eq (seq.rem (nth 0%N rem o) rem) (remaining rem o).
  by rewrite -(perm_cons (nth 0%N rem o)) -(permPl (perm_to_rem x_in)) remaining_perm.
rewrite (sum_perms_eq _ perm) /visit_value /visited /=.
have sz : size (remaining rem o) = (size rem).-1 by rewrite size_remaining.
case: eqP => [->|_].
  have ur : uniq (remaining rem o) by rewrite -(perm_uniq perm) rem_uniq.
  rewrite big_const_seq count_predT size_permutations // sz iter_addr_0.
  by rewrite -[_ *+ _]mulr_natr mulfK // pnatr_eq0 -lt0n fact_gt0.
by rewrite -mulr_sumr /pmf_orders sz mulrA.
Qed.

Hypothesis few : (0 < n <= 2 ^ 63)%N.

Lemma pf_loop_outcomes s rem o :
  o \in outcomes (pf_loop s rem) -> if o is Some x then x \in rem else true.
Proof.
elim: s rem o => [|s IH] rem o /=; first by rewrite mem_seq1 => /eqP ->.
case/outcomes_bind => st /outcomes_bind [u /uniform_outcomes].
rewrite inE => /orP [/eqP -> | /mapP [j]]; first by rewrite mem_seq1 => /eqP -> /=; rewrite mem_seq1 => /eqP ->.
rewrite mem_iota add0n => /andP [_ lt] -> /=; rewrite mem_seq1 => /eqP -> /=.
have x_in : visited rem j \in rem by rewrite mem_nth.
case/outcomes_bind => -[] _; first by rewrite mem_seq1 => /eqP ->.
move/IH; case: o => // x; rewrite (perm_mem (remaining_perm lt)) inE => ->.
by rewrite orbT.
Qed.

Lemma pf_loop_absent s rem r : r \notin rem -> prob (pf_loop s rem) (pred1 (Some r)) = 0.
Proof.
move=> out; rewrite /prob (@expect_outcomes _ _ _ (fun _ => 0)) ?expect_const // => o /pf_loop_outcomes.
by case: o => [x|] //= x_in; case: eqP => // -[eq]; move: out; rewrite -eq x_in.
Qed.

(* One step of the loop: the shuffle step's uniform integer fails, or a
   candidate is visited and its coin is heads, or the loop goes on. *)
Lemma pf_loop_step_event s rem E :
  size rem = s.+1 -> (s.+1 <= 2 ^ 63)%N ->
  prob (pf_loop s.+1 rem) E =
  prob (uniform s.+1) (pred1 None) * (E None)%:R +
  uniform_each s.+1 * \sum_(0 <= o < s.+1)
    (w (visited rem o) * (E (Some (visited rem o)))%:R +
     (1 - w (visited rem o)) * prob (pf_loop s (remaining rem o)) E).
Proof.
move=> sz s63; rewrite /prob /= expect_bind /shuffle_step expect_bind sz.
rewrite expect_uniform ?ltn0Sn //=; congr (_ + _ * _).
by apply: eq_bigr => o _; rewrite /= expect_bind expect_bool.
Qed.

Lemma pf_loop_step s rem r :
  size rem = s.+1 -> (s.+1 <= 2 ^ 63)%N ->
  prob (pf_loop s.+1 rem) (pred1 (Some r)) =
  uniform_each s.+1 * \sum_(0 <= o < s.+1)
    (w (visited rem o) * (visited rem o == r)%:R +
     (1 - w (visited rem o)) * prob (pf_loop s (remaining rem o)) (pred1 (Some r))).
Proof.
by move=> sz s63; rewrite pf_loop_step_event // mulr0 add0r.
Qed.

(* The loop from any positions left releases r at most with the sum over
   their orders. *)
Theorem pf_loop_le s rem r :
  uniq rem -> size rem = s -> (s <= 2 ^ 63)%N ->
  prob (pf_loop s rem) (pred1 (Some r)) <= pmf_orders rem r.
Proof.
elim: s rem => [|s IH] rem u sz s63.
  by rewrite /prob /= pmf_orders_ge0.
rewrite pf_loop_step // pmf_orders_step ?sz //.
have each_le : uniform_each s.+1 <= 1 / s.+1%:R.
  rewrite /uniform_each uniform_given_ok ?ltn0Sn ?s63 // ler_pmul2r ?invr_gt0 ?ltr0Sn //.
  exact: prob_le1.
have AV : \sum_(0 <= o < s.+1)
    (w (visited rem o) * (visited rem o == r)%:R +
     (1 - w (visited rem o)) * prob (pf_loop s (remaining rem o)) (pred1 (Some r))) <=
  \sum_(0 <= o < size rem) visit_value rem r o.
  rewrite sz; apply: ler_sum_nat => o /andP [_ lt]; rewrite -sz in lt.
  have ur : uniq (remaining rem o).
    by move: u; rewrite (perm_uniq (remaining_perm lt)) /= => /andP [].
  have szr : size (remaining rem o) = s by rewrite size_remaining // sz.
  rewrite /visit_value; case: eqP => [vr|_].
    rewrite -vr mulr1 pf_loop_absent ?mulr0 ?addr0 //.
    by have := remaining_perm lt; move/perm_uniq; rewrite u /= => /esym /andP [].
  rewrite mulr0 add0r ler_wpmul2l ?subr_ge0 ?w_le1 //.
  by apply: IH; [exact: ur | exact: szr | exact: ltnW s63].
have V0 : 0 <= \sum_(0 <= o < size rem) visit_value rem r o.
  rewrite /visit_value sumr_ge0 // => o _; case: eqP => _; first exact: weight_ge0.
  by rewrite mulr_ge0 ?pmf_orders_ge0 // subr_ge0 w_le1.
have each0 : 0 <= uniform_each s.+1 by apply: prob_ge0.
apply: (Order.POrderTheory.le_trans (ler_wpmul2l each0 AV)).
rewrite mulrC sz; apply: ler_wpmul2l; first by rewrite -sz.
by move: each_le; rewrite mul1r.
Qed.

(* PF by permutation: P(OK and r) <= pmf(r), the spec's sum over orders. *)
Theorem pf_le_pmf r : prob pf (pred1 (Some r)) <= pf_pmf r.
Proof.
by case/andP: few => _ n63; apply: pf_loop_le; rewrite ?iota_uniq ?size_iota.
Qed.

Lemma first_heads_absent order r : r \notin order -> first_heads order r = 0.
Proof.
elim: order => [|x o IH] //=; rewrite inE negb_or => /andP [ne out].
by rewrite eq_sym (negbTE ne) IH ?mulr0.
Qed.

(* Over the candidates, an order's first heads has total 1 - prod (1 - w). *)
Lemma sum_first_heads order (U : seq nat) :
  uniq order -> uniq U -> {subset order <= U} ->
  \sum_(r <- U) first_heads order r = 1 - \prod_(x <- order) (1 - w x).
Proof.
move=> uo uU; elim: order uo => [|x o IH] /= uo sub.
  by rewrite big_nil subrr big1.
case/andP: uo => xo uo.
rewrite (bigD1_seq x) ?sub ?mem_head //= eqxx big_cons.
rewrite (eq_bigr (fun r => (1 - w x) * first_heads o r)) => [|r ne]; last by rewrite eq_sym (negbTE ne).
rewrite -mulr_sumr.
have -> : \sum_(r <- U | r != x) first_heads o r = \sum_(r <- U) first_heads o r.
  by rewrite [RHS](bigD1_seq x) ?sub ?mem_head //= first_heads_absent // add0r.
rewrite IH // => [|y yo]; last by apply: sub; rewrite inE yo orbT.
by rewrite mulrBr mulr1 addrA [w x + _]addrC subrK.
Qed.


(* The loop fails (DPSEL_EUNLIKELY) with probability at most s f, when each
   uniform integer fails with probability at most f, while a candidate with a
   certain coin is left: only the s uniform integers can fail. *)
Lemma pf_loop_fails s rem f :
  (forall j, (0 < j <= 2 ^ 63)%N -> prob (uniform j) (pred1 None) <= f) ->
  uniq rem -> size rem = s -> (s <= 2 ^ 63)%N -> (exists2 x, x \in rem & w x = 1) ->
  prob (pf_loop s rem) (pred1 None) <= s%:R * f.
Proof.
move=> ufail; elim: s rem => [|s IH] rem u sz s63 [x xin wx].
  move/eqP: sz; rewrite size_eq0 => /eqP rem0.
  by exfalso; move: xin; rewrite rem0 in_nil; discriminate.
have kr : (0 < s.+1 <= 2 ^ 63)%N by apply/andP; split; [exact: ltn0Sn | exact: s63].
have f0 : 0 <= f := Order.POrderTheory.le_trans (prob_ge0 _ _) (ufail _ kr).
have sf0 : 0 <= s%:R * f by rewrite mulr_ge0 ?ler0n.
rewrite pf_loop_step_event // mulr1.
have each_ok : uniform_each s.+1 * s.+1%:R <= 1.
  rewrite /uniform_each (uniform_given_ok kr (ltn0Sn s)).
  by rewrite mulfVK ?pnatr_eq0 //; apply: prob_le1.
have step o : (0 <= o < s.+1)%N ->
    w (visited rem o) * (pred1 None (Some (visited rem o)))%:R +
    (1 - w (visited rem o)) * prob (pf_loop s (remaining rem o)) (pred1 None) <= s%:R * f.
  case/andP=> _ lt; rewrite /= mulr0 add0r.
  have [certain|uncertain] := eqVneq (w (visited rem o)) 1; first by rewrite certain subrr mul0r.
  rewrite -sz in lt.
  have ur : uniq (remaining rem o).
    by move: u; rewrite (perm_uniq (remaining_perm lt)) /= => /andP [].
  have left : x \in remaining rem o.
    move: xin; rewrite (perm_mem (remaining_perm lt)) inE => /orP [/eqP xo|] //.
    by move: uncertain; rewrite -xo wx eqxx.
  apply: (Order.POrderTheory.le_trans (ler_pimull (prob_ge0 _ _) _)).
    by rewrite ler_subl_addr ler_addl weight_ge0.
  apply: IH; [exact: ur | by rewrite size_remaining // sz | exact: ltnW s63 | by exists x].
apply: (Order.POrderTheory.le_trans (ler_add (ufail _ kr) (ler_wpmul2l (prob_ge0 _ _) (ler_sum_nat step)))).
rewrite sumr_const_nat subn0 -[(s%:R * f) *+ _]mulr_natl [_ * (_%:R * (_ * _))]mulrA.
apply: (Order.POrderTheory.le_trans (ler_add (Order.POrderTheory.lexx _) (ler_pimull sf0 _))).
  exact: each_ok.
by rewrite mulrS mulrDl mul1r Order.POrderTheory.lexx.
Qed.

(* PF by permutation fails with probability at most n 2^-128, so its
   shortfalls add up to at most that. *)
Theorem pf_fails : prob pf (pred1 None) <= n%:R * (1 / (2 ^ rounds)%:R).
Proof.
have [i iin wi] := best_candidate powers cap few.
case/andP: few => _ n63.
apply: pf_loop_fails; [exact: uniform_fails | exact: iota_uniq | exact: size_iota | exact: n63 |].
by exists i; rewrite ?mem_iota.
Qed.

(* PF's pmf is a distribution: the orders all hold a best candidate, whose
   coin is certain. *)
Lemma pf_pmf_total : \sum_(r <- iota 0 n) pf_pmf r = 1.
Proof.
have [i iin wi] := best_candidate powers cap few.
rewrite /pf_pmf /pmf_orders -mulr_suml exchange_big /=.
rewrite (eq_big_seq (fun _ => 1)) => [|order]; last first.
  rewrite mem_permutations => perm.
  rewrite sum_first_heads ?iota_uniq ?(perm_uniq perm) ?iota_uniq // => [|y]; last by rewrite (perm_mem perm).
  rewrite (bigD1_seq i) ?(perm_mem perm) ?mem_iota ?(perm_uniq perm) ?iota_uniq //=.
  by rewrite wi subrr mul0r subr0.
rewrite big_const_seq count_predT size_permutations ?iota_uniq // size_iota iter_addr_0.
by rewrite -[1 *+ _]mulr_natr mul1r divff // pnatr_eq0 -lt0n fact_gt0.
Qed.

Lemma pf_outcomes : {subset outcomes pf <= None :: [seq Some r | r <- iota 0 n]}.
Proof.
move=> o /pf_loop_outcomes; case: o => [r|] R; rewrite inE //=.
by apply/mapP; exists r.
Qed.

(* PF's shortfalls: sum_r (pmf(r) - P(OK and r)) = P(not OK). *)
Theorem pf_shortfalls :
  \sum_(r <- iota 0 n) (pf_pmf r - prob pf (pred1 (Some r))) = prob pf (pred1 None).
Proof.
have uS : uniq (None :: [seq Some r | r <- iota 0 n]).
  by rewrite /= map_inj_uniq ?iota_uniq ?andbT; [apply/mapP => -[] | move=> ? ? []].
have := expect_const pf 1; rewrite (expect_sum _ uS pf_outcomes) big_cons big_map.
under eq_bigr => r _ do rewrite mulr1; rewrite mulr1 => total1.
by rewrite sumrB pf_pmf_total -{1}total1 addrK.
Qed.

End Pf.
