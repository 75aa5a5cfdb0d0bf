// The one rule of the language's `/` and `%` (Euclidean: 0 <= r < |b|), shared by BigInt's small
// and large paths and the compiled VM's int64 fast path.
#pragma once

namespace tandem {

// Shifts C's truncating quotient and remainder (r has a's sign) to the Euclidean pair. Cannot
// overflow: |r| < |b|, and a nonzero r means |q| < |a|.
template <class T>
void truncatedToEuclidean(const T& b, T& q, T& r) {
  if (r < 0) {
    if (b > 0) {
      q -= 1;
      r += b;
    } else {
      q += 1;
      r -= b;
    }
  }
}

}  // namespace tandem
