#!/usr/bin/env python3
"""dve2pml.py: translate a BEEM/DiVinE DVE model into Promela with the same state graph.

Usage: python3 bench/dve2pml.py MODEL.dve [--encoding auto|procs|global] > model.pml

A measurement aid for bench/beem_vs_spin.py, not part of Tandem. Python 3 standard library only.
SPIN's "states, stored" (pan -DSAFETY -DNOREDUCE) equals the number of reachable DVE states,
and pan's stored+matched-1 the number of DVE transitions (arcs, duplicates included).

What it reads: `byte`/`int` variables and one-dimensional arrays (global and process-local,
with initialisers), `const` declarations, `channel` declarations (untyped `channel a, b;`, or
typed `channel {byte,int} c[N];` with a buffer of N messages, N = 0 meaning rendezvous),
processes with `state`, `init` and `trans` (guard, sync, effect), expressions with
`and or not true false`, C operators, `P.s` (process P is in state s) and `P->v` (P's local v),
and `system async;`. Refused with a message: `system sync`, `commit`, property processes
(`accept`, `system ... property`), `imply`.

The encoding:

* Names. Every DVE name gets a prefix, so that no DVE identifier clashes with a Promela
  keyword or a pan.c identifier: global `x` -> `g_x`, local `x` of process P -> `l_P_x`, the
  state of P -> `s_P` (its states numbered in declaration order), constants are inlined.
* Types. DVE `byte` (0..255) -> Promela `byte`; DVE `int` (DiVinE: 16-bit signed) ->
  Promela `short`. Promela stores an assignment's value truncated to the variable's type, as
  DiVinE does, so `b = 300` stores 44 in both; expressions are evaluated in C `int`.
  Array initialisers use SPIN 6's `byte a[3] = {1, 2, 3}` (no `init` process, no extra state).
* Steps. Every DVE transition is one `d_step { guard -> effects; state := target }`. A d_step
  is one indivisible transition in pan, so one DVE transition is one pan transition and no
  intermediate states exist.
* `procs` encoding (the default without channels and cross-process references): each DVE
  process is an `active proctype` with its locals and its state variable, its body one
  `do` loop of its d_steps. Its program counter never changes (it stays at the `do`).
* `global` encoding (the default when the model has channels or `P.s` / `P->v`): every
  variable and every state variable is global, and one `active proctype` holds one `do`
  loop with every step of the system:
  - a transition without sync: `s_P == from && guard -> effects; s_P = to`;
  - a rendezvous (untyped channel, or typed with N = 0): one d_step for every PAIR of a
    sending transition of process P and a receiving transition of another process Q on the
    same channel, as DiVinE/BEEM define it: both guards hold (the receiver's guard does not
    see the message); the values sent are computed in the pre-state into `hidden`
    temporaries; then the sender's effects run; then the receiver's targets get the values
    (in order; an array index is evaluated at that point; stores truncate to the target's
    type), then the receiver's effects; both processes move. An untyped channel carries as
    many values as its syncs use (`c!`, `c!e`, `c!{e1,e2}`; all uses must agree); a typed
    channel truncates each value to its field type first.
  - a buffered channel `channel {T1,..} c[N]`, N > 0: a FIFO in globals, one array per field
    `c_c_f<i>[N]` and a length `c_c_len`. A send is enabled when the buffer is not full:
    it appends the values (computed in the pre-state) and then runs the sender's effects; a
    receive is enabled when it is not empty: it stores the first message into the targets,
    shifts the buffer down, clears the freed slot to 0 (so that equal DVE states are equal
    Promela states), then runs its effects.
  `hidden` variables are not part of pan's state vector, so the temporaries add no state.
"""
import argparse
import re
import sys

KEYWORDS = {"byte", "int", "const", "channel", "process", "state", "init", "trans", "guard",
            "effect", "sync", "system", "async", "property", "commit", "accept", "assert",
            "and", "or", "not", "true", "false", "imply"}


class DveError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# lexer

TOKEN_RE = re.compile(r"""
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<num>\d+)
  | (?P<id>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<op>->|==|!=|<=|>=|<<|>>|&&|\|\||[{}\[\]();,.=<>+\-*/%&|^~!?])
""", re.S | re.X)


