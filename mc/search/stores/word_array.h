// A large array of 64-bit words for hash tables that grow: its pages come from mmap, zero, and
// the kernel maps each on first touch, so a new table costs no time and no memory until it is
// filled; release() hands pages back while a table is copied into a bigger one. A table whose
// slot is the hash's top bits is copied in order (slot i goes to 2i or 2i + 1), so releasing
// each part of the old table once read keeps the peak near the size of the new one, not 1.5x.
// Concurrent access goes through std::atomic_ref.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace tandem::search {

class WordArray {
 public:
  WordArray() = default;
  explicit WordArray(size_t words);
  ~WordArray();
  WordArray(WordArray&& o) noexcept { swap(o); }
  WordArray& operator=(WordArray&& o) noexcept {
    WordArray gone(std::move(o));
    swap(gone);
    return *this;
  }
  WordArray(const WordArray&) = delete;
  WordArray& operator=(const WordArray&) = delete;

  size_t size() const { return size_; }
  uint64_t* data() const { return words_; }
  std::atomic_ref<uint64_t> at(size_t i) const { return std::atomic_ref<uint64_t>(words_[i]); }
  // Gives back the pages that lie wholly inside words [from, to); they read as zero again.
  void release(size_t from, size_t to);

 private:
  void swap(WordArray& o) noexcept {
    std::swap(words_, o.words_);
    std::swap(size_, o.size_);
    std::swap(bytes_, o.bytes_);
  }
  uint64_t* words_ = nullptr;
  size_t size_ = 0, bytes_ = 0;
};

}  // namespace tandem::search
