; An uninterpreted function of Int (not a predicate).
; RUN: tandem prove --json %s
; EXPECT: verdict=input-error
; EXPECT: exit=2
; ERROR: function.smt2:10:1: error: the uninterpreted function 'f' (not a predicate) is not supported
; CHC-COMP: unknown
(set-logic HORN)
(declare-fun f (Int) Int)
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (= x (f 0)) (p x))))
(check-sat)
