// The agents' sandbox: bubblewrap around a command.
//
// Inside, the agent sees its workspace read-write at /workspace, the system
// (/usr, /etc) read-only, a private /tmp and HOME, and nothing else: not the
// project, not other tasks, not held-out configurations. It has no network
// unless the adapter needs its API endpoint (then allowed, and recorded), a
// fresh environment holding only what is passed on, limits on time, memory
// and number of processes, and its whole process tree is killed at the end.
// A system-call filter refuses what no subject needs and the kernel's most
// exposed code lies behind (namespaces and mounts of its own, io_uring,
// eBPF, userfaultfd, performance counters, keyrings, modules; and
// fallocate, which would take disk past the watch at once).
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

#include "core/device.h"
#include "core/process.h"

namespace arena {

constexpr char kSandboxWorkspace[] = "/workspace";
constexpr char kSandboxArena[] = "/opt/arena/arena";

struct SandboxOptions {
  std::string workspace;  // host folder, bound read-write at /workspace
  bool workspace_read_only = false;  // code under test: its own files, read-only
  // Extra host paths bound read-only (host path, path inside), e.g. an agent
  // CLI's installation, or the arena binary for the feedback command.
  std::vector<std::pair<std::string, std::string>> read_only;
  // Host folders bound read-write (host path, path inside), e.g. memory an
  // evaluation lends the code under test.
  std::vector<std::pair<std::string, std::string>> read_write;
  // Device nodes passed through (e.g. /dev/nvidia0; AllowDevice below
  // adds a GPU's); nothing else of /dev.
  std::vector<std::string> devices;
  bool network = false;
  std::map<std::string, std::string> env;  // on top of PATH, HOME, TMPDIR, LANG
  long long memory_bytes = 0;              // 0: none
  // The size of its private /tmp, which lives in the host's memory, not on
  // its disk (and outside memory_bytes, which counts a process's own
  // memory): a subject that fills it gets "No space left on device", not
  // the host's memory. /dev/shm is another such folder, of at most 256 MiB;
  // the rest of /dev is read-only.
  long long tmp_bytes = 4LL << 30;
  // What its writable host folders (a workspace not read-only, read_write)
  // may hold together, on the host's disk: bytes of disk blocks, and files
  // and folders (ProcessOptions::disk_folders: measured while it runs,
  // killed past either). 0: no limit. A process started from SandboxArgv
  // by a judge has no such watch: give it no writable host folder.
  long long disk_bytes = 4LL << 30;
  long long disk_entries = 100000;
  int max_processes = 256;                 // 0: none
  // The system, read-only: all of /usr when this is empty; else only these
  // shared libraries (host file, name inside), for a native program that
  // must find nothing else (no compiler, no vendor library). A bare name is
  // bound under kSandboxLibraries, which is on LD_LIBRARY_PATH; an absolute
  // one (the dynamic loader) at that path, under /usr for /lib and /lib64.
  std::vector<std::pair<std::string, std::string>> libraries;
};

constexpr char kSandboxLibraries[] = "/opt/arena/lib";

// The shared libraries `files` load, with theirs, as ldd resolves them on
// this machine (host file, the name asked for), the dynamic loader as its
// absolute path: SandboxOptions::libraries for those programs.
Result<std::vector<std::pair<std::string, std::string>>> SharedLibraryClosure(
    const std::vector<std::string>& files);

// Why the sandbox cannot run here, or "" when it can. The bubblewrap binary
// is $ARENA_BWRAP when set (a machine without the package can carry one),
// else the system's. The answer is probed once per binary and kept.
std::string SandboxUnavailableReason();

// A ProcessOptions that runs argv inside the sandbox (timeout left to the
// caller). argv[0] is looked up on the sandbox's PATH.
// SandboxArgv is the same command line alone, for a process that starts the
// sandbox itself (an evaluation's judge starting its runners).
Result<ProcessOptions> SandboxedProcess(const SandboxOptions& sandbox,
                                        const std::vector<std::string>& argv);
Result<std::vector<std::string>> SandboxArgv(const SandboxOptions& sandbox,
                                             const std::vector<std::string>& argv);

// Lets the sandbox use `device` and no other GPU of its platform
// (AccessTo): its device nodes, the folders its runtime reads, read-only,
// and the variable naming it. Nothing for the CPU.
void AllowDevice(const DeviceInfo& device, SandboxOptions* sandbox);

}  // namespace arena

#endif  // ARENA_CORE_SANDBOX_H_
