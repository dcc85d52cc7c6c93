#include "core/importer.h"

#include <unistd.h>

#include <filesystem>

#include "core/family.h"
#include "core/files.h"
#include "core/task.h"

namespace arena {
namespace fs = std::filesystem;

Result<std::string> ImportTasksRoot(const std::string& out_dir, const std::string& family) {
  const fs::path out = fs::absolute(out_dir).lexically_normal();
  const fs::path suite = out.filename().empty() ? out.parent_path() : out;
  if (suite.parent_path().filename() != family) {
    return InvalidArgument("--out " + out_dir + ": expected TASKS/" + family +
                           "/SUITE (tasks live at TASKS/FAMILY/SUITE/NAME)");
  }
  return suite.parent_path().parent_path().string();
}

Result<std::string> WriteImportedTask(const ImportOptions& options, const ImportedTask& task) {
  if (task.name.empty() || task.name.find('/') != std::string::npos || task.name[0] == '.') {
    return InvalidArgument("'" + task.name + "' is not a task folder name");
  }
  const fs::path suite = fs::absolute(options.out_dir).lexically_normal();
  const fs::path final_dir = suite / task.name;
  std::error_code ec;
  if (fs::exists(final_dir, ec) && !options.overwrite) {
    return AlreadyExists(final_dir.string() + " exists (--overwrite replaces it)");
  }
  const fs::path staging = suite / (".import-" + task.name + "-" + std::to_string(getpid()));
  ARENA_RETURN_IF_ERROR(ResetDir(staging.string()));
  auto fail = [&](const Status& s) -> Result<std::string> {
    RemoveTree(staging.string()).ok();
    return s;
  };
  for (const auto& [rel, text] : task.files) {
    if (fs::path(rel).is_absolute() || rel.find("..") != std::string::npos) {
      return fail(InvalidArgument("'" + rel + "' is not a path inside the task folder"));
    }
    if (Status s = WriteFileAtomic((staging / rel).string(), text); !s.ok()) return fail(s);
  }
  // It must load and validate where it will live: the family is the
  // folder's, the schema the core's, the rest the family's.
  auto loaded = LoadTask(suite.parent_path().parent_path().string(), (staging / "task.yaml").string());
  if (!loaded.ok()) return fail(loaded.status());
  auto impl = TaskFamilyRegistry::Global().Create(loaded->family);
  if (!impl.ok()) return fail(impl.status());
  if (Status s = ValidateTaskSafely(**impl, *loaded); !s.ok()) return fail(s);
  if (fs::exists(final_dir, ec)) {
    if (Status s = RemoveTree(final_dir.string()); !s.ok()) return fail(s);
  }
  fs::rename(staging, final_dir, ec);
  if (ec) return fail(Internal("cannot move " + staging.string() + " into place: " + ec.message()));
  return final_dir.string();
}

}  // namespace arena
