// A testonly battery every task family runs against one of its tasks:
//
//   TEST(MyFamily, Conformance) {
//     RunFamilyConformance({"myfamily", tasks_root, task_yaml, broken_files});
//   }
//
// It checks that the family validates the task, compiles and checks the
// shipped baseline (or says why a stage is skipped: never a silent pass),
// checks exactly what its Capabilities say it can on this machine (a
// compile-only family passes its compile part), refuses a broken candidate
// without crashing, and is honest about timing.
#ifndef ARENA_CORE_TESTING_FAMILY_CONFORMANCE_H_
#define ARENA_CORE_TESTING_FAMILY_CONFORMANCE_H_

#include <map>
#include <string>

namespace arena {

struct FamilyConformanceCase {
  std::string family;
  std::string tasks_root;
  std::string task_yaml;
  // Editable file -> contents of a candidate that must fail compile or check.
  std::map<std::string, std::string> broken_candidate;
  std::string project_root = ".";
};

void RunFamilyConformance(const FamilyConformanceCase& c);

}  // namespace arena

#endif  // ARENA_CORE_TESTING_FAMILY_CONFORMANCE_H_
