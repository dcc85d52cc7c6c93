// What a HIP subject does with the GPU, seen from inside its runner through
// CUPTI (loaded, subscribed and enabled before the subject's library):
// every kernel launch (runtime or driver API, eager or captured), every
// copy that lands in host memory (CUPTI's copy records, whatever API made
// it), every allocation of host memory the device can reach (pinned,
// registered, managed, or virtual memory placed on the host), and every
// export of device memory to another process (which no observer watches).
// Host computation needs a copy to the host or host memory the GPU reaches
// to see the inputs; a call that launches no kernel did not compute on
// the GPU.
//
// The observation runs in the subject's process: a subject written against
// it can switch it off. The runner checks, at every Take, that its
// callbacks are still enabled and that a copy of its own still shows up in
// the records; a subject that turned either off is named.
//
//   Observer o;
//   if (Status s = o.Start(); !s.ok()) ...  // before dlopen of the subject
//   ... the subject's calls ...
//   Observation seen = o.Take();           // since the last Take
//
// A timed round of a captured graph is observed another way. CUPTI's copy
// records cost every kernel inside a graph about as much as its launch
// (docs/results/hip-quiet-rounds-h200-2026-12-03), which would time both
// subjects' short calls at up to twice their cost, with the records' noise.
// So the graph is inspected when it is captured (InspectGraph: kernels,
// copies and sets into device memory, allocations and events only), and
// its timed replays are quiet (BeginQuietRound): copy records off, every
// API call watched instead, and any copy call made during the round (the
// replay makes none) a finding. Take ends the quiet round, checks that
// the copy calls were still watched, and turns the records on again.
#ifndef ARENA_PLUGINS_HIP2HIP_RUNNER_OBSERVER_H_
#define ARENA_PLUGINS_HIP2HIP_RUNNER_OBSERVER_H_

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "core/status.h"

namespace arena::hip2hip {

struct Observation {
  int64_t launches = 0;  // kernel launches (a launch may be seen by both APIs)
  int64_t graph_launches = 0;
  // What the subject may not do: as it happened since the last Take, and
  // host memory the GPU can reach at every Take after its allocation (a
  // subject keeps such memory across calls).
  std::vector<std::string> findings;
};

class Observer {
 public:
  Observer() = default;
  Observer(const Observer&) = delete;
  Observer& operator=(const Observer&) = delete;

  // Loads CUPTI and starts observing; an error says why it cannot (no
  // CUPTI library, or it refused), and nothing is observed then.
  Status Start();
  // What happened since the last Take (or Start), after flushing CUPTI's
  // records and checking that the observation is still on.
  Observation Take();
  // What a captured graph holds that is not the subject's GPU work on
  // device memory (a host function, a copy or a set into host memory, a
  // node of a kind not inspected): findings, seen at the next Take.
  void InspectGraph(cudaGraph_t graph);
  // Until the next Take: copy records off, every copy call a finding.
  // Returns false (and changes nothing) when not observing.
  bool BeginQuietRound();
  // Copy records off while a graph is captured and instantiated (its calls
  // do not run then; what the graph holds is inspected instead), on again
  // after it; Take turns them on in any case.
  void RecordCopies(bool on);
  // Whether the runner is running the subject's code (a call, a capture, a
  // replay of its graph). A kernel launched while it is not comes from a
  // thread the subject left running: a finding. The subject computes when
  // called; such a thread could otherwise work on a round's inputs before
  // the round's clock starts, or load the GPU for whoever is timed next.
  void SubjectRunning(bool running) { subject_running_.store(running); }

  // Called by CUPTI (public for its C callbacks).
  bool quiet_round() const { return quiet_.load(); }
  void OnLaunch(bool graph);
  void OnFinding(std::string what, bool sticky = false);
  void OnRecords(uint8_t* buffer, size_t valid);

 private:
  bool CanaryCopied();
  bool EnableWatched();
  void EndQuietRound();
  void Inspect(cudaGraph_t graph, int depth);

  void* cupti_ = nullptr;
  void* subscriber_ = nullptr;
  std::atomic<int64_t> launches_{0};
  std::atomic<int64_t> graph_launches_{0};
  std::atomic<int64_t> canaries_{0};
  std::atomic<bool> quiet_{false};
  std::atomic<bool> subject_running_{false};
  std::mutex mu_;
  std::vector<std::string> findings_;
  std::vector<std::string> sticky_;
  void* canary_ = nullptr;  // two device words the runner copies between
};

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_HIP2HIP_RUNNER_OBSERVER_H_
