// An enumeration's names, written once as a table: the name of a value and the value of a name
// (options, reports and the IR printer spell enumerations this way).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace tandem {

template <class E>
struct EnumName {
  E value;
  const char* name;
};

// The name of `e` in `table`; `fallback` for a value the table lacks.
template <class E, size_t N>
constexpr const char* enumName(const EnumName<E> (&table)[N], E e, const char* fallback = "?") {
  for (const EnumName<E>& x : table)
    if (x.value == e) return x.name;
  return fallback;
}

// The value named `s` in `table`.
template <class E, size_t N>
constexpr std::optional<E> enumFromName(const EnumName<E> (&table)[N], std::string_view s) {
  for (const EnumName<E>& x : table)
    if (s == x.name) return x.value;
  return std::nullopt;
}

}  // namespace tandem
