// Prompts for LLM agents, rendered from templates: core/prompts/agent.md
// (the frame, compiled into the arena), the family's own part
// (TaskFamily::PromptFile, in the family's folder) and the platform's
// cheatsheet for the device the candidate will run on (PlatformPromptFile,
// in the platform's folder). Placeholders are {{name}}.
//
//   ARENA_ASSIGN_OR_RETURN(std::string p,
//                          RenderPrompt(task, family.PromptFile(), root, device));
#ifndef ARENA_CORE_PROMPT_H_
#define ARENA_CORE_PROMPT_H_

#include <map>
#include <string>

#include "core/device.h"
#include "core/task.h"

namespace arena {

// Replaces each {{key}} by its value; an unknown key is an error naming it.
Result<std::string> FillTemplate(const std::string& text,
                                 const std::map<std::string, std::string>& values);

// `family_prompt`: the family's part, a path under `project_root` ("" for
// none).
Result<std::string> RenderPrompt(const TaskSpec& task, const std::string& family_prompt,
                                 const std::string& project_root,
                                 const DeviceInfo& device,
                                 const std::string& feedback_command = "./feedback");

}  // namespace arena

#endif  // ARENA_CORE_PROMPT_H_
