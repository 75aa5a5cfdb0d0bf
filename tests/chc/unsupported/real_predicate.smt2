; A predicate over Real, used with a constant only.
; RUN: tandem prove --json %s
; EXPECT: verdict=input-error
; EXPECT: exit=2
; ERROR: real_predicate.smt2:8:1: error: predicate 'p' has an argument of sort Real: only Int and Bool are supported
; CHC-COMP: unknown
(set-logic HORN)
(declare-fun p (Real) Bool)
(assert (p 1.5))
(check-sat)
