; A Bool argument that alternates with the counter's parity; the query needs both. Unsafe:
; b holds with x = 3 after three steps.
; RUN: tandem prove --json %s
; EXPECT: verdict=error
; RUN: tandem check --json %s
; EXPECT: verdict=error
; CHC-COMP: unsat
(set-logic HORN)
(declare-fun p (Bool Int) Bool)
(assert (p false 0))
(assert (forall ((b Bool) (c Bool) (x Int))
  (=> (and (p b x) (< x 5) (= c (not b))) (p c (+ x 1)))))
(assert (forall ((b Bool) (x Int)) (=> (and (p b x) b (= x 3)) false)))
(check-sat)