def tokenize(text):
    toks, pos, line = [], 0, 1
    while pos < len(text):
        m = TOKEN_RE.match(text, pos)
        if not m:
            raise DveError(f"line {line}: unexpected character {text[pos]!r}")
        pos = m.end()
        if m.lastgroup != "ws":
            toks.append((m.lastgroup, m.group(m.lastgroup), line))
        line += m.group(0).count("\n")
    toks.append(("eof", "", line))
    return toks


# ---------------------------------------------------------------------------------------------
# expressions: ("num", v) ("name", n) ("index", n, e) ("member", proc, name, arrow)
#              ("un", op, e) ("bin", op, a, b)

BINARY = [  # loosest first; all left-associative; DVE's precedence is C's
    {"||": "||", "or": "||"}, {"&&": "&&", "and": "&&"}, {"|": "|"}, {"^": "^"}, {"&": "&"},
    {"==": "==", "!=": "!="}, {"<": "<", "<=": "<=", ">": ">", ">=": ">="},
    {"<<": "<<", ">>": ">>"}, {"+": "+", "-": "-"}, {"*": "*", "/": "/", "%": "%"},
]


class Parser:
    def __init__(self, text):
        self.toks = tokenize(text)
        self.i = 0
        self.proc_names = set()

    # -- token helpers
    def peek(self, k=0):
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def at(self, *vals):
        return self.peek()[1] in vals and self.peek()[0] != "eof"

    def next(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def fail(self, msg):
        raise DveError(f"line {self.peek()[2]}: {msg} (at {self.peek()[1]!r})")

    def expect(self, val):
        if not self.at(val):
            self.fail(f"expected {val!r}")
        return self.next()

    def ident(self):
        t = self.peek()
        if t[0] != "id" or t[1] in KEYWORDS:
            self.fail("expected a name")
        return self.next()[1]

    # -- expressions
    def expr(self, level=0):
        if level == len(BINARY):
            return self.unary()
        e = self.expr(level + 1)
        while self.peek()[0] in ("op", "id") and self.peek()[1] in BINARY[level]:
            op = BINARY[level][self.next()[1]]
            e = ("bin", op, e, self.expr(level + 1))
        if level == 0 and self.at("imply"):
            self.fail("'imply' is not supported")
        return e

    def unary(self):
        if self.at("-", "~", "!", "not"):
            op = self.next()[1]
            return ("un", "!" if op == "not" else op, self.unary())
        return self.primary()

    def primary(self):
        t = self.peek()
        if t[0] == "num":
            self.next()
            return ("num", int(t[1]))
        if t[1] in ("true", "false"):
            self.next()
            return ("num", 1 if t[1] == "true" else 0)
        if self.at("("):
            self.next()
            e = self.expr()
            self.expect(")")
            return e
        name = self.ident()
        if self.at("."):
            self.next()
            return ("member", name, self.ident(), False)
        if self.at("->") and name in self.proc_names and self.peek(1)[0] == "id":
            self.next()
            return ("member", name, self.ident(), True)
        if self.at("["):
            self.next()
            ix = self.expr()
            self.expect("]")
            return ("index", name, ix)
        return ("name", name)

    # -- declarations
    def var_decl(self, is_const):
        typ = self.next()[1]  # byte | int
        out = []
        while True:
            name = self.ident()
            size = None
            if self.at("["):
                self.next()
                size = self.expr()
                self.expect("]")
            init = None
            if self.at("="):
                self.next()
                if self.at("{"):
                    self.next()
                    init = [self.expr()]
                    while self.at(","):
                        self.next()
                        init.append(self.expr())
                    self.expect("}")
                else:
                    init = self.expr()
            out.append({"type": typ, "name": name, "size": size, "init": init,
                        "const": is_const})
            if not self.at(","):
                break
            self.next()
        self.expect(";")
        return out

    def channel_decl(self):
        self.expect("channel")
        fields = None
        if self.at("{"):
            self.next()
            fields = [self.next()[1]]
            while self.at(","):
                self.next()
                fields.append(self.next()[1])
            self.expect("}")
            if any(f not in ("byte", "int") for f in fields):
                self.fail("channel field types must be byte or int")
        out = []
        while True:
            name = self.ident()
            cap = None
            if self.at("["):
                self.next()
                cap = self.expr()
                self.expect("]")
            out.append({"name": name, "fields": fields, "cap": cap})
            if not self.at(","):
                break
            self.next()
        self.expect(";")
        return out

    def name_list(self):
        names = [self.ident()]
        while self.at(","):
            self.next()
            names.append(self.ident())
        self.expect(";")
        return names

    def transition(self):
        t = {"from": self.ident(), "line": self.peek()[2]}
        self.expect("->")
        t["to"] = self.ident()
        t.update(guards=[], sync=None, effects=[])
        self.expect("{")
        while not self.at("}"):
            kw = self.next()[1]
            if kw == "guard":
                t["guards"].append(self.expr())
                while self.at(","):
                    self.next()
                    t["guards"].append(self.expr())
            elif kw == "effect":
                while True:
                    lhs = self.primary()
                    if lhs[0] not in ("name", "index"):
                        self.fail("an effect assigns a variable or an array element")
                    self.expect("=")
                    t["effects"].append((lhs, self.expr()))
                    if not self.at(","):
                        break
                    self.next()
            elif kw == "sync":
                if t["sync"]:
                    self.fail("two syncs in one transition")
                ch = self.ident()
                if self.at("["):
                    self.fail("channel arrays are not DVE")
                if not self.at("!", "?"):
                    self.fail("expected '!' or '?' after the channel")
                send = self.next()[1] == "!"
                items = []
                if self.at("{"):
                    self.next()
                    items.append(self.expr())
                    while self.at(","):
                        self.next()
                        items.append(self.expr())
                    self.expect("}")
                elif not self.at(";"):
                    items.append(self.expr())
                if not send and any(x[0] not in ("name", "index") for x in items):
                    self.fail("a receive stores into variables or array elements")
                t["sync"] = {"channel": ch, "send": send, "items": items}
            else:
                self.i -= 1
                self.fail("expected guard, sync or effect")
            self.expect(";")
        self.expect("}")
        return t

    def process(self):
        self.expect("process")
        p = {"name": self.ident(), "vars": [], "states": None, "init": None, "trans": []}
        self.expect("{")
        while not self.at("}"):
            if self.at("byte", "int"):
                p["vars"] += self.var_decl(False)
            elif self.at("const"):
                self.next()
                p["vars"] += self.var_decl(True)
            elif self.at("state"):
                self.next()
                p["states"] = self.name_list()
            elif self.at("init"):
                self.next()
                p["init"] = self.ident()
                self.expect(";")
            elif self.at("commit"):
                self.fail("committed states are not supported")
            elif self.at("accept", "assert"):
                self.fail(f"'{self.peek()[1]}' is not supported")
            elif self.at("trans"):
                self.next()
                if not self.at("}"):
                    p["trans"].append(self.transition())
                    while self.at(","):
                        self.next()
                        p["trans"].append(self.transition())
                    self.expect(";")
            else:
                self.fail("unexpected token in a process")
        self.expect("}")
        if not p["states"] or p["init"] is None:
            raise DveError(f"process {p['name']}: no states or no init state")
        return p

    def model(self):
        # process names first: `P->v` needs them before P's declaration
        for k, t in enumerate(self.toks[:-1]):
            if t[1] == "process" and self.toks[k + 1][0] == "id":
                self.proc_names.add(self.toks[k + 1][1])
        m = {"vars": [], "channels": [], "procs": []}
        while True:
            if self.at("byte", "int"):
                m["vars"] += self.var_decl(False)
            elif self.at("const"):
                self.next()
                m["vars"] += self.var_decl(True)
            elif self.at("channel"):
                m["channels"] += self.channel_decl()
            elif self.at("process"):
                m["procs"].append(self.process())
            elif self.at("system"):
                self.next()
                if self.at("sync"):
                    self.fail("'system sync' (synchronous systems) is not supported")
                self.expect("async")
                if self.at("property"):
                    self.fail("property processes are not supported")
                self.expect(";")
                if self.peek()[0] != "eof":
                    self.fail("text after the system declaration")
                return m
            else:
                self.fail("expected a declaration, a process or 'system async;'")


# ---------------------------------------------------------------------------------------------
# translation

def wrap(v, typ):
    """A constant stored into a DVE byte (0..255) or int (-32768..32767)."""
    if typ == "byte":
        return v % 256
    return (v + 32768) % 65536 - 32768


def c_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


class Translator:
    def __init__(self, model, encoding):
        self.m = model
        self.procs = {p["name"]: p for p in model["procs"]}
        self.consts = {}          # (scope, name) -> value, or (hidden array, values)
        self.vars = {}            # (scope, name) -> decl
        self.channels = {}
        self.lines = []
        uses_sync = any(t["sync"] for p in model["procs"] for t in p["trans"])
        uses_member = self._uses_member()
        if encoding == "auto":
            encoding = "global" if uses_sync or uses_member else "procs"
        if encoding == "procs" and (uses_sync or uses_member):
            raise DveError("the procs encoding cannot express syncs or P.s / P->v")
        self.encoding = encoding

    def _uses_member(self):
        def walk(e):
            if e[0] == "member":
                return True
            return any(walk(k) for k in e[1:] if isinstance(k, tuple))
        for p in self.m["procs"]:
            for t in p["trans"]:
                es = list(t["guards"]) + [x for a in t["effects"] for x in a]
                if t["sync"]:
                    es += t["sync"]["items"]
                if any(walk(e) for e in es):
                    return True
        return False

    # -- names
    def var_name(self, scope, name):
        if scope is None:
            return f"g_{name}"
        return f"l_{scope}_{name}" if self.encoding == "global" else f"l_{name}"

    def state_name(self, proc):
        return f"s_{proc}" if self.encoding == "global" else "_st"

    def lookup(self, proc, name):
        for scope in ((proc, None) if proc else (None,)):
            if (scope, name) in self.consts:
                return ("const", self.consts[(scope, name)])
            if (scope, name) in self.vars:
                return ("var", scope, self.vars[(scope, name)])
        raise DveError(f"unknown name '{name}'" + (f" in process {proc}" if proc else ""))

    # -- constant evaluation (array sizes, const values, initialisers)
    def const_eval(self, e, proc):
        k = e[0]
        if k == "num":
            return e[1]
        if k == "name":
            r = self.lookup(proc, e[1])
            if r[0] != "const" or not isinstance(r[1], int):
                raise DveError(f"'{e[1]}' is not a constant")
            return r[1]
        if k == "index":
            r = self.lookup(proc, e[1])
            if r[0] != "const" or isinstance(r[1], int):
                raise DveError(f"'{e[1]}' is not a constant array")
            ix = self.const_eval(e[2], proc)
            if not 0 <= ix < len(r[1][1]):
                raise DveError(f"index {ix} out of the bounds of '{e[1]}'")
            return r[1][1][ix]
        if k == "un":
            v = self.const_eval(e[2], proc)
            return {"-": -v, "~": ~v, "!": int(not v)}[e[1]]
        if k == "bin":
            a, b = self.const_eval(e[2], proc), self.const_eval(e[3], proc)
            op = e[1]
            if op in ("/", "%") and b == 0:
                raise DveError("division by zero in a constant")
            return {"||": lambda: int(bool(a or b)), "&&": lambda: int(bool(a and b)),
                    "|": lambda: a | b, "^": lambda: a ^ b, "&": lambda: a & b,
                    "==": lambda: int(a == b), "!=": lambda: int(a != b),
                    "<": lambda: int(a < b), "<=": lambda: int(a <= b),
                    ">": lambda: int(a > b), ">=": lambda: int(a >= b),
                    "<<": lambda: a << b, ">>": lambda: a >> b, "+": lambda: a + b,
                    "-": lambda: a - b, "*": lambda: a * b, "/": lambda: c_div(a, b),
                    "%": lambda: a - b * c_div(a, b)}[op]()
        raise DveError("not a constant expression")

    # -- expressions to Promela (fully parenthesised)
    def pml(self, e, proc):
        k = e[0]
        if k == "num":
            return str(e[1]) if e[1] >= 0 else f"({e[1]})"
        if k == "name":
            r = self.lookup(proc, e[1])
            if r[0] == "const" and isinstance(r[1], int):
                return str(r[1]) if r[1] >= 0 else f"({r[1]})"
            if r[0] == "const" or r[2]["size"] is not None:
                raise DveError(f"array '{e[1]}' used without an index")
            return self.var_name(r[1], e[1])
        if k == "index":
            r = self.lookup(proc, e[1])
            if r[0] == "const" and not isinstance(r[1], int):
                try:
                    return self.pml(("num", self.const_eval(e, proc)), proc)
                except DveError:
                    return f"{r[1][0]}[{self.pml(e[2], proc)}]"
            if r[0] != "var" or r[2]["size"] is None:
                raise DveError(f"'{e[1]}' is not an array")
            return f"{self.var_name(r[1], e[1])}[{self.pml(e[2], proc)}]"
        if k == "member":
            _, pname, member, arrow = e
            if pname not in self.procs:
                raise DveError(f"unknown process '{pname}'")
            p = self.procs[pname]
            if not arrow and member in p["states"]:
                return f"({self.state_name(pname)} == {p['states'].index(member)})"
            if (pname, member) in self.consts and isinstance(self.consts[(pname, member)], int):
                return self.pml(("num", self.consts[(pname, member)]), pname)
            if (pname, member) in self.vars:
                return self.var_name(pname, member)
            raise DveError(f"process {pname} has no state or variable '{member}'")
        if k == "un":
            return f"({e[1]}{self.pml(e[2], proc)})"
        if k == "bin":
            return f"({self.pml(e[2], proc)} {e[1]} {self.pml(e[3], proc)})"
        raise AssertionError(e)

    def target(self, e, proc):
        """An assignment target: (Promela lvalue, DVE type)."""
        r = self.lookup(proc, e[1])
        if r[0] != "var":
            raise DveError(f"cannot assign the constant '{e[1]}'")
        if (e[0] == "index") != (r[2]["size"] is not None):
            raise DveError(f"'{e[1]}': array/scalar mismatch in an assignment")
        return self.pml(e, proc), r[2]["type"]

    # -- declarations
    def declare(self, decls, scope, indent):
        for d in decls:
            if (scope, d["name"]) in self.vars or (scope, d["name"]) in self.consts:
                raise DveError(f"'{d['name']}' is declared twice")
            ptype = "byte" if d["type"] == "byte" else "short"
            if d["size"] is None:
                if isinstance(d["init"], list):
                    raise DveError(f"scalar '{d['name']}' with a list initialiser")
                if d["const"] and d["init"] is None:
                    raise DveError(f"constant '{d['name']}' has no value")
                v = wrap(self.const_eval(d["init"], scope), d["type"]) if d["init"] else 0
                if d["const"]:
                    self.consts[(scope, d["name"])] = v
                    continue
                self.lines.append(f"{indent}{ptype} {self.var_name(scope, d['name'])} = {v};")
            else:
                size = self.const_eval(d["size"], scope)
                if size <= 0:
                    raise DveError(f"array '{d['name']}' has size {size}")
                init = d["init"]
                if init is None:
                    vals = [0] * size
                elif isinstance(init, list):
                    # extra initialisers are dropped, missing ones are 0
                    vals = [wrap(self.const_eval(x, scope), d["type"]) for x in init[:size]]
                    vals += [0] * (size - len(vals))
                else:
                    vals = [wrap(self.const_eval(init, scope), d["type"])] * size
                if d["const"]:
                    # inlined where the index is constant, else read from a hidden array
                    name = f"k_{scope or ''}_{d['name']}"
                    self.consts[(scope, d["name"])] = (name, vals)
                    self.hidden.append(f"hidden {ptype} {name}[{size}] = "
                                       f"{{{', '.join(map(str, vals))}}};")
                    continue
                name = self.var_name(scope, d["name"])
                if len(set(vals)) == 1:
                    self.lines.append(f"{indent}{ptype} {name}[{size}] = {vals[0]};")
                else:
                    self.lines.append(f"{indent}{ptype} {name}[{size}] = "
                                      f"{{{', '.join(map(str, vals))}}};")
                d = dict(d, size=size)
            self.vars[(scope, d["name"])] = d

    def declare_channels(self):
        arity = {}
        for p in self.m["procs"]:
            for t in p["trans"]:
                s = t["sync"]
                if s:
                    n = len(s["items"])
                    if arity.setdefault(s["channel"], n) != n:
                        raise DveError(f"channel '{s['channel']}' carries {arity[s['channel']]} "
                                       f"value(s) in one sync and {n} in another")
        for c in self.m["channels"]:
            if c["name"] in self.channels:
                raise DveError(f"channel '{c['name']}' is declared twice")
            cap = self.const_eval(c["cap"], None) if c["cap"] is not None else 0
            if cap < 0:
                raise DveError(f"channel '{c['name']}' has a negative buffer size")
            if c["fields"] is None:
                if cap > 0:
                    raise DveError(f"buffered channel '{c['name']}' needs its message type")
                fields = [None] * arity.get(c["name"], 0)  # untyped: values as computed
            else:
                fields = list(c["fields"])
                if c["name"] in arity and arity[c["name"]] != len(fields):
                    raise DveError(f"channel '{c['name']}' has {len(fields)} field(s), "
                                   f"a sync uses {arity[c['name']]}")
            ch = {"name": c["name"], "cap": cap, "fields": fields}
            self.channels[c["name"]] = ch
            if cap > 0:
                for i, f in enumerate(fields):
                    ptype = "byte" if f == "byte" else "short"
                    self.lines.append(f"{ptype} c_{c['name']}_f{i}[{cap}] = 0;")
                ltype = "byte" if cap < 256 else "short"
                self.lines.append(f"{ltype} c_{c['name']}_len = 0;")
        for name in arity:
            if name not in self.channels:
                raise DveError(f"unknown channel '{name}'")

    # -- steps
    def guard(self, proc, t):
        p = self.procs[proc]
        parts = [f"{self.state_name(proc)} == {p['states'].index(t['from'])}"]
        parts += [self.pml(g, proc) for g in t["guards"]]
        return parts

    def effects(self, proc, t):
        return [f"{self.target(lhs, proc)[0]} = {self.pml(rhs, proc)}" for lhs, rhs in
                t["effects"]]

    def move(self, proc, t):
        return f"{self.state_name(proc)} = {self.procs[proc]['states'].index(t['to'])}"

    def temp(self, field, k):
        kind = {"byte": "b", "int": "s", None: "i"}[field]
        self.temps.add((kind, k))
        return f"_m{kind}{k}"

    def steps(self):
        """Yields (proc, guard parts, statements) for every step of the system."""
        plain, sends, recvs = [], {}, {}
        for p in self.m["procs"]:
            for t in p["trans"]:
                if t["sync"] is None:
                    plain.append((p["name"], t))
                else:
                    side = sends if t["sync"]["send"] else recvs
                    side.setdefault(t["sync"]["channel"], []).append((p["name"], t))
        for proc, t in plain:
            yield proc, self.guard(proc, t), self.effects(proc, t) + [self.move(proc, t)]
        for name, ch in self.channels.items():
            if ch["cap"] == 0:
                for sp, st in sends.get(name, []):
                    for rp, rt in recvs.get(name, []):
                        if sp != rp:
                            yield sp, self.guard(sp, st) + self.guard(rp, rt), \
                                self.rendezvous(ch, sp, st, rp, rt)
            else:
                for sp, st in sends.get(name, []):
                    yield sp, self.guard(sp, st) + [f"c_{name}_len < {ch['cap']}"], \
                        self.buffer_send(ch, sp, st)
                for rp, rt in recvs.get(name, []):
                    yield rp, self.guard(rp, rt) + [f"c_{name}_len > 0"], \
                        self.buffer_recv(ch, rp, rt)

    def rendezvous(self, ch, sp, st, rp, rt):
        items = st["sync"]["items"]
        sender_effects = self.effects(sp, st)
        out, values = [], []
        for k, (e, f) in enumerate(zip(items, ch["fields"])):
            v = self.pml(e, sp)
            if sender_effects or f is not None:  # keep the pre-state value / truncate it
                tmp = self.temp(f, k)
                out.append(f"{tmp} = {v}")
                v = tmp
            values.append(v)
        out += sender_effects
        for x, v in zip(rt["sync"]["items"], values):
            out.append(f"{self.target(x, rp)[0]} = {v}")
        out += self.effects(rp, rt)
        out += [self.move(sp, st), self.move(rp, rt)]
        return out

    def buffer_send(self, ch, sp, st):
        n = f"c_{ch['name']}_len"
        out = [f"c_{ch['name']}_f{k}[{n}] = {self.pml(e, sp)}"
               for k, e in enumerate(st["sync"]["items"])]
        out.append(f"{n} = {n} + 1")
        return out + self.effects(sp, st) + [self.move(sp, st)]

    def buffer_recv(self, ch, rp, rt):
        name, cap = ch["name"], ch["cap"]
        out = [f"{self.target(x, rp)[0]} = c_{name}_f{k}[0]"
               for k, x in enumerate(rt["sync"]["items"])]
        for k in range(len(ch["fields"])):
            out += [f"c_{name}_f{k}[{j}] = c_{name}_f{k}[{j + 1}]" for j in range(cap - 1)]
            out.append(f"c_{name}_f{k}[{cap - 1}] = 0")
        out.append(f"c_{name}_len = c_{name}_len - 1")
        return out + self.effects(rp, rt) + [self.move(rp, rt)]

    @staticmethod
    def d_step(guard, stmts, indent):
        return f"{indent}:: d_step {{ {' && '.join(guard)} -> {'; '.join(stmts)} }}"

    def state_type(self, p):
        return "byte" if len(p["states"]) <= 256 else "short"

    def translate(self, source_name):
        self.temps = set()
        self.hidden = []  # constant arrays
        self.lines.append(f"/* {source_name}: generated by bench/dve2pml.py "
                          f"({self.encoding} encoding) */")
        self.declare(self.m["vars"], None, "")
        for p in self.m["procs"]:
            if self.procs[p["name"]] is not p:
                raise DveError(f"process '{p['name']}' is declared twice")
            for st in [p["init"]] + [x for t in p["trans"] for x in (t["from"], t["to"])]:
                if st not in p["states"]:
                    raise DveError(f"process {p['name']} has no state '{st}'")
        if self.encoding == "global":
            self.declare_channels()
            for p in self.m["procs"]:
                self.declare(p["vars"], p["name"], "")
                self.lines.append(f"{self.state_type(p)} {self.state_name(p['name'])} = "
                                  f"{p['states'].index(p['init'])};")
            body = [self.d_step(g, s, "  ") for _, g, s in self.steps()]
            for kind, k in sorted(self.temps):
                ptype = {"b": "byte", "s": "short", "i": "int"}[kind]
                self.lines.append(f"hidden {ptype} _m{kind}{k};")
            self.lines.append("active proctype system_() {")
            self.lines += ["  do"] + body + ["  od", "}"] if body else ["  false", "}"]
        else:
            for p in self.m["procs"]:
                self.lines.append(f"active proctype p_{p['name']}() {{")
                self.declare(p["vars"], p["name"], "  ")
                self.lines.append(f"  {self.state_type(p)} _st = "
                                  f"{p['states'].index(p['init'])};")
                body = [self.d_step(self.guard(p["name"], t),
                                    self.effects(p["name"], t) + [self.move(p["name"], t)],
                                    "  ") for t in p["trans"]]
                self.lines += ["  do"] + body + ["  od", "}"] if body else ["  false", "}"]
        return "\n".join(self.lines[:1] + self.hidden + self.lines[1:]) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description="DVE (BEEM) to Promela with the same state graph.")
    ap.add_argument("dve", help="the .dve model")
    ap.add_argument("--encoding", choices=["auto", "procs", "global"], default="auto",
                    help="procs: one proctype per DVE process (no syncs, no P.s); global: "
                         "one proctype, every variable global; auto (default): procs when "
                         "it can express the model, else global")
    args = ap.parse_args(argv)
    try:
        with open(args.dve) as f:
            model = Parser(f.read()).model()
        sys.stdout.write(Translator(model, args.encoding).translate(args.dve.split("/")[-1]))
    except DveError as e:
        print(f"dve2pml: {args.dve}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
