#!/usr/bin/env python3
"""Random unstructured programs for `tandem cover`, shaped like the benchmark of Christ, Hoenicke
and Schaef, "Towards Bounded Infeasible Code Detection": a sequence of 2-9 control-flow diamonds,
each two nested levels of if-then-else, written with `goto` and `assume`.

usage: cover_gen.py --seed N --out DIR [--sizes 2,3,...] [--count K] [--procs]

writes DIR/d{size}_{k}.tdm for each size (default 2..9) and k = 0..K-1 (default K = 10), so the
default is the paper's 80 programs. The output depends only on --seed: program (size, k) draws
from its own random.Random(f"{seed}:{size}:{k}"), so restricting --sizes or --count gives the
same files as the full run.

Shape of one program (entry procedure `main`, all blocks labelled, labels unique):

    proc main(v0: int, ..., v{n-1}: int): int {      10 <= n <= 20, drawn per program
    ENTRY: 3 assignments; goto D1_T, D1_E;
    D1_T:  assume C;  goto D1_TT, D1_TE;                        outer then
    D1_TT: assume C1;     3 assignments; goto D1_TJ;            inner then
    D1_TE: assume !C1;    3 assignments; goto D1_TJ;            inner else
    D1_TJ: goto D1_J;                                           inner join
    D1_E:  assume !C; ... D1_ET, D1_EE, D1_EJ likewise with C2
    D1_J:  goto D2_T, D2_E;                                     join after the diamond
    ...
    Dm_J:  return v0;
    }

The statements are in the four innermost blocks of each diamond (and ENTRY): the paper's AlgFM
asks 1,760 queries for the 440 diamonds of its 80 programs, four blocks per diamond.

The parameters are the variables (Tandem lets a procedure assign its parameters). Statements are
linear only: `v3 := v5 - v7 + 4;` (1-3 distinct variables, coefficients 1 or -1, constant
-9..9). Unit coefficients are a choice the paper does not state: with coefficients up to 3 the
integer path conditions compound over a path (a value is a sum of products of coefficients),
and on 7-9 diamonds single queries took more than 10 s in Z3 4.8.12 and in cvc5 (measured with
`tandem cover`), which the paper's 11.81 s for all 80 programs rules out. Conditions are `LINEAR OP CONST` with 1-2 variables and OP one of < <= > >=. A negated
condition is written with the complementary operator (`v2 - v9 > 3` / `v2 - v9 <= 3`), so every
block starts with a plain `assume`.

Infeasible blocks. With unbounded integers and free parameters, random linear conditions are
almost always satisfiable, so the paper's infeasible code has to be planted. Each inner level
(the T side and the E side of every diamond, independently) is *correlated* with probability
0.25: its condition uses the same linear expression e as the outer condition, and the outer
branch block assigns nothing, so e keeps its value from the outer `assume` to the inner one. The inner constant is then chosen so that the inner condition either
  - contradicts the outer one (outer `e > 5`, inner `e < 2`): the inner *then* block is
    infeasible, or
  - is implied by it (outer `e > 5`, inner `e > 2`): the inner *else* block is infeasible,
each with probability 1/2. The inner join stays feasible (the other inner branch reaches it).
Those planted labels are listed in the file's second line, `// planted infeasible: ...`, and
are infeasible by construction. They are a lower bound, not the exact set: an assignment chain
can correlate conditions by chance (`v8 := 2 * v10 + 8` after `assume v10 >= 4` makes a later
`assume 2 * v8 < 4` infeasible).

Python 3 standard library only; no `tandem` needed to generate.
"""
import argparse
import random
import sys
from pathlib import Path

SIZES = range(2, 10)          # diamonds per program, as in the paper
PER_SIZE = 10                 # programs per size
STMTS_PER_BLOCK = 3
MIN_VARS, MAX_VARS = 10, 20
CORRELATION = 0.25            # probability that an inner level is planted (see docstring)
# Unit coefficients (see the docstring: with coefficients up to 3, the integer path conditions of
# 7-9 diamonds took Z3 4.8.12 and cvc5 more than 10 s per query).
COEFFICIENTS = (-1, 1, 1)
OPS = ("<", "<=", ">", ">=")
NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}


# ---------------------------------------------------------------------------------------------
# linear expressions: a list of (coefficient, variable) and a constant

def render_linear(terms, const=0):
    """`2 * v3 - v5 + 4` from [(2, 'v3'), (-1, 'v5')] and 4; no `+ -` or `1 *` in the text."""
    out = []
    for i, (c, v) in enumerate(terms):
        mag = abs(c)
        atom = v if mag == 1 else f"{mag} * {v}"
        if i == 0:
            out.append(f"-{atom}" if c < 0 else atom)
        else:
            out.append(f"{'-' if c < 0 else '+'} {atom}")
    if const:
        out.append(f"{'-' if const < 0 else '+'} {abs(const)}")
    return " ".join(out)


