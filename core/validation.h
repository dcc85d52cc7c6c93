// Validation of a task beyond its schema, one library for `arena tasks
// --validate` and the families' conformance kit (core/testing): the task's
// shipped files, evaluated as their own candidate on this machine, must
//
//   - compile (the baseline, and the editable files unless the task ships
//     none, files.starter: false, when nothing may compile);
//   - be correct on every configuration checked here;
//   - give outputs that change with the inputs (the trials of one check
//     draw different inputs; families report one list of output
//     fingerprints per trial in metrics["fingerprints"]);
//   - be checked exactly where the family's capabilities say it can check
//     on this device, every skip saying why.
//
//   TaskValidation v = ValidateTaskBaseline(task, family, device, root, scratch);
//   for (const auto& line : v.lines) std::cout << line << "\n";
//   if (!v.status.ok()) ...
#ifndef ARENA_CORE_VALIDATION_H_
#define ARENA_CORE_VALIDATION_H_

#include <string>
#include <vector>

#include "core/device.h"
#include "core/family.h"
#include "core/scoring.h"
#include "core/status.h"
#include "core/task.h"

namespace arena {

struct TaskValidation {
  // Ok, or the first property that does not hold (naming the task and what
  // failed, with the stage's log).
  Status status;
  TaskResult result;               // the shipped files evaluated as the candidate
  int checked = 0;                 // configurations the baseline was checked on
  std::vector<std::string> lines;  // what was done, for a person: compiles, each
                                   // configuration checked, each reason for a skip
};

// `work_dir` is scratch, removed afterwards.
TaskValidation ValidateTaskBaseline(const TaskSpec& task, const TaskFamily& family,
                                    const DeviceInfo& device, const std::string& project_root,
                                    const std::string& work_dir);

}  // namespace arena

#endif  // ARENA_CORE_VALIDATION_H_
