// What the judge-runner protocol costs on the host: one request and its
// answer over the channel (a runner thread echoing {"ok": true}), for the
// empty request a timing round subtracts, a check's call with its tensor
// descriptions, and a bind that carries a descriptor. The GPU's own part (a
// graph launch, a device synchronisation) comes on top on a GPU machine.
//
//   bazel run -c opt //plugins/common/hip:channel_benchmark
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <thread>

#include <benchmark/benchmark.h>

#include "plugins/common/hip/runner/channel.h"

namespace arena::hip2hip {
namespace {

using Json = nlohmann::json;

// A judge's channel to a runner thread that answers every message.
struct Pair {
  std::unique_ptr<Channel> judge;
  std::thread runner;
  Pair() {
    int sv[2];
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    judge = std::make_unique<Channel>(sv[0]);
    runner = std::thread([fd = sv[1]] {
      Channel c(fd);
      for (;;) {
        auto m = c.Receive(-1);
        if (!m.ok()) return;
        for (int f : m->fds) close(f);
        if (!c.Send({{"ok", true}}).ok()) return;
      }
    });
  }
  ~Pair() {
    judge.reset();  // the runner sees the channel close
    runner.join();
  }
};

Json CallRequest(int tensors) {
  Json in = Json::array();
  for (int i = 0; i < tensors; ++i) {
    in.push_back({{"slab", 1}, {"off", 4096 * i}, {"stride", 4096}, {"dtype", "float16"}, {"shape", {4096, 11008}}});
  }
  return {{"op", "call"}, {"sets", 1}, {"in", in}, {"out", in}, {"params", Json::array({{"rows", 4096}})}};
}

void BM_RoundTrip(benchmark::State& state) {
  Pair p;
  const Json req = state.range(0) == 0 ? Json{{"op", "empty"}} : CallRequest(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    (void)p.judge->Send(req);
    auto m = p.judge->Receive(5);
    benchmark::DoNotOptimize(m.ok());
  }
}
BENCHMARK(BM_RoundTrip)->Arg(0)->Arg(4)->Arg(16)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_BindWithDescriptor(benchmark::State& state) {
  Pair p;
  const int fd = memfd_create("slab", 0);
  for (auto _ : state) {
    (void)p.judge->Send({{"op", "bind"}, {"id", 1}, {"size", 2 << 20}}, {fd});
    auto m = p.judge->Receive(5);
    benchmark::DoNotOptimize(m.ok());
  }
  close(fd);
}
BENCHMARK(BM_BindWithDescriptor)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace arena::hip2hip