def random_terms(rng, names, lo, hi):
    """lo..hi distinct variables of `names` with coefficients from COEFFICIENTS."""
    chosen = rng.sample(names, rng.randint(lo, min(hi, len(names))))
    return [(rng.choice(COEFFICIENTS), v) for v in chosen]


def random_assignment(rng, names, targets):
    """One `v := linear;` with its target drawn from `targets` (the right side from all)."""
    target = rng.choice(targets)
    return f"{target} := {render_linear(random_terms(rng, names, 1, 3), rng.randint(-9, 9))};"


def block_statements(rng, names):
    """STMTS_PER_BLOCK assignments."""
    return [random_assignment(rng, names, names) for _ in range(STMTS_PER_BLOCK)]


# ---------------------------------------------------------------------------------------------
# conditions: (terms, op, const) meaning `linear(terms) op const`

def render_cond(cond):
    terms, op, const = cond
    return f"{render_linear(terms)} {op} {const}"


def negate(cond):
    terms, op, const = cond
    return terms, NEGATE[op], const


def random_cond(rng, names):
    return random_terms(rng, names, 1, 2), rng.choice(OPS), rng.randint(-5, 5)


def as_bound(op, const):
    """('lo', b) for e >= b or ('hi', b) for e <= b: the integer bound an `e op const` sets."""
    return {">": ("lo", const + 1), ">=": ("lo", const),
            "<": ("hi", const - 1), "<=": ("hi", const)}[op]


def from_bound(rng, kind, bound):
    """`e op c` meaning e >= bound (kind 'lo') or e <= bound ('hi'), strict or not at random."""
    if kind == "lo":
        return rng.choice(((">=", bound), (">", bound - 1)))
    return rng.choice((("<=", bound), ("<", bound + 1)))


def planted_inner(rng, outer):
    """An inner condition over the outer's expression that contradicts it (the inner then block
    is infeasible) or is implied by it (the inner else block is infeasible); returns (cond,
    'T' or 'E': which inner branch is dead)."""
    terms, op, const = outer
    kind, bound = as_bound(op, const)
    gap = rng.randint(0, 4)
    if rng.random() < 0.5:      # contradiction: a bound on the other side, beyond the outer's
        other = "hi" if kind == "lo" else "lo"
        inner = from_bound(rng, other, bound - 1 - gap if kind == "lo" else bound + 1 + gap)
        dead = "T"
    else:                       # implication: a weaker bound on the same side
        inner = from_bound(rng, kind, bound - gap if kind == "lo" else bound + gap)
        dead = "E"
    return (terms, inner[0], inner[1]), dead


# ---------------------------------------------------------------------------------------------
# the program

def block(label, lines):
    """A labelled block: the label on its first line, the others indented under it."""
    pad = " " * (len(label) + 2)
    return [f"{label}: {lines[0]}"] + [pad + line for line in lines[1:]]


def outer_side(rng, names, d, side, outer_cond, planted, pre="D"):
    """The outer branch `side` ('T' or 'E') of diamond d: its block, the nested if-then-else and
    the inner join; planted infeasible labels are appended to `planted`. Labels start with
    `pre` (a helper procedure's diamond: `H1_D`)."""
    p = f"{pre}{d}_{side}"
    correlated = rng.random() < CORRELATION
    if correlated:
        inner, dead = planted_inner(rng, outer_cond)
        planted.append(f"{p}{dead}")
    else:
        inner = random_cond(rng, names)
    # Statements only in the four innermost blocks of a diamond (the paper's 4 blocks per
    # diamond: its AlgFM asks 1,760 queries for the 440 diamonds of the 80 programs).
    lines = block(p, [f"assume {render_cond(outer_cond)};", f"goto {p}T, {p}E;"])
    for branch, cond in (("T", inner), ("E", negate(inner))):
        lines += block(f"{p}{branch}", [f"assume {render_cond(cond)};"]
                       + block_statements(rng, names) + [f"goto {p}J;"])
    lines += block(f"{p}J", [f"goto {pre}{d}_J;"])
    return lines


def diamond(rng, names, d, planted, pre="D"):
    """Diamond d (1-based): both outer branches, without its join block."""
    cond = random_cond(rng, names)
    return (outer_side(rng, names, d, "T", cond, planted, pre)
            + outer_side(rng, names, d, "E", negate(cond), planted, pre))


def branch_to(d, pre="D"):
    return f"goto {pre}{d}_T, {pre}{d}_E;"


HELPERS = 2                      # --procs: helper procedures, each called from every diamond
HELPER_PARAMS = ("a", "b", "c")


