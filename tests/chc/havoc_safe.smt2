; A fact with a nondeterministic start (x > 5, havocked) and an unbounded loop: x stays above
; 5. Satisfiable.
; RUN: tandem prove --json %s
; EXPECT: verdict=proved
; CHC-COMP: sat
(set-logic HORN)
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (> x 5) (p x))))
(assert (forall ((x Int) (y Int)) (=> (and (p x) (> y x)) (p y))))
(assert (forall ((x Int)) (=> (and (p x) (< x 5)) false)))
(check-sat)
