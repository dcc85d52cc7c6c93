// The HIP judge's verdicts on what it reads back at a witnessed call
// (plugins/common/hip/worker/timing.cc; runner/runner.cc says when a call
// is witnessed), apart from the device, so that they are tested on any
// machine. `runs` holds, one set after another, a run of `run` places of
// each set of a round after the witness (as DownloadSetRuns packs them).
#ifndef ARENA_PLUGINS_COMMON_HIP_WORKER_WITNESS_H_
#define ARENA_PLUGINS_COMMON_HIP_WORKER_WITNESS_H_

#include <cstdint>
#include <cstring>

#include "plugins/common/hip/worker/tensors.h"

namespace arena::hip2hip {

// Whether place `j` of `t` holds the judge's poison, byte for byte.
inline bool HoldsPoison(const HostTensor& t, size_t j, const HostTensor& poison) {
  const size_t es = DtypeSize(t.dtype);
  return std::memcmp(t.bytes.data() + j * es, poison.bytes.data(), es) == 0;
}

// As the witness is taken, before the later sets' calls have run: the
// first later set (0: the one after the witnessed call) whose run holds
// anything but the poison written before the round, so written ahead of
// its call; -1 where none is.
inline int64_t FirstWrittenAhead(const HostTensor& runs, size_t run) {
  const HostTensor poison = Poisoned(runs.dtype, {1});
  const size_t places = runs.bytes.size() / DtypeSize(runs.dtype);
  for (size_t j = 0; run > 0 && j < places; ++j) {
    if (!HoldsPoison(runs, j, poison)) return static_cast<int64_t>(j / run);
  }
  return -1;
}

// After the round, the runs the judge poisoned again at the witness: the
// first later set whose run is left poisoned where its own call must have
// written it. Beside another subject (`theirs`, its outputs at the same
// places on the same inputs): a place poisoned in `mine` and written in
// `theirs`. Timed alone (`theirs` null), with nothing to say what is
// written where: the whole run poisoned (an honest int8 output may hold
// the poison at a place, not at every place of a run). -1 where none is.
inline int64_t FirstLeftPoisoned(const HostTensor& mine, const HostTensor* theirs, size_t run) {
  const HostTensor poison = Poisoned(mine.dtype, {1});
  const size_t places = mine.bytes.size() / DtypeSize(mine.dtype);
  for (size_t set = 0; run > 0 && set < places / run; ++set) {
    bool whole = true, beside = false;
    for (size_t j = set * run; j < (set + 1) * run; ++j) {
      const bool left = HoldsPoison(mine, j, poison);
      whole &= left;
      beside |= left && theirs != nullptr && !HoldsPoison(*theirs, j, poison);
    }
    if (theirs != nullptr ? beside : whole) return static_cast<int64_t>(set);
  }
  return -1;
}

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_COMMON_HIP_WORKER_WITNESS_H_
