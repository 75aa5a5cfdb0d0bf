#include "mc/search/compiled/compiled_bytecode.h"

#include <limits>

#include "mc/exec/arith.h"
#include "mc/expr/euclidean.h"

namespace tandem::search {

namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

// Error paths are cold: they format a message the way the reference evaluator does.
[[gnu::cold, gnu::noinline]] RunStatus fail(RunError& err, ir::ErrorKind kind, std::string msg) {
  err.kind = kind;
  err.message = std::move(msg);
  return RunStatus::Error;
}

[[gnu::cold, gnu::noinline]] RunStatus outOfBounds(RunError& err, int64_t i, int64_t n) {
  return fail(err, ir::ErrorKind::IndexOutOfBounds,
              exec::indexMessage(std::to_string(i), std::to_string(n)));
}

[[gnu::cold, gnu::noinline]] RunStatus badInstance(RunError& err, int64_t i, int64_t n,
                                                   const std::string& process) {
  return fail(err, ir::ErrorKind::IndexOutOfBounds,
              "process instance " + std::to_string(i) + " of " + process + " out of bounds for " +
                  std::to_string(n) + " instances");
}

[[gnu::cold, gnu::noinline]] RunStatus divByZero(RunError& err, int64_t a) {
  return fail(err, ir::ErrorKind::DivByZero, "division by zero (" + std::to_string(a) + " / 0)");
}

}  // namespace

