// Task importers: plugins that turn another benchmark's problems into task
// folders of a family (`arena import NAME SOURCE --out TASKS/FAMILY/SUITE`).
//
//   class MyImporter : public TaskImporter { ... };
//   ARENA_REGISTER_TASK_IMPORTER("mybench", MyImporter);
//
// An importer reads SOURCE (a folder of the other benchmark's files), makes
// each problem it can convert into an ImportedTask (file name -> contents)
// and hands it to WriteImportedTask, which writes it only if it loads and
// validates as a task of the family; what it cannot convert it lists with
// the reason. Nothing half-written is ever left in the tasks tree.
#ifndef ARENA_CORE_IMPORTER_H_
#define ARENA_CORE_IMPORTER_H_

#include <map>
#include <string>
#include <vector>

#include "core/registry.h"
#include "core/status.h"

namespace arena {

struct ImportOptions {
  std::string source;        // the other benchmark's folder
  std::string out_dir;       // TASKS/FAMILY/SUITE: one task folder per problem
  std::string project_root;  // the arena's (helper scripts, the Python to use)
  bool overwrite = false;    // replace task folders that exist
};

// One problem of the source: the task folder it became, or why not.
struct ImportOutcome {
  std::string source;    // the problem's file or folder
  std::string task_dir;  // written, "" when refused
  std::string refused;   // the reason, "" when written
};

// A task an importer made: its folder name and its files.
struct ImportedTask {
  std::string name;
  std::map<std::string, std::string> files;  // relative path -> contents
};

class TaskImporter {
 public:
  virtual ~TaskImporter() = default;
  // The family its tasks belong to (OUT must be under TASKS/<family>/).
  virtual std::string Family() const = 0;
  // Converts every problem under options.source; an error only when the
  // source as a whole cannot be read.
  virtual Result<std::vector<ImportOutcome>> Import(const ImportOptions& options) const = 0;
};

using TaskImporterRegistry = Registry<TaskImporter>;

// Where the tasks root is for an OUT of TASKS/FAMILY/SUITE, checking that
// FAMILY is `family`.
Result<std::string> ImportTasksRoot(const std::string& out_dir, const std::string& family);

// Writes `task` as OUT/<name> if it loads and validates as a task of its
// family (a sibling temporary folder, renamed into place); an existing
// folder is replaced only with options.overwrite. Returns the folder, or
// the reason it was not written.
Result<std::string> WriteImportedTask(const ImportOptions& options, const ImportedTask& task);

}  // namespace arena

#define ARENA_REGISTER_TASK_IMPORTER(name, Impl) \
  ARENA_REGISTER_PLUGIN_IMPL(::arena::TaskImporter, name, Impl, __LINE__)

#endif  // ARENA_CORE_IMPORTER_H_
