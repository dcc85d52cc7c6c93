// The order lent memory's pieces are made in (Vmm::TurnReversed), without a
// GPU: each of two subjects' slabs holds about as many pieces with either
// value of any address bit above a piece's, or any parity of a few such
// bits, as the other, wherever the allocations start.
#include <algorithm>
#include <cstddef>
#include <vector>

#include <gtest/gtest.h>

#include "plugins/common/hip/runner/vmm.h"

namespace arena::hip2hip {
namespace {

// The places (in pieces, from `start`) of each slab's pieces when two slabs
// of `n` pieces are made together in consecutive places, in TurnReversed's
// turns or (`same_order`) the first slab's piece always first.
std::vector<std::vector<size_t>> Places(size_t n, size_t start, bool same_order = false) {
  std::vector<std::vector<size_t>> places(2);
  size_t next = start;
  for (size_t k = 0; k < n; ++k) {
    const bool reversed = !same_order && Vmm::TurnReversed(k);
    for (size_t j = 0; j < 2; ++j) places[reversed ? 1 - j : j].push_back(next++);
  }
  return places;
}

// The most pieces one slab has more than the other with the parity of the
// bits in `mask` odd, over every mask of up to three of the first `bits`.
size_t WorstImbalance(const std::vector<std::vector<size_t>>& places, int bits) {
  size_t worst = 0;
  for (unsigned mask = 1; mask < (1u << bits); ++mask) {
    if (__builtin_popcount(mask) > 3) continue;
    size_t odd[2] = {0, 0};
    for (int s = 0; s < 2; ++s) {
      for (size_t p : places[static_cast<size_t>(s)]) odd[s] += __builtin_popcountll(p & mask) % 2;
    }
    worst = std::max(worst, odd[0] > odd[1] ? odd[0] - odd[1] : odd[1] - odd[0]);
  }
  return worst;
}

TEST(VmmTurns, TheSequenceIsThueMorses) {
  const bool expected[] = {false, true, true, false, true, false, false, true};
  for (size_t k = 0; k < 8; ++k) EXPECT_EQ(Vmm::TurnReversed(k), expected[k]) << k;
}

TEST(VmmTurns, EachSlabHoldsEitherValueOfAnAddressBitAlike) {
  for (size_t start : {0, 1, 3, 8, 13}) {
    // Taken always in the same order, one slab holds every piece with the
    // lowest bit of one value (300 against 0); in these turns, a few.
    EXPECT_EQ(WorstImbalance(Places(300, start, /*same_order=*/true), 11), 300u) << "start " << start;
    EXPECT_LE(WorstImbalance(Places(300, start), 11), 16u) << "start " << start;
  }
  EXPECT_EQ(WorstImbalance(Places(16, 0), 6), 0u);
}

}  // namespace
}  // namespace arena::hip2hip
