; An existential quantifier under the universal one.
; RUN: tandem prove --json %s
; EXPECT: verdict=input-error
; EXPECT: exit=2
; ERROR: alternation.smt2:9:1: error: an existential quantifier here (quantifier alternation) is not supported
; CHC-COMP: unknown
(set-logic HORN)
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (> x 0) (exists ((y Int)) (and (p y) (< y x))))))
(check-sat)
