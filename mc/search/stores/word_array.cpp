#include "mc/search/stores/word_array.h"

#include <sys/mman.h>
#include <unistd.h>

#include <new>
#include <utility>

namespace tandem::search {

WordArray::WordArray(size_t words) : size_(words), bytes_(words * sizeof(uint64_t)) {
  void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  // Read at random: huge pages spare a TLB miss per lookup (only advice).
  if (bytes_ >= (size_t{1} << 21)) madvise(p, bytes_, MADV_HUGEPAGE);
#endif
  words_ = static_cast<uint64_t*>(p);
}

WordArray::~WordArray() {
  if (words_) munmap(words_, bytes_);
}

void WordArray::release(size_t from, size_t to) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  auto begin = reinterpret_cast<uintptr_t>(words_ + from);
  auto end = reinterpret_cast<uintptr_t>(words_ + to);
  begin = (begin + page - 1) / page * page;
  end = end / page * page;
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

}  // namespace tandem::search
