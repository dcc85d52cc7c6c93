// What stopping a runner and checking the stop cost the judge on the host,
// per round: Freeze(true) (the stop, the wait until every thread stopped,
// the tree read again, its settled time on a CPU and every stopped
// thread's count of times on a CPU), RanWhileStopped and Freeze(false),
// against a runner of N threads (a Python process whose threads sleep).
//
//   bazel run -c opt //plugins/common/hip:freeze_benchmark
#include <unistd.h>

#include <string>

#include <benchmark/benchmark.h>

#include "plugins/common/hip/runner/runner_client.h"

namespace arena::hip2hip {
namespace {

// A runner that says it is ready, then idles with `threads` threads.
RunnerClient Idle(int threads) {
  const std::string script =
      "printf '\\030\\000\\000\\000{\"ok\":true,\"ready\":true}' >&0; exec python3 -c '"
      "import threading, time\n"
      "for _ in range(" + std::to_string(threads - 1) + "):\n"
      "    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()\n"
      "time.sleep(3600)'";
  return RunnerClient("candidate", {"/bin/sh", "-c", script}, "/dev/null");
}

void BM_StopAndCheck(benchmark::State& state) {
  RunnerClient r = Idle(static_cast<int>(state.range(0)));
  if (!r.Start(30).ok()) {
    state.SkipWithError("the runner did not start");
    return;
  }
  usleep(300000);  // its threads started
  for (auto _ : state) {
    r.Freeze(true);
    benchmark::DoNotOptimize(r.RanWhileStopped());
    r.Freeze(false);
  }
  state.counters["stops"] = r.TakeStopTally().stops;
}
BENCHMARK(BM_StopAndCheck)->Arg(1)->Arg(25)->Arg(100)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace arena::hip2hip

BENCHMARK_MAIN();
