// Child processes with limits: the arena's only way to run untrusted code.
//
// RunProcess starts a program in its own process group, feeds it stdin,
// captures stdout and stderr up to a cap, and on the time limit kills the
// whole group (children and grandchildren too). When the program exits, any
// processes it left behind in its group are killed as well.
//
//   ProcessOptions o;
//   o.argv = {"/bin/sh", "-c", "make"};
//   o.timeout_s = 60;
//   ARENA_ASSIGN_OR_RETURN(ProcessResult r, RunProcess(o));
//   if (r.timed_out) ...; else if (r.signal) ...; else r.exit_code ...
//
// WorkerProcess keeps a child alive and talks to it in lines (one JSON
// request, one JSON reply), each reply awaited with its own time limit.
#ifndef ARENA_CORE_PROCESS_H_
#define ARENA_CORE_PROCESS_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"

namespace arena {

struct ProcessOptions {
  std::vector<std::string> argv;  // argv[0] is a path or a name on PATH
  std::string cwd;                // empty: the current directory
  std::map<std::string, std::string> env;  // set on top of the inherited one
  std::vector<std::string> unset_env;      // removed from the inherited one
  bool clear_env = false;  // inherit nothing: the environment is `env` alone
  double timeout_s = 60;
  size_t output_cap = 1 << 20;  // bytes kept per stream; the rest is counted
  std::string stdin_data;
  long long memory_limit_bytes = 0;  // RLIMIT_AS; 0: none
  // The child is what the kernel kills first when the machine runs out of
  // memory (its oom_score_adj at the most, 1000): code under test or an
  // agent that takes the host's memory ends itself, not the arena.
  bool killed_first_out_of_memory = false;
  // At most this many processes at once (0: no limit): a pids cgroup of its
  // own where one can be made (root), which also catches processes that
  // leave the process group (setsid) so all are killed at the end;
  // otherwise RLIMIT_NPROC, which limits the user's processes.
  int max_processes = 0;
  // No network: the child gets a network namespace of its own (loopback
  // only). Where the machine refuses (not root and no user namespaces), the
  // program still runs; NetworkIsolationAvailable() says which.
  bool isolate_network = false;
  // Whether that namespace may come inside a user namespace of its own,
  // where the arena is not privileged to make one alone. A process that
  // starts sandboxes (a judge starting its runners) says no: bubblewrap
  // cannot make its namespaces inside such a user namespace. Its network
  // then stays the machine's where only a user namespace would take it
  // away; the subjects' code it starts runs in sandboxes that have none.
  bool network_via_user_namespace = true;
  // Folders the program may write (its sandbox's writable binds), and what
  // they may hold together: the disk blocks of everything in them (sparse
  // and preallocated files as they really take the disk) and the number of
  // entries. Measured every quarter second while it runs (more seldom when
  // a measurement takes long); past either limit the whole group is killed
  // and ProcessResult::disk_exceeded says so. A burst between two
  // measurements can pass the limit for that long. 0: no limit.
  std::vector<std::string> disk_folders;
  long long disk_bytes = 0;
  long long disk_entries = 0;
};

struct ProcessResult {
  int exit_code = -1;  // valid when signal == 0 and !timed_out
  int signal = 0;      // the signal that ended it, if any
  bool timed_out = false;
  std::string out;
  std::string err;
  size_t out_dropped = 0;  // bytes beyond the cap
  size_t err_dropped = 0;
  double wall_s = 0;
  // Why it was killed for what it wrote ("its writable folders held
  // 4.1 GiB, over their limit of 4 GiB"); "" when it was not.
  std::string disk_exceeded;

  bool success() const {
    return !timed_out && signal == 0 && exit_code == 0 && disk_exceeded.empty();
  }
  // "exit 0", "exit 3", "killed by signal 11 (SIGSEGV)", "timed out after
  // 5.0 s", "killed: its writable folders held ..."
  std::string Describe() const;
};

// What `folders` hold: the disk blocks of every entry (not following links,
// not counting an entry twice when folders overlap or files are linked
// twice) and how many entries, counting stopped at max_entries + 1 (0: no
// cap). Entries that vanish while counted are skipped. A folder its owner
// made unreadable is made readable again (the arena's user owns what a
// sandbox writes). What cannot be measured is said in `unmeasured` (a
// folder nested deeper than kMaxDiskDepth, one that stays unreadable): a
// watch counts that as over its limit, since what it cannot see it cannot
// bound.
constexpr int kMaxDiskDepth = 128;
struct DiskUsage {
  long long bytes = 0;
  long long entries = 0;
  std::string unmeasured;
};
DiskUsage MeasureDiskUsage(const std::vector<std::string>& folders, long long max_entries = 0);

// "4 GiB", "1.5 MiB", "512 bytes".
std::string BytesText(long long bytes);

// Fails only when the program cannot be started at all.
Result<ProcessResult> RunProcess(const ProcessOptions& options);

// Makes this process (and what it starts) what the kernel kills first when
// the machine runs out of memory (ProcessOptions::killed_first_out_of_memory).
// Raising one's own score needs no privilege; async-signal-safe, for a
// child between fork and exec.
void KilledFirstOutOfMemory();

class WorkerProcess {
 public:
  // Starts the worker; it must answer each request line with one reply line.
  static Result<std::unique_ptr<WorkerProcess>> Start(const ProcessOptions& options);
  ~WorkerProcess();

  // Sends `line` (no newline) and waits at most `timeout_s` for one reply
  // line. On a time limit the whole process group is killed; on a crash the
  // error says how the worker ended. Either way the worker is then dead.
  Result<std::string> Request(const std::string& line, double timeout_s);

  bool alive() const;
  // The last `max_bytes` of what the worker wrote to stderr so far.
  std::string StderrTail(size_t max_bytes = 16384);
  // Kills the whole process group and reaps the worker.
  void Kill();
  // Describes how the worker ended ("" while alive).
  std::string ExitDescription() const;

  struct Impl;

 private:
  explicit WorkerProcess(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Whether RunProcess can enforce max_processes here (a writable pids cgroup).
bool ProcessLimitAvailable();

// Whether isolate_network takes effect on this machine (probed once).
bool NetworkIsolationAvailable();

// Name of a signal number ("SIGSEGV").
std::string SignalName(int signal);

// A duration for messages: "15 s", "1.5 s" (whole seconds, else one decimal).
std::string SecondsText(double seconds);

// `s` as one word of a POSIX shell command line, in single quotes.
std::string ShellQuote(const std::string& s);

}  // namespace arena

#endif  // ARENA_CORE_PROCESS_H_
