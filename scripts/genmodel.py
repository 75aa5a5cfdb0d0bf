#!/usr/bin/env python3
"""A seeded random generator of well-typed Tandem models, for differential testing.

    scripts/genmodel.py --seed S --kind closed|open      prints one model on stdout

As a module: `generate(seed, kind) -> str`. The same seed and kind always give the same text.

Closed systems: 2-4 process instances (a process array `P[N]` with `pid` and process-local
variables, and single processes), sometimes rules, over bounded `int`s, `i32`, `bool`, an enum,
fixed arrays (indexed in and sometimes out of bounds), `await`, `atomic`, labels, `goto`, loops
and `invariant`s. Every `int` or `i32` variable has a small range that each assignment keeps:
it is assigned `(E) % M` (Euclidean on `int`, so in [0, M); truncating on `i32`, so in (-M, M)),
a constant in range, or, for loop counters, incremented under the loop guard only. So every
state space is finite and explicit `check` terminates; the generator also bounds a crude
estimate of its size so that each engine finishes in about a second.

Open programs: an entry `main` with `int`/`i32`/`bool` parameters and helper procedures with
calls (call steps, and pure helpers inside expressions), loops with constant bounds, arrays,
wrapping `i32` arithmetic, `assert`s, `assume`s and the built-in natives (`isqrt`, `gcd`,
`hash1`, `hash2`, `ipow`). They are deterministic (no `*`, no `havoc`) and every global has an
initialiser, so that a test's parameters alone fix its execution (`tandem run --args` replays it).

Every model is line-oriented (one statement per line, `{` at the end of a line, `}` starting
one) so that scripts/difftest can minimise it by deleting lines and blocks.
"""
import argparse
import random
import sys

CLOSED, OPEN = "closed", "open"
KINDS = (CLOSED, OPEN)

# Estimated state-space bound for closed systems (product of the variable ranges and the
# locations of every instance). It overestimates the reachable states by a large factor; the
# value is tuned so that explicit check stays around a second at most.
MAX_ESTIMATE = 3_000_000


class Var:
    """A variable the generator may read or write.

    kind: 'int' (values in [0, mod)), 'i32' (values in (-mod, mod)), 'bool', 'enum',
    'intarr' (length `length`, elements in [0, mod)), 'boolarr', 'counter' (a loop counter in
    [0, mod]: read-only except for the loop's own increment), 'unbounded' (an `int` that only
    grows from 0, as Bakery's tickets: the state space is infinite).
    """

    def __init__(self, name, kind, mod=None, length=None, writable=True, members=None):
        self.name = name
        self.kind = kind
        self.mod = mod
        self.length = length
        self.writable = writable
        self.members = members

    def values(self):
        """How many values the variable can hold (for the state-space estimate)."""
        if self.kind == "int":
            return self.mod
        if self.kind == "counter":
            return self.mod + 1
        if self.kind == "i32":
            return 2 * self.mod - 1
        if self.kind == "bool":
            return 2
        if self.kind == "enum":
            return len(self.members)
        if self.kind == "intarr":
            return self.mod ** self.length
        if self.kind == "boolarr":
            return 2 ** self.length
        return 1


class Scope:
    """What an expression may read: variables (with the text that names them), `pid`, labels."""

    def __init__(self, variables, pid_count=None, risky=False, locations=(), remote=()):
        self.variables = list(variables)  # (text, Var)
        self.pid_count = pid_count  # N inside `process P[N]`, else None
        self.risky = risky  # may the expression fail (division by zero, index out of bounds)?
        self.locations = list(locations)  # texts `P[0]@L` usable as bool atoms
        self.remote = list(remote)  # (text, Var) of other processes' locals (`P[1].v`)

    def of_kind(self, *kinds):
        return [(t, v) for t, v in self.variables + self.remote if v.kind in kinds]


# ---------------------------------------------------------------------------------------------
# Expressions over bounded variables (closed systems). Each returns the text of an expression.
# ---------------------------------------------------------------------------------------------


