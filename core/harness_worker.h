// The long-lived harness process of one evaluation, as families use it:
// started on first use, sent one JSON request per stage, and started afresh
// after a candidate crashed or hung it (that stage is the candidate's
// failure, recorded with the worker's last words on stderr).
//
//   HarnessWorker worker([&]() -> Result<std::unique_ptr<WorkerProcess>> {
//     ARENA_ASSIGN_OR_RETURN(auto w, WorkerProcess::Start(options));
//     ARENA_RETURN_IF_ERROR(InitializeWorker(*w, init_request, 300, "my worker"));
//     return w;
//   });
//   StageOutcome o = worker.Send(check_request, 600, "candidate");
#ifndef ARENA_CORE_HARNESS_WORKER_H_
#define ARENA_CORE_HARNESS_WORKER_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/family.h"
#include "core/process.h"

namespace arena {

// Sends `init` and requires a reply with status "passed".
// The Python interpreter for harness workers written in Python:
// $ARENA_PYTHON, else the project's .venv/bin/python, else python3.
std::string HarnessPython(const std::string& project_root);

// What a Python interpreter needs to run in a sandbox: the folders outside
// /usr to bind (its prefixes, the real paths behind them, and the folders
// on its sys.path, which may come from PYTHONPATH) and that sys.path, to be
// set again inside. Asked of the interpreter once per process.
struct PythonInstall {
  std::vector<std::string> folders;
  std::string path;  // sys.path joined with ':'
};
Result<PythonInstall> PythonInstallation(const std::string& python);

Status InitializeWorker(WorkerProcess& worker, const Json& init, double timeout_s,
                        const std::string& what, Json* metrics = nullptr);

// A reply line ({status, detail, log, seconds, metrics}) as a StageOutcome;
// status "error" (the harness's own failure) becomes a failure saying so.
StageOutcome OutcomeFromReply(const Json& reply);

class HarnessWorker {
 public:
  using StartFn = std::function<Result<std::unique_ptr<WorkerProcess>>()>;
  explicit HarnessWorker(StartFn start) : start_(std::move(start)) {}
  ~HarnessWorker() { Stop(); }
  HarnessWorker(const HarnessWorker&) = delete;
  HarnessWorker& operator=(const HarnessWorker&) = delete;

  // `who` names the subject whose code runs in this request ("candidate").
  StageOutcome Send(const Json& request, double timeout_s, const std::string& who,
                    Json* reply = nullptr);
  // Asks the worker to quit, then kills its process group.
  void Stop();
  // Whether a worker process is up (Send starts one when none is).
  bool running() const { return worker_ && worker_->alive(); }

 private:
  StartFn start_;
  std::unique_ptr<WorkerProcess> worker_;
};

}  // namespace arena

#endif  // ARENA_CORE_HARNESS_WORKER_H_
