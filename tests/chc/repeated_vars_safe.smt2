; The same counters without the reachable query: `(p (+ y 1) y)` (first ahead of the second by
; one) never holds. Satisfiable.
; RUN: tandem prove --json %s
; EXPECT: verdict=proved
; CHC-COMP: sat
(set-logic HORN)
(declare-fun p (Int Int) Bool)
(assert (p 0 0))
(assert (forall ((x Int) (y Int)) (=> (and (p x y) (< x 5)) (p (+ x 1) (+ y 1)))))
(assert (forall ((y Int)) (=> (p (+ y 1) y) false)))
(check-sat)
