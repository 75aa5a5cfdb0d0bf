#include "mc/lang/diagnostics.h"

#include <ostream>

namespace tandem {

void Diagnostics::error(SourceLoc loc, std::string message) {
  if (errors_.size() >= kMaxErrors) return;
  for (const auto& d : errors_)  // one message per position and text is enough
    if (d.loc == loc && d.message == message) return;
  errors_.push_back({loc, std::move(message)});
}

void Diagnostics::print(std::ostream& os) const {
  for (const auto& d : errors_) {
    std::string path = file_ ? file_->path() : std::string("<input>");
    os << path;
    if (d.loc.valid()) os << ':' << d.loc.line << ':' << d.loc.col;
    os << ": error: " << d.message << '\n';
    if (file_ && d.loc.valid()) {
      auto text = file_->lineText(d.loc.line);
      os << "  " << text << '\n' << "  ";
      for (uint32_t i = 1; i < d.loc.col && i <= text.size(); ++i)
        os << (text[i - 1] == '\t' ? '\t' : ' ');
      os << "^\n";
    }
  }
}

}  // namespace tandem
