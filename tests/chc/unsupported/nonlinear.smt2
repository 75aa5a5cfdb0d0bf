; Two predicates in one body: a nonlinear clause.
; RUN: tandem prove --json %s
; EXPECT: verdict=input-error
; EXPECT: exit=2
; ERROR: nonlinear.smt2:13:1: error: a clause with 2 predicates in its body (a nonlinear Horn clause) is not supported
; CHC-COMP: unknown
(set-logic HORN)
(declare-fun p (Int) Bool)
(declare-fun q (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (p x))))
(assert (forall ((x Int)) (=> (= x 1) (q x))))
; the nonlinear clause:
(assert (forall ((x Int) (y Int)) (=> (and (p x) (q y) (> x y)) false)))
(check-sat)
