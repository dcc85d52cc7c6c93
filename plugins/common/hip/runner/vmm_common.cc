// Vmm's pieces (vmm.h), on the primitives each platform implements.
#include <unistd.h>

#include <algorithm>

#include "plugins/common/hip/runner/vmm.h"

namespace arena::hip2hip {
namespace {

size_t RoundUp(size_t n, size_t m) { return (std::max<size_t>(n, 1) + m - 1) / m * m; }

}  // namespace

size_t Vmm::PieceFor(size_t bytes) const {
  return RoundUp(std::max(kPieceBytes, (bytes + kMaxPieces - 1) / kMaxPieces), granularity_);
}

Result<std::vector<VmmMemory>> Vmm::CreateTogether(const std::vector<size_t>& bytes, size_t piece) const {
  piece = RoundUp(piece, granularity_);
  std::vector<VmmMemory> slabs(bytes.size());
  size_t most = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    slabs[i].piece = piece;
    slabs[i].size = RoundUp(bytes[i], piece);
    most = std::max(most, slabs[i].size / piece);
  }
  auto release_all = [&] {
    for (const VmmMemory& m : slabs) Release(m);
  };
  // In turns: the k-th piece of every slab before the (k+1)-th of any, the
  // slabs in their order or the other (TurnReversed).
  for (size_t k = 0; k < most; ++k) {
    for (size_t j = 0; j < slabs.size(); ++j) {
      VmmMemory& m = slabs[TurnReversed(k) ? slabs.size() - 1 - j : j];
      if (k >= m.size / piece) continue;
      auto h = CreatePiece(piece);
      if (!h.ok()) {
        release_all();
        return h.status();
      }
      m.pieces.push_back(*h);
    }
  }
  for (VmmMemory& m : slabs) {
    if (Status s = Map(&m); !s.ok()) {
      release_all();
      return s;
    }
  }
  return slabs;
}

Result<std::vector<int>> Vmm::Export(const VmmMemory& m, size_t first, size_t count) const {
  std::vector<int> fds;
  for (size_t i = first; i < std::min(m.pieces.size(), first + count); ++i) {
    auto fd = ExportPiece(m.pieces[i]);
    if (!fd.ok()) {
      for (int f : fds) close(f);
      return fd.status();
    }
    fds.push_back(*fd);
  }
  return fds;
}

Status Vmm::ImportPieces(const std::vector<int>& fds, VmmMemory* m) const {
  if (m->piece == 0 || m->piece % granularity_ != 0 || m->size == 0 || m->size % m->piece != 0) {
    return InvalidArgument("a shared size off the granularity");
  }
  if (m->ptr != 0 || m->pieces.size() + fds.size() > m->size / m->piece) {
    return InvalidArgument("more pieces than the shared size holds");
  }
  for (int fd : fds) {
    ARENA_ASSIGN_OR_RETURN(uint64_t h, ImportPiece(fd));
    m->pieces.push_back(h);
  }
  return OkStatus();
}

Status Vmm::Map(VmmMemory* m) const {
  if (m->ptr != 0) return OkStatus();
  if (m->piece == 0 || m->pieces.size() * m->piece != m->size) {
    return InvalidArgument("not every piece of the memory is here");
  }
  ARENA_ASSIGN_OR_RETURN(uint64_t ptr, Reserve(m->size));
  size_t mapped = 0;
  Status s;
  for (; mapped < m->pieces.size(); ++mapped) {
    s = MapPiece(ptr + mapped * m->piece, m->piece, m->pieces[mapped]);
    if (!s.ok()) break;
  }
  if (s.ok()) s = SetAccess(ptr, m->size);
  if (!s.ok()) {
    for (size_t i = 0; i < mapped; ++i) UnmapPiece(ptr + i * m->piece, m->piece);
    Unreserve(ptr, m->size);
    return s;
  }
  m->ptr = ptr;
  return OkStatus();
}

void Vmm::Release(const VmmMemory& m) const {
  if (m.ptr != 0) {
    for (size_t i = 0; i < m.pieces.size(); ++i) UnmapPiece(m.ptr + i * m.piece, m.piece);
    Unreserve(m.ptr, m.size);
  }
  for (uint64_t h : m.pieces) ReleasePiece(h);
}

}  // namespace arena::hip2hip