class ClosedExprs:
    def __init__(self, rng):
        self.rng = rng

    def int_atom(self, sc):
        r = self.rng
        choices = ["const"]
        if sc.of_kind("int", "counter", "unbounded"):
            choices += ["var"] * 4
        if sc.pid_count:
            choices += ["pid"] * 2
        if sc.of_kind("intarr"):
            choices += ["elem"] * 2
        if sc.of_kind("i32"):
            choices += ["conv"]
        c = r.choice(choices)
        if c == "var":
            return r.choice(sc.of_kind("int", "counter", "unbounded"))[0]
        if c == "pid":
            return "pid"
        if c == "elem":
            text, arr = r.choice(sc.of_kind("intarr"))
            return "%s[%s]" % (text, self.index(sc, arr.length, sc.risky and r.random() < 0.15))
        if c == "conv":
            return "int(%s)" % r.choice(sc.of_kind("i32"))[0]
        return str(r.randint(0, 4))

    def int_expr(self, sc, depth=2):
        r = self.rng
        if depth <= 0 or r.random() < 0.35:
            return self.int_atom(sc)
        a = self.int_expr(sc, depth - 1)
        b = self.int_expr(sc, depth - 1)
        op = r.choice(["+", "+", "-", "*c", "min", "max", "%c", "/c", "abs", "div"])
        if op in ("+", "-"):
            return "%s %s %s" % (a, op, b)
        if op == "*c":
            return "%s * %d" % (self.paren(a), r.randint(2, 3))
        if op in ("min", "max"):
            return "%s(%s, %s)" % (op, a, b)
        if op == "%c":
            return "%s %% %d" % (self.paren(a), r.randint(2, 4))
        if op == "/c":
            return "%s / %d" % (self.paren(a), r.randint(2, 3))
        if op == "abs":
            return "abs(%s - %s)" % (a, b)
        # A division by a variable: the error div-by-zero when the variable can be 0.
        if sc.risky and r.random() < 0.4 and sc.of_kind("int"):
            return "%s / %s" % (self.paren(a), r.choice(sc.of_kind("int"))[0])
        return "%s / %d" % (self.paren(a), r.randint(1, 3))

    def i32_expr(self, sc, depth=2):
        text, typed = self.i32_typed(sc, depth)
        # Only a literal adapts to an i32 operand; a compound of literals alone is an int.
        return text if typed or text.isdigit() else "i32(%s)" % text

    def i32_typed(self, sc, depth):
        """An i32 expression and whether it has an i32-typed operand."""
        r = self.rng
        vars32 = sc.of_kind("i32")
        if depth <= 0 or r.random() < 0.35:
            if vars32 and r.random() < 0.7:
                return r.choice(vars32)[0], True
            if r.random() < 0.3:
                return "i32(%s)" % self.int_atom(sc), True
            return str(r.randint(0, 6)), False
        a, ta = self.i32_typed(sc, depth - 1)
        b, tb = self.i32_typed(sc, depth - 1)
        op = r.choice(["+", "-", "*c", "neg", "%c", "big"])
        if op in ("+", "-"):
            return "%s %s %s" % (a, op, b), ta or tb
        if op == "*c":
            return "%s * %d" % (self.paren(a), r.choice([2, 3, 5, 65537])), ta
        if op == "neg":
            return "-%s" % self.paren(a), ta
        if op == "%c":
            return "%s %% %d" % (self.paren(a), r.randint(2, 5)), ta
        # wraps around: 2147483647 + 1 is -2147483648
        return "%s + 2147483647" % self.paren(a), ta

    def bool_atom(self, sc):
        r = self.rng
        choices = ["cmp"] * 4
        if sc.of_kind("bool"):
            choices += ["var"] * 3
        if sc.of_kind("boolarr"):
            choices += ["elem"] * 2
        if sc.of_kind("enum"):
            choices += ["enum"]
        if sc.of_kind("i32"):
            choices += ["cmp32"]
        if sc.locations:
            choices += ["loc"] * 2
        c = r.choice(choices)
        if c == "var":
            return r.choice(sc.of_kind("bool"))[0]
        if c == "elem":
            text, arr = r.choice(sc.of_kind("boolarr"))
            return "%s[%s]" % (text, self.index(sc, arr.length, sc.risky and r.random() < 0.15))
        if c == "enum":
            text, e = r.choice(sc.of_kind("enum"))
            return "%s %s %s" % (text, r.choice(["==", "!="]), r.choice(e.members))
        if c == "cmp32":
            return "%s %s %s" % (
                self.i32_expr(sc, 1), r.choice(["<", "<=", "==", "!=", ">"]), self.i32_expr(sc, 0))
        if c == "loc":
            return r.choice(sc.locations)
        return "%s %s %s" % (
            self.int_expr(sc, 1), r.choice(["<", "<=", "==", "!=", ">", ">="]), self.int_expr(sc, 1))

    def bool_expr(self, sc, depth=2):
        r = self.rng
        if depth <= 0 or r.random() < 0.4:
            return self.bool_atom(sc)
        op = r.choice(["&&", "||", "!", "==>", "?:"])
        a = self.bool_expr(sc, depth - 1)
        if op == "!":
            return "!(%s)" % a
        b = self.bool_expr(sc, depth - 1)
        if op == "?:":
            return "(%s ? %s : %s)" % (a, b, self.bool_expr(sc, depth - 1))
        return "(%s %s %s)" % (a, op, b)

    def index(self, sc, length, out_of_bounds):
        """An index into an array of `length` elements: in bounds unless `out_of_bounds`, in
        which case it may (not must) leave the array."""
        r = self.rng
        if out_of_bounds:
            options = [str(length)]
            big = [t for t, v in sc.of_kind("int") if v.mod > length]
            options += big
            if sc.pid_count:
                options.append("pid + %d" % (length - sc.pid_count + 1))
            return r.choice(options)
        options = [str(r.randrange(length))] * 2
        options += [t for t, v in sc.of_kind("int") if v.mod <= length]
        options += ["%s %% %d" % (self.paren(self.int_atom(sc)), length)]
        if sc.pid_count and sc.pid_count <= length:
            options += ["pid"] * 3
        return r.choice(options)

    @staticmethod
    def paren(text):
        return text if text.replace("_", "").isalnum() else "(%s)" % text


# ---------------------------------------------------------------------------------------------
# Closed systems
# ---------------------------------------------------------------------------------------------


