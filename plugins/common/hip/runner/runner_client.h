// The judge's side of a subject's runner (runner.cc): starts it (the
// command line, a sandbox around the runner, comes from the family plugin),
// lends it device memory, sends requests and waits for the answers, stops
// and resumes its whole process tree, and kills it. Every failure says
// whose it is: a runner that dies, hangs, closes its channel or sends bytes
// that break the protocol has failed, with its log's tail.
#ifndef ARENA_PLUGINS_HIP2HIP_RUNNER_RUNNER_CLIENT_H_
#define ARENA_PLUGINS_HIP2HIP_RUNNER_RUNNER_CLIENT_H_

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "plugins/common/hip/runner/channel.h"
#include "plugins/common/hip/runner/vmm.h"

namespace arena::hip2hip {

class RunnerClient {
 public:
  RunnerClient(std::string subject, std::vector<std::string> argv, std::string log_path)
      : subject_(std::move(subject)), argv_(std::move(argv)), log_path_(std::move(log_path)) {}
  ~RunnerClient() { Stop(); }
  RunnerClient(const RunnerClient&) = delete;
  RunnerClient& operator=(const RunnerClient&) = delete;

  // Starts the runner and waits for it to say it loaded its library.
  Status Start(double timeout_s);
  // Start in two halves, so that runners start side by side: the process
  // started, then its word that it loaded its library awaited. Nothing but
  // AwaitReady (or Stop) may follow Launch.
  Status Launch();
  Status AwaitReady(double timeout_s);
  // Whether AwaitReady (or Start) succeeded since the last Launch.
  bool ready() const { return ready_; }
  void Stop();
  // Sends the kill alone (Stop then reaps it): several runners ended at
  // once tear their GPU contexts down side by side.
  void Kill();
  bool alive();

  // One request and its answer. An answer {"ok": false, "why": ...} is
  // returned as it is (the caller decides); errors are the runner's
  // failures (dead, hung, protocol broken) with what its log says.
  Result<nlohmann::json> Request(const nlohmann::json& req, double timeout_s,
                                 const std::vector<int>& fds = {});

  // What the judge does when the runner stops for a witness inside a
  // request (runner.cc): after eager call I of a "call" request of several
  // sets returned (on_pause), or when a replay's first part, calls 0..I,
  // is launched (on_split). The runner goes on once the handler returns
  // (none set: at once). A split outside a replay, a second one in a
  // request, a pause outside a call of several sets, or one at a call not
  // after the last one paused at (the subject can write pauses too) break
  // the protocol.
  std::function<void(int64_t)> on_pause, on_split;

  // Stops (SIGSTOP) or resumes the runner's whole tree, so that it cannot
  // submit work while the other subject is timed.
  void Freeze(bool stopped);
  // A finding if the tree ran on a CPU since it was stopped ("" if not, or
  // if it is not stopped): a SIGCONT of its own (a timer's, which no
  // filter sees) undoes the stop, and the tree then works while the other
  // subject is timed, or reads a round's inputs as they are written. Its
  // threads' time on a CPU is the judge's to read and no signal's to undo.
  std::string RanWhileStopped();
  // The stops since the last call, and the fewest threads one of them
  // counted (seen stopped and off every run queue: RanWhileStopped's
  // count of times on a CPU holds for those; none where the judge may not
  // read their wchan, and the time on a CPU alone then tells). Reported
  // with a timing, so that a run shows the check held.
  struct StopTally {
    int stops = 0;
    size_t fewest_counted = 0;
    // The most time on a CPU a check found a stopped tree had run, under
    // the slack (what honest runners come to, against kStoppedSlackNs).
    uint64_t most_ns_while_stopped = 0;
  };
  StopTally TakeStopTally();

  // How long a receive from the runner polls before it sleeps (the timing
  // sets it while it times: Channel::set_spin_s); kept across restarts.
  void set_spin_s(double spin_s) {
    spin_s_ = spin_s;
    if (channel_ != nullptr) channel_->set_spin_s(spin_s);
  }

  // At least `bytes` of the judge's device memory lent to this runner; the
  // slab is kept (and grown) across requests. `judge_ptr` is the judge's
  // address of it; tensors are named by (slab id, offset).
  Status Reserve(const Vmm& vmm, size_t bytes, double timeout_s);
  // The same for each of `runners` (those timed against each other), their
  // slabs made together (Vmm::CreateTogether: pieces allocated in turns,
  // so that where memory lies weighs on each alike) and kept while they
  // fit. On an error, `failed` names the runner it came from (null: the
  // judge's own memory).
  static Status ReserveTogether(const std::vector<RunnerClient*>& runners, const Vmm& vmm, size_t bytes,
                                double timeout_s, RunnerClient** failed);
  int slab_id() const { return slab_id_; }
  uint64_t slab_ptr() const { return slab_.ptr; }
  size_t slab_size() const { return slab_.size; }

  const std::string& subject() const { return subject_; }
  std::string LogTail(size_t max_bytes = 4000) const;
  // How the process ended ("" while it runs).
  std::string ExitDescription();

 private:
  Status Failure(const std::string& what);
  void ReleaseSlab();
  // Takes back the slab lent, if any; lends slab_ under a new id.
  Status Unlend(double timeout_s);
  Status Lend(double timeout_s);

  std::string subject_;
  std::vector<std::string> argv_;
  std::string log_path_;
  pid_t pid_ = -1;
  int status_ = 0;
  bool reaped_ = false;
  std::unique_ptr<Channel> channel_;
  double spin_s_ = 0;
  bool ready_ = false;
  std::vector<pid_t> frozen_;
  // The tree's time on a CPU as it was stopped, and what a stopped tree
  // may still be charged (a signal's delivery; one clock tick more where
  // the kernel counts in ticks).
  uint64_t stopped_cpu_ns_ = 0;
  static constexpr uint64_t kStoppedSlackNs = 500000;
  bool stopped_coarse_ = false;  // that time counted in clock ticks
  // Every thread seen stopped then (its /proc/PID/task/TID), with the
  // times it had been put on a CPU: any change is a stop undone.
  std::map<std::string, int64_t> stopped_slices_;
  // A thread that ran or slept on after the stop, where one did (NotStopped).
  std::string not_stopped_;
  StopTally tally_;
  const Vmm* vmm_ = nullptr;
  VmmMemory slab_;
  int slab_id_ = 0;
  uint64_t together_ = 0;  // which ReserveTogether made slab_ (0: made alone)
};

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_HIP2HIP_RUNNER_RUNNER_CLIENT_H_
