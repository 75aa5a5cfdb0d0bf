#include "mc/search/state_codec.h"

#include "mc/expr/float64.h"

#include <cassert>

namespace tandem::search {

namespace {

using exec::Value;
using exec::ValueKind;

void putVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void putSigned(std::string& out, int64_t v) {
  putVarint(out, (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));  // zigzag
}

class Reader {
 public:
  explicit Reader(std::string_view b) : b_(b) {}
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      assert(pos_ < b_.size() && "truncated state encoding");
      auto c = static_cast<uint8_t>(b_[pos_++]);
      v |= static_cast<uint64_t>(c & 0x7f) << shift;
      if (!(c & 0x80)) return v;
    }
  }
  int64_t signedVarint() {
    uint64_t u = varint();
    return static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
  }
  std::string_view bytes(size_t n) {
    auto v = b_.substr(pos_, n);
    pos_ += n;
    return v;
  }
  bool done() const { return pos_ == b_.size(); }

 private:
  std::string_view b_;
  size_t pos_ = 0;
};

// Integers: zigzag varint when they fit in 62 bits; otherwise a marker and the decimal text.
constexpr uint64_t kBigMarker = 0;  // zigzag 0 is the value 0, so shift small values by one

void putInt(std::string& out, const BigInt& v) {
  if (auto s = v.toInt64(); s && *s > -(int64_t{1} << 61) && *s < (int64_t{1} << 61)) {
    putVarint(out, ((static_cast<uint64_t>(*s) << 1) ^ static_cast<uint64_t>(*s >> 63)) + 1);
    return;
  }
  std::string text = v.toString();
  putVarint(out, kBigMarker);
  putVarint(out, text.size());
  out += text;
}

BigInt getInt(Reader& r) {
  uint64_t u = r.varint();
  if (u == kBigMarker) {
    auto n = r.varint();
    return *BigInt::parse(r.bytes(n));
  }
  u -= 1;
  return BigInt(static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1)));
}

void putAddress(std::string& out, const exec::Address& a) {
  out.push_back(static_cast<char>(a.base));
  putVarint(out, a.thread);
  putVarint(out, a.frame);
  putVarint(out, a.object);
  putVarint(out, a.slot);
  putVarint(out, a.path.size());
  for (auto i : a.path) putVarint(out, i);
}

exec::Address getAddress(Reader& r) {
  exec::Address a;
  a.base = static_cast<exec::AddressBase>(r.varint());
  a.thread = static_cast<uint32_t>(r.varint());
  a.frame = static_cast<uint32_t>(r.varint());
  a.object = static_cast<uint32_t>(r.varint());
  a.slot = static_cast<uint32_t>(r.varint());
  a.path.resize(r.varint());
  for (auto& i : a.path) i = r.varint();
  return a;
}

void putValue(std::string& out, TypeRef t, const Value& v) {
  switch (t->kind) {
    case TypeKind::Int:
      putInt(out, v.asInt());
      return;
    case TypeKind::I32:
    case TypeKind::I64:
      putSigned(out, v.asBits());
      return;
    case TypeKind::F64: {  // the bit pattern: -0.0, 0.0 and each NaN payload are distinct states
      const uint64_t bits = f64::toBits(v.asF64());
      for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(bits >> (8 * i)));
      return;
    }
    case TypeKind::Bool:
      out.push_back(v.asBool() ? 1 : 0);
      return;
    case TypeKind::Enum:
      putVarint(out, v.enumIndex());
      return;
    case TypeKind::Ref:
      if (v.isNull()) {
        out.push_back(0);
      } else {
        out.push_back(1);
        putAddress(out, v.asRef());
      }
      return;
    case TypeKind::Class:
      putVarint(out, v.isNull() ? 0 : uint64_t{v.asObject()} + 1);
      return;
    case TypeKind::Array: {
      if (t->length < 0) putVarint(out, v.length());
      for (const auto& e : v.elements()) putValue(out, t->elem, e);
      return;
    }
    case TypeKind::Null:
    case TypeKind::Void:
      return;
  }
}

Value getValue(Reader& r, TypeRef t) {
  switch (t->kind) {
    case TypeKind::Int:
      return Value::integer(getInt(r));
    case TypeKind::I32:
      return Value::bits(32, r.signedVarint());
    case TypeKind::I64:
      return Value::bits(64, r.signedVarint());
    case TypeKind::F64: {
      const std::string_view b = r.bytes(8);
      uint64_t bits = 0;
      for (int i = 0; i < 8; ++i) bits |= uint64_t{static_cast<unsigned char>(b[i])} << (8 * i);
      return Value::f64(f64::fromBits(bits));
    }
    case TypeKind::Bool:
      return Value::boolean(r.bytes(1)[0] != 0);
    case TypeKind::Enum:
      return Value::enumMember(t, static_cast<uint32_t>(r.varint()));
    case TypeKind::Ref:
      if (r.bytes(1)[0] == 0) return Value::null();
      return Value::ref(getAddress(r));
    case TypeKind::Class: {
      auto id = r.varint();
      return id == 0 ? Value::null() : Value::object(static_cast<exec::ObjectId>(id - 1));
    }
    case TypeKind::Array: {
      size_t n = t->length < 0 ? r.varint() : static_cast<size_t>(t->length);
      std::vector<Value> elems;
      elems.reserve(n);
      for (size_t i = 0; i < n; ++i) elems.push_back(getValue(r, t->elem));
      return Value::array(std::move(elems));
    }
    case TypeKind::Null:
    case TypeKind::Void:
      return Value::null();
  }
  return Value::null();
}

}  // namespace

