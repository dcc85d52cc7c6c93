// Things started ahead of the evaluation that will use them (a family's
// workers, which take seconds to import what they need), at most one per
// key: the next evaluation with that key takes it, or starts its own where
// none is kept or the one kept is no longer of use. Those never taken end
// with the process (their destructors).
//
//   static Spares<WorkerProcess> spares;
//   spares.Prepare(key, [&] { return WorkerProcess::Start(options); });
//   std::unique_ptr<WorkerProcess> w = spares.Take(key, [](const WorkerProcess& p) { return p.alive(); });
#ifndef ARENA_CORE_SPARES_H_
#define ARENA_CORE_SPARES_H_

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/status.h"

namespace arena {

template <typename T>
class Spares {
 public:
  // The one kept for `key`, if any and `usable` says it is; else null (one
  // not usable is dropped).
  std::unique_ptr<T> Take(const std::string& key, const std::function<bool(const T&)>& usable) {
    std::unique_ptr<T> taken;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = kept_.find(key);
      if (it == kept_.end()) return nullptr;
      taken = std::move(it->second);
      kept_.erase(it);
    }
    return taken != nullptr && usable(*taken) ? std::move(taken) : nullptr;
  }

  // Starts one for `key` (outside the lock: starting may take a while)
  // unless one is kept; one that does not start is no one's failure (the
  // next evaluation starts its own), and one started while another was
  // kept meanwhile is dropped.
  void Prepare(const std::string& key, const std::function<Result<std::unique_ptr<T>>()>& start) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (kept_.count(key)) return;
    }
    Result<std::unique_ptr<T>> started = start();
    if (!started.ok() || *started == nullptr) return;
    std::lock_guard<std::mutex> lock(mu_);
    if (!kept_.count(key)) kept_[key] = std::move(*started);
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<T>> kept_;
};

}  // namespace arena

#endif  // ARENA_CORE_SPARES_H_
