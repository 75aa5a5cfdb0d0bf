// Source files and positions, shared by every diagnostic the front end reports.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tandem {

struct SourceLoc {
  uint32_t line = 0;  // 1-based; 0 means "no position"
  uint32_t col = 0;   // 1-based
  bool valid() const { return line != 0; }
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
};

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);
  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  // The text of line `line` (1-based) without its newline; empty if out of range.
  std::string_view lineText(uint32_t line) const;
  uint32_t lineCount() const { return static_cast<uint32_t>(lineStarts_.size()); }

 private:
  std::string path_;
  std::string text_;
  std::vector<size_t> lineStarts_;
};

}  // namespace tandem
