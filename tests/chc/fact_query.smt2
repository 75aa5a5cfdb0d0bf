; A fact with no variable and a query in the not-exists form: unsatisfiable in two steps.
; RUN: tandem prove --json %s
; EXPECT: verdict=error
; EXPECT: exit=1
; CHC-COMP: unsat
(set-logic HORN)
(declare-fun p (Int) Bool)
(assert (p 3))
(assert (not (exists ((x Int)) (and (p x) (= (mod x 2) 1)))))
(check-sat)
