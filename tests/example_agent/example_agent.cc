// An agent written from docs/adding-an-agent.md alone, against the plugin
// SDK (//core:sdk) and nothing else: it applies the text replacements its
// configuration lists to the editable files, asks the arena for feedback
// on the tuning configurations, and keeps its edits only if they are
// correct and (unless told otherwise) faster.
//
//   # --agent-config
//   replace: {"time_us: 100": "time_us: 50"}   # old text -> new text
//   check_only: false                          # no timing in the feedback
//   keep_slower: false                         # keep correct but slower edits
#include <chrono>
#include <filesystem>
#include <map>
#include <string>

#include "core/agent.h"
#include "core/files.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

class ExampleAgent : public AgentAdapter {
 public:
  SectionSchema ConfigSchema() const override {
    return {"",
            {{"replace", FieldType::kStringMap, /*required=*/true},
             {"check_only", FieldType::kBool},
             {"keep_slower", FieldType::kBool}}};
  }

  Result<AgentOutcome> Run(const AgentRequest& request) override {
    const auto start = std::chrono::steady_clock::now();
    AgentOutcome out;
    // The originals, to put back if the edit does not hold.
    std::map<std::string, std::string> originals;
    const Json replace = request.config.value("replace", Json::object());
    int replaced = 0;
    for (const std::string& rel : request.task->editable) {
      const std::string path = (fs::path(request.workspace) / rel).string();
      ARENA_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
      originals[path] = text;
      for (const auto& [from, to_json] : replace.items()) {
        const std::string to = to_json.get<std::string>();
        for (size_t at = text.find(from); at != std::string::npos;
             at = text.find(from, at + to.size())) {
          text.replace(at, from.size(), to);
          ++replaced;
        }
      }
      ARENA_RETURN_IF_ERROR(WriteFileAtomic(path, text));
    }
    out.transcript += "replaced " + std::to_string(replaced) + " place(s)\n";
    if (replaced > 0 && request.feedback) {
      FeedbackOptions options;
      options.check_only = request.config.value("check_only", false);
      ++out.feedback_calls;
      ARENA_ASSIGN_OR_RETURN(FeedbackReport report, request.feedback(options));
      out.transcript += report.text;
      const bool slower = !options.check_only && report.speedup.has_value() &&
                          *report.speedup < 1.0 && !request.config.value("keep_slower", false);
      if (!report.compiled || !report.correct || slower) {
        for (const auto& [path, text] : originals)
          ARENA_RETURN_IF_ERROR(WriteFileAtomic(path, text));
        out.transcript += std::string("reverted: ") +
                          (!report.compiled  ? "it does not compile"
                           : !report.correct ? "it is wrong"
                                             : "it is slower") +
                          "\n";
      }
    }
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  }
};

}  // namespace
}  // namespace arena

ARENA_REGISTER_AGENT("example", arena::ExampleAgent);
