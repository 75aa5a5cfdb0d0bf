; Facts and no query (also a 0-ary predicate and a fact without variables): satisfiable.
; RUN: tandem prove --json %s
; EXPECT: verdict=proved
; CHC-COMP: sat
(set-logic HORN)
(declare-fun p (Int Bool) Bool)
(declare-fun done () Bool)
(assert (forall ((x Int)) (=> (> x 0) (p x true))))
(assert (p 0 false))
(assert (=> (p 0 false) done))
(check-sat)
