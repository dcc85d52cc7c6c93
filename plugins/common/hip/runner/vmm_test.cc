// Vmm's pieces on a GPU (requires-gpu): slabs made together, a slab's
// pieces exported and mapped again elsewhere (as a runner maps what the
// judge lends), the same memory through both.
#include "plugins/common/hip/runner/vmm.h"

#include <unistd.h>

#include <cstdint>
#include <vector>

#include <cuda_runtime.h>
#include <gtest/gtest.h>

namespace arena::hip2hip {
namespace {

Vmm OpenVmm() {
  EXPECT_EQ(cudaFree(nullptr), cudaSuccess);
  auto vmm = Vmm::Open(0);
  EXPECT_TRUE(vmm.ok()) << vmm.status().ToString();
  return *vmm;
}

TEST(Vmm, SlabsMadeTogetherComeInPiecesOfTheSizeAsked) {
  Vmm vmm = OpenVmm();
  const size_t piece = vmm.PieceFor(40 << 20);
  EXPECT_EQ(piece, Vmm::kPieceBytes);
  auto both = vmm.CreateTogether({40 << 20, 20 << 20}, piece);
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  ASSERT_EQ(both->size(), 2u);
  EXPECT_EQ((*both)[0].pieces.size(), 3u);
  EXPECT_EQ((*both)[0].size, 3 * piece);
  EXPECT_EQ((*both)[1].pieces.size(), 2u);
  EXPECT_NE((*both)[0].ptr, 0u);
  EXPECT_NE((*both)[0].ptr, (*both)[1].ptr);
  // Writable end to end, across the pieces' seams.
  for (const VmmMemory& m : *both) {
    EXPECT_EQ(cudaMemset(reinterpret_cast<void*>(m.ptr), 7, m.size), cudaSuccess);
  }
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (const VmmMemory& m : *both) vmm.Release(m);
  // A slab of many pieces' worth keeps to kMaxPieces.
  EXPECT_EQ(vmm.PieceFor(Vmm::kMaxPieces * (64ull << 20)), 64ull << 20);
}

TEST(Vmm, ASlabsPiecesMappedAgainAreTheSameMemory) {
  Vmm vmm = OpenVmm();
  auto made = vmm.CreateTogether({50 << 20}, Vmm::kPieceBytes);
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  const VmmMemory& lent = made->front();
  std::vector<uint32_t> pattern(lent.size / 4);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint32_t>(i * 2654435761u);
  ASSERT_EQ(cudaMemcpy(reinterpret_cast<void*>(lent.ptr), pattern.data(), lent.size, cudaMemcpyHostToDevice),
            cudaSuccess);
  VmmMemory mapped;
  mapped.size = lent.size;
  mapped.piece = lent.piece;
  // Two pieces a message, as a runner gets them (the last message maps).
  for (size_t first = 0; first < lent.pieces.size(); first += 2) {
    auto fds = vmm.Export(lent, first, 2);
    ASSERT_TRUE(fds.ok()) << fds.status().ToString();
    Status st = vmm.ImportPieces(*fds, &mapped);
    for (int fd : *fds) close(fd);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  ASSERT_TRUE(vmm.Map(&mapped).ok());
  EXPECT_NE(mapped.ptr, lent.ptr);
  std::vector<uint32_t> back(pattern.size());
  ASSERT_EQ(cudaMemcpy(back.data(), reinterpret_cast<void*>(mapped.ptr), mapped.size, cudaMemcpyDeviceToHost),
            cudaSuccess);
  EXPECT_EQ(back, pattern);
  // More pieces than the size holds are refused.
  auto extra = vmm.Export(lent, 0, 1);
  ASSERT_TRUE(extra.ok());
  EXPECT_FALSE(vmm.ImportPieces(*extra, &mapped).ok());
  for (int fd : *extra) close(fd);
  vmm.Release(mapped);
  vmm.Release(lent);
}

}  // namespace
}  // namespace arena::hip2hip
