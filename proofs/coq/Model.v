(* SPDX-License-Identifier: ISC *)
(* The random-source model: a sampler is a finite tree of bit reads, its output
   on a bit string is found by walking the tree, and the probability of an
   event is the number of strings of length L that give it over 2^L (strings),
   equal to the tree's weight (prob) once L covers the tree's depth. *)
From mathcomp Require Import all_ssreflect all_algebra.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(* A sampler: return a value, or read one random bit and go on. *)
Inductive tree (A : Type) : Type :=
| Ret : A -> tree A
| Bit : (bool -> tree A) -> tree A.
Arguments Ret {A}.
Arguments Bit {A}.

(* Calls in sequence: the second call may depend on the first's value, so the
   number of bits read by the pair depends on the data. *)
Fixpoint bind A B (t : tree A) (f : A -> tree B) : tree B :=
  match t with
  | Ret a => f a
  | Bit k => Bit (fun b => bind (k b) f)
  end.

(* The most bits a sampler can read. *)
Fixpoint depth A (t : tree A) : nat :=
  match t with
  | Ret _ => 0
  | Bit k => (maxn (depth (k false)) (depth (k true))).+1
  end.

(* Runs a sampler on a bit string: its value and the number of bits it read,
   or None if the string ends first. *)
Fixpoint run A (t : tree A) (s : seq bool) : option (A * nat) :=
  match t, s with
  | Ret a, _ => Some (a, 0%N)
  | Bit _, [::] => None
  | Bit k, b :: s' => omap (fun p => (p.1, p.2.+1)) (run (k b) s')
  end.

