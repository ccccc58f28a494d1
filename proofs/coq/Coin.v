(* SPDX-License-Identifier: ISC *)
(* The coins of src/core/coin.c: the dyadic coin (dpsel_core_coin_dyadic and
   its scaled form) and the power coin (dpsel_core_coin_power_scaled), read
   line for line from the C, and their probabilities of heads. *)
From mathcomp Require Import all_ssreflect all_algebra.
From Dpsel Require Import Model.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(* A dyadic t = 2^-lead 0.d_0 d_1 ... d_(n-1), as dpsel_dyadic stores it:
   lead zeros after the point, then the digits. *)
Record dyadic := Dyadic { lead : nat; digits : seq bool }.

(* The value of the digits after the point, 0.d_0 d_1 ... *)
Fixpoint fraction (ds : seq bool) : rat :=
  if ds is d :: ds' then (d%:R + fraction ds') / 2%:R else 0.

Definition value (t : dyadic) : rat := fraction (digits t) / (2 ^ lead t)%:R.

(* dpsel_internal_rng_zeros: at most limit bits, up to and with the first 1;
   the number of zeros read. *)
Fixpoint zeros (limit : nat) : tree nat :=
  if limit is l.+1 then Bit (fun b => if b then Ret 0%N else bind (zeros l) (fun z => Ret z.+1))
  else Ret 0%N.

(* The loop over the digits: a random bit u against the digit d; the first
   difference decides heads iff u < d; all equal is tails. *)
Fixpoint compare (ds : seq bool) : tree bool :=
  if ds is d :: ds' then Bit (fun u => if u != d then Ret (u < d)%N else compare ds')
  else Ret false.

(* dpsel_core_coin_dyadic_scaled(t, scale): a run of lead - scale zeros, then
   the digits. *)
Definition coin_dyadic_scaled (t : dyadic) (scale : nat) : tree bool :=
  let l := (lead t - scale)%N in
  bind (zeros l) (fun z => if (z < l)%N then Ret false else compare (digits t)).

Definition coin_dyadic (t : dyadic) : tree bool := coin_dyadic_scaled t 0.

(* dpsel_core_coin_power_scaled: the factors for the set bits of g, from the
   highest index down, each with min(scale, its lead) of the scale; the first
   tails stops. *)