def helper(rng, h, planted):
    """--procs: procedure h{h}(a, b, c): one diamond over its parameters, returning a linear
    expression of them; (lines, labels)."""
    names = list(HELPER_PARAMS)
    pre = f"H{h}_D"
    body = block(f"H{h}", block_statements(rng, names) + [branch_to(1, pre)])
    body += diamond(rng, names, 1, planted, pre)
    body += block(f"{pre}1_J", [f"return {render_linear(random_terms(rng, names, 1, 3))};"])
    params = ", ".join(f"{v}: int" for v in names)
    return [f"proc h{h}({params}): int {{"] + body + ["}", ""], labels_of(body)


def labels_of(body):
    return [line.split(":", 1)[0] for line in body if not line.startswith(" ")]


def generate(seed, size, k, procs=False):
    """(text, labels, planted): the program d{size}_{k} of `seed`, every block label in order
    of the text, and the labels infeasible by construction. With `procs`, HELPERS helper
    procedures (one diamond each, scalar parameters and result, no globals: what `tandem cover
    --summaries` summarises) come first, and before each of main's diamonds a block C{d} assigns
    a helper's result to a variable; the programs differ from those without."""
    rng = random.Random(f"{seed}:{size}:{k}" + (":procs" if procs else ""))
    names = [f"v{i}" for i in range(rng.randint(MIN_VARS, MAX_VARS))]
    planted = []
    head, labels = [], []
    if procs:
        for h in range(1, HELPERS + 1):
            lines, ls = helper(rng, h, planted)
            head += lines
            labels += ls

    def next_block(d):
        return f"goto C{d};" if procs else branch_to(d)

    body = block("ENTRY", block_statements(rng, names) + [next_block(1)])
    for d in range(1, size + 1):
        if procs:
            args = ", ".join(rng.sample(names, len(HELPER_PARAMS)))
            call = f"{rng.choice(names)} := h{(d - 1) % HELPERS + 1}({args});"  # each helper called
            body += block(f"C{d}", [call, branch_to(d)])
        body += diamond(rng, names, d, planted)
        last = "return v0;" if d == size else next_block(d + 1)
        body += block(f"D{d}_J", [last])
    labels += labels_of(body)
    params = ", ".join(f"{v}: int" for v in names)
    text = "\n".join(
        [f"// cover_gen.py seed {seed}: {size} diamonds, program {k}, {len(names)} variables"
         + (f", {HELPERS} helper procedures" if procs else ""),
         f"// planted infeasible: {' '.join(planted) if planted else '(none)'}"] + head
        + [f"proc main({params}): int {{"] + body + ["}", ""])
    return text, labels, planted


def program_name(size, k):
    return f"d{size}_{k}"


def write_all(seed, out, sizes=SIZES, count=PER_SIZE, procs=False):
    """Writes every program; returns [(path, labels, planted)] in order of size, then k."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for size in sizes:
        for k in range(count):
            text, labels, planted = generate(seed, size, k, procs)
            path = out / f"{program_name(size, k)}.tdm"
            path.write_text(text)
            written.append((path, labels, planted))
    return written


def parse_sizes(text):
    """'2,3,9' or '2-5' (or a mix) -> [2, 3, 9]; each within 1..99."""
    sizes = []
    for part in text.split(","):
        lo, _, hi = part.strip().partition("-")
        rng = range(int(lo), int(hi or lo) + 1)
        if not rng or rng.start < 1 or rng.stop > 100:
            raise ValueError(f"bad size range {part!r}")
        sizes.extend(rng)
    return sorted(set(sizes))


def main():
    ap = argparse.ArgumentParser(description="Random diamond programs for `tandem cover` "
                                             "(Christ, Hoenicke, Schaef's benchmark shape).")
    ap.add_argument("--seed", type=int, default=1, help="seed (default: %(default)s)")
    ap.add_argument("--out", type=Path, required=True, help="output folder (created)")
    ap.add_argument("--sizes", default="2-9",
                    help="diamonds per program, e.g. 2,3 or 2-5 (default: %(default)s)")
    ap.add_argument("--count", type=int, default=PER_SIZE,
                    help="programs per size (default: %(default)s)")
    ap.add_argument("--procs", action="store_true",
                    help=f"{HELPERS} helper procedures called before each diamond (for --summaries)")
    args = ap.parse_args()
    try:
        sizes = parse_sizes(args.sizes)
    except ValueError as e:
        ap.error(f"--sizes: {e}")
    if args.count < 1:
        ap.error("--count must be at least 1")
    written = write_all(args.seed, args.out, sizes, args.count, args.procs)
    planted = sum(len(p) for _, _, p in written)
    print(f"wrote {len(written)} programs to {args.out} ({planted} planted infeasible blocks)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
