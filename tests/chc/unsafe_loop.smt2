; The query is reached through the loop, after ten steps (x = 10): unsatisfiable.
; RUN: tandem prove --json %s
; EXPECT: verdict=error
; EXPECT: error.kind=assert
; EXPECT: exit=1
; RUN: tandem check --json %s
; EXPECT: verdict=error
; CHC-COMP: unsat
(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (< x 10) (= y (+ x 1))) (inv y))))
(assert (forall ((x Int)) (=> (and (inv x) (>= x 10)) false)))
(check-sat)
