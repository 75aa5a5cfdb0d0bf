; An undeclared predicate: Z3's error, at the position Z3 gives.
; RUN: tandem prove --json %s
; EXPECT: verdict=input-error
; EXPECT: exit=2
; ERROR: syntax_error.smt2:9:61: error: unknown constant q (Int)
; CHC-COMP: unknown
(set-logic HORN)
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (and (p x) (< x 10)) (q (+ x 1)))))
(check-sat)
