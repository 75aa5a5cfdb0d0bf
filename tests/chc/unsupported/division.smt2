; div by a variable (SMT-LIB leaves division by zero unspecified; the IR makes it an error).
; RUN: tandem prove --json %s
; EXPECT: verdict=input-error
; EXPECT: exit=2
; ERROR: division.smt2:9:1: error: div by a non-constant or zero is not supported
; CHC-COMP: unknown
(set-logic HORN)
(declare-fun p (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (= x (div 10 y)) (p x y))))
(check-sat)
