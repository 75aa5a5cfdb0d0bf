; A counter from 0 while below 10: it never exceeds 10 (the clauses are satisfiable).
; RUN: tandem prove --json %s
; EXPECT: verdict=proved
; EXPECT: exit=0
; RUN: tandem check --json %s
; EXPECT: verdict=verified
; CHC-COMP: sat
(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (< x 10) (= y (+ x 1))) (inv y))))
(assert (forall ((x Int)) (=> (and (inv x) (> x 10)) false)))
(check-sat)