RunStatus run(const Code& code, const RunContext& ctx, int64_t& result, RunError& err) {
  int64_t* const s = ctx.slots;
  int64_t* const base = ctx.stack;
  int64_t* sp = base;  // the next free entry
  const Ins* const ins = code.ins.data();
  for (size_t pc = 0;; ++pc) {
    const Ins& i = ins[pc];
    switch (i.op) {
      case Opc::Const:
        *sp++ = i.b;
        break;
      case Opc::Load:
        *sp++ = s[i.a];
        break;
      case Opc::LoadMsg:
        *sp++ = ctx.msg[i.a];
        break;
      case Opc::LoadT:
        *sp++ = s[ctx.tb + i.a];
        break;
      case Opc::LoadDyn:
        sp[-1] = s[sp[-1]];
        break;
      case Opc::AddrT:
        *sp++ = ctx.tb + i.a;
        break;
      case Opc::Index: {
        int64_t x = sp[-1];
        if (x < 0 || x >= i.a) return outOfBounds(err, x, i.a);
        sp[-1] = x * i.b;
        break;
      }
      case Opc::Inst: {
        int64_t x = sp[-1];
        if (x < 0 || x >= i.a)
          return badInstance(err, x, i.a, (*ctx.names)[static_cast<size_t>(i.b)]);
        break;
      }
      case Opc::Pow2: {
        int64_t x = sp[-1];
        if (x < 0 || x >= i.a) return outOfBounds(err, x, i.a);
        sp[-1] = int64_t{1} << x;
        break;
      }
      case Opc::AddU:
        --sp;
        sp[-1] += sp[0];
        break;
      case Opc::IndexAdd: {
        int64_t x = *--sp;
        if (x < 0 || x >= i.a) return outOfBounds(err, x, i.a);
        sp[-1] += x * i.b;
        break;
      }
      case Opc::SlotAddK:
        sp[-1] += i.b;
        break;
      case Opc::SlotMulK:
        sp[-1] *= i.b;
        break;
      case Opc::AddK:
        if (__builtin_add_overflow(sp[-1], i.b, &sp[-1])) return RunStatus::Overflow;
        break;
      case Opc::SubK:
        if (__builtin_sub_overflow(sp[-1], i.b, &sp[-1])) return RunStatus::Overflow;
        break;
      case Opc::MulK:
        if (__builtin_mul_overflow(sp[-1], i.b, &sp[-1])) return RunStatus::Overflow;
        break;
      case Opc::EqK:
        sp[-1] = sp[-1] == i.b;
        break;
      case Opc::NeK:
        sp[-1] = sp[-1] != i.b;
        break;
      case Opc::LtK:
        sp[-1] = sp[-1] < i.b;
        break;
      case Opc::LeK:
        sp[-1] = sp[-1] <= i.b;
        break;
      case Opc::GtK:
        sp[-1] = sp[-1] > i.b;
        break;
      case Opc::GeK:
        sp[-1] = sp[-1] >= i.b;
        break;
      case Opc::Drop:
        --sp;
        break;
      case Opc::Pid:
        *sp++ = ctx.pid;
        break;
      case Opc::PcEq:
        *sp++ = s[i.a] == i.b;
        break;
      case Opc::Neg:
        if (sp[-1] == kMin) return RunStatus::Overflow;
        sp[-1] = -sp[-1];
        break;
      case Opc::Not:
        sp[-1] = !sp[-1];
        break;
      case Opc::Abs:
        if (sp[-1] == kMin) return RunStatus::Overflow;
        if (sp[-1] < 0) sp[-1] = -sp[-1];
        break;
      case Opc::Add:
        --sp;
        if (__builtin_add_overflow(sp[-1], sp[0], &sp[-1])) return RunStatus::Overflow;
        break;
      case Opc::Sub:
        --sp;
        if (__builtin_sub_overflow(sp[-1], sp[0], &sp[-1])) return RunStatus::Overflow;
        break;
      case Opc::Mul:
        --sp;
        if (__builtin_mul_overflow(sp[-1], sp[0], &sp[-1])) return RunStatus::Overflow;
        break;
      case Opc::Div:
      case Opc::Mod: {
        --sp;
        const int64_t a = sp[-1], b = sp[0];
        if (b == 0) return divByZero(err, a);
        if (b == -1) {  // a / -1 overflows only for kMin; a mod -1 is 0
          if (i.op == Opc::Mod) {
            sp[-1] = 0;
            break;
          }
          if (a == kMin) return RunStatus::Overflow;
          sp[-1] = -a;
          break;
        }
        int64_t q = a / b, r = a % b;
        truncatedToEuclidean(b, q, r);
        sp[-1] = i.op == Opc::Div ? q : r;
        break;
      }
      case Opc::Min:
        --sp;
        if (sp[0] < sp[-1]) sp[-1] = sp[0];
        break;
      case Opc::Max:
        --sp;
        if (sp[0] > sp[-1]) sp[-1] = sp[0];
        break;
      case Opc::Eq:
        --sp;
        sp[-1] = sp[-1] == sp[0];
        break;
      case Opc::Ne:
        --sp;
        sp[-1] = sp[-1] != sp[0];
        break;
      case Opc::Lt:
        --sp;
        sp[-1] = sp[-1] < sp[0];
        break;
      case Opc::Le:
        --sp;
        sp[-1] = sp[-1] <= sp[0];
        break;
      case Opc::Gt:
        --sp;
        sp[-1] = sp[-1] > sp[0];
        break;
      case Opc::Ge:
        --sp;
        sp[-1] = sp[-1] >= sp[0];
        break;
      case Opc::Jmp:
        pc = static_cast<size_t>(i.a) - 1;
        break;
      case Opc::Jz:
        if (*--sp == 0) pc = static_cast<size_t>(i.a) - 1;
        break;
      case Opc::JzKeep:
        if (sp[-1] == 0)
          pc = static_cast<size_t>(i.a) - 1;
        else
          --sp;
        break;
      case Opc::JnzKeep:
        if (sp[-1] != 0)
          pc = static_cast<size_t>(i.a) - 1;
        else
          --sp;
        break;
      case Opc::Store:
        sp -= 2;
        s[sp[0]] = sp[1];
        break;
      case Opc::StoreA:
        s[i.a] = *--sp;
        break;
      case Opc::StoreT:
        s[ctx.tb + i.a] = *--sp;
        break;
      case Opc::StoreN:
        sp -= 2 * i.a;
        for (int32_t k = 0; k < i.a; ++k) s[sp[2 * k]] = sp[2 * k + 1];
        break;
      case Opc::Ret:
        result = sp > base ? sp[-1] : 0;
        return RunStatus::Ok;
    }
  }
}

}  // namespace tandem::search
