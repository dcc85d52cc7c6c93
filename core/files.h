// Small filesystem helpers with the arena's guarantees: writes are atomic
// (temporary file, fsync, rename), so an interrupted run never leaves a
// half-written result behind.
//
//   ARENA_RETURN_IF_ERROR(WriteFileAtomic(dir + "/result.json", json.dump(2)));
#ifndef ARENA_CORE_FILES_H_
#define ARENA_CORE_FILES_H_

#include <string>
#include <vector>

#include "core/status.h"

namespace arena {

Status WriteFileAtomic(const std::string& path, const std::string& contents);
// Removes, below `dir`, the temporary files of WriteFileAtomic calls whose
// process is gone (killed mid-write); returns how many. A resumed run calls
// it so that an interruption leaves nothing behind.
int RemoveStaleTemporaries(const std::string& dir);
// "arena-<what>-<pid>-<pid namespace>": the name of a scratch folder of this
// process (an evaluation's, a validation's, a feedback socket's).
std::string ScratchName(const std::string& what);
// Removes the scratch folders directly in `dir` named by ScratchName whose
// process is gone: an arena killed mid-run leaves nothing behind for long.
// Only folders of this PID namespace are judged (a pid means nothing in
// another container sharing /tmp). Returns how many. The arena calls it on
// the temporary folders at start.
int RemoveOrphanedScratch(const std::string& dir);
Result<std::string> ReadFile(const std::string& path);
// Copies a directory tree (regular files and folders; links are followed to
// regular files only, as a Bazel runfiles tree needs).
Status CopyTree(const std::string& from, const std::string& to);
// Copies each entry directly in `from` that `to` lacks (a folder with what
// it holds), its regular files and folders alone (links and anything else
// left out), under a temporary name first and then renamed: a reader of
// `to` sees an entry whole or not at all. Entries named with a leading dot
// (such temporaries) are not copied. Best effort, for caches: returns how
// many entries were added.
int AddMissingEntries(const std::string& from, const std::string& to);
Status CopyFile(const std::string& from, const std::string& to);
Status MakeDirs(const std::string& path);
Status RemoveTree(const std::string& path);
// An empty directory: created, or emptied in place if it exists (a sandbox
// may have it bound; a link there is replaced by a folder).
Status ResetDir(const std::string& path);
// Copies `files` (paths relative to `from`) into `to`, regular files only:
// a link or anything else is never followed. Returns those it did not copy
// for that reason, or because they are missing.
Result<std::vector<std::string>> CopyRegularFiles(const std::string& from,
                                                  const std::vector<std::string>& files,
                                                  const std::string& to);
// "triton2triton/norms/rmsnorm" -> "triton2triton__norms__rmsnorm"
std::string TaskIdToFileName(const std::string& task_id);

// A folder the arena keeps between runs for `what` (built libraries,
// compiled kernels): $`env_var` ("off": none), else
// $XDG_CACHE_HOME/arena/`what`, else ~/.cache/arena/`what`; "" when turned
// off or no home is known.
std::string UserCacheDir(const char* env_var, const std::string& what);

}  // namespace arena

#endif  // ARENA_CORE_FILES_H_
