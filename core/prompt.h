// Prompts for LLM agents, rendered from templates under
// <project>/agents/prompts/: agent.md (the frame), families/<family>.md (the
// family's role and contract), platforms/<platform>.md (a cheatsheet for the
// GPU the candidate will run on). Placeholders are {{name}}.
//
//   ARENA_ASSIGN_OR_RETURN(std::string p, RenderPrompt(task, root, device));
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

Result<std::string> RenderPrompt(const TaskSpec& task, const std::string& project_root,
                                 const DeviceInfo& device,
                                 const std::string& feedback_command = "./feedback");

}  // namespace arena

#endif  // ARENA_CORE_PROMPT_H_
