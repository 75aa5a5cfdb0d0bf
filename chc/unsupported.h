// What the Horn clause export refuses: the command reports it (exit status 2) instead of writing
// clauses that would ignore part of the program.
#pragma once

#include <stdexcept>
#include <string>

namespace tandem::chc {

class Unsupported : public std::runtime_error {
 public:
  explicit Unsupported(const std::string& what)
      : std::runtime_error(what + ": not implemented yet in export-chc") {}
};

}  // namespace tandem::chc
