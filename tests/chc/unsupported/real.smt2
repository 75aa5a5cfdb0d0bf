; A predicate over Real.
; RUN: tandem prove --json %s
; EXPECT: verdict=input-error
; EXPECT: exit=2
; ERROR: real.smt2:9:1: error: variable 'x' of sort Real is not supported (only Int and Bool)
; CHC-COMP: unknown
(set-logic HORN)
(declare-fun p (Real) Bool)
(assert (forall ((x Real)) (=> (= x 0.5) (p x))))
(assert (forall ((x Real)) (=> (and (p x) (> x 1.0)) false)))
(check-sat)
