// The agents' sandbox: bubblewrap around a command.
//
// Inside, the agent sees its workspace read-write at /workspace, the system
// (/usr, /etc) read-only, a private /tmp and HOME, and nothing else: not the
// project, not other tasks, not held-out configurations. It has no network
// unless the adapter needs its API endpoint (then allowed, and recorded), a
// fresh environment holding only what is passed on, limits on time, memory
// and number of processes, and its whole process tree is killed at the end.
//
//   SandboxOptions sb;
//   sb.workspace = "/runs/r/tasks/t/workspace";
//   ARENA_ASSIGN_OR_RETURN(ProcessOptions p, SandboxedProcess(sb, {"claude", "-p", prompt}));
//   p.timeout_s = 600;
//   ARENA_ASSIGN_OR_RETURN(ProcessResult r, RunProcess(p));
#ifndef ARENA_CORE_SANDBOX_H_
#define ARENA_CORE_SANDBOX_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/process.h"

namespace arena {

constexpr char kSandboxWorkspace[] = "/workspace";
constexpr char kSandboxArena[] = "/opt/arena/arena";

struct SandboxOptions {
  std::string workspace;  // host folder, bound read-write at /workspace
  // Extra host paths bound read-only (host path, path inside), e.g. an agent
  // CLI's installation, or the arena binary for the feedback command.
  std::vector<std::pair<std::string, std::string>> read_only;
  bool network = false;
  std::map<std::string, std::string> env;  // on top of PATH, HOME, TMPDIR, LANG
  long long memory_bytes = 0;              // 0: none
  int max_processes = 256;                 // 0: none
};

// Why the sandbox cannot run here, or "" when it can.
std::string SandboxUnavailableReason();

// A ProcessOptions that runs argv inside the sandbox (timeout left to the
// caller). argv[0] is looked up on the sandbox's PATH.
Result<ProcessOptions> SandboxedProcess(const SandboxOptions& sandbox,
                                        const std::vector<std::string>& argv);

}  // namespace arena

#endif  // ARENA_CORE_SANDBOX_H_
