; x = 7 is derivable, but only through a havocked value (x > 5) that concrete execution cannot
; choose: prove finds the error from a fabricated state and says potential-error (CHC-COMP's
; unknown), never proved.
; RUN: tandem prove --json %s
; EXPECT: verdict=potential-error
; EXPECT: exit=3
; CHC-COMP: unknown
(set-logic HORN)
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (> x 5) (p x))))
(assert (forall ((x Int)) (=> (and (p x) (= x 7)) false)))
(check-sat)