class Process:
    def __init__(self, name, count):
        self.name = name
        self.count = count  # None for a single process
        self.locals = []  # Var
        self.lines = []
        self.labels = []  # top-level labels, in order
        self.steps = 0  # statements that take a step: locations, for the estimate

    def instances(self):
        if self.count is None:
            return [self.name]
        return ["%s[%d]" % (self.name, i) for i in range(self.count)]


class ClosedGen:
    def __init__(self, rng):
        self.rng = rng
        self.ex = ClosedExprs(rng)
        self.globals = []  # Var
        self.decls = []  # lines of the global declarations
        self.enum = None
        self.processes = []
        self.rules = []
        self.invariants = []
        self.counter = 0
        # A tame model has only properties that hold by construction (ranges) and no risky
        # division or index, so that about half the models are safe and `prove` has proofs to
        # find, not only errors.
        self.tame = rng.random() < 0.45

    def fresh(self, prefix):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    # -- declarations ---------------------------------------------------------------------

    def gen_globals(self):
        r = self.rng
        if r.random() < 0.3:
            self.enum = Var("mode", "enum", members=["Idle", "Busy", "Done"])
            self.decls.append("enum Mode { Idle, Busy, Done }")
        for _ in range(r.randint(1, 3)):
            v = Var(self.fresh("g"), "int", mod=r.randint(2, 4))
            self.globals.append(v)
            self.decls.append("var %s: int = %d;" % (v.name, r.randrange(v.mod)))
        for _ in range(r.randint(0, 2)):
            v = Var(self.fresh("b"), "bool")
            self.globals.append(v)
            if r.random() < 0.25:  # an input: check enumerates both values
                self.decls.append("var %s: bool;" % v.name)
            else:
                self.decls.append("var %s: bool = %s;" % (v.name, r.choice(["true", "false"])))
        if r.random() < 0.2:
            # an unbounded input constrained by `init`: check asks the solver for its models
            v = Var(self.fresh("t"), "int", mod=r.randint(2, 3))
            self.globals.append(v)
            self.decls.append("var %s: int;" % v.name)
            self.decls.append("init 0 <= %s && %s < %d;" % (v.name, v.name, v.mod))
        if self.enum:
            self.globals.append(self.enum)
            self.decls.append("var mode: Mode = %s;" % r.choice(self.enum.members))
        if r.random() < 0.5:
            v = Var(self.fresh("arr"), "intarr", mod=r.randint(2, 3), length=r.randint(2, 3))
            self.globals.append(v)
            self.decls.append("var %s: int[%d] = [%s];" % (
                v.name, v.length, ", ".join(str(r.randrange(v.mod)) for _ in range(v.length))))
        inputs = [v for v in self.globals if v.name.startswith("t")]
        arrs = [v for v in self.globals if v.kind == "intarr"]
        if inputs and arrs and not self.tame and r.random() < 0.5:
            # An initialiser that fails for some inputs `init` allows (index out of bounds), or
            # for none: each `init` is due as soon as its globals are set (LANGUAGE.md).
            a, t = arrs[0], inputs[0]
            v = Var(self.fresh("g"), "int", mod=a.mod)
            self.globals.append(v)
            self.decls.append("var %s: int = %s[%s];" % (v.name, a.name, t.name))
        if r.random() < 0.4:
            v = Var(self.fresh("flag"), "boolarr", length=r.randint(2, 4))
            self.globals.append(v)
            self.decls.append("var %s: bool[%d] = [%s];" % (
                v.name, v.length, ", ".join("false" for _ in range(v.length))))
        if r.random() < 0.3:
            v = Var(self.fresh("w"), "i32", mod=r.randint(3, 7))
            self.globals.append(v)
            self.decls.append("var %s: i32 = %d;" % (v.name, r.randrange(v.mod)))
        if r.random() < 0.15:
            # Explicit check cannot finish (scripts/difftest bounds it with --max-states), but
            # an error it finds still refutes a proof, and prove may still prove.
            v = Var(self.fresh("u"), "unbounded")
            self.globals.append(v)
            self.decls.append("var %s: int = 0;" % v.name)

    def gen_process_shapes(self):
        r = self.rng
        shapes = []
        if r.random() < 0.65:
            n = r.randint(2, 3)
            shapes.append(("P", n))
            for name in ["Q", "R"][: r.randint(0, 4 - n)]:
                shapes.append((name, None))
        else:
            for name in ["A", "B", "C"][: r.randint(2, 3)]:
                shapes.append((name, None))
        r.shuffle(shapes)
        return [Process(name, count) for name, count in shapes]

    # -- statements -----------------------------------------------------------------------

    def scope(self, proc, risky=True):
        vs = [(v.name, v) for v in self.globals] + [(v.name, v) for v in proc.locals]
        locs = []
        # A process may name the labels of itself and of the processes declared before it.
        for other in self.processes:
            if other is proc:
                break
            if other.labels and self.rng.random() < 0.3:
                locs.append("%s@%s" % (other.instances()[0], self.rng.choice(other.labels)))
        return Scope(vs, proc.count, risky=risky and not self.tame, locations=locs)

    def writable(self, sc):
        return [(t, v) for t, v in sc.variables if v.writable and v.kind != "counter"]

    def assignment(self, sc):
        """One assignment (or havoc) that keeps its target in range."""
        r, ex = self.rng, self.ex
        text, v = r.choice(self.writable(sc))
        if v.kind == "int":
            form = r.random()
            if form < 0.55:
                return "%s := (%s) %% %d;" % (text, ex.int_expr(sc), v.mod)
            if form < 0.75:
                return "%s := %d;" % (text, r.randrange(v.mod))
            return "%s := (%s + 1) %% %d;" % (text, text, v.mod)
        if v.kind == "i32":
            return "%s := (%s) %% %d;" % (text, ex.i32_expr(sc), v.mod)
        if v.kind == "unbounded":
            return "%s := %s + %d;" % (text, text, r.randint(1, 2))
        if v.kind == "bool":
            form = r.random()
            if form < 0.15:
                return "havoc %s;" % text
            if form < 0.25:
                return "%s := *;" % text
            return "%s := %s;" % (text, ex.bool_expr(sc, 1))
        if v.kind == "enum":
            form = r.random()
            if form < 0.2:
                return "havoc %s;" % text
            if form < 0.5:
                return "%s := %s ? %s : %s;" % (
                    text, ex.bool_atom(sc), r.choice(v.members), r.choice(v.members))
            return "%s := %s;" % (text, r.choice(v.members))
        if v.kind == "intarr":
            idx = ex.index(sc, v.length, sc.risky and r.random() < 0.2)
            return "%s[%s] := (%s) %% %d;" % (text, idx, ex.int_expr(sc, 1), v.mod)
        if v.kind == "boolarr":
            idx = ex.index(sc, v.length, sc.risky and r.random() < 0.2)
            return "%s[%s] := %s;" % (text, idx, ex.bool_expr(sc, 1))
        raise AssertionError(v.kind)

    def simple_block(self, proc, sc, ind, n):
        """`n` statements without labels, loops or gotos (the contents of `atomic`)."""
        out = []
        for _ in range(n):
            if self.rng.random() < 0.2:
                out.append(ind + "if (%s) {" % self.ex.bool_expr(sc, 1))
                out.append(ind + "  " + self.assignment(sc))
                out.append(ind + "}")
                proc.steps += 2
            else:
                out.append(ind + self.assignment(sc))
                proc.steps += 1
        return out

    def statement(self, proc, sc, ind, depth, jumps):
        """One statement (possibly a block) as lines. `jumps`: labels a `goto` may name."""
        r, ex = self.rng, self.ex
        kinds = ["assign"] * 6 + ["await"] * 2 + ["atomic"] * 2 + ["skip", "assert"]
        if depth > 0:
            kinds += ["if"] * 3 + ["while"]
        if jumps:
            kinds += ["goto"]
        k = r.choice(kinds)
        proc.steps += 1
        if k == "assign":
            return [ind + self.assignment(sc)]
        if k == "await":
            return [ind + "await %s;" % ex.bool_expr(sc, 1)]
        if k == "skip":
            return [ind + "skip;"]
        if k == "assert":
            return [ind + "assert %s;" % self.assertion(sc)]
        if k == "atomic":
            proc.steps -= 1
            return [ind + "atomic {"] + self.simple_block(proc, sc, ind + "  ", r.randint(1, 3)) + [
                ind + "}"]
        if k == "goto":
            targets = r.sample(jumps, min(len(jumps), r.randint(1, 2)))
            if len(targets) == 1:
                # a single-target goto is a jump (no step): guard it, so that it is one
                return [ind + "if (%s) {" % ex.bool_expr(sc, 1),
                        ind + "  goto %s;" % targets[0], ind + "}"]
            return [ind + "goto %s;" % ", ".join(targets)]
        if k == "if":
            cond = "*" if r.random() < 0.25 else ex.bool_expr(sc)
            out = [ind + "if (%s) {" % cond]
            out += self.block(proc, sc, ind + "  ", depth - 1, r.randint(1, 2), jumps)
            if r.random() < 0.5:
                out.append(ind + "} else {")
                out += self.block(proc, sc, ind + "  ", depth - 1, r.randint(1, 2), jumps)
            out.append(ind + "}")
            return out
        if k == "while":
            # A loop bounded by a process-local counter that only this loop increments.
            bound = r.randint(1, 3)
            c = Var(self.fresh("k"), "counter", mod=bound)
            proc.locals.append(c)
            inner = Scope(sc.variables + [(c.name, c)], sc.pid_count, sc.risky, sc.locations)
            out = [ind + "%s := 0;" % c.name, ind + "while (%s < %d) {" % (c.name, bound),
                   ind + "  %s := %s + 1;" % (c.name, c.name)]
            proc.steps += 2
            out += self.block(proc, inner, ind + "  ", depth - 1, r.randint(1, 2), [])
            if r.random() < 0.3:
                out += [ind + "  if (%s) {" % ex.bool_expr(inner, 1),
                        ind + "    %s;" % r.choice(["break", "continue"]), ind + "  }"]
                proc.steps += 1
            out.append(ind + "}")
            return out
        raise AssertionError(k)

    def block(self, proc, sc, ind, depth, n, jumps):
        out = []
        for _ in range(n):
            out += self.statement(proc, sc, ind, depth, jumps)
        return out

    def assertion(self, sc):
        """Mostly conditions that hold by construction (a variable within its range), sometimes
        an arbitrary one."""
        r = self.rng
        if self.tame or r.random() < 0.5:
            ranged = sc.of_kind("int")
            if ranged:
                text, v = r.choice(ranged)
                return "0 <= %s && %s < %d" % (text, text, v.mod)
            if self.tame:
                return "true"
        return self.ex.bool_expr(sc, 2)

    def gen_process(self, proc):
        r = self.rng
        header = "process %s%s {" % (proc.name, "[%d]" % proc.count if proc.count else "")
        lines = [header]
        for _ in range(r.randint(0, 2)):
            kind = r.choice(["int", "int", "bool"])
            v = Var(self.fresh("l"), kind, mod=r.randint(2, 3) if kind == "int" else None)
            proc.locals.append(v)
        arrs = [v for v in self.globals if v.kind == "intarr"]
        declared = set()
        if arrs and not self.tame and r.random() < 0.15:
            # A process-local initialiser that fails for some instances (index out of bounds):
            # an error of the initial state.
            a = r.choice(arrs)
            v = Var(self.fresh("l"), "int", mod=a.mod)
            proc.locals.append(v)
            declared.add(v.name)
            index = "pid + %d" % r.randint(0, 1) if proc.count else str(r.randint(0, a.length))
            lines.append("  var %s: int = %s[%s];" % (v.name, a.name, index))
        for v in proc.locals:
            if v.name in declared:
                continue
            if v.kind == "int":
                init = "pid %% %d" % v.mod if proc.count and r.random() < 0.5 else str(
                    r.randrange(v.mod))
                lines.append("  var %s: int = %s;" % (v.name, init))
            else:
                lines.append("  var %s: bool = %s;" % (v.name, r.choice(["true", "false"])))
        n = r.randint(2, 5)
        prefix = proc.name[0]
        proc.labels = ["%s%d" % (prefix, i) for i in range(n)]
        cyclic = r.random() < 0.7
        body = []
        for i in range(n):
            # loop counters declared by this statement are added to proc.locals as we go
            sc = self.scope(proc)
            stmt = self.statement(proc, sc, "  ", 2, proc.labels)
            first = stmt[0].lstrip()
            body.append("  %s: %s" % (proc.labels[i], first))
            body += stmt[1:]
        if cyclic:
            body.append("  goto %s;" % proc.labels[0])
        # declare the loop counters (created while generating the statements) at the top
        for v in proc.locals:
            if v.kind == "counter":
                lines.append("  var %s: int = 0;" % v.name)
        proc.lines = lines + body + ["}"]

    def gen_rules(self):
        r = self.rng
        if r.random() >= 0.12:
            return
        sc = Scope([(v.name, v) for v in self.globals], risky=False)
        for _ in range(r.randint(1, 2)):
            text, v = r.choice([(t, v) for t, v in self.writable(sc) if v.kind == "int"])
            self.rules.append("rule %s: %s -> %s := (%s) %% %d;" % (
                self.fresh("r"), self.ex.bool_expr(sc, 1), text, self.ex.int_expr(sc, 1), v.mod))

    def gen_invariants(self):
        r = self.rng
        variables = [(v.name, v) for v in self.globals]
        remote, locs = [], []
        for p in self.processes:
            for inst in p.instances():
                remote += [("%s.%s" % (inst, v.name), v) for v in p.locals if v.kind != "counter"]
                locs += ["%s@%s" % (inst, lab) for lab in p.labels]
        # Invariants must not fail by themselves (engines treat errors inside an invariant's
        # expression differently by design): no risky division or index.
        sc = Scope(variables, risky=False, locations=locs, remote=remote)
        for _ in range(r.randint(1, 3)):
            name = self.fresh("inv")
            form = 0.0 if self.tame else r.random()
            if form < 0.15 and sc.of_kind("unbounded"):
                expr = "%s >= 0" % r.choice(sc.of_kind("unbounded"))[0]
            elif form < 0.35 and sc.of_kind("int"):
                text, v = r.choice(sc.of_kind("int"))
                expr = "0 <= %s && %s < %d" % (text, text, v.mod)
            elif self.tame:
                expr = "true"
            elif form < 0.55 and len(locs) >= 2:
                a, b = r.sample(locs, 2)
                expr = "!(%s && %s)" % (a, b)
            elif form < 0.75 and locs:
                expr = "%s ==> %s" % (r.choice(locs), self.ex.bool_expr(sc, 1))
            else:
                expr = self.ex.bool_expr(sc, 2)
            self.invariants.append("invariant %s: %s;" % (name, expr))

    def estimate(self):
        total = 1
        for v in self.globals:
            total *= v.values()
        for p in self.processes:
            per = p.steps + 1
            for v in p.locals:
                per *= v.values()
            total *= per ** len(p.instances())
        return total

    def build(self):
        self.gen_globals()
        self.processes = self.gen_process_shapes()
        for p in self.processes:
            self.gen_process(p)
        self.gen_rules()
        self.gen_invariants()
        out = ["// genmodel closed"] + self.decls + [""]
        for p in self.processes:
            out += p.lines + [""]
        out += self.rules + self.invariants
        return "\n".join(out) + "\n"


