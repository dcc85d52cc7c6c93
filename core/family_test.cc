#include "core/family.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace arena {
namespace {

// A family whose validation slips: it converts its section without checking.
class Careless : public TaskFamily {
 public:
  Status ValidateTask(const TaskSpec& task) const override {
    if (task.family_section["throw"].IsDefined()) throw std::runtime_error("not a YAML error");
    (void)task.family_section["blocks"].as<int>();  // a string here throws
    return OkStatus();
  }
  Result<std::unique_ptr<EvaluationSession>> Open(const EvaluationContext&) const override {
    return Unavailable("not for running");
  }
};

TaskSpec Spec(const std::string& section) {
  TaskSpec t;
  t.family = "careless";
  t.yaml_path = "tasks/x/task.yaml";
  t.family_section = YAML::Load(section);
  return t;
}

TEST(ValidateTaskSafely, APluginsYamlSlipIsAnErrorWithItsPosition) {
  Careless family;
  EXPECT_TRUE(ValidateTaskSafely(family, Spec("blocks: 4")).ok());
  Status s = ValidateTaskSafely(family, Spec("\nblocks: many"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message().rfind("tasks/x/task.yaml:2:9: careless section: ", 0), 0u) << s.message();
  s = ValidateTaskSafely(family, Spec("throw: 1"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "tasks/x/task.yaml: careless section: not a YAML error");
}

}  // namespace
}  // namespace arena
