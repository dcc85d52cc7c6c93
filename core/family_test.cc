#include "core/family.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace arena {
namespace {

// A family whose validation slips: it converts its section without checking.
class Careless : public TaskFamily {
 public:
  Status ValidateTask(const TaskSpec& task) const override {
    static const SectionSchema kSchema = {"careless", {{"throw"}, {"blocks"}}};
    ARENA_ASSIGN_OR_RETURN(Section s, DecodeSection(task, kSchema));
    if (s.Has("throw")) throw std::runtime_error("not a YAML error");
    (void)std::stoi(s.String("blocks", "0"));  // a word here throws
    return OkStatus();
  }
  Result<std::unique_ptr<EvaluationSession>> Open(const EvaluationContext&) const override {
    return Unavailable("not for running");
  }
};

TaskSpec Spec(const std::string& key, const std::string& value) {
  TaskSpec t;
  t.family = "careless";
  t.yaml_path = "tasks/x/task.yaml";
  t.family_section.kind = YamlValue::Kind::kMap;
  t.family_section.line = 2;
  t.family_section.column = 3;
  YamlValue k, v;
  k.kind = v.kind = YamlValue::Kind::kScalar;
  k.scalar = key;
  v.scalar = value;
  t.family_section.keys.push_back(k);
  t.family_section.items.push_back(v);
  return t;
}

TEST(ValidateTaskSafely, APluginsSlipIsAnErrorNamingTheFile) {
  Careless family;
  EXPECT_TRUE(ValidateTaskSafely(family, Spec("blocks", "4")).ok());
  Status s = ValidateTaskSafely(family, Spec("blocks", "many"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message().rfind("tasks/x/task.yaml: careless section: ", 0), 0u) << s.message();
  s = ValidateTaskSafely(family, Spec("throw", "1"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "tasks/x/task.yaml: careless section: not a YAML error");
}

}  // namespace
}  // namespace arena