def generate_closed(seed):
    # Try derived seeds until the estimate is small enough (deterministic in `seed`).
    for attempt in range(100):
        g = ClosedGen(random.Random("closed-%d-%d" % (seed, attempt)))
        text = g.build()
        if g.estimate() <= MAX_ESTIMATE:
            return text
    return text


# ---------------------------------------------------------------------------------------------
# Open programs
# ---------------------------------------------------------------------------------------------

SMALL_TYPES = ["int", "int", "i32", "bool"]


class Proc:
    def __init__(self, name, params, result, pure):
        self.name = name
        self.params = params  # [(name, type)]
        self.result = result  # type or None
        self.pure = pure  # assigns no global and calls only pure procedures


class OpenGen:
    def __init__(self, rng):
        self.rng = rng
        self.counter = 0
        self.globals = []  # (name, type, length or None)
        self.decls = []
        self.procs = []
        self.labels = 0
        self.use_natives = rng.random() < 0.5
        self.use_expr_calls = rng.random() < 0.3
        self.use_old = rng.random() < 0.1

    def fresh(self, prefix):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    def label(self):
        self.labels += 1
        return "L%d" % self.labels

    def gen_globals(self):
        r = self.rng
        for _ in range(r.randint(0, 2)):
            t = r.choice(SMALL_TYPES)
            name = self.fresh("G")
            self.globals.append((name, t, None))
            self.decls.append("var %s: %s = %s;" % (name, t, self.const(t)))
        if r.random() < 0.4:
            name, n = self.fresh("GA"), r.randint(2, 4)
            self.globals.append((name, "int", n))
            self.decls.append("var %s: int[%d] = [%s];" % (
                name, n, ", ".join(str(r.randint(-3, 9)) for _ in range(n))))
            if r.random() < 0.15:  # a global initialiser that fails when the index is n
                g = self.fresh("G")
                self.globals.append((g, "int", None))
                self.decls.append("var %s: int = %s[%d];" % (g, name, r.randint(0, n)))

    def const(self, t):
        r = self.rng
        if t == "bool":
            return r.choice(["true", "false"])
        if t == "i32" and r.random() < 0.1:
            return r.choice(["2147483647", "-2147483648", "-1"])
        return str(r.randint(-5, 12)) if r.random() < 0.3 else str(r.randint(0, 9))

    # -- expressions ----------------------------------------------------------------------
    # env: dict name -> (type, length or None, writable)

    def names(self, env, t, arrays=False):
        return [n for n, (ty, ln, _) in env.items() if ty == t and (ln is not None) == arrays]

    def int_atom(self, env):
        r = self.rng
        choices = ["const"]
        if self.names(env, "int"):
            choices += ["var"] * 5
        if self.names(env, "int", arrays=True):
            choices += ["elem"] * 2
        if self.names(env, "i32"):
            choices += ["conv"]
        c = r.choice(choices)
        if c == "var":
            return r.choice(self.names(env, "int"))
        if c == "elem":
            a = r.choice(self.names(env, "int", arrays=True))
            return "%s[%s]" % (a, self.index(env, env[a][1]))
        if c == "conv":
            return "int(%s)" % r.choice(self.names(env, "i32"))
        return str(r.randint(0, 10))

    def int_expr(self, env, depth=2):
        r = self.rng
        if depth <= 0 or r.random() < 0.3:
            return self.int_atom(env)
        a = self.int_expr(env, depth - 1)
        b = self.int_expr(env, depth - 1)
        ops = ["+", "+", "-", "*c", "*", "/", "%c", "min", "max", "abs", "call"]
        if self.use_natives:
            ops += ["native"] * 2
        op = r.choice(ops)
        if op in ("+", "-"):
            return "%s %s %s" % (a, op, b)
        if op == "*c":
            return "%s * %d" % (self.paren(a), r.randint(2, 5))
        if op == "*":  # non-linear
            return "%s * %s" % (self.paren(a), self.paren(b))
        if op == "/":  # div-by-zero when b can be 0
            return "%s %s %s" % (self.paren(a), r.choice(["/", "%"]), self.paren(b))
        if op == "%c":
            return "%s %% %d" % (self.paren(a), r.randint(2, 7))
        if op in ("min", "max"):
            return "%s(%s, %s)" % (op, a, b)
        if op == "abs":
            return "abs(%s)" % a
        if op == "call":
            call = self.expr_call(env, "int")
            return call if call else a
        f = r.choice(["isqrt", "gcd", "hash1", "hash2", "ipow"])
        if f == "isqrt":
            return "isqrt(abs(%s))" % a  # isqrt is undefined below 0
        if f == "gcd":
            return "gcd(%s, %s)" % (a, b)
        if f == "ipow":
            return "ipow(%s, %d)" % (a, r.randint(0, 3))
        return "%s(%s) %% %d" % (f, a, r.randint(2, 9))

    def i32_expr(self, env, depth=2):
        text, typed = self.i32_typed(env, depth)
        # Only a literal (or a negated one) adapts to an i32 operand (docs/language.md); a
        # compound of literals alone, such as `5 * 7` or `abs(0)`, is an int and is converted.
        return text if typed or text.lstrip("-").isdigit() else "i32(%s)" % text

    def i32_typed(self, env, depth):
        """An i32 expression and whether it has an i32-typed operand."""
        r = self.rng
        if depth <= 0 or r.random() < 0.3:
            vs = self.names(env, "i32")
            if vs and r.random() < 0.75:
                return r.choice(vs), True
            if r.random() < 0.3:
                return "i32(%s)" % self.int_atom(env), True
            return (str(r.randint(0, 9)) if r.random() < 0.9 else "2147483647"), False
        a, ta = self.i32_typed(env, depth - 1)
        b, tb = self.i32_typed(env, depth - 1)
        op = r.choice(["+", "-", "*", "*c", "neg", "/", "%c", "abs", "call"])
        if op in ("+", "-"):
            return "%s %s %s" % (a, op, b), ta or tb
        if op == "*":
            return "%s * %s" % (self.paren(a), self.paren(b)), ta or tb
        if op == "*c":
            return "%s * %d" % (self.paren(a), r.choice([3, 1000, 65536, 1103515245])), ta
        if op == "neg":
            return "-%s" % self.paren(a), ta
        if op == "/":
            return "%s %s %s" % (self.paren(a), r.choice(["/", "%"]), self.paren(b)), ta or tb
        if op == "%c":
            return "%s %% %d" % (self.paren(a), r.randint(2, 9)), ta
        if op == "abs":
            return "abs(%s)" % a, ta
        call = self.expr_call(env, "i32")
        return (call, True) if call else (a, ta)

    def bool_expr(self, env, depth=2):
        r = self.rng
        if depth <= 0 or r.random() < 0.35:
            choices = ["cmp"] * 4
            if self.names(env, "bool"):
                choices += ["var"] * 2
            if self.names(env, "i32"):
                choices += ["cmp32"] * 2
            c = r.choice(choices)
            if c == "var":
                return r.choice(self.names(env, "bool"))
            if c == "cmp32":
                return "%s %s %s" % (self.i32_expr(env, 1), r.choice(["<", "<=", "==", "!=", ">"]),
                                     self.i32_expr(env, 1))
            return "%s %s %s" % (self.int_expr(env, 1), r.choice(["<", "<=", "==", "!=", ">", ">="]),
                                 self.int_expr(env, 1))
        op = r.choice(["&&", "||", "!", "==>"])
        a = self.bool_expr(env, depth - 1)
        if op == "!":
            return "!(%s)" % a
        return "(%s %s %s)" % (a, op, self.bool_expr(env, depth - 1))

    def expr(self, env, t, depth=2):
        if t == "int":
            return self.int_expr(env, depth)
        if t == "i32":
            return self.i32_expr(env, depth)
        return self.bool_expr(env, depth)

    def index(self, env, length):
        r = self.rng
        form = r.random()
        if form < 0.4:
            return str(r.randrange(length))
        ints = self.names(env, "int")
        if not ints:
            return str(r.randrange(length))
        v = r.choice(ints)
        if form < 0.7:
            return "%s %% %d" % (v, length)  # Euclidean: always in bounds
        return v  # in bounds only where the path says so

    def expr_call(self, env, t):
        """A call of a pure procedure inside an expression, or None."""
        if not self.use_expr_calls:
            return None
        cands = [p for p in self.procs if p.pure and p.result == t]
        if not cands:
            return None
        p = self.rng.choice(cands)
        return "%s(%s)" % (p.name, ", ".join(self.expr(env, ty, 0) for _, ty in p.params))

    @staticmethod
    def paren(text):
        return text if text.replace("_", "").isalnum() else "(%s)" % text

    # -- statements -----------------------------------------------------------------------

    def targets(self, env):
        return [n for n, (ty, ln, w) in env.items() if w]

    def assignment(self, env):
        r = self.rng
        name = r.choice(self.targets(env))
        ty, ln, _ = env[name]
        if ln is not None:
            return "%s[%s] := %s;" % (name, self.index(env, ln), self.expr(env, ty))
        return "%s := %s;" % (name, self.expr(env, ty))

    def call_stmt(self, proc, env):
        r = self.rng
        cands = [p for p in self.procs if not proc.pure or p.pure]
        if not cands:
            return None
        p = r.choice(cands)
        args = ", ".join(self.expr(env, ty, 1) for _, ty in p.params)
        if p.result:
            dests = [n for n in self.targets(env)
                     if env[n][0] == p.result and env[n][1] is None]
            if dests and r.random() < 0.8:
                return "%s := %s(%s);" % (r.choice(dests), p.name, args)
        return "call %s(%s);" % (p.name, args)

    def statement(self, proc, env, ind, depth, later_labels):
        r = self.rng
        kinds = ["assign"] * 6 + ["assert"] * 2 + ["label"] + ["call"] * 2
        if depth > 0:
            kinds += ["if"] * 3 + ["while"]
        if later_labels:
            kinds.append("goto")
        if proc.result:
            kinds.append("return")
        k = r.choice(kinds)
        if k == "assign":
            return [ind + self.assignment(env)]
        if k == "assert":
            return [ind + "assert %s;" % self.bool_expr(env)]
        if k == "label":
            return [ind + "%s: skip;" % self.label()]
        if k == "call":
            s = self.call_stmt(proc, env)
            return [ind + (s or self.assignment(env))]
        if k == "return":
            return [ind + "if (%s) {" % self.bool_expr(env, 1),
                    ind + "  return %s;" % self.expr(env, proc.result), ind + "}"]
        if k == "goto":
            return [ind + "if (%s) {" % self.bool_expr(env, 1),
                    ind + "  goto %s;" % r.choice(later_labels), ind + "}"]
        if k == "if":
            out = [ind + "if (%s) {" % self.bool_expr(env)]
            out += self.block(proc, env, ind + "  ", depth - 1, r.randint(1, 2), [])
            if r.random() < 0.5:
                out.append(ind + "} else {")
                out += self.block(proc, env, ind + "  ", depth - 1, r.randint(1, 2), [])
            out.append(ind + "}")
            return out
        if k == "while":
            c = self.fresh("i")
            proc.counters.append(c)
            bound = r.randint(1, 3)
            inner = dict(env)
            inner[c] = ("int", None, False)
            out = [ind + "%s := 0;" % c, ind + "while (%s < %d) {" % (c, bound),
                   ind + "  %s := %s + 1;" % (c, c)]
            out += self.block(proc, inner, ind + "  ", depth - 1, r.randint(1, 2), [])
            if r.random() < 0.25:
                out += [ind + "  if (%s) {" % self.bool_expr(inner, 1),
                        ind + "    %s;" % r.choice(["break", "continue"]), ind + "  }"]
            out.append(ind + "}")
            return out
        raise AssertionError(k)

    def block(self, proc, env, ind, depth, n, later_labels):
        out = []
        for _ in range(n):
            out += self.statement(proc, env, ind, depth, later_labels)
        return out

    def gen_proc(self, name, nparams, result, pure, entry):
        r = self.rng
        params = [(self.fresh("p"), r.choice(SMALL_TYPES)) for _ in range(nparams)]
        proc = Proc(name, params, result, pure)
        proc.counters = []
        env = {}
        for g, t, ln in self.globals:
            env[g] = (t, ln, not pure)
        for p, t in params:
            env[p] = (t, None, True)
        sig = ", ".join("%s: %s" % (p, t) for p, t in params)
        head = "proc %s(%s)%s {" % (name, sig, ": %s" % result if result else "")
        decls = []
        for _ in range(r.randint(0, 2)):
            t = r.choice(SMALL_TYPES)
            v = self.fresh("v")
            env[v] = (t, None, True)
            decls.append("  var %s: %s = %s;" % (v, t, self.const(t)))
        if r.random() < 0.4:
            v, n = self.fresh("a"), r.randint(2, 4)
            env[v] = ("int", n, True)
            decls.append("  var %s: int[%d] = [%s];" % (
                v, n, ", ".join(str(r.randint(-2, 6)) for _ in range(n))))
        arrays = [(n, ln) for n, (t, ln, _) in env.items() if t == "int" and ln is not None]
        if r.random() < 0.25 and self.names(env, "int"):
            # An initialiser that fails for some inputs (index out of bounds, division by zero):
            # on entry, without a step, an error all the same (LANGUAGE.md).
            v = self.fresh("v")
            if arrays and r.random() < 0.6:
                a, _ = r.choice(arrays)
                decls.append("  var %s: int = %s[%s];" % (v, a, self.int_expr(env, 1)))
            else:
                decls.append("  var %s: int = %d / (%s);" % (v, r.randint(1, 9),
                                                             self.int_expr(env, 1)))
            env[v] = ("int", None, True)
        body = []
        if entry and params and r.random() < 0.3:
            body.append("  assume %s;" % self.bool_expr(env, 1))
        n = r.randint(2, 5)
        # Labels of top-level statements, so that a forward goto has somewhere to go.
        top_labels = [self.label() if r.random() < 0.3 else None for _ in range(n)]
        for i in range(n):
            later = [lab for lab in top_labels[i + 1:] if lab]
            stmt = self.statement(proc, env, "  ", 2, later)
            if top_labels[i]:
                stmt[0] = "  %s: %s" % (top_labels[i], stmt[0].lstrip())
            body += stmt
        if self.use_old and not pure and self.globals and r.random() < 0.5:
            g, t, ln = r.choice(self.globals)
            if ln is None:
                op = r.choice(["==", "==", "<=", ">="] if t != "bool" else ["=="])
                body.append("  assert %s %s old(%s) || %s;" % (g, op, g, self.bool_expr(env, 0)))
        if result:
            body.append("  return %s;" % self.expr(env, result))
        counters = ["  var %s: int = 0;" % c for c in proc.counters]
        self.procs.append(proc)
        return [head] + decls + counters + body + ["}", ""]

    def build(self):
        r = self.rng
        self.gen_globals()
        out = ["// genmodel open"] + self.decls + [""]
        for _ in range(r.randint(0, 2)):
            result = r.choice([None, "int", "int", "i32", "bool"])
            pure = r.random() < 0.5
            out += self.gen_proc(self.fresh("h"), r.randint(1, 3), result, pure, False)
        out += self.gen_proc("main", r.randint(1, 3), None, False, True)
        return "\n".join(out).rstrip() + "\n"


def generate_open(seed):
    return OpenGen(random.Random("open-%d" % seed)).build()


def generate(seed, kind):
    """The model text for `seed` and `kind` ('closed' or 'open')."""
    if kind == CLOSED:
        return generate_closed(seed)
    if kind == OPEN:
        return generate_open(seed)
    raise ValueError("kind must be 'closed' or 'open', not %r" % kind)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Print one random well-typed Tandem model.")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--kind", choices=KINDS, required=True)
    args = ap.parse_args(argv)
    sys.stdout.write(generate(args.seed, args.kind))
    return 0


if __name__ == "__main__":
    sys.exit(main())
