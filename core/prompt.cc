#include "core/prompt.h"

#include <filesystem>

#include "core/files.h"

namespace arena {
namespace fs = std::filesystem;

// core/prompts/agent.md and cpu.md, compiled in (the prompt_texts genrule).
extern const char kAgentPromptFrame[];
extern const char kCpuCheatsheet[];

Result<std::string> FillTemplate(const std::string& text,
                                 const std::map<std::string, std::string>& values) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t open = text.find("{{", pos);
    if (open == std::string::npos) break;
    size_t close = text.find("}}", open);
    if (close == std::string::npos) return InvalidArgument("template: '{{' without '}}'");
    out += text.substr(pos, open - pos);
    std::string key = text.substr(open + 2, close - open - 2);
    auto it = values.find(key);
    if (it == values.end()) return InvalidArgument("template: unknown placeholder {{" + key + "}}");
    out += it->second;
    pos = close + 2;
  }
  return out + text.substr(pos);
}

Result<std::string> RenderPrompt(const TaskSpec& task, const std::string& family_prompt,
                                 const std::string& project_root, const DeviceInfo& device,
                                 const std::string& feedback_command) {
  const fs::path root(project_root);
  const std::string frame = kAgentPromptFrame;
  // A part that is declared must be there: a prompt silently missing its
  // contract would be a different task.
  std::string family = "Make the kernel faster; keep its interface.\n";
  if (!family_prompt.empty()) {
    ARENA_ASSIGN_OR_RETURN(family, ReadFile((root / family_prompt).string()));
  }
  std::string platform = device.is_gpu() ? "" : kCpuCheatsheet;
  const std::string platform_prompt = PlatformPromptFile(device);
  if (!platform_prompt.empty()) {
    ARENA_ASSIGN_OR_RETURN(platform, ReadFile((root / platform_prompt).string()));
  }
  std::string files;
  for (const auto& f : task.editable) files += "- " + f + "\n";
  std::string configs;
  for (const Configuration* c : task.ConfigsOfKind(ConfigKind::kTuning)) {
    configs += "- " + c->name + ": " + c->params.dump() + "\n";
  }
  std::string tunables;
  for (const auto& t : task.tunables) {
    tunables += "- " + t.name + " in " + t.values.dump() + " (now " + t.default_value.dump() + ")\n";
  }
  return FillTemplate(frame, {
      {"task_id", task.id},
      {"description", task.description},
      {"instructions", task.instructions},
      {"family", family},
      {"platform", platform},
      {"device", device.Describe()},
      {"files", files},
      {"configs", configs},
      {"tunables", tunables.empty() ? "(none declared)\n" : tunables},
      {"feedback", feedback_command},
  });
}

}  // namespace arena
