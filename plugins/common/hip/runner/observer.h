// What a HIP subject does with the GPU, seen from inside its runner through
// CUPTI (loaded, subscribed and enabled before the subject's library):
// every kernel launch (runtime or driver API, eager or captured), every
// copy that lands in host memory (CUPTI's copy records, whatever API made
// it), and every allocation of host memory the device can reach (pinned,
// registered, managed, or virtual memory placed on the host). Host
// computation needs one of the last two to see the inputs; a call that
// launches no kernel did not compute on the GPU.
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
#ifndef ARENA_PLUGINS_HIP2HIP_RUNNER_OBSERVER_H_
#define ARENA_PLUGINS_HIP2HIP_RUNNER_OBSERVER_H_

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

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

  // Called by CUPTI (public for its C callbacks).
  void OnLaunch(bool graph);
  void OnFinding(std::string what, bool sticky = false);
  void OnRecords(uint8_t* buffer, size_t valid);

 private:
  bool CanaryCopied();

  void* cupti_ = nullptr;
  void* subscriber_ = nullptr;
  std::atomic<int64_t> launches_{0};
  std::atomic<int64_t> graph_launches_{0};
  std::atomic<int64_t> canaries_{0};
  std::mutex mu_;
  std::vector<std::string> findings_;
  std::vector<std::string> sticky_;
  void* canary_ = nullptr;  // two device words the runner copies between
};

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_HIP2HIP_RUNNER_OBSERVER_H_
