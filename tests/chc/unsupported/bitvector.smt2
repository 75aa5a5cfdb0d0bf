; A bit-vector term inside an Int clause.
; RUN: tandem prove --json %s
; EXPECT: verdict=input-error
; EXPECT: exit=2
; ERROR: bitvector.smt2:9:1: error: a numeral of sort (_ BitVec 8) is not supported
; CHC-COMP: unknown
(set-logic HORN)
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (= x (bv2int #x05)) (p x))))
(check-sat)
