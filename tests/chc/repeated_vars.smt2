; Repeated variables and terms in the body's atom: `(p x x)` binds both arguments to one
; variable (an equality in the guard), `(p (+ y 1) y)` solves y. The arguments stay equal, so
; the first query is reachable (unsatisfiable).
; RUN: tandem prove --json %s
; EXPECT: verdict=error
; CHC-COMP: unsat
(set-logic HORN)
(declare-fun p (Int Int) Bool)
(assert (p 0 0))
(assert (forall ((x Int) (y Int)) (=> (and (p x y) (< x 5)) (p (+ x 1) (+ y 1)))))
(assert (forall ((x Int)) (=> (and (p x x) (= x 4)) false)))
(assert (forall ((y Int)) (=> (p (+ y 1) y) false)))
(check-sat)
