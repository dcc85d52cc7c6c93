// The replay agent re-submits stored candidate files, laid out by task id:
//
//   <submissions>/<family>/<suite>/<task>/<editable files>
//
// It is the basis of reproducible leaderboards: a stored run's candidates
// (runs/<run>/tasks/<id>/candidate) are re-evaluated on another machine or
// after a change of the arena. Config: {submissions: DIR}.
#include <filesystem>

#include "core/agent.h"
#include "core/files.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

class ReplayAgent : public AgentAdapter {
 public:
  SectionSchema ConfigSchema() const override {
    return {"", {{"submissions", FieldType::kString, /*required=*/true}}};
  }
  Result<AgentOutcome> Run(const AgentRequest& request) override {
    if (!request.config.contains("submissions") || !request.config["submissions"].is_string()) {
      return InvalidArgument("replay agent: config needs 'submissions: DIR'");
    }
    const TaskSpec& task = *request.task;
    fs::path base = request.config["submissions"].get<std::string>();
    // Both layouts: <id>/ (a submissions tree) and <id with __>/candidate (a run folder).
    fs::path dir = base / task.id;
    if (!fs::is_directory(dir)) dir = base / "tasks" / TaskIdToFileName(task.id) / "candidate";
    AgentOutcome out;
    if (!fs::is_directory(dir)) {
      out.ok = false;
      out.detail = "no stored submission for " + task.id + " under " + base.string();
      return out;
    }
    for (const auto& rel : task.editable) {
      fs::path src = dir / rel;
      if (!fs::is_regular_file(src)) {
        out.ok = false;
        out.detail = "stored submission for " + task.id + " lacks " + rel;
        return out;
      }
      ARENA_RETURN_IF_ERROR(CopyFile(src.string(), (fs::path(request.workspace) / rel).string()));
      out.transcript += "replay: " + src.string() + "\n";
    }
    return out;
  }
};

}  // namespace
}  // namespace arena

ARENA_REGISTER_AGENT("replay", arena::ReplayAgent);