void StateCodec::encode(const exec::State& s, std::string& out) const {
  out.clear();
  for (size_t i = 0; i < s.globals.size(); ++i)
    putValue(out, p_.vars[p_.globals[i]].type, s.globals[i]);
  putVarint(out, s.threads.size());
  for (const auto& th : s.threads) {
    putVarint(out, th.cfa);
    putVarint(out, th.instance);
    const ir::Cfa& proc = p_.cfas[th.cfa];
    for (size_t i = 0; i < th.processLocals.size(); ++i)
      putValue(out, p_.vars[proc.processLocals[i]].type, th.processLocals[i]);
    putVarint(out, th.frames.size());
    for (size_t f = 0; f < th.frames.size(); ++f) {
      const exec::Frame& fr = th.frames[f];
      if (f > 0) putVarint(out, fr.cfa);  // the bottom frame's CFA is the thread's
      putVarint(out, fr.pc - p_.cfas[fr.cfa].locs.front());
      putVarint(out, fr.callEdge == ir::kNone ? 0 : uint64_t{fr.callEdge} + 1);
      putVarint(out, fr.self == exec::kNoObject ? 0 : uint64_t{fr.self} + 1);
      const ir::Cfa& c = p_.cfas[fr.cfa];
      for (size_t i = 0; i < fr.locals.size(); ++i)
        putValue(out, p_.vars[c.locals[i]].type, fr.locals[i]);
      if (c.usesOld) {
        out.push_back(fr.old ? 1 : 0);
        if (fr.old) {
          for (size_t i = 0; i < fr.old->globals.size(); ++i)
            putValue(out, p_.vars[p_.globals[i]].type, fr.old->globals[i]);
          putVarint(out, fr.old->heap.size());
          for (const auto& o : fr.old->heap) {
            putVarint(out, o.classIndex);
            const auto& fields = p_.classes[o.classIndex].fields;
            for (size_t i = 0; i < o.fields.size(); ++i)
              putValue(out, p_.vars[fields[i]].type, o.fields[i]);
          }
        }
      }
    }
  }
  putVarint(out, s.heap.size());
  for (const auto& o : s.heap) {
    putVarint(out, o.classIndex);
    const auto& fields = p_.classes[o.classIndex].fields;
    for (size_t i = 0; i < o.fields.size(); ++i)
      putValue(out, p_.vars[fields[i]].type, o.fields[i]);
  }
}

exec::State StateCodec::decode(std::string_view bytes) const {
  Reader r(bytes);
  exec::State s;
  s.globals.reserve(p_.globals.size());
  for (auto g : p_.globals) s.globals.push_back(getValue(r, p_.vars[g].type));
  auto decodeHeapObject = [&](Reader& rd) {
    exec::HeapObject o;
    o.classIndex = static_cast<uint32_t>(rd.varint());
    for (auto f : p_.classes[o.classIndex].fields)
      o.fields.push_back(getValue(rd, p_.vars[f].type));
    return o;
  };
  size_t threads = r.varint();
  for (size_t t = 0; t < threads; ++t) {
    exec::Thread th;
    th.cfa = static_cast<ir::CfaId>(r.varint());
    th.instance = static_cast<uint32_t>(r.varint());
    const ir::Cfa& proc = p_.cfas[th.cfa];
    for (auto v : proc.processLocals) th.processLocals.push_back(getValue(r, p_.vars[v].type));
    size_t frames = r.varint();
    for (size_t f = 0; f < frames; ++f) {
      exec::Frame fr;
      fr.cfa = f == 0 ? th.cfa : static_cast<ir::CfaId>(r.varint());
      fr.pc = static_cast<ir::LocId>(r.varint()) + p_.cfas[fr.cfa].locs.front();
      auto ce = r.varint();
      fr.callEdge = ce == 0 ? ir::kNone : static_cast<ir::EdgeId>(ce - 1);
      auto self = r.varint();
      fr.self = self == 0 ? exec::kNoObject : static_cast<exec::ObjectId>(self - 1);
      const ir::Cfa& c = p_.cfas[fr.cfa];
      for (auto v : c.locals) fr.locals.push_back(getValue(r, p_.vars[v].type));
      if (c.usesOld && r.bytes(1)[0] != 0) {
        auto snap = std::make_shared<exec::OldSnapshot>();
        for (auto g : p_.globals) snap->globals.push_back(getValue(r, p_.vars[g].type));
        size_t n = r.varint();
        for (size_t i = 0; i < n; ++i) snap->heap.push_back(decodeHeapObject(r));
        fr.old = std::move(snap);
      }
      th.frames.push_back(std::move(fr));
    }
    s.threads.push_back(std::move(th));
  }
  size_t n = r.varint();
  for (size_t i = 0; i < n; ++i) s.heap.push_back(decodeHeapObject(r));
  assert(r.done() && "trailing bytes in a state encoding");
  return s;
}

}  // namespace tandem::search
