// Values prepared in the background, several at once, within a byte
// budget: the HIP judge prepares the trials (inputs and CPU references) of
// the configurations that come next while the current one is checked, each
// on a thread of its own, so that a task's references (one core each) run
// side by side rather than one configuration after another. Nothing of it
// may run while a subject is timed: Finish() waits for every one first.
//
//   Prefetcher<Trials> ahead(16ull << 30);
//   ahead.Start("tuning_n4096/7", bytes, [=] { return MakeTrials(...); });
//   ahead.Finish();                                // all started ones done
//   if (auto t = ahead.Take("tuning_n4096/7")) ...  // waited for, handed over
#ifndef ARENA_PLUGINS_HIP2HIP_WORKER_PREFETCHER_H_
#define ARENA_PLUGINS_HIP2HIP_WORKER_PREFETCHER_H_

#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace arena::hip2hip {

template <typename V>
class Prefetcher {
 public:
  explicit Prefetcher(size_t budget_bytes) : budget_(budget_bytes) {}
  ~Prefetcher() { Clear(); }
  Prefetcher(const Prefetcher&) = delete;
  Prefetcher& operator=(const Prefetcher&) = delete;

  // Starts making the value under `key` (about `bytes` of memory) on a
  // thread of its own, unless it is being made already. Returns false, and
  // starts nothing, when it would take the values held or being made past
  // the budget; one value alone is always started.
  bool Start(const std::string& key, size_t bytes, std::function<V()> make) {
    if (jobs_.count(key)) return true;
    if (!Fits(bytes)) return false;
    auto job = std::make_unique<Job>();
    job->bytes = bytes;
    Job* raw = job.get();
    job->thread = std::thread([raw, make = std::move(make)] { raw->value = make(); });
    jobs_[key] = std::move(job);
    bytes_ += bytes;
    return true;
  }

  // Whether a value of about `bytes` would be started now (Start's rule):
  // for a caller with work to do before it starts one.
  bool Fits(size_t bytes) const { return jobs_.empty() || bytes_ + bytes <= budget_; }

  bool Has(const std::string& key) const { return jobs_.count(key) > 0; }

  // The value under `key`, waited for and handed over; nothing if none was
  // started.
  std::optional<V> Take(const std::string& key) {
    auto it = jobs_.find(key);
    if (it == jobs_.end()) return std::nullopt;
    Job& job = *it->second;
    if (job.thread.joinable()) job.thread.join();
    std::optional<V> value = std::move(job.value);
    bytes_ -= job.bytes;
    jobs_.erase(it);
    return value;
  }

  // Waits for every value being made; they stay, to be taken.
  void Finish() {
    for (auto& [key, job] : jobs_) {
      if (job->thread.joinable()) job->thread.join();
    }
  }

  // Waits for every value being made, and drops them all.
  void Clear() {
    Finish();
    jobs_.clear();
    bytes_ = 0;
  }

  size_t bytes() const { return bytes_; }

 private:
  struct Job {
    size_t bytes = 0;
    std::optional<V> value;
    std::thread thread;
  };

  size_t budget_;
  size_t bytes_ = 0;
  std::map<std::string, std::unique_ptr<Job>> jobs_;
};

// make(k) for k in [0, n), at most `at_once` (at least one) on threads of
// their own at a time; each result in its place.
template <typename V>
std::vector<std::optional<V>> SideBySide(size_t n, size_t at_once, const std::function<V(size_t)>& make) {
  std::vector<std::optional<V>> done(n);
  at_once = std::max<size_t>(at_once, 1);
  for (size_t first = 0; first < n; first += at_once) {
    std::vector<std::thread> batch;
    for (size_t k = first; k < std::min(n, first + at_once); ++k) {
      batch.emplace_back([&done, &make, k] { done[k].emplace(make(k)); });
    }
    for (auto& t : batch) t.join();
  }
  return done;
}

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_HIP2HIP_WORKER_PREFETCHER_H_
