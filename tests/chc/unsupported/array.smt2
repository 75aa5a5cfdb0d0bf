; An array variable.
; RUN: tandem prove --json %s
; EXPECT: verdict=input-error
; EXPECT: exit=2
; ERROR: array.smt2:9:1: error: variable 'a' of sort (Array Int Int) is not supported (only Int and Bool)
; CHC-COMP: unknown
(set-logic HORN)
(declare-fun p (Int) Bool)
(assert (forall ((a (Array Int Int))) (=> (= (select a 0) 1) (p (select a 0)))))
(check-sat)
