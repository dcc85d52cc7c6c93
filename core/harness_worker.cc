#include "core/harness_worker.h"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>

namespace arena {

std::string HarnessPython(const std::string& project_root) {
  if (const char* env = std::getenv("ARENA_PYTHON"); env != nullptr && *env) {
    // A relative path ("venv/bin/python") means from where the arena was
    // started: workers start elsewhere.
    const std::string python = env;
    if (python.find('/') == std::string::npos) return python;  // found on PATH
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(python, ec);
    return ec ? python : absolute.lexically_normal().string();
  }
  std::filesystem::path venv = std::filesystem::path(project_root) / ".venv" / "bin" / "python";
  if (std::filesystem::exists(venv)) return venv.string();
  return "python3";
}

Result<PythonInstall> PythonInstallation(const std::string& python) {
  static std::mutex mu;
  static std::map<std::string, PythonInstall> known;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = known.find(python); it != known.end()) return it->second;
  ProcessOptions o;
  o.argv = {python, "-c",
            "import json, os, sys\n"
            "p = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(sys.executable)}\n"
            "p |= {x for x in sys.path if os.path.isdir(x)}\n"
            "p |= {os.path.realpath(x) for x in list(p)}\n"
            "p.add(os.path.dirname(os.path.realpath(sys.executable)))\n"
            "print(json.dumps({'folders': sorted(p),\n"
            "                  'path': [x for x in sys.path if os.path.isdir(x)]}))"};
  o.timeout_s = 60;
  ARENA_ASSIGN_OR_RETURN(ProcessResult r, RunProcess(o));
  Json j = Json::parse(r.out, nullptr, false);
  if (!r.success() || !j.is_object() || !j["folders"].is_array() || !j["path"].is_array()) {
    return Unavailable("cannot ask " + python + " where it is installed: " + r.Describe() + " " +
                       r.err);
  }
  std::set<std::string> folders;
  for (const auto& p : j["folders"]) {
    std::string path = p.get<std::string>();
    if (path.empty() || path == "/" || path.rfind("/usr", 0) == 0) continue;
    folders.insert(path);
  }
  PythonInstall install;
  // A folder inside another is bound with it.
  for (const auto& p : folders) {
    bool inside = false;
    for (const auto& q : folders) {
      if (q != p && p.rfind(q + "/", 0) == 0) inside = true;
    }
    if (!inside) install.folders.push_back(p);
  }
  for (const auto& p : j["path"]) {
    install.path += (install.path.empty() ? "" : ":") + p.get<std::string>();
  }
  known[python] = install;
  return install;
}

Status InitializeWorker(WorkerProcess& worker, const Json& init, double timeout_s,
                        const std::string& what, Json* metrics) {
  auto reply = worker.Request(JsonText(init), timeout_s);
  if (!reply.ok()) {
    return Unavailable(what + " did not start: " + reply.status().message() + "\n" +
                       worker.StderrTail());
  }
  Json j = Json::parse(*reply, nullptr, false);
  if (j.is_discarded() || j.value("status", "") != "passed") {
    return Unavailable(what + " failed to initialise: " +
                       (j.is_discarded() ? *reply : j.value("detail", "")) + "\n" +
                       worker.StderrTail());
  }
  if (metrics != nullptr) *metrics = j.value("metrics", Json::object());
  return OkStatus();
}

StageOutcome OutcomeFromReply(const Json& j) {
  StageOutcome o;
  auto parsed = ParseStageStatus(j.value("status", "error"));
  o.status = parsed.ok() ? *parsed : StageStatus::kFailed;
  o.detail = (parsed.ok() ? "" : "harness error: ") + j.value("detail", "");
  o.log = j.value("log", "");
  o.seconds = j.value("seconds", 0.0);
  o.metrics = j.value("metrics", Json::object());
  return o;
}

StageOutcome HarnessWorker::Send(const Json& request, double timeout_s, const std::string& who,
                                 Json* reply_out) {
  if (!worker_ || !worker_->alive()) {
    auto started = start_();
    if (!started.ok()) return StageOutcome::Failed("harness error", started.status().message());
    worker_ = std::move(*started);
  }
  auto reply = worker_->Request(JsonText(request), timeout_s);
  if (!reply.ok()) {
    // The code under test crashed or hung the worker: its failure.
    std::string what = reply.status().message();
    const std::string exit = worker_->ExitDescription();
    if (!exit.empty() && what.find(exit) == std::string::npos) what += " (" + exit + ")";
    StageOutcome o = StageOutcome::Failed(who + " crashed or hung the worker: " + what,
                                          worker_->StderrTail());
    if (reply.status().code() == StatusCode::kDeadlineExceeded) o.metrics["timed_out"] = true;
    worker_.reset();
    return o;
  }
  Json j = Json::parse(*reply, nullptr, false);
  if (j.is_discarded()) return StageOutcome::Failed("harness sent an unreadable reply", *reply);
  StageOutcome o = OutcomeFromReply(j);
  if (reply_out) *reply_out = std::move(j);
  return o;
}

void HarnessWorker::Stop() {
  if (!worker_) return;
  if (worker_->alive()) worker_->Request(R"({"op": "quit"})", 1).ok();
  worker_->Kill();
  worker_.reset();
}

}  // namespace arena
