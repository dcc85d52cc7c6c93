// The tools a chat model is offered, confined to one agent workspace.
//
// Paths are relative to the workspace; absolute paths, '..' and symbolic
// links anywhere along a path are refused, and only the task's editable files
// may be written. A refusal is a tool result the model reads ("error: ..."),
// never a failure of the run: the model can correct itself.
//
//   WorkspaceTools tools(request.workspace, request.task->editable, request.feedback);
//   Json offered = tools.Schemas();  // the "tools" array of a chat request
//   ToolResult r = tools.Call("read_file", Json{{"path", "kernel.py"}});
//   messages.push_back({{"role", "tool"}, {"tool_call_id", id}, {"content", r.text}});
#ifndef ARENA_AGENTS_OPENAI_CHAT_WORKSPACE_TOOLS_H_
#define ARENA_AGENTS_OPENAI_CHAT_WORKSPACE_TOOLS_H_

#include <filesystem>
#include <string>
#include <vector>

#include "core/agent.h"
#include "core/status.h"

namespace arena {

struct ToolResult {
  bool ok = true;
  std::string text;  // what the model reads; starts with "error: " when !ok
};

class WorkspaceTools {
 public:
  // Files larger than this are neither read nor written: kernels are small,
  // and a model's context is not the place for megabytes.
  static constexpr size_t kMaxFileBytes = 1 << 20;

  // `feedback` may be empty; run_feedback is then not offered.
  WorkspaceTools(std::string workspace, std::vector<std::string> editable, FeedbackFn feedback);

  // OpenAI function-tool definitions (JSON schema), in the order offered.
  Json Schemas() const;

  // Runs one tool. `arguments` is the decoded JSON object the model sent.
  ToolResult Call(const std::string& name, const Json& arguments);

  int feedback_calls() const { return feedback_calls_; }

 private:
  // The workspace-relative path in normal form ("a/b.py") and the file it
  // names, or why the path is refused.
  struct ConfinedPath {
    std::string relative;
    std::filesystem::path absolute;
  };
  Result<ConfinedPath> Confine(const Json& arguments) const;

  ToolResult ReadFileTool(const Json& arguments) const;
  ToolResult WriteFileTool(const Json& arguments) const;
  ToolResult ListFilesTool() const;
  ToolResult RunFeedbackTool(const Json& arguments);
  bool IsEditable(const std::string& relative) const;

  std::filesystem::path workspace_;
  std::vector<std::string> editable_;  // in normal form
  FeedbackFn feedback_;
  int feedback_calls_ = 0;
};

bool IsValidUtf8(const std::string& text);
// `text` with every byte that is not part of a valid UTF-8 sequence replaced
// by '?': JSON encoders refuse invalid UTF-8, and servers echo raw bytes.
std::string ReplaceInvalidUtf8(const std::string& text);

}  // namespace arena

#endif  // ARENA_AGENTS_OPENAI_CHAT_WORKSPACE_TOOLS_H_
