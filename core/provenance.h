// What produced a result, recorded with it so that results are compared
// only with results of the same task version, device and scoring:
//
//   task_hash        SHA-256 over task.yaml and every declared file of the
//                    task folder (editable baseline and harness), by name
//   candidate_hash   SHA-256 over the editable files as evaluated (what the
//                    agent submitted), by name: a stored submission is
//                    matched with the verdicts given on it
//   scoring_version  kScoringVersion: bumped whenever scoring changes
//   arena_version    the commit the arena was built from (a stamped build,
//                    `--config=stamp`; "+modified" if the tree had changes),
//                    or "unstamped"
//   arena_build      SHA-256 of the arena binary that evaluated (the build;
//                    the tree carries no version stamp)
//   device, arch     where it ran, and the driver's CUDA version
//   toolchain        what built and ran the subjects, as the family knows it
//                    (compilers, Python, PyTorch, Triton: versions)
//
// Results without provenance (stored before it was recorded) are compared
// as they were, saying so.
#ifndef ARENA_CORE_PROVENANCE_H_
#define ARENA_CORE_PROVENANCE_H_

#include <string>

#include <nlohmann/json.hpp>

#include "core/device.h"
#include "core/status.h"
#include "core/task.h"

namespace arena {

// Bumped when a change to scoring (scoring.cc, the gates, the speedup
// definitions) makes old scores incomparable with new ones.
// 2: the speedup of subjects timed in interleaved rounds is the median of
// the rounds' ratios (was the ratio of the medians).
// 3: a task whose timing failed on a configuration checked correct (a
// finding, a crash or a hang when timed) is not correct (its other
// configurations' speedups were its score before).
constexpr int kScoringVersion = 3;

// SHA-256 (hex) of the task's files: task.yaml, then the editable and
// harness files, each as its name, a NUL, its bytes and a NUL, sorted by name.
Result<std::string> TaskContentHash(const TaskSpec& task);

// SHA-256 (hex) of the task's editable files in `candidate_dir`, each as
// its name, a NUL, its bytes and a NUL (a missing file: its name, a NUL and
// a 0x01 byte), sorted by name.
std::string CandidateContentHash(const TaskSpec& task, const std::string& candidate_dir);
// SHA-256 (hex) of this program's binary, computed once.
std::string ArenaBuild();
// The commit this program was built from, as its main set it at start
// (SetArenaVersion), else "unstamped".
std::string ArenaVersion();
void SetArenaVersion(const std::string& version);

// The provenance of a result of `task` on `device` (task_hash empty if the
// files cannot be read).
nlohmann::json MakeProvenance(const TaskSpec& task, const DeviceInfo& device);

// What must be equal for two results to be compared: device, architecture
// and scoring version ("" for results without provenance).
std::string ComparableKey(const nlohmann::json& provenance);

}  // namespace arena

#endif  // ARENA_CORE_PROVENANCE_H_
