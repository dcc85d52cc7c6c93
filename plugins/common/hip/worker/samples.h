// The places of an output the HIP judge reads after a timed round, and a
// reference written at a few of them alone (no CUDA: tested anywhere).
//
//   const Sample s = PickSample(n, rng);   // then read s.count elements
//   auto at = ReferenceAt::Of(spec, n);    // a reference at a few phases
//   auto [s, from] = at->Pick(rng);        // reference values from `from`
#ifndef ARENA_PLUGINS_COMMON_HIP_WORKER_SAMPLES_H_
#define ARENA_PLUGINS_COMMON_HIP_WORKER_SAMPLES_H_

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace arena::hip2hip {

// Positions of a tensor the judge verifies after a timed round: all of a
// small tensor, else about 64K evenly spaced from a secret start. A subject
// that skips or fakes a share f of its outputs is caught with probability
// about 1 - (1 - f)^65536 per round; reading all of a large tensor back
// every round would cost more than the round itself.
struct Sample {
  size_t start = 0, stride = 1, count = 0;
};

// Every element up to 64 Ki, else 64 Ki at a secret phase: a subject
// that skips or fakes even 1% of a timed call's outputs is caught with a
// chance of 1 - 0.99^65536. The stride between the places read of an
// output of n elements (1: all of them); what the PyTorch-to-HIP
// reference worker computes too, to write a reference at a few phases.
inline size_t SampleStride(size_t n) {
  constexpr size_t kAll = size_t{1} << 16, kSampled = size_t{1} << 16;
  return n <= kAll ? 1 : n / kSampled;
}

// The places read from `start` (below SampleStride(n)).
inline Sample SampleAt(size_t n, size_t start) {
  const size_t stride = SampleStride(n);
  return {start, stride, n > start ? (n - start + stride - 1) / stride : 0};
}

inline Sample PickSample(size_t n, std::mt19937_64& rng) {
  const size_t stride = SampleStride(n);
  return SampleAt(n, stride == 1 ? 0 : std::uniform_int_distribution<size_t>(0, stride - 1)(rng));
}

// A reference written at a few secret phases of an output alone (the
// PyTorch-to-HIP reference worker's verification trials: the judge reads
// the chosen set at one of them, drawn each round): the phases' starts,
// in the file's order, and where each one's values begin there. Written
// whole, an output's float64 reference is twice an fp32 output's bytes,
// written by one process and read back by the other, for 64 Ki places a
// round.
struct ReferenceAt {
  size_t numel = 0;
  std::vector<size_t> starts, from;

  // From a reference file's spec ({"numel", "stride", "starts"}) holding
  // `values` values, for an output of `n` elements: an error where the
  // spec is not what SampleAt reads (another stride, a start past it, too
  // few or too many values). Nothing where the spec names no starts (a
  // whole reference).
  static Result<ReferenceAt> Of(const nlohmann::json& spec, size_t n, size_t values) {
    ReferenceAt at;
    if (!spec.contains("starts")) return at;
    const size_t stride = SampleStride(n);
    if (spec.value("numel", size_t{0}) != n || spec.value("stride", size_t{0}) != stride) {
      return InvalidArgument("a reference at phases of another output (" + spec.value("numel", nlohmann::json()).dump() +
                             " elements, stride " + spec.value("stride", nlohmann::json()).dump() + "; " +
                             std::to_string(n) + " and " + std::to_string(stride) + " expected)");
    }
    size_t total = 0;
    for (const auto& s : spec["starts"]) {
      const size_t start = s.get<size_t>();
      if (start >= stride) return InvalidArgument("a reference's phase " + std::to_string(start) + " is past its stride");
      at.starts.push_back(start);
      at.from.push_back(total);
      total += SampleAt(n, start).count;
    }
    if (at.starts.empty() || total != values) {
      return InvalidArgument("a reference at phases holds " + std::to_string(values) + " values, its phases read " +
                             std::to_string(total));
    }
    at.numel = n;
    return at;
  }

  bool whole() const { return starts.empty(); }

  // One of the phases, drawn: the places read, and where their reference
  // values begin.
  std::pair<Sample, size_t> Pick(std::mt19937_64& rng) const {
    const size_t k = std::uniform_int_distribution<size_t>(0, starts.size() - 1)(rng);
    return {SampleAt(numel, starts[k]), from[k]};
  }
};

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_COMMON_HIP_WORKER_SAMPLES_H_
