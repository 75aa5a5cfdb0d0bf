; A Bool argument that flips with every step of a counter bounded by 10 (xor, ite): the query
; needs x > 20. Satisfiable.
; RUN: tandem prove --json %s
; EXPECT: verdict=proved
; RUN: tandem check --json %s
; EXPECT: verdict=verified
; CHC-COMP: sat
(set-logic HORN)
(declare-fun p (Bool Int) Bool)
(assert (p false 0))
(assert (forall ((b Bool) (x Int))
  (=> (and (p b x) (< x 10)) (p (xor b true) (ite b (+ x 1) (+ 1 x))))))
(assert (forall ((b Bool) (x Int)) (=> (and (p b x) b (> x 20)) false)))
(check-sat)