Fixpoint power_loop (powers : seq dyadic) (g : nat) (i : nat) (scale : nat) : tree bool :=
  if i is i'.+1 then
    if odd (g %/ 2 ^ i') then
      let p := nth (Dyadic 0 [::]) powers i' in
      let shift := minn scale (lead p) in
      bind (coin_dyadic_scaled p shift)
           (fun c => if c then power_loop powers g i' (scale - shift) else Ret false)
    else power_loop powers g i' scale
  else Ret true.

Definition coin_power_scaled (powers : seq dyadic) (g scale : nat) : tree bool :=
  power_loop powers g (size powers) scale.

Definition coin_power (powers : seq dyadic) (g : nat) : tree bool := coin_power_scaled powers g 0.

Lemma prob_compare ds : prob (compare ds) id = fraction ds.
Proof.
elim: ds => [|[] ds IH] //=; rewrite /prob /= in IH *; rewrite IH //.
by rewrite addr0 add0r.
Qed.

Lemma expect_zeros l (x : rat) :
  expect (zeros l) (fun z => if (z < l)%N then 0 else x) = x / (2 ^ l)%:R.
Proof.
elim: l => [|l IH] /=; first by rewrite divr1.
rewrite expect_bind /= addr0.
rewrite -/(expect (zeros l) (fun z => if (z < l)%N then 0 else x)) IH.
by rewrite expnS natrM invfM mulrA mulrAC.
Qed.

(* The dyadic coin: P(heads) = t 2^scale, the value read from its digits. *)
Theorem coin_dyadic_scaled_heads t scale :
  (scale <= lead t)%N -> prob (coin_dyadic_scaled t scale) id = value t * (2 ^ scale)%:R.
Proof.
move=> le; rewrite /prob /coin_dyadic_scaled expect_bind.
rewrite (@eq_expect _ _ _ (fun z => if (z < lead t - scale)%N then 0 else fraction (digits t))).
  rewrite expect_zeros /value -{2}(subnK le) expnD natrM invfM !mulrA divfK //.
  by rewrite pnatr_eq0 expn_eq0.
by move=> z; case: ifP => _ //; rewrite -prob_compare.
Qed.

Theorem coin_dyadic_heads t : prob (coin_dyadic t) id = value t.
Proof. by rewrite coin_dyadic_scaled_heads // mulr1. Qed.

(* The product of the set bits' factors below i, and their leads. *)
Definition factors (powers : seq dyadic) (g i : nat) : rat :=
  \prod_(j < i | odd (g %/ 2 ^ j)) value (nth (Dyadic 0 [::]) powers j).

Definition leads (powers : seq dyadic) (g i : nat) : nat :=
  (\sum_(j < i | odd (g %/ 2 ^ j)) lead (nth (Dyadic 0 [::]) powers j))%N.

Lemma prod_recr i (P : pred nat) (F : nat -> rat) :
  \prod_(j < i.+1 | P j) F j = (\prod_(j < i | P j) F j) * (if P i then F i else 1).
Proof. by rewrite big_mkcond big_ord_recr /= -big_mkcond. Qed.

Lemma sum_recr i (P : pred nat) (F : nat -> nat) :
  (\sum_(j < i.+1 | P j) F j = (\sum_(j < i | P j) F j) + (if P i then F i else 0))%N.
Proof. by rewrite big_mkcond big_ord_recr /= -big_mkcond. Qed.

Lemma power_loop_heads powers g i scale :
  (scale <= leads powers g i)%N ->
  prob (power_loop powers g i scale) id = factors powers g i * (2 ^ scale)%:R.
Proof.
rewrite /factors /leads; elim: i scale => [|i IH] scale /=.
  by rewrite !big_ord0 leqn0 => /eqP ->; rewrite mul1r.
rewrite (prod_recr _ (fun j => odd (g %/ 2 ^ j)) (fun j => value (nth (Dyadic 0 [::]) powers j))).
rewrite (sum_recr _ (fun j => odd (g %/ 2 ^ j)) (fun j => lead (nth (Dyadic 0 [::]) powers j))).
case: ifP => bit le; last by rewrite addn0 in le; rewrite IH // mulr1.
set p := nth _ _ i; set shift := minn scale (lead p).
have sh : (shift <= lead p)%N by rewrite geq_minr.
have rest : (scale - shift <= leads powers g i)%N.
  rewrite /shift /leads; case: (leqP scale (lead p)) => h.
    by rewrite subnn.
  by rewrite leq_subLR addnC.
rewrite /prob expect_bind expect_bool /= mulr0 addr0.
rewrite coin_dyadic_scaled_heads // -/(prob _ id) IH //.
rewrite -[in RHS](subnKC (geq_minl scale (lead p))) expnD natrM -/shift.
set P := \prod_(_ < _ | _) _; set v := value p; set a := (2 ^ shift)%:R.
by rewrite mulrACA [v * P]mulrC [a * _]mulrC.
Qed.

(* The decay table's hypothesis (its exactness is MPFR's, in the trusted
   base): powers[j] = beta^(2^j) for every j below the table's size. *)
Definition decay_table (beta : rat) (powers : seq dyadic) :=
  forall j, (j < size powers)%N -> value (nth (Dyadic 0 [::]) powers j) = beta ^+ (2 ^ j).

(* The set bits of g below n add up to g, for g < 2^n. *)
Lemma binary_digits g n :
  (g < 2 ^ n)%N -> (\sum_(j < n | odd (g %/ 2 ^ j)) 2 ^ j)%N = g.
Proof.
elim: n g => [|n IH] g; first by rewrite expn0 ltnS leqn0 big_ord0 => /eqP ->.
move=> lt; rewrite big_mkcond big_ord_recl /= expn0 divn1.
have half : (g %/ 2 < 2 ^ n)%N by rewrite ltn_divLR // mulnC -expnS.
rewrite -[in RHS](ssrnat.odd_double_half g) -divn2 -(IH (g %/ 2)%N half) -muln2 big_distrl /=.
rewrite [in RHS]big_mkcond; congr (addn _ _).
apply: eq_bigr => j _; rewrite /bump /= add1n expnS divnMA.
by case: ifP => _; rewrite // mulnC.
Qed.

(* The power coin: P(heads) = beta^g 2^scale, for g < 2^size and a scale no
   larger than the leads of g's factors. *)
Theorem coin_power_scaled_heads beta powers g scale :
  decay_table beta powers -> (g < 2 ^ size powers)%N -> (scale <= leads powers g (size powers))%N ->
  prob (coin_power_scaled powers g scale) id = beta ^+ g * (2 ^ scale)%:R.
Proof.
move=> table lt le; rewrite /coin_power_scaled power_loop_heads //; congr (_ * _).
rewrite /factors (eq_bigr (fun j : 'I_(size powers) => beta ^+ (2 ^ j))) => [|j _]; last exact: table.
by rewrite prodrXr binary_digits.
Qed.

Theorem coin_power_heads beta powers g :
  decay_table beta powers -> (g < 2 ^ size powers)%N -> prob (coin_power powers g) id = beta ^+ g.
Proof. by move=> table lt; rewrite (coin_power_scaled_heads table) // mulr1. Qed.

