// Where a launch-bound call's time depends on where its memory lies.
//
// A round of the HIP judge is one CUDA graph of K launches of a kernel that
// touches a few hundred bytes per call, each call on its own set of buffers,
// with the L2 evicted before the round. Two processes running the same code
// this way differ by up to 13% (docs/methodology.md). This probe separates
// the candidate causes inside one process:
//   chunk   the K sets packed into 1 MiB at one of 32 places of a 1 GiB pool:
//           if the time per launch depends on the place, memory placement
//           alone makes a per-process offset (each subject's sets lie in
//           one place of its own);
//   graph   the same sets, the graph instantiated afresh 8 times;
//   spread  the K sets spread over 256 places 4 MiB apart.
// Prints one line per measurement, then a summary line; run it in several
// processes to see what differs between them.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe.cuh"

namespace {

constexpr int kLaunches = 1000;
constexpr size_t kPool = size_t{1} << 30;

using probe::Check;
using probe::kSetBytes;
using probe::Tiny;

struct Probe {
  cudaStream_t stream;
  char* pool;
  char* evict;
  size_t evict_bytes;

  cudaGraphExec_t Capture(const std::vector<char*>& sets) {
    cudaGraph_t graph;
    Check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "capture");
    for (char* s : sets) Tiny<<<1, 64, 0, stream>>>(reinterpret_cast<const float*>(s), reinterpret_cast<float*>(s + 512));
    Check(cudaStreamEndCapture(stream, &graph), "end capture");
    cudaGraphExec_t exec;
    Check(cudaGraphInstantiate(&exec, graph, 0), "instantiate");
    cudaGraphDestroy(graph);
    return exec;
  }

  // Microseconds per launch of one replay after the L2 is evicted, on the
  // host's clock (as the judge times a round).
  double Replay(cudaGraphExec_t exec) {
    Check(cudaMemsetAsync(evict, 0x5a, evict_bytes, stream), "evict");
    Check(cudaStreamSynchronize(stream), "sync");
    const auto t0 = std::chrono::steady_clock::now();
    Check(cudaGraphLaunch(exec, stream), "launch");
    Check(cudaStreamSynchronize(stream), "sync");
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / kLaunches;
  }

  double Best(cudaGraphExec_t exec, int reps) {
    double best = 1e30;
    for (int r = 0; r < reps; ++r) best = std::min(best, Replay(exec));
    return best;
  }
};

std::vector<char*> Packed(char* at) {
  std::vector<char*> sets;
  for (int k = 0; k < kLaunches; ++k) sets.push_back(at + k * kSetBytes);
  return sets;
}

}  // namespace

int main() {
  Probe p;
  Check(cudaStreamCreateWithFlags(&p.stream, cudaStreamNonBlocking), "stream");
  Check(cudaMalloc(&p.pool, kPool), "pool");
  Check(cudaMemset(p.pool, 0, kPool), "zero");
  int l2 = 0;
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
  p.evict_bytes = 2 * static_cast<size_t>(l2);
  Check(cudaMalloc(&p.evict, p.evict_bytes), "evict buffer");

  std::vector<double> chunk;
  for (int c = 0; c < 32; ++c) {
    cudaGraphExec_t g = p.Capture(Packed(p.pool + static_cast<size_t>(c) * (kPool / 32)));
    p.Best(g, 2);  // warm
    chunk.push_back(p.Best(g, 7));
    std::printf("chunk %2d %.4f us/launch\n", c, chunk.back());
    cudaGraphExecDestroy(g);
  }
  std::vector<double> graph;
  for (int i = 0; i < 8; ++i) {
    cudaGraphExec_t g = p.Capture(Packed(p.pool));
    p.Best(g, 2);
    graph.push_back(p.Best(g, 7));
    std::printf("graph %d %.4f us/launch\n", i, graph.back());
    cudaGraphExecDestroy(g);
  }
  std::vector<char*> spread;
  for (int k = 0; k < kLaunches; ++k) spread.push_back(p.pool + (k % 256) * (size_t{4} << 20) + (k / 256) * kSetBytes);
  cudaGraphExec_t g = p.Capture(spread);
  p.Best(g, 2);
  const double spread_us = p.Best(g, 9);
  std::printf("spread %.4f us/launch\n", spread_us);
  auto span = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return std::make_pair(v.front(), v.back());
  };
  const auto [cmin, cmax] = span(chunk);
  const auto [gmin, gmax] = span(graph);
  std::printf("summary chunk_min %.4f chunk_max %.4f chunk_spread %.1f%% graph_spread %.1f%% spread %.4f\n", cmin, cmax,
              100 * (cmax / cmin - 1), 100 * (gmax / gmin - 1), spread_us);
  return 0;
}
