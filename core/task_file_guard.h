// Checks a task file's bytes and structure before anything else reads it,
// so that hostile input is an error with a position, never a hang or a
// crash: size, UTF-8, YAML anchors and aliases (an alias bomb expands
// exponentially), nesting depth, duplicate keys, the number of documents
// (yaml-cpp can yield empty documents without end); and a task folder's files:
// regular files only, links only as a mirror of the same file (a Bazel
// runfiles tree), never to anything else on the host.
//
//   ARENA_RETURN_IF_ERROR(CheckTaskFileText(path, text));   // "f.yaml:3:7: ..."
//   ARENA_RETURN_IF_ERROR(CheckTaskFolder(dir, "triton2triton/suite/task", {"kernel.py"}));
#ifndef ARENA_CORE_TASK_FILE_GUARD_H_
#define ARENA_CORE_TASK_FILE_GUARD_H_

#include <cstddef>
#include <string>
#include <vector>

#include "core/status.h"

namespace arena {

constexpr size_t kMaxTaskFileBytes = 1 << 20;
constexpr int kMaxTaskFileDepth = 32;
constexpr int kMaxTaskFileDocuments = 64;

// `text` is the content of the file at `path` (named in errors).
Status CheckTaskFileText(const std::string& path, const std::string& text);

// The folder of task `task_id` (<family>/<suite>/<task>): no devices, pipes
// or sockets anywhere in it, and each of `files` (relative paths: the task
// file, the editable and harness files) a regular file or a mirroring link.
Status CheckTaskFolder(const std::string& dir, const std::string& task_id,
                       const std::vector<std::string>& files);

}  // namespace arena

#endif  // ARENA_CORE_TASK_FILE_GUARD_H_