(* Every bit string of length L, each once. *)
Fixpoint strings (L : nat) : seq (seq bool) :=
  if L is L'.+1 then [seq false :: s | s <- strings L'] ++ [seq true :: s | s <- strings L']
  else [:: [::]].

(* The probability of an event on strings of length L: a rational. *)
Definition chance (L : nat) (E : pred (seq bool)) : rat :=
  (count E (strings L))%:R / (2 ^ L)%:R.

(* The event "the sampler returns a value in E". *)
Definition returns A (t : tree A) (E : pred A) : pred (seq bool) :=
  fun s => if run t s is Some (a, _) then E a else false.

(* The expectation of h over the sampler's value, each bit fair. *)
Fixpoint expect A (t : tree A) (h : A -> rat) : rat :=
  match t with
  | Ret a => h a
  | Bit k => (expect (k false) h + expect (k true) h) / 2%:R
  end.

Definition prob A (t : tree A) (E : pred A) : rat := expect t (fun a => (E a)%:R).

Section Strings.

Lemma size_strings L : size (strings L) = (2 ^ L)%N.
Proof. by elim: L => //= L IH; rewrite size_cat !size_map IH expnS mul2n addnn. Qed.

Lemma strings_uniq L : uniq (strings L).
Proof.
elim: L => //= L IH; rewrite cat_uniq !map_inj_uniq //; last by move=> x y [].
rewrite IH /= andbT; apply/hasPn => s /mapP [s' _ ->] /=.
  by apply/mapP => -[s'' _].
by move=> x y [].
Qed.

Lemma count_strings_cons L (E : pred (seq bool)) :
  count E (strings L.+1) =
  (count (fun s => E (false :: s)) (strings L) + count (fun s => E (true :: s)) (strings L))%N.
Proof. by rewrite /= count_cat !count_map. Qed.

End Strings.

Lemma mem_strings L s : (s \in strings L) = (size s == L).
Proof.
elim: L s => [|L IH] [|b s] //=; rewrite mem_cat.
  by apply/negbTE/norP; split; apply/mapP => -[].
rewrite eqSS -IH; apply/orP/idP => [[] /mapP [s' ? [_ ->]] // | ?].
by case: b; [right | left]; apply/mapP; exists s.
Qed.

(* The model: a sampler's weight is the fraction of strings of any length L
   at least its depth on which it returns a value in E. *)
Theorem prob_chance A (t : tree A) (E : pred A) L :
  (depth t <= L)%N -> prob t E = chance L (returns t E).
Proof.
rewrite /prob /chance; elim: t L => [a|k IH] L /=.
  move=> _; rewrite /returns /=; case: (E a).
    by rewrite count_predT size_strings divff // pnatr_eq0 expn_eq0.
  by rewrite count_pred0 !mul0r.
case: L => // L; rewrite ltnS geq_max => /andP [d0 d1].
rewrite (IH false L d0) (IH true L d1) count_strings_cons natrD.
have half n (a b : rat) : (a / (2 ^ n)%:R + b / (2 ^ n)%:R) / 2%:R = (a + b) / (2 ^ n.+1)%:R.
  by rewrite -mulrDl expnS natrM invfM mulrA mulrC [_ * 2%:R^-1]mulrC mulrA.
rewrite half; congr (_ / _); congr (_ + _); congr (_%:R); apply: eq_count => s;
  by rewrite /returns /=; case: (run _ s) => [[]|].
Qed.

(* The prefix lemma: a sampler that reads at most depth t bits depends only on
   the first depth t bits of the string. *)
Theorem run_prefix A (t : tree A) s s' :
  take (depth t) s = take (depth t) s' -> run t s = run t s'.
Proof.
elim: t s s' => [a|k IH] s s' //=.
case: s => [|b s]; case: s' => [|b' s'] //= [<-] E.
congr omap; apply: IH.
have le : (depth (k b) <= maxn (depth (k false)) (depth (k true)))%N.
  by case: b {E}; rewrite ?leq_maxl ?leq_maxr.
by rewrite -(take_take le s) -(take_take le s') E.
Qed.

(* The bits a run reads: at most depth t, and no more than that prefix. *)
Theorem run_reads A (t : tree A) s a n :
  run t s = Some (a, n) -> (n <= depth t)%N /\ forall s', run t (take n s ++ s') = Some (a, n).
Proof.
elim: t s a n => [a'|k IH] s a n /=; first by move=> [-> <-].
case: s => [|b s] //=; case E: (run (k b) s) => [[a' n']|] //= [<- <-].
have [le reads] := IH b s a' n' E; split.
  by rewrite ltnS (leq_trans le) //; case: b {E reads le}; rewrite ?leq_maxl ?leq_maxr.
by move=> s' /=; rewrite reads.
Qed.

(* The bind lemma on strings: the second call reads where the first stopped. *)
Theorem run_bind A B (t : tree A) (f : A -> tree B) s :
  run (bind t f) s =
  if run t s is Some (a, n) then omap (fun p => (p.1, n + p.2)%N) (run (f a) (drop n s))
  else None.
Proof.
elim: t s => [a|k IH] s /=; first by rewrite drop0; case: (run (f a) s) => [[]|].
case: s => [|b s] //=; rewrite IH; case: (run (k b) s) => [[a n]|] //=.
by case: (run (f a) (drop n s)) => [[]|].
Qed.

(* The bind lemma on probabilities: a call after another weighs each value
   of the first by the second's distribution, whatever bits either reads. *)
Theorem expect_bind A B (t : tree A) (f : A -> tree B) h :
  expect (bind t f) h = expect t (fun a => expect (f a) h).
Proof. by elim: t => [a|k IH] //=; rewrite !IH. Qed.

Section Expectation.
Variable A : Type.
Implicit Types (t : tree A) (h : A -> rat).

Lemma eq_expect t h1 h2 : h1 =1 h2 -> expect t h1 = expect t h2.
Proof. by move=> E; elim: t => [a|k IH] /=; rewrite ?E ?IH. Qed.

Lemma expect_const t c : expect t (fun _ => c) = c.
Proof.
by elim: t => [|k IH] //=; rewrite !IH -mulr2n -[_ *+ 2]mulr_natr mulfK // pnatr_eq0.
Qed.

Lemma expectD t h1 h2 : expect t (fun a => h1 a + h2 a) = expect t h1 + expect t h2.
Proof. by elim: t => [|k IH] //=; rewrite !IH -mulrDl addrACA. Qed.

Lemma expectZ t c h : expect t (fun a => c * h a) = c * expect t h.
Proof. by elim: t => [|k IH] //=; rewrite !IH -mulrDr mulrA. Qed.

Lemma expectB t h1 h2 : expect t (fun a => h1 a - h2 a) = expect t h1 - expect t h2.
Proof.
rewrite (@eq_expect t _ (fun a => h1 a + (-1) * h2 a)) => [|a]; last by rewrite mulN1r.
by rewrite expectD expectZ mulN1r.
Qed.

Lemma expect_ge0 t h : (forall a, 0 <= h a) -> 0 <= expect t h.
Proof.
move=> pos; elim: t => [|k IH] //=.
by rewrite divr_ge0 ?addr_ge0 ?ler0n.
Qed.

Lemma ler_expect t h1 h2 : (forall a, h1 a <= h2 a) -> expect t h1 <= expect t h2.
Proof.
move=> le; rewrite -subr_ge0 -expectB; apply: expect_ge0 => a.
by rewrite subr_ge0.
Qed.

Lemma prob_ge0 t E : 0 <= prob t E.
Proof. by apply: expect_ge0 => a; rewrite ler0n. Qed.

Lemma prob_le1 t E : prob t E <= 1.
Proof.
rewrite -(expect_const t 1); apply: ler_expect => a.
by case: (E a); rewrite ?ler01.
Qed.

(* The values a sampler can return. *)
Fixpoint outcomes t : seq A :=
  match t with
  | Ret a => [:: a]
  | Bit k => outcomes (k false) ++ outcomes (k true)
  end.


End Expectation.

Section Finite.
Variable A : eqType.
Implicit Types (t : tree A) (h : A -> rat).

Lemma expect_outcomes t h1 h2 :
  {in outcomes t, h1 =1 h2} -> expect t h1 = expect t h2.
Proof.
elim: t => [a|k IH] /= E; first by apply: E; rewrite mem_seq1.
by rewrite (IH false) ?(IH true) // => a X; apply: E; rewrite mem_cat X ?orbT.
Qed.

(* A sampler over finitely many values: its expectation is the sum over the
   values of each one's probability. *)
Theorem expect_sum t (S : seq A) h :
  uniq S -> {subset outcomes t <= S} ->
  expect t h = \sum_(a <- S) prob t (pred1 a) * h a.
Proof.
move=> uS; elim: t => [a|k IH] /= sub.
  rewrite /prob /= (bigD1_seq a) ?sub ?mem_seq1 //= eqxx mul1r big1 ?addr0 //.
  by move=> b; rewrite eq_sym => /negbTE ->; rewrite mul0r.
rewrite /prob /= (IH false) ?(IH true); first last.
- by move=> a X; apply: sub; rewrite mem_cat X.
- by move=> a X; apply: sub; rewrite mem_cat X orbT.
rewrite -big_split /= mulr_suml; apply: eq_bigr => a _.
by rewrite /prob -mulrDl mulrAC.
Qed.

Lemma prob_sum t (S : seq A) E :
  uniq S -> {subset outcomes t <= S} -> prob t E = \sum_(a <- S | E a) prob t (pred1 a).
Proof.
move=> uS sub; rewrite {1}/prob (expect_sum _ uS sub) [RHS]big_mkcond /=.
by apply: eq_bigr => a _; case: (E a); rewrite ?mulr1 ?mulr0.
Qed.

End Finite.

(* A coin's expectation: heads with prob t true, tails with the rest. *)
Lemma expect_bool (t : tree bool) h :
  expect t h = prob t id * h true + (1 - prob t id) * h false.
Proof.
rewrite (@eq_expect _ t _ (fun b => h true * b%:R + h false * (1 - b%:R))) => [|[]];
  rewrite ?subrr ?subr0 ?mulr0 ?mulr1 ?addr0 ?add0r //.
rewrite expectD !expectZ expectB expect_const /prob.
by rewrite [h true * _]mulrC [h false * _]mulrC.
Qed.

Lemma outcomes_bind (A B : eqType) (t : tree A) (f : A -> tree B) b :
  b \in outcomes (bind t f) -> exists2 a, a \in outcomes t & b \in outcomes (f a).
Proof.
elim: t => [a|k IH] /=; first by exists a; rewrite ?mem_seq1.
rewrite mem_cat => /orP [] /IH [a X Y]; exists a => //; rewrite mem_cat X ?orbT //.
Qed.
